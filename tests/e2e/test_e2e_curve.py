"""End to end: the pit sockets with CURVE on, through the real daemon and its configuration."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import zmq
import zmq.auth

from controller.pit.client import PitClient, PitError
from tests.rigs.daemon_rig import TableRig


def test_only_clients_with_an_allowed_key_hear_or_command_the_table(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    clients = keys / "clients"
    clients.mkdir(parents=True)
    table_public_file, table_secret_file = zmq.auth.create_certificates(keys, "table")
    pit_public_file, pit_secret_file = zmq.auth.create_certificates(keys, "pit")
    _, stranger_secret_file = zmq.auth.create_certificates(keys, "stranger")
    shutil.copy(pit_public_file, clients)                     # only the pit's public key is allowed
    table_public, _ = zmq.auth.load_certificate(table_public_file)
    pit_public, pit_secret = zmq.auth.load_certificate(pit_secret_file)
    stranger_public, stranger_secret = zmq.auth.load_certificate(stranger_secret_file)
    assert pit_secret is not None and stranger_secret is not None

    rig = TableRig(tmp_path, curve=(Path(table_secret_file), clients),
                   client_keys=(table_public, pit_public, pit_secret))
    stranger = PitClient("T07", *rig.endpoints, context=rig.pit.context,
                         curve=(table_public, stranger_public, stranger_secret))
    plain = PitClient("T07", *rig.endpoints, context=rig.pit.context)
    try:
        opened = rig.start()
        assert opened["type"] == "table.opened"
        assert rig.pit.control({"cmd": "state"})["ok"] is True
        assert rig.pit.sync(b"snapshot")[0][0] == b"snapshot"
        rig.bet(1, "main", [f"a{1:015x}", 500])
        assert rig.next("bet.placed")["data"]["amount"] == 500    # the allowed client hears it
        for outsider in (stranger, plain):
            try:
                reply = outsider.control({"cmd": "press", "button": "deal"}, timeout=0.5)
            except PitError:
                reply = None
            assert reply is None                                  # and no command gets through
            outsider.poll(0.3)
            assert outsider.events == []                          # nothing was heard
        assert rig.pit.control({"cmd": "state"})["state"]["phase"] == "betting"
    finally:
        stranger.close()
        plain.close()
        rig.close()


def test_a_missing_secret_key_stops_the_start_with_one_line_before_the_journal_is_opened(
        tmp_path: Path) -> None:
    clients = tmp_path / "keys" / "clients"
    clients.mkdir(parents=True)
    missing = tmp_path / "keys" / "table.key_secret"
    rig = TableRig(tmp_path, curve=(missing, clients))
    try:
        result = subprocess.run(
            [sys.executable, "-m", "controller.cli", "run", "--config", str(rig.config)],
            capture_output=True, text=True, timeout=60)
    finally:
        rig.close()
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"config: pit.curve_secret_key: {missing}: no such file"]
    assert not (tmp_path / "state").exists()
