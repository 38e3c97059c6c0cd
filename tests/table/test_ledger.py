"""The table's chip ledger (:mod:`controller.table.ledger`): one account of where every cent should
be, from the journaled state alone, at every phase of a hand; and the table's checks of chips read it.

On the real table and journal in process: an Easy Jack hand from the bets to NEXT (the spots, the
tray), a Hold'em Blackjack hand (the pots, the round's bets to gather, the rake and the stacks),
and the ledger of a table rebuilt from the journal alone equal to the live table's at every step.
"""

from __future__ import annotations

from pathlib import Path

from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Limits
from controller.table.ledger import Ledger, Off, unexplained
from drivers.inputs import SpotWager
from tests.rigs.table_rig import Rig

HOLDEM_BUTTONS = ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void")


def same_after_restart(rig: Rig) -> Ledger:
    """The live table's ledger, checked equal to that of a table rebuilt from the journal."""
    account = rig.table.ledger()
    assert rig.rebuilt().ledger() == account
    return account


def tray(rig: Rig, amount: int) -> None:
    rig.do(SpotWager(0, "tray", 9, amount, ("t1",)))


def test_an_easy_jack_hand_in_the_ledger_from_the_bets_to_next(tmp_path: Path) -> None:
    rig = Rig(tmp_path, payout_check=True)
    rig.ready(s1_main=1000, s2_main=2000)
    tray(rig, 100_000)
    account = same_after_restart(rig)
    assert account.spots == {(1, "main"): 1000, (2, "main"): 2000} and account.tray is None
    rig.press("deal")
    account = same_after_restart(rig)
    assert account.spots == {(1, "main"): 1000, (2, "main"): 2000}          # in play: as bet
    for card in ("As", "9h", "7d", "5c"):                                  # seat 1 natural, seat 2 busts
        rig.card(card)
    account = same_after_restart(rig)
    assert account.spots == {(1, "main"): 2500, (2, "main"): 0}             # paid 3:2, collected
    assert account.tray == 100_000 + 2000 - 1500                            # the house's result
    assert unexplained(account.spots, rig.table.live_spots) == [Off(1, "main", 1000, 2500),
                                                               Off(2, "main", 2000, 0)]
    rig.bet(1, "main", 2500)
    rig.bet(2, "main", 0)
    assert unexplained(rig.table.ledger().spots, rig.table.live_spots) == []
    tray(rig, 100_500)
    ended = rig.press("next")
    assert not [e for e in ended if e["type"] == "alert"]                  # every cent where it should be


def test_the_ledger_moves_a_chip_in_play_to_past_post(tmp_path: Path) -> None:
    rig = Rig(tmp_path, payout_check=True)
    rig.ready(s1_main=1000)
    rig.press("deal")
    (raised,) = [e for e in rig.bet(1, "main", 1500) if e["type"] == "alert"]
    assert raised["data"]["code"] == "past_post"
    assert raised["data"]["closed"] == rig.table.ledger().due((1, "main")) == 1000


def test_a_holdem_hand_in_the_ledger_its_pots_bets_to_gather_and_stacks(tmp_path: Path) -> None:
    rig = Rig(tmp_path, game=HoldemBlackjack(HoldemBlackjackRules(rake_percent=5, rake_cap=300),
                                             Limits(200, 2000)), buttons=HOLDEM_BUTTONS, payout_check=True)
    rig.ready()
    for seat in (1, 2, 3):
        assert rig.table.command("buy_in", {"seat": seat, "amount": 10_000}) is None
    rig.bet(2, "bet", 100)                                                 # the blinds
    rig.bet(3, "bet", 200)
    rig.press("deal")
    for card in ("Th", "Ah", "9c"):
        rig.card(card)
    rig.bet(1, "bet", 200)
    rig.press("call")
    rig.bet(2, "bet", 200)
    rig.press("call")
    assert same_after_restart(rig).spots == {(1, "bet"): 200, (2, "bet"): 200, (3, "bet"): 200}
    rig.press("check")                                                     # the round ends: to the pot
    account = same_after_restart(rig)
    assert account.pots == (600,) and account.spots == {(1, "bet"): 0, (2, "bet"): 0, (3, "bet"): 0}
    assert account.stacks == {1: 9800, 2: 9800, 3: 9800}             # in front of each: less its bets
    assert sum(account.stacks.values()) + sum(account.pots) + account.rake + account.drop == 30_000
    over = [(off.seat, off.difference) for off in unexplained(account.spots, rig.table.live_spots)]
    assert over == [(1, 200), (2, 200), (3, 200)]
    assert rig.table.wait_words() == ("gather the bets into the pot: seat 1 bet $2.00, seat 2 bet $2.00, "
                                      "seat 3 bet $2.00 first")
    for seat in (1, 2, 3):
        rig.bet(seat, "bet", 0)
    assert rig.table.wait_words() is None
    assert unexplained(rig.table.ledger().spots, rig.table.live_spots) == []
