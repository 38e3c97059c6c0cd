"""The board on MicroPython's unix port (a fixed heap, ``-X heapsize``), as vm.mjs runs it on the WebAssembly
port: the link on stdin/stdout, commands of the physical world as JSON lines on a pipe, their answers as
"reply JSON" lines on stderr (vm_board.VmBoard starts it, in a folder laid out as the board's filesystem).

``micropython -X heapsize=190wK unix_board.py FOLDER RESET_CAUSE CONTROL_FD``, the board's config in
FOLDER/board.json as on a Pico (an argument of a few hundred bytes crashes the port's CPython wrapper);
an RFID reader (the unix port's os has no urandom for the shoe's flash store, nor may one be set). It
runs on MicroPython only; under CPython (pytest imports every file) it only imports.
"""

import json
import os
import select
import sys

IDLE_MS = 10


def reply(text):
    sys.stderr.write("reply " + text + "\n")


def run(folder, cause, control_fd):
    sys.path.insert(0, folder)
    os.chdir(folder)
    import vmboard

    with open("board.json") as file:
        vmboard.start(file.read(), cause)
    with open("/dev/fd/" + str(control_fd), "rb") as control:
        serve(vmboard, control, control_fd)


def serve(vmboard, control, control_fd):
    """Poll the board as vm.mjs does: at once when the host's bytes or a command come, else when it asks."""
    stdin = sys.stdin.buffer
    waiting = select.poll()
    waiting.register(stdin, select.POLLIN)
    waiting.register(control, select.POLLIN)
    link = select.poll()
    link.register(stdin, select.POLLIN)
    wait, steps = 0, 0
    while True:
        ready = [fd for fd, _ in waiting.poll(wait)]
        data = bytearray()
        while link.poll(0):
            byte = stdin.read(1)
            if not byte:
                return
            data.extend(byte)
        if control in ready or any(fd == control_fd for fd in ready):
            line = control.readline()
            if not line:
                return
            request = json.loads(line)
            if request["cmd"] == "polls":       # as vm.mjs: one poll at a time, the live heap every 100
                for i in range(request["count"]):
                    vmboard.poll_alone()
                    if i % 100 == 99:
                        vmboard.live()
                reply("{}")
            else:
                reply(vmboard.command(line))
        out, wait = vmboard.step(bytes(data).hex()).split(" ")
        wait = int(wait)
        if out:
            sys.stdout.buffer.write(bytes.fromhex(out))
        steps += 1
        if steps % 100 == 0:
            vmboard.live()


if __name__ == "__main__":
    run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
