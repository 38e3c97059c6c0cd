"""``firmware-bridge decode`` on the link test vectors (``tests/data/test-vectors.json``): the exact JSON
objects, one per frame."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

from firmware_bridge.cli import main
from tests.link.test_vectors import INVALID, VALID

WIRE = {v["name"]: v["wire"] for v in VALID + INVALID}

EXPECTED: dict[str, list[dict[str, Any]]] = {
    "ack": [{"type": "ACK", "seq": 0, "ack": 4}],
    "reset": [{"type": "RESET", "seq": 0, "ack": 255, "nonce": 0xDEADBEEF}],
    "hello": [
        {
            "type": "HELLO", "seq": 0, "ack": 255, "nonce": 0xDEADBEEF, "kind": 1, "protocol": 1,
            "firmware": "shoe-2.4.1", "serial": "SH-00017",
        }
    ],
    "status": [{"type": "STATUS", "seq": 3, "ack": 255, "uptime_ms": 123456, "flags": 1}],
    "shoe_loaded": [{"type": "SHOE_LOADED", "seq": 0, "ack": 255, "shoe_id": 42, "decks": 8}],
    "card_queen_hearts": [
        {"type": "CARD", "seq": 5, "ack": 255, "index": 7, "rank": 12, "suit": 2, "card": "Qh"}],
    "card_ace_spades": [{"type": "CARD", "seq": 6, "ack": 1, "index": 8, "rank": 1, "suit": 3, "card": "As"}],
    "card_unreadable": [{"type": "CARD_UNREADABLE", "seq": 7, "ack": 255, "index": 9}],
    "cut_card": [{"type": "CUT_CARD", "seq": 8, "ack": 255, "index": 312}],
    "inventory_empty": [{"type": "INVENTORY", "seq": 9, "ack": 255, "antenna": 3, "chips": []}],
    "inventory_two": [
        {
            "type": "INVENTORY", "seq": 10, "ack": 255, "antenna": 1,
            "chips": [{"uid": "0123456789abcdef", "value": 500}, {"uid": "1122334455667788", "value": 2500}],
        }
    ],
    "fault": [{"type": "FAULT", "seq": 12, "ack": 255, "code": 2, "text": "lid opened during draw"}],
    "spot_lights": [{"type": "SPOT_LIGHTS", "seq": 0, "ack": 11, "mask": 5}],
    "card_seq_wrap": [
        {"type": "CARD", "seq": 255, "ack": 254, "index": 300, "rank": 10, "suit": 0, "card": "Tc"}],
    "bad_crc": [{"error": "CRC mismatch"}],
    "bad_version": [{"error": "version 2, not 1"}],
    "too_short": [{"error": "body is 3 bytes, shorter than 6"}],
    "bad_cobs": [{"error": "code byte runs past the frame"}],
    "noise_then_frame": [
        {"error": "code byte runs past the frame"},
        {"type": "CARD", "seq": 5, "ack": 255, "index": 7, "rank": 12, "suit": 2, "card": "Qh"},
    ],
}


def run_cli(*args: str) -> tuple[int, list[dict[str, Any]], str]:
    status, objects, stdout, _ = run_cli_err(*args)
    return status, objects, stdout


def run_cli_err(*args: str) -> tuple[int, list[dict[str, Any]], str, str]:
    """``firmware-bridge decode`` as a subprocess: its status, its JSON lines, stdout and stderr."""
    proc = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.cli", "decode", *args],
        capture_output=True, text=True, timeout=30, check=False,
    )
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stdout, proc.stderr


def test_decode_prints_one_exact_object_per_frame_in_order() -> None:
    names = list(EXPECTED)
    status, objects, _ = run_cli(*(WIRE[name] for name in names))
    assert status == 1                                           # some frames did not decode
    assert objects == [obj for name in names for obj in EXPECTED[name]]
    valid = [name for name in names if "error" not in EXPECTED[name][0]]
    assert run_cli(*(WIRE[name] for name in valid))[0] == 0


def test_decode_output_is_json_lines_with_numbers_as_numbers() -> None:
    status, _, stdout = run_cli(WIRE["card_queen_hearts"])
    assert status == 0
    assert stdout == ('{"type": "CARD", "seq": 5, "ack": 255, "index": 7, "rank": 12, "suit": 2, '
                      '"card": "Qh"}\n')


def decode(*args: str, status: int = 0) -> list[dict[str, Any]]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["decode", *args], out=out, err=err) == status
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_several_frames_in_one_capture() -> None:
    capture = WIRE["shoe_loaded"] + WIRE["card_queen_hearts"] + WIRE["ack"]
    assert decode(capture) == EXPECTED["shoe_loaded"] + EXPECTED["card_queen_hearts"] + EXPECTED["ack"]


def test_large_inventories_decode_in_full() -> None:
    (big,) = decode(WIRE["inventory_85_chips"])
    assert (big["type"], big["antenna"], len(big["chips"])) == ("INVENTORY", 32, 85)
    (boundary,) = decode(WIRE["cobs_254_boundary"])
    assert (boundary["type"], boundary["seq"], boundary["ack"], boundary["code"]) == ("FAULT", 1, 7, 257)


def test_unknown_type_malformed_payload_and_not_hex() -> None:
    unknown = "07017701ff2d8200"  # type 0x77, seq 1, no payload
    short_card = "08012101ff0149de00"  # CARD with a 1-byte payload
    assert decode(unknown, short_card, "0201", status=1) == [
        {"error": "unknown frame type 0x77"},
        {"error": "CARD payload is 1 bytes, expected 6"},
        {"error": "capture ends without a 00 delimiter"},
    ]


def test_an_argument_that_is_not_hex_is_an_error_on_stderr_with_status_2() -> None:
    """Issue 26 item 14: it was a JSON line on stdout, with status 0."""
    assert run_cli_err("zz") == (
        2, [], "", "firmware-bridge: decode: argument 1 is not hex: non-hexadecimal number found in fromhex()"
        " arg at position 0\n")
    status, objects, _, stderr = run_cli_err(WIRE["ack"], "not-hex")   # the others still decoded
    assert (status, objects) == (2, EXPECTED["ack"])
    assert stderr.startswith("firmware-bridge: decode: argument 2 is not hex: ")
