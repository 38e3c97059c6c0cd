"""The table's state, changed only by applying journaled pit events.

:meth:`TableState.apply` is the single place where table state changes. The
live table and a restart after a crash both arrive at a state by applying the
same records in the same order, so a restart resumes exactly: games are pure,
and every input that matters is in an event (a face-down card's identity rides
in the record's private part, never in the published body).

Some events imply others that follow at once in the same step (``hand.started``
is followed by ``bets.closed``; a card that ends the last seat's turn is
followed by ``card.revealed`` and perhaps ``hand.settled``). Applying the first
queues the rest in :attr:`TableState.pending`; the table emits them next. After
a crash between the two, the restart finds them still pending and emits them,
so no step is ever left half done.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from controller.games.interface import GameEvent, Revealed, Settled, WagerResult
from controller.journal.log import Record
from controller.table import shoe_checks
from firmware_bridge.cards import Card

FollowUp = tuple[str, dict[str, Any], dict[str, Any]]
"""An event still to be emitted: (type, data, private)."""

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

    ``game`` is the game bound to its rules (for example :class:`EasyJack`);
    ``hand`` is its immutable hand state while a hand is in play.
    """

    game: Any
    seq: int = 0
    hand_no: int = 0
    in_hand: bool = False
    hand: Any = None
    bets: dict[tuple[int, str], int] = field(default_factory=dict)
    closed_bets: dict[tuple[int, str], int] | None = None
    results: tuple[dict[str, Any], ...] | None = None
    shoe: ShoeState = field(default_factory=ShoeState)
    devices: dict[str, DeviceState] = field(
        default_factory=lambda: {"shoe": DeviceState(), "rfid": DeviceState()}
    )
    alerts: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=20))
    pending: list[FollowUp] = field(default_factory=list)

    def checkpoint(self) -> dict[str, Any]:
        """The state as JSON-able data, taken between hands (see :mod:`controller.journal.checkpoint`)."""
        if self.in_hand or self.pending:
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
        }

    @classmethod
    def from_checkpoint(cls, game: Any, data: dict[str, Any]) -> TableState:
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
        return state

    @property
    def settled(self) -> bool:
        """Whether the hand in play has its results."""
        return self.in_hand and self.results is not None

    def apply(self, record: Record) -> None:
        """Apply one journaled event: the only way table state changes."""
        body = json.loads(record.body)
        kind: str = body["type"]
        data: dict[str, Any] = body["data"]
        self.seq = record.seq
        if self.pending and self.pending[0][0] == kind:
            self.pending.pop(0)
        handler = _APPLY.get(kind)
        if handler is not None:
            handler(self, body, data, dict(record.private))

    # -- one method per event type that changes state -------------------------

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
        self.hand = None
        self.results = None
        bets = [
            {"seat": seat, "spot": spot, "amount": amount}
            for (seat, spot), amount in sorted(self.bets.items())
        ]
        self.pending.append(("bets.closed", {"bets": bets}, {}))

    def _bets_closed(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.closed_bets = {(bet["seat"], bet["spot"]): bet["amount"] for bet in data["bets"]}
        by_seat: dict[int, dict[str, int]] = {}
        for (seat, spot), amount in self.closed_bets.items():
            by_seat.setdefault(seat, {})[spot] = amount
        self.hand = self.game.start(by_seat)

    def _card_dealt(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        card = Card.parse(data["card"] or private["card"])
        self._count_card(data["index"], card)
        self.hand, events = self.hand.deal(card, data["index"])
        self._follow(events)

    def _player_action(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        if data["action"] == "stand":
            self.hand, events = self.hand.stand()
            self._follow(events)

    def _hand_settled(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.results = tuple(data["results"])

    def _hand_closed(self, body: dict[str, Any], data: dict[str, Any], private: dict[str, Any]) -> None:
        self.in_hand = False
        self.hand = None
        self.closed_bets = None
        self.results = None
        self.pending.clear()

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

    # -- helpers --------------------------------------------------------------

    def _count_card(self, index: int, card: Card | None) -> None:
        self.shoe.last_index = max(self.shoe.last_index, index)
        self.shoe.read[index] = None if card is None else str(card)
        self.shoe.resync = False
        if card is not None:
            self.shoe.seen[str(card)] += 1

    def _follow(self, events: tuple[GameEvent, ...]) -> None:
        """Queue the pit events that a game action implies beyond the one being applied."""
        for event in events:
            follow = follow_up(event)
            if follow is not None:
                self.pending.append(follow)


def follow_up(event: GameEvent) -> FollowUp | None:
    """The pit event a game event becomes when it follows another in the same step.

    A ``Dealt`` is the ``card.dealt`` being applied, and an ``Acted`` the
    ``player.action`` being applied, so neither follows.
    """
    if isinstance(event, Revealed):
        data = {
            "index": event.index,
            "to": event.to,
            "seat": event.seat,
            "hand_index": event.hand_index,
            "card": str(event.card),
        }
        return ("card.revealed", data, {})
    if isinstance(event, Settled):
        return ("hand.settled", {"results": [result_data(r) for r in event.results]}, {})
    return None


def result_data(result: WagerResult) -> dict[str, Any]:
    """One wager's result as ``hand.settled`` lists it."""
    data: dict[str, Any] = {
        "seat": result.seat,
        "spot": result.spot,
        "hand_index": result.hand_index,
        "outcome": result.outcome,
        "wager": result.wager,
        "payout": result.payout,
    }
    if result.label is not None:
        data["label"] = result.label
    return data


_APPLY = {
    "device.online": TableState._device_online,
    "device.offline": TableState._device_offline,
    "shoe.loaded": TableState._shoe_loaded,
    "shoe.cut_card": TableState._cut_card,
    "bet.placed": TableState._bet_placed,
    "hand.started": TableState._hand_started,
    "bets.closed": TableState._bets_closed,
    "card.dealt": TableState._card_dealt,
    "player.action": TableState._player_action,
    "hand.settled": TableState._hand_settled,
    "hand.ended": TableState._hand_closed,
    "hand.voided": TableState._hand_closed,
    "alert": TableState._alert,
}
