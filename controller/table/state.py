"""The table's state, changed only by applying journaled pit events.

:meth:`TableState.apply` is the single place where table state changes. The
live table and a restart after a crash arrive at a state by applying the same
records in the same order, so a restart resumes exactly.

A game call (starting a hand, dealing a card, taking an action) is recorded as
the ``input`` in the private part of the first pit event it caused; the events
it caused follow it in the same journal step, written with one fsync. Applying
that first record runs the same pure game call again (or takes the live table's
result of it), so the hand is rebuilt from the journal without being stored;
the records after it only update what the table itself keeps (results, the
session's stacks and meters, the shoe's count). A step cut short by a crash is
dropped whole when the journal is opened (:class:`controller.journal.log.Journal`):
none of it was published.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from controller.games.interface import (
    Bets,
    Game,
    Hand,
    ProgressiveHit,
    ProgressivePaid,
    Session,
)
from controller.journal.log import Record
from controller.table import shoe_checks
from controller.table.pit_events import session_event
from firmware_bridge.cards import Card

CARD_ALERTS_WITH_INDEX = frozenset({"card_out_of_turn", "card_unreadable"})
"""Alerts for a card that left the shoe without being dealt to a hand: they advance the shoe index."""


@dataclass
class DeviceState:
    """What the table knows of one board."""

    online: bool = False
    firmware: str | None = None
    serial: str | None = None
    reason: str | None = "not connected yet"


@dataclass
class ShoeState:
    """The loaded shoe: its id and size, the last card index seen, and the cards seen so far.

    For the plausibility checks (:mod:`controller.table.shoe_checks`): ``read`` is the card read at each
    index (None: unreadable), ``gaps`` the ``(first, last)`` index ranges a ``card_gap`` declared missing,
    ``refused`` the ``(index, reason)`` of each ``card_implausible`` raised, and ``resync`` whether a
    supervisor's ``shoe_resync`` lets the next card come at any index ahead.
    """

    shoe_id: int | None = None
    decks: int = 0
    last_index: int = 0
    seen: Counter[str] = field(default_factory=Counter)
    cut_card_out: bool = False
    read: dict[int, str | None] = field(default_factory=dict)
    gaps: list[tuple[int, int]] = field(default_factory=list)
    refused: set[tuple[int, str]] = field(default_factory=set)
    resync: bool = False


@dataclass
class TableState:
    """Everything the table knows, rebuilt from the journal after a restart.

    ``game`` is the game bound to its rules; ``hand`` its immutable hand state
    while a hand is in play; ``session`` what outlives a hand.
    """

    game: Game[Hand]
    seq: int = 0
    hand_no: int = 0
    in_hand: bool = False
    hand: Hand | None = None
    bets: dict[tuple[int, str], int] = field(default_factory=dict)
    results: tuple[dict[str, Any], ...] | None = None
    session: Session = field(default_factory=Session)
    shoe: ShoeState = field(default_factory=ShoeState)
    devices: dict[str, DeviceState] = field(default_factory=dict)
    alerts: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=20))

    def checkpoint(self) -> dict[str, Any]:
        """The state as JSON-able data, taken between hands (see :mod:`controller.journal.checkpoint`)."""
        if self.in_hand:
            raise ValueError("a checkpoint is taken only between hands")
        shoe = self.shoe
        return {
            "seq": self.seq,
            "hand_no": self.hand_no,
            "bets": [[seat, spot, amount] for (seat, spot), amount in sorted(self.bets.items())],
            "shoe": {"shoe_id": shoe.shoe_id, "decks": shoe.decks, "last_index": shoe.last_index,
                     "seen": dict(shoe.seen), "cut_card_out": shoe.cut_card_out,
                     "read": [[index, card] for index, card in sorted(shoe.read.items())],
                     "gaps": [list(gap) for gap in shoe.gaps],
                     "refused": sorted([index, reason] for index, reason in shoe.refused),
                     "resync": shoe.resync},
            "devices": {name: [d.online, d.firmware, d.serial, d.reason]
                        for name, d in self.devices.items()},
            "alerts": list(self.alerts),
            "session": session_data(self.session),
        }

    @classmethod
    def from_checkpoint(cls, game: Game[Hand], data: dict[str, Any]) -> TableState:
        """The state that :meth:`checkpoint` took."""
        shoe = data["shoe"]
        state = cls(game=game, seq=data["seq"], hand_no=data["hand_no"])
        state.bets = {(seat, spot): amount for seat, spot, amount in data["bets"]}
        state.shoe = ShoeState(shoe["shoe_id"], shoe["decks"], shoe["last_index"],
                               Counter(shoe["seen"]), shoe["cut_card_out"],
                               {index: card for index, card in shoe.get("read", [])},
                               [(first, last) for first, last in shoe.get("gaps", [])],
                               {(index, reason) for index, reason in shoe.get("refused", [])},
                               shoe.get("resync", False))
        state.devices = {name: DeviceState(*fields) for name, fields in data["devices"].items()}
        state.alerts.extend(data["alerts"])
        state.session = session_from_data(data["session"])
        return state

    @property
    def settled(self) -> bool:
        """Whether the hand in play has its results."""
        return self.in_hand and self.results is not None

    def layout(self) -> Bets:
        """The published wagers by seat and spot (what a hand starts with)."""
        by_seat: dict[int, dict[str, int]] = {}
        for (seat, spot), amount in sorted(self.bets.items()):
            by_seat.setdefault(seat, {})[spot] = amount
        return by_seat

    def apply(self, record: Record, hand: Hand | None = None, body: dict[str, Any] | None = None) -> None:
        """Apply one journaled event: the only way table state changes.

        ``hand`` is the live table's result of the game call the record's
        ``input`` names; without it (replaying the journal) the call is made again.
        ``body`` is the record's body already decoded, if the caller has it.
        """
        if body is None:
            body = json.loads(record.body)
        kind: str = body["type"]
        data: dict[str, Any] = body["data"]
        private = dict(record.private)
        self.seq = record.seq
        call = private.get("input")
        if call is not None:
            self.hand = hand if hand is not None else self._call(call)
        handler = _APPLY.get(kind)
        if handler is not None:
            handler(self, body, data, private)
        event = session_event(kind, data)
        if event is not None:
            self.session = self.session.apply(event)

    def _call(self, call: dict[str, Any]) -> Hand:
        """Make the game call that a record's ``input`` names, again."""
        if call["call"] == "start":
            started: Hand = self.game.start(self.layout(), self.session)[0]
            return started
        assert self.hand is not None, f"{call['call']} with no hand in play"
        if call["call"] == "deal":
            dealt, _ = self.hand.deal(Card.parse(call["card"]), call["index"])
            return dealt
        acted, _ = self.hand.act(call["action"], call.get("amount"))
        return acted

    # -- one method per event type that changes what the table keeps ------------------------------

    def _device_online(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.devices[data["device"]] = DeviceState(True, data.get("firmware"), data.get("serial"), None)

    def _device_offline(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        device = self.devices[data["device"]]
        self.devices[data["device"]] = DeviceState(False, device.firmware, device.serial, data["reason"])

    def _shoe_loaded(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.shoe = ShoeState(shoe_id=data["shoe_id"], decks=data["decks"])

    def _cut_card(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.shoe.cut_card_out = True

    def _bet_placed(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        key = (data["seat"], data["spot"])
        if data["amount"]:
            self.bets[key] = data["amount"]
        else:
            self.bets.pop(key, None)

    def _hand_started(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.hand_no = body["hand"]
        self.in_hand = True
        self.results = None

    def _card_dealt(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        card = data["card"] or private.get("card")
        self._count_card(data["index"], Card.parse(card) if card else None)

    def _hand_settled(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.results = tuple(data["results"])

    def _hand_closed(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.in_hand = False
        self.hand = None
        self.results = None

    def _alert(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.alerts.append({"seq": body["seq"], "hand": body["hand"], **data})
        code = data["code"]
        if code in CARD_ALERTS_WITH_INDEX and "index" in data:
            card = Card.parse(private["card"]) if "card" in private else None
            self._count_card(data["index"], card)
        elif code == "card_gap":
            self.shoe.gaps.append((data["index"], data["last_index"]))
        elif code == shoe_checks.ALERT_CODE:
            self.shoe.refused.add((data["index"], data["reason"]))
        elif code == shoe_checks.RESYNC_CODE:
            self.shoe.resync = True

    def _count_card(self, index: int, card: Card | None) -> None:
        self.shoe.last_index = max(self.shoe.last_index, index)
        self.shoe.read[index] = None if card is None else str(card)
        self.shoe.resync = False
        if card is not None:
            self.shoe.seen[str(card)] += 1


_APPLY = {
    "device.online": TableState._device_online,
    "device.offline": TableState._device_offline,
    "shoe.loaded": TableState._shoe_loaded,
    "shoe.cut_card": TableState._cut_card,
    "bet.placed": TableState._bet_placed,
    "hand.started": TableState._hand_started,
    "card.dealt": TableState._card_dealt,
    "hand.settled": TableState._hand_settled,
    "hand.ended": TableState._hand_closed,
    "hand.voided": TableState._hand_closed,
    "alert": TableState._alert,
}


def session_data(session: Session) -> dict[str, Any]:
    """The session as JSON-able data (for checkpoints)."""
    return {
        "stacks": [[seat, amount] for seat, amount in sorted(session.stacks.items())],
        "button": session.button, "level": session.level, "blinds": list(session.blinds),
        "level_ends_at": session.level_ends_at,
        "places": [[seat, place] for seat, place in sorted(session.places.items())],
        "winner": session.winner, "meters": dict(session.meters),
        "unpaid": [[h.seat, h.hand_index, h.prize, h.amount] for h in session.unpaid],
        "hits": [[h.seat, h.amount, h.supervisor] for h in session.hits],
        "waiting": list(session.waiting),
    }


def session_from_data(data: dict[str, Any]) -> Session:
    """The session that :func:`session_data` wrote."""
    return Session(
        stacks={seat: amount for seat, amount in data["stacks"]}, button=data["button"],
        level=data["level"], blinds=tuple(data["blinds"]), level_ends_at=data["level_ends_at"],
        places={seat: place for seat, place in data["places"]}, winner=data["winner"],
        meters=dict(data["meters"]), unpaid=tuple(ProgressiveHit(*hit) for hit in data["unpaid"]),
        hits=tuple(ProgressivePaid(*hit) for hit in data["hits"]),
        waiting=tuple(data.get("waiting", ())),
    )
