"""Game events as pit events, and back for the session's.

Every :data:`~controller.games.interface.GameEvent` becomes exactly one pit
event ``(type, data, private)``: ``private`` holds what is never published (a
face-down card's identity). Session events are read back from the journal by
:func:`session_event`, so the journal alone rebuilds the session.

>>> from firmware_bridge.cards import Card
>>> from controller.games.interface import Dealt, Target
>>> kind, data, private = to_pit(Dealt(Target("dealer", None, 0, False), Card.parse("Qh"), 7))
>>> kind, data["card"], data["face_up"], private
('card.dealt', None, False, {'card': 'Qh'})
>>> kind, data, _ = to_pit(StackChanged(3, 2500, "buy_in"))
>>> session_event(kind, data)
StackChanged(seat=3, amount=2500, reason='buy_in')
"""

from __future__ import annotations

from typing import Any

from controller.games.interface import (
    Acted,
    Alerted,
    ButtonMoved,
    Dealt,
    GameEvent,
    LevelStarted,
    MeterChanged,
    PlayerEliminated,
    PotAwarded,
    PotsChanged,
    ProgressiveHit,
    ProgressivePaid,
    Revealed,
    SessionEvent,
    Settled,
    StackChanged,
    TournamentEnded,
    WagerResult,
)

PitEvent = tuple[str, dict[str, Any], dict[str, Any]]
"""A pit event before it is numbered: (type, data, private)."""


def result_data(result: WagerResult) -> dict[str, Any]:
    """One wager's result as ``hand.settled`` lists it."""
    data: dict[str, Any] = {
        "seat": result.seat, "spot": result.spot, "hand_index": result.hand_index,
        "outcome": result.outcome, "wager": result.wager, "payout": result.payout,
    }
    if result.label is not None:
        data["label"] = result.label
    return data


def to_pit(event: GameEvent) -> PitEvent:
    """The pit event that ``event`` is."""
    if isinstance(event, Dealt):
        target, card = event.target, str(event.card)
        data = {"index": event.index, "to": target.to, "seat": target.seat,
                "hand_index": target.hand_index, "card": card if target.face_up else None,
                "face_up": target.face_up}
        return "card.dealt", data, {} if target.face_up else {"card": card}
    if isinstance(event, Revealed):
        return "card.revealed", {"index": event.index, "to": event.to, "seat": event.seat,
                                 "hand_index": event.hand_index, "card": str(event.card)}, {}
    if isinstance(event, Acted):
        acted: dict[str, Any] = {"seat": event.seat, "hand_index": event.hand_index,
                                 "action": event.action}
        if event.amount is not None:
            acted["amount"] = event.amount
        return "player.action", acted, {}
    if isinstance(event, Settled):
        return "hand.settled", {"results": [result_data(r) for r in event.results]}, {}
    if isinstance(event, PotsChanged):
        return "pot", {"pots": [{"amount": p.amount, "seats": list(p.seats)} for p in event.pots],
                       "rake": event.rake}, {}
    if isinstance(event, PotAwarded):
        return "pot.awarded", {"pot": event.pot, "seats": list(event.seats), "amount": event.amount,
                               "rake": event.rake}, {}
    if isinstance(event, Alerted):
        alert: dict[str, Any] = {"code": event.code, "severity": event.severity,
                                 "message": event.message}
        if event.seat is not None:
            alert["seat"] = event.seat
        return "alert", alert, {}
    return _session_to_pit(event)


def _session_to_pit(event: SessionEvent) -> PitEvent:
    if isinstance(event, StackChanged):
        return "seat.stack", {"seat": event.seat, "amount": event.amount, "reason": event.reason}, {}
    if isinstance(event, ButtonMoved):
        return "button.moved", {"seat": event.seat}, {}
    if isinstance(event, LevelStarted):
        return "tournament.level", {"level": event.level, "blinds": list(event.blinds),
                                    "ends_at": event.ends_at}, {}
    if isinstance(event, PlayerEliminated):
        return "player.eliminated", {"seat": event.seat, "place": event.place}, {}
    if isinstance(event, TournamentEnded):
        return "tournament.ended", {"seat": event.seat}, {}
    if isinstance(event, MeterChanged):
        return "meter", {"name": event.name, "value": event.value}, {}
    if isinstance(event, ProgressiveHit):
        return "progressive.hit", {"seat": event.seat, "hand_index": event.hand_index,
                                   "prize": event.prize, "amount": event.amount}, {}
    return "progressive.paid", {"seat": event.seat, "amount": event.amount,
                                "supervisor": event.supervisor}, {}


def session_event(kind: str, data: dict[str, Any]) -> SessionEvent | None:
    """The session event a journaled pit event is, or None for any other event."""
    if kind == "seat.stack":
        return StackChanged(data["seat"], data["amount"], data["reason"])
    if kind == "button.moved":
        return ButtonMoved(data["seat"])
    if kind == "tournament.level":
        return LevelStarted(data["level"], tuple(data["blinds"]), data["ends_at"])
    if kind == "player.eliminated":
        return PlayerEliminated(data["seat"], data["place"])
    if kind == "tournament.ended":
        return TournamentEnded(data["seat"])
    if kind == "meter":
        return MeterChanged(data["name"], data["value"])
    if kind == "progressive.hit":
        return ProgressiveHit(data["seat"], data["hand_index"], data["prize"], data["amount"])
    if kind == "progressive.paid":
        return ProgressivePaid(data["seat"], data["amount"], data["supervisor"])
    return None
