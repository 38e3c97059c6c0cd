#!/bin/sh
# Called by `make test`: the programs tests use as real parts, from Debian: headless Chromium and its
# driver and the PostgreSQL server (the monitor's tests), systemd-analyze (the unit's tests, in Debian's
# systemd package); the optical shoe's deck designs (tests/optical/decks.sh). Installed when missing and
# we are root; otherwise the tests that need them skip and say why.
sh "$(dirname "$0")/optical/decks.sh"     # the optical shoe's deck designs and their renderer
need=""
command -v systemd-analyze >/dev/null 2>&1 || need="$need systemd"
[ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1 || need="$need chromium"
[ -x /usr/bin/chromedriver ] || command -v chromedriver >/dev/null 2>&1 || need="$need chromium-driver"
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$need postgresql"
[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "system packages missing:$need (not root or no apt-get): the tests that need them will skip" >&2
    exit 0
fi
echo "installing system packages:$need" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -q && apt-get install -y -q $need; } >/tmp/table-controller-apt.log 2>&1; then
    echo "apt-get install$need failed (see /tmp/table-controller-apt.log): the tests that need them will skip" >&2
fi
exit 0
