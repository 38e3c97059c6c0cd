"""A reference-firmware board run on MicroPython's WebAssembly port under Node, behind a real pty.

:class:`VmBoard` starts ``node vm.mjs`` (the firmware's files and the fake hardware inside MicroPython,
vmboard.py) and bridges the Node process's stdin and stdout to the master end of a pty
(firmware_bridge.simulator.pty_port), where the host's HostLink connects as to a Pico's USB serial port.
The physical world is commanded over a pipe (JSON lines; the answers come back on the process's stderr).
:meth:`VmBoard.power_cut` kills the process and unplugs the port (the board's RAM is gone, as on a Pico
whose USB power is cut); :meth:`VmBoard.power_on` plugs it again and boots a new VM.

Node and the npm package come from tests/node_packages.sh (``make test``); :func:`unavailable` says why
the VM cannot run when they are missing, for the tests to skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from firmware_bridge.firmware import FOLDER as FIRMWARE
from firmware_bridge.firmware_host import machine_fake
from firmware_bridge.simulator.pty_port import PtyPort

HERE = Path(__file__).parent
PACKAGE = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
FAKES = Path(machine_fake.__file__).parent
PICO_HEAP = 190 * 1024
"""The free heap of MicroPython on a Raspberry Pi Pico (rp2, RP2040), docs/boards.md, "Memory"."""
TIMEOUT = 60.0


def unavailable() -> str | None:
    """Why the VM cannot run here (no Node, or the npm package not installed), or None."""
    if shutil.which("node") is None:
        return "node is not installed (tests/node_packages.sh installs it from Debian as root)"
    if not PACKAGE.is_file():
        return "the npm package @micropython/micropython-webassembly-pyscript is not installed " \
               "(tests/node_packages.sh: npm ci in tests/firmware/vm)"
    return None


class VmBoard:
    """The firmware of ``config`` (board.json) on MicroPython in Node, on a pty at ``link``."""

    def __init__(self, config: dict[str, Any], link: Path, heap: int = PICO_HEAP) -> None:
        self.config = config
        self.link = link
        self.heap = heap
        self.errors: list[str] = []
        """What the VM said on stderr that was not an answer (a Python traceback, a crash)."""
        self._port: PtyPort | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._control: int | None = None
        self._replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> str:
        """Plug the port in and boot; the path for the host."""
        self._port = PtyPort(asyncio.get_running_loop(), self.link, self._from_host)
        path = self._port.plug()
        await self._boot()
        return path

    async def _boot(self) -> None:
        read, self._control = os.pipe()
        self._process = await asyncio.create_subprocess_exec(
            "node", str(HERE / "vm.mjs"), str(FIRMWARE), str(FAKES), str(HERE), json.dumps(self.config),
            str(self.heap), str(machine_fake.PWRON_RESET), str(read), cwd=HERE, pass_fds=(read,),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        os.close(read)
        process = self._process
        self._tasks = [asyncio.create_task(self._to_host(process)), asyncio.create_task(self._said(process))]

    def _from_host(self) -> None:
        assert self._port is not None
        data = self._port.read()
        process = self._process
        if data and process is not None and process.stdin is not None and process.returncode is None:
            process.stdin.write(data)

    async def _to_host(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        while data := await process.stdout.read(65536):
            if self._port is not None:
                self._port.write(data)

    async def _said(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        async for raw in process.stderr:
            line = raw.decode(errors="replace").rstrip("\n")
            if line.startswith("reply "):
                self._replies.put_nowait(json.loads(line[6:]))
            else:
                self.errors.append(line)

    async def command(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """A command of the physical world (vmboard.command); its answer."""
        assert self._control is not None
        os.write(self._control, (json.dumps({"cmd": cmd, **fields}) + "\n").encode())
        reply = asyncio.create_task(self._replies.get())
        done, _ = await asyncio.wait({reply}, timeout=TIMEOUT)
        if not done:
            reply.cancel()
            raise AssertionError(f"the VM did not answer {cmd}: {self.errors}")
        return reply.result()

    async def power_cut(self) -> None:
        """The board loses power: the VM is killed, the port vanishes."""
        process = self._process
        if process is not None and process.returncode is None:
            process.kill()
            await process.wait()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._control is not None:
            os.close(self._control)
            self._control = None
        self._process = None
        if self._port is not None:
            self._port.unplug()

    async def power_on(self) -> None:
        """Power comes back: the port is there again and a new VM boots."""
        assert self._port is not None
        self._port.plug()
        await self._boot()

    async def close(self) -> None:
        """Power off for good."""
        await self.power_cut()
