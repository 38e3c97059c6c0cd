"""The floor as the pit boss sees it: one model per table, from the table's snapshots and its events.

A :class:`TableModel` holds the table's state as its snapshot writes it
(pit-events.md, "The state object"; all of it but ``live_buttons`` and
``alerts``, which the :class:`AlertBook` keeps). It knows no game. Each event
changes the picture by what the event itself says (pit-events.md section 3):
the wagers on the spots, each card where it was dealt and turned up, the
table's own phase, the results, stacks, the button, the tournament level,
meters, pots, the boards and the shoe. What only the game can work out from an
event (a hand's total and status, the game's phase, whose turn it is, what
rides on each hand, the pots after a fold) the model takes from the table:
after any event other than those in :data:`SAID`, :meth:`TableModel.apply`
answers True and the :class:`Floor` asks the table's follower for a newer
snapshot (one request in flight per table; the events that arrive meanwhile
are applied on top of it, and another snapshot follows if one of them asks
again). So between such an event and the snapshot (a round trip to the table)
the totals and the game's phase are those before the event; :attr:`TableModel.stale`
says so.

The model also keeps what no snapshot holds, from the events before the
snapshot too: the last hands step by step, the last hand's result (and who
banked it), the rake due on the pots, the tournament's places and winner.

:class:`Floor` holds every table's model and the :class:`AlertBook`; it is the
followers' listener, and tells ``on_change`` which table changed.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from controller.games.parts.money import dollars
from controller.pit.monitor.alerts import Alert, AlertBook
from controller.pit.monitor.follower import Follower

log = logging.getLogger(__name__)

HANDS_KEPT = 10
"""Hands kept step by step per table."""

TABLE_LOG = 30
"""Events outside any hand (boards, shoe) kept per table."""

SAID = frozenset({
    "device.online", "device.offline", "shoe.loaded", "shoe.cut_card", "bet.placed", "alert",
    "hand.ended", "hand.voided", "meter", "seat.stack", "button.moved", "tournament.level",
    "player.eliminated", "tournament.ended", "progressive.hit", "progressive.paid",
})
"""Event types whose whole effect on the snapshot the event itself says: after any other
(a hand's events, ``table.opened``, a type the monitor does not know) the table is asked for
a newer snapshot."""

SHOE_ALERTS = frozenset({"card_out_of_turn", "card_unreadable"})
"""Alerts for a card that left the shoe without being dealt: their ``index`` counts as drawn."""

SKIPPED = ("live_buttons", "alerts", "instruction", "notice", "actions", "commands", "live",
           "device_status", "chips")
"""Keys of the snapshot's state the model does not keep."""


def describe(message: dict[str, Any]) -> str:
    """One event in words, as a step of the hands log.

    >>> describe({"type": "card.dealt", "data": {"to": "seat", "seat": 3, "card": "Qh",
    ...           "face_up": True, "index": 12, "hand_index": 0}})
    'seat 3: Qh'
    >>> describe({"type": "card.dealt", "data": {"to": "dealer", "seat": None, "card": None,
    ...           "face_up": False, "index": 13, "hand_index": 0}})
    'dealer: a card face down'
    >>> describe({"type": "card.dealt", "data": {"to": "seat", "seat": 2, "card": "9c",
    ...           "face_up": True, "index": 14, "hand_index": 1}})
    'seat 2 hand 2: 9c'
    >>> describe({"type": "hand.settled", "data": {"results": [{"seat": 1, "spot": "main",
    ...           "hand_index": 0, "outcome": "win", "wager": 1000, "payout": 1000}]}})
    'results: seat 1 main win +$10.00'
    >>> describe({"type": "pot.awarded", "data": {"pot": 0, "seats": [3], "amount": 4200, "rake": 0}})
    'pot 1: $42.00 to seat 3'
    """
    kind, data = message["type"], message.get("data") or {}
    if kind in ("card.dealt", "card.revealed"):
        holder = "dealer" if data.get("to") == "dealer" else f"seat {data.get('seat')}"
        if data.get("hand_index"):
            holder += f" hand {int(data['hand_index']) + 1}"
        if kind == "card.revealed":
            return f"{holder} turns up {data.get('card')}"
        card = data.get("card") if data.get("card") else "a card face down"
        return f"{holder}: {card}"
    if kind == "bet.placed":
        return f"seat {data.get('seat')} {data.get('spot')}: {dollars(int(data.get('amount', 0)))}"
    if kind == "bets.closed":
        return "no more bets: " + (", ".join(
            f"seat {b['seat']} {b['spot']} {dollars(b['amount'])}" for b in data.get("bets", []))
            or "no wager")
    if kind == "player.action":
        amount = f" {dollars(data['amount'])}" if data.get("amount") is not None else ""
        return f"seat {data.get('seat')} {data.get('action')}{amount}"
    if kind == "hand.settled":
        return "results: " + ", ".join(result_words(r) for r in data.get("results", []))
    if kind == "hand.started":
        dealer = f", seat {data['dealer_seat']} deals" if data.get("dealer_seat") is not None else ""
        return "hand starts: seats " + ", ".join(str(s) for s in data.get("seats", [])) + dealer
    if kind == "hand.voided":
        return f"hand voided: {data.get('reason', '')}"
    if kind == "alert":
        return f"ALERT {data.get('code')}: {data.get('message', '')}"
    if kind == "meter":
        return f"meter {data.get('name')}: {dollars(int(data.get('value', 0)))}"
    if kind == "seat.stack":
        amount = dollars(int(data.get("amount", 0)))
        return f"seat {data.get('seat')} stack {amount} ({data.get('reason')})"
    if kind == "pot":
        pots = "; ".join(pot_words(n, p) for n, p in enumerate(data.get("pots", [])))
        rake = f", rake {dollars(data['rake'])}" if data.get("rake") else ""
        return f"pots: {pots or 'none'}{rake}"
    if kind == "pot.awarded":
        seats = ", ".join(str(s) for s in data.get("seats", []))
        rake = f" (rake {dollars(data['rake'])})" if data.get("rake") else ""
        return (f"pot {int(data.get('pot', 0)) + 1}: {dollars(int(data.get('amount', 0)))} to "
                f"seat{'s' if len(data.get('seats', [])) > 1 else ''} {seats}{rake}")
    if kind == "button.moved":
        return f"button to seat {data.get('seat')}"
    if kind == "tournament.level":
        return f"level {data.get('level')}: blinds {money_list(data.get('blinds', []))}"
    shown = ", ".join(f"{k} {v}" for k, v in data.items() if not isinstance(v, list | dict))
    return f"{kind}" + (f": {shown}" if shown else "")


def pot_words(index: int, pot: dict[str, Any]) -> str:
    """``pot 1 $90.00 (seats 1, 2, 3)``.

    >>> pot_words(1, {"amount": 4000, "seats": [1, 2]})
    'pot 2 $40.00 (seats 1, 2)'
    """
    return (f"pot {index + 1} {dollars(int(pot.get('amount', 0)))} "
            f"(seats {', '.join(str(s) for s in pot.get('seats', []))})")


def money_list(amounts: Iterable[Any]) -> str:
    """Amounts in cents as ``$20.00/$40.00``.

    >>> money_list([2000, 4000, 6000])
    '$20.00/$40.00/$60.00'
    """
    return "/".join(dollars(int(a)) for a in amounts)


def result_words(result: dict[str, Any]) -> str:
    """One wager's result: ``seat 3 main win +$25.00``.

    >>> result_words({"seat": 2, "spot": "side", "outcome": "lose", "wager": 500, "payout": -500})
    'seat 2 side lose -$5.00'
    >>> result_words({"seat": 2, "spot": "main", "hand_index": 1, "outcome": "win", "payout": 3000})
    'seat 2 main hand 2 win +$30.00'
    """
    payout = int(result.get("payout", 0))
    sign = "+" if payout > 0 else ""
    label = f" ({result['label']})" if result.get("label") else ""
    hand = f" hand {int(result['hand_index']) + 1}" if result.get("hand_index") else ""
    return (f"seat {result.get('seat')} {result.get('spot')}{hand} {result.get('outcome')}{label} "
            f"{sign}{dollars(payout)}")


def _seat(number: int) -> dict[str, Any]:
    return {"seat": number, "bets": {}, "cards": [], "total": None, "hands": [], "in_turn": False}


def _hand() -> dict[str, Any]:
    return {"cards": [], "total": None, "wager": None, "status": None}


_SEAT_KEYS = frozenset(_seat(0))
_HAND_KEYS = frozenset(_hand())


def _no_dealer(seat: Any = None) -> dict[str, Any]:
    return {"cards": [], "total": None, "seat": seat}


def empty_state(name: str) -> dict[str, Any]:
    """The state of a table not heard yet, with every key a snapshot has (but those skipped)."""
    return {
        "table": name, "game": None, "phase": None, "table_phase": None, "hand": None, "next_hand": None,
        "seats": [], "dealer": _no_dealer(), "pots": [], "results": None, "devices": {},
        "shoe": {"shoe_id": None, "decks": None, "cards_drawn": 0, "cut_card_out": False},
        "session": {"button": None, "level": 0, "blinds": [], "level_ends_at": None},
        "meters": {},
    }


def state_of(name: str, snapshot_state: dict[str, Any]) -> dict[str, Any]:
    """The model's state from a snapshot's (taken over, not copied): every key the snapshot has,
    and a default for any it lacks (a table of an older version). ``KeyError``, ``TypeError``,
    ``ValueError`` or ``AttributeError`` for a state that cannot be read."""
    state = {k: v for k, v in snapshot_state.items() if k not in SKIPPED}
    for key, default in empty_state(name).items():
        if state.get(key) is None:
            state[key] = default
        elif isinstance(default, dict):
            state[key] = {**default, **state[key]}
    for seat in state["seats"]:
        int(seat["seat"])
        if _SEAT_KEYS - seat.keys():
            for key, default in _seat(0).items():
                seat.setdefault(key, default)
        for hand in seat["hands"]:
            if _HAND_KEYS - hand.keys():
                for key, default in _hand().items():
                    hand.setdefault(key, default)
        if not seat["hands"] and seat["cards"]:  # a table that sends no hands: its cards are one
            seat["hands"] = [{**_hand(), "cards": list(seat["cards"]), "total": seat["total"]}]
    if state["table_phase"] is None and state["phase"] is not None:
        state["table_phase"] = state["phase"] if state["hand"] is None or state["phase"] == "settled" \
            else "in_hand"
    return state


class TableModel:
    """One table's picture: its state, last hands, last result, link; applied to event by event."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.link = "connecting"
        self.reason = ""
        self.epoch = ""
        self.seq = 0
        self.heard = 0.0
        """``time.time()`` of the last event applied (0: none yet)."""
        self.last_ts: str | None = None
        self.limits: dict[str, Any] | None = None
        self.state: dict[str, Any] = empty_state(name)
        self.stale = False
        """An event changed the hand since the last snapshot: the game's part of the picture
        (totals, statuses, the game's phase, whose turn) waits for a newer one."""
        self._rake: tuple[Any, Any] = (None, None)
        """The hand of the last ``pot`` and the rake it said was due."""
        self.places: dict[int, int] = {}
        """Tournament places of the seats eliminated (``player.eliminated``)."""
        self.winner: int | None = None
        self.last_result: dict[str, Any] | None = None
        self.hands: deque[dict[str, Any]] = deque(maxlen=HANDS_KEPT)
        self.table_log: deque[dict[str, Any]] = deque(maxlen=TABLE_LOG)
        self._indices: dict[int, tuple[str, int | None, int, int]] = {}
        self._dealt_by: tuple[Any, Any] = (None, None)
        """The last hand started and its player-dealer's seat (None: the house deals)."""

    # ------------------------------------------------------------------ building

    def load_snapshot(self, snapshot: dict[str, Any], epoch: str) -> None:
        """Start afresh from a snapshot ``{"seq": S, "state": {...}}``: forget everything else."""
        self.epoch = epoch
        self.hands.clear()
        self.table_log.clear()
        self.last_result = None
        self.places, self.winner = {}, None
        self._rake = self._dealt_by = (None, None)
        self.refresh(snapshot)

    def refresh(self, snapshot: dict[str, Any]) -> None:
        """The state from a newer snapshot of the same sequence; the logs and the last result stay."""
        self.state = state_of(self.name, snapshot["state"])
        self.seq = snapshot["seq"]
        self.stale = False
        self._indices.clear()

    def apply(self, message: dict[str, Any], live: bool) -> bool:
        """One event: into the hands log always, into the picture when ``live`` (after the snapshot).

        True when the game's part of the picture now wants a newer snapshot.
        """
        if not isinstance(message.get("data", {}), dict):
            log.warning("table %s: event %s (seq %s) has data that is not an object", self.name,
                        message["type"], message["seq"])
            message = {**message, "data": {}}
        self._log(message)
        kind, data = message["type"], message.get("data") or {}
        if live:
            self.seq = message["seq"]
            self.last_ts = message.get("ts")
            self.heard = time.time()
        handler = _APPLY.get(kind) if live else None
        try:
            self._remember(kind, message, data)
            if handler is not None:
                handler(self, message, data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            log.warning("table %s: event %s (seq %s) not understood: %r", self.name, kind,
                        message["seq"], exc)
        if not live or kind in SAID:
            return False
        self.stale = True
        return True

    def _remember(self, kind: str, message: dict[str, Any], data: dict[str, Any]) -> None:
        """What no snapshot holds, from the events before the snapshot too."""
        if kind == "hand.started":
            self._dealt_by = (message.get("hand"), data.get("dealer_seat"))
        elif kind == "pot":
            self._rake = (message.get("hand"), data.get("rake"))
        elif kind == "hand.settled":
            self.last_result = self._result(message)
        elif kind == "hand.voided":
            self.last_result = {"hand": message.get("hand"), "ts": message.get("ts"),
                                "voided": data.get("reason", ""), "results": [], "house": 0,
                                "house_text": dollars(0), "bank": None}
        elif kind == "player.eliminated":
            self.places[int(data["seat"])] = int(data["place"])
        elif kind == "tournament.ended":
            self.winner = data.get("seat")

    def _log(self, message: dict[str, Any]) -> None:
        try:
            text = describe(message)
        except (KeyError, TypeError, ValueError, AttributeError):
            text = f"{message['type']} (not understood)"
        step = {"seq": message["seq"], "ts": message.get("ts"), "type": message["type"], "text": text}
        hand = message.get("hand")
        if hand is None:
            self.table_log.appendleft(step)
            return
        log = next((h for h in self.hands if h["hand"] == hand), None)
        if log is None:
            log = {"hand": hand, "steps": [], "result": None, "voided": None}
            self.hands.appendleft(log)
        log["steps"].append(step)
        if message["type"] == "hand.settled":
            log["result"] = [result_words(r) for r in message["data"].get("results", [])]
        elif message["type"] == "hand.voided":
            log["voided"] = message["data"].get("reason", "")

    # ------------------------------------------------------------------ events

    def _seat(self, number: Any) -> dict[str, Any] | None:
        seats: list[dict[str, Any]] = self.state["seats"]
        return next((seat for seat in seats if seat["seat"] == number), None)

    def _opened(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state["game"] = data.get("game", self.state["game"])
        self.limits = data.get("limits")
        count = int(data.get("seats") or len(self.state["seats"]))
        seats = {s["seat"]: s for s in self.state["seats"]}
        self.state["seats"] = [seats.get(n) or _seat(n) for n in range(1, count + 1)]

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
        self.state.update(dealer=_no_dealer(dealer_seat), pots=[], results=None)
        for seat in self.state["seats"]:
            seat.update(cards=[], hands=[], total=None, in_turn=False)
        self._indices.clear()

    def _hand_started(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        hand = message.get("hand")
        # The game's own phase is the table's to say: "in_hand" until the snapshot comes.
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
            seat["hands"].append(_hand())
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

    def _result(self, message: dict[str, Any]) -> dict[str, Any]:
        """The last result: each wager's, and what the house (or the player-dealer, who banks the
        hand instead) won: the opposite of what the players won."""
        results = message["data"].get("results", [])
        player = sum(int(r.get("payout", 0)) for r in results)
        hand, dealer = self._dealt_by
        bank = dealer if hand == message.get("hand") and dealer is not None else None
        house = 0 if bank is not None else -player
        return {"hand": message.get("hand"), "ts": message.get("ts"), "voided": None,
                "results": [result_words(r) for r in results],
                "house": house, "house_text": dollars(house),
                "bank": None if bank is None else {"seat": bank, "net": -player}}

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

    # ------------------------------------------------------------------ views

    def seat_wagers(self) -> dict[int, int]:
        """Cents in play per seat with a wager: the bets on its spots (during a hand, as they were
        when bets closed: no ``bet.placed`` comes in a hand), or during a hand what rides on its
        hands now if that is more (a raise, a split, chips put into the pots)."""
        amounts: dict[int, int] = {}
        in_hand = self.state["hand"] is not None
        for seat in self.state["seats"]:
            amount = sum(seat["bets"].values()) if seat["bets"] else 0
            if in_hand and seat["hands"]:
                amount = max(amount, sum(h["wager"] or 0 for h in seat["hands"]))
            if amount:
                amounts[seat["seat"]] = amount
        return amounts

    def closed_wagers(self) -> list[dict[str, Any]]:
        """The wagers of the hand in play as ``bets.closed`` listed them (none between hands)."""
        if self.state["hand"] is None:
            return []
        return [{"seat": seat["seat"], "spot": spot, "amount": amount}
                for seat in self.state["seats"] for spot, amount in sorted(seat["bets"].items())]

    def wagers_in_play(self) -> int:
        """Cents on the table: the sum of :meth:`seat_wagers`."""
        return sum(self.seat_wagers().values())

    def occupied(self, amounts: dict[int, int] | None = None) -> list[dict[str, Any]]:
        """Seats with a wager or a stack: how much is in play (``amounts``, else :meth:`seat_wagers`),
        the stack, and who deals."""
        amounts = self.seat_wagers() if amounts is None else amounts
        dealer = self.state["dealer"].get("seat")
        shown = []
        for seat in self.state["seats"]:
            number = seat["seat"]
            if number in amounts or "stack" in seat or number == dealer:
                shown.append({"seat": number, "wager": amounts.get(number, 0), "stack": seat.get("stack"),
                              "dealer": number == dealer, "in_turn": bool(seat.get("in_turn"))})
        return shown

    def tournament(self) -> dict[str, Any] | None:
        """The tournament's level, blinds and places, or None outside a tournament."""
        session = self.state["session"]
        if not session.get("level") and not self.places and self.winner is None:
            return None
        return {"level": session.get("level"), "blinds": session.get("blinds") or [],
                "blinds_text": money_list(session.get("blinds") or []),
                "ends_at": session.get("level_ends_at"),
                "places": [{"seat": seat, "place": place}
                           for seat, place in sorted(self.places.items(), key=lambda item: item[1])],
                "winner": self.winner}

    def tile(self, alerts: list[Alert]) -> dict[str, Any]:
        """What the floor view shows of this table."""
        devices = self.state["devices"]
        amounts = self.seat_wagers()
        wagers = sum(amounts.values())
        return {
            "table": self.name, "game": self.state["game"], "hand": self.state["hand"],
            "phase": self.state["phase"], "wagers": wagers, "wagers_text": dollars(wagers),
            "seats": self.occupied(amounts),
            "seat_count": len(self.state["seats"]),
            "dealer_seat": self.state["dealer"].get("seat"),
            "button": self.state["session"].get("button"),
            "pots": sum(int(p.get("amount", 0)) for p in self.state["pots"]),
            "tournament": self.tournament(),
            "link": {"state": self.link, "reason": self.reason},
            "offline": sorted(name for name, d in devices.items() if not d.get("online")),
            "seq": self.seq, "epoch": self.epoch, "ts": self.last_ts, "stale": self.stale,
            "last_result": self.last_result, "meters": self.meters(),
            "alerts": [a.to_json() for a in alerts],
        }

    def rake(self) -> int | None:
        """The rake due on the pots of the hand in play, as its last ``pot`` said (None without)."""
        hand, rake = self._rake
        return rake if hand is not None and hand == self.state["hand"] else None

    def meters(self) -> dict[str, int]:
        """The table's meters by name (a progressive's), without the hand count."""
        return {k: v for k, v in self.state["meters"].items() if k != "hands"}

    def detail(self, alerts: list[Alert], acknowledged: list[Alert]) -> dict[str, Any]:
        """What the table's own page shows."""
        return {
            **self.tile(alerts), "limits": self.limits, "state": self.state,
            "wagers_list": self.closed_wagers(), "rake": self.rake(), "hands": list(self.hands),
            "table_log": list(self.table_log),
            "acknowledged": [a.to_json() for a in acknowledged],
        }


_APPLY: dict[str, Callable[[TableModel, dict[str, Any], dict[str, Any]], None]] = {
    "table.opened": TableModel._opened,
    "device.online": TableModel._device,
    "device.offline": TableModel._device,
    "shoe.loaded": TableModel._shoe,
    "shoe.cut_card": TableModel._shoe,
    "alert": TableModel._alert,
    "bet.placed": TableModel._bet,
    "hand.started": TableModel._hand_started,
    "card.dealt": TableModel._dealt,
    "card.revealed": TableModel._revealed,
    "pot": TableModel._pot,
    "hand.settled": TableModel._settled,
    "hand.ended": TableModel._closed,
    "hand.voided": TableModel._closed,
    "meter": TableModel._meter,
    "seat.stack": TableModel._stack,
    "button.moved": TableModel._button,
    "tournament.level": TableModel._level,
}


class Floor:
    """Every table's model and the alerts; the followers' listener."""

    def __init__(self, names: Iterable[str], book: AlertBook) -> None:
        self.tables = {name: TableModel(name) for name in names}
        self.book = book
        self.on_change: Callable[[str], None] = lambda table: None
        """Called with a table's name after its picture or its alerts changed."""

    def snapshot(self, follower: Follower, snapshot: dict[str, Any]) -> None:
        model = self.tables[follower.name]
        try:
            model.load_snapshot(snapshot, follower.epoch)
            self._alerts(follower, snapshot)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            log.warning("table %s: a snapshot not understood (%r); starting from an empty picture",
                        follower.name, exc)
            model.load_snapshot({"seq": snapshot["seq"], "state": {}}, follower.epoch)
        self.on_change(follower.name)

    def refreshed(self, follower: Follower, snapshot: dict[str, Any]) -> None:
        model = self.tables[follower.name]
        try:
            model.refresh(snapshot)
            self._alerts(follower, snapshot)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            log.warning("table %s: a newer snapshot not understood (%r); the picture stays as it was",
                        follower.name, exc)
        self.on_change(follower.name)

    def _alerts(self, follower: Follower, snapshot: dict[str, Any]) -> None:
        for alert in snapshot["state"].get("alerts") or []:
            data = {k: v for k, v in alert.items() if k not in ("seq", "hand")}
            self.book.add(follower.name, follower.epoch, int(alert["seq"]), alert.get("hand"), None, data)

    def event(self, follower: Follower, message: dict[str, Any], topic: bytes, body: bytes,
              live: bool) -> None:
        model = self.tables[follower.name]
        if model.apply(message, live):
            follower.refresh()
        data = message.get("data")
        if message["type"] == "alert" and isinstance(data, dict):
            self.book.add(follower.name, follower.epoch, message["seq"], message.get("hand"),
                          message.get("ts"), data)
        self.on_change(follower.name)

    def picture(self, follower: Follower, message: dict[str, Any]) -> None:
        """The table's picture: not used here (the state is kept from snapshots and events)."""

    def link(self, follower: Follower) -> None:
        model = self.tables[follower.name]
        model.link, model.reason = follower.link_state, follower.reason
        self.on_change(follower.name)

    def ack(self, key: str, who: str) -> Alert:
        """Acknowledge an alert (see :meth:`AlertBook.ack`) and tell who watches its table."""
        alert = self.book.ack(key, who)
        self.on_change(alert.table)
        return alert

    def tile(self, name: str) -> dict[str, Any]:
        return self.tables[name].tile(self.book.open(name))

    def detail(self, name: str) -> dict[str, Any]:
        return self.tables[name].detail(self.book.open(name), self.book.acknowledged(name))

    def view(self) -> dict[str, Any]:
        """The whole floor: every tile, in the order the tables were given."""
        return {"tables": [self.tile(name) for name in self.tables]}
