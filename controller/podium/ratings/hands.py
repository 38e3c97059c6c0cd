"""A table's events read as what rated play and shift figures are made of: settled hands, jackpots
paid, the table closed.

One :class:`HandReader` per table is fed that table's events in order (each a
:class:`~controller.follow.records.FollowedEvent`: its envelope and its registered
record, and the epoch they came in). It keeps what a hand's settlement needs from
the events before it (:class:`~controller.events.table.HandStarted`'s
``dealer_seat``, :class:`~controller.events.table.BetsClosed`'s time, the rake of
the :class:`~controller.events.hand.PotAwarded`) and gives back, for the events
that matter:

* a :class:`Hand` at ``hand.settled`` (a voided hand gives nothing);
* a :class:`Jackpot` at ``progressive.paid``;
* a :class:`Closed` at ``table.closed``.

An event that is not its record, or whose fields are not what docs/pit-events.md
says, raises :class:`BadEvent` and changes nothing; the caller leaves it out and
says so. An event read already (of the epoch of the last one read, and not after
it; or of an older epoch) is skipped, so a reader seeded with the stored events
can then be fed a follower's, which may repeat the last few.

>>> from controller.events.envelope import decode_body, encode_event
>>> def followed(seq, ts, kind, data):
...     topic, body = encode_event("T07", seq, ts, kind, 3, data)
...     return FollowedEvent.of(decode_body(body), topic, body)
>>> reader = HandReader("T07")
>>> reader.feed(followed(1, "2026-11-21T10:00:00.000Z", "bets.closed", {"bets": []}))
>>> hand = reader.feed(followed(2, "2026-11-21T10:00:40.000Z", "hand.settled",
...     {"results": [{"seat": 2, "spot": "main", "hand_index": 0, "outcome": "win", "wager": 1000,
...                   "payout": 1000}]}))
>>> hand.started, hand.settled, hand.results[0].payout, hand.pot
('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:40.000Z', 1000, 1000)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from controller.events.codec import decode_public
from controller.events.floor import TableClosed
from controller.events.hand import PotAwarded, Settled, WagerResult
from controller.events.registry import Event
from controller.events.table import BetsClosed, HandStarted, HandVoided, TableOpened
from controller.follow.records import FollowedEvent
from controller.games.session.progressive import ProgressivePaid

RATED_TYPES = ("table.opened", "hand.started", "bets.closed", "pot.awarded", "hand.settled",
               "hand.voided", "progressive.paid", "table.closed")
"""The event types a :class:`HandReader` reads (what a store is asked for)."""

Rules = Mapping[str, object]
"""A game's rules as ``table.opened`` publishes them (its ``[game]`` options as JSON)."""


def canonical_rules(rules: Rules | None) -> str:
    """A game's rules as one text, the same for the same rules (a key to find their edges by).

    >>> canonical_rules({"decks": 6, "dealer_bust_pays": {"4": 10}})
    '{"dealer_bust_pays":{"4":10},"decks":6}'
    """
    return json.dumps(rules or {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class BadEvent(ValueError):
    """An event whose fields are not what the contract says; the message says what is wrong."""


def record_of(event: FollowedEvent) -> Event:
    """The registered record ``event`` is (:attr:`FollowedEvent.event`, decoded once for all its
    readers); BadEvent, saying why, for one that is not its record or of no registered type."""
    record = event.event
    if record is None:
        try:            # (only for an event that is not its record: the decoder's own words)
            decode_public(event.type, event.data)
        except (ValueError, KeyError, TypeError) as exc:
            raise BadEvent(f"{event.type}: {exc}") from None
        raise BadEvent(f"{event.type}: no such event is registered")
    return record


@dataclass(frozen=True)
class Hand:
    """A settled hand of one table."""

    table: str
    epoch: str
    number: int | None
    started: str
    """When its bets closed (its settlement's time if that was not seen)."""
    settled: str
    dealer_seat: int | None
    """The player-dealer's seat (``hand.started``), None when the house banked the hand."""
    results: tuple[WagerResult, ...]
    rake: int
    """What the pots paid the house (the ``rake`` of its ``pot.awarded``)."""
    game: str | None = None
    rules: Rules | None = None
    """The game and rules of the table's last ``table.opened`` (None: not seen, or not published)."""

    @property
    def pot(self) -> int:
        """Every seat's wagers together (in a pot game: all the chips in the pots)."""
        return sum(r.wager for r in self.results)


@dataclass(frozen=True)
class Jackpot:
    """A progressive prize paid to ``seat`` (``progressive.paid``): it settled as ``waiting``."""

    table: str
    ts: str
    seat: int
    amount: int


@dataclass(frozen=True)
class Closed:
    """The pit closed the table (``table.closed``): every rating open at it ends."""

    table: str
    ts: str
    supervisor: str


Happening = Hand | Jackpot | Closed

HandKey = tuple[str, int | None]
"""A hand of the table: the epoch and the hand's number."""


class HandReader:
    """One table's events in, its settled hands, jackpots and closings out."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.game: str | None = None
        self.rules: Rules | None = None
        """The game and rules of the table's last ``table.opened`` (None until seen)."""
        self._dealers: dict[HandKey, int | None] = {}
        self._started: dict[HandKey, str] = {}
        self._rake: dict[HandKey, int] = {}
        self._last: tuple[str, int] | None = None

    def feed(self, event: FollowedEvent, epoch: str = "") -> Happening | None:
        """Read one event (of this table, in order); what it completes, if anything (nothing for an
        event read already, or of a type not read)."""
        if event.type not in RATED_TYPES or self._seen(event.seq, epoch):
            return None
        ts = event.ts
        if not ts:
            raise BadEvent(f"{event.type}: no ts")
        record = record_of(event)
        key = (epoch, event.hand)
        if isinstance(record, TableOpened):
            self.game, self.rules = record.game, record.rules
        elif isinstance(record, HandStarted):
            self._dealers[key] = record.dealer_seat
        elif isinstance(record, BetsClosed):
            self._started[key] = ts
        elif isinstance(record, PotAwarded):
            self._rake[key] = self._rake.get(key, 0) + record.rake
        elif isinstance(record, HandVoided):
            self._forget(key)
        elif isinstance(record, Settled):
            return self._settled(key, ts, event.hand, epoch, record)
        elif isinstance(record, ProgressivePaid):
            return Jackpot(self.table, ts, record.seat, record.amount)
        elif isinstance(record, TableClosed):
            return Closed(self.table, ts, record.supervisor)
        return None

    def _seen(self, seq: int, epoch: str) -> bool:
        """Whether this event was read already (and if not, it is the last read from now on)."""
        if self._last is not None:
            last_epoch, last_seq = self._last
            if epoch == last_epoch and seq <= last_seq:
                return True
            if epoch.isdigit() and last_epoch.isdigit() and int(epoch) < int(last_epoch):
                return True     # an older epoch's event (the follower's own labels are new ones)
        self._last = (epoch, seq)
        return False

    def _settled(self, key: HandKey, ts: str, number: int | None, epoch: str, settled: Settled) -> Hand:
        hand = Hand(self.table, epoch, number, self._started.get(key, ts), ts, self._dealers.get(key),
                    settled.results, self._rake.get(key, 0), self.game, self.rules)
        self._forget(key)
        return hand

    def _forget(self, key: HandKey) -> None:
        self._dealers.pop(key, None)
        self._started.pop(key, None)
        self._rake.pop(key, None)
