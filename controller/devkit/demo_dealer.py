"""The demo's dealer and players: what a person at an Easy Jack table does, driven by the pit stream.

:class:`DemoDealer` follows the table on the running loop (the asyncio
:class:`~controller.follow.aio.Follower`, as the dealer screen does), acts on
the boards (chips on the RFID reader's antennas, cards out of the shoe: the
simulated boards, or the reference firmware's, through the small interface of
:class:`Shoe` and :class:`Reader`) and presses through the control socket. It pays what the screen asks:
after ``hand.settled`` every spot is brought to its wager plus its payout
(cleared when the wager is lost) and NEXT is pressed only once the reader shows
it, so the table's payout check finds nothing wrong. It loads a new shoe when
the cut card is out, and plays a hand by Easy Jack's best play (hit 2 to 5,
a one-card 6; stand otherwise).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from controller.devkit.simulated import antenna
from controller.events.picture import Picture
from controller.follow.aio import Follower
from controller.follow.control import Control
from controller.follow.records import FollowedEvent
from firmware_bridge.kernel.money import dollars

CHIPS = {"1": 100, "5": 500, "25": 2500, "100": 10000}
"""The demo's chip denominations by name, in cents."""

CHIPS_EACH = 400
"""Registered chips of each denomination; the demo uses them in turn."""

COUNTERFEIT = ("feedfacecafebeef", 10000)
"""A chip that is not in the registry."""

PICTURE_WAIT = 1.0
"""Seconds an event's picture may take before a snapshot is asked for instead."""

WAIT = 15.0
"""Seconds the dealer waits for the table to show what an act should cause."""


class DemoError(RuntimeError):
    """The table did not answer as the dealer expects."""


class Shoe(Protocol):
    """What the dealer does to the shoe board (a simulated one, or the reference firmware's)."""

    def load_shoe(self, decks: int, cards: Sequence[tuple[int, int]] | None = None,
                  cut_at: int | None = None) -> None:
        """Load ``cards`` (``(rank, suit)``; None: ``decks`` shuffled decks), the cut card at ``cut_at``."""

    def draw(self, count: int = 1) -> None:
        """Draw ``count`` cards."""


class Reader(Protocol):
    """What the players and the dealer do to the spot reader board."""

    def place(self, antenna: int, chips: Sequence[tuple[str, int]]) -> None:
        """Put chips (uid, cents) on the spot over ``antenna``."""

    def clear(self, antenna: int) -> None:
        """Take every chip off the spot over ``antenna``."""


def registry() -> list[tuple[str, int, str]]:
    """Every chip of the demo's registry, as ``write_config`` takes them."""
    return [(chip_uid(cents, n), cents, "active")
            for cents in CHIPS.values() for n in range(1, CHIPS_EACH + 1)]


def chip_uid(cents: int, number: int) -> str:
    """The uid of registered chip ``number`` of a denomination.

    >>> chip_uid(500, 3)
    '000001f400000003'
    """
    return f"{cents:08x}{number:08x}"


class DemoDealer:
    """The dealer, the players and a printout of the pit stream (``show`` prints each line)."""

    def __init__(self, shoe: Shoe, rfid: Reader, control: Control, *, pause: float,
                 show: Callable[[str], None] = print) -> None:
        self.shoe = shoe
        self.rfid = rfid
        self.control = control
        self.pause = pause
        self.show = show
        self.seen: Picture | None = None
        """The table's last picture (None before the first)."""
        self.seq = 0
        """The seq of the last event the picture reflects."""
        self.last_seq = 0
        """The seq of the last event of the stream."""
        self.events: asyncio.Queue[FollowedEvent] = asyncio.Queue()
        self._changed = asyncio.Event()
        self._next_chip = dict.fromkeys(CHIPS.values(), 0)

    # ------------------------------------------------------------ the follower's listener (in records)

    def snapshot(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        """The table's picture at the start."""
        self.last_seq = 0
        self._take(seq, picture)

    def refreshed(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        """A newer picture after a gap was repaired."""
        self._take(seq, picture)

    def event(self, follower: Follower, event: FollowedEvent, live: bool) -> None:
        """Print each event and keep it for :meth:`expect`."""
        self.last_seq = event.seq
        if self.stale:                      # its picture may have gone before we listened: ask again
            asyncio.get_running_loop().call_later(PICTURE_WAIT, self._picture_due, follower)
        data = json.dumps(event.data, separators=(",", ":"))
        self.show(f"  pit> {event.seq:>4} {event.type:<16} hand={event.hand} {data}")
        self.events.put_nowait(event)

    def picture(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        """The table's picture after a step."""
        self._take(seq, picture)

    def _take(self, seq: int, picture: Picture | None) -> None:
        """The picture as of event ``seq`` (None: it did not read as one, logged; the last stays)."""
        if picture is not None:
            self.seen = picture
        self.seq = seq
        self.last_seq = max(self.last_seq, seq)
        self._changed.set()

    @property
    def stale(self) -> bool:
        """An event came after the picture: its picture is on the way (or was lost with a gap)."""
        return self.seq < self.last_seq

    def _picture_due(self, follower: Follower) -> None:
        if self.stale:
            follower.refresh()

    def link(self, follower: Follower) -> None:
        """Say when the stream stops or comes back."""
        self.show(f"  pit> link {follower.link_state} {follower.reason}".rstrip())

    # ------------------------------------------------------------ waiting for the table

    @property
    def state(self) -> Picture:
        """The table's picture now."""
        if self.seen is None:
            raise DemoError("the table has not been heard yet")
        return self.seen

    async def until(self, what: str, ready: Callable[[Picture], bool]) -> Picture:
        """Wait until the table's picture satisfies ``ready``; ``what`` names it in the error."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while self.seen is None or self.stale or not ready(self.seen):
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise DemoError(f"the table did not show {what} within {WAIT:g} s") from None
        return self.seen

    async def expect(self, kind: str, **data: object) -> FollowedEvent:
        """The next event of ``kind`` (with these data fields)."""
        while True:
            try:
                event = await asyncio.wait_for(self.events.get(), WAIT)
            except TimeoutError:
                raise DemoError(f"no {kind} event within {WAIT:g} s") from None
            if event.type == kind and all(event.data.get(k) == v for k, v in data.items()):
                return event

    # ------------------------------------------------------------ acts

    async def press(self, button: str, *, refused: bool = False) -> None:
        """Act through the control socket, as the screen's touch does; stop if the answer is not as
        expected."""
        reply = await self.control.send({"cmd": "act", "action": button})
        self.show(f"dealer: {button.upper()} -> {'taken' if reply['ok'] else reply.get('error')}")
        if reply["ok"] == refused:
            raise DemoError(f"{button} was {'taken' if reply['ok'] else 'refused'}: {reply}")
        await asyncio.sleep(self.pause)

    def chips(self, cents: int) -> list[tuple[str, int]]:
        """Registered chips worth ``cents``, the fewest, each not on the table now."""
        chips: list[tuple[str, int]] = []
        for value in sorted(CHIPS.values(), reverse=True):
            while cents >= value:
                self._next_chip[value] = self._next_chip[value] % CHIPS_EACH + 1
                chips.append((chip_uid(value, self._next_chip[value]), value))
                cents -= value
        if cents:
            raise DemoError(f"{cents} cents cannot be made of the demo's chips")
        return chips

    async def put(self, seat: int, spot: str, cents: int) -> None:
        """Make the chips on a spot worth ``cents`` (none for 0) and wait until the table reads them."""
        where = antenna(seat, spot)
        self.rfid.clear(where)
        if cents:
            self.rfid.place(where, self.chips(cents))
        await self.until(f"${cents / 100:.2f} on seat {seat} {spot}",
                         lambda state: live(state, seat, spot) == cents)

    async def bet(self, seat: int, spot: str, cents: int) -> None:
        """A player bets ``cents`` on a spot."""
        self.show(f"seat {seat} bets ${cents / 100:.2f} on {spot}")
        await self.put(seat, spot, cents)
        await asyncio.sleep(self.pause)

    async def draw(self, count: int = 1) -> None:
        """The dealer draws cards, one at a time, each once the table has it."""
        for _ in range(count):
            await self._draw_one()

    async def _draw_one(self) -> None:
        drawn = self.state.shoe.cards_drawn
        self.shoe.draw()
        await self.until("the card drawn", lambda state: state.shoe.cards_drawn > drawn)
        await asyncio.sleep(self.pause)

    async def new_shoe(self, cards: list[tuple[int, int]] | None = None, cut_at: int | None = None) -> None:
        """Load a shoe (shuffled six decks, unless scripted) and wait for the table to take it."""
        before = self.state.shoe.shoe_id
        self.shoe.load_shoe(6, cards=cards, cut_at=cut_at)
        await self.until("the new shoe", lambda state: state.shoe.shoe_id != before)
        self.show(f"dealer: a new shoe ({'scripted' if cards else 'six decks shuffled'})")

    # ------------------------------------------------------------ a hand

    async def play_out(self) -> None:
        """Draw and stand until the hand is settled: Easy Jack's best play for every seat."""
        while True:
            state = await self.until("the hand going on", lambda state: True)
            if state.results is not None:
                return
            turn = [a for a in state.actions if a.name == "stand" and a.seat is not None]
            if not turn:
                await self.draw()                   # the deal, or the dealer's hand
                continue
            seat = next(s for s in state.seats if s.seat == turn[0].seat)
            hand = seat.hands[turn[0].hand_index or 0]
            total, cards = points(hand.total), len(hand.cards)
            if total <= 5 or (total == 6 and cards == 1):
                await self.draw()
            else:
                await self.press("stand")

    async def pay(self) -> None:
        """Pay and collect what ``hand.settled`` says, then NEXT; the players take their chips back."""
        for result in self.state.results or ():
            seat, spot, payout = result.seat, result.spot, result.payout
            owed = max(0, result.wager + payout)
            if payout > 0:
                said = f"pays seat {seat} {spot} {dollars(payout)}: {dollars(owed)} on the spot"
            elif payout == 0:
                said = f"leaves seat {seat} {spot}'s {dollars(owed)}"
            else:
                said = f"collects {dollars(-payout)} from seat {seat} {spot}, {dollars(owed)} left"
            self.show(f"dealer {said} ({result.outcome})")
            await self.put(seat, spot, owed)
        await asyncio.sleep(self.pause)
        await self.press("next")
        for seated in self.state.seats:
            for bet in seated.bets:
                await self.put(seated.seat, bet, 0)

    async def random_hand(self, rng: random.Random) -> None:
        """A hand with a few players betting what they like."""
        if self.state.shoe.cut_card_out or self.state.shoe.shoe_id is None:
            await self.new_shoe()
        for seat in sorted(rng.sample(range(1, 7), rng.randint(1, 4))):
            await self.bet(seat, "main", rng.choice((1000, 2000, 5000, 10000)))
            if rng.random() < 0.3:
                await self.bet(seat, "side", rng.choice((500, 1000, 2500)))
        await self.press("deal")
        await self.play_out()
        await self.pay()


def live(picture: Picture, seat: int, spot: str) -> int:
    """The cents the reader shows on a spot now.

    >>> import json
    >>> from dataclasses import replace
    >>> from controller.events.codec import from_json
    >>> from controller.follow.picture import PICTURE
    >>> picture = replace(from_json(Picture, json.loads(PICTURE)), live={"2": {"main": 1500}})
    >>> live(picture, 2, "main"), live(picture, 3, "main")
    (1500, 0)
    """
    return picture.live.get(str(seat), {}).get(spot, 0)


def points(total: str | None) -> int:
    """The points of a total as the table words it (``"soft 7"``, ``"9"``; 0 for none or a natural).

    >>> points("soft 7"), points("9"), points(None), points("natural")
    (7, 9, 0, 0)
    """
    word = (total or "").rsplit(" ", 1)[-1]
    return int(word) if word.isdigit() else 0
