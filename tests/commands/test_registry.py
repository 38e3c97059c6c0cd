"""The command registry decodes a request once, one reason per bad field, and builds requests back;
request ids are remembered within their window and rebuilt from journal records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.commands.registry import (
    ANYONE,
    REPLY_WITHIN,
    Command,
    Request,
    command,
    decode,
    registered,
    reply_within,
)
from controller.commands.request_ids import MOST, WINDOW, RequestIds, mark
from controller.commands.table import CLEAR_REPLY_WITHIN, DealerMessage, Press, SetLimits, TrayFill
from controller.daemon import loop
from controller.games.catalog import load_games
from controller.games.parts.stacks import BuyIn, TopUp
from controller.journal.lines import Record
from controller.journal.log import Journal

load_games()


@pytest.mark.parametrize(("request_", "reason"), [
    ({"cmd": 7}, 'request needs a string "cmd"'),
    ({"cmd": "format_disk"}, "unknown command 'format_disk'"),
    ({"cmd": "press"}, "press needs a button name (1 to 32 characters)"),
    ({"cmd": "act", "action": "x" * 33}, "act needs an action name (1 to 32 characters)"),
    ({"cmd": "press", "button": "call", "amount": 1.5}, "amount must be a whole number of cents"),
    ({"cmd": "press", "button": "call", "amount": True}, "amount must be a whole number of cents"),
    ({"cmd": "act", "action": "call", "amount": -400}, "call: amount -400 is below 0 cents"),
    ({"cmd": "buy_in", "seat": 3, "amount": 10**30},
     "buy_in: amount is above 1000000000 cents ($10,000,000.00), the most any amount may be"),
    ({"cmd": "buy_in", "amount": 500}, "buy_in: seat must be a whole number"),
    ({"cmd": "cash_out", "seat": 0}, "cash_out: there is no seat 0: seats count from 1"),
    ({"cmd": "close_table", "supervisor": "S1", "pin": "1", "text": "x"},
     "close_table takes no field 'text'"),
    ({"cmd": "close_table"}, "close_table is a supervisor's command: it needs the supervisor's id and PIN"),
    ({"cmd": "close_table", "supervisor": "S1"}, "a supervisor's command needs the supervisor's id and PIN"),
    ({"cmd": "set_limits", "supervisor": "S1", "pin": "1", "min_bet": 0, "max_bet": 500},
     "set_limits: min_bet must be a whole number of cents from 1 to 1000000000"),
    ({"cmd": "set_limits", "supervisor": "S1", "pin": "1", "min_bet": 100, "max_bet": "5"},
     "set_limits: max_bet must be a whole number of cents"),
    ({"cmd": "tray_fill", "supervisor": "S1", "pin": "1", "amount": 0},
     "tray_fill: amount must be a whole number of cents above 0"),
    ({"cmd": "dealer_message", "supervisor": "S1", "pin": "1", "text": "a\nb"},
     "dealer_message: text must hold no control characters (line breaks, tabs, escapes)"),
    ({"cmd": "buy_in", "seat": 3, "request_id": ""},
     "request_id must be 1 to 64 letters, digits or . _ : - (one id per action, the same for its retries)"),
    ({"cmd": "links", "request_id": "r1"}, "links changes nothing: it takes no request_id"),
])
def test_a_bad_request_is_refused_with_the_reason_of_its_first_bad_field(
        request_: dict[str, object], reason: str) -> None:
    assert decode(request_) == reason


def test_every_registered_command_goes_out_and_comes_back_as_the_same_record() -> None:
    examples = {"button": "deal", "action": "hit", "amount": 500, "seat": 2, "min_bet": 500,
                "max_bet": 5000, "text": "Fill on the way", "hands": 3, "dealer": "D7",
                "dealer_pin": "2468", "slip": "closer", "seq": 7}
    for name, cls in registered().items():
        fields = {spec: examples[spec] for spec in cls.__dataclass_fields__}
        record = cls(**fields)
        request_id = "r-1" if cls.books else None             # a read takes none
        sent = record.to_request(supervisor="S101", pin="1234", request_id=request_id)
        assert json.loads(json.dumps(sent)) == sent
        assert decode(sent) == Request(record, "S101", "1234", request_id), name


def test_the_pin_is_in_no_repr_and_no_game_args() -> None:
    decoded = decode(TrayFill(500).to_request(supervisor="S101", pin="98765"))
    assert isinstance(decoded, Request)
    assert "98765" not in repr(decoded) and "98765" not in json.dumps(decoded.args())
    assert decoded.args() == {"cmd": "tray_fill", "amount": 500, "supervisor": "S101"}
    assert DealerMessage("hi").subject == "dealer_message" and Press("hit").subject == "hit"


def test_an_id_is_tied_to_its_command_and_not_to_the_pin() -> None:
    ids = RequestIds()
    limits = Request(SetLimits(500, 5000), "S101", "1111", "L1")
    ids.note(mark(limits), 10)
    assert ids.repeat(Request(SetLimits(500, 5000), "S101", "2222", "L1")) == {"ok": True}
    assert ids.repeat(Request(SetLimits(500, 6000), "S101", "1111", "L1"))["ok"] is False
    assert ids.repeat(Request(SetLimits(500, 5000), "S102", "1111", "L1"))["ok"] is False
    assert ids.repeat(Request(SetLimits(500, 5000), "S101", "1111", "L2")) is None


def test_a_dealer_s_pin_is_in_no_repr_and_not_in_the_digest_of_its_request_id() -> None:
    decoded = decode({"cmd": "dealer_in", "dealer": "D7", "dealer_pin": "97531", "request_id": "d1"})
    assert isinstance(decoded, Request)
    assert "97531" not in repr(decoded)
    other = decode({"cmd": "dealer_in", "dealer": "D7", "dealer_pin": "13579", "request_id": "d1"})
    assert isinstance(other, Request)
    assert mark(decoded) == mark(other)                  # the journaled mark says nothing of the PIN
    ids = RequestIds()
    ids.note(mark(decoded), 3)
    assert ids.repeat(other) == {"ok": True}             # (the daemon checked its PIN before)


def test_ids_are_forgotten_past_the_window_and_past_the_most_kept() -> None:
    ids = RequestIds()
    first = Request(BuyIn(3, 20000), request_id="b3")
    ids.note(mark(first), 1)
    ids.note(mark(Request(TopUp(3, 100), request_id="t3")), WINDOW)
    assert ids.repeat(first) == {"ok": True}                    # WINDOW - 1 events after it
    ids.note(mark(Request(TopUp(3, 100), request_id="t4")), WINDOW + 1)
    assert ids.repeat(first) is None and len(ids) == 2
    many = RequestIds()
    for n in range(MOST + 5):
        many.note({"id": f"r{n}", "digest": "d"}, 1)
    assert len(many) == MOST


def test_ids_are_rebuilt_from_journal_records_old_ones_without_any_too() -> None:
    top_up = Request(TopUp(2, 500), request_id="t2")
    records = [Record(seq=1, topic="T07 table.opened", body=b"{}", private={}),
               Record(seq=2, topic="T07 seat.stack", body=b"{}",
                      private={"more": True, "request": mark(top_up)}),
               Record(seq=3, topic="T07 seat.stack", body=b"{}", private={"request": "not a mark"})]
    ids = RequestIds()
    ids.rebuild(records)
    assert ids.repeat(top_up) == {"ok": True} and len(ids) == 1


def test_ids_come_back_from_a_journal_reopened_from_its_window_as_after_a_checkpoint(tmp_path: Path) -> None:
    """The daemon reopens its journal from the checkpoint's window and rebuilds the ids from the
    records it holds: an id marked before the checkpoint, within the window, is still known."""
    fill = Request(TrayFill(5000), "S101", "1234", "fill-1")
    journal = Journal.open(tmp_path / "journal.log", keep=20)
    for seq in range(1, 51):
        private = {"request": mark(fill)} if seq == 35 else {}
        journal.append(Record(seq=seq, topic="T07 tray.fill", body=b"{}", private=private))
    window = journal.window                        # what a checkpoint at seq 50 keeps
    journal.close()
    reopened = Journal.open(tmp_path / "journal.log", keep=20, start=window)
    try:
        ids = RequestIds()
        ids.rebuild(reopened.since(0))
        assert reopened.start[0] > 1 and ids.repeat(fill) == {"ok": True}
    finally:
        reopened.close()
    assert loop.REPLAY_WINDOW == WINDOW          # the daemon holds every event of the ids' window


def test_a_command_declares_how_long_a_client_waits_for_its_reply() -> None:
    assert reply_within({"cmd": "critical_memory_clear"}) == CLEAR_REPLY_WITHIN > REPLY_WITHIN
    assert reply_within({"cmd": "press", "button": "deal"}) == REPLY_WITHIN
    assert reply_within({"cmd": "format_disk"}) == reply_within({"cmd": 7}) == REPLY_WITHIN
    with pytest.raises(ValueError, match="reply_within must be > 0 seconds"):
        command("example_never", who=ANYONE, label="Never", reply_within=0)
    assert "example_never" not in registered()
    assert all(cls.reply_within > 0 for cls in registered().values())
    assert isinstance(Command.reply_within, float)
