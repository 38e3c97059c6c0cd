"""The monitor's words: how the pit boss reads an event, as the hands log and the tiles say it.

An event as published (its ``type`` and ``data``, or its body) becomes one
line of words (:func:`words`, a step of a log: :func:`step`), read as the
public reads it (:func:`~controller.events.codec.decode_public`) and told by
its registered record (:func:`describe`); one no module registers by its
plain fields, one whose data is not its record's as ``(not understood)``. A
hand becomes its steps with its result or why it was voided
(:func:`hand_log`), and the event that settled it the last result a tile shows
(:func:`settled_words`). Money is said in dollars (cents kept as integers
until then). Nothing here keeps anything: the floor
(:mod:`~controller.podium.monitor.models.floor`) keeps the events and asks for their
words when a page is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from controller.events.codec import decode_public
from controller.events.envelope import decode_body
from controller.events.hand import (
    Acted,
    Alerted,
    DealtInPublic,
    Pot,
    PotAwarded,
    PotsChanged,
    Revealed,
    Settled,
    WagerResult,
)
from controller.events.registry import Event
from controller.events.table import BetPlaced, BetsClosed, HandStarted, HandVoided
from controller.follow.records import FollowedEvent
from controller.games.session.button import ButtonMoved
from controller.games.session.progressive import MeterChanged
from controller.games.session.stacks import StackChanged
from controller.games.session.tournament import LevelStarted
from firmware_bridge.kernel.json import JsonObject, JsonValue
from firmware_bridge.kernel.money import dollars

SETTLING = frozenset({"hand.settled", "hand.voided"})
"""The events that end a hand with a result (the last one is shown, understood or not)."""

NOT_UNDERSTOOD = (ValueError, KeyError, TypeError, AttributeError)
"""What reading an event or a picture that is not what the contract says raises."""


def words(kind: str, data: Mapping[str, JsonValue]) -> str:
    """One published event (its ``type`` and ``data``) in words, as a step of the hands log: read
    as the public reads it (:func:`~controller.events.codec.decode_public`) and told by
    :func:`describe`; an event no module registers, or one :func:`describe` does not tell, by its
    plain fields. ValueError, KeyError or TypeError for data that is not its record's.

    >>> words("card.dealt", {"index": 13, "to": "dealer", "seat": None, "hand_index": 0, "card": None,
    ...                      "face_up": False})
    'dealer: a card face down'
    >>> words("card.dealt", {"index": 14, "to": "seat", "seat": 2, "hand_index": 1, "card": "9c",
    ...                      "face_up": True})
    'seat 2 hand 2: 9c'
    >>> words("hand.settled", {"results": [{"seat": 1, "spot": "main", "hand_index": 0, "outcome": "win",
    ...                                     "wager": 1000, "payout": 1000}]})
    'results: seat 1 main win +$10.00'
    >>> words("pot.awarded", {"pot": 0, "seats": [3], "amount": 4200, "rake": 0})
    'pot 1: $42.00 to seat 3'
    >>> words("gizmo.spun", {"speed": 3, "parts": [1, 2]})
    'gizmo.spun: speed 3'
    """
    record = decode_public(kind, data)
    said = None if record is None else describe(record)
    if said is not None:
        return said
    shown = ", ".join(f"{k} {v}" for k, v in data.items() if not isinstance(v, list | dict))
    return kind + (f": {shown}" if shown else "")


def describe(record: Event) -> str | None:
    """A registered event in words (None for one told by its plain fields)."""
    if isinstance(record, DealtInPublic | Revealed):
        to, seat, hand_index = ((record.target.to, record.target.seat, record.target.hand_index)
                                if isinstance(record, DealtInPublic) else
                                (record.to, record.seat, record.hand_index))
        holder = "dealer" if to == "dealer" else f"seat {seat}"
        if hand_index:
            holder += f" hand {hand_index + 1}"
        if isinstance(record, Revealed):
            return f"{holder} turns up {record.card}"
        return f"{holder}: {record.card or 'a card face down'}"
    if isinstance(record, BetPlaced):
        return f"seat {record.seat} {record.spot}: {dollars(record.amount)}"
    if isinstance(record, BetsClosed):
        return "no more bets: " + (", ".join(
            f"seat {b.seat} {b.spot} {dollars(b.amount)}" for b in record.bets) or "no wager")
    if isinstance(record, Acted):
        amount = f" {dollars(record.amount)}" if record.amount is not None else ""
        return f"seat {record.seat} {record.action}{amount}"
    if isinstance(record, Settled):
        return "results: " + ", ".join(result_words(r) for r in record.results)
    if isinstance(record, HandStarted):
        dealer = f", seat {record.dealer_seat} deals" if record.dealer_seat is not None else ""
        return "hand starts: seats " + ", ".join(str(s) for s in record.seats) + dealer
    if isinstance(record, HandVoided):
        return f"hand voided: {record.reason}"
    if isinstance(record, Alerted):
        return f"ALERT {record.code}: {record.message}"
    if isinstance(record, MeterChanged):
        return f"meter {record.name}: {dollars(record.value)}"
    if isinstance(record, StackChanged):
        return f"seat {record.seat} stack {dollars(record.amount)} ({record.reason})"
    if isinstance(record, PotsChanged):
        pots = "; ".join(pot_words(n, p) for n, p in enumerate(record.pots))
        rake = f", rake {dollars(record.rake)}" if record.rake else ""
        return f"pots: {pots or 'none'}{rake}"
    if isinstance(record, PotAwarded):
        seats = ", ".join(str(s) for s in record.seats)
        rake = f" (rake {dollars(record.rake)})" if record.rake else ""
        return (f"pot {record.pot + 1}: {dollars(record.amount)} to "
                f"seat{'s' if len(record.seats) > 1 else ''} {seats}{rake}")
    if isinstance(record, ButtonMoved):
        return f"button to seat {record.seat}"
    if isinstance(record, LevelStarted):
        return f"level {record.level}: blinds {money_list(record.blinds)}"
    return None


def pot_words(index: int, pot: Pot) -> str:
    """``pot 1 $90.00 (seats 1, 2, 3)``.

    >>> pot_words(1, Pot(4000, (1, 2)))
    'pot 2 $40.00 (seats 1, 2)'
    """
    return f"pot {index + 1} {dollars(pot.amount)} (seats {', '.join(str(s) for s in pot.seats)})"


def money_list(amounts: Iterable[int]) -> str:
    """Amounts in cents as ``$20.00/$40.00``.

    >>> money_list([2000, 4000, 6000])
    '$20.00/$40.00/$60.00'
    """
    return "/".join(dollars(a) for a in amounts)


def result_words(result: WagerResult) -> str:
    """One wager's result: ``seat 3 main win +$25.00``.

    >>> result_words(WagerResult(2, "side", 0, "lose", 500, -500))
    'seat 2 side lose -$5.00'
    >>> result_words(WagerResult(2, "main", 1, "win", 3000, 3000))
    'seat 2 main hand 2 win +$30.00'
    """
    payout = result.payout
    sign = "+" if payout > 0 else ""
    label = f" ({result.label})" if result.label else ""
    hand = f" hand {result.hand_index + 1}" if result.hand_index else ""
    return f"seat {result.seat} {result.spot}{hand} {result.outcome}{label} {sign}{dollars(payout)}"


def _record(message: JsonObject) -> Event | None:
    """The record of a logged event (decoded from its body), as the public reads it; ValueError,
    KeyError or TypeError for one that is not its record."""
    kind, data = message.get("type"), message.get("data")
    if not isinstance(kind, str) or not isinstance(data, dict):
        raise ValueError(f"an event whose type {kind!r} or data is not right")
    return decode_public(kind, data)


def step(body: bytes) -> JsonObject:
    """One event as published (its body) as a step of a log: ``{"seq", "ts", "type", "text"}``."""
    return _step(decode_body(body))


def _step(message: JsonObject) -> JsonObject:
    kind = message.get("type")
    data = message.get("data")
    try:
        if not isinstance(kind, str) or not isinstance(data, dict):
            raise ValueError("no type, or data that is not an object")
        text = words(kind, data)
    except NOT_UNDERSTOOD:
        text = f"{kind} (not understood)"
    return {"seq": message.get("seq"), "ts": message.get("ts"), "type": kind, "text": text}


def hand_log(hand: int | None, bodies: Sequence[bytes]) -> JsonObject:
    """One hand step by step (its events' bodies, as published), with its result or why it was
    voided."""
    messages = [decode_body(body) for body in bodies]
    result: JsonValue = None
    voided: JsonValue = None
    for message in messages:
        if message.get("type") not in SETTLING:
            continue
        try:
            record = _record(message)
            if isinstance(record, Settled):
                result = [result_words(r) for r in record.results]
            elif isinstance(record, HandVoided):
                voided = record.reason
            else:
                raise ValueError("not a result")
        except NOT_UNDERSTOOD:
            result = ["(results not understood)"]
    return {"hand": hand, "steps": [_step(m) for m in messages], "result": result, "voided": voided}


def settled_words(event: FollowedEvent, bank: int | None) -> JsonObject:
    """The result of a hand as its last ``hand.settled`` or ``hand.voided`` (``event``) says it, in
    words: each wager's, and what the house (or the player-dealer at seat ``bank``, who banks the
    hand instead) won: the opposite of what the players won. A result not understood is said so."""
    record = event.event
    if isinstance(record, HandVoided):
        return {"hand": event.hand, "ts": event.ts, "voided": record.reason, "results": [],
                "house": 0, "house_text": dollars(0), "bank": None}
    try:
        if not isinstance(record, Settled):
            raise ValueError("results not understood")
        player = sum(r.payout for r in record.results)
        said: list[JsonValue] = [result_words(r) for r in record.results]
    except NOT_UNDERSTOOD:
        player, said = 0, ["(results not understood)"]
    house = 0 if bank is not None else -player
    return {"hand": event.hand, "ts": event.ts, "voided": None,
            "results": said, "house": house, "house_text": dollars(house),
            "bank": None if bank is None else {"seat": bank, "net": -player}}
