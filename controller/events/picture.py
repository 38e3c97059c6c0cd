"""The table's picture as records: what the snapshot's ``state`` and every ``table.view`` hold.

:class:`PublicState` is what the journal alone determines (a restart rebuilds it
exactly: :func:`controller.table.views.public_state`); :class:`Picture` adds
what the table knows live, the dealer's instruction and the actions open now
(:func:`controller.table.views.table_picture`), which is what the daemon
publishes. Each is a frozen record whose fields are the published keys in the
published order: :func:`controller.events.codec.to_json` writes exactly the JSON
of docs/pit-events.md ("The table's picture"), a key marked
:data:`~controller.events.codec.OMIT_NONE` left out while None (a seat's
``stack``), and :func:`~controller.events.codec.from_json` reads it back. Face-down
cards are None, as everywhere in public.

>>> from controller.events.codec import from_json, to_json
>>> seat = SeatPicture(3, {"main": 2500}, ("9h", None), "9", (HandPicture(("9h", None), "9", 2500),))
>>> to_json(seat)
{'seat': 3, 'bets': {'main': 2500}, 'cards': ['9h', None], 'total': '9', 'hands': [{'cards': ['9h', None], \
'total': '9', 'wager': 2500, 'status': None}], 'in_turn': False}
>>> from_json(SeatPicture, to_json(seat)) == seat
True
>>> alert = TableAlert(14, 1, "past_post", "warning", "chips after the deal", 1, {"spot": "main"})
>>> to_json(alert)
{'seq': 14, 'hand': 1, 'code': 'past_post', 'severity': 'warning', 'message': 'chips after the deal', \
'seat': 1, 'spot': 'main'}
>>> TableAlert.from_json_form(alert.json_form()) == alert
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.events.codec import OMIT_NONE
from controller.events.hand import Pot, WagerResult
from firmware_bridge.kernel.json import JsonObject, JsonValue

ALERT_KEYS = ("seq", "hand", "code", "severity", "message", "seat", "cleared")
"""The keys of an alert in the picture that are its own fields; any other is in its ``about``."""


@dataclass(frozen=True)
class HandPicture:
    """One hand of a seat: its ``cards`` (None face down), ``total`` in the game's words, the
    ``wager`` riding on it and its ``status`` (``"stood"``, ``"doubled"`` ...)."""

    cards: tuple[str | None, ...] = ()
    total: str | None = None
    wager: int | None = None
    status: str | None = None


@dataclass(frozen=True)
class SeatPicture:
    """One seat: its ``bets`` by spot (cents), its first hand's ``cards`` and ``total``, all its
    ``hands``, whether it is ``in_turn``, and its ``stack`` in a game that keeps one (the key is
    left out otherwise)."""

    seat: int
    bets: Mapping[str, int]
    cards: tuple[str | None, ...]
    total: str | None
    hands: tuple[HandPicture, ...] = ()
    in_turn: bool = False
    stack: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class DealerPicture:
    """The dealer's hand (``cards`` None face down, its ``total``) and the player-dealer's ``seat``."""

    cards: tuple[str | None, ...] = ()
    total: str | None = None
    seat: int | None = None


@dataclass(frozen=True)
class DevicePicture:
    """One board: ``online``, its ``firmware`` and ``serial``, and why it is offline (``reason``)."""

    online: bool
    firmware: str | None
    serial: str | None
    reason: str | None


@dataclass(frozen=True)
class ShoePicture:
    """The loaded shoe: ``shoe_id``, ``decks``, the ``cards_drawn`` (its last index) and whether
    the ``cut_card_out``."""

    shoe_id: int | None
    decks: int
    cards_drawn: int
    cut_card_out: bool


@dataclass(frozen=True)
class TableAlert:
    """An alert as the table keeps it (its last twenty): the ``seq`` and ``hand`` of its ``alert``
    event, then that event's data: ``code``, ``severity``, ``message``, the ``seat`` if any and
    the keys naming what it concerns (``about``: ``spot``, ``index``, ``device`` ...), written
    after them as the event writes them."""

    seq: int
    hand: int | None
    code: str
    severity: str
    message: str
    seat: int | None = None
    about: Mapping[str, JsonValue] = field(default_factory=dict)
    cleared: int | None = None
    """The ``seq`` of the event that ended this alert's condition (a board back online, its
    jackpot paid), for an alert that clears by itself; None while it holds. An alert is one
    occurrence, named by its ``seq``: a new one of the same code, seat or board is another, and this
    one stays cleared."""

    def json_form(self) -> JsonObject:
        """The alert as the picture and the checkpoint write it."""
        data: JsonObject = {"seq": self.seq, "hand": self.hand, "code": self.code,
                            "severity": self.severity, "message": self.message}
        if self.seat is not None:
            data["seat"] = self.seat
        data.update(self.about)
        if self.cleared is not None:
            data["cleared"] = self.cleared
        return data

    @classmethod
    def from_json_form(cls, data: Mapping[str, JsonValue]) -> TableAlert:
        """The alert :meth:`json_form` wrote (ValueError if a key it must have is not right)."""
        seq, hand, seat = data.get("seq"), data.get("hand"), data.get("seat")
        code, severity, message = data.get("code"), data.get("severity"), data.get("message")
        cleared = data.get("cleared")
        if type(seq) is not int or not (hand is None or type(hand) is int) or \
                not (seat is None or type(seat) is int) or not isinstance(code, str) or \
                not isinstance(severity, str) or not isinstance(message, str) or \
                not (cleared is None or type(cleared) is int):                     # (a bool is no int here)
            raise ValueError(f"TableAlert must be an alert's seq, hand, code, severity, message and seat, "
                             f"found {dict(data)!r}")
        about = {key: value for key, value in data.items() if key not in ALERT_KEYS}
        return cls(seq, hand, code, severity, message, seat, about, cleared)


@dataclass(frozen=True)
class SessionPicture:
    """What outlives a hand: the dealer ``button``'s seat, the tournament's ``level`` (0: none),
    its ``blinds`` and when the level ends (``level_ends_at``)."""

    button: int | None
    level: int
    blinds: tuple[int, ...]
    level_ends_at: str | None


@dataclass(frozen=True)
class TrayPicture:
    """The chip tray: its ``amount`` as last counted, what it held when the hand in play started
    (``at_hand_start``), the reading a fill or credit waits for (``expected``), and its ``chips``
    by denomination as last counted (value in cents, as a string -> count; None before a reading
    that gave them)."""

    amount: int | None
    at_hand_start: int | None
    expected: int | None
    chips: Mapping[str, int] | None = None


@dataclass(frozen=True)
class BooksPicture:
    """The table's books: the ``dealer`` signed in, whether the shift is open, the slips waiting
    for a supervisor (slip -> cents) and whether the drop is due."""

    dealer: str | None
    shift_open: bool
    unsigned: Mapping[str, int]
    drop_due: bool


@dataclass(frozen=True)
class PublicState:
    """The table's whole state as the journal determines it (docs/pit-events.md, "The state
    object"): the keys of the picture up to ``books``."""

    table: str
    game: str
    phase: str
    table_phase: str
    hand: int | None
    next_hand: int
    seats: tuple[SeatPicture, ...]
    dealer: DealerPicture
    pots: tuple[Pot, ...]
    results: tuple[WagerResult, ...] | None
    devices: Mapping[str, DevicePicture]
    shoe: ShoePicture
    live_buttons: tuple[str, ...]
    alerts: tuple[TableAlert, ...]
    session: SessionPicture
    meters: Mapping[str, int]
    limits: Mapping[str, int]
    closed: bool
    message: str | None
    tray: TrayPicture | None
    books: BooksPicture


@dataclass(frozen=True)
class ActionPicture:
    """An action open now, as the control socket's ``act`` takes it: for ``seat`` and its hand
    ``hand_index``, an amount from ``low`` to ``high`` (None: none) carried by the chips on
    ``spot`` (None: by the command)."""

    name: str
    seat: int | None = None
    hand_index: int | None = None
    low: int | None = None
    high: int | None = None
    spot: str | None = None


@dataclass(frozen=True)
class FloorCallPicture:
    """The open floor call: the ``seq`` of its ``floor_called`` alert and the ``calls`` on it."""

    seq: int
    calls: int


@dataclass(frozen=True)
class Check:
    """A spot NEXT checks, and what it should read then (``expected``, cents)."""

    seat: int
    spot: str
    expected: int


@dataclass(frozen=True)
class StackChange:
    """What NEXT does to a seat's stack: the ``change`` (cents) and the ``stack`` after it."""

    seat: int
    change: int
    stack: int


@dataclass(frozen=True)
class MovePicture:
    """A pot game's chips to move (:class:`controller.games.interface.Move`)."""

    kind: str
    words: str
    seat: int | None = None
    amount: int | None = None
    pot: int | None = None


@dataclass(frozen=True, kw_only=True)
class Jackpot:
    """A progressive prize for ``seat``: while it waits for a supervisor (``waiting``) its
    ``prize`` and ``amount``; once confirmed, its ``amount`` and the ``supervisor``."""

    seat: int
    prize: str | None = field(default=None, metadata=OMIT_NONE)
    amount: int
    supervisor: str | None = field(default=None, metadata=OMIT_NONE)
    waiting: bool


@dataclass(frozen=True)
class Picture(PublicState):
    """What any consumer needs to draw the table now (docs/pit-events.md, "The table's picture"):
    the :class:`PublicState`, then what the table knows live: each board's STATUS flags
    (``device_status``), the dealer's ``instruction``, the last refusal (``notice``), the
    ``actions`` open now, the game's ``commands``, the chips ``live`` on each spot (seat as a
    string -> spot -> cents), the registry's ``chips``, the open ``floor_call``, and the money:
    the ``checks`` NEXT makes, the ``stack_changes`` it makes, the ``moves`` of a pot game,
    what each spot should hold now (``committed``) and the ``jackpots``."""

    device_status: Mapping[str, tuple[str, ...]]
    instruction: str
    notice: str | None
    actions: tuple[ActionPicture, ...]
    commands: tuple[str, ...]
    live: Mapping[str, Mapping[str, int]]
    chips: tuple[int, ...]
    floor_call: FloorCallPicture | None
    checks: tuple[Check, ...]
    stack_changes: tuple[StackChange, ...]
    moves: tuple[MovePicture, ...]
    committed: Mapping[str, Mapping[str, int]]
    jackpots: tuple[Jackpot, ...]
