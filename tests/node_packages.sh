#!/bin/sh
# Called by `make test`: MicroPython's WebAssembly port (npm @micropython/micropython-webassembly-pyscript,
# pinned with its integrity hash in tests/firmware/vm/package-lock.json) under Node, for the firmware's
# tests on a real MicroPython (tests/firmware/test_micropython_vm.py). Node and npm from Debian when
# missing and we are root; otherwise, or when the install fails, those tests skip and say why.
vm="$(dirname "$0")/firmware/vm"
[ -f "$vm/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs" ] && exit 0
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "node/npm missing (not root or no apt-get): the MicroPython VM tests will skip" >&2
        exit 0
    fi
    echo "installing system packages: nodejs npm" >&2
    if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; } \
            >/tmp/table-controller-apt-node.log 2>&1; then
        echo "apt-get install nodejs npm failed (see /tmp/table-controller-apt-node.log):" \
             "the MicroPython VM tests will skip" >&2
        exit 0
    fi
fi
if ! (cd "$vm" && npm ci --no-audit --no-fund --ignore-scripts) >/tmp/table-controller-npm.log 2>&1; then
    echo "npm ci in $vm failed (see /tmp/table-controller-npm.log): the MicroPython VM tests will skip" >&2
fi
exit 0
