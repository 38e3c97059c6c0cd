"""The state of a simulated table, built from the events it makes up (``controller/devkit/pit_table.py``).

A simulated table has no game: the caller makes its events up. Its state is
what those events say (pit-events.md section 3): the wagers on the spots, each
card where it was dealt and turned up, the table's own phase, the results,
stacks, the button, the tournament level, meters, pots, the boards and the
shoe, and what the pit set (``closed``, ``limits``, the dealer's ``message``);
what only a game works out (totals, the game's phase) the caller may write in
(``game_view``). A real table's state is the daemon's
(``controller/table/views.py``); this is only for tables that pretend.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from controller.podium.monitor.floor import blank_dealer, blank_hand, blank_seat, empty_state

log = logging.getLogger(__name__)

SHOE_ALERTS = frozenset({"card_out_of_turn", "card_unreadable"})
"""Alerts for a card that left the shoe without being dealt: their ``index`` counts as drawn."""


class SimulatedState:
    """A simulated table's public state, event by event."""

    def __init__(self, name: str, game: str, seats: int) -> None:
        self.name = name
        self.state: dict[str, Any] = empty_state(name)
        self.state.update(game=game, phase="betting", table_phase="betting", next_hand=1,
                          seats=[blank_seat(n) for n in range(1, seats + 1)], meters={"hands": 0})
        self.limits: dict[str, Any] | None = None
        self._indices: dict[int, tuple[str, int | None, int, int]] = {}

    def apply(self, message: dict[str, Any]) -> None:
        """One event the table made up."""
        handler = _APPLY.get(message["type"])
        if handler is not None:
            handler(self, message, message.get("data") or {})

    def _seat(self, number: Any) -> dict[str, Any] | None:
        seats: list[dict[str, Any]] = self.state["seats"]
        return next((seat for seat in seats if seat["seat"] == number), None)

    def _opened(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state["game"] = data.get("game", self.state["game"])
        self.limits = data.get("limits")
        count = int(data.get("seats") or len(self.state["seats"]))
        seats = {s["seat"]: s for s in self.state["seats"]}
        self.state["seats"] = [seats.get(n) or blank_seat(n) for n in range(1, count + 1)]

    def _device(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        online = message["type"] == "device.online"
        devices = self.state["devices"]
        entry = {"online": online, "firmware": None, "serial": None, "reason": None,
                 **devices.get(data.get("device"), {})}
        entry["online"] = online
        if online:
            entry.update(firmware=data.get("firmware"), serial=data.get("serial"), reason=None)
        else:
            entry["reason"] = data.get("reason")
        devices[str(data.get("device"))] = entry

    def _shoe(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        if message["type"] == "shoe.loaded":
            self.state["shoe"] = {"shoe_id": data.get("shoe_id"), "decks": data.get("decks"),
                                  "cards_drawn": 0, "cut_card_out": False}
        else:
            self.state["shoe"]["cut_card_out"] = True

    def _drawn(self, index: Any) -> None:
        if isinstance(index, int):
            shoe = self.state["shoe"]
            shoe["cards_drawn"] = max(int(shoe.get("cards_drawn") or 0), index)

    def _alert(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        if data.get("code") in SHOE_ALERTS:
            self._drawn(data.get("index"))

    def _bet(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        seat = self._seat(data.get("seat"))
        if seat is None:
            return
        if data.get("amount"):
            seat["bets"][data["spot"]] = data["amount"]
        else:
            seat["bets"].pop(data.get("spot"), None)

    def _clear_hand(self, dealer_seat: Any = None) -> None:
        self.state.update(dealer=blank_dealer(dealer_seat), pots=[], results=None)
        for seat in self.state["seats"]:
            seat.update(cards=[], hands=[], total=None, in_turn=False)
        self._indices.clear()

    def _hand_started(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        hand = message.get("hand")
        # The game's own phase is the game's to say (game_view): "in_hand" until it does.
        self.state.update(hand=hand, table_phase="in_hand", phase="in_hand")
        if isinstance(hand, int):
            self.state["next_hand"] = hand + 1
            self.state["meters"]["hands"] = hand
        self._clear_hand(data.get("dealer_seat"))

    def _cards(self, data: dict[str, Any]) -> list[Any] | None:
        """The list of cards a ``card.dealt`` or ``card.revealed`` is about (made if new)."""
        if data.get("to") == "dealer":
            cards: list[Any] = self.state["dealer"]["cards"]
            return cards
        seat = self._seat(data.get("seat"))
        if seat is None:
            return None
        index = int(data.get("hand_index") or 0)
        while len(seat["hands"]) <= index:
            seat["hands"].append(blank_hand())
        seat["cards"] = seat["hands"][0]["cards"]
        hand_cards: list[Any] = seat["hands"][index]["cards"]
        return hand_cards

    def _dealt(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self._drawn(data.get("index"))
        cards = self._cards(data)
        if cards is None:
            return
        cards.append(data.get("card") if data.get("face_up", True) else None)
        self._indices[data.get("index", -1)] = (str(data.get("to")), data.get("seat"),
                                                 int(data.get("hand_index") or 0), len(cards) - 1)

    def _revealed(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        cards = self._cards(data)
        if cards is None:
            return
        where = self._indices.get(data.get("index", -1))
        position = where[3] if where is not None else None
        if position is None or position >= len(cards) or cards[position] is not None:
            position = next((i for i, c in enumerate(cards) if c is None), None)
        if position is None:
            cards.append(data.get("card"))
        else:
            cards[position] = data.get("card")

    def _pot(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state["pots"] = [{"amount": p["amount"], "seats": list(p.get("seats", []))}
                              for p in data.get("pots", [])]

    def _settled(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state.update(phase="settled", table_phase="settled", results=list(data.get("results", [])))
        for seat in self.state["seats"]:
            seat["in_turn"] = False

    def _closed(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state.update(hand=None, phase="betting", table_phase="betting")
        self._clear_hand()

    def _meter(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state["meters"][str(data["name"])] = data["value"]

    def _stack(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        seat = self._seat(data.get("seat"))
        if seat is None:
            return
        if data.get("reason") == "cash_out" and not data.get("amount"):
            seat.pop("stack", None)
        else:
            seat["stack"] = data["amount"]

    def _button(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state["session"]["button"] = data.get("seat")

    def _level(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state["session"].update(level=data["level"], blinds=list(data.get("blinds", [])),
                                     level_ends_at=data.get("ends_at"))

    def _pit(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        """A pit's action: the table closed or opened, its limits, a message to the dealer."""
        kind = message["type"]
        if kind == "dealer.message":
            self.state["message"] = data.get("text")
        elif kind == "table.limits":
            self.state["limits"] = {"min_bet": data.get("min_bet"), "max_bet": data.get("max_bet")}
        else:
            self.state["closed"] = kind == "table.closed"


_APPLY: dict[str, Callable[[SimulatedState, dict[str, Any], dict[str, Any]], None]] = {
    "table.opened": SimulatedState._opened,
    "device.online": SimulatedState._device,
    "device.offline": SimulatedState._device,
    "shoe.loaded": SimulatedState._shoe,
    "shoe.cut_card": SimulatedState._shoe,
    "alert": SimulatedState._alert,
    "bet.placed": SimulatedState._bet,
    "hand.started": SimulatedState._hand_started,
    "card.dealt": SimulatedState._dealt,
    "card.revealed": SimulatedState._revealed,
    "pot": SimulatedState._pot,
    "hand.settled": SimulatedState._settled,
    "hand.ended": SimulatedState._closed,
    "hand.voided": SimulatedState._closed,
    "meter": SimulatedState._meter,
    "seat.stack": SimulatedState._stack,
    "button.moved": SimulatedState._button,
    "tournament.level": SimulatedState._level,
    "table.closed": SimulatedState._pit,
    "table.reopened": SimulatedState._pit,
    "table.limits": SimulatedState._pit,
    "dealer.message": SimulatedState._pit,
}
