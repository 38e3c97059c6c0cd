"""Game recall: the last hands, step by step, for ``table-controller recall``.

Built only from the published bodies in the journal, never from its private data, so
a face-down card reads "face down" until the event that reveals it, exactly as the
pit saw it. Events belong to a hand by their body's ``hand`` field; events of no hand
(``hand`` null) are left out. Amounts are in cents, as in the pit events. A split
hand is named by its 1-based number: ``seat 3 hand 2`` is ``hand_index`` 1.

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
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from controller.games.parts.money import dollars
from controller.journal.log import Record

Data = Mapping[str, Any]


def _who(data: Data) -> str:
    """Name a card's or a decision's owner: ``dealer``, ``seat 3`` or ``seat 3 hand 2``."""
    if data.get("to") == "dealer":
        return "dealer"
    index = data.get("hand_index") or 0
    return f"seat {data.get('seat')}" + (f" hand {index + 1}" if index else "")


def _money(cents: object, signed: bool = False) -> str:
    """Cents as the dealer display shows money: ``$10.00``; a result signed: ``+$10.00``, ``-$5.00``."""
    if not isinstance(cents, int) or isinstance(cents, bool):
        return str(cents)
    return ("+" if signed and cents > 0 else "") + dollars(cents)


def _wager(bet: Data) -> str:
    return f"seat {bet.get('seat')} {bet.get('spot')} {_money(bet.get('amount'))}"


def _card(data: Data) -> str:
    card = data.get("card")
    return f"{_who(data)} <- {card if card is not None else 'face down'}"


def _action(data: Data) -> str:
    amount = data.get("amount")
    return f"{_who(data)}: {data.get('action')}" + (f" {_money(amount)}" if amount is not None else "")


def _alert(data: Data) -> str:
    about = [f"{key} {data[key]}" for key in ("seat", "spot", "index") if data.get(key) is not None]
    where = f" ({', '.join(about)})" if about else ""
    return f"ALERT {data.get('severity')} {data.get('code')}: {data.get('message')}{where}"


def _settled(data: Data) -> str:
    lines = []
    for result in data.get("results") or ():
        label = f" ({result['label']})" if result.get("label") else ""
        owner = _who({"seat": result.get("seat"), "hand_index": result.get("hand_index")})
        lines.append(
            f"{owner} {result.get('spot')}: {result.get('outcome')}"
            f" {_money(result.get('payout'), signed=True)}{label}"
        )
    return "\n".join(lines) or "settled"


def _started(data: Data) -> str:
    seats = ", ".join(str(seat) for seat in data.get("seats") or ())
    dealer = data.get("dealer_seat")
    return f"started: seats {seats}" + (f", dealer seat {dealer}" if dealer is not None else "")


def _generic(kind: str, data: Data) -> str:
    """An event of a type without its own line: its type, then its fields as ``key=json``."""
    fields = " ".join(f"{key}={json.dumps(value)}" for key, value in data.items())
    return f"{kind} {fields}".rstrip()


_LINES: dict[str, Callable[[Data], str]] = {
    "hand.started": _started,
    "bet.placed": lambda data: f"bet {_wager(data)}",
    "bets.closed": lambda data: (
        "bets closed: " + (", ".join(_wager(bet) for bet in data.get("bets") or ()) or "no bets")
    ),
    "card.dealt": _card,
    "card.revealed": lambda data: f"{_who(data)} shows {data.get('card')}",
    "player.action": _action,
    "alert": _alert,
    "hand.settled": _settled,
    "hand.ended": lambda data: "ended",
    "hand.voided": lambda data: f"voided: {data.get('reason')}",
}


def _header(hand: int, ts: object) -> str:
    """``Hand 57  (2026-11-21 22:14:05Z)`` from the first event's timestamp."""
    when = f"{ts[:10]} {ts[11:19]}Z" if isinstance(ts, str) and len(ts) >= 19 else "time unknown"
    return f"Hand {hand}  ({when})"


def recall_hands(records: Iterable[Record], count: int = 10) -> list[str]:
    """Return printable lines for the last ``count`` hands in ``records``, oldest first.

    Each hand is a header line followed by one indented line per event (a settlement
    gives one line per wager). Only the last ``count`` hands are held while reading.
    """
    hands: dict[int, list[str]] = {}
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
                del hands[next(iter(hands))]
            if hand not in hands:
                continue
        kind = str(event.get("type"))
        data = event.get("data")
        if not isinstance(data, dict):
            data = {}
        describe = _LINES.get(kind)
        text = describe(data) if describe is not None else _generic(kind, data)
        hands[hand] += [f"  {line}" for line in text.split("\n")]
    return [line for lines in hands.values() for line in lines]
