"""The installed program's version, for every command's ``--version`` (``table-controller``,
``firmware-bridge``, ``pit-monitor`` and the screen): the ``table-controller`` distribution's
own, from its package metadata, so that it is the version pip installed."""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "table-controller"


def version_line(program: str) -> str:
    """``program`` and the installed version, as ``--version`` prints it (``not installed`` when
    the code runs from a checkout that pip never installed)."""
    try:
        found = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        found = "(not installed)"
    return f"{program} {found}"
