"""The catalogue of dealer mistakes, and what the table does about each in each game today.

Each kind is one ordinary mistake (issue 33, Deliver 4), made by the simulated dealer
(:mod:`tests.model.dealer`) at a random moment where it can be made:

==================  =======================================================================
kind                what the dealer does
==================  =======================================================================
forget_gather       a betting round ends and the bets stay on the spots (Hold'em's pot)
underpay            a spot is paid a dollar short (at settlement, or a payment walk's step)
overpay             a spot is paid a dollar over
wrong_seat          a winner's payout is put on the spot of an empty seat beside it
leave_losing        a losing bet is left on its spot
collect_winning     a winning bet is taken off its spot, unpaid
add_chips           a player not in turn adds a chip to a wager after bets closed
remove_chips        a player not in turn takes a chip off a wager mid-hand (and puts it back)
next_early          NEXT pressed at settlement before paying and collecting
extra_card          a card drawn when the table takes none (put aside once the table says so)
unplug_reader       the RFID reader unplugged mid-hand for a few acts, then plugged back in
unplug_reader_paid  the reader unplugged at settlement: the dealer pays, presses NEXT, replugs
unplug_shoe         the shoe unplugged at any phase, plugged back in before the next card
double_deal         DEAL or NEXT pressed twice
double_action       a game action's button pressed twice
==================  =======================================================================

:data:`EXPECTED` says, for every kind and game, what the model finds the table does on this
branch: ``caught`` (an alert naming it, or a refusal, before the hand settles or the next hand
starts, with words telling the dealer what to do), ``missed`` (not caught yet: the reason says
which work catches it), ``stale`` (caught, but followed by false alarms from readings taken
while the reader was away) or ``cannot`` (the mistake cannot be made in that game). Where a
kind's outcome depends on the hand dealt, the cell allows more than one (and says why). The test
(:mod:`tests.model.test_dealer_mistakes`) checks every outcome against its cell, so a cell fails
as soon as the table does better than it says: then the cell is brought up to date.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("forget_gather", "underpay", "overpay", "wrong_seat", "leave_losing", "collect_winning",
         "add_chips", "remove_chips", "next_early", "extra_card", "unplug_reader",
         "unplug_reader_paid", "unplug_shoe", "double_deal", "double_action")
"""Every kind of mistake the simulated dealer makes."""

GAMES = ("easy-jack", "buster-blackjack-x", "blackjack-extreme", "holdem-blackjack")

OUTCOMES = ("caught", "missed", "stale", "cannot")

NAMES: dict[str, frozenset[str]] = {
    "forget_gather": frozenset({"chips_not_gathered", "ledger_mismatch"}),
    "underpay": frozenset({"payout_mismatch", "tray_variance", "mispay"}),
    "overpay": frozenset({"payout_mismatch", "tray_variance", "mispay"}),
    "wrong_seat": frozenset({"payout_mismatch", "tray_variance", "mispay"}),
    "leave_losing": frozenset({"payout_mismatch", "tray_variance", "mispay"}),
    "collect_winning": frozenset({"payout_mismatch", "tray_variance", "mispay"}),
    "add_chips": frozenset({"past_post"}),
    "remove_chips": frozenset({"past_post"}),
    "next_early": frozenset({"payout_mismatch", "tray_variance", "mispay", "ledger_mismatch"}),
    "extra_card": frozenset({"card_out_of_turn"}),
    "unplug_reader": frozenset({"device_offline"}),
    "unplug_reader_paid": frozenset({"device_offline"}),
    "unplug_shoe": frozenset({"device_offline"}),
    "double_deal": frozenset(),
    "double_action": frozenset(),
}
"""The alert codes that name each mistake (a refusal names it too). Codes that do not exist yet
(``chips_not_gathered``, ``ledger_mismatch``, ``mispay``) are the ones the chip ledger may bring;
any alert after a mistake is kept, and the report shows them all."""


@dataclass(frozen=True)
class Cell:
    """What the table does about one kind of mistake in one game: the outcomes allowed, and why."""

    allowed: frozenset[str]
    why: str


def cell(*allowed: str, why: str) -> Cell:
    assert set(allowed) <= set(OUTCOMES), allowed
    return Cell(frozenset(allowed), why)


_HOUSE = "the house banks every spot: NEXT checks each spot against its result, the tray its change"
_STACKS_UNREAD = "the money goes to stacks the table keeps, which no antenna reads"
_WALK = ("in the short-stack payment walk NEXT is refused while a spot reads short or over "
         "([table] mispay = \"hold\"; controller.table.buttons.walk_mispaid); outside a walk the money "
         "moves between the stacks the table keeps, which no antenna reads, so the model makes it there only")
_GATHER = "no pot: the bets stay on their spots for the whole hand"
_GATHERED = ("the next round's actions wait until the reader reads the spots empty "
             "(controller.table.gather), refused in words that name each spot to gather")
_NEXT_POT = ("the hand ended with the last round's bets on the spots: NEXT waits until they are "
             "gathered (controller.table.gather), refused in words that name each spot")
_NEXT_STACKS = ("NEXT in a game of stacks moves the stacks the table keeps, which no antenna reads, and "
                "nothing is due on a spot outside a walk (each of whose steps is checked before it "
                "goes on): a NEXT before the chips are moved is no mistake the chips can show")
_STALE = ("device_offline; NEXT waits until the reader is back and has read every spot again "
          "(controller.table.buttons.wait_words), so it checks no reading taken before the chips moved")
_SECOND = ("a second press within [table] repeat_window_ms of the first, once the next seat is in "
           "turn, is refused once as a double press (controller.table.buttons.repeat_refusal); "
           "one the hand does not allow is refused by the game")

EXPECTED: dict[tuple[str, str], Cell] = {}


def _fill() -> None:
    house = ("easy-jack", "buster-blackjack-x")
    for game in GAMES:
        stacks = game not in house
        pot = game == "holdem-blackjack"
        walk = game == "blackjack-extreme"
        pay = cell("caught", why=_HOUSE) if not stacks else (
            cell("caught", why=_WALK) if walk else cell("cannot", why=_STACKS_UNREAD))
        rows = {
            "forget_gather": cell("caught", why=_GATHERED) if pot else cell("cannot", why=_GATHER),
            "underpay": pay, "overpay": pay, "leave_losing": pay, "collect_winning": pay,
            "wrong_seat": pay if not walk else cell("cannot", why="a walk's step pays the seat it names: "
                                                    "the model pays no other seat in a walk"),
            "add_chips": cell("caught", why="past_post: the spot changed after bets closed"),
            "remove_chips": cell("caught", why="past_post: the spot changed after bets closed"),
            "next_early": cell("caught", why=_HOUSE) if not stacks else (
                cell("caught", why=_NEXT_POT) if pot else cell("cannot", why=_NEXT_STACKS)),
            "extra_card": cell("caught", why="card_out_of_turn: no hand may take it"),
            "unplug_reader": cell("caught", why="device_offline; the hand waits until it is back"),
            "unplug_reader_paid": cell("caught", why=_STALE) if not stacks else cell(
                "caught", why="device_offline; NEXT checks no spot in a game of stacks"),
            "unplug_shoe": cell("caught", why="device_offline; the hand waits until it is back"),
            "double_deal": cell("caught", why="the second DEAL or NEXT is refused: no hand to deal or end"),
            "double_action": cell("caught", why=_SECOND),
        }
        for kind, found in rows.items():
            EXPECTED[(kind, game)] = found


_fill()
assert set(EXPECTED) == {(kind, game) for kind in KINDS for game in GAMES}
