"""The table's books, table side (controller/table/books.py): the rules of the books' commands on the
table's state, and the books kept by a checkpoint (a checkpoint of a table whose books hold nothing is
the same as before the books)."""

from __future__ import annotations

import json

from controller.commands import books as orders
from controller.events import books as events
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Limits
from controller.journal.lines import Record
from controller.table.books import BooksState, books_events
from controller.table.state import TableState

TRAY = (50_000, None)


def run(state: BooksState, order: object, supervisor: str | None = None, *,
        tray: tuple[int | None, int | None] | None = TRAY, in_hand: bool = False) -> list[object] | str:
    """The command's events, applied to ``state`` when taken."""
    assert isinstance(order, orders.Command)
    made = books_events(order, supervisor, state, tray=tray, in_hand=in_hand)
    if not isinstance(made, str):
        for event in made:
            state.apply(event)
    return made


def test_a_shift_is_an_opener_and_its_closer_each_signed_then_its_drop() -> None:
    state = BooksState()
    assert run(state, orders.SignOpener("1")) == "no dealer is signed in: the dealer signs in first"
    assert run(state, orders.DealerIn("D1", "1")) == [events.DealerIn("D1")]
    assert run(state, orders.SignOpener("1"), tray=None) == (
        'this table has no tray: configure its antenna as "tray" in [antennas]')
    assert run(state, orders.SignOpener("1"), tray=(None, None)) == "the tray has not been read yet"
    assert run(state, orders.SignOpener("1"), tray=(50_000, 52_500)) == (
        "a fill or credit still waits: move its chips first")
    assert run(state, orders.SignOpener("1"), in_hand=True) == (
        "only between hands: finish the hand (NEXT) or void it first")
    assert run(state, orders.SignOpener("1")) == [events.Opener(50_000, "D1")]
    assert run(state, orders.SignOpener("1")) == "the shift is open: its closer comes before another opener"
    assert run(state, orders.EnterDrop(100), "S1") == "the drop is entered once per shift, after its closer"
    assert run(state, orders.SignSlip("closer"), "S1") == "no closer waits for a supervisor's signature"
    assert run(state, orders.SignSlip("opener"), "S1") == [events.SlipSigned("opener", 50_000, "S1")]
    assert run(state, orders.DealerIn("D2", "2")) == [events.DealerOut("D1", "rotation"),
                                                      events.DealerIn("D2")]
    assert run(state, orders.SignCloser("2"), tray=(61_000, None)) == [events.Closer(61_000, "D2")]
    assert state.to_json() == {"dealer": "D2", "shift_open": False, "unsigned": {"closer": 61_000},
                               "drop_due": True, "rake_dropped": 0}
    assert run(state, orders.EnterDrop(0), "S1") == [events.DropEntered(0, "S1")]
    assert run(state, orders.EnterDrop(100), "S1") == "the drop is entered once per shift, after its closer"
    assert run(state, orders.DealerOut()) == [events.DealerOut("D2", "signed_out")]
    assert run(state, orders.DealerOut()) == "no dealer is signed in"


def test_the_checkpoint_keeps_the_books_and_leaves_them_out_while_they_hold_nothing() -> None:
    game = EasyJack(EasyJackRules(), Limits(500, 50000))
    state = TableState(game=game)
    assert "books" not in state.checkpoint()
    assert TableState.from_checkpoint(game, state.checkpoint()).books == BooksState()
    for event in (events.DealerIn("D1"), events.Opener(50_000, "D1")):
        state.books.apply(event)
    saved = state.checkpoint()
    assert saved["books"] == {"dealer": "D1", "shift_open": True, "unsigned": {"opener": 50_000},
                              "drop_due": False, "rake_dropped": 0}
    assert TableState.from_checkpoint(game, saved).books == state.books


def test_the_checkpoint_keeps_the_tray_s_chips_by_denomination_once_read() -> None:
    game = EasyJack(EasyJackRules(), Limits(500, 50000))
    state = TableState(game=game)
    state.apply(journaled(1, {"amount": 10_000}))              # a reading from before ``chips``
    assert "tray_chips" not in state.checkpoint()
    assert TableState.from_checkpoint(game, state.checkpoint()).tray.chips is None
    state.apply(journaled(2, {"amount": 11_500, "chips": {"2500": 4, "500": 3}}))
    assert state.checkpoint()["tray_chips"] == [[500, 3], [2500, 4]]       # as JSON writes it
    again = TableState.from_checkpoint(game, json.loads(json.dumps(state.checkpoint())))
    assert (again.tray.amount, again.tray.chips) == (11_500, {500: 3, 2500: 4})


def journaled(seq: int, data: dict[str, object]) -> Record:
    """A ``tray.counted`` as the journal holds it (its published body)."""
    body = {"seq": seq, "type": "tray.counted", "data": data}
    return Record(seq, "T07/tray.counted", json.dumps(body).encode())
