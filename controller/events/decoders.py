"""The codec's readers of JSON into records: one function made per record type, every field checked.

:func:`decoder` makes, once per record class, a function that reads a record
from the JSON object :func:`~controller.events.codec.to_json` wrote, each key
read as its field's declared type and checked: an ``int`` is a JSON integer
(never ``true`` or ``false``, though a bool is an int in Python), a ``str`` a
string, a ``bool`` true or false, a ``float`` a number (an integer too, as JSON
has it); ``X | None`` null or an X; ``tuple[X, ...]`` an array of X, a
``tuple[X, Y]`` an array of exactly an X and a Y; a ``Mapping[str, X]`` an
object of X (``Mapping[int, X]``: its keys an int's digits, read back as ints);
a ``Literal`` one of its values; a nested record an object, read by that
record's own function; a card its pit notation. A key absent takes the field's
default. A field declared ``object`` or :data:`~firmware_bridge.kernel.json.JsonValue`
takes any JSON value.

Anything else raises ``ValueError`` naming the record, the field, its declared
type and what was found (``Acted.seat must be int, found 'x' (str)``): the codec's
one decode error, which every consumer of pit JSON catches, logs and skips. A
record class whose JSON form is its own (``from_json_form``) reads itself.
:func:`reader` reads a value of any other type the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Literal, NoReturn, Union

from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.json import JsonValue

Decoder = Callable[[object], object]
"""A function reading one JSON value into what a type declares (ValueError if it cannot)."""

DECODERS: dict[type, Decoder] = {}
"""The decoder of each record type read so far."""

_PLAIN = (int, str, bool, float, type(None))
"""The types a JSON value is as it is."""

_Reader = Callable[[object, str, str], object]
"""A made reader of one type: ``(value, what, what_inside)`` (the words of its errors)."""

_READERS: dict[object, _Reader] = {}


def decoder(cls: type) -> Decoder:
    """The decoder of records of type ``cls``: its own ``from_json_form`` (given only a JSON object),
    or one made once from its fields' types as a function reading its object directly (the pit
    monitor reads every event it follows)."""
    made = DECODERS.get(cls)
    if made is None:
        own = getattr(cls, "from_json_form", None)
        if own is not None:
            made = _own(own, f"{cls.__name__} must be a JSON object")
        else:
            DECODERS[cls] = lambda value: DECODERS[cls](value)    # while made: a record holding its own kind
            try:
                made = _record_decoder(cls)
            finally:
                del DECODERS[cls]
        DECODERS[cls] = made
    return made


def reader(hint: object) -> Decoder:
    """The reader of a JSON value of type ``hint`` (a record's is its :func:`decoder`)."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return decoder(hint)
    made, what = _reader(hint), f"the value must be {_named(hint)}"
    inside = f"{what}: within it"
    return lambda value: made(value, what, inside)


def _own(own: Callable[[Mapping[str, object]], object], what: str) -> Decoder:
    """``own``, given only a JSON object."""
    return lambda value: own(value if type(value) is dict else _object(value, what))


def _bad(what: str, value: object) -> NoReturn:
    """Raise the codec's decode error: ``what`` was to be, and ``value`` is what was found."""
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    raise ValueError(f"{what}, found {shown} ({type(value).__name__})")


def _missing(what: str) -> NoReturn:
    """Raise the codec's decode error for a key a record cannot do without."""
    raise ValueError(what)


def _items(value: object, what: str) -> list[object] | tuple[object, ...]:
    """``value``, a JSON array (the decode error otherwise)."""
    if isinstance(value, list | tuple):
        return value
    _bad(what, value)


def _object(value: object, what: str) -> Mapping[str, object]:
    """``value``, a JSON object (the decode error otherwise)."""
    if isinstance(value, Mapping):
        return value
    _bad(what, value)


def _int_key(key: object, what: str) -> int:
    """A mapping's int key, as JSON writes one (its digits) or as it is."""
    if type(key) is int:
        return key
    if type(key) is str:
        try:
            number = int(key)
        except ValueError:
            pass
        else:
            if str(number) == key:
                return number
    _bad(what, key)


def _card(value: object, what: str) -> Card:
    """A card from its pit notation."""
    if type(value) is str:
        try:
            return Card.parse(value)
        except ValueError:
            pass
    _bad(what, value)


def _either(readers: tuple[_Reader, ...], value: object, what: str) -> object:
    """``value`` read by the first of ``readers`` that can read it."""
    for read in readers:
        try:
            return read(value, what, what)
        except ValueError:
            pass
    _bad(what, value)


_HELPERS: dict[str, object] = {"_bad": _bad, "_items": _items, "_object": _object, "_int_key": _int_key,
                               "_card": _card, "_either": _either, "_missing": _missing}


def _named(hint: object) -> str:
    """``hint`` as its errors name it (``tuple[int, ...]``, ``SeatPicture | None``)."""
    if isinstance(hint, type):
        return "None" if hint is type(None) else hint.__name__
    if isinstance(hint, typing.ForwardRef):
        return hint.__forward_arg__
    return re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", repr(hint).replace("NoneType", "None"))


def _json_value(hint: object) -> bool:
    """Whether ``hint`` is :data:`~firmware_bridge.kernel.json.JsonValue` as it stands within itself (its
    list's and dict's items): a field of it takes any JSON value."""
    return isinstance(hint, typing.ForwardRef) and hint.__forward_arg__ == JsonValue


def _code(hint: object, name: str, what: str, inside: str, helpers: dict[str, object], depth: int) -> str:
    """Python source of an expression reading the JSON value ``name`` as type ``hint``, checked:
    ``what`` and ``inside`` name the words of its error, for the value and for one within it."""
    if hint is object or _json_value(hint):
        return name
    bad = f"_bad({what}, {name})"
    if hint is int or hint is str or hint is bool:
        return f"({name} if type({name}) is {hint.__name__} else {bad})"
    if hint is float:
        return f"({name} if type({name}) is float or type({name}) is int else {bad})"
    if hint is type(None):
        return f"({name} if {name} is None else {bad})"
    if hint is Card:
        return f"_card({name}, {what})"
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        kinds, values = _constant(frozenset(type(arg) for arg in args), helpers), _constant(args, helpers)
        return f"({name} if type({name}) in {kinds} and {name} in {values} else {bad})"
    if origin in (Union, types.UnionType):
        rest = [arg for arg in args if arg is not type(None)]
        if len(rest) == 1:
            return f"(None if {name} is None else {_code(rest[0], name, what, inside, helpers, depth)})"
        if all(arg in _PLAIN for arg in args):
            kinds = _constant(frozenset(args) | ({int} if float in args else set()), helpers)
            return f"({name} if type({name}) in {kinds} else {bad})"
        readers = _constant(tuple(_reader(arg) for arg in args), helpers)
        return f"_either({readers}, {name}, {what})"
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        item, made = f"_i{depth}", origin.__name__
        code = _code(args[0], item, inside, inside, helpers, depth + 1)
        items = f"({name} if type({name}) is list else _items({name}, {what}))"
        listed = f"[{code} for {item} in {items}]"
        return (f"{made}({items})" if code == item else listed if made == "list" else f"{made}({listed})")
    if origin is tuple:
        return f"{_constant(_reader(hint), helpers)}({name}, {what}, {inside})"
    if origin in (Mapping, dict) and len(args) == 2:
        key, item = f"_k{depth}", f"_v{depth}"
        keys = f"_int_key({key}, {inside})" if args[0] is int else \
            _code(args[0], key, inside, inside, helpers, depth + 1)
        code = _code(args[1], item, inside, inside, helpers, depth + 1)
        pairs = f"({name} if type({name}) is dict else _object({name}, {what})).items()"
        return f"{{{keys}: {code} for {key}, {item} in {pairs}}}"
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        read = _constant(decoder(hint), helpers)
        return f"({read}({name}) if type({name}) is dict else {read}(_object({name}, {what})))"
    raise TypeError(f"the codec reads no value of type {hint!r}")


def _constant(value: object, helpers: dict[str, object]) -> str:
    """The name of ``value`` in the made source (its own, once: a record's field is read by it)."""
    name = f"_c{len(helpers)}"
    helpers[name] = value
    return name


def _reader(hint: object) -> _Reader:
    """The reader of a value of type ``hint``, made once: ``(value, what, inside)``, with the words of
    its errors (a fixed tuple's: its length too)."""
    made = _READERS.get(hint)
    if made is None:
        helpers = dict(_HELPERS)
        if typing.get_origin(hint) is tuple and Ellipsis not in typing.get_args(hint):
            args = typing.get_args(hint)
            items = ", ".join(_code(arg, f"items[{n}]", "inside", "inside", helpers, 1)
                              for n, arg in enumerate(args))
            lines = ["def read(value, what, inside):", "    items = _items(value, what)",
                     f"    if len(items) != {len(args)}:", "        _bad(what, value)",
                     f"    return ({items},)"]
        else:
            lines = ["def read(value, what, inside):",
                     f"    return {_code(hint, 'value', 'what', 'inside', helpers, 0)}"]
        made = typing.cast(_Reader, compiled(lines, helpers))
        _READERS[hint] = made
    return made


def _record_decoder(cls: type) -> Decoder:
    """A function that reads a record of ``cls`` (a key absent: the field's default), made from its
    fields' types, each checked, and that calls the class with them in order."""
    hints = field_types(cls)
    helpers = dict(_HELPERS, _cls=cls)
    whole = _constant(f"{cls.__name__} must be a JSON object", helpers)
    lines = ["def decode(value):", f"    data = value if type(value) is dict else _object(value, {whole})"]
    arguments = []
    for n, field in enumerate(field for field in dataclasses.fields(cls) if field.init):
        hint = hints[field.name]
        what = _constant(f"{cls.__name__}.{field.name} must be {_named(hint)}", helpers)
        inside = _constant(f"{cls.__name__}.{field.name} must be {_named(hint)}: within it", helpers)
        if field.default is not dataclasses.MISSING:
            absent = "None" if field.default is None else _constant(field.default, helpers)
        elif field.default_factory is not dataclasses.MISSING:
            absent = f"{_constant(field.default_factory, helpers)}()"
        else:
            absent = f"_missing({_constant(f'{cls.__name__}.{field.name} is missing', helpers)})"
        lines += [f"    if {field.name!r} in data:", f"        item = data[{field.name!r}]",
                  f"        _{n} = {_code(hint, 'item', what, inside, helpers, 0)}",
                  "    else:", f"        _{n} = {absent}"]
        arguments.append(f"{field.name}=_{n}" if field.kw_only else f"_{n}")
    lines.append(f"    return _cls({', '.join(arguments)})")
    return typing.cast(Decoder, compiled(lines, helpers))


def compiled(lines: list[str], helpers: dict[str, object]) -> Callable[..., object]:
    """The one function the source ``lines`` define, the names it uses from ``helpers`` (the source
    is made here, of a record's own field names)."""
    namespace = dict(helpers)
    exec("\n".join(lines), namespace)
    made = namespace[lines[0][len("def "):lines[0].index("(")]]
    if not callable(made):
        raise TypeError(f"{lines[0]} made no function")
    return made


@functools.cache
def field_types(cls: type) -> dict[str, object]:
    """The declared type of each field of the record class ``cls`` (its annotations resolved)."""
    return typing.get_type_hints(cls)
