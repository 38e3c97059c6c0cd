"""Plug-ins found by name through Python entry points, as gpiozero finds its pin factories.

A plug-in is an installed distribution that declares, in an entry-point group,
a name and the object behind it (``easy-jack = "controller.games.easy_jack.plugin:GAME"``
in the group ``table_controller.games``). The games and the board drivers this
package ships are declared the same way, in ``pyproject.toml``.

:func:`load` returns the object named (:func:`load_class` the class), or
raises :class:`PluginError` with a line that says what is wrong (a name not
installed, named twice, a plug-in that fails to import, or one that is not what
its group holds), never a traceback.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import TypeVar

T = TypeVar("T")


class PluginError(Exception):
    """A plug-in that is not installed or cannot be used; the message says which and why."""


def installed(group: str) -> tuple[str, ...]:
    """The names installed in the entry-point ``group``, sorted."""
    return tuple(sorted({point.name for point in entry_points(group=group)}))


def load(group: str, name: str, kind: type[T], what: str) -> T:
    """The object installed as ``name`` in ``group``, which must be a ``kind`` (``what`` names
    such a plug-in in messages: ``"game"``); raises :class:`PluginError`."""
    value, origin = _load(group, name, what)
    if not isinstance(value, kind):
        raise PluginError(f"the {what} {name!r} ({origin}) is {value!r}, not a {kind.__name__}")
    return value


def load_class(group: str, name: str, base: type[T], what: str) -> type[T]:
    """The class installed as ``name`` in ``group``, which must be ``base`` or derive from it;
    raises :class:`PluginError`."""
    value, origin = _load(group, name, what)
    if not (isinstance(value, type) and issubclass(value, base)):
        raise PluginError(f"the {what} {name!r} ({origin}) is {value!r}, not a {base.__name__} class")
    return value


def _load(group: str, name: str, what: str) -> tuple[object, str]:
    """The object behind ``name`` in ``group``, and where it comes from."""
    found: list[EntryPoint] = [point for point in entry_points(group=group) if point.name == name]
    if not found:
        names = ", ".join(installed(group)) or "none"
        raise PluginError(f"{name!r} is not an installed {what} (installed: {names})")
    if len({point.value for point in found}) > 1:
        raise PluginError(f"two installed plug-ins call themselves the {what} {name!r}: "
                          f"{' and '.join(sorted(_origin(point) for point in found))}")
    point = found[0]
    try:
        return point.load(), _origin(point)
    except Exception as error:
        raise PluginError(f"the {what} {name!r} ({_origin(point)}) cannot be loaded: "
                          f"{type(error).__name__}: {error}") from None


def _origin(point: EntryPoint) -> str:
    """Where an entry point comes from: its object and, when known, its distribution."""
    dist = getattr(point, "dist", None)
    return f"{point.value} from {dist.name}" if dist is not None else point.value
