"""``table-controller keys``: a key pair with safe modes, clients authorised by their public key only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import zmq.auth


def keys(*args: str) -> str:
    """Run ``table-controller keys ...``; its output (it must succeed)."""
    done = subprocess.run([sys.executable, "-m", "controller.cli", "keys", *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def keys_fail(*args: str) -> str:
    """Run ``table-controller keys ...`` that must fail; its error line."""
    done = subprocess.run([sys.executable, "-m", "controller.cli", "keys", *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done
    return done.stderr.strip()


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_generate_writes_a_pair_the_secret_readable_by_its_owner_only(tmp_path: Path) -> None:
    folder = tmp_path / "keys"
    printed = keys("generate", "--dir", str(folder))
    public, secret = zmq.auth.load_certificate(folder / "table.key_secret")
    assert secret is not None and len(secret) == 40
    assert zmq.auth.load_certificate(folder / "table.key") == (public, None)
    assert f'public-key = "{public.decode()}"' in printed
    assert (mode(folder / "table.key_secret"), mode(folder / "table.key")) == (0o600, 0o644)
    assert (mode(folder), mode(folder / "clients")) == (0o750, 0o750)
    assert sorted(p.name for p in folder.iterdir()) == ["clients", "table.key", "table.key_secret"]
    assert "exists" in keys_fail("generate", "--dir", str(folder))      # never overwritten unasked
    assert zmq.auth.load_certificate(folder / "table.key_secret") == (public, secret)
    keys("generate", "--dir", str(folder), "--force")
    assert zmq.auth.load_certificate(folder / "table.key_secret")[0] != public


def test_add_client_takes_a_public_key_from_a_file_or_as_text_and_nothing_secret(tmp_path: Path) -> None:
    folder = tmp_path / "keys"
    keys("generate", "--dir", str(folder))
    keys("generate", "--dir", str(tmp_path / "pit"), "--name", "pit")
    keys("generate", "--dir", str(tmp_path / "audit"), "--name", "audit")
    pit_public, _ = zmq.auth.load_certificate(tmp_path / "pit" / "pit.key")
    audit_public, _ = zmq.auth.load_certificate(tmp_path / "audit" / "audit.key")

    keys("add-client", str(tmp_path / "pit" / "pit.key"), "--name", "pit", "--dir", str(folder))
    keys("add-client", "--dir", str(folder), "--name", "audit", "--", audit_public.decode())
    clients = folder / "clients"
    assert zmq.auth.load_certificates(clients) == {pit_public: True, audit_public: True}
    assert mode(clients / "pit.key") == 0o644

    assert "holds a secret key" in keys_fail("add-client", str(tmp_path / "pit" / "pit.key_secret"),
                                             "--name", "pit2", "--dir", str(folder))
    assert "already authorised as" in keys_fail("add-client", str(tmp_path / "pit" / "pit.key"),
                                                "--name", "pit2", "--dir", str(folder))
    assert "not a CURVE public key" in keys_fail("add-client", "hello", "--name", "x", "--dir", str(folder))
    assert "not a key name" in keys_fail("add-client", str(tmp_path / "pit" / "pit.key"), "--name", "../x",
                                         "--dir", str(folder))
    assert sorted(p.name for p in clients.iterdir()) == ["audit.key", "pit.key"]
