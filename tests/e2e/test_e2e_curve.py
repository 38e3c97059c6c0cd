"""End to end: the pit sockets with CURVE on, keys made and authorised by ``table-controller keys``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import zmq.auth

from controller.follow.blocking import PitClient, PitError
from tests.rigs.daemon_rig import TableRig
from tests.security.test_keys import keys


def test_only_clients_with_an_authorised_key_hear_or_command_the_table(tmp_path: Path) -> None:
    table_keys, pit_keys, stranger_keys = tmp_path / "keys", tmp_path / "pit", tmp_path / "stranger"
    keys("generate", "--dir", str(table_keys))
    keys("generate", "--dir", str(pit_keys), "--name", "pit")           # made on the pit's side
    keys("generate", "--dir", str(stranger_keys), "--name", "stranger")
    keys("add-client", str(pit_keys / "pit.key"), "--name", "pit", "--dir", str(table_keys))
    assert sorted(p.name for p in (table_keys / "clients").iterdir()) == ["pit.key"]
    table_public, _ = zmq.auth.load_certificate(table_keys / "table.key")
    pit_public, pit_secret = zmq.auth.load_certificate(pit_keys / "pit.key_secret")
    stranger_public, stranger_secret = zmq.auth.load_certificate(stranger_keys / "stranger.key_secret")
    assert pit_secret is not None and stranger_secret is not None

    rig = TableRig(tmp_path, curve=(table_keys / "table.key_secret", table_keys / "clients"),
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
        assert rig.next("bet.placed")["data"]["amount"] == 500    # the authorised client hears it
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
