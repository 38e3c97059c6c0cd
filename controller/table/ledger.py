"""The table's chip ledger: where every cent on the layout should be now, one account derived from
the journaled state alone, and each RFID reading explained against it.

:func:`ledger` is the account, a :class:`Ledger`:

- ``spots``: what each spot the table accounts for should read. Between hands, the bets as
  published; during a hand, the hand's own account
  (:meth:`Hand.committed <controller.games.interface.Hand.committed>`: the wagers in play, a
  pot game's bets of the round, a payment walk's line once paid); once settled, what NEXT checks:
  each wager plus its payout, 0 for a lost one (:func:`settled_spots`; none with
  ``[table] payout_check`` off). A spot left out is not accounted for (a stack's seat in a game of
  stacks, whose money the table keeps instead of chips on the spot).
- ``pots``: a pot game's pots (the chips in the middle, which no antenna reads) and ``rake``: the
  house's take of them so far, for the drop box;
- ``stacks``: the chips in front of each seat of a game of stacks: the stack the session keeps
  less what the seat has put in the hand in play
  (:meth:`Hand.staked <controller.games.interface.Hand.staked>`: its bets on the spots and in the
  pots) or, between hands, its bets on the spots; a hand's result moves the session's stack at NEXT
  (the picture's ``stack_changes``);
- ``tray``: what the tray should read, or None where the reading is all there is to go by: once a
  hand is settled, its reading at the deal plus the house's result of the hand (what NEXT
  checks as ``tray_variance``); otherwise, the reading a fill or credit waits for;
- ``drop``: the rake of the hands ended since the drop was last entered, in the drop box
  (:class:`~controller.table.books.BooksState`, journaled with the books).

:func:`unexplained` compares the spots' readings with it: each spot that reads other than it
should, as an :class:`Off`, in seat order. The table's checks of chips read this one account: the
bets to gather before a pot game's next round (:mod:`controller.table.gather`), a chip moved in
play (``past_post``, :mod:`controller.table.chips`), a payment walk's step paid short or over and
a settled spot at NEXT (``mispay``, ``payout_mismatch``: :mod:`controller.table.buttons`).

Pure over the table's state: the same journal gives the same ledger, before and after a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.games.interface import Stacks
from controller.table.state import TableState
from drivers.inputs import SpotWager

Spot = tuple[int, str]
"""A spot of the layout: (seat, spot name)."""


@dataclass(frozen=True)
class Off:
    """A spot whose reading the ledger does not explain: it ``read`` what the reader read now (0
    when not read), it should hold ``due``."""

    seat: int
    spot: str
    read: int
    due: int

    @property
    def difference(self) -> int:
        """The cents over (above 0) or short (below 0)."""
        return self.read - self.due


@dataclass(frozen=True)
class Ledger:
    """Where every cent should be now (see the module's docstring), in cents."""

    spots: Mapping[Spot, int] = field(default_factory=dict)
    pots: tuple[int, ...] = ()
    rake: int = 0
    stacks: Mapping[int, int] = field(default_factory=dict)
    tray: int | None = None
    drop: int = 0

    def due(self, spot: Spot) -> int:
        """What ``spot`` should hold (0 for a spot the ledger has no chips on)."""
        return self.spots.get(spot, 0)


def ledger(state: TableState, phase: str, *, payout_check: bool, house_result: int | None = None) -> Ledger:
    """The account of the table in ``state`` at ``phase`` (the machine's: ``betting``, ``in_hand``,
    ``settled``, ...); ``payout_check``: whether NEXT checks the settled spots; ``house_result``: the
    settled hand's :meth:`Hand.house_result <controller.games.interface.Hand.house_result>`
    (None: the tray is not accounted for)."""
    hand = state.hand
    view = hand.view() if hand is not None else None
    pots = tuple(pot.amount for pot in view.pots) if view is not None else ()
    rake = sum(move.amount or 0 for move in view.moves if move.kind == "rake") if view is not None else 0
    tray = state.tray
    due = tray.expected
    if phase == "settled" and hand is not None:
        due = None if tray.at_start is None or house_result is None else tray.at_start + house_result
    staked: dict[int, int] = dict(hand.staked()) if hand is not None else {}
    if hand is None:                            # between hands the bets lie on the spots, off the stacks
        for (seat, _), cents in state.bets.items():
            staked[seat] = staked.get(seat, 0) + cents
    stacks = {seat: cents - staked.get(seat, 0) for seat, cents in state.session[Stacks].stacks.items()}
    return Ledger(spots_due(state, phase, payout_check=payout_check), pots, rake, stacks, due,
                  state.books.rake_dropped)


def spots_due(state: TableState, phase: str, *, payout_check: bool) -> dict[Spot, int]:
    """The ledger's ``spots`` alone (what every check of a reading needs, without the hand's whole
    view): the bets as published between hands,
    :meth:`Hand.committed <controller.games.interface.Hand.committed>` in play, and once settled
    :func:`settled_spots` (none with ``payout_check`` off)."""
    hand = state.hand
    if phase == "settled" and hand is not None:
        return settled_spots(state) if payout_check else {}
    return dict(hand.committed()) if hand is not None and phase == "in_hand" else dict(state.bets)


def settled_spots(state: TableState) -> dict[Spot, int]:
    """What each settled spot should read once paid and collected: its wagers plus their payouts
    (0 for a lost wager). Seats whose money the table keeps as a stack (the game settles them in
    the stack, not in chips on the spot) are left out."""
    expected: dict[Spot, int] = {}
    stacks = state.session[Stacks].stacks
    for result in state.results or ():
        if result.seat not in stacks:
            key = (result.seat, result.spot)
            expected[key] = expected.get(key, 0) + result.wager + result.payout
    return expected


def unexplained(due: Mapping[Spot, int], live: Mapping[Spot, SpotWager]) -> list[Off]:
    """Each spot of ``due`` (a ledger's ``spots``) the reader reads (``live``) other than it should
    hold, in seat order.

    >>> due = {(1, "main"): 2500, (2, "main"): 0}
    >>> read = {(1, "main"): SpotWager(1, "main", 1, 2000, ()), (2, "main"): SpotWager(2, "main", 2, 0, ())}
    >>> unexplained(due, read)
    [Off(seat=1, spot='main', read=2000, due=2500)]
    """
    found = []
    for (seat, spot), held in sorted(due.items()):
        wager = live.get((seat, spot))
        read = wager.amount if wager is not None else 0
        if read != held:
            found.append(Off(seat, spot, read, held))
    return found

