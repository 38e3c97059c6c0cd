"""``firmware-bridge simulate shoe --reference-firmware`` as a subprocess: the simulator's command interface
over the reference firmware (the shoe, the RFID reader), a HostLink on its pty; commands with no physical
meaning refused."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import Card, CardUnreadable, Chip, Hello, Inventory, Message, ShoeLoaded

TIMEOUT = 10.0


async def start(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "firmware_bridge.cli", "simulate", *args, "--reference-firmware",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)


async def line(process: asyncio.subprocess.Process) -> dict[str, Any]:
    assert process.stdout is not None
    raw = await asyncio.wait_for(process.stdout.readline(), TIMEOUT)
    assert raw, "the board closed stdout"
    answer: dict[str, Any] = json.loads(raw)
    return answer


async def ask(process: asyncio.subprocess.Process, command: str) -> dict[str, Any]:
    assert process.stdin is not None
    process.stdin.write(command.encode() + b"\n")
    await process.stdin.drain()
    return await line(process)


async def test_the_reference_shoe_behind_the_simulators_commands(tmp_path: Path) -> None:
    link = tmp_path / "shoe"
    process = await start("shoe", "--link", str(link), "--seed", "4", "--decks", "2", "--serial", "SH-9",
                          "--firmware", "ref-test")
    delivered: list[Message] = []
    hellos: list[Hello] = []
    host = HostLink(str(link), on_message=delivered.append, on_online=hellos.append,
                    on_offline=lambda reason: None)
    try:
        assert await line(process) == {"pty": str(link)}
        await host.start()
        answer = await ask(process, '{"cmd": "load", "cards": ["As", "Kd", "Qh"], "cut_at": 0, "id": 7}')
        assert answer["ok"] and answer["id"] == 7 and answer["cards"] == 3
        assert (await ask(process, "unreadable"))["ok"]
        assert await ask(process, "draw 2") == {"ok": True, "drawn": 2, "position": 2, "remaining": 1}
        assert (await ask(process, "wait_idle 5"))["pending"] == 0
        shoe = [m for m in delivered if isinstance(m, ShoeLoaded | Card | CardUnreadable)]
        assert shoe == [ShoeLoaded(answer["shoe_id"], 2), CardUnreadable(1), Card(2, 13, 1)]
        assert [(h.kind, h.firmware, h.serial) for h in hellos] == [(1, "ref-test", "SH-9")]
        answer = await ask(process, "place 1 aa:5")
        assert answer["ok"] is False and "not an RFID board" in answer["error"]
        for refused in ("skip", "fault 1 x", "drop 0.5", "corrupt 0.1", "rx_drop 0.1",
                        '{"cmd": "send", "message": {"type": "CARD", "index": 1, "rank": 1, "suit": 0}}'):
            answer = await ask(process, refused)
            assert answer["ok"] is False and "--reference-firmware" in answer["error"], refused
        assert (await ask(process, "load 3"))["ok"] is False          # the board's config says 2 decks
        assert (await ask(process, "garbage"))["ok"]
        assert (await ask(process, "peek"))["ok"]
        status = await ask(process, "status")
        assert status["reference_firmware"] and status["in_session"]
        state = status["shoe"]
        assert (state["index"], state["garbage_lines"], state["remaining"]) == (2, 1, 1)
        assert (await ask(process, "unplug"))["ok"] and not link.exists()
        assert (await ask(process, "replug"))["pty"] == str(link)
        assert (await ask(process, "reboot"))["ok"]
        assert (await ask(process, "noise 100"))["bytes"] == 100
        assert (await ask(process, "quit"))["ok"]
        assert await asyncio.wait_for(process.wait(), TIMEOUT) == 0
        assert not link.exists()
    finally:
        await host.close()
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_the_reference_rfid_reader_behind_the_simulators_commands(tmp_path: Path) -> None:
    link = tmp_path / "rfid"
    process = await start("rfid", "--link", str(link), "--seed", "2")
    delivered: list[Message] = []
    host = HostLink(str(link), on_message=delivered.append, on_online=lambda hello: None,
                    on_offline=lambda reason: None)
    try:
        assert await line(process) == {"pty": str(link)}
        await host.start()
        chips = ('{"cmd": "place", "antenna": 3, '
                 '"chips": [["e004010000000a01", 500], ["e004010000000a02", 2500]]}')
        assert await ask(process, chips) == {"ok": True, "antenna": 3, "count": 2}
        assert (await ask(process, "wait_idle 5"))["pending"] == 0
        assert Inventory(3, (Chip("e004010000000a01", 500), Chip("e004010000000a02", 2500))) in delivered
        assert await ask(process, "remove 3 e004010000000a01") == {"ok": True, "antenna": 3, "count": 1}
        assert await ask(process, "clear 3") == {"ok": True, "antenna": 3, "count": 0}
        assert (await ask(process, "wait_idle 5"))["pending"] == 0
        assert [m for m in delivered if isinstance(m, Inventory) and m.antenna == 3][-1] == Inventory(3, ())
        answer = await ask(process, "place 33 e004010000000a01:500")        # the board reads 1 to 32
        assert answer["ok"] is False and "antenna 33" in answer["error"]
        answer = await ask(process, "draw")
        assert answer["ok"] is False and "not a shoe board" in answer["error"]
        status = await ask(process, "status")
        assert status["kind"] == "rfid" and status["rfid"]["antennas"]["3"] == []
        assert (await ask(process, "quit"))["ok"]
        assert await asyncio.wait_for(process.wait(), TIMEOUT) == 0
    finally:
        await host.close()
        if process.returncode is None:
            process.kill()
            await process.wait()
