"""The commands of the table's books (docs/control.md, "The table's books"): the dealer's sign-in
and sign-out, the table inventory slips, the supervisor's signature and the drop.

The dealer's commands carry the dealer's PIN as ``dealer_pin`` (checked by the
daemon against ``[dealers]`` before the command goes further, and never
journaled, published or shown); the supervisor's carry the envelope's
``supervisor`` and ``pin`` like every supervisor's command.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass

from controller.commands.registry import ANYONE, SUPERVISOR, Command, cents, command, text_field

MAX_DEALER_ID = 32
"""The most characters in a dealer's id."""

MAX_PIN = 64
"""The most characters in a dealer's PIN."""

SLIPS = ("opener", "closer")
"""The table inventory slips, by name."""


def dealer_id_problem(value: object) -> str | None:
    """Why ``value`` is not a dealer's id (1 to :data:`MAX_DEALER_ID` letters, digits, ``-`` or
    ``_``: what a badge reader types), or None.

    >>> dealer_id_problem("D-207"), dealer_id_problem("D 207")
    (None, 'dealer must be 1 to 32 letters, digits, - or _')
    """
    if (isinstance(value, str) and 0 < len(value) <= MAX_DEALER_ID
            and all(char.isalnum() or char in "-_" for char in value) and value.isascii()):
        return None
    return f"dealer must be 1 to {MAX_DEALER_ID} letters, digits, - or _"


def pin_problem(value: object) -> str | None:
    """Why ``value`` is not a PIN (1 to :data:`MAX_PIN` printable characters), or None."""
    if (isinstance(value, str) and 0 < len(value) <= MAX_PIN
            and not any(unicodedata.category(char).startswith("C") for char in value)):
        return None
    return "dealer_pin must be the dealer's PIN"


def slip_problem(value: object) -> str | None:
    """Why ``value`` names no slip, or None."""
    return None if value in SLIPS else "slip must be \"opener\" or \"closer\""


def _pin_field() -> str:
    """The dealer's PIN: checked like text, never shown in the record's repr."""
    return dataclasses.field(metadata={"kind": "text", "check": pin_problem},  # type: ignore[no-any-return]
                             repr=False)


@command("dealer_in", who=ANYONE, label="Dealer sign-in")
@dataclass(frozen=True)
class DealerIn(Command):
    """``dealer`` signs in with the PIN (the dealer signed in before is signed out: the rotation)."""

    dealer: str = text_field(dealer_id_problem)
    dealer_pin: str = _pin_field()


@command("dealer_out", who=ANYONE, label="Dealer sign-out")
@dataclass(frozen=True)
class DealerOut(Command):
    """The dealer signed in signs out."""


@command("opener", who=ANYONE, label="Sign the opener")
@dataclass(frozen=True)
class SignOpener(Command):
    """The dealer signed in signs the opener (the tray's reading now) with the PIN."""

    dealer_pin: str = _pin_field()


@command("closer", who=ANYONE, label="Sign the closer")
@dataclass(frozen=True)
class SignCloser(Command):
    """The dealer signed in signs the closer (the tray's reading now) with the PIN."""

    dealer_pin: str = _pin_field()


@command("sign_slip", who=SUPERVISOR, label="Sign the slip")
@dataclass(frozen=True)
class SignSlip(Command):
    """The supervisor signs the last ``slip`` (``opener`` or ``closer``) the dealer signed."""

    slip: str = text_field(slip_problem)


@command("enter_drop", who=SUPERVISOR, label="Enter the drop")
@dataclass(frozen=True)
class EnterDrop(Command):
    """The shift's drop, in cents, after its closer."""

    amount: int = cents()


DEALER_PINNED: tuple[type[Command], ...] = (DealerIn, SignOpener, SignCloser)
"""The commands that carry the dealer's PIN (``dealer_pin``)."""

BOOKS_COMMANDS: tuple[type[Command], ...] = (DealerIn, DealerOut, SignOpener, SignCloser, SignSlip,
                                             EnterDrop)
"""Every command of the books."""
