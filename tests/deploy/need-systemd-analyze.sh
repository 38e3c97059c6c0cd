#!/bin/sh
# Called by `make test`: the unit's tests (tests/deploy/test_unit.py) run systemd-analyze,
# which comes with Debian's systemd package. Installed here when missing, as root with
# apt-get; otherwise those tests are skipped and say why.
command -v systemd-analyze >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "systemd-analyze is missing: installing Debian's systemd package"
    if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        systemd >/dev/null; then
        exit 0
    fi
fi
echo "systemd-analyze is missing and could not be installed (needs root and apt-get):" \
    "the systemd unit's tests will be skipped"
exit 0
