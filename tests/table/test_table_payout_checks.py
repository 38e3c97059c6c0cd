"""One rule for the checks at NEXT: the screen's boxes are exactly the spots the table checks.

For a hand of each of the four games, on the real table and journal in process:
the picture's ``checks`` (what the table publishes) become the screen's boxes
(:func:`controller.screen.payouts.payout_checks`); then every spot with a box
is paid wrong and every spot without one is given any chips at all, and NEXT
must raise ``payout_mismatch`` for exactly the spots with a box (and, paid
right, for none). Where the money goes to a stack the table keeps, no spot has
a box and the picture's ``stack_changes`` are exactly the ``seat.stack`` that
NEXT publishes; over random Hold'em Blackjack hands, the pushes and the rake of
the ``moves`` add up to the pots and to what each stack gains. The jackpot's box,
and the picture's keys against docs/pit-events.md, are checked here too.
"""

from __future__ import annotations

import re
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.events.codec import record_json
from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Limits
from controller.screen.payouts import payout_checks
from controller.table.views import public_state, table_picture
from tests.games.blackjack_extreme.test_table import BUTTONS as EXTREME_BUTTONS
from tests.games.blackjack_extreme.test_table import SHORT, short_hand
from tests.rigs.holdem_hands import DECK, play_to_settlement
from tests.rigs.table_rig import Rig

CHIPS = (100, 500, 2500, 10000)
SPOTS = ("main", "side", "progressive", "insurance", "bet")
HOLDEM_BUTTONS = ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void")
BUSTER_BUTTONS = ("deal", "stand", "next", "void", "double", "split", "surrender", "insurance")


def boxes(rig: Rig) -> dict[tuple[int, str], int]:
    """The screen's boxes for the table's picture now: (seat, spot) -> what the spot should read."""
    picture = table_picture(rig.table)
    drawn = {(c["seat"], c["spot"]): c["expected"] for c in payout_checks(picture, CHIPS)}
    assert drawn == {(c.seat, c.spot): c.expected for c in picture.checks}
    return drawn


def next_flags(rig: Rig, drawn: dict[tuple[int, str], int], wrong: bool) -> set[tuple[int, str]]:
    """Every spot with a box paid (``wrong``: a dollar over), every other spot of seats 1 to 6
    given chips; the spots NEXT raises ``payout_mismatch`` for."""
    for seat in range(1, 7):
        for spot in SPOTS:
            if (seat, spot) in drawn:
                rig.bet(seat, spot, drawn[(seat, spot)] + (100 if wrong else 0))
            else:
                rig.bet(seat, spot, 700 * seat)
    ended = rig.press("next")
    return {(e["data"]["seat"], e["data"]["spot"]) for e in ended
            if e["type"] == "alert" and e["data"]["code"] == "payout_mismatch"}


def stacks_at_next(rig: Rig) -> list[dict[str, int]]:
    """The picture's ``stack_changes`` against the ``seat.stack`` NEXT then publishes (NEXT pressed)."""
    before = {s["seat"]: s.get("stack", 0) for s in record_json(table_picture(rig.table))["seats"]}
    changes = record_json(table_picture(rig.table))["stack_changes"]
    assert not boxes(rig)                                        # the money goes to the stacks
    ended = rig.press("next")
    published = [{"seat": e["data"]["seat"], "change": e["data"]["amount"] - before[e["data"]["seat"]],
                  "stack": e["data"]["amount"]} for e in ended
                 if e["type"] == "seat.stack" and e["data"]["reason"] == "result"]
    assert sorted(changes, key=lambda c: c["seat"]) == sorted(published, key=lambda c: c["seat"])
    assert not [e for e in ended if e["type"] == "alert" and e["data"]["code"] == "payout_mismatch"]
    return list(changes)


# -- Easy Jack: every settled spot is checked ---------------------------------------------------------


@pytest.mark.parametrize("wrong", [True, False])
def test_easy_jack_a_box_for_each_spot_next_checks_and_for_no_other(tmp_path: Path, wrong: bool) -> None:
    rig = Rig(tmp_path, payout_check=True)
    rig.ready(s1_main=1000, s2_main=1000)
    rig.press("deal")
    for card in ("As", "9h", "7d", "5c"):                          # seat 1 natural, seat 2 busts
        rig.card(card)
    drawn = boxes(rig)
    assert drawn == {(1, "main"): 2500, (2, "main"): 0}          # the loser's box: collect it
    assert record_json(table_picture(rig.table))["stack_changes"] == []
    assert next_flags(rig, drawn, wrong) == (set(drawn) if wrong else set())


def test_with_the_check_off_no_spot_has_a_box_and_next_raises_nothing(tmp_path: Path) -> None:
    rig = Rig(tmp_path, payout_check=False)
    rig.ready(s1_main=1000)
    rig.press("deal")
    for card in ("As", "9h", "7d"):
        rig.card(card)
    assert record_json(table_picture(rig.table))["results"] and not boxes(rig)
    assert next_flags(rig, {}, wrong=True) == set()


# -- Buster Blackjack X: the players' spots are checked, the bank is a stack; the jackpot's box ------


def buster(folder: Path, **options: Any) -> Rig:
    rig = Rig(folder, game=BusterBlackjackX(BusterRules(**options), Limits(500, 50000)),
              buttons=BUSTER_BUTTONS, payout_check=True)
    rig.ready()
    rig.table.tick()
    return rig


@pytest.mark.parametrize("wrong", [True, False])
def test_buster_the_progressive_wager_has_its_box_with_the_jackpot_waiting_then_confirmed(
        tmp_path: Path, wrong: bool) -> None:
    rig = buster(tmp_path)
    assert rig.table.command("buy_in", {"seat": 5, "amount": 50_000}) is None
    rig.bet(1, "main", 1000)
    rig.bet(1, "progressive", 100)
    rig.press("deal")
    for text in ("7c", "7c", "7c", "Td"):
        rig.card(text)
    rig.press("stand")
    drawn = boxes(rig)
    assert drawn == {(1, "main"): 0, (1, "progressive"): 0}     # 21 loses; the wager collected
    picture = record_json(table_picture(rig.table))
    (jackpot,) = picture["jackpots"]
    assert jackpot == {"seat": 1, "prize": "three suited 7s", "amount": 100_005, "waiting": True}
    (box,) = [c for c in payout_checks(table_picture(rig.table), CHIPS) if c["spot"] == "progressive"]
    assert (box["state"], box["to_pay"], box["jackpot"]) == ("collect", -100, jackpot)
    banner = next(a for a in picture["alerts"] if a["code"] == "progressive_hit")
    assert (banner["amount"], banner["prize"]) == (100_005, "three suited 7s")
    assert picture["stack_changes"] == [{"seat": 5, "change": 1000, "stack": 51_000}]

    assert rig.table.command("confirm_progressive", {"seat": 1, "supervisor": "S101"}) is None
    picture = record_json(table_picture(rig.table))
    assert picture["jackpots"] == [{"seat": 1, "amount": 100_005, "supervisor": "S101", "waiting": False}]
    (box,) = [c for c in payout_checks(table_picture(rig.table), CHIPS) if c["spot"] == "progressive"]
    assert box["jackpot"] == picture["jackpots"][0]
    assert next_flags(rig, drawn, wrong) == (set(drawn) if wrong else set())
    assert table_picture(rig.table).jackpots == ()            # a new hand's picture: nothing waits


# -- Hold'em Blackjack: the pots go to the stacks; the moves, the side pot and the rake -----------------


def holdem(folder: Path, stacks: dict[int, int], **rules: Any) -> Rig:
    rig = Rig(folder, game=HoldemBlackjack(HoldemBlackjackRules(**rules), Limits(200, 2000)),
              buttons=HOLDEM_BUTTONS, payout_check=True)
    rig.ready()
    for seat, amount in stacks.items():
        assert rig.table.command("buy_in", {"seat": seat, "amount": amount}) is None
    return rig


def act(rig: Rig, seat: int, chips: int | None, button: str) -> None:
    if chips is not None:
        rig.bet(seat, "bet", chips)
    rig.press(button)


def gather(rig: Rig, *seats: int) -> None:
    for seat in seats:
        rig.bet(seat, "bet", 0)


def side_pot_hand(rig: Rig) -> None:
    """Button 1, blinds 2 and 3; seat 3 ($20.00) all in for $18.00 in the final round: the main
    pot of $60.00 to seat 3's 21, the side pot of $4.00 to seat 2's 20, seat 1's 19 mucked."""
    rig.bet(2, "bet", 100)
    rig.bet(3, "bet", 200)
    rig.press("deal")
    for card in ("Th", "Ah", "9c"):                          # face down to 2, 3, 1
        rig.card(card)
    act(rig, 1, 200, "call")
    act(rig, 2, 200, "call")
    act(rig, 3, None, "check")
    gather(rig, 1, 2, 3)
    for card in ("Qd", "Kd", "Kc"):                          # face up to 2, 3, 1
        rig.card(card)
    for seat in (2, 3, 1):
        act(rig, seat, None, "check")
    for _ in range(3):
        rig.press("stand")
    act(rig, 2, 2000, "bet")
    act(rig, 3, 1800, "call")                                # all in
    act(rig, 1, 2000, "call")


def test_holdem_a_side_pot_and_the_rake_moved_in_order_and_no_box_at_all(tmp_path: Path) -> None:
    rig = holdem(tmp_path, {1: 10000, 2: 10000, 3: 2000}, rake_percent=5, rake_cap=300)
    side_pot_hand(rig)
    picture = record_json(table_picture(rig.table))
    assert [(m["kind"], m["seat"], m["amount"], m["pot"]) for m in picture["moves"]] == [
        ("gather", 1, 2000, None), ("gather", 2, 2000, None), ("gather", 3, 1800, None),
        ("rake", None, 300, None), ("push", 3, 5700, 0), ("push", 2, 400, 1), ("muck", 1, None, None)]
    assert [m["words"] for m in picture["moves"]][3:] == [
        "Rake $3.00 to the drop box", "Main pot: push $57.00 to seat 3", "Side pot 1: push $4.00 to seat 2",
        "Muck the hand unseen"]
    assert picture["checks"] == [] and picture["committed"] == {}
    gather(rig, 1, 2, 3)
    assert stacks_at_next(rig) == [{"seat": 1, "change": -2200, "stack": 7800},
                                   {"seat": 2, "change": -1800, "stack": 8200},
                                   {"seat": 3, "change": 3700, "stack": 5700}]
    assert record_json(table_picture(rig.table))["moves"] == []


def test_holdem_a_hand_won_by_folds_says_what_moves_where(tmp_path: Path) -> None:
    rig = holdem(tmp_path, {1: 10000, 2: 10000, 3: 10000})
    rig.bet(2, "bet", 100)
    rig.bet(3, "bet", 200)
    rig.press("deal")
    for card in ("Th", "Ah", "9c"):
        rig.card(card)
    assert table_picture(rig.table).committed == {"1": {"bet": 0}, "2": {"bet": 100}, "3": {"bet": 200}}
    rig.press("fold")
    rig.press("fold")                                        # the big blind takes the blinds
    picture = record_json(table_picture(rig.table))
    assert [m["words"] for m in picture["moves"]] == [
        "Give back the uncalled $1.00", "Gather the bet $1.00 into the pot",
        "Gather the bet $1.00 into the pot", "Push $2.00 to seat 3 (the others folded)"]
    assert [m["seat"] for m in picture["moves"]] == [3, 2, 3, 3]
    assert rig.table.press("next") == ("next: gather the bets into the pot: seat 2 bet $1.00, "
                                       "seat 3 bet $2.00 first")             # the blinds still out
    rig.bet(2, "bet", 0)
    rig.bet(3, "bet", 0)
    assert stacks_at_next(rig) == [{"seat": 2, "change": -100, "stack": 9900},
                                   {"seat": 3, "change": 100, "stack": 10100}]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(),
       stacks=st.dictionaries(st.integers(1, 6), st.sampled_from([300, 1000, 4000, 20000]),
                              min_size=2, max_size=4),
       rake=st.sampled_from([0, 10]), deck=st.permutations(DECK))
def test_holdem_random_hands_move_every_chip_to_the_stacks_next_publishes_and_check_no_spot(
        data: st.DataObject, stacks: dict[int, int], rake: int, deck: list[str]) -> None:
    rules = HoldemBlackjackRules(rake_percent=rake, rake_cap=500, min_buy_in=100)
    with TemporaryDirectory() as folder:
        rig = Rig(Path(folder), game=HoldemBlackjack(rules, Limits(100, 100_000)), buttons=HOLDEM_BUTTONS,
                  payout_check=True)
        rig.ready()
        for seat, amount in sorted(stacks.items()):
            assert rig.table.command("buy_in", {"seat": seat, "amount": amount}) is None
        play_to_settlement(rig, rules, data, stacks, deck)
        picture = record_json(table_picture(rig.table))
        moves = picture["moves"]
        pushed = {seat: sum(m["amount"] for m in moves if m["kind"] == "push" and m["seat"] == seat)
                  for seat in stacks}
        raked = sum(m["amount"] for m in moves if m["kind"] == "rake")
        assert sum(pushed.values()) + raked == sum(p["amount"] for p in picture["pots"])
        changes = {c["seat"]: c["change"] for c in stacks_at_next(rig)}
        for result in picture["results"]:
            assert pushed[result["seat"]] - result["wager"] == changes.get(result["seat"], 0)


# -- Blackjack Extreme: every seat's money is a stack ----------------------------------------------------


def test_extreme_no_box_and_each_stack_change_as_next_publishes_it(tmp_path: Path) -> None:
    rig = Rig(tmp_path, game=BlackjackExtreme(BlackjackExtremeRules(format="ring"), Limits(500, 50000)),
              buttons=EXTREME_BUTTONS, payout_check=True)
    for seat, amount in SHORT.items():
        assert rig.table.command("buy_in", {"seat": seat, "amount": amount}) is None
    short_hand(rig)
    rig.press("leave")
    while rig.table.phase != "settled":
        hand = rig.table.state.hand
        assert hand is not None
        for (seat, spot), due in hand.committed().items():   # each line paid as the display says
            rig.bet(seat, spot, due)
        rig.press("next")
    changes = stacks_at_next(rig)
    assert {c["seat"] for c in changes} >= {1, 2, 4}


# -- the picture's keys and docs/pit-events.md ------------------------------------------------------------

DOC = Path(__file__).parents[2] / "docs" / "pit-events.md"


def documented_keys(after: str) -> list[str]:
    """The keys of the first ``| key | value |`` table of docs/pit-events.md after the line ``after``."""
    text = DOC.read_text()
    start = text.index("| key | value |", text.index(after))
    rows = text[start:].split("\n\n", 1)[0].splitlines()[2:]
    return [key for row in rows for key in re.findall(r"`([^`]+)`", row.split("|")[1])]


def test_the_picture_has_exactly_the_keys_docs_pit_events_gives_it(tmp_path: Path) -> None:
    rig = Rig(tmp_path, payout_check=True)
    rig.ready(s1_main=1000)
    rig.press("deal")
    for card in ("As", "9h", "7d"):
        rig.card(card)
    state, picture = record_json(public_state(rig.table)), record_json(table_picture(rig.table))
    assert list(state) == documented_keys("### The state object")
    live = documented_keys("and then what the table knows live")
    assert sorted(list(picture)[len(state):]) == sorted(live) and len(set(live)) == len(live)

