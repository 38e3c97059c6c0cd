"""Game recall: the last hands, step by step, for ``table-controller recall``.

Built only from the published bodies in the journal, never from its private data, so
a face-down card reads "face down" until the event that reveals it, exactly as the
pit saw it. Events belong to a hand by their body's ``hand`` field; events of no hand
(``hand`` null) are left out. Amounts are in dollars and cents, as the dealer display writes
money (the pit events carry cents): an event without a line of its own prints its fields, each
money field (:data:`MONEY`) in dollars, ``pot pots [$60.00 seats [1, 2, 3]] rake $3.00``. A seat's hands
are numbered as on the dealer display: none while it has one, every hand from 1 once it has
split (from its ``split`` action or first event of a ``hand_index`` above 0 on), so
``seat 3 hand 2`` is ``hand_index`` 1 and ``seat 3 hand 1`` is 0.

>>> def body(seq, kind, data):
...     return json.dumps({"v": 1, "table": "T07", "seq": seq, "type": kind, "hand": 4,
...                        "ts": "2026-11-21T22:14:05.123Z", "data": data}).encode()
>>> hidden = {"index": 2, "to": "dealer", "seat": None, "hand_index": 0,
...           "card": None, "face_up": False}
>>> records = [
...     Record(1, "T07/card.dealt", body(1, "card.dealt", hidden), {"card": "As"}),
...     Record(2, "T07/card.revealed", body(2, "card.revealed", dict(hidden, card="As"))),
... ]
>>> print("\\n".join(recall_hands(records)))
Hand 4  (2026-11-21 22:14:05Z)
  dealer <- face down
  dealer shows As
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Set
from pathlib import Path

from controller.games.parts.hand_names import hand_number
from controller.journal.lines import Record
from controller.journal.segments import read_records, segments
from firmware_bridge.kernel.money import dollars

Data = Mapping[str, object]


def _listed(value: object) -> list[object]:
    """A JSON array's items; nothing for anything else."""
    return value if isinstance(value, list) else []


def _index(data: Data) -> int:
    index = data.get("hand_index")
    return index if type(index) is int else 0


def _who(data: Data, split: Set[object]) -> str:
    """Name a card's or a decision's owner: ``dealer``, ``seat 3``, or for a seat in ``split``
    (the seats with several hands) ``seat 3 hand 1``, ``seat 3 hand 2``."""
    if data.get("to") == "dealer":
        return "dealer"
    return f"seat {data.get('seat')}" + hand_number(_index(data), data.get("seat") in split)


def _money(cents: object, signed: bool = False) -> str:
    """Cents as the dealer display shows money: ``$10.00``; a result signed: ``+$10.00``, ``-$5.00``."""
    if not isinstance(cents, int) or isinstance(cents, bool):
        return str(cents)
    return ("+" if signed and cents > 0 else "") + dollars(cents)


def _wager(bet: Data) -> str:
    return f"seat {bet.get('seat')} {bet.get('spot')} {_money(bet.get('amount'))}"


def _card(data: Data, split: Set[object]) -> str:
    card = data.get("card")
    return f"{_who(data, split)} <- {card if card is not None else 'face down'}"


def _action(data: Data, split: Set[object]) -> str:
    amount = data.get("amount")
    return f"{_who(data, split)}: {data.get('action')}" + (f" {_money(amount)}" if amount is not None else "")


def _alert(data: Data) -> str:
    about = [f"{key} {data[key]}" for key in ("seat", "spot", "index") if data.get(key) is not None]
    where = f" ({', '.join(about)})" if about else ""
    return f"ALERT {data.get('severity')} {data.get('code')}: {data.get('message')}{where}"


def _settled(data: Data) -> str:
    """One line per wager; a spot wagered on several hands names each (``seat 3 main hand 1``)."""
    results = [result for result in _listed(data.get("results")) if isinstance(result, Mapping)]
    split = {(r.get("seat"), r.get("spot")) for r in results if _index(r) > 0}
    lines = []
    for result in results:
        label = f" ({result['label']})" if result.get("label") else ""
        several = (result.get("seat"), result.get("spot")) in split
        wager = f"seat {result.get('seat')} {result.get('spot')}" + hand_number(_index(result), several)
        lines.append(
            f"{wager}: {result.get('outcome')}"
            f" {_money(result.get('payout'), signed=True)}{label}"
        )
    return "\n".join(lines) or "settled"


def _started(data: Data) -> str:
    seats = ", ".join(str(seat) for seat in _listed(data.get("seats")))
    dealer = data.get("dealer_seat")
    return f"started: seats {seats}" + (f", dealer seat {dealer}" if dealer is not None else "")


MONEY = frozenset({"amount", "rake", "pot", "payout", "wager", "stack", "stacks", "expected", "read",
                   "closed", "reading", "value", "blinds", "min_bet", "max_bet", "low", "high", "change",
                   "at_hand_start", "due", "paid", "tray_change", "house_result", "chips"})
"""The fields that hold money in cents, whatever the event (a mapping under one of them holds
money in its values: ``stacks`` seat -> cents)."""


def _field(key: str, value: object, money: bool = False) -> str:
    """One field's value in words: money in dollars (under a :data:`MONEY` key, at any depth),
    a list in brackets, an object as its fields, anything else as JSON."""
    money = money or key in MONEY
    if isinstance(value, list):
        return "[" + ", ".join(_field(key, item, money) for item in value) + "]"
    if isinstance(value, dict):
        return " ".join(f"{inner} {_field(inner, item, money and inner not in ('seat', 'seats'))}"
                        for inner, item in value.items())
    if money and isinstance(value, int) and not isinstance(value, bool):
        return _money(value)
    return json.dumps(value)


def _generic(kind: str, data: Data) -> str:
    """An event of a type without its own line: its type, then each field's name and value
    (:func:`_field`): ``pot pots [amount $60.00 seats [1, 2, 3]] rake $3.00``."""
    fields = " ".join(f"{key} {_field(key, value)}" for key, value in data.items())
    return f"{kind} {fields}".rstrip()


_LINES: dict[str, Callable[[Data], str]] = {
    "hand.started": _started,
    "bet.placed": lambda data: f"bet {_wager(data)}",
    "bets.closed": lambda data: (
        "bets closed: " + (", ".join(_wager(bet) for bet in _listed(data.get("bets"))
                                     if isinstance(bet, Mapping)) or "no bets")
    ),
    "alert": _alert,
    "hand.settled": _settled,
    "hand.ended": lambda data: "ended",
    "hand.voided": lambda data: f"voided: {data.get('reason')}",
}
_OWNED: dict[str, Callable[[Data, Set[object]], str]] = {
    "card.dealt": _card,
    "card.revealed": lambda data, split: f"{_who(data, split)} shows {data.get('card')}",
    "player.action": _action,
}
"""The events that name a seat's hand, worded knowing the seats that have split so far in the hand."""


def _header(hand: int, ts: object) -> str:
    """``Hand 57  (2026-11-21 22:14:05Z)`` from the first event's timestamp."""
    when = f"{ts[:10]} {ts[11:19]}Z" if isinstance(ts, str) and len(ts) >= 19 else "time unknown"
    return f"Hand {hand}  ({when})"


def recall_hands(records: Iterable[Record], count: int = 10) -> list[str]:
    """Return printable lines for the last ``count`` hands in ``records``, oldest first.

    Each hand is a header line followed by one indented line per event (a settlement
    gives one line per wager). Only the last ``count`` hands are held while reading.
    """
    return [line for _, lines in recall_by_hand(records, count) for line in lines]


def recall_by_hand(records: Iterable[Record], count: int = 10) -> list[tuple[int, list[str]]]:
    """The last ``count`` hands in ``records``, oldest first: each hand's number and its lines (a
    header, then one indented line per event), as :func:`recall_hands` prints them."""
    hands: dict[int, list[str]] = {}
    split: dict[int, set[object]] = {}          # per hand, the seats that have several hands
    for record in records:
        try:
            event = json.loads(record.body)
        except ValueError:
            continue
        hand = event.get("hand") if isinstance(event, dict) else None
        if type(hand) is not int:
            continue
        if hand not in hands:
            hands[hand] = [_header(hand, event.get("ts"))]
            while len(hands) > max(count, 0):
                oldest = next(iter(hands))
                del hands[oldest]
                split.pop(oldest, None)
            if hand not in hands:
                continue
        kind = str(event.get("type"))
        data = event.get("data")
        if not isinstance(data, dict):
            data = {}
        seats = split.setdefault(hand, set())
        if kind in _OWNED:
            if _index(data) > 0:
                seats.add(data.get("seat"))
            text = _OWNED[kind](data, seats)
            if kind == "player.action" and data.get("action") == "split":
                seats.add(data.get("seat"))
        else:
            describe = _LINES.get(kind)
            text = describe(data) if describe is not None else _generic(kind, data)
        hands[hand] += [f"  {line}" for line in text.split("\n")]
    return list(hands.items())


def recall_journal(path: Path, count: int = 10) -> list[tuple[int, list[str]]]:
    """The last ``count`` hands of the journal ``path`` as :func:`recall_by_hand` gives them, across
    its closed segments: read from its newest file back, one file more each time, until the files
    read hold a hand more than asked (the oldest may have begun in the file before) or the oldest
    file kept is reached. So a recall reads the live file, and a segment or two, not a year."""
    closed = segments(path)
    firsts = [segment.first for segment in closed]
    if path.exists() and path.stat().st_size:
        firsts.append(closed[-1].last + 1 if closed else 1)
    for back in range(len(firsts) - 1, -1, -1):
        hands = recall_by_hand(read_records(path, (firsts[back], 0)), count + 1)
        if len(hands) > count or back == 0:
            return hands[-count:] if count > 0 else []
    return []
