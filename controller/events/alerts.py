"""The alert registry: every alert code, registered once with what the table, the screen and the pit need.

An alert is the ``alert`` event (:class:`~controller.events.hand.Alerted`); its
code is registered here with :func:`register`, and raised by :func:`alert`,
which refuses a code nobody registered and a severity the registration does not
name. A registration (:class:`AlertKind`) says:

- ``severities``: the severities it is raised with, the first its usual one;
- ``clears``: how it is resolved at the table (the dealer screen's banner):
  ``condition``, by itself once the condition it reports ends (the board is back,
  the jackpot is paid), never dismissed before; ``dealer``, by the dealer's
  Done; ``supervisor``, it tells the dealer to call a supervisor, and its Done
  takes two steps on the screen's server (docs/dealer-screen.md). An alert that
  may be critical never clears by a single ``dealer`` touch. The pit monitor
  keeps every alert until a pit boss acknowledges it, whatever it clears by;
- ``todo``: what the dealer does, in the screen's words (None: the alert's own
  message says it);
- ``next_hand``: raised while bets are open, it carries the number of the hand
  being bet on (a chip on a spot belongs to that hand), not None.

Adding an alert is its registration here and its raise; docs/pit-events.md's
table "Every alert at a glance" lists each registration, checked by a test. An
alert that changes what the table knows (a card's index, a wait cleared) also
has its effect in :meth:`controller.table.state.TableState.apply`.

>>> past_post = kind("past_post")
>>> past_post.clears, past_post.todo({"seat": 3, "spot": "main", "closed": 500, "amount": 700})[:66]
('supervisor', 'Chips moved on seat 3 main after betting closed: it should hold $5')
>>> alert("device_offline", "the rfid is offline", severity="critical", device="rfid").to_pit()
({'code': 'device_offline', 'severity': 'critical', 'message': 'the rfid is offline', 'device': 'rfid'}, {})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from controller.events.hand import Alerted
from firmware_bridge.kernel.json import JsonValue
from firmware_bridge.kernel.money import dollars

Severity = Literal["critical", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = get_args(Severity)
"""From the most to the least urgent."""

Clears = Literal["condition", "dealer", "supervisor"]
CLEARS: tuple[Clears, ...] = get_args(Clears)

Todo = Callable[[Mapping[str, JsonValue]], str]
"""What the dealer does about one alert (its ``data``), in words."""


@dataclass(frozen=True)
class AlertKind:
    """One registered alert code (see the module's docstring for each field)."""

    code: str
    severities: tuple[Severity, ...]
    clears: Clears
    todo: Todo | None = None
    next_hand: bool = False


_KINDS: dict[str, AlertKind] = {}


def register(code: str, severities: tuple[Severity, ...], clears: Clears, todo: Todo | None = None, *,
             next_hand: bool = False) -> AlertKind:
    """Register alert ``code`` (once)."""
    if code in _KINDS:
        raise ValueError(f"alert {code!r} is registered already")
    if not severities or not set(severities) <= set(SEVERITIES) or clears not in CLEARS:
        raise ValueError(f"alert {code!r}: severities {severities}, clears {clears!r}")
    if "critical" in severities and clears == "dealer":
        raise ValueError(f"alert {code!r}: a critical alert is not cleared by one touch of the dealer")
    registered = _KINDS[code] = AlertKind(code, severities, clears, todo, next_hand)
    return registered


def kind(code: object) -> AlertKind | None:
    """The registration of ``code``, or None (a code of another controller, or an old journal's)."""
    return _KINDS.get(code) if isinstance(code, str) else None


def registered() -> Mapping[str, AlertKind]:
    """Every registered alert code and its registration (a copy)."""
    return dict(_KINDS)


def alert(code: str, message: str, *, severity: Severity | None = None, seat: int | None = None,
          hidden: Mapping[str, JsonValue] | None = None, **about: JsonValue) -> Alerted:
    """The ``alert`` event of registered ``code`` (at its usual severity unless ``severity`` says
    otherwise); ``about`` names what else it concerns, published in that order after ``seat``,
    ``hidden`` goes to the journal's private part only."""
    registration = _KINDS.get(code)
    if registration is None:
        raise KeyError(f"alert {code!r} is not registered (controller/events/alerts.py)")
    chosen = severity if severity is not None else registration.severities[0]
    if chosen not in registration.severities:
        raise ValueError(f"alert {code!r} is not raised as {chosen!r}")
    return Alerted(code, chosen, message, seat, about, dict(hidden or {}))


def two_steps(data: Mapping[str, JsonValue]) -> bool:
    """Whether dismissing this alert (its ``data``) takes two steps: it clears by a supervisor, or,
    not registered here, it is critical."""
    registration = kind(data.get("code"))
    if registration is None:
        return data.get("severity") == "critical"
    return registration.clears == "supervisor"


def todo(data: Mapping[str, JsonValue]) -> str | None:
    """What the dealer does about this alert, in words, or None when its message says it."""
    registration = kind(data.get("code"))
    return registration.todo(data) if registration is not None and registration.todo is not None else None


def _where(data: Mapping[str, JsonValue]) -> str:
    seat, spot = data.get("seat"), data.get("spot")
    if seat is None:
        return "the table"
    return f"seat {seat} {spot}" if spot else f"seat {seat}"


def _money(data: Mapping[str, JsonValue], key: str) -> str:
    value = data.get(key)
    return dollars(value) if isinstance(value, int) and not isinstance(value, bool) else "?"


# -- the chips (controller/table/chip_checks.py) ---------------------------------------------------

register("counterfeit_chip", ("critical",), "supervisor",
         lambda a: f"Remove the chip from {_where(a)}: it is not a chip of this table. "
                   "Keep it aside and call a supervisor.", next_hand=True)
register("chip_value_mismatch", ("critical",), "supervisor",
         lambda a: f"Remove the chip from {_where(a)}: its value is not the registry's. "
                   "Keep it aside and call a supervisor.", next_hand=True)
register("chip_crosstalk", ("warning",), "dealer",
         lambda a: f"Move the chip at {_where(a)} so it lies on one spot only.", next_hand=True)
register("past_post", ("critical",), "supervisor",
         lambda a: f"Chips moved on {_where(a)} after betting closed: it should hold {_money(a, 'closed')}, "
                   f"it reads {_money(a, 'amount')}. Put it back and call a supervisor.")
def _payout_off(data: Mapping[str, JsonValue]) -> str:
    """What a spot paid wrong is short or over, by how much, and what to do.

    >>> _payout_off({"seat": 2, "spot": "main", "expected": 5000, "read": 4500})
    'Seat 2 main is $5.00 short: add $5.00 (it should read $50.00, it reads $45.00).'
    >>> _payout_off({"seat": 2, "spot": "main", "expected": 5000, "read": 6000})
    'Seat 2 main is $10.00 over: take back $10.00 (it should read $50.00, it reads $60.00).'
    """
    expected, read = data.get("expected"), data.get("read")
    reads = f"it should read {_money(data, 'expected')}, it reads {_money(data, 'read')}"
    if not isinstance(expected, int) or not isinstance(read, int) or expected == read:
        return f"{_where(data).capitalize()}: {reads}. Correct the payout."
    off = dollars(abs(expected - read))
    if read < expected:
        return f"{_where(data).capitalize()} is {off} short: add {off} ({reads})."
    return f"{_where(data).capitalize()} is {off} over: take back {off} ({reads})."


register("payout_mismatch", ("warning",), "dealer", _payout_off)
register("mispay", ("warning",), "dealer", _payout_off)

# -- the shoe (controller/table/machine.py, controller/table/shoe_checks.py) -----------------------

register("card_gap", ("critical",), "supervisor",
         lambda a: "Cards left the shoe unseen. Stop and call a supervisor.")
register("card_unreadable", ("warning",), "supervisor",
         lambda a: "The shoe could not read a card. Call a supervisor before going on.")
register("card_out_of_turn", ("warning", "critical"), "supervisor",
         lambda a: "A card was drawn out of turn. Call a supervisor.")
register("card_over_count", ("critical",), "supervisor",
         lambda a: "More copies of a card than the shoe holds. Stop and call a supervisor.")
CARD_IMPLAUSIBLE = "card_implausible"
"""The alert of a card the shoe cannot hold, refused (controller/table/shoe_checks.py; an extension of
docs/pit-events.md section 3, "Alerts"): the table's shoe state keeps each refusal."""

SHOE_RESYNC = "shoe_resync"
"""The alert that records a supervisor's ``shoe_resync`` (see docs/control.md): the table's shoe state
takes the next card at any index."""

register(CARD_IMPLAUSIBLE, ("critical",), "supervisor",
         lambda a: "The shoe reported a card it cannot hold. Call a supervisor "
                   "(a new shoe, or a shoe resync).")
register(SHOE_RESYNC, ("warning",), "dealer",
         lambda a: f"A supervisor ({a.get('supervisor', '?')}) let the shoe go on from its next card.")

# -- the boards, the software, the journal ---------------------------------------------------------

register("device_offline", ("warning", "critical"), "condition",
         lambda a: f"The {a.get('device', 'board')} is not answering: check its cable and power. "
                   "The table waits for it.")
register("device_fault", ("warning",), "dealer",
         lambda a: f"The {a.get('device', 'board')} reports a fault. Call a technician.")
register("software_integrity", ("critical",), "supervisor",
         lambda a: "The table's software was changed. Call a supervisor and a technician; do not deal.")
register("journal_corrupt", ("critical",), "supervisor",
         lambda a: "The table's record was damaged and repaired. Call a supervisor.")
register("critical_memory", ("critical", "info"), "supervisor",
         lambda a: "A supervisor cleared the memory fault: the table may deal again."
         if a.get("severity") == "info" else
         "The table's memory failed its check: DEAL is stopped. Call a supervisor and a technician.")

# -- the games, the tray, the floor -----------------------------------------------------------------

register("progressive_hit", ("warning",), "condition",
         lambda a: f"Jackpot{' ' + _money(a, 'amount') if 'amount' in a else ''} at {_where(a)}! Call a "
                   "supervisor to confirm it (supervisor panel): it is not paid from the tray.")
register("tray_variance", ("warning",), "dealer")
register("tray_fill_mismatch", ("warning",), "dealer")
register("floor_called", ("warning",), "dealer")

# -- the pit side (controller/podium/protection/watch.py): raised by the pit monitor, never by the table ---

register("advantage_play_suspected", ("warning",), "supervisor")
