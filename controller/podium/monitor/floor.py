"""The floor as the pit boss sees it: one model per table, from the table's pictures and its events.

A :class:`TableModel` draws the table from its last picture
(:class:`~controller.follow.picture.TablePicture`: the snapshot's state at
the start and after a gap was repaired, then each ``table.view`` the table
publishes after every change; pit-events.md, "The table's picture"), all of it
but the keys in :data:`SKIPPED` (``alerts``, which the :class:`AlertBook`
keeps, and what the table knows live). It knows no game and works nothing
out from the events: it never asks the table for anything in the normal flow.
Between an event and its picture (published right after it)
:attr:`TableModel.stale` is True.

From the events, the model keeps what no picture holds, from the events
before the snapshot too: the last hands step by step, the last hand's result
(and who banked it), the rake due on the pots, the table's limits (from
``table.opened``, for a table whose picture has none), the
tournament's places and winner. Each event is only kept; the words of the
logs and the views are worked out when a page asks for them.

:class:`Floor` holds every table's model, the :class:`AlertBook` and the tables' books
(:class:`~controller.podium.ratings.books.Books`: the dealer signed in at each
table, each dealer's figures, each table's counts); it is the followers'
listener, and tells ``on_change`` which table changed.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from controller.events.envelope import compact_json
from controller.follow.aio import Follower
from controller.follow.core import data_of
from controller.follow.picture import TablePicture
from controller.follow.records import FollowedEvent
from controller.podium.monitor.alerts import Alert, AlertBook
from controller.podium.monitor.rated import NO_PIT, Rated
from controller.podium.protection.watch import TYPES as PROTECTION_TYPES
from controller.podium.protection.watch import Protection
from controller.podium.ratings.books import BOOKS_TYPES, Books
from firmware_bridge.kernel.money import dollars

log = logging.getLogger(__name__)

HANDS_KEPT = 10
"""Hands kept step by step per table."""

TABLE_LOG = 30
"""Events outside any hand (boards, shoe) kept per table."""

REMEMBERED = frozenset({"hand.started", "pot", "hand.settled", "hand.voided", "table.opened",
                        "player.eliminated", "tournament.ended"})
"""The events whose data the model reads (for what no picture holds); the others are only logged."""

SKIPPED = ("live_buttons", "alerts", "instruction", "notice", "actions", "commands", "live",
           "device_status", "chips", "floor_call", "checks", "stack_changes", "moves", "committed",
           "jackpots")
"""Keys of the picture's state the model does not show as the table's state."""


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


def step(message: dict[str, Any]) -> dict[str, Any]:
    """One event as a step of a log: ``{"seq", "ts", "type", "text"}``."""
    try:
        text = describe(message)
    except (KeyError, TypeError, ValueError, AttributeError):
        text = f"{message['type']} (not understood)"
    return {"seq": message["seq"], "ts": message.get("ts"), "type": message["type"], "text": text}


def hand_log(hand: Any, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """One hand step by step, with its result or why it was voided."""
    logged: dict[str, Any] = {"hand": hand, "steps": [step(m) for m in messages], "result": None,
                              "voided": None}
    for message in messages:
        data = message["data"]
        try:
            if message["type"] == "hand.settled":
                logged["result"] = [result_words(r) for r in data.get("results", [])]
            elif message["type"] == "hand.voided":
                logged["voided"] = data.get("reason", "")
        except (TypeError, ValueError, AttributeError):
            logged["result"] = ["(results not understood)"]
    return logged


def blank_seat(number: int) -> dict[str, Any]:
    """A seat with nothing on it, as a snapshot's ``seats`` lists it."""
    return {"seat": number, "bets": {}, "cards": [], "total": None, "hands": [], "in_turn": False}


def blank_hand() -> dict[str, Any]:
    """A seat's hand with nothing in it."""
    return {"cards": [], "total": None, "wager": None, "status": None}


_SEAT_KEYS = frozenset(blank_seat(0))
_HAND_KEYS = frozenset(blank_hand())


def blank_dealer(seat: Any = None) -> dict[str, Any]:
    """The dealer's hand with nothing in it (``seat``: a player-dealer's)."""
    return {"cards": [], "total": None, "seat": seat}


def empty_state(name: str) -> dict[str, Any]:
    """The state of a table not heard yet, with every key a snapshot has (but those skipped)."""
    return {
        "table": name, "game": None, "phase": None, "table_phase": None, "hand": None, "next_hand": None,
        "seats": [], "dealer": blank_dealer(), "pots": [], "results": None, "devices": {},
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
            for key, default in blank_seat(0).items():
                seat.setdefault(key, default)
        for hand in seat["hands"]:
            if _HAND_KEYS - hand.keys():
                for key, default in blank_hand().items():
                    hand.setdefault(key, default)
        if not seat["hands"] and seat["cards"]:  # a table that sends no hands: its cards are one
            seat["hands"] = [{**blank_hand(), "cards": list(seat["cards"]), "total": seat["total"]}]
    if state["table_phase"] is None and state["phase"] is not None:
        state["table_phase"] = state["phase"] if state["hand"] is None or state["phase"] == "settled" \
            else "in_hand"
    return state


class TableModel:
    """One table as the floor shows it: its last picture, and what no picture holds (the last hands
    step by step, the last result, the rake due, the tournament's places, the link)."""

    def __init__(self, name: str, pit: str | None = None) -> None:
        self.name = name
        self.pit = pit
        """The pit the table stands in (the floor file's ``pit``; None: in none)."""
        self.link = "connecting"
        self.reason = ""
        self.epoch = ""
        self.seq = 0
        """The seq of the last event (the picture may still be of an earlier one: :attr:`stale`)."""
        self.heard = 0.0
        """``time.time()`` of the last event (0: none yet)."""
        self.last_ts: str | None = None
        self.limits: dict[str, Any] | None = None
        self.picture = TablePicture()
        self._blank = empty_state(name)
        self._state: tuple[int, dict[str, Any]] = (-1, self._blank)
        """The picture's state as the views read it, and the picture's version it is of."""
        self._understood = False
        """That state was worked out from the picture of its version (not the last one kept)."""
        self._rake: tuple[Any, Any] = (None, None)
        """The hand of the last ``pot`` and the rake it said was due."""
        self.places: dict[int, int] = {}
        """Tournament places of the seats eliminated (``player.eliminated``)."""
        self.winner: int | None = None
        self._settled: tuple[dict[str, Any] | None, Any] = (None, None)
        """The last ``hand.settled`` or ``hand.voided`` and the player-dealer's seat then."""
        self._result: tuple[dict[str, Any] | None, dict[str, Any] | None] = (None, None)
        """The message :attr:`last_result` was last worked out from, and what it gave."""
        self._hands: deque[tuple[Any, list[bytes]]] = deque(maxlen=HANDS_KEPT)
        """The last hands' events: ``(hand, [body, ...])``, newest first (kept as they came: a
        body is a quarter of its decoded message, and most are never shown)."""
        self._table_log: deque[bytes] = deque(maxlen=TABLE_LOG)
        self._dealt_by: tuple[Any, Any] = (None, None)
        """The last hand started and its player-dealer's seat (None: the house deals)."""

    # ------------------------------------------------------------------ building

    def load_snapshot(self, snapshot: dict[str, Any], epoch: str) -> None:
        """Start afresh from a snapshot ``{"seq": S, "state": {...}}``: forget everything else."""
        self.epoch = epoch
        self._hands.clear()
        self._table_log.clear()
        self._settled = (None, None)
        self.places, self.winner = {}, None
        self._rake = self._dealt_by = (None, None)
        self._state = (-1, self._blank)
        self.picture.restart(snapshot)
        self.seq = snapshot["seq"]

    def refresh(self, snapshot: dict[str, Any]) -> None:
        """A newer snapshot of the same sequence (after a gap): the logs and the last result stay."""
        self.picture.snapshot(snapshot)
        self.seq = max(self.seq, snapshot["seq"])

    def view(self, message: dict[str, Any]) -> None:
        """The table's picture (a ``table.view`` message)."""
        self.picture.view(message)

    @property
    def state(self) -> dict[str, Any]:
        """The picture's state as the views read it (every key a snapshot has, but those in
        :data:`SKIPPED`); worked out when asked, once per picture. A picture that cannot be read
        leaves the last one that could."""
        version, state = self._state
        if version != self.picture.version:
            try:
                state = state_of(self.name, self.picture.state or {})
                self._understood = True
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                log.warning("table %s: a picture not understood (%r); the last one stays", self.name, exc)
                self._understood = False
            self._state = (self.picture.version, state)
        return state

    def let_go(self) -> None:
        """Forget the state worked out from the picture once drawn, and the picture's decoded state
        (:meth:`TablePicture.let_go`): both are worked out again, the same, when next asked for. A
        state that could not be worked out from the picture (the last one stays) is kept."""
        if self._state[0] == self.picture.version and self._understood:
            self.picture.let_go()
            self._state = (-1, self._blank)

    @property
    def stale(self) -> bool:
        """An event came after the last picture: its picture is on the way."""
        return self.picture.stale

    def apply(self, message: dict[str, Any], live: bool, body: bytes | None = None) -> None:
        """One event (``body``: as published, if at hand; its ``data`` decoded or in ``raw``,
        :func:`~controller.follow.core.data_of`): into the hands log always; when ``live`` (after
        the snapshot) it also moves the stream on, and its picture follows. Only the events in
        :data:`REMEMBERED` are read further (their ``data``, decoded, is kept in ``message``)."""
        kind = message["type"]
        self._log(message, compact_json(message) if body is None else body)
        if live:
            self.seq = message["seq"]
            self.last_ts = message.get("ts")
            self.heard = time.time()
            self.picture.event(message)
        if kind not in REMEMBERED:
            return
        data = data_of(message)
        if not isinstance(data, dict):
            log.warning("table %s: event %s (seq %s) has data that is not an object", self.name,
                        kind, message["seq"])
            return
        message["data"] = data      # decoded once: the ratings read it too
        try:
            self._remember(kind, message, data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            log.warning("table %s: event %s (seq %s) not understood: %r", self.name, kind,
                        message["seq"], exc)

    def _remember(self, kind: str, message: dict[str, Any], data: dict[str, Any]) -> None:
        """What no picture holds, from the events before the snapshot too."""
        if kind == "hand.started":
            self._dealt_by = (message.get("hand"), data.get("dealer_seat"))
        elif kind == "pot":
            self._rake = (message.get("hand"), data.get("rake"))
        elif kind in ("hand.settled", "hand.voided"):
            hand, dealer = self._dealt_by
            self._settled = ({**message, "data": data}, dealer if hand == message.get("hand") else None)
        elif kind == "table.opened":
            self.limits = data.get("limits")
        elif kind == "player.eliminated":
            self.places[int(data["seat"])] = int(data["place"])
        elif kind == "tournament.ended":
            self.winner = data.get("seat")

    def _log(self, message: dict[str, Any], body: bytes) -> None:
        hand = message.get("hand")
        if hand is None:
            self._table_log.appendleft(body)
            return
        if not self._hands or self._hands[0][0] != hand:
            logged = next((h for h in self._hands if h[0] == hand), None)
            if logged is None:
                self._hands.appendleft((hand, [body]))
                return
            logged[1].append(body)
            return
        self._hands[0][1].append(body)

    @property
    def hands(self) -> list[dict[str, Any]]:
        """The last hands step by step, newest first (see :func:`hand_log`)."""
        return [hand_log(hand, [json.loads(body) for body in bodies]) for hand, bodies in self._hands]

    @property
    def table_log(self) -> list[dict[str, Any]]:
        """The last events outside any hand, newest first, as steps (see :func:`step`)."""
        return [step(json.loads(body)) for body in self._table_log]

    @property
    def last_result(self) -> dict[str, Any] | None:
        """The last hand's result: each wager's, and what the house (or the player-dealer, who
        banks the hand instead) won: the opposite of what the players won. Worked out once."""
        message, bank = self._settled
        if message is None:
            return None
        if self._result[0] is not message:
            self._result = (message, self._worded(message, bank))
        return self._result[1]

    @staticmethod
    def _worded(message: dict[str, Any], bank: Any) -> dict[str, Any]:
        if message["type"] == "hand.voided":
            return {"hand": message.get("hand"), "ts": message.get("ts"),
                    "voided": message["data"].get("reason", ""), "results": [], "house": 0,
                    "house_text": dollars(0), "bank": None}
        results = message["data"].get("results", [])
        try:
            player = sum(int(r.get("payout", 0)) for r in results)
            words = [result_words(r) for r in results]
        except (TypeError, ValueError, AttributeError):
            player, words = 0, ["(results not understood)"]
        house = 0 if bank is not None else -player
        return {"hand": message.get("hand"), "ts": message.get("ts"), "voided": None,
                "results": words, "house": house, "house_text": dollars(house),
                "bank": None if bank is None else {"seat": bank, "net": -player}}

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

    def tile(self, alerts: list[dict[str, Any]]) -> dict[str, Any]:
        """What the floor view shows of this table (``alerts``: its open alerts, as JSON)."""
        devices = self.state["devices"]
        amounts = self.seat_wagers()
        wagers = sum(amounts.values())
        return {
            "table": self.name, "pit": self.pit, "closed": bool(self.state.get("closed")),
            "game": self.state["game"], "hand": self.state["hand"],
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
            "alerts": alerts,
        }

    def rake(self) -> int | None:
        """The rake due on the pots of the hand in play, as its last ``pot`` said (None without)."""
        hand, rake = self._rake
        return rake if hand is not None and hand == self.state["hand"] else None

    def meters(self) -> dict[str, int]:
        """The table's meters by name (a progressive's), without the hand count."""
        return {k: v for k, v in self.state["meters"].items() if k != "hands"}

    def detail(self, alerts: list[dict[str, Any]], acknowledged: list[Alert]) -> dict[str, Any]:
        """What the table's own page shows."""
        return {
            **self.tile(alerts), "limits": self.state.get("limits") or self.limits, "state": self.state,
            "wagers_list": self.closed_wagers(), "rake": self.rake(),
            "hands": self.hands,
            "table_log": self.table_log,
            "acknowledged": [a.to_json() for a in acknowledged],
        }


Keep = Callable[[str, str, Mapping[str, object], bytes, bool], None]
"""What the floor tells of every event it read: the table, its epoch, the event, its body as published,
and whether the table's books changed (:class:`~controller.podium.monitor.kept.Keeper`)."""


class Floor:
    """Every table's model and the alerts; the followers' listener."""

    def __init__(self, names: Iterable[str], book: AlertBook,
                 pits: Mapping[str, str | None] | None = None) -> None:
        pits = pits or {}
        self.tables = {name: TableModel(name, pits.get(name)) for name in names}
        self.book = book
        self.on_change: Callable[[str], None] = lambda table: None
        """Called with a table's name after its picture or its alerts changed."""
        self.rated: Rated | None = None
        """The open ratings and shift figures (:meth:`rate`; None: the monitor keeps none)."""
        self.on_heard: Callable[[], None] = lambda: None
        """Called once, when every table has sent its first snapshot."""
        self._unheard = set(self.tables)
        self.protection: Protection | None = None
        """Game protection (:meth:`protect`; None: the monitor keeps none)."""
        self.books = Books()
        """The tables' books, from the events followed (those before each snapshot too)."""
        self.keep: Keep | None = None
        """Told of every event read (None: the monitor keeps nothing of its own: no ``--db``)."""

    def rate(self, rated: Rated) -> None:
        """Keep ratings and shift figures with ``rated``: fed every event, shown on tiles and details."""
        self.rated = rated
        rated.on_change = lambda table: self.on_change(table)

    def protect(self, protection: Protection) -> None:
        """Keep game protection with ``protection``: fed every event, its subjects rated with the
        ratings kept (:meth:`rate`) when there are, its alerts shown with the others."""
        self.protection = protection
        protection.who = self._rated_at

    def _rated_at(self, table: str, seat: int, ts: str) -> tuple[str, str] | None:
        """The player rated at ``table``'s ``seat`` at ``ts`` (id, rating id), None if none is."""
        if self.rated is None or table not in self.rated.ratings:
            return None
        for tally in self.rated.ratings[table].tallies.values():
            rating = tally.rating
            if rating.seat == seat and rating.covers(ts):
                return rating.player, str(rating.id)
        return None

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
        if self._unheard:
            self._unheard.discard(follower.name)
            if not self._unheard:
                self.on_heard()

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
        self.tables[follower.name].apply(message, live, body)
        try:
            followed: FollowedEvent | None = FollowedEvent.of(message, topic, body)
        except (KeyError, ValueError) as exc:
            log.warning("table %s: an event without its envelope left out of the ratings, books and "
                        "game protection: %s", follower.name, exc)
            followed = None
        if self.rated is not None and followed is not None:
            self.rated.feed(follower.name, follower.epoch, followed)
        if message["type"] == "alert" and isinstance(data := data_of(message), dict):
            self.book.add(follower.name, follower.epoch, message["seq"], message.get("hand"),
                          message.get("ts"), data)
        if self.protection is not None and followed is not None and followed.type in PROTECTION_TYPES:
            self._protect(follower, followed)
        books = followed is not None and followed.type in BOOKS_TYPES and \
            self._keep_books(follower.name, follower.epoch, followed)
        if self.keep is not None:
            self.keep(follower.name, follower.epoch, message, body, books)
        self.on_change(follower.name)

    def _keep_books(self, table: str, epoch: str, event: FollowedEvent) -> bool:
        """Feed the books one event (one that is not what the contract says is logged, left out);
        whether they changed."""
        try:
            return self.books.feed(table, event, epoch)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            log.warning("table %s: event %s (seq %s) left out of the books: %r", table, event.type,
                        event.seq, exc)
            return False

    def books_of(self, name: str) -> dict[str, Any]:
        """A table's books as its tile and page show them: the ``dealer`` signed in, each dealer's
        figures at the table (``dealers``, to the table's last event), and its last ``count`` (None
        before its first opener)."""
        count = self.books.last_count(name)
        now = self.tables[name].last_ts
        return {"dealer": self.books.current.get(name),
                "dealers": [f.to_json(now) for (_, table), f in sorted(self.books.dealers.items())
                            if table == name],
                "count": None if count is None else count.to_json()}

    def _protect(self, follower: Follower, event: FollowedEvent) -> None:
        """Feed game protection one event; show the alerts it raises as the table's own are shown
        (the alert registry, when it lands, is where ``advantage_play_suspected`` is declared)."""
        assert self.protection is not None
        for raised in self.protection.feed(follower.name, follower.epoch, event):
            self.book.add(raised.table, raised.epoch, raised.seq, raised.hand, raised.ts, raised.data)

    def picture(self, follower: Follower, message: dict[str, Any]) -> None:
        self.tables[follower.name].view(message)
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
        tile = {**self.tables[name].tile(self.book.open_json(name)), "books": self.books_of(name)}
        if self.rated is None:
            return {**tile, "shift": None, "rated": 0}
        return {**tile, **self.rated.tile(name)}

    def detail(self, name: str) -> dict[str, Any]:
        detail = {**self.tables[name].detail(self.book.open_json(name), self.book.acknowledged(name)),
                  "books": self.books_of(name)}
        if self.protection is not None:
            detail["count"] = self.protection.count_of(name)
        if self.rated is None:
            return {**detail, "shift": None, "rated": 0, "ratings": None}
        return {**detail, "rated": self.rated.tile(name)["rated"], "shift": self.rated.shift_json(name),
                "ratings": self.rated.open_ratings(name)}

    def pits(self) -> list[dict[str, Any]]:
        """The pits, in the order their first table was given, each ``{"pit", "tables"}`` (its tables'
        names); the tables in no pit last, as the pit ``None``. With ratings kept, each has its
        ``shift`` figures too (the sum of its tables').

        >>> Floor(["T1", "T2", "T3"], AlertBook(), {"T1": "Pit 2", "T3": "Pit 2"}).pits()
        [{'pit': 'Pit 2', 'tables': ['T1', 'T3']}, {'pit': None, 'tables': ['T2']}]
        """
        pits: dict[str | None, list[str]] = {}
        for model in self.tables.values():
            if model.pit is not None:
                pits.setdefault(model.pit, []).append(model.name)
        loose = [model.name for model in self.tables.values() if model.pit is None]
        shown: list[dict[str, Any]] = [{"pit": pit, "tables": tables} for pit, tables in pits.items()]
        shown += [{"pit": None, "tables": loose}] if loose else []
        if self.rated is not None:     # the pit's shift: its tables' together
            figures = {p.pop("pit"): p for p in self.rated.pit_figures()}
            for pit in shown:
                pit["shift"] = figures.get(pit["pit"] or NO_PIT)
        return shown

    def view(self) -> dict[str, Any]:
        """The whole floor: every tile, in the order the tables were given, and the pits."""
        return {"tables": [self.tile(name) for name in self.tables], "pits": self.pits()}
