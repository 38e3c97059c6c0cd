"""End to end: a command sent again with the same ``request_id`` is carried out once, through the real
daemon, after an answer that never came back and across a SIGKILL and a restart; another id books
again; a bad id, or an id used for another command, is refused saying why (issue 26 item 6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import zmq

from controller.commands.table import TrayFill
from controller.games.parts.stacks import BuyIn, TopUp
from controller.security.supervisor_pins import hash_pin
from tests.rigs.daemon_rig import TableRig, chip

GAME = 'stakes = "10/20/20-100"\nchip_unit = 500\nmin_buy_in = 2000\n'
PIN = "60417293"
TRAY = 32
BUTTONS = ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void")


def stack(rig: TableRig, seat: int) -> int | None:
    """The seat's stack in the table's state now."""
    seats = rig.pit.control({"cmd": "state"})["state"]["seats"]
    found: int | None = next(s for s in seats if s["seat"] == seat).get("stack")
    return found


def lost_answer(rig: TableRig, request: dict[str, Any]) -> None:
    """Send ``request`` and go away without its answer, as a client whose wait ran out does."""
    req = rig.pit.context.socket(zmq.REQ)
    req.setsockopt(zmq.LINGER, 1000)
    req.connect(rig.endpoints[2])
    req.send(json.dumps(request).encode())
    req.close()


def stack_events(rig: TableRig) -> list[dict[str, Any]]:
    """The ``seat.stack`` events published since the last look."""
    return [e["data"] for e in rig.pit.drain() if e["type"] == "seat.stack"]


def test_a_retry_with_the_same_id_books_once_even_across_a_kill_and_another_id_books_again(
        tmp_path: Path) -> None:
    rig = TableRig(tmp_path, game=GAME, game_name="holdem-blackjack", spots=("bet",), buttons=BUTTONS,
                   supervisors={"S101": hash_pin(PIN)})
    try:
        rig.start(wait_online=False)
        first = BuyIn(seat=3, amount=20000).to_request(request_id="buy-3")
        assert rig.pit.control(first) == {"ok": True}
        assert rig.pit.control(first) == {"ok": True}          # the first answer, not "already has a stack"
        top_up = TopUp(seat=3, amount=5000).to_request(request_id="top-3a")
        lost_answer(rig, top_up)                                 # carried out; its answer never read
        assert rig.next("seat.stack", reason="rebuy")["data"] == {"seat": 3, "amount": 25000,
                                                                  "reason": "rebuy"}
        assert rig.pit.control(top_up) == {"ok": True}          # the retry
        assert stack(rig, 3) == 25000
        assert stack_events(rig) == []                          # nothing booked twice

        assert rig.kill() == -9
        rig.start(wait_online=False)
        assert rig.pit.control(top_up) == {"ok": True}          # remembered from the journal
        assert rig.pit.control(first) == {"ok": True}
        assert stack(rig, 3) == 25000
        again = TopUp(seat=3, amount=5000).to_request(request_id="top-3b")
        assert rig.pit.control(again) == {"ok": True}           # another id: another top-up
        assert stack(rig, 3) == 30000
        assert [e for e in stack_events(rig) if e["reason"] == "rebuy"] == [
            {"seat": 3, "amount": 30000, "reason": "rebuy"}]

        other = TopUp(seat=3, amount=9000).to_request(request_id="top-3b")
        assert rig.pit.control(other) == {
            "ok": False, "error": "request_id 'top-3b' was used for another command: send this one "
                                  "with a new id"}
        bad = TopUp(seat=3, amount=100).to_request(request_id="top up 3")
        assert rig.pit.control(bad) == {
            "ok": False, "error": "request_id must be 1 to 64 letters, digits or . _ : - (one id per "
                                  "action, the same for its retries)"}
        assert rig.pit.control({**bad, "request_id": "x" * 65})["ok"] is False
        assert rig.pit.control({"cmd": "links", "request_id": "r1"}) == {
            "ok": False, "error": "links changes nothing: it takes no request_id"}
        assert stack(rig, 3) == 30000
    finally:
        rig.close()
    assert "top_up: request_id 'top-3a' was carried out already" in rig.log_text()


def test_a_refused_command_keeps_no_id_and_a_supervisors_fill_books_once(tmp_path: Path) -> None:
    """A refusal changes nothing, so its id is not kept: sent again once it can be taken, it is
    taken. A supervisor's command is checked for its PIN before its id is looked up."""
    rig = TableRig(tmp_path, game=GAME, game_name="holdem-blackjack", spots=("bet",), buttons=BUTTONS,
                   supervisors={"S101": hash_pin(PIN)})
    try:
        rig.start(wait_online=False)
        top_up = TopUp(seat=2, amount=5000).to_request(request_id="t2")
        assert rig.pit.control(top_up)["error"] == "top_up: seat 2 has no stack: buy in first"
        assert rig.pit.control(BuyIn(seat=2, amount=20000).to_request()) == {"ok": True}
        assert rig.pit.control(top_up) == {"ok": True}
        assert rig.pit.control(top_up) == {"ok": True}
        assert stack(rig, 2) == 25000

        fill = TrayFill(50000).to_request(supervisor="S101", pin="0000", request_id="fill-1")
        assert rig.pit.control(fill) == {"ok": False, "error": "wrong supervisor id or PIN"}
        fill["pin"] = PIN                                        # no tray: refused, its id not kept
        assert rig.pit.control(fill)["error"] == (
            'tray_fill: this table has no tray: configure its antenna as "tray" in [antennas]')
    finally:
        rig.close()


def test_a_fill_whose_answer_was_lost_is_booked_once_across_a_kill(tmp_path: Path) -> None:
    rig = TableRig(tmp_path, tray=TRAY, supervisors={"S101": hash_pin(PIN)})
    try:
        rig.start()
        rig.rfid.cmd("place", antenna=TRAY, chips=[chip("c", 1)])
        rig.next("tray.counted")
        fill = TrayFill(5000).to_request(supervisor="S101", pin=PIN, request_id="fill-7")
        lost_answer(rig, fill)
        assert rig.next("tray.fill")["data"]["expected"] == 15000
        assert rig.pit.control(fill) == {"ok": True}
        assert rig.kill() == -9
        rig.start()
        assert rig.pit.control(fill) == {"ok": True}
        assert [e for e in rig.pit.drain() if e["type"] == "tray.fill"] == []
        tray = rig.pit.control({"cmd": "state"})["state"]["tray"]
        assert tray["expected"] == 15000                          # one fill of $50.00, not two
    finally:
        rig.close()
