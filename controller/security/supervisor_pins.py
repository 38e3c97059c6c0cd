"""Supervisor PINs: salted scrypt hashes, as stored in the configuration's ``[supervisors]``.

A stored hash reads ``scrypt$<n>$<r>$<p>$<salt hex>$<key hex>``; the PIN itself is
never stored.

>>> stored = hash_pin("4321", salt=bytes(16))
>>> looks_like_pin_hash(stored)
True
>>> verify_pin(stored, "4321"), verify_pin(stored, "1234")
(True, False)
>>> verify_pin("scrypt$oops", "4321")
False
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re

_N = 2**14
_R = 8
_P = 1
_SALT_BYTES = 16
_KEY_BYTES = 32
_MAXMEM = 64 * 1024 * 1024
_PATTERN = re.compile(
    r"scrypt\$(?P<n>[1-9][0-9]{0,7})\$(?P<r>[1-9][0-9]{0,2})\$(?P<p>[1-9][0-9]{0,2})"
    r"\$(?P<salt>(?:[0-9a-f]{2}){8,64})\$(?P<key>(?:[0-9a-f]{2}){16,64})"
)


def _derive(pin: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(
        pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=_MAXMEM, dklen=length
    )


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """Return the storable scrypt hash of ``pin`` (with a fresh random salt unless given)."""
    if salt is None:
        salt = os.urandom(_SALT_BYTES)
    key = _derive(pin, salt, _N, _R, _P, _KEY_BYTES)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${key.hex()}"


def looks_like_pin_hash(s: object) -> bool:
    """Tell whether ``s`` has the shape of a hash made by :func:`hash_pin`.

    >>> looks_like_pin_hash("1234")
    False
    """
    return isinstance(s, str) and _PATTERN.fullmatch(s) is not None


def verify_pin(stored: str, pin: str) -> bool:
    """Check ``pin`` against a stored hash in constant time; a malformed hash never matches."""
    match = _PATTERN.fullmatch(stored) if isinstance(stored, str) else None
    if match is None:
        return False
    n, r, p = int(match["n"]), int(match["r"]), int(match["p"])
    if n & (n - 1) or n < 2 or 128 * r * (n + p + 2) > _MAXMEM:
        return False
    expected = bytes.fromhex(match["key"])
    try:
        key = _derive(pin, bytes.fromhex(match["salt"]), n, r, p, len(expected))
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(key, expected)
