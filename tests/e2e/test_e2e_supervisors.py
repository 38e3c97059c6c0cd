"""End to end: wrong supervisor PINs through the daemon's control socket lock the id (and, with CURVE,
the client) that failed, never the table, and one supervisor's right PIN never clears another's wrong
ones (issue 18, items 1 and 2); wrong PINs sent at once, which the control socket serves at once, are
counted as if they came one after another."""

from __future__ import annotations

import json
from pathlib import Path

import zmq
import zmq.auth

from controller.follow.blocking import PitClient
from controller.security.supervisor_gate import MAX_FAILURES
from controller.security.supervisor_pins import hash_pin
from tests.rigs.daemon_rig import TIMEOUT, TableRig
from tests.security.test_keys import keys

PINS = {"S101": "60417293", "S102": "31415926"}


def links(client: PitClient, supervisor: str, pin: str) -> dict[str, object]:
    """A harmless command (``links``) as the supervisor."""
    return client.control({"cmd": "links", "supervisor": supervisor, "pin": pin})


def test_another_supervisors_right_pin_does_not_clear_wrong_ones_nor_is_the_table_locked(
        tmp_path: Path) -> None:
    rig = TableRig(tmp_path, supervisors={name: hash_pin(pin) for name, pin in PINS.items()})
    try:
        rig.start(wait_online=False)
        for _ in range(MAX_FAILURES):                 # the bypass: a wrong PIN, then another's right
            assert links(rig.pit, "S101", "0000")["error"] == "wrong supervisor id or PIN"
            assert links(rig.pit, "S102", PINS["S102"])["ok"] is True
        refused = links(rig.pit, "S101", PINS["S101"])
        assert refused["ok"] is False
        assert str(refused["error"]).startswith("too many wrong supervisor PINs for 'S101': refused for ")
        assert links(rig.pit, "S102", PINS["S102"])["ok"] is True        # the table is not locked
        for _ in range(MAX_FAILURES):                                    # nor by an id nobody has
            links(rig.pit, "S999", "0000")
        assert links(rig.pit, "S102", PINS["S102"])["ok"] is True
    finally:
        rig.close()
    assert "supervisor command 'links' for 'S101' refused: too many wrong supervisor PINs" in rig.log_text()


def test_wrong_pins_sent_at_once_lock_the_id_after_as_many_as_one_by_one(tmp_path: Path) -> None:
    rig = TableRig(tmp_path, supervisors={name: hash_pin(pin) for name, pin in PINS.items()})
    sockets: list[zmq.Socket[bytes]] = []
    try:
        rig.start(wait_online=False)
        for _ in range(MAX_FAILURES + 4):
            req: zmq.Socket[bytes] = rig.pit.context.socket(zmq.REQ)
            req.setsockopt(zmq.LINGER, 0)
            req.connect(rig.endpoints[2])
            sockets.append(req)
        for req in sockets:                     # every guess sent before any is answered
            req.send_json({"cmd": "links", "supervisor": "S101", "pin": "0000"})
        errors = []
        for req in sockets:
            assert req.poll(int(TIMEOUT * 1000)), "no reply to a wrong PIN"
            errors.append(str(json.loads(req.recv())["error"]))
        assert errors.count("wrong supervisor id or PIN") == MAX_FAILURES
        assert all(error.startswith("too many wrong supervisor PINs for 'S101'")
                   for error in errors if error != "wrong supervisor id or PIN")
    finally:
        for req in sockets:
            req.close()
        rig.close()


def test_with_curve_a_hostile_client_locks_only_itself(tmp_path: Path) -> None:
    table_keys = tmp_path / "keys"
    keys("generate", "--dir", str(table_keys))
    clients = {}
    for name in ("pit", "hostile"):
        keys("generate", "--dir", str(tmp_path / name), "--name", name)
        keys("add-client", str(tmp_path / name / f"{name}.key"), "--name", name, "--dir", str(table_keys))
        public, secret = zmq.auth.load_certificate(tmp_path / name / f"{name}.key_secret")
        assert secret is not None
        clients[name] = (public, secret)
    table_public, _ = zmq.auth.load_certificate(table_keys / "table.key")
    rig = TableRig(tmp_path, curve=(table_keys / "table.key_secret", table_keys / "clients"),
                   client_keys=(table_public, *clients["pit"]),
                   supervisors={name: hash_pin(pin) for name, pin in PINS.items()})
    hostile = PitClient("T07", *rig.endpoints, context=rig.pit.context,
                        curve=(table_public, *clients["hostile"]))
    try:
        rig.start(wait_online=False)
        for _ in range(MAX_FAILURES):
            assert links(hostile, "S101", "0000")["error"] == "wrong supervisor id or PIN"
        assert links(hostile, "S101", PINS["S101"])["ok"] is False       # locked for that client
        assert links(rig.pit, "S101", PINS["S101"])["ok"] is True        # the real supervisor is not
        number = 200
        while "from this client" not in str(links(hostile, f"S{number}", "0000")["error"]):
            number += 1                                                  # guesses spread over ids
            assert number < 300, "the hostile client was never locked"
        refused = links(hostile, "S102", PINS["S102"])
        assert str(refused["error"]).startswith("too many wrong supervisor PINs from this client")
        assert links(rig.pit, "S102", PINS["S102"])["ok"] is True
        assert links(rig.pit, "S101", PINS["S101"])["ok"] is True
    finally:
        hostile.close()
        rig.close()
