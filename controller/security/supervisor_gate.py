"""The gate every supervisor's command passes: the id and PIN against ``[supervisors]``, wrong PINs
rate-limited.

A control command that carries ``"supervisor"`` must carry the supervisor's
``"pin"`` too; the daemon checks the pair here before the command goes any
further, so a game only ever sees a supervisor id that was authenticated (and
never the PIN). An unknown id is checked against a hash of a random PIN, so
the answer and the time it takes do not tell whether the id exists. After
:data:`MAX_FAILURES` wrong answers within :data:`LOCKOUT` seconds, every
supervisor command is refused until :data:`LOCKOUT` seconds have passed since
the last one, whatever the PIN. Time is an input (``now``, monotonic seconds).

>>> from controller.security.supervisor_pins import hash_pin, verify_pin
>>> gate = SupervisorGate({"S101": hash_pin("4321", salt=bytes(16))})
>>> gate.before("S101", "4321", now=0.0) is None
True
>>> gate.after(verify_pin(gate.stored("S101"), "4321"), now=0.0) is None
True
>>> [gate.after(False, now=t) for t in (1.0, 2.0, 3.0)][-1]
'wrong supervisor id or PIN'
>>> gate.before("S101", "4321", now=10.0)
'too many wrong supervisor PINs: supervisor commands are refused for 53 s'
>>> gate.before("S101", "4321", now=63.0) is None
True
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping

from controller.security.supervisor_pins import hash_pin

MAX_FAILURES = 3
"""Wrong answers within :data:`LOCKOUT` seconds that lock supervisor commands."""

LOCKOUT = 60.0
"""Seconds supervisor commands stay locked after the last wrong answer."""


class SupervisorGate:
    """The configured supervisors' PIN hashes, and the wrong answers seen lately."""

    def __init__(self, supervisors: Mapping[str, str], *, max_failures: int = MAX_FAILURES,
                 lockout: float = LOCKOUT) -> None:
        """Check against ``supervisors`` (id -> PIN hash)."""
        self._supervisors = dict(supervisors)
        self._max_failures = max_failures
        self._lockout = lockout
        self._failures: list[float] = []
        self._decoy: str | None = None

    def before(self, supervisor: object, pin: object, now: float) -> str | None:
        """Why the command is refused before its PIN is even checked (no id or PIN, or locked), or
        None when the PIN is to be checked."""
        left = self.locked_for(now)
        if left > 0:
            return (f"too many wrong supervisor PINs: supervisor commands are refused for "
                    f"{math.ceil(left)} s")
        if not isinstance(supervisor, str) or not supervisor or not isinstance(pin, str) or not pin:
            return "a supervisor's command needs the supervisor's id and PIN"
        return None

    def stored(self, supervisor: str) -> str:
        """The hash to check the PIN against: the supervisor's, or a decoy for an unknown id."""
        found = self._supervisors.get(supervisor)
        if found is not None:
            return found
        if self._decoy is None:
            self._decoy = hash_pin(secrets.token_hex(16))
        return self._decoy

    def after(self, matched: bool, now: float) -> str | None:
        """Record the answer (``matched``: the PIN matched the id's hash); None when accepted."""
        if matched:
            self._failures.clear()
            return None
        self._failures = [t for t in self._failures if now - t < self._lockout] + [now]
        return "wrong supervisor id or PIN"

    def locked_for(self, now: float) -> float:
        """Seconds left before supervisor commands are taken again (0 when they are)."""
        recent = [t for t in self._failures if now - t < self._lockout]
        if len(recent) < self._max_failures:
            return 0.0
        return self._lockout - (now - recent[-1])
