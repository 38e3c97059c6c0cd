#!/usr/bin/env bash
# Install, upgrade or uninstall table-controller on Raspberry Pi OS (Bookworm, 64-bit).
#
#   sudo deploy/install.sh                     install; on an installed table, upgrade
#   sudo deploy/install.sh install --with-screen   the same, and the dealer screen on the Pi's
#                                              display: cage and Chromium, its two units enabled
#   sudo deploy/install.sh uninstall           remove the program; keep configuration, keys, journal
#   sudo deploy/install.sh uninstall --purge --confirm-table T07
#                                              remove those too, and the table user (the
#                                              table's id, from its configuration, confirms it)
#   DESTDIR=/tmp/stage deploy/install.sh [uninstall [--purge --confirm-table ID]]
#                                              the same into a staging root, as any user
#   deploy/install.sh packages [--with-screen] the system packages install would take here
#   deploy/install.sh --help                   this text
#
# Upgrade replaces the program and rewrites its manifest; it keeps the configuration,
# the chip registry, the udev rules, the keys and the journal, and puts their owners
# and modes back to those below (the daemon refuses files open to others).
#
# With DESTDIR nothing outside it is touched: no packages, users, chown, systemctl or
# udevadm. The owner each file would get is recorded instead, one line per path in
# $DESTDIR/.install-owners: "MODE OWNER:GROUP PATH" (a PATH ending in / stands for its
# whole tree, the virtual environment).
#
# The dependencies are installed from deploy/requirements.lock alone (with --with-screen,
# deploy/requirements-web.lock: the same and aiohttp's), each pinned with the hashes of
# its files (pip --require-hashes: a wheel that does not match is refused and nothing
# is installed), then the program itself with no dependency resolution.
#
# PYTHON is the interpreter of the virtual environment (default python3). PIP_OPTIONS
# go to pip, e.g. PIP_OPTIONS="--no-index --find-links /media/usb/wheels" on a Pi
# without internet.
set -euo pipefail
umask 022

SOURCE=$(cd "$(dirname "$0")/.." && pwd)
DESTDIR=${DESTDIR:-}
DESTDIR=${DESTDIR%/}
PYTHON=${PYTHON:-python3}
PIP_OPTIONS=${PIP_OPTIONS:-}
USER_NAME=table
PREFIX=/opt/table-controller
VENV=$PREFIX/venv
CONF=/etc/table-controller
STATE=/var/lib/table-controller
UNITS=/etc/systemd/system
SERVICE=table-controller.service
TIMER=table-controller-retry.timer
SCREEN=table-controller-screen.service
KIOSK=table-controller-kiosk.service
SCREEN_USER=table-screen
KIOSK_USER=table-kiosk
WITH_SCREEN=no
RULES=/etc/udev/rules.d/70-table-devices.rules
MODULES=/etc/modules-load.d/table-controller.conf
OWNERS=$DESTDIR/.install-owners
BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT

say() { printf 'install.sh: %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }
USAGE="usage: $0 [install [--with-screen] | uninstall [--purge --confirm-table ID] | --help]"
usage() { say "$*" >&2; say "$USAGE" >&2; exit 2; }
staging() { [ -n "$DESTDIR" ]; }

# own MODE OWNER:GROUP PATH: give PATH its mode and owner (staging: record the owner).
own() {
    chmod "$1" "$DESTDIR$3"
    if staging; then
        printf '%s %s %s\n' "$1" "$2" "$3" >>"$OWNERS"
    else
        chown "$2" "$3"
    fi
}
# folder MODE OWNER:GROUP PATH: a folder of ours.
folder() { mkdir -p "$DESTDIR$3"; own "$@"; }
# system PATH: a system folder (/etc/systemd/system ...), made only in a staging root.
system() { mkdir -p "$DESTDIR$1"; }
# command PATH TARGET: a symbolic link to a command of the program (recorded as 0777).
command_link() {
    mkdir -p "$(dirname "$DESTDIR$1")"
    ln -sfn "$2" "$DESTDIR$1"
    if staging; then
        printf '%s %s %s\n' 0777 root:root "$1" >>"$OWNERS"
    else
        chown -h root:root "$1"
    fi
}
# put MODE OWNER:GROUP SOURCE PATH: install a file of the program, replacing the old one.
put() { install -m "$1" "$SOURCE/$3" "$DESTDIR$4"; own "$1" "$2" "$4"; }
# keep MODE OWNER:GROUP SOURCE PATH: install a file of the table's own only when missing.
keep() {
    [ -e "$DESTDIR$4" ] || install -m "$1" "$SOURCE/$3" "$DESTDIR$4"
    own "$1" "$2" "$4"
}

# Package names differ between Raspberry Pi OS and Debian: Chromium is chromium-browser on
# Raspberry Pi OS (and chromium on its newer releases), chromium on Debian; python3-lgpio is
# Raspberry Pi OS's alone. Each wanted package is a list of candidates, "a|b": the first
# that this system's package lists can install is taken; none, and it is skipped, saying so.
installable() {  # whole output first: grep -q would end apt-cache early, a failure under pipefail
    local policy
    policy=$(apt-cache policy "$1" 2>/dev/null || true)
    grep -q '^ *Candidate: [^(]' <<<"$policy"
}
choose_packages() {  # print the packages to install, one per line; say each one skipped on stderr
    local wanted candidate found
    for wanted in "$@"; do
        found=""
        for candidate in ${wanted//|/ }; do
            if installable "$candidate"; then found=$candidate; break; fi
        done
        if [ -n "$found" ]; then
            printf '%s\n' "$found"
        else
            say "skipped: no package ${wanted//|/ or } in this system's package lists" >&2
        fi
    done
}
apt_install() {  # install the first installable candidate of each argument ("a|b")
    local chosen
    chosen=$(choose_packages "$@")
    [ -n "$chosen" ] || return 0
    say "packages: $(printf '%s' "$chosen" | tr '\n' ' ')"
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $chosen
}
BASE_PACKAGES=("python3-venv" "python3-lgpio")
SCREEN_PACKAGES=("cage" "chromium-browser|chromium")

prepare_system() {
    [ "$(id -u)" = 0 ] || die "run as root (sudo), or with DESTDIR=<folder> for a staging root"
    if command -v apt-get >/dev/null; then
        apt-get update -qq
        apt_install "${BASE_PACKAGES[@]}"
    fi
    getent group gpio >/dev/null || groupadd --system gpio
    if ! id "$USER_NAME" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin "$USER_NAME"
    fi
    usermod -a -G dialout,gpio "$USER_NAME"
    # The screen server reads the table's configuration (group table), nothing else of it.
    if ! id "$SCREEN_USER" >/dev/null 2>&1; then
        useradd --system --user-group --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin "$SCREEN_USER"
    fi
    usermod -a -G "$USER_NAME" "$SCREEN_USER"
    if [ "$WITH_SCREEN" = yes ]; then
        if command -v apt-get >/dev/null; then
            apt_install "${SCREEN_PACKAGES[@]}"
        fi
        # The kiosk's session gets the display, the GPU and the touch screen through logind.
        if ! id "$KIOSK_USER" >/dev/null 2>&1; then
            useradd --system --user-group --no-create-home --home-dir /var/lib/"$KIOSK_USER" \
                --shell /usr/sbin/nologin "$KIOSK_USER"
        fi
        usermod -a -G video,render,input "$KIOSK_USER"
    fi
}

install_program() {
    folder 0755 root:root "$PREFIX"
    # Built from a clean copy: the checkout gets no build/ or egg-info of root's.
    tar -C "$SOURCE" --exclude=__pycache__ -cf - pyproject.toml README.md controller drivers \
        firmware_bridge | tar -C "$BUILD" -xf -
    "$PYTHON" -m venv --clear --system-site-packages "$DESTDIR$VENV"
    # Every dependency (and setuptools, to build the program with) as locked, from wheels, into the venv
    # even when the system's site-packages has the same version; then the program, built with that
    # setuptools and nothing else fetched. The dealer screen's server needs aiohttp: the screen extra,
    # in the web lock.
    local lock=requirements.lock
    [ "$WITH_SCREEN" = yes ] && lock=requirements-web.lock
    # shellcheck disable=SC2086  # PIP_OPTIONS is a list of options
    "$DESTDIR$VENV/bin/python" -m pip install --quiet --disable-pip-version-check $PIP_OPTIONS \
        --require-hashes --only-binary=:all: --force-reinstall -r "$SOURCE/deploy/$lock"
    # shellcheck disable=SC2086
    "$DESTDIR$VENV/bin/python" -m pip install --quiet --disable-pip-version-check $PIP_OPTIONS \
        --no-index --no-deps --no-build-isolation --check-build-dependencies "$BUILD"
    # Byte code that Python checks against the source at every import: the manifest's hashes of
    # the sources then cover what really runs (a changed .pyc alone is never used).
    "$DESTDIR$VENV/bin/python" -I -m compileall -q -f --invalidation-mode checked-hash \
        "$("$DESTDIR$VENV/bin/python" -I -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"/{controller,drivers,firmware_bridge}
    if staging; then
        # Scripts name their interpreter as it will be on the table, not in the staging root.
        grep -rlIF "$DESTDIR$VENV" "$DESTDIR$VENV/bin" | while read -r script; do
            sed -i "s|$DESTDIR$VENV|$VENV|g" "$script"
        done
        printf '%s %s %s\n' 0755 root:root "$VENV/" >>"$OWNERS"
    else
        chown -R root:root "$VENV"
    fi
    put 0644 root:root README.md "$PREFIX/README.md"
    command_link /usr/local/bin/table-controller "$VENV/bin/table-controller"
    rm -f "$DESTDIR$PREFIX/manifest.json"
    "$DESTDIR$VENV/bin/python" -I -m controller.cli manifest --output "$DESTDIR$PREFIX/manifest.json" >/dev/null
    own 0444 root:root "$PREFIX/manifest.json"
}

install_configuration() {
    folder 0750 root:"$USER_NAME" "$CONF"
    keep 0640 root:"$USER_NAME" deploy/table.toml "$CONF/table.toml"
    keep 0640 root:"$USER_NAME" deploy/chips.csv "$CONF/chips.csv"
    folder 0750 root:"$USER_NAME" "$CONF/keys"
    folder 0750 root:"$USER_NAME" "$CONF/keys/clients"
    if [ ! -e "$DESTDIR$CONF/keys/table.key_secret" ]; then
        "$DESTDIR$VENV/bin/python" -I -m controller.cli keys generate --dir "$DESTDIR$CONF/keys" >/dev/null
    fi
    own 0600 "$USER_NAME:$USER_NAME" "$CONF/keys/table.key_secret"
    own 0644 root:"$USER_NAME" "$CONF/keys/table.key"
    local client
    for client in "$DESTDIR$CONF"/keys/clients/*.key; do
        if [ -e "$client" ]; then own 0644 root:"$USER_NAME" "${client#"$DESTDIR"}"; fi
    done
    # The journal holds face-down cards: only the table user may read it (the daemon keeps it 0700 too).
    folder 0700 "$USER_NAME:$USER_NAME" "$STATE"
}

install_system_files() {
    system "$UNITS"
    put 0644 root:root "systemd/$SERVICE" "$UNITS/$SERVICE"
    put 0644 root:root "systemd/$TIMER" "$UNITS/$TIMER"
    put 0644 root:root "systemd/$SCREEN" "$UNITS/$SCREEN"
    put 0644 root:root "systemd/$KIOSK" "$UNITS/$KIOSK"
    browser=$(command -v chromium-browser || command -v chromium || true)
    if ! staging && [ -n "$browser" ] && [ "$browser" != /usr/bin/chromium-browser ]; then
        say "the kiosk runs $browser"              # Debian's Chromium, not Raspberry Pi OS's name
        sed -i "s|/usr/bin/chromium-browser |$browser |" "$UNITS/$KIOSK"
    fi
    system "$(dirname "$RULES")"
    keep 0644 root:root deploy/70-table-devices.rules "$RULES"
    system "$(dirname "$MODULES")"
    put 0644 root:root deploy/modules-load.conf "$MODULES"
}

install_all() {
    local upgrade=no
    [ -e "$DESTDIR$VENV" ] && upgrade=yes
    if staging; then
        mkdir -p "$DESTDIR"
        : >"$OWNERS"
    else
        prepare_system
        if [ "$upgrade" = yes ]; then systemctl stop "$SERVICE" "$TIMER" || true; fi
    fi
    install_program
    install_configuration
    install_system_files
    if ! staging; then
        modprobe -a cdc_acm usbserial || say "could not load cdc_acm and usbserial now; they load at boot"
        udevadm control --reload-rules
        udevadm trigger --subsystem-match=tty --subsystem-match=gpio
        systemctl daemon-reload
        systemctl enable --now "$SERVICE"
        if [ "$WITH_SCREEN" = yes ]; then
            systemctl set-default graphical.target
            systemctl enable --now "$SCREEN" "$KIOSK"
        fi
    fi
    [ "$upgrade" = yes ] && say "upgraded in ${DESTDIR:-/}" || say "installed in ${DESTDIR:-/}"
    say "the table's CURVE public key (for the pit): $CONF/keys/table.key"
    say "next: edit $CONF/table.toml, $CONF/chips.csv and $RULES, then: systemctl restart $SERVICE"
}

# table_id: the table's id in its configuration (empty if there is none to read).
table_id() {
    "$PYTHON" -I -c 'import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        print(tomllib.load(f)["table"]["id"])
except (OSError, ValueError, KeyError, TypeError):
    pass' "$DESTDIR$CONF/table.toml"
}

# confirm_purge CONFIRMED: refuse a purge unless CONFIRMED names the table in its configuration.
confirm_purge() {
    local table
    table=$(table_id)
    [ -n "$table" ] || usage "no table id can be read from $CONF/table.toml to confirm a purge with;" \
        "remove $CONF and $STATE by hand if that is really meant"
    if [ -z "$1" ]; then
        usage "a purge deletes the journal of table $table (every hand played) with the configuration" \
            "and keys; to go on: $0 uninstall --purge --confirm-table $table"
    fi
    [ "$1" = "$table" ] || usage "this is table $table, not $1: $0 uninstall --purge --confirm-table $table"
}

uninstall_all() {
    local purge=no confirmed=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --purge) purge=yes ;;
            --confirm-table) confirmed=${2:-}; [ $# -gt 1 ] && shift ;;
            *) usage "unknown option $1" ;;
        esac
        shift
    done
    [ "$purge" = yes ] && confirm_purge "$confirmed"
    [ "$purge" = yes ] || [ -z "$confirmed" ] || usage "--confirm-table goes with --purge"
    if ! staging; then
        [ "$(id -u)" = 0 ] || die "run as root (sudo), or with DESTDIR=<folder> for a staging root"
        systemctl disable --now "$SERVICE" "$SCREEN" "$KIOSK" || true
        systemctl stop "$TIMER" || true
    fi
    rm -rf "$DESTDIR$VENV"
    rm -f "$DESTDIR$PREFIX/manifest.json" "$DESTDIR$PREFIX/README.md" "$DESTDIR$UNITS/$SERVICE" \
        "$DESTDIR$UNITS/$TIMER" "$DESTDIR$UNITS/$SCREEN" "$DESTDIR$UNITS/$KIOSK" "$DESTDIR$MODULES" \
        "$DESTDIR/usr/local/bin/table-controller"
    rmdir "$DESTDIR$PREFIX" 2>/dev/null || true
    if [ "$purge" = yes ]; then
        rm -rf "$DESTDIR$CONF" "$DESTDIR$STATE"
        rm -f "$DESTDIR$RULES"
        local user
        for user in "$SCREEN_USER" "$KIOSK_USER" "$USER_NAME"; do
            staging || ! id "$user" >/dev/null 2>&1 || userdel "$user"
        done
        say "removed, with the configuration, the keys, the udev rules and the journal"
    else
        say "removed; kept $CONF (configuration, chip registry, keys), $RULES and $STATE (the journal)"
    fi
    if staging; then
        # The record keeps only what is still there.
        local line kept=""
        while read -r line; do
            [ -e "$DESTDIR${line##* }" ] && kept+="$line"$'\n'
        done <"$OWNERS"
        printf '%s' "$kept" >"$OWNERS"
    else
        systemctl daemon-reload
        udevadm control --reload-rules
    fi
}

case "${1:-install}" in
    install | upgrade)
        case "${2:-}" in
            "") ;;
            --with-screen) WITH_SCREEN=yes ;;
            *) usage "unknown option $2" ;;
        esac
        install_all ;;
    uninstall) shift; uninstall_all "$@" ;;
    packages)  # the system packages this machine would get, as install chose them
        shift
        choose_packages "${BASE_PACKAGES[@]}"
        [ "${1:-}" != --with-screen ] || choose_packages "${SCREEN_PACKAGES[@]}" ;;
    -h | --help | help)
        printf '%s\n\n' "$USAGE"
        sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0" ;;  # the comment at the top of this file
    *) usage "unknown command ${1:-}" ;;
esac
