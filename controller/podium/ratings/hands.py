"""A table's events read as what rated play and shift figures are made of: settled hands, jackpots
paid, the table closed.

One :class:`HandReader` per table is fed that table's events in order (as
published: ``{"seq", "ts", "type", "hand", "data"}``, and the epoch they came
in). It keeps what a hand's settlement needs from the events before it
(``hand.started``'s ``dealer_seat``, ``bets.closed``'s time, the rake of the
``pot.awarded``) and gives back, for the events that matter:

* a :class:`Hand` at ``hand.settled`` (a voided hand gives nothing);
* a :class:`Jackpot` at ``progressive.paid``;
* a :class:`Closed` at ``table.closed``.

An event whose fields are not what docs/pit-events.md says raises
:class:`BadEvent` and changes nothing; the caller leaves it out and says so.
An event read already (of the epoch of the last one read, and not after it; or
of an older epoch) is skipped, so a reader seeded with the stored events can then be fed a
follower's, which may repeat the last few.

>>> reader = HandReader("T07")
>>> reader.feed({"ts": "2026-11-21T10:00:00.000Z", "type": "bets.closed", "hand": 3, "data": {}})
>>> hand = reader.feed({"ts": "2026-11-21T10:00:40.000Z", "type": "hand.settled", "hand": 3,
...     "data": {"results": [{"seat": 2, "spot": "main", "hand_index": 0, "outcome": "win",
...                           "wager": 1000, "payout": 1000}]}})
>>> hand.started, hand.settled, hand.results[0].payout, hand.pot
('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:40.000Z', 1000, 1000)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

RATED_TYPES = ("table.opened", "hand.started", "bets.closed", "pot.awarded", "hand.settled",
               "hand.voided", "progressive.paid", "table.closed")
"""The event types a :class:`HandReader` reads (what a store is asked for)."""


UNREAD = frozenset({"bets.closed", "hand.voided"})
"""The types whose ``data`` is not read (only that they came, and when): not decoded either."""


def canonical_rules(rules: Mapping[str, Any] | None) -> str:
    """A game's rules as one text, the same for the same rules (a key to find their edges by).

    >>> canonical_rules({"decks": 6, "dealer_bust_pays": {"4": 10}})
    '{"dealer_bust_pays":{"4":10},"decks":6}'
    """
    return json.dumps(rules or {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class BadEvent(ValueError):
    """An event whose fields are not what the contract says; the message says what is wrong."""


@dataclass(frozen=True)
class Result:
    """One wager's result at settlement: the player's net ``payout`` on ``wager`` (cents)."""

    seat: int
    spot: str
    outcome: str
    wager: int
    payout: int


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
    results: tuple[Result, ...]
    rake: int
    """What the pots paid the house (the ``rake`` of its ``pot.awarded``)."""
    game: str | None = None
    rules: Mapping[str, Any] | None = None
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


def _int(data: Mapping[str, Any], key: str, kind: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadEvent(f"{kind}: {key} is {value!r}, not a whole number")
    return value


def _data(message: Mapping[str, Any]) -> Mapping[str, Any]:
    """The event's ``data`` (decoded from ``raw`` when the follower left it undecoded)."""
    data = message.get("data")
    if data is None and "raw" in message:
        try:
            data = json.loads(message["raw"])
        except (TypeError, ValueError) as exc:
            raise BadEvent(f"{message.get('type')}: data is not JSON") from exc
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise BadEvent(f"{message.get('type')}: data is not an object")
    return data


class HandReader:
    """One table's events in, its settled hands, jackpots and closings out."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.game: str | None = None
        self.rules: Mapping[str, Any] | None = None
        """The game and rules of the table's last ``table.opened`` (None until seen)."""
        self._dealers: dict[tuple[str, Any], int | None] = {}
        self._started: dict[tuple[str, Any], str] = {}
        self._rake: dict[tuple[str, Any], int] = {}
        self._last: tuple[str, int] | None = None

    def feed(self, message: Mapping[str, Any], epoch: str = "") -> Happening | None:
        """Read one event (of this table, in order); what it completes, if anything (nothing for an
        event read already)."""
        if self._seen(message, epoch):
            return None
        kind = message.get("type")
        ts = message.get("ts")
        if not isinstance(ts, str) or not ts:
            raise BadEvent(f"{kind}: no ts")
        data = {} if kind in UNREAD else _data(message)
        key = (epoch, message.get("hand"))
        if kind == "table.opened":
            game, rules = data.get("game"), data.get("rules")
            self.game = game if isinstance(game, str) else None
            self.rules = rules if isinstance(rules, Mapping) else None
        elif kind == "hand.started":
            dealer = data.get("dealer_seat")
            self._dealers[key] = None if dealer is None else _int(data, "dealer_seat", kind)
        elif kind == "bets.closed":
            self._started[key] = ts
        elif kind == "pot.awarded":
            self._rake[key] = self._rake.get(key, 0) + (_int(data, "rake", kind) if "rake" in data else 0)
        elif kind == "hand.voided":
            self._forget(key)
        elif kind == "hand.settled":
            return self._settled(key, ts, message.get("hand"), epoch, data)
        elif kind == "progressive.paid":
            return Jackpot(self.table, ts, _int(data, "seat", kind), _int(data, "amount", kind))
        elif kind == "table.closed":
            supervisor = data.get("supervisor")
            return Closed(self.table, ts, supervisor if isinstance(supervisor, str) else "")
        return None

    def _seen(self, message: Mapping[str, Any], epoch: str) -> bool:
        """Whether this event was read already (and if not, it is the last read from now on)."""
        seq = message.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return False
        if self._last is not None:
            last_epoch, last_seq = self._last
            if epoch == last_epoch and seq <= last_seq:
                return True
            if epoch.isdigit() and last_epoch.isdigit() and int(epoch) < int(last_epoch):
                return True     # an older epoch's event (the follower's own labels are new ones)
        self._last = (epoch, seq)
        return False

    def _settled(self, key: tuple[str, Any], ts: str, number: Any, epoch: str,
                 data: Mapping[str, Any]) -> Hand:
        raw = data.get("results")
        if not isinstance(raw, list) or not all(isinstance(r, Mapping) for r in raw):
            raise BadEvent("hand.settled: results is not a list of objects")
        results = []
        for r in raw:
            spot, outcome = r.get("spot"), r.get("outcome")
            if not isinstance(spot, str) or not isinstance(outcome, str):
                raise BadEvent(f"hand.settled: a result without a spot or outcome: {dict(r)!r}")
            results.append(Result(_int(r, "seat", "hand.settled"), spot, outcome,
                                  _int(r, "wager", "hand.settled"), _int(r, "payout", "hand.settled")))
        hand = Hand(self.table, epoch, number if isinstance(number, int) else None,
                    self._started.get(key, ts), ts, self._dealers.get(key), tuple(results),
                    self._rake.get(key, 0), self.game, self.rules)
        self._forget(key)
        return hand

    def _forget(self, key: tuple[str, Any]) -> None:
        self._dealers.pop(key, None)
        self._started.pop(key, None)
        self._rake.pop(key, None)
