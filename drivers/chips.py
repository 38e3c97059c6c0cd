"""The chip registry: which RFID chips the casino issued, what each is worth, and chip checks.

The registry is a CSV file (``[chips] registry`` in the table configuration),
one chip per line::

    uid,value_cents,status
    # the header line above is optional; blank lines and lines starting with # are ignored
    04a1b2c3d4e5f601,500,active
    04A1B2C3D4E5F602,2500,void

``uid`` is the chip's tag id, 16 hex digits in either case (stored lowercase);
``value_cents`` is a positive whole number of cents; ``status`` is ``active``
or ``void`` (a chip taken out of play: lost, stolen or retired).

A chip read on a betting spot is *good* when its uid is registered, active, and
the value written in the chip equals the registry's. Anything else is
classified, never raised:

>>> registry = ChipRegistry.parse('''
... uid,value_cents,status
... 04a1b2c3d4e5f601,500,active
... 04a1b2c3d4e5f602,2500,void
... ''')
>>> len(registry)
2
>>> registry.check("04A1B2C3D4E5F601", 500).reason is None
True
>>> registry.check("04a1b2c3d4e5f601", 10000).reason
'value_mismatch'
>>> registry.check("04a1b2c3d4e5f602", 2500).reason
'void'
>>> registry.check("ffffffffffffffff", 500).reason
'counterfeit'

A bad file is refused as a whole, with one line per problem:

>>> ChipRegistry.parse("04a1b2c3d4e5f601,abc,active\\nxyz,500,active\\n", source="chips.csv")
Traceback (most recent call last):
...
drivers.chips.RegistryError: chips.csv line 1: value 'abc' is not a whole number of cents
chips.csv line 2: uid 'xyz' is not 16 hex digits
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from drivers.inputs import RejectedChip, SpotWager

__all__ = [
    "ACTIVE",
    "COUNTERFEIT",
    "CROSSTALK",
    "DUPLICATE",
    "VALUE_MISMATCH",
    "VOID",
    "ChipCheck",
    "ChipRegistry",
    "RegisteredChip",
    "RegistryError",
    "read_elsewhere",
    "uid_key",
]

ACTIVE = "active"
"""Registry status of a chip in play."""

VOID = "void"
"""Registry status of a chip taken out of play; also the check reason for such a chip."""

COUNTERFEIT = "counterfeit"
"""Check reason: the uid is not in the registry."""

DUPLICATE = "duplicate"
"""Wager reason: the same uid read twice on one spot (two tags with one id: one is a clone)."""

CROSSTALK = "crosstalk"
"""Wager reason: a good chip whose uid other antennas read at the same time (antenna crosstalk, or a chip
lying across two spots); it counts on none of them until only one reads it."""

VALUE_MISMATCH = "value_mismatch"
"""Check reason: the value written in the chip differs from the registry's."""

HEADER = ("uid", "value_cents", "status")
"""The optional header line's fields."""

_UID = re.compile(r"[0-9a-fA-F]{16}")
_INTEGER = re.compile(r"[+-]?[0-9]+")


class RegistryError(Exception):
    """The chip registry file cannot be used.

    The message has one line per problem, each naming the file and line, for
    example ``chips.csv line 4: value 'abc' is not a whole number of cents``.
    The same lines are in :attr:`problems`.
    """

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True, slots=True)
class RegisteredChip:
    """One line of the registry: a chip the casino issued.

    ``uid`` is 16 lowercase hex digits, ``value`` is in cents, ``status`` is
    ``"active"`` or ``"void"``.
    """

    uid: str
    value: int
    status: str

    @property
    def is_active(self) -> bool:
        """True when the chip is in play (not void)."""
        return self.status == ACTIVE


@dataclass(frozen=True, slots=True)
class ChipCheck:
    """The outcome of checking one chip read on a spot against the registry.

    ``uid`` is the chip's uid (normalised to lowercase), ``value`` the value
    written in the chip, in cents. ``reason`` is None for a good chip, else
    ``"counterfeit"`` (not registered), ``"void"`` (registered as void) or
    ``"value_mismatch"`` (written value differs from ``registry_value``).
    ``registry_value`` is the registry's value for the uid, None when the uid
    is not registered.
    """

    uid: str
    value: int
    reason: str | None
    registry_value: int | None

    @property
    def is_good(self) -> bool:
        """True when the chip counts as a wager."""
        return self.reason is None

    def rejected(self) -> RejectedChip:
        """This check as a :class:`~drivers.inputs.RejectedChip` (for a chip that is not good).

        >>> ChipCheck("00000000000000ff", 500, "counterfeit", None).rejected().reason
        'counterfeit'
        """
        if self.reason is None:
            raise ValueError(f"chip {self.uid} is good: nothing to reject")
        return RejectedChip(self.uid, self.value, self.reason, self.registry_value)


class ChipRegistry:
    """The casino's chips, by uid: load it once at start, then check every chip read.

    Build one with :meth:`load` (from the CSV file), :meth:`parse` (from its
    text) or directly from :class:`RegisteredChip` records:

    >>> registry = ChipRegistry([RegisteredChip("00000000000000aa", 500, "active")])
    >>> "00000000000000AA" in registry, len(registry)
    (True, 1)
    """

    def __init__(self, chips: Iterable[RegisteredChip] = ()) -> None:
        self._chips: dict[str, RegisteredChip] = {}
        for chip in chips:
            uid = _normalise_uid(chip.uid)
            if uid is None:
                raise ValueError(f"uid {chip.uid!r} is not 16 hex digits")
            if chip.status not in (ACTIVE, VOID):
                raise ValueError(f"chip {uid}: status {chip.status!r} is not active or void")
            if chip.value <= 0:
                raise ValueError(f"chip {uid}: value {chip.value} is not positive")
            if uid in self._chips:
                raise ValueError(f"chip {uid} is listed twice")
            self._chips[uid] = RegisteredChip(uid, chip.value, chip.status)

    @classmethod
    def load(cls, path: Path) -> ChipRegistry:
        """Read the registry CSV file at ``path``.

        Raises :class:`RegistryError` naming every bad line (or the file, when
        it cannot be read at all); a registry is used whole or not at all.
        """
        path = Path(path)
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except OSError as error:
            raise RegistryError([f"{path}: cannot read: {error.strerror or error}"]) from error
        except UnicodeDecodeError as error:
            raise RegistryError([f"{path}: not UTF-8 text (byte {error.start}: {error.reason})"]) from error
        return cls.parse(text, source=str(path))

    @classmethod
    def parse(cls, text: str, source: str = "chips.csv") -> ChipRegistry:
        """Read the registry from the text of its CSV file; ``source`` names it in errors.

        >>> ChipRegistry.parse("a,1,active\\n\\n# comment\\nuid,value_cents,status\\n")
        Traceback (most recent call last):
        ...
        drivers.chips.RegistryError: chips.csv line 1: uid 'a' is not 16 hex digits
        chips.csv line 4: the header line uid,value_cents,status must come first
        """
        problems: list[str] = []
        chips: dict[str, RegisteredChip] = {}
        first_line: dict[str, int] = {}
        seen_content = False
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            fields = [field.strip() for field in line.split(",")]
            where = f"{source} line {number}"
            if tuple(field.lower() for field in fields) == HEADER:
                if seen_content:
                    problems.append(f"{where}: the header line uid,value_cents,status must come first")
                seen_content = True
                continue
            seen_content = True
            if len(fields) != len(HEADER):
                problems.append(f"{where}: expected 3 fields uid,value_cents,status, got {len(fields)}")
                continue
            uid_text, value_text, status_text = fields
            line_problems: list[str] = []
            uid = _normalise_uid(uid_text)
            if uid is None:
                line_problems.append(f"uid {uid_text!r} is not 16 hex digits")
            value = 0
            if not _INTEGER.fullmatch(value_text):
                line_problems.append(f"value {value_text!r} is not a whole number of cents")
            else:
                value = int(value_text)
                if value <= 0:
                    line_problems.append(f"value {value_text!r} is not positive")
            status = status_text.lower()
            if status not in (ACTIVE, VOID):
                line_problems.append(f"status {status_text!r} is not active or void")
            if uid is not None and uid in first_line:
                line_problems.append(f"uid {uid} is already listed on line {first_line[uid]}")
            problems.extend(f"{where}: {problem}" for problem in line_problems)
            if uid is not None and uid not in first_line:
                first_line[uid] = number
            if not line_problems and uid is not None:
                chips[uid] = RegisteredChip(uid, value, status)
        if problems:
            raise RegistryError(problems)
        return cls(chips.values())

    def __len__(self) -> int:
        """The number of registered chips, void ones included."""
        return len(self._chips)

    def __contains__(self, uid: object) -> bool:
        """True when ``uid`` (any case) is registered, void or not."""
        return isinstance(uid, str) and _normalise_uid(uid) in self._chips

    def __iter__(self) -> Iterator[RegisteredChip]:
        """The registered chips, in uid order."""
        return iter(sorted(self._chips.values(), key=lambda chip: chip.uid))

    def __repr__(self) -> str:
        active = sum(chip.is_active for chip in self._chips.values())
        return f"<ChipRegistry {len(self)} chips, {active} active>"

    def get(self, uid: str) -> RegisteredChip | None:
        """The registry's record of ``uid`` (any case), or None when it is not registered."""
        key = _normalise_uid(uid)
        return None if key is None else self._chips.get(key)

    def check(self, uid: str, value: int) -> ChipCheck:
        """Check one chip read on a spot: its ``uid`` and the ``value`` written in it (cents).

        Never raises for a bad chip: a uid that is malformed or unknown is
        ``"counterfeit"``; a void chip is ``"void"`` whatever its value; an active
        chip whose value differs is ``"value_mismatch"``.

        >>> registry = ChipRegistry([RegisteredChip("00000000000000aa", 500, "active")])
        >>> registry.check("00000000000000AA", 2500)
        ChipCheck(uid='00000000000000aa', value=2500, reason='value_mismatch', registry_value=500)
        >>> registry.check("not a uid", 500).reason
        'counterfeit'
        """
        key = _normalise_uid(uid)
        chip = None if key is None else self._chips.get(key)
        shown = key if key is not None else str(uid).strip().lower()
        if chip is None:
            return ChipCheck(shown, value, COUNTERFEIT, None)
        if not chip.is_active:
            return ChipCheck(chip.uid, value, VOID, chip.value)
        if value != chip.value:
            return ChipCheck(chip.uid, value, VALUE_MISMATCH, chip.value)
        return ChipCheck(chip.uid, value, None, chip.value)

    def wager(
        self,
        seat: int,
        spot: str,
        antenna: int,
        chips: Iterable[tuple[str, int]],
        complete: bool = True,
        elsewhere: Mapping[str, tuple[tuple[int, int, str], ...]] | None = None,
    ) -> SpotWager:
        """The wager on one spot, from the complete set of ``(uid, value)`` chips read on it.

        ``amount`` is the sum of the good chips' values; ``chips`` holds the good
        uids, sorted, and ``values`` their values (``by_value`` by denomination); ``rejected``
        holds a :class:`~drivers.inputs.RejectedChip` for each chip that does not
        count, sorted by uid. A uid read more than once on the same spot counts once:
        its other copies are rejected as ``"duplicate"`` (two tags with one id
        means one is a clone). A good chip
        whose uid is in ``elsewhere`` (uid -> the other antennas reading it now,
        as ``(antenna, seat, spot)``: see :func:`read_elsewhere`) counts on no
        spot: it is rejected as ``"crosstalk"``.

        >>> registry = ChipRegistry.parse("00000000000000aa,500,active\\n00000000000000bb,2500,active")
        >>> wager = registry.wager(3, "main", 5, [("00000000000000BB", 2500), ("00000000000000aa", 500),
        ...                                       ("00000000000000cc", 10000)])
        >>> wager.amount, wager.chips, wager.by_value
        (3000, ('00000000000000aa', '00000000000000bb'), {500: 1, 2500: 1})
        >>> [(chip.uid, chip.reason) for chip in wager.rejected]
        [('00000000000000cc', 'counterfeit')]
        >>> wager = registry.wager(3, "main", 5, [("00000000000000aa", 500), ("00000000000000aa", 500),
        ...                                       ("00000000000000bb", 2500)],
        ...                        elsewhere={"00000000000000bb": ((7, 4, "main"),)})
        >>> wager.amount, [(chip.reason, chip.elsewhere) for chip in wager.rejected]
        (500, [('duplicate', ()), ('crosstalk', ((7, 4, 'main'),))])
        """
        good: dict[str, int] = {}
        read: set[str] = set()
        rejected: list[RejectedChip] = []
        elsewhere = elsewhere or {}
        for uid, value in chips:
            key = _normalise_uid(uid)
            known = None if key is None else self._chips.get(key)
            if known is not None and known.status == ACTIVE and value == known.value \
                    and known.uid not in read and known.uid not in elsewhere:
                good[known.uid] = value  # the usual chip, good: no ChipCheck made for it
                read.add(known.uid)
                continue
            result = self.check(uid, value)
            if result.reason is not None:
                rejected.append(result.rejected())
            elif result.uid in read:
                rejected.append(RejectedChip(result.uid, value, DUPLICATE, result.registry_value))
            elif result.uid in elsewhere:
                rejected.append(RejectedChip(result.uid, value, CROSSTALK, result.registry_value,
                                             elsewhere[result.uid]))
            else:
                good[result.uid] = value
            read.add(result.uid)
        rejected.sort(key=lambda chip: (chip.uid, chip.value, chip.reason))
        return SpotWager(
            seat=seat,
            spot=spot,
            antenna=antenna,
            amount=sum(good.values()),
            chips=tuple(sorted(good)),
            rejected=tuple(rejected),
            complete=complete,
            values=tuple(good.values()),
        )


Elsewhere = dict[str, tuple[tuple[int, int, str], ...]]
"""uid -> the other antennas reading it, as ``(antenna, seat, spot)``."""


def read_elsewhere(inventories: Mapping[int, Iterable[str]],
                   spots: Mapping[int, tuple[int, str]]) -> dict[int, Elsewhere]:
    """For each antenna, the uids it reads that other antennas read at the same time, with those
    antennas as ``(antenna, seat, spot)`` (``spots`` maps an antenna to its spot). Antennas with no such
    uid are left out.

    >>> spots = {1: (1, "main"), 2: (1, "side"), 3: (2, "main")}
    >>> read_elsewhere({1: ["aa", "bb"], 2: ["bb"], 3: ["cc"]}, spots)
    {1: {'bb': ((2, 1, 'side'),)}, 2: {'bb': ((1, 1, 'main'),)}}
    """
    readers: dict[str, set[int]] = {}
    for antenna, uids in inventories.items():
        for uid in uids:
            readers.setdefault(uid_key(uid), set()).add(antenna)
    shared: dict[int, Elsewhere] = {}
    for uid, antennas in sorted(readers.items()):
        if len(antennas) < 2:
            continue
        for antenna in sorted(antennas):
            shared.setdefault(antenna, {})[uid] = tuple(
                (other, *spots[other]) for other in sorted(antennas - {antenna}))
    return shared


def uid_key(uid: str) -> str:
    """What a read uid is known by across antennas (:func:`read_elsewhere`): its normal form (16
    lowercase hex digits), or the text itself when it is no uid.

    >>> uid_key(" 00000000000000AA"), uid_key("not a uid")
    ('00000000000000aa', 'not a uid')
    """
    return _normalise_uid(uid) or uid


def _normalise_uid(uid: str) -> str | None:
    """``uid`` as 16 lowercase hex digits, or None when it is not a uid."""
    if not isinstance(uid, str):
        return None
    return _normalise_text(uid)


@functools.lru_cache(maxsize=4096)
def _normalise_text(uid: str) -> str | None:
    """:func:`_normalise_uid` of a string, remembered (a reader repeats every chip on every spot
    in each inventory it sends)."""
    text = uid.strip()
    return text.lower() if _UID.fullmatch(text) else None
