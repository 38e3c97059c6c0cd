#!/usr/bin/env bash
# Install table-controller on a Raspberry Pi (Raspberry Pi OS / Debian), as root.
#   sudo deploy/install.sh            # from a checkout of this repository
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=/opt/table-controller

id table >/dev/null 2>&1 || useradd --system --home /var/lib/table-controller --shell /usr/sbin/nologin table
getent group gpio >/dev/null || groupadd --system gpio
usermod -a -G dialout,gpio table

python3 -m venv "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install --quiet --upgrade pip
"$PREFIX/venv/bin/pip" install --quiet .
install -m 0644 README.md "$PREFIX/README.md"
# The hashes of the installed files: the daemon checks them at start ([integrity] manifest).
"$PREFIX/venv/bin/table-controller" manifest --output "$PREFIX/manifest.json"
chmod 0444 "$PREFIX/manifest.json"

install -d -m 0755 /etc/table-controller
[ -e /etc/table-controller/table.toml ] || install -m 0640 -g table deploy/table.toml /etc/table-controller/table.toml
[ -e /etc/table-controller/chips.csv ] || install -m 0640 -g table deploy/chips.csv /etc/table-controller/chips.csv
# The journal holds face-down cards: only the table user may read it (the daemon enforces 0700 too).
install -d -m 0700 -o table -g table /var/lib/table-controller
chmod 0700 /var/lib/table-controller

install -m 0644 systemd/table-controller.service /etc/systemd/system/table-controller.service
install -m 0644 systemd/99-table-devices.rules /etc/udev/rules.d/99-table-devices.rules
udevadm control --reload-rules || true
systemctl daemon-reload
echo "Edit /etc/table-controller/table.toml and chips.csv, then: systemctl enable --now table-controller"
