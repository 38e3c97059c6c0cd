"""The floor as the pit boss sees it: one model per table, built from a snapshot and the events after it.

A :class:`TableModel` starts from the table's snapshot (pit.md, "The state
object") and applies each later event (pit-events.md section 3) to it, so its
picture is exactly as fresh as the last event. It also keeps the last hands
step by step, the last hand's result, meters (a progressive meter), seat
stacks and pots for the games that have them. The phase between two
snapshots is derived from the events: ``dealing`` from ``hand.started``,
``players`` once the first deal is out (for the games in ``FIRST_DEAL``) or
from the first ``player.action``, ``dealer`` once the dealer's card is
revealed, ``settled`` from ``hand.settled`` and ``betting`` after the hand.

:class:`Floor` holds every table's model and the :class:`AlertBook`; it is the
followers' listener, and tells ``on_change`` which table changed.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from controller.games.parts.totals import Total, total_of
from controller.pit.monitor.alerts import Alert, AlertBook
from controller.pit.monitor.follower import Follower
from drivers.display import format_money
from firmware_bridge.cards import Card

log = logging.getLogger(__name__)

HANDS_KEPT = 10
"""Hands kept step by step per table."""

TABLE_LOG = 30
"""Events outside any hand (boards, shoe) kept per table."""

TOTALS: dict[str, Callable[[list[int]], Total]] = {"easy-jack": total_of}
"""Games whose hand totals the monitor shows, with the function that counts them."""

FIRST_DEAL: dict[str, int] = {"easy-jack": 1}
"""Games whose first deal the monitor knows: cards each seat in play and the dealer get before
the players' turn (the phase goes from ``dealing`` to ``players`` when they have them)."""


def total_words(game: str | None, cards: Iterable[str | None]) -> str | None:
    """A hand's total as the snapshot writes it, from its visible cards.

    >>> total_words("easy-jack", ["5h", "3s"]), total_words("easy-jack", ["As"])
    ('8', 'natural')
    >>> total_words("easy-jack", ["Kh", "5c", None]), total_words("other", ["5h"])
    ('bust 15', None)
    """
    count = TOTALS.get(game or "")
    try:
        points = [min(Card.parse(c).rank, 10) for c in cards if c is not None]
    except ValueError:
        return None
    if count is None or not points:
        return None
    total = count(points)
    if total.natural:
        return "natural"
    if total.bust:
        return f"bust {total.points}"
    return f"soft {total.points}" if total.soft else str(total.points)


def describe(message: dict[str, Any]) -> str:
    """One event in words, as a step of the hands log.

    >>> describe({"type": "card.dealt", "data": {"to": "seat", "seat": 3, "card": "Qh",
    ...           "face_up": True, "index": 12, "hand_index": 0}})
    'seat 3: Qh'
    >>> describe({"type": "card.dealt", "data": {"to": "dealer", "seat": None, "card": None,
    ...           "face_up": False, "index": 13, "hand_index": 0}})
    'dealer: a card face down'
    >>> describe({"type": "hand.settled", "data": {"results": [{"seat": 1, "spot": "main",
    ...           "hand_index": 0, "outcome": "win", "wager": 1000, "payout": 1000}]}})
    'results: seat 1 main win +$10.00'
    """
    kind, data = message["type"], message.get("data") or {}
    if kind == "card.dealt":
        holder = "dealer" if data.get("to") == "dealer" else f"seat {data.get('seat')}"
        card = data.get("card") if data.get("card") else "a card face down"
        return f"{holder}: {card}"
    if kind == "card.revealed":
        holder = "dealer" if data.get("to") == "dealer" else f"seat {data.get('seat')}"
        return f"{holder} turns up {data.get('card')}"
    if kind == "bet.placed":
        return f"seat {data.get('seat')} {data.get('spot')}: {format_money(int(data.get('amount', 0)))}"
    if kind == "bets.closed":
        return "no more bets: " + (", ".join(
            f"seat {b['seat']} {b['spot']} {format_money(b['amount'])}" for b in data.get("bets", []))
            or "no wager")
    if kind == "player.action":
        amount = f" {format_money(data['amount'])}" if data.get("amount") is not None else ""
        return f"seat {data.get('seat')} {data.get('action')}{amount}"
    if kind == "hand.settled":
        return "results: " + ", ".join(result_words(r) for r in data.get("results", []))
    if kind == "hand.started":
        return "hand starts: seats " + ", ".join(str(s) for s in data.get("seats", []))
    if kind == "hand.voided":
        return f"hand voided: {data.get('reason', '')}"
    if kind == "alert":
        return f"ALERT {data.get('code')}: {data.get('message', '')}"
    if kind == "meter":
        return f"meter {data.get('name')}: {format_money(int(data.get('value', 0)))}"
    if kind == "seat.stack":
        amount = format_money(int(data.get("amount", 0)))
        return f"seat {data.get('seat')} stack {amount} ({data.get('reason')})"
    shown = ", ".join(f"{k} {v}" for k, v in data.items() if not isinstance(v, list | dict))
    return f"{kind}" + (f": {shown}" if shown else "")


def result_words(result: dict[str, Any]) -> str:
    """One wager's result: ``seat 3 main win +$25.00``.

    >>> result_words({"seat": 2, "spot": "side", "outcome": "lose", "wager": 500, "payout": -500})
    'seat 2 side lose -$5.00'
    """
    payout = int(result.get("payout", 0))
    sign = "+" if payout > 0 else ""
    label = f" ({result['label']})" if result.get("label") else ""
    return (f"seat {result.get('seat')} {result.get('spot')} {result.get('outcome')}{label} "
            f"{sign}{format_money(payout)}")


def _seat(number: int) -> dict[str, Any]:
    return {"seat": number, "bets": {}, "cards": [], "hands": [], "total": None, "stack": None,
            "in_turn": False}


class TableModel:
    """One table's picture: state, last hands, last result, link; applied to event by event."""

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
        self.state: dict[str, Any] = {"game": None, "phase": None, "hand": None, "seats": [],
                                      "dealer": {"cards": [], "total": None}}
        self.wagers: list[dict[str, Any]] = []
        self.meters: dict[str, int] = {}
        self.pots: dict[str, Any] | None = None
        self.last_result: dict[str, Any] | None = None
        self.hands: deque[dict[str, Any]] = deque(maxlen=HANDS_KEPT)
        self.table_log: deque[dict[str, Any]] = deque(maxlen=TABLE_LOG)
        self._indices: dict[int, tuple[str, int | None, int, int]] = {}

    # ------------------------------------------------------------------ building

    def load_snapshot(self, snapshot: dict[str, Any], epoch: str) -> None:
        """Start afresh from a snapshot ``{"seq": S, "state": {...}}``."""
        state = snapshot["state"]
        self.epoch, self.seq = epoch, snapshot["seq"]
        seats = []
        for entry in state.get("seats", []):
            seat = _seat(entry["seat"])
            seat.update(bets=dict(entry.get("bets", {})), cards=list(entry.get("cards", [])),
                        total=entry.get("total"), in_turn=bool(entry.get("in_turn")))
            seat["hands"] = [seat["cards"]]
            seats.append(seat)
        dealer = state.get("dealer") or {}
        self.state = {
            "game": state.get("game"), "phase": state.get("phase"), "hand": state.get("hand"),
            "next_hand": state.get("next_hand"), "seats": seats,
            "dealer": {"cards": list(dealer.get("cards", [])), "total": dealer.get("total")},
            "results": state.get("results"), "devices": dict(state.get("devices") or {}),
            "shoe": dict(state.get("shoe") or {}),
            "playing": [s["seat"] for s in seats if s["bets"]] if state.get("hand") is not None else [],
        }
        self.meters = {k: v for k, v in (state.get("meters") or {}).items() if k != "hands"}
        self.wagers = []
        self.pots = None
        self.last_result = None
        self.hands.clear()
        self.table_log.clear()
        self._indices.clear()
        if self.state["hand"] is not None:
            self.wagers = [{"seat": s["seat"], "spot": spot, "amount": amount}
                           for s in seats for spot, amount in s["bets"].items()]

    def apply(self, message: dict[str, Any], live: bool) -> None:
        """One event: into the hands log always, into the picture when ``live`` (after the snapshot)."""
        if not isinstance(message.get("data", {}), dict):
            log.warning("table %s: event %s (seq %s) has data that is not an object", self.name,
                        message["type"], message["seq"])
            message = {**message, "data": {}}
        self._log(message)
        if not live:
            if message["type"] == "hand.settled":
                self.last_result = self._result(message)
            return
        self.seq = message["seq"]
        self.last_ts = message.get("ts")
        self.heard = time.time()
        handler = _APPLY.get(message["type"])
        if handler is not None:
            try:
                handler(self, message, message.get("data") or {})
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
                log.warning("table %s: event %s (seq %s) not understood: %r", self.name,
                            message["type"], message["seq"], exc)

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
        devices = self.state.setdefault("devices", {})
        entry = dict(devices.get(data.get("device"), {}))
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
            self.state.setdefault("shoe", {})["cut_card_out"] = True

    def _bet(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        seat = self._seat(data.get("seat"))
        if seat is None:
            return
        if data.get("amount"):
            seat["bets"][data["spot"]] = data["amount"]
        else:
            seat["bets"].pop(data.get("spot"), None)

    def _hand_started(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state.update(hand=message.get("hand"), phase="dealing", results=None,
                          playing=list(data.get("seats", [])))
        self.state["next_hand"] = (message.get("hand") or 0) + 1
        self.state["dealer"] = {"cards": [], "total": None}
        for seat in self.state["seats"]:
            seat.update(cards=[], hands=[], total=None, in_turn=False)
        self._indices.clear()
        self.wagers = []

    def _bets_closed(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.wagers = [dict(b) for b in data.get("bets", [])]

    def _dealt(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        if isinstance(data.get("index"), int):
            shoe = self.state.setdefault("shoe", {})
            shoe["cards_drawn"] = max(int(shoe.get("cards_drawn") or 0), data["index"])
        card = data.get("card") if data.get("face_up", True) else None
        if data.get("to") == "dealer":
            cards = self.state["dealer"]["cards"]
            cards.append(card)
            self._indices[data.get("index", -1)] = ("dealer", None, 0, len(cards) - 1)
            self.state["dealer"]["total"] = total_words(self.state["game"], cards)
            self._first_deal_out()
            return
        seat = self._seat(data.get("seat"))
        if seat is None:
            return
        index = int(data.get("hand_index") or 0)
        while len(seat["hands"]) <= index:
            seat["hands"].append([])
        seat["hands"][index].append(card)
        seat["cards"] = seat["hands"][0]
        self._indices[data.get("index", -1)] = ("seat", seat["seat"], index, len(seat["hands"][index]) - 1)
        seat["total"] = total_words(self.state["game"], seat["cards"])
        self._first_deal_out()

    def _first_deal_out(self) -> None:
        """``dealing`` becomes ``players`` once every seat in play and the dealer have their first cards."""
        first = FIRST_DEAL.get(self.state["game"] or "")
        if self.state["phase"] != "dealing" or first is None:
            return
        seats = [self._seat(n) for n in self.state.get("playing", [])]
        if len(self.state["dealer"]["cards"]) >= first and all(
                s is not None and len(s["cards"]) >= first for s in seats):
            self.state["phase"] = "players"

    def _revealed(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        where = self._indices.get(data.get("index", -1))
        if data.get("to") == "dealer":
            cards = self.state["dealer"]["cards"]
            self.state["phase"] = "dealer"
        else:
            seat = self._seat(data.get("seat"))
            if seat is None:
                return
            hand_index = int(data.get("hand_index") or 0)
            cards = seat["hands"][hand_index] if hand_index < len(seat["hands"]) else []
        position = where[3] if where is not None else next(
            (i for i, c in enumerate(cards) if c is None), None)
        if position is None or position >= len(cards):
            cards.append(data.get("card"))
        else:
            cards[position] = data.get("card")
        if data.get("to") == "dealer":
            self.state["dealer"]["total"] = total_words(self.state["game"], cards)
        elif (seat := self._seat(data.get("seat"))) is not None:
            seat["total"] = total_words(self.state["game"], seat["cards"])

    def _action(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        if self.state["phase"] == "dealing":
            self.state["phase"] = "players"

    def _settled(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.state["phase"] = "settled"
        self.state["results"] = list(data.get("results", []))
        self.last_result = self._result(message)

    def _result(self, message: dict[str, Any]) -> dict[str, Any]:
        results = message["data"].get("results", [])
        player = sum(int(r.get("payout", 0)) for r in results)
        return {"hand": message.get("hand"), "ts": message.get("ts"), "voided": None,
                "results": [result_words(r) for r in results],
                "house": -player, "house_text": format_money(-player)}

    def _closed(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        if message["type"] == "hand.voided":
            self.last_result = {"hand": message.get("hand"), "ts": message.get("ts"),
                                "voided": data.get("reason", ""), "results": [], "house": 0,
                                "house_text": format_money(0)}
        self.state.update(hand=None, phase="betting", results=None)
        self.state["dealer"] = {"cards": [], "total": None}
        for seat in self.state["seats"]:
            seat.update(cards=[], hands=[], total=None, in_turn=False)
        self.wagers = []
        self.pots = None
        self._indices.clear()

    def _meter(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.meters[str(data.get("name"))] = data.get("value", 0)

    def _stack(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        seat = self._seat(data.get("seat"))
        if seat is not None:
            seat["stack"] = data.get("amount")

    def _pot(self, message: dict[str, Any], data: dict[str, Any]) -> None:
        self.pots = {"pots": data.get("pots", []), "rake": data.get("rake")}

    # ------------------------------------------------------------------ views

    def wagers_in_play(self) -> int:
        """Cents on the table: the closed wagers of the hand in play, else the bets on the spots."""
        if self.state["hand"] is not None and self.wagers:
            return sum(int(w["amount"]) for w in self.wagers)
        return sum(int(a) for s in self.state["seats"] for a in s["bets"].values())

    def occupied(self) -> list[dict[str, Any]]:
        """Seats with a wager (in the hand, or on a spot while betting), with how much."""
        amounts: dict[int, int] = {}
        if self.state["hand"] is not None and self.wagers:
            for w in self.wagers:
                amounts[w["seat"]] = amounts.get(w["seat"], 0) + int(w["amount"])
        else:
            for s in self.state["seats"]:
                if s["bets"]:
                    amounts[s["seat"]] = sum(int(a) for a in s["bets"].values())
        return [{"seat": seat, "wager": amount, "stack": (self._seat(seat) or {}).get("stack")}
                for seat, amount in sorted(amounts.items())]

    def tile(self, alerts: list[Alert]) -> dict[str, Any]:
        """What the floor view shows of this table."""
        devices = self.state.get("devices") or {}
        return {
            "table": self.name, "game": self.state["game"], "hand": self.state["hand"],
            "phase": self.state["phase"], "wagers": self.wagers_in_play(),
            "wagers_text": format_money(self.wagers_in_play()), "seats": self.occupied(),
            "seat_count": len(self.state["seats"]),
            "link": {"state": self.link, "reason": self.reason},
            "offline": sorted(name for name, d in devices.items() if not d.get("online")),
            "seq": self.seq, "epoch": self.epoch, "ts": self.last_ts,
            "last_result": self.last_result, "meters": self.meters,
            "alerts": [a.to_json() for a in alerts],
        }

    def detail(self, alerts: list[Alert], acknowledged: list[Alert]) -> dict[str, Any]:
        """What the table's own page shows."""
        return {
            **self.tile(alerts), "limits": self.limits, "state": self.state,
            "wagers_list": self.wagers, "pots": self.pots, "hands": list(self.hands),
            "table_log": list(self.table_log),
            "acknowledged": [a.to_json() for a in acknowledged],
        }


_APPLY: dict[str, Callable[[TableModel, dict[str, Any], dict[str, Any]], None]] = {
    "table.opened": TableModel._opened,
    "device.online": TableModel._device,
    "device.offline": TableModel._device,
    "shoe.loaded": TableModel._shoe,
    "shoe.cut_card": TableModel._shoe,
    "bet.placed": TableModel._bet,
    "hand.started": TableModel._hand_started,
    "bets.closed": TableModel._bets_closed,
    "card.dealt": TableModel._dealt,
    "card.revealed": TableModel._revealed,
    "player.action": TableModel._action,
    "hand.settled": TableModel._settled,
    "hand.ended": TableModel._closed,
    "hand.voided": TableModel._closed,
    "meter": TableModel._meter,
    "seat.stack": TableModel._stack,
    "pot": TableModel._pot,
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
            for alert in snapshot["state"].get("alerts") or []:
                data = {k: v for k, v in alert.items() if k not in ("seq", "hand")}
                self.book.add(follower.name, follower.epoch, int(alert["seq"]), alert.get("hand"), None, data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            log.warning("table %s: a snapshot not understood (%r); starting from an empty picture",
                        follower.name, exc)
            model.load_snapshot({"seq": snapshot["seq"], "state": {}}, follower.epoch)
        self.on_change(follower.name)

    def event(self, follower: Follower, message: dict[str, Any], topic: bytes, body: bytes,
              live: bool) -> None:
        model = self.tables[follower.name]
        model.apply(message, live)
        data = message.get("data")
        if message["type"] == "alert" and isinstance(data, dict):
            self.book.add(follower.name, follower.epoch, message["seq"], message.get("hand"),
                          message.get("ts"), data)
        self.on_change(follower.name)

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
