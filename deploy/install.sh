#!/usr/bin/env bash
# Install, upgrade or uninstall table-controller on Raspberry Pi OS (Bookworm, 64-bit).
#
#   sudo deploy/install.sh                     install; on an installed table, upgrade
#   sudo deploy/install.sh install --with-screen   the same, and the dealer screen on the Pi's
#                                              display: cage and Chromium, its two units enabled
#   sudo deploy/install.sh install --with-optical  the same, and numpy and OpenCV for the optical
#                                              shoe (with --with-screen too: both)
#   sudo deploy/install.sh status              the version that runs, the one kept, any left over
#   sudo deploy/install.sh rollback            back to the version kept (again: forward)
#   sudo deploy/install.sh uninstall           remove the program; keep configuration, keys, journal
#   sudo deploy/install.sh uninstall --purge --confirm-table T07
#                                              remove those too, and the table user (the
#                                              table's id, from its configuration, confirms it)
#   DESTDIR=/tmp/stage deploy/install.sh [status | rollback | uninstall [--purge --confirm-table ID]]
#                                              the same into a staging root (an absolute path), as any user
#   deploy/install.sh packages [--with-screen] the system packages install would take here
#   deploy/install.sh --help                   this text
#
# Upgrade builds the new version beside the one that runs, in a folder of its own
# (/opt/table-controller/versions/VERSION), and switches to it (one symbolic link,
# /opt/table-controller/current, replaced by a rename) only once every wheel is installed,
# the byte code compiled and verify passes against its manifest. The service is stopped for
# the switch alone and started on the new version; if it does not report ready (sd_notify,
# within the unit's TimeoutStartSec) the switch is undone and the old version started again.
# A failed step before the switch (no network, a wheel missing or not matching, a full disk,
# a kill) leaves the version that runs as it was, and the service running. The previous
# version is kept for rollback; older ones are removed. Upgrade keeps the configuration,
# the chip registry, the udev rules, the keys and the journal, and puts their owners
# and modes back to those below (the daemon refuses files open to others).
#
# With DESTDIR nothing outside it is touched: no packages, users, chown, systemctl or
# udevadm, and no service is stopped or started (INSTALL_START_HOOK, when set, is a command
# run in place of the start, given the version's name: a failure undoes the switch as a
# start that never reports ready does; the tests use it). The owner each file would get is
# recorded instead, one line per path in $DESTDIR/.install-owners: "MODE OWNER:GROUP PATH"
# (a PATH ending in / stands for its whole tree, a version's folder), rewritten only by an
# install that succeeds.
#
# The dependencies are installed from deploy/requirements.lock alone (with --with-screen,
# deploy/requirements-web.lock: the same and aiohttp's; with --with-optical, also
# deploy/requirements-optical.lock: the table's pins and numpy's and OpenCV's), each pinned
# with the hashes of its files (pip --require-hashes: a wheel that does not match is refused
# and nothing is installed), then the program itself with no dependency resolution. The
# manifest names the extras installed (screen, optical), whose packages verify checks too.
# An upgrade keeps the extras of the version that runs (its manifest names them), with or without
# the options; an extra is added by naming it.
#
# PYTHON is the interpreter of the virtual environment (default python3). PIP_OPTIONS
# go to pip, e.g. PIP_OPTIONS="--no-index --find-links /media/usb/wheels" on a Pi
# without internet.
set -euo pipefail
umask 022

SOURCE=$(cd "$(dirname "$0")/.." && pwd)
DESTDIR=${DESTDIR:-}
DESTDIR=${DESTDIR%/}
case "$DESTDIR" in
    "" | /*) ;;
    *) printf 'install.sh: DESTDIR must be an absolute path, not %s\n' "$DESTDIR" >&2; exit 2 ;;
esac
PYTHON=${PYTHON:-python3}
PIP_OPTIONS=${PIP_OPTIONS:-}
USER_NAME=table
PREFIX=/opt/table-controller
VERSIONS=$PREFIX/versions
CURRENT=$PREFIX/current
PREVIOUS=$PREFIX/previous
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
WITH_OPTICAL=no
RULES=/etc/udev/rules.d/70-table-devices.rules
MODULES=/etc/modules-load.d/table-controller.conf
OWNERS=$DESTDIR/.install-owners
OWNERS_NEW=$OWNERS.new                  # written by an install, in place of OWNERS once it succeeded
BUILD=$(mktemp -d)
TARGET=""       # the version being installed
NEW=""          # its folder, removed on the way out unless switched to
STEP=""         # the step under way, named in the last line when it fails
SWITCHED=no     # NEW is the version that runs
STOPPED=no      # the service stopped by this script and not started again
# finish STATUS: on the way out. A failure removes the unfinished version, starts the service again
# if it was stopped, and says in one line what failed and what is still installed.
finish() {
    rm -rf "$BUILD"
    [ "$1" != 0 ] || return 0
    if [ -n "$NEW" ] && [ "$SWITCHED" = no ]; then
        rm -rf "$DESTDIR$NEW"
        rm -f "$OWNERS_NEW"
    fi
    if [ "$STOPPED" = yes ]; then systemctl start "$SERVICE" || true; fi
    if [ -n "$STEP" ]; then
        say "table-controller $TARGET was not installed: $STEP failed; nothing changed: $(still_installed)" >&2
    fi
}
trap 'finish $?' EXIT

say() { printf 'install.sh: %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }
USAGE="usage: $0 [install [--with-screen] [--with-optical] | status | rollback | uninstall [--purge --confirm-table ID] | --help]"
usage() { say "$*" >&2; say "$USAGE" >&2; exit 2; }
staging() { [ -n "$DESTDIR" ]; }

# own MODE OWNER:GROUP PATH: give PATH its mode and owner (staging: record the owner).
own() {
    chmod "$1" "$DESTDIR$3"
    if staging; then
        printf '%s %s %s\n' "$1" "$2" "$3" >>"$OWNERS_NEW"
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
        printf '%s %s %s\n' 0777 root:root "$1" >>"$OWNERS_NEW"
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

# The program, one folder per version: $VERSIONS/NAME holds its virtual environment (venv/), its
# manifest, README and units (system/), and last of all its release line (release), the mark that the
# version is complete. NAME is the program's version, with -2, -3 ... when that name is taken (the
# same version installed again). $CURRENT names the version that runs (a symbolic link, replaced by
# one rename: the switch); $PREVIOUS the one before, kept for a rollback; $VENV, the manifest and the
# README lead through $CURRENT. Links are relative, so a staging root holds a working table.

# link TARGET PATH: make PATH a symbolic link to TARGET in one rename (never missing, never half made).
link() {
    ln -sfn "$1" "$DESTDIR$2.new"
    mv -Tf "$DESTDIR$2.new" "$DESTDIR$2"
}
# link_name PATH: the version a link of ours names (empty when there is none).
link_name() {
    local target
    target=$(readlink "$DESTDIR$1" 2>/dev/null) || return 0
    printf '%s\n' "${target##*/}"
}
# release NAME: the release line of a version (empty when it is not complete).
release() { cat "$DESTDIR$VERSIONS/$1/release" 2>/dev/null || true; }
# legacy: whether the program is laid out as before versions were kept (a venv folder of its own).
legacy() { [ -d "$DESTDIR$VENV" ] && [ ! -L "$DESTDIR$VENV" ]; }
# legacy_version: the program's version in a legacy venv (from its metadata's folder name).
legacy_version() {
    local info
    for info in "$DESTDIR$VENV"/lib/python*/site-packages/table_controller-*.dist-info; do
        [ -d "$info" ] || continue
        info=${info##*/table_controller-}
        printf '%s\n' "${info%.dist-info}"
        return 0
    done
    printf 'unknown\n'
}
# free_name VERSION [RESERVED]: the first name for VERSION no folder of $VERSIONS has (nor RESERVED).
free_name() {
    local name=$1 n=1
    while [ -e "$DESTDIR$VERSIONS/$name" ] || [ "$name" = "${2:-}" ]; do
        n=$((n + 1))
        name=$1-$n
    done
    printf '%s\n' "$name"
}
# source_version: the version of the program in this checkout.
source_version() {
    "$PYTHON" -I -c 'import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print(tomllib.load(f)["project"]["version"])' "$SOURCE/pyproject.toml"
}
# still_installed: what runs when an install stops half way (for its last line).
still_installed() {
    local name
    name=$(link_name "$CURRENT")
    if [ -n "$name" ]; then
        printf '%s (%s) is still the installed version' "$(release "$name" | cut -d, -f1)" "$VERSIONS/$name"
    elif legacy; then
        printf 'table-controller %s (%s) is still the installed version' "$(legacy_version)" "$VENV"
    else
        printf 'nothing was installed'
    fi
}

# remove_unfinished: the folders left by an upgrade that never finished (killed, power lost), removed.
remove_unfinished() {
    local dir name
    for dir in "$DESTDIR$VERSIONS"/*/; do
        [ -d "$dir" ] || continue
        name=$(basename "$dir")
        if [ ! -e "$dir/release" ] && [ "$name" != "$(link_name "$CURRENT")" ] \
            && [ "$name" != "$(link_name "$PREVIOUS")" ]; then
            rm -rf "$dir"
            say "removed $VERSIONS/$name, left by an upgrade that did not finish"
        fi
    done
}
# remove_old: every version but the current and the previous one, removed.
remove_old() {
    local dir name
    for dir in "$DESTDIR$VERSIONS"/*/; do
        [ -d "$dir" ] || continue
        name=$(basename "$dir")
        if [ "$name" != "$(link_name "$CURRENT")" ] && [ "$name" != "$(link_name "$PREVIOUS")" ]; then
            rm -rf "$dir"
            say "removed the older version $name"
        fi
    done
}

# build_version NAME: the program built into $VERSIONS/NAME beside the one that runs, checked with
# verify against its own manifest; nothing that runs is touched. A step that fails leaves its name in
# STEP for the last line; the folder is removed on the way out (finish).
build_version() {
    local dir=$VERSIONS/$1
    local venv=$dir/venv
    local python=$DESTDIR$venv/bin/python
    NEW=$dir
    mkdir -p "$DESTDIR$dir"
    # Built from a clean copy: the checkout gets no build/ or egg-info of root's.
    STEP="copying the sources"
    tar -C "$SOURCE" --exclude=__pycache__ -cf - pyproject.toml README.md controller drivers \
        firmware_bridge | tar -C "$BUILD" -xf -
    STEP="making its virtual environment"
    "$PYTHON" -m venv --system-site-packages "$DESTDIR$venv"
    # Every dependency (and setuptools, to build the program with) as locked, from wheels, into the venv
    # even when the system's site-packages has the same version; then the program, built with that
    # setuptools and nothing else fetched. The dealer screen's server needs aiohttp: the screen extra,
    # in the web lock. The optical shoe needs numpy and OpenCV: the optical extra, in the optical lock
    # (the table's pins again, the same versions and hashes, and its own).
    local locks=(requirements.lock) extras=() lock requirements=() named=""
    if [ "$WITH_SCREEN" = yes ]; then locks=(requirements-web.lock); extras+=(--extra screen); fi
    if [ "$WITH_OPTICAL" = yes ]; then locks+=(requirements-optical.lock); extras+=(--extra optical); fi
    for lock in "${locks[@]}"; do
        requirements+=(-r "$SOURCE/deploy/$lock")
        named+="${named:+ and }deploy/$lock"
    done
    STEP="installing its dependencies (pip, $named)"
    # shellcheck disable=SC2086  # PIP_OPTIONS is a list of options
    "$python" -m pip install --quiet --disable-pip-version-check $PIP_OPTIONS \
        --require-hashes --only-binary=:all: --force-reinstall "${requirements[@]}"
    STEP="installing the program (pip)"
    # shellcheck disable=SC2086
    "$python" -m pip install --quiet --disable-pip-version-check $PIP_OPTIONS \
        --no-index --no-deps --no-build-isolation --check-build-dependencies "$BUILD"
    # Byte code that Python checks against the source at every import: the manifest's hashes of
    # the sources then cover what really runs (a changed .pyc alone is never used).
    STEP="compiling its byte code"
    "$python" -I -m compileall -q -f --invalidation-mode checked-hash \
        "$("$python" -I -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"/{controller,drivers,firmware_bridge}
    if staging; then
        STEP="naming the interpreter in its scripts"
        # Scripts name their interpreter as it will be on the table, not in the staging root.
        grep -rlIF "$DESTDIR$venv" "$DESTDIR$venv/bin" | while read -r script; do
            sed -i "s|$DESTDIR$venv|$venv|g" "$script"
        done
    fi
    STEP="writing its manifest"
    "$python" -I -m controller.cli manifest --output "$DESTDIR$dir/manifest.json" "${extras[@]}" >/dev/null
    chmod 0444 "$DESTDIR$dir/manifest.json"
    STEP="checking it against its manifest (table-controller verify)"
    if ! "$python" -I -m controller.cli verify >"$BUILD/verify.out" 2>&1; then
        grep -E 'FAIL|table-controller:' "$BUILD/verify.out" >&2 || true
        return 1
    fi
    STEP="copying its README and units"
    install -m 0644 "$SOURCE/README.md" "$DESTDIR$dir/README.md"
    mkdir -p "$DESTDIR$dir/system"
    local unit
    for unit in "$SERVICE" "$TIMER" "$SCREEN" "$KIOSK"; do
        install -m 0644 "$SOURCE/systemd/$unit" "$DESTDIR$dir/system/$unit"
    done
    STEP="running it (table-controller --version)"
    local version
    version=$("$python" -I -m controller.cli --version)
    staging || chown -R root:root "$DESTDIR$dir"
    STEP="marking it complete"
    printf '%s, built %s\n' "$version" "$(date -u '+%Y-%m-%d %H:%M UTC')" >"$DESTDIR$dir/release.new"
    mv -f "$DESTDIR$dir/release.new" "$DESTDIR$dir/release"
}

# migrate_legacy NAME: an install from before versions were kept becomes the version NAME (its venv
# and manifest moved into $VERSIONS/NAME, its units copied), so that a rollback can go back to it.
migrate_legacy() {
    local dir=$VERSIONS/$1 unit
    mkdir -p "$DESTDIR$dir/system"
    for unit in "$SERVICE" "$TIMER" "$SCREEN" "$KIOSK"; do
        [ ! -e "$DESTDIR$UNITS/$unit" ] || install -m 0644 "$DESTDIR$UNITS/$unit" "$DESTDIR$dir/system/$unit"
    done
    [ ! -e "$DESTDIR$PREFIX/README.md" ] || mv -f "$DESTDIR$PREFIX/README.md" "$DESTDIR$dir/README.md"
    [ ! -e "$DESTDIR$PREFIX/manifest.json" ] || mv -f "$DESTDIR$PREFIX/manifest.json" "$DESTDIR$dir/manifest.json"
    printf 'table-controller %s, installed before versions were kept\n' "$(legacy_version)" \
        >"$DESTDIR$dir/release"
    link "versions/$1" "$CURRENT"
    mv -T "$DESTDIR$VENV" "$DESTDIR$dir/venv"
    link current/venv "$VENV"
    say "the installed table-controller $(legacy_version) is kept as $dir"
}

# flip NAME: the switch. $CURRENT names NAME (one rename), the links through it are there, and the
# units are NAME's own.
flip() {
    link "versions/$1" "$CURRENT"
    [ -L "$DESTDIR$VENV" ] || link current/venv "$VENV"
    [ -L "$DESTDIR$PREFIX/manifest.json" ] || link current/manifest.json "$PREFIX/manifest.json"
    [ -L "$DESTDIR$PREFIX/README.md" ] || link current/README.md "$PREFIX/README.md"
    system "$UNITS"
    local unit
    for unit in "$SERVICE" "$TIMER" "$SCREEN" "$KIOSK"; do
        install -m 0644 "$DESTDIR$VERSIONS/$1/system/$unit" "$DESTDIR$UNITS/$unit.new"
        mv -f "$DESTDIR$UNITS/$unit.new" "$DESTDIR$UNITS/$unit"
    done
    browser=$(command -v chromium-browser || command -v chromium || true)
    if ! staging && [ -n "$browser" ] && [ "$browser" != /usr/bin/chromium-browser ]; then
        sed -i "s|/usr/bin/chromium-browser |$browser |" "$UNITS/$KIOSK"   # Debian's Chromium
    fi
    staging || systemctl daemon-reload
}

# stop_service: the service (and its retry timer, and the screen's server, which runs the same
# program) stopped for the switch; finish starts it again if the script stops before it does.
SCREEN_ACTIVE=no
stop_service() {
    staging && return 0
    systemctl is-active --quiet "$SCREEN" && SCREEN_ACTIVE=yes
    STOPPED=yes
    systemctl stop "$TIMER" "$SERVICE" "$SCREEN" || true
}
# started NAME: whether the service starts on NAME, the version $CURRENT names, and reports ready.
# Type=notify: systemctl start returns once the daemon said READY=1, or fails when it exits or its
# start timeout (TimeoutStartSec) passes first. In a staging root there is no service: the command in
# INSTALL_START_HOOK stands for the start when set (tests), given NAME; else nothing is started.
started() {
    if staging; then
        [ -n "${INSTALL_START_HOOK:-}" ] || return 0
        bash -c "$INSTALL_START_HOOK" start-hook "$1"
        return
    fi
    STOPPED=no
    systemctl enable --quiet "$SERVICE"
    systemctl start "$SERVICE" || return 1
    systemctl is-active --quiet "$SERVICE" || return 1
    if [ "$SCREEN_ACTIVE" = yes ] || [ "$WITH_SCREEN" = yes ]; then
        systemctl start "$SCREEN" "$KIOSK" || say "the dealer screen did not start: systemctl status $SCREEN"
    fi
}
# switch NAME OLD: NAME made the version that runs; when it does not start, OLD again (OLD empty:
# there is nothing to go back to) and a failure.
switch() {
    local name=$1 old=$2
    stop_service
    flip "$name"
    SWITCHED=yes
    if started "$name"; then
        staging && say "staged in $DESTDIR: no service here to stop, start or check (systemd is not used)"
        return 0
    fi
    STEP=""
    if [ -z "$old" ]; then
        die "table-controller $name did not start and report ready (systemctl status $SERVICE)"
    fi
    flip "$old"
    if staging; then
        [ -z "${INSTALL_START_HOOK:-}" ] || bash -c "$INSTALL_START_HOOK" start-hook "$old" || true
    else
        systemctl restart "$SERVICE" || true
        systemctl stop "$TIMER" || true
        STOPPED=no
    fi
    SWITCHED=no
    local why="journalctl -u $SERVICE says why"
    staging && why="the command in INSTALL_START_HOOK failed"
    die "$name did not start and report ready ($why); switched back to $old, which runs again"
}

# record_program: the program's paths, modes and owners (staging: recorded), once it is in place.
record_program() {
    folder 0755 root:root "$PREFIX"
    folder 0755 root:root "$VERSIONS"
    local dir unit
    for dir in "$DESTDIR$VERSIONS"/*/; do
        [ -d "$dir" ] || continue
        chmod 0755 "$dir"
        if staging; then
            printf '%s %s %s\n' 0755 root:root "$VERSIONS/$(basename "$dir")/" >>"$OWNERS_NEW"
        fi
    done
    for link_path in "$CURRENT" "$PREVIOUS" "$VENV" "$PREFIX/manifest.json" "$PREFIX/README.md"; do
        if [ -L "$DESTDIR$link_path" ]; then
            if staging; then printf '%s %s %s\n' 0777 root:root "$link_path" >>"$OWNERS_NEW"
            else chown -h root:root "$link_path"; fi
        fi
    done
    for unit in "$SERVICE" "$TIMER" "$SCREEN" "$KIOSK"; do
        own 0644 root:root "$UNITS/$unit"
    done
    command_link /usr/local/bin/table-controller "$VENV/bin/table-controller"
}

install_configuration() {
    local python=$DESTDIR$NEW/venv/bin/python
    folder 0750 root:"$USER_NAME" "$CONF"
    keep 0640 root:"$USER_NAME" deploy/table.toml "$CONF/table.toml"
    keep 0640 root:"$USER_NAME" deploy/chips.csv "$CONF/chips.csv"
    folder 0750 root:"$USER_NAME" "$CONF/keys"
    folder 0750 root:"$USER_NAME" "$CONF/keys/clients"
    if [ ! -e "$DESTDIR$CONF/keys/table.key_secret" ]; then
        "$python" -I -m controller.cli keys generate --dir "$DESTDIR$CONF/keys" >/dev/null
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

install_system_files() {  # the units are each version's own (flip)
    system "$(dirname "$RULES")"
    keep 0644 root:root deploy/70-table-devices.rules "$RULES"
    system "$(dirname "$MODULES")"
    put 0644 root:root deploy/modules-load.conf "$MODULES"
}

# keep_extras: an upgrade keeps the extras the running version was installed with (its manifest names
# them), so a table whose dealer screen or optical shoe runs still has them after a plain install.
keep_extras() {
    local running extras extra
    running=$(link_name "$CURRENT")
    [ -n "$running" ] && [ -r "$DESTDIR$VERSIONS/$running/manifest.json" ] || return 0
    extras=$("$PYTHON" -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1])).get("extras", [])))' \
        "$DESTDIR$VERSIONS/$running/manifest.json" 2>/dev/null) || return 0
    for extra in $extras; do
        case $extra in
            screen) [ "$WITH_SCREEN" = yes ] || say "the running version $running has the dealer screen: kept (--with-screen)"
                WITH_SCREEN=yes ;;
            optical) [ "$WITH_OPTICAL" = yes ] || say "the running version $running has the optical shoe: kept (--with-optical)"
                WITH_OPTICAL=yes ;;
        esac
    done
}

install_all() {
    local old="" legacy_name="" name
    keep_extras
    if staging; then
        mkdir -p "$DESTDIR"
        : >"$OWNERS_NEW"
    else
        prepare_system
    fi
    remove_unfinished
    old=$(link_name "$CURRENT")
    if legacy; then
        legacy_name=$(free_name "$(legacy_version)")
        old=$legacy_name
    fi
    TARGET=$(source_version)
    name=$(free_name "$TARGET" "$legacy_name")
    build_version "$name"
    STEP="laying down the configuration and system files"
    install_configuration
    install_system_files
    if ! staging; then
        modprobe -a cdc_acm usbserial || say "could not load cdc_acm and usbserial now; they load at boot"
        udevadm control --reload-rules
        udevadm trigger --subsystem-match=tty --subsystem-match=gpio
    fi
    STEP="switching to $name"
    if [ -n "$legacy_name" ]; then
        stop_service
        migrate_legacy "$legacy_name"
    fi
    switch "$name" "$old"
    STEP=""
    if [ -n "$old" ] && [ "$old" != "$name" ]; then link "versions/$old" "$PREVIOUS"; fi
    if ! staging && [ "$WITH_SCREEN" = yes ]; then
        systemctl set-default graphical.target
        systemctl enable "$SCREEN" "$KIOSK"
    fi
    remove_old
    record_program
    if staging; then mv -f "$OWNERS_NEW" "$OWNERS"; fi
    if [ -n "$old" ]; then
        say "upgraded in ${DESTDIR:-/}: $name runs; $old is kept (deploy/install.sh rollback goes back to it)"
    else
        say "installed in ${DESTDIR:-/}: $name"
    fi
    say "the table's CURVE public key (for the pit): $CONF/keys/table.key"
    say "next: edit $CONF/table.toml, $CONF/chips.csv and $RULES, then: systemctl restart $SERVICE"
}

# rollback: back to the previous version (the same switch: undone if it does not start); the version
# left becomes the previous one, so a second rollback goes forward again.
rollback() {
    local current previous
    staging || [ "$(id -u)" = 0 ] || die "run as root (sudo), or with DESTDIR=<folder> for a staging root"
    current=$(link_name "$CURRENT")
    previous=$(link_name "$PREVIOUS")
    [ -n "$current" ] || die "no version of table-controller is installed in ${DESTDIR:-/} (status says what is)"
    [ -n "$previous" ] && [ -n "$(release "$previous")" ] || die "no previous version is kept to go back to"
    switch "$previous" "$current"
    link "versions/$current" "$PREVIOUS"
    say "rolled back in ${DESTDIR:-/}: $previous runs; $current is kept (deploy/install.sh rollback goes forward to it)"
}

# status: the version that runs, the one kept, and what an unfinished upgrade left.
status() {
    local current previous dir name
    if legacy; then
        printf 'current   table-controller %s in %s, installed before versions were kept (the next upgrade keeps it)\n' \
            "$(legacy_version)" "$VENV"
    fi
    current=$(link_name "$CURRENT")
    previous=$(link_name "$PREVIOUS")
    if [ -z "$current" ] && ! legacy; then
        say "table-controller is not installed in ${DESTDIR:-/}" >&2
        return 1
    fi
    [ -z "$current" ] || printf 'current   %s: %s\n' "$current" "$(release "$current")"
    if [ -n "$previous" ]; then
        printf 'previous  %s: %s (deploy/install.sh rollback goes back to it)\n' "$previous" "$(release "$previous")"
    else
        printf 'previous  none kept\n'
    fi
    for dir in "$DESTDIR$VERSIONS"/*/; do
        [ -d "$dir" ] || continue
        name=$(basename "$dir")
        [ "$name" != "$current" ] && [ "$name" != "$previous" ] || continue
        if [ -e "$dir/release" ]; then
            printf 'older     %s: %s (the next install removes it)\n' "$name" "$(release "$name")"
        else
            printf 'unfinished %s: left by an upgrade that did not finish (the next install removes it)\n' "$name"
        fi
    done
    if staging; then
        printf 'service   none: a staging root (%s)\n' "$DESTDIR"
    else
        printf 'service   %s: %s\n' "$SERVICE" "$(systemctl is-active "$SERVICE" || true)"
    fi
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
    rm -rf "$DESTDIR$VENV" "$DESTDIR$VERSIONS"
    rm -f "$DESTDIR$CURRENT" "$DESTDIR$PREVIOUS" \
        "$DESTDIR$PREFIX/manifest.json" "$DESTDIR$PREFIX/README.md" "$DESTDIR$UNITS/$SERVICE" \
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
        [ $# -eq 0 ] || shift
        while [ $# -gt 0 ]; do
            case "$1" in
                --with-screen) WITH_SCREEN=yes ;;
                --with-optical) WITH_OPTICAL=yes ;;
                *) usage "unknown option $1" ;;
            esac
            shift
        done
        install_all ;;
    uninstall) shift; uninstall_all "$@" ;;
    status) status ;;
    rollback) rollback ;;
    packages)  # the system packages this machine would get, as install chose them
        shift
        choose_packages "${BASE_PACKAGES[@]}"
        [ "${1:-}" != --with-screen ] || choose_packages "${SCREEN_PACKAGES[@]}" ;;
    -h | --help | help)
        printf '%s\n\n' "$USAGE"
        sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0" ;;  # the comment at the top of this file
    *) usage "unknown command ${1:-}" ;;
esac
