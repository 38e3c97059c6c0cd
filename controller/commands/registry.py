"""The command registry: every control command (docs/control.md) and the frozen record that it is.

A command is a frozen dataclass deriving from :class:`Command`, registered with
:func:`command` under its name (the request's ``cmd``) with who may send it and a
label for people. Its fields are the request's own fields, each declared with the
kind of value it takes (:func:`name_field`, :func:`cents`, :func:`seat_field`,
:func:`text_field`), so a request is decoded and checked once, where it enters the
daemon (:func:`decode`), with one clear reason per bad field; a client builds its
request from the record (:meth:`Command.to_request`), so it cannot misspell a
name. Beside the fields every command may carry the envelope: ``supervisor`` and
``pin`` (checked by the daemon against ``[supervisors]``) and, where the command
changes the table, a ``request_id`` (:mod:`controller.commands.request_ids`).

Registering happens when the module that declares the record is imported: the
table's commands with this package, a game's own with the part or game that
declares them. ``docs/control.md`` is checked against :func:`registered` by a test.

>>> @command("example_ring", who=ANYONE, label="Ring the bell")
... @dataclass(frozen=True)
... class Ring(Command):
...     amount: int | None = cents(optional=True)
>>> decode({"cmd": "example_ring", "amount": 3}).command
Ring(amount=3)
>>> decode({"cmd": "example_ring", "amount": -1})
'example_ring: amount -1 is below 0 cents'
>>> Ring(2).to_request(request_id="a1")
{'cmd': 'example_ring', 'amount': 2, 'request_id': 'a1'}
>>> unregister("example_ring")
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeVar

from firmware_bridge.kernel.money import MAX_AMOUNT, amount_problem

Who = Literal["anyone", "supervisor"]
"""Who may send a command: ``anyone`` who reaches the control socket (the dealer's screen, the
pit's software; a supervisor's id and PIN may come with it), or only a ``supervisor`` (the
command carries the supervisor's id and PIN, checked before it goes any further)."""

ANYONE: Who = "anyone"
SUPERVISOR: Who = "supervisor"

ENVELOPE = ("cmd", "supervisor", "pin", "request_id")
"""The keys every request may carry beside its command's own fields."""

SECRET_FIELDS = frozenset({"dealer_pin"})
"""A command's own fields that are PINs (the dealer's: :mod:`controller.commands.books`): sent to
the table and checked there, never journaled, logged, shown or digested."""

REPLY_WITHIN = 3.0
"""Seconds the table may take to answer a command that declares no longer (its ``reply_within``)."""

LINK_MARGIN = 2.0
"""Seconds a client waits beyond a command's ``reply_within`` for the request's and the reply's way
over the link (the pit network, a CURVE handshake, a loaded machine): :func:`reply_wait`."""

MAX_NAME = 32
"""The most characters in a button's or an action's name."""

MAX_REQUEST_ID = 64
"""The most characters in a ``request_id``."""

_REQUEST_ID = re.compile(f"[A-Za-z0-9._:-]{{1,{MAX_REQUEST_ID}}}")

def name_field(what: str) -> str:
    """A required name of 1 to :data:`MAX_NAME` characters (``what``: "a button", "an action")."""
    return dataclasses.field(metadata={"kind": "name", "what": what})  # type: ignore[no-any-return]


def cents(*, optional: bool = False, low: int = 0) -> int:
    """Whole cents from ``low`` to :data:`MAX_AMOUNT` (the one ceiling of every amount); an optional
    one defaults to None."""
    metadata = {"kind": "cents", "low": low}
    if optional:
        return dataclasses.field(default=None, metadata=metadata)  # type: ignore[return-value]
    return dataclasses.field(metadata=metadata)  # type: ignore[no-any-return]


def seat_field() -> int:
    """A seat's number: a whole number from 1 (the table refuses a seat it does not have)."""
    return dataclasses.field(metadata={"kind": "seat"})  # type: ignore[no-any-return]


def seq_field() -> int:
    """An event's ``seq``: a whole number from 1."""
    return dataclasses.field(metadata={"kind": "seq"})  # type: ignore[no-any-return]


def count_field(low: int, high: int, default: int) -> int:
    """A whole number from ``low`` to ``high`` (``default`` when left out)."""
    return dataclasses.field(default=default, metadata={"kind": "count", "low": low, "high": high})


def text_field(check: Callable[[object], str | None]) -> str:
    """Words, checked by ``check`` (None: fine; else why not)."""
    return dataclasses.field(metadata={"kind": "text", "check": check})  # type: ignore[no-any-return]


class Command:
    """The base of every control command record: ``name``, ``who`` and ``label`` are set by
    :func:`command`; ``books``: whether it changes the table, so that it takes a ``request_id``
    (every command but the ones that only read); ``danger``: a screen confirms it by a second touch;
    ``reply_within``: the seconds the table may take to answer it (:data:`REPLY_WITHIN`, longer for a
    command known to take long), which a client waits, with a margin for the link (:func:`reply_wait`)."""

    name: ClassVar[str]
    who: ClassVar[Who]
    label: ClassVar[str]
    books: ClassVar[bool]
    danger: ClassVar[bool]
    reply_within: ClassVar[float] = REPLY_WITHIN

    @property
    def subject(self) -> str:
        """The word a refusal of this command starts with: its name (``press`` and ``act``: the
        button's or action's)."""
        return self.name

    def fields(self) -> dict[str, object]:
        """The command's own fields as the request carries them (an optional one left out when None)."""
        out: dict[str, object] = {}
        for spec in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, spec.name)
            if value is not None:
                out[spec.name] = value
        return out

    def to_request(self, *, supervisor: str | None = None, pin: str | None = None,
                   request_id: str | None = None) -> dict[str, object]:
        """The control request for this command, with the envelope given."""
        request: dict[str, object] = {"cmd": self.name, **self.fields()}
        if supervisor is not None:
            request["supervisor"] = supervisor
        if pin is not None:
            request["pin"] = pin
        if request_id is not None:
            request["request_id"] = request_id
        return request


@dataclass(frozen=True)
class Request:
    """A decoded control request: the command and its envelope (``supervisor`` and ``pin`` as sent,
    checked by the daemon; ``request_id``: the client's id of one person's action)."""

    command: Command
    supervisor: str | None = None
    pin: str | None = dataclasses.field(default=None, repr=False)
    request_id: str | None = None

    def args(self) -> dict[str, object]:
        """The command as a game's ``command`` takes it: ``cmd``, its fields and the supervisor's id
        (never the PIN)."""
        args: dict[str, object] = {"cmd": self.command.name, **self.command.fields()}
        if self.supervisor is not None:
            args["supervisor"] = self.supervisor
        return args


C = TypeVar("C", bound=type[Command])

_BY_NAME: dict[str, type[Command]] = {}


def command(name: str, *, who: Who, label: str, books: bool = True, danger: bool = False,
            reply_within: float = REPLY_WITHIN) -> Callable[[C], C]:
    """Register the decorated record class under ``name`` (one class per name); ``danger``: it
    cannot be undone by the dealer (a cash-out), so a screen asks for a second touch;
    ``reply_within``: the seconds the table may take to answer it (a command known to take long),
    which a client waits for its reply, with a margin for the link (:func:`reply_wait`)."""
    if not reply_within > 0:
        raise ValueError(f"command {name!r}: reply_within must be > 0 seconds, got {reply_within!r}")

    def register(cls: C) -> C:
        if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:
            raise TypeError(f"{cls.__name__}: a command is a frozen dataclass")
        held = _BY_NAME.get(name)
        if held is not None and held is not cls:
            raise ValueError(f"command {name!r} is already {held.__module__}.{held.__name__}")
        cls.name, cls.who, cls.label, cls.books, cls.danger = name, who, label, books, danger
        cls.reply_within = reply_within
        _BY_NAME[name] = cls
        return cls

    return register


def unregister(name: str) -> None:
    """Forget ``name`` (for a test's own example commands)."""
    _BY_NAME.pop(name, None)


def by_name(name: str) -> type[Command] | None:
    """The record class registered under ``name``, or None."""
    return _BY_NAME.get(name)


def reply_within(request: Mapping[str, object]) -> float:
    """Seconds the table may take to answer ``request``: its command's ``reply_within``, or
    :data:`REPLY_WITHIN` for a name registered in no module this process imported (a client waits
    that long and :data:`LINK_MARGIN` more: :func:`reply_wait`).

    >>> reply_within({"cmd": "state"}), reply_within({"cmd": "no_such_command"})
    (3.0, 3.0)
    """
    name = request.get("cmd")
    cls = _BY_NAME.get(name) if isinstance(name, str) else None
    return REPLY_WITHIN if cls is None else cls.reply_within


def reply_wait(request: Mapping[str, object], timeout: float | None = None,
               margin: float = LINK_MARGIN) -> float:
    """Seconds a client waits for the reply to ``request`` before it tells its user that none came:
    ``timeout`` when its caller gives one (the caller's own limit, shorter or longer), else the
    command's :func:`reply_within` plus ``margin`` for the link (:data:`LINK_MARGIN` unless the
    client allows its link more).

    >>> reply_wait({"cmd": "state"}), reply_wait({"cmd": "state"}, margin=10)
    (5.0, 13.0)
    >>> reply_wait({"cmd": "state"}, timeout=0.5)
    0.5
    """
    return reply_within(request) + margin if timeout is None else timeout


def registered() -> Mapping[str, type[Command]]:
    """Every registered command and its record class (a copy)."""
    return dict(_BY_NAME)


def field_names(cls: type[Command]) -> tuple[str, ...]:
    """The request fields of ``cls``, in declared order."""
    return tuple(spec.name for spec in dataclasses.fields(cls))  # type: ignore[arg-type]


def required(cls: type[Command]) -> tuple[str, ...]:
    """The fields ``cls`` cannot go without."""
    return tuple(spec.name for spec in dataclasses.fields(cls)  # type: ignore[arg-type]
                 if spec.default is dataclasses.MISSING)


def request_id_problem(value: object) -> str | None:
    """Why ``value`` is not a ``request_id``, or None.

    >>> request_id_problem("7f3c-01") is None, request_id_problem("")[:40]
    (True, 'request_id must be 1 to 64 letters, digi')
    """
    if isinstance(value, str) and _REQUEST_ID.fullmatch(value):
        return None
    return (f"request_id must be 1 to {MAX_REQUEST_ID} letters, digits or . _ : - "
            "(one id per action, the same for its retries)")


def decode(request: Mapping[str, object]) -> Request | str:
    """The request as its command's record, or the one reason it cannot be taken (the first bad
    field, in the command's words)."""
    name = request.get("cmd")
    if not isinstance(name, str):
        return 'request needs a string "cmd"'
    cls = _BY_NAME.get(name)
    if cls is None:
        return f"unknown command {name[:40]!r}"
    own = field_names(cls)
    extra = sorted(str(key)[:32] for key in request if key not in own and key not in ENVELOPE)
    if extra:
        return f"{name} takes no field {', '.join(map(repr, extra))}"
    supervisor, pin, request_id = (request.get(key) for key in ("supervisor", "pin", "request_id"))
    if "supervisor" in request or "pin" in request:
        if not isinstance(supervisor, str) or not supervisor or not isinstance(pin, str) or not pin:
            return "a supervisor's command needs the supervisor's id and PIN"
    elif cls.who == SUPERVISOR:
        return f"{name} is a supervisor's command: it needs the supervisor's id and PIN"
    if request_id is not None:
        if not cls.books:
            return f"{name} changes nothing: it takes no request_id"
        problem = request_id_problem(request_id)
        if problem is not None:
            return problem
    values: dict[str, object] = {}
    for spec in dataclasses.fields(cls):  # type: ignore[arg-type]
        value = request.get(spec.name)
        if value is None and spec.default is not dataclasses.MISSING:
            continue
        checked = _check(name, spec.name, spec.metadata, value)
        if isinstance(checked, _Refused):
            return checked.reason
        values[spec.name] = checked
    record = cls(**values)
    problem = _amount_problems(record)
    if problem is not None:
        return problem
    return Request(record, supervisor if isinstance(supervisor, str) else None,
                   pin if isinstance(pin, str) else None,
                   request_id if isinstance(request_id, str) else None)


@dataclass(frozen=True)
class _Refused:
    reason: str


def _check(cmd: str, key: str, metadata: Mapping[str, object], value: object) -> object:
    """``value`` of field ``key`` as its kind takes it, or why not."""
    kind = metadata.get("kind")
    if kind == "name":
        if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME:
            return _Refused(f"{cmd} needs {metadata['what']} name (1 to {MAX_NAME} characters)")
        return value
    if kind == "text":
        check = metadata["check"]
        assert callable(check)
        problem = check(value)
        return value if problem is None else _Refused(f"{cmd}: {problem}")
    if not isinstance(value, int) or isinstance(value, bool):
        if kind == "cents":
            return _Refused(f"{key} must be a whole number of cents" if key == "amount"
                            else f"{cmd}: {key} must be a whole number of cents")
        return _Refused(f"{cmd}: {key} must be a whole number")
    if kind == "seat" and value < 1:
        return _Refused(f"{cmd}: there is no seat {value}: seats count from 1")
    if kind == "seq" and value < 1:
        return _Refused(f"{cmd}: {key} must be an event's seq, a whole number from 1")
    if kind == "count":
        low, high = metadata["low"], metadata["high"]
        assert isinstance(low, int) and isinstance(high, int)
        if not low <= value <= high:
            return _Refused(f"{cmd}: {key} must be a whole number from {low} to {high}")
    return value


def _amount_problems(record: Command) -> str | None:
    """Why an amount of ``record`` is out of range (below its least, or above :data:`MAX_AMOUNT`), in
    the words of every amount (:func:`amount_problem`); the one place amounts are bounded."""
    for spec in dataclasses.fields(record):  # type: ignore[arg-type]
        value = getattr(record, spec.name)
        if spec.metadata.get("kind") != "cents" or value is None:
            continue
        low = spec.metadata["low"]
        assert isinstance(low, int) and isinstance(value, int)
        if spec.name == "amount":
            problem = amount_problem(value)
            if problem is None and value < low:
                problem = f"amount must be a whole number of cents above {low - 1}"
        elif not low <= value <= MAX_AMOUNT:
            problem = f"{spec.name} must be a whole number of cents from {low} to {MAX_AMOUNT}"
        else:
            problem = None
        if problem is not None:
            return f"{record.subject}: {problem}"
    return None
