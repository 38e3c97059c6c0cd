"""The gate every supervisor's command passes: the id and PIN against ``[supervisors]``, wrong PINs
counted per supervisor id and per control client.

A control command that carries ``"supervisor"`` must carry the supervisor's
``"pin"`` too; the daemon checks the pair here before the command goes any
further, so a game only ever sees a supervisor id that was authenticated (and
never the PIN). An unknown id is checked against a hash of a random PIN, so
the answer and the time it takes do not tell whether the id exists. Time is an
input (``now``, monotonic seconds).

Wrong answers are counted three ways, and a right answer clears only the
count of its own id from its own client, never another's:

* **per id and client**: :data:`MAX_FAILURES` wrong PINs for one id from one
  client within :data:`LOCKOUT` seconds lock that id for that client until
  :data:`LOCKOUT` seconds after the last one. Other ids, and the same id from
  another client, go on.
* **per client**: :data:`CLIENT_FAILURES` wrong PINs from one client within
  :data:`CLIENT_WINDOW` seconds, for any ids, lock every supervisor command
  from that client until :data:`LOCKOUT` seconds after its last one.
* **per table, softly**: past :data:`TABLE_FAILURES` wrong PINs within
  :data:`LOCKOUT` seconds from anyone, one PIN is checked every
  :data:`TABLE_PACE` seconds, so guessing spread over many ids or clients stays
  slow while a supervisor is never kept out for longer than that pace.

A client is who the control socket can tell apart (``client``; see
:mod:`controller.pit.server`): with CURVE the client's key and address. Without
CURVE every client is the same one (``None``), so a wrong PIN for an id locks
that id for everyone, and the per-client lock does not apply (it would lock
everyone out).

>>> from controller.security.supervisor_pins import hash_pin, verify_pin
>>> gate = SupervisorGate({"S101": hash_pin("4321", salt=bytes(16))})
>>> gate.before("S101", "4321", now=0.0) is None
True
>>> gate.after("S101", verify_pin(gate.stored("S101"), "4321"), now=0.0) is None
True
>>> [gate.after("S101", False, now=t) for t in (1.0, 2.0, 3.0)][-1]
'wrong supervisor id or PIN'
>>> gate.before("S101", "4321", now=10.0)
"too many wrong supervisor PINs for 'S101': refused for 53 s"
>>> gate.before("S102", "1234", now=10.0) is None
True
>>> gate.before("S101", "4321", now=63.0) is None
True
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping

from controller.security.supervisor_pins import hash_pin

MAX_FAILURES = 3
"""Wrong PINs for one id from one client within :data:`LOCKOUT` seconds that lock the id for that
client."""

LOCKOUT = 60.0
"""Seconds a lock lasts after the last wrong PIN; also the window the per-id and per-table counts
look back."""

CLIENT_FAILURES = 10
"""Wrong PINs from one client (any ids) within :data:`CLIENT_WINDOW` seconds that lock the client."""

CLIENT_WINDOW = 600.0
"""Seconds the per-client count looks back."""

TABLE_FAILURES = 20
"""Wrong PINs at the table within :data:`LOCKOUT` seconds past which PINs are checked at a pace."""

TABLE_PACE = 2.0
"""Seconds between two PIN checks while the table is past :data:`TABLE_FAILURES`."""

SHOWN_ID = 32
"""Characters of a supervisor id quoted in a refusal."""


def _recent(times: list[float], now: float, window: float) -> list[float]:
    return [t for t in times if now - t < window]


class SupervisorGate:
    """The configured supervisors' PIN hashes, and the wrong answers seen lately."""

    def __init__(self, supervisors: Mapping[str, str], role: str = "supervisor") -> None:
        """Check against ``supervisors`` (id -> PIN hash); ``role`` names them in the refusals (the
        dealers' gate, ``[dealers]``, is the same with ``"dealer"``)."""
        self._supervisors = dict(supervisors)
        self.role = role
        self._by_id: dict[tuple[str | None, str], list[float]] = {}
        self._by_client: dict[str, list[float]] = {}
        self._table: list[float] = []
        self._next_check = 0.0
        self._decoy: str | None = None

    def before(self, supervisor: object, pin: object, now: float, client: str | None = None) -> str | None:
        """Why the command is refused before its PIN is even checked (no id or PIN, a lock, the
        table's pace), or None when the PIN is to be checked now."""
        if not isinstance(supervisor, str) or not supervisor or not isinstance(pin, str) or not pin:
            return f"a {self.role}'s command needs the {self.role}'s id and PIN"
        if client is not None:
            left = self._client_locked_for(client, now)
            if left > 0:
                return (f"too many wrong {self.role} PINs from this client: its {self.role} commands "
                        f"are refused for {math.ceil(left)} s")
        left = self.locked_for(supervisor, now, client)
        if left > 0:
            return (f"too many wrong {self.role} PINs for {supervisor[:SHOWN_ID]!r}: "
                    f"refused for {math.ceil(left)} s")
        if len(_recent(self._table, now, LOCKOUT)) >= TABLE_FAILURES:
            if now < self._next_check:
                return (f"many wrong {self.role} PINs at this table: one is checked every "
                        f"{TABLE_PACE:.0f} s; try again in {math.ceil(self._next_check - now)} s")
            self._next_check = now + TABLE_PACE
        return None

    def stored(self, supervisor: str) -> str:
        """The hash to check the PIN against: the supervisor's, or a decoy for an unknown id."""
        found = self._supervisors.get(supervisor)
        if found is not None:
            return found
        if self._decoy is None:
            self._decoy = hash_pin(secrets.token_hex(16))
        return self._decoy

    def after(self, supervisor: str, matched: bool, now: float, client: str | None = None) -> str | None:
        """Record the answer for ``supervisor`` from ``client`` (``matched``: the PIN matched the
        id's hash); None when accepted."""
        self._forget(now)
        key = (client, supervisor)
        if matched:
            self._by_id.pop(key, None)
            return None
        self._by_id[key] = [*self._by_id.get(key, []), now]
        if client is not None:
            self._by_client[client] = [*self._by_client.get(client, []), now]
        self._table.append(now)
        return f"wrong {self.role} id or PIN"

    def locked_for(self, supervisor: str, now: float, client: str | None = None) -> float:
        """Seconds left before ``supervisor``'s commands from ``client`` are taken again (0 when
        they are)."""
        recent = _recent(self._by_id.get((client, supervisor), []), now, LOCKOUT)
        if len(recent) < MAX_FAILURES:
            return 0.0
        return LOCKOUT - (now - recent[-1])

    def _client_locked_for(self, client: str, now: float) -> float:
        recent = _recent(self._by_client.get(client, []), now, CLIENT_WINDOW)
        if len(recent) < CLIENT_FAILURES:
            return 0.0
        return max(0.0, LOCKOUT - (now - recent[-1]))

    def remembered(self) -> int:
        """How many ids and clients the gate holds wrong answers for (old ones are forgotten)."""
        return len(self._by_id) + len(self._by_client)

    def _forget(self, now: float) -> None:
        """Drop the wrong answers too old to count: what is held stays bounded by the table's pace."""
        self._table = _recent(self._table, now, LOCKOUT)
        self._by_id = {key: kept for key, times in self._by_id.items()
                       if (kept := _recent(times, now, LOCKOUT))}
        self._by_client = {client: kept for client, times in self._by_client.items()
                           if (kept := _recent(times, now, CLIENT_WINDOW))}
