"""The pit monitor's sign-in: passwords checked against the password file, wrong ones limited.

:class:`SignIn` checks an HTTP Basic name and password (scrypt, off the loop)
so that neither the answer nor its time tells whether a name exists, and so
that no client can guess fast or make the monitor hash without end:

* **the same work for every name**: an unknown name is checked against a decoy
  hash with the same scrypt cost as the real ones, which never matches;
* **per name and address**: :data:`NAME_FAILURES` wrong passwords for one name
  from one client address within :data:`WINDOW` seconds refuse that name from
  that address until :data:`WINDOW` seconds after the last one;
* **per address**: :data:`ADDRESS_FAILURES` wrong passwords from one address
  within :data:`ADDRESS_WINDOW` seconds, for any names, refuse every sign-in
  from it until :data:`WINDOW` seconds after its last one;
* **per name, softly**: past :data:`NAME_PACE_AFTER` wrong passwords for one
  name within :data:`ADDRESS_WINDOW` seconds from anywhere, that name's
  password is checked once every :data:`PACE` seconds, so guessing from many
  addresses stays slow while the real user is kept out for a moment at most;
* **bounded work**: one address has at most one password check running at a
  time (the next waits its turn, and is refused without hashing if the first
  locked it), and the whole monitor at most :data:`CHECKS_AT_ONCE`.

A password that matched is remembered (a hash of the name and password), so a
signed-in page's next requests cost no scrypt. A refusal before any check is
:class:`Refused` (HTTP 429, with the seconds to wait); a wrong password is
just not a match.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from controller.security.supervisor_pins import hash_pin, verify_pin

NAME_FAILURES = 5
"""Wrong passwords for one name from one address within :data:`WINDOW` seconds that refuse it."""

WINDOW = 60.0
"""Seconds a refusal lasts after the last wrong password, and the window of the per-name count."""

ADDRESS_FAILURES = 20
"""Wrong passwords from one address, any names, within :data:`ADDRESS_WINDOW` seconds that refuse it."""

ADDRESS_WINDOW = 600.0
"""Seconds the per-address and per-name-from-anywhere counts look back."""

NAME_PACE_AFTER = 50
"""Wrong passwords for one name from anywhere within :data:`ADDRESS_WINDOW` past which it is paced."""

PACE = 2.0
"""Seconds between two checks of a paced name."""

CHECKS_AT_ONCE = 2
"""Password checks (scrypt) running at once in the whole monitor."""


class Refused(Exception):
    """A sign-in refused before its password is checked; ``wait``: seconds before trying again."""

    def __init__(self, why: str, wait: float) -> None:
        super().__init__(why)
        self.wait = max(1, math.ceil(wait))


def decoy_like(stored: str) -> str:
    """A hash with ``stored``'s scrypt cost and a random salt and key: checking a password against it
    takes as long and never matches.

    >>> real = hash_pin("s3cret", salt=bytes(16))
    >>> decoy = decoy_like(real)
    >>> decoy.rsplit("$", 2)[0] == real.rsplit("$", 2)[0], len(decoy) == len(real)
    (True, True)
    >>> verify_pin(decoy, "s3cret")
    False
    """
    head, salt, key = stored.rsplit("$", 2)
    return f"{head}${os.urandom(len(salt) // 2).hex()}${os.urandom(len(key) // 2).hex()}"


def _recent(times: list[float], now: float, window: float) -> list[float]:
    return [t for t in times if now - t < window]


@dataclass
class _Address:
    """One client address: its wrong passwords lately, and the lock its checks take turns on."""

    lock: asyncio.Lock
    failures: list[float]
    by_name: dict[str, list[float]]


class SignIn:
    """The users (name -> hash from ``table-controller hash-pin``) and the wrong passwords lately."""

    def __init__(self, users: Mapping[str, str], clock: Callable[[], float] = time.monotonic) -> None:
        self.users = dict(users)
        self._clock = clock
        first = next(iter(self.users.values()), None)
        self._decoy = decoy_like(first) if first is not None else hash_pin(os.urandom(16).hex())
        self._matched: set[str] = set()
        self._addresses: dict[str, _Address] = {}
        self._by_name: dict[str, list[float]] = {}
        self._next_check: dict[str, float] = {}
        self._checks = asyncio.Semaphore(CHECKS_AT_ONCE)

    async def check(self, name: str, password: str, address: str) -> bool:
        """Whether ``name`` and ``password`` match, as asked from ``address``; raises
        :class:`Refused` when that address or name may not be checked now."""
        client = self._addresses.get(address)
        if client is None:
            client = self._addresses[address] = _Address(asyncio.Lock(), [], {})
        self._locked(client, name)                                # a lock holds for every password
        proof = hashlib.sha256(f"{name}\0{password}".encode()).hexdigest()
        if proof in self._matched:
            return True
        async with client.lock:                                   # one check per address at a time
            self._locked(client, name)
            self._pace(name)
            stored = self.users.get(name, self._decoy)
            async with self._checks:
                matched = await asyncio.to_thread(verify_pin, stored, password)
            matched = matched and name in self.users
            if matched:
                self._matched.add(proof)
                client.by_name.pop(name, None)
            else:
                now = self._clock()
                client.failures.append(now)
                client.by_name.setdefault(name, []).append(now)
                self._by_name.setdefault(name, []).append(now)
        self._forget()
        return matched

    def _locked(self, client: _Address, name: str) -> None:
        """Raise :class:`Refused` if ``client``, or ``name`` from it, is locked now."""
        now = self._clock()
        recent = _recent(client.failures, now, ADDRESS_WINDOW)
        if len(recent) >= ADDRESS_FAILURES and now - recent[-1] < WINDOW:
            wait = WINDOW - (now - recent[-1])
            raise Refused(f"too many wrong passwords from this address: try again in {math.ceil(wait)} s",
                          wait)
        recent = _recent(client.by_name.get(name, []), now, WINDOW)
        if len(recent) >= NAME_FAILURES:
            wait = WINDOW - (now - recent[-1])
            raise Refused(f"too many wrong passwords for this name: try again in {math.ceil(wait)} s", wait)

    def _pace(self, name: str) -> None:
        """Raise :class:`Refused` if ``name`` is paced and its next check is not due."""
        now = self._clock()
        if len(_recent(self._by_name.get(name, []), now, ADDRESS_WINDOW)) >= NAME_PACE_AFTER:
            due = self._next_check.get(name, 0.0)
            if now < due:
                raise Refused(f"many wrong passwords for this name: one is checked every {PACE:.0f} s",
                              due - now)
            self._next_check[name] = now + PACE

    def _forget(self) -> None:
        """Drop counts too old to matter and idle addresses, so what is held stays bounded."""
        now = self._clock()
        for address, client in list(self._addresses.items()):
            client.failures = _recent(client.failures, now, ADDRESS_WINDOW)
            client.by_name = {name: kept for name, times in client.by_name.items()
                              if (kept := _recent(times, now, WINDOW))}
            if not client.failures and not client.lock.locked():
                del self._addresses[address]
        self._by_name = {name: kept for name, times in self._by_name.items()
                         if (kept := _recent(times, now, ADDRESS_WINDOW))}
        self._next_check = {name: due for name, due in self._next_check.items() if due > now}

    def remembered(self) -> int:
        """How many addresses and names the sign-in holds wrong passwords for."""
        return len(self._addresses) + len(self._by_name)
