"""The events of a hand in play, as a game reports them: one record per pit event.

A game returns these from ``start``, ``deal``, ``act`` and ``void``
(:mod:`controller.games.interface` re-exports them); the table journals and
publishes each through the codec. ``Target`` is where a card goes, named by a
decision and by the ``card.dealt`` it becomes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from controller.events.codec import OMIT_NONE, PUBLIC, integer, optional, text
from controller.events.registry import Event, event
from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.json import JsonObject, JsonValue


@dataclass(frozen=True)
class Target:
    """Where the next card from the shoe goes: a seat's hand or the dealer's, face up or down.

    ``seat`` is the seat of a seat's hand, or the player-dealer's seat for the
    dealer's hand in games where a player banks (None for the house).
    """

    to: Literal["seat", "dealer"]
    seat: int | None
    hand_index: int
    face_up: bool


@event("card.dealt")
@dataclass(frozen=True)
class Dealt(Event):
    """A card went to ``target``; ``index`` is its index in the shoe (``card.dealt``).

    A card dealt face down is ``null`` in ``data``: its identity goes to the journal's
    private part only, until the ``card.revealed`` that names it.
    """

    wire = ("index", "to", "seat", "hand_index", "card", "face_up")

    target: Target
    card: Card
    index: int

    def to_pit(self) -> tuple[JsonObject, JsonObject]:
        """``data`` and ``private``: the card named in the one or the other."""
        target, card = self.target, str(self.card)
        data: JsonObject = {"index": self.index, "to": target.to, "seat": target.seat,
                "hand_index": target.hand_index, "card": card if target.face_up else None,
                "face_up": target.face_up}
        return data, {} if target.face_up else {"card": card}

    @classmethod
    def from_pit(cls, data: Mapping[str, JsonValue], private: Mapping[str, JsonValue]) -> Dealt:
        """The record :meth:`to_pit` wrote."""
        return cls(_target(data), Card.parse(text(data["card"] or private["card"])), integer(data["index"]))


@dataclass(frozen=True)
class DealtInPublic(Event):
    """``card.dealt`` as the public reads it (:func:`controller.events.codec.decode_public`): the
    same fields as :class:`Dealt`, but ``card`` is None while the card is face down (its identity
    is in the journal's private part only). Never registered: the table reads its own journal as
    :class:`Dealt`, which always has its card."""

    pit_type: ClassVar[str] = "card.dealt"
    wire = Dealt.wire

    target: Target
    card: Card | None
    index: int

    @classmethod
    def from_pit(cls, data: Mapping[str, JsonValue], private: Mapping[str, JsonValue]) -> DealtInPublic:
        """The public part of the record :meth:`Dealt.to_pit` wrote."""
        card = optional(text, data["card"])
        return cls(_target(data), None if card is None else Card.parse(card), integer(data["index"]))


def _target(data: Mapping[str, JsonValue]) -> Target:
    """The target a ``card.dealt``'s data names (ValueError if it names none)."""
    to, face_up = data["to"], data["face_up"]
    if to not in ("seat", "dealer") or not isinstance(face_up, bool):
        raise ValueError(f"not a card's target: to {to!r}, face_up {face_up!r}")
    return Target("seat" if to == "seat" else "dealer", optional(integer, data["seat"]),
                  integer(data["hand_index"]), face_up)


PUBLIC[DealtInPublic.pit_type] = DealtInPublic


@event("card.revealed")
@dataclass(frozen=True)
class Revealed(Event):
    """A face-down card (shoe ``index``) was turned face up (``card.revealed``)."""

    wire = ("index", "to", "seat", "hand_index", "card")

    to: Literal["seat", "dealer"]
    seat: int | None
    hand_index: int
    card: Card
    index: int


@event("player.action")
@dataclass(frozen=True)
class Acted(Event):
    """A seat (or the player-dealer) took an action on a hand, with its amount (``player.action``)."""

    seat: int
    hand_index: int
    action: str
    amount: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class WagerResult:
    """How one wager ended.

    ``outcome`` is "win", "lose", "push", "natural", "surrender", "fold" or "waiting" (a prize
    paid later, by its own event: a Blazing 7's jackpot);
    ``payout`` is the player's net result in cents: positive for a win,
    ``-wager`` for a loss, 0 for a push. ``label`` names a hand paid at its own
    odds, or says why a result differs from the plain one (a short-stack pull-back).
    """

    seat: int
    spot: str
    hand_index: int
    outcome: str
    wager: int
    payout: int
    label: str | None = field(default=None, metadata=OMIT_NONE)


@event("hand.settled")
@dataclass(frozen=True)
class Settled(Event):
    """The hand's results are known: one per wager in play (``hand.settled``)."""

    results: tuple[WagerResult, ...]


@dataclass(frozen=True)
class Pot:
    """One pot: its amount in cents and the seats that may win it."""

    amount: int
    seats: tuple[int, ...]


@event("pot")
@dataclass(frozen=True)
class PotsChanged(Event):
    """A pot game's pots after bets were gathered (``pot``); ``rake`` is the house's take so far."""

    pots: tuple[Pot, ...]
    rake: int


@event("pot.awarded")
@dataclass(frozen=True)
class PotAwarded(Event):
    """Pot ``pot`` (its index) was paid at showdown: ``amount`` to each of ``seats`` (``pot.awarded``)."""

    pot: int
    seats: tuple[int, ...]
    amount: int
    rake: int


SEVERITY: Mapping[str, Literal["info", "warning", "critical"]] = {
    "info": "info", "warning": "warning", "critical": "critical"}
"""An alert's severity by its word."""


@event("alert")
@dataclass(frozen=True)
class Alerted(Event):
    """Something a pit boss must look at (``alert``), raised by the rules or by the table.

    ``seat`` is the seat it concerns, if any; ``about`` holds the other fields
    naming what it concerns (``spot``, ``index``, ``device`` ...), published after
    ``seat``; ``hidden`` what goes to the journal's private part only (a card
    not yet named in public).
    """

    wire = ("code", "severity", "message", "seat")

    code: str
    severity: Literal["info", "warning", "critical"]
    message: str
    seat: int | None = None
    about: Mapping[str, JsonValue] = field(default_factory=dict)
    hidden: Mapping[str, JsonValue] = field(default_factory=dict)

    def to_pit(self) -> tuple[JsonObject, JsonObject]:
        """``data``: code, severity, message, the seat if any, then ``about``; ``private``: ``hidden``."""
        data: JsonObject = {"code": self.code, "severity": self.severity, "message": self.message}
        if self.seat is not None:
            data["seat"] = self.seat
        data.update(self.about)
        return data, dict(self.hidden)

    @classmethod
    def from_pit(cls, data: Mapping[str, JsonValue], private: Mapping[str, JsonValue]) -> Alerted:
        """The record :meth:`to_pit` wrote."""
        about = {key: value for key, value in data.items()
                 if key not in ("code", "severity", "message", "seat")}
        severity = SEVERITY.get(text(data["severity"]))
        if severity is None:
            raise ValueError(f"not a severity: {data['severity']!r}")
        return cls(text(data["code"]), severity, text(data["message"]), optional(integer, data.get("seat")),
                   about, dict(private))
