"""The table's books as the pit reads them: each dealer's figures, and each count's win and hold.

Fed the events as published (:meth:`Books.feed`), pure like the rest of the
ratings: the time is the events' ``ts`` (and ``now`` where asked).

**Dealers** (``dealer.in`` / ``dealer.out``; docs/pit-events.md, "The
table's books"): per dealer and table, the hands the dealer closed
(``hand.ended``), the hands voided (``hand.voided``), the ``payout_mismatch``
alerts, and the time signed in at the table; hands per hour is the hands over
that time.

**Counts** (``table.opener`` to ``table.closer``): the opener, the fills and
credits between them (``tray.fill``, ``tray.credit``), the closer, the drop
(``table.drop``) and who signed each slip. The count room's formula::

    win  = closer - opener + credits - fills + drop
    hold = win / drop   (as a percentage)

>>> from controller.events.envelope import decode_body, encode_event
>>> from controller.follow.records import FollowedEvent
>>> def followed(seq, kind, data, ts):
...     topic, body = encode_event("T07", seq, ts, kind, None, data)
...     return FollowedEvent.of(decode_body(body), topic, body)
>>> books = Books()
>>> for seq, (kind, data, ts) in enumerate([
...         ("dealer.in", {"dealer": "D1"}, "2026-11-21T20:00:00.000Z"),
...         ("table.opener", {"amount": 10000, "dealer": "D1"}, "2026-11-21T20:00:01.000Z"),
...         ("hand.ended", {"hand": 1}, "2026-11-21T20:10:00.000Z"),
...         ("tray.fill", {"amount": 5000, "supervisor": "S1", "reading": 9000, "expected": 14000},
...          "2026-11-21T20:20:00.000Z"),
...         ("tray.credit", {"amount": 2500, "supervisor": "S1", "reading": 14000, "expected": 11500},
...          "2026-11-21T20:25:00.000Z"),
...         ("table.closer", {"amount": 11500, "dealer": "D1"}, "2026-11-21T20:29:00.000Z"),
...         ("dealer.out", {"dealer": "D1", "reason": "signed_out"}, "2026-11-21T20:30:00.000Z"),
...         ("table.drop", {"amount": 4000, "supervisor": "S1"}, "2026-11-21T20:31:00.000Z")], start=1):
...     _ = books.feed("T07", followed(seq, kind, data, ts))
>>> books.feed("T07", followed(8, "table.drop", {"amount": 1, "supervisor": "S1"},
...                            "2026-11-21T20:31:00.000Z"))      # read already
False
>>> count = books.counts["T07"][-1]
>>> count.win, count.hold
(3000, 75.0)
>>> books.dealers[("D1", "T07")].hands_per_hour()
2.0
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from controller.events.books import Closer, DealerIn, DealerOut, DropEntered, Opener, SlipSigned
from controller.events.hand import Alerted
from controller.events.registry import Event
from controller.events.table import HandEnded, HandVoided
from controller.events.tray import TrayCredited, TrayFilled
from controller.follow.records import FollowedEvent
from controller.podium.ratings.hands import record_of
from firmware_bridge.kernel.json import JsonObject, JsonValue

BOOKS_TYPES = ("dealer.in", "dealer.out", "hand.ended", "hand.voided", "alert", "table.opener",
               "table.closer", "table.slip_signed", "table.drop", "tray.fill", "tray.credit")
"""The event types the books read."""


def _parse(ts: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(ts.replace("Z", "+00:00"))


def _seconds(start: str, end: str) -> float:
    return max(0.0, (_parse(end) - _parse(start)).total_seconds())


@dataclass
class DealerFigures:
    """One dealer at one table: hands closed, voids, payout mismatches, seconds signed in (closed
    spells), and since when the dealer is signed in now (``since``; None: signed out)."""

    dealer: str
    table: str
    hands: int = 0
    voids: int = 0
    mismatches: int = 0
    seconds: float = 0.0
    since: str | None = None
    first: str | None = None
    last: str | None = None

    def time_at_table(self, now: str | None = None) -> float:
        """Seconds signed in at the table, the spell still open counted to ``now`` (else to the last
        event seen)."""
        open_for = 0.0
        if self.since is not None:
            open_for = _seconds(self.since, now or self.last or self.since)
        return self.seconds + open_for

    def hands_per_hour(self, now: str | None = None) -> float | None:
        """Hands closed per hour signed in (None before any time passed)."""
        hours = self.time_at_table(now) / 3600
        return round(self.hands / hours, 1) if hours > 0 else None

    def to_json(self, now: str | None = None) -> JsonObject:
        """The figures as JSON (seconds to the second)."""
        return {"dealer": self.dealer, "table": self.table, "hands": self.hands, "voids": self.voids,
                "payout_mismatches": self.mismatches, "seconds": round(self.time_at_table(now)),
                "hands_per_hour": self.hands_per_hour(now), "signed_in": self.since is not None,
                "first": self.first, "last": self.last}


ChipCounts = dict[int, int]
"""A slip's chips by denomination: a chip's value in cents -> how many of them."""


def chip_counts(chips: Mapping[int, int] | None) -> ChipCounts | None:
    """A slip's ``chips`` (value in cents -> count, as its record holds them) as numbers, by value;
    None when the slip has none (one from before they were kept). Anything else raises ValueError."""
    if chips is None:
        return None
    counts = {int(value): int(count) for value, count in chips.items()}
    if any(value <= 0 or count < 0 for value, count in counts.items()):
        raise ValueError(f"chips must be positive values and counts, not {chips!r}")
    return dict(sorted(counts.items()))


def chips_json(chips: ChipCounts | None) -> list[JsonValue] | None:
    """A slip's chips as its JSON shows them: by value, each ``{"value", "count", "amount"}`` (cents).

    >>> chips_json({500: 3, 2500: 4})
    [{'value': 500, 'count': 3, 'amount': 1500}, {'value': 2500, 'count': 4, 'amount': 10000}]
    """
    if chips is None:
        return None
    return [{"value": value, "count": count, "amount": value * count}
            for value, count in sorted(chips.items())]


@dataclass
class Count:
    """One count at one table: the opener and its closer, the fills and credits between, the drop;
    each slip's chips by denomination where the slip gave them."""

    table: str
    opener: int
    opened_at: str
    opener_dealer: str
    opener_signed_by: str | None = None
    fills: int = 0
    credits: int = 0
    closer: int | None = None
    closed_at: str | None = None
    closer_dealer: str | None = None
    closer_signed_by: str | None = None
    drop: int | None = None
    drop_by: str | None = None
    opener_chips: ChipCounts | None = None
    closer_chips: ChipCounts | None = None

    @property
    def win(self) -> int | None:
        """The count room's win, in cents: closer - opener + credits - fills + drop (None until the
        closer and the drop are in)."""
        if self.closer is None or self.drop is None:
            return None
        return self.closer - self.opener + self.credits - self.fills + self.drop

    @property
    def hold(self) -> float | None:
        """The win as a percentage of the drop, to a hundredth (None without a drop above 0)."""
        win = self.win
        return round(win * 100 / self.drop, 2) if win is not None and self.drop else None

    def to_json(self) -> JsonObject:
        """The count as JSON, money in cents."""
        return {"table": self.table, "opened_at": self.opened_at, "opener": self.opener,
                "opener_dealer": self.opener_dealer, "opener_signed_by": self.opener_signed_by,
                "fills": self.fills, "credits": self.credits, "closer": self.closer,
                "closed_at": self.closed_at, "closer_dealer": self.closer_dealer,
                "closer_signed_by": self.closer_signed_by, "drop": self.drop, "drop_by": self.drop_by,
                "win": self.win, "hold_percent": self.hold, "opener_chips": chips_json(self.opener_chips),
                "closer_chips": chips_json(self.closer_chips)}


@dataclass
class Books:
    """Every table's dealer signed in and counts, and every dealer's figures at each table."""

    dealers: dict[tuple[str, str], DealerFigures] = field(default_factory=dict)
    """(dealer, table) -> the dealer's figures there."""
    current: dict[str, str] = field(default_factory=dict)
    """table -> the dealer signed in there."""
    counts: dict[str, list[Count]] = field(default_factory=dict)
    """table -> its counts, oldest first."""
    last: dict[str, tuple[str, int]] = field(default_factory=dict)
    """table -> the epoch and seq of the last event read."""

    def feed(self, table: str, event: FollowedEvent, epoch: str = "") -> bool:
        """One event of ``table`` (its envelope and its record) of ``epoch``; whether the books
        changed. An event read already (of the epoch of the last one read and not after it, or of
        an older epoch: a follower may repeat the last few) is skipped. An event that is not its
        record, or whose fields are not what the contract says, raises (ValueError, TypeError), and
        changes nothing."""
        ts = event.ts
        if event.type not in BOOKS_TYPES or not ts or self._seen(table, event.seq, epoch):
            return False
        _parse(ts)
        record = record_of(event)
        if isinstance(record, DealerIn):
            return self._sign_in(table, record.dealer, ts)
        if isinstance(record, DealerOut):
            return self._sign_out(table, ts)
        if isinstance(record, HandEnded | HandVoided | Alerted):
            return self._dealt(table, record, ts)
        return self._count(table, record, ts)

    def _seen(self, table: str, seq: int, epoch: str) -> bool:
        """Whether ``table``'s event ``seq`` of ``epoch`` was read already (if not, it is the last)."""
        last = self.last.get(table)
        if last is not None:
            last_epoch, last_seq = last
            if epoch == last_epoch and seq <= last_seq:
                return True
            if epoch.isdigit() and last_epoch.isdigit() and int(epoch) < int(last_epoch):
                return True
        self.last[table] = (epoch, seq)
        return False

    def _sign_in(self, table: str, dealer: str, ts: str) -> bool:
        if table in self.current:
            self._sign_out(table, ts)
        figures = self.dealers.setdefault((dealer, table), DealerFigures(dealer, table))
        figures.since, figures.first = ts, figures.first or ts
        figures.last = ts
        self.current[table] = dealer
        return True

    def _sign_out(self, table: str, ts: str) -> bool:
        dealer = self.current.pop(table, None)
        if dealer is None:
            return False
        figures = self.dealers[(dealer, table)]
        if figures.since is not None:
            figures.seconds += _seconds(figures.since, ts)
        figures.since, figures.last = None, ts
        return True

    def _dealt(self, table: str, record: HandEnded | HandVoided | Alerted, ts: str) -> bool:
        dealer = self.current.get(table)
        if dealer is None:
            return False
        figures = self.dealers[(dealer, table)]
        if isinstance(record, HandEnded):
            figures.hands += 1
        elif isinstance(record, HandVoided):
            figures.voids += 1
        elif record.code == "payout_mismatch":
            figures.mismatches += 1
        else:
            return False
        figures.last = ts
        return True

    def _count(self, table: str, record: Event, ts: str) -> bool:
        counts = self.counts.setdefault(table, [])
        if isinstance(record, Opener):
            counts.append(Count(table, record.amount, ts, record.dealer,
                                opener_chips=chip_counts(record.chips)))
            return True
        count = counts[-1] if counts else None
        if count is None:
            return False
        open_now = count.closer is None
        if isinstance(record, TrayFilled | TrayCredited):
            if not open_now:
                return False
            amount = record.amount
            if isinstance(record, TrayFilled):
                count.fills += amount
            else:
                count.credits += amount
        elif isinstance(record, Closer) and open_now:
            closer, chips = record.amount, chip_counts(record.chips)
            count.closer, count.closed_at, count.closer_dealer = closer, ts, record.dealer
            count.closer_chips = chips
        elif isinstance(record, SlipSigned):
            supervisor = record.supervisor
            if record.slip == "opener":
                count.opener_signed_by = supervisor
            else:
                count.closer_signed_by = supervisor
        elif isinstance(record, DropEntered) and not open_now:
            count.drop, count.drop_by = record.amount, record.supervisor
        else:
            return False
        return True

    def last_count(self, table: str) -> Count | None:
        """The table's last count (open or closed), None before its first opener."""
        counts = self.counts.get(table)
        return counts[-1] if counts else None

    def by_dealer(self, now: str | None = None) -> list[JsonObject]:
        """Every dealer's figures at each table, by dealer then table."""
        return [self.dealers[key].to_json(now) for key in sorted(self.dealers)]

    def kept(self, table: str) -> str:
        """What the books hold of ``table`` as JSON text (its dealers' figures, the dealer signed in,
        its counts, the last event read), for :meth:`restore`.

        >>> from controller.events.envelope import decode_body, encode_event
        >>> from controller.follow.records import FollowedEvent
        >>> topic, body = encode_event("T1", 4, "2026-11-21T20:00:01.000Z", "table.opener", None,
        ...                            {"amount": 10000, "dealer": "D1", "chips": {"2500": 4}})
        >>> books = Books()
        >>> _ = books.feed("T1", FollowedEvent.of(decode_body(body), topic, body), "1")
        >>> again = Books()
        >>> again.restore("T1", books.kept("T1"))
        >>> again == books
        True
        """
        return json.dumps({
            "dealer": self.current.get(table),
            "last": list(self.last[table]) if table in self.last else None,
            "dealers": [dataclasses.asdict(f) for (_, where), f in sorted(self.dealers.items())
                        if where == table],
            "counts": [dataclasses.asdict(count) for count in self.counts.get(table, [])]})

    def restore(self, table: str, text: str) -> None:
        """Take back what :meth:`kept` gave of ``table`` (replacing what the books hold of it). Text
        that is not what :meth:`kept` writes raises (ValueError, KeyError, TypeError), and changes
        nothing."""
        data = json.loads(text)
        dealers = [DealerFigures(**item) for item in data["dealers"]]
        counts = [Count(**{**item, "opener_chips": _int_keys(item["opener_chips"]),
                           "closer_chips": _int_keys(item["closer_chips"])}) for item in data["counts"]]
        last = None if data["last"] is None else (str(data["last"][0]), int(data["last"][1]))
        current = data["dealer"]
        if any(f.table != table for f in dealers) or any(c.table != table for c in counts):
            raise ValueError(f"the books kept of {table} name another table")
        for key in [key for key in self.dealers if key[1] == table]:
            del self.dealers[key]
        self.dealers.update({(f.dealer, table): f for f in dealers})
        self.counts[table] = counts
        self.current.pop(table, None)
        if current is not None:
            self.current[table] = str(current)
        self.last.pop(table, None)
        if last is not None:
            self.last[table] = last


def _int_keys(chips: dict[str, int] | None) -> ChipCounts | None:
    """A slip's chips read back from JSON (whose keys are text)."""
    return None if chips is None else {int(value): int(count) for value, count in chips.items()}


def counted(counts: Iterable[Count]) -> JsonObject:
    """The win, drop and hold of the counts complete among ``counts`` together (a pit's).

    >>> a = Count("T1", 10000, "", "D1", closer=11500, drop=4000, fills=5000, credits=2500)
    >>> counted([a, Count("T2", 5000, "", "D2")])
    {'counts': 1, 'win': 3000, 'drop': 4000, 'hold_percent': 75.0}
    """
    done = [count for count in counts if count.win is not None]
    win = sum(count.win or 0 for count in done)
    drop = sum(count.drop or 0 for count in done)
    return {"counts": len(done), "win": win if done else None, "drop": drop if done else None,
            "hold_percent": round(win * 100 / drop, 2) if drop else None}
