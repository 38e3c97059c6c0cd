#!/usr/bin/env bash
# The table on the Pi's architecture (`make arm64-check`): 64-bit Raspberry Pi OS is aarch64 Debian
# Bookworm with Python 3.11, and this machine is not. The check builds an arm64 Bookworm root with
# debootstrap (kept in .arm64/root: a second run reuses it), copies the project in, and in it, under
# qemu-user-static (binfmt_misc), runs what a Pi runs:
#
#   install    deploy/install.sh install --with-screen --with-optical into a staging root (DESTDIR),
#              every wheel of deploy/requirements-web.lock (the table's pins and aiohttp's) and of
#              deploy/requirements-optical.lock (numpy's and OpenCV's) fetched from PyPI for aarch64 and
#              checked against its hash
#   verify     table-controller --version and verify, through /opt/table-controller as on a table;
#              numpy and opencv-python-headless among the dependencies checked against their RECORD
#   demo       the installed program's demo: a daemon on simulated boards, its screen, 5 hands dealt,
#              a clean stop (python -m controller.devkit.demo --hands 5 --pause 0)
#   service    table-controller run as systemd starts and stops it (bench/service_bench.py): READY=1,
#              both boards online, a watchdog ping, SIGTERM, STOPPING=1, exit status 0
#   decks      the optical shoe's test decks in the root: Debian's rsvg-convert (librsvg2-bin) and the
#              kdegames-card-data-kf5 deck designs, as tests/optical/decks.sh fetches them
#   optical    the installed optical shoe, with the installed program's interpreter: the standard
#              design taught from one clean pass (rendered on aarch64), saved, loaded and the pass read
#              back, then OPTICAL_DRAWS distorted draws read (bench/optical_bench.py's measure): no
#              misread, no floating-point warning of numpy's
#   test-venv  the tests' virtual environment: the wheels of both locks (the web's and the optical's:
#              the games' tests load the optical driver, OpenCV), the test tools, the project editable
#   tests      pytest tests/games tests/link, in it
#
# and prints the time of each step and what passed (also in .arm64/last-run.log). Root only (apt-get,
# debootstrap, mount, chroot); installs debootstrap, qemu-user-static and binfmt-support when missing, and
# mounts binfmt_misc when it is not. Slow (emulated): run it before a release and after a dependency
# change (docs/deployment.md, The Pi's architecture). ARM64_DIR moves the cache (default .arm64 in the
# checkout); ARM64_MIRROR is a Debian mirror for debootstrap (default: debootstrap's own); ARM64_CPU is
# the CPU qemu emulates for what runs in the root (default cortex-a72, a Pi 4's: qemu's own default,
# max, has SVE, and numpy's OpenBLAS then takes kernels a Pi never runs, whose matrix products came out
# with NaN and infinities here).
set -euo pipefail
umask 022

SOURCE=$(cd "$(dirname "$0")/.." && pwd)
WORK=${ARM64_DIR:-$SOURCE/.arm64}
SUITE=bookworm
PACKAGES=python3,python3-venv,python3-pip,ca-certificates   # what deploy/install.sh expects of the Pi
HOST_PACKAGES=(debootstrap qemu-user-static binfmt-support)
CPU=${ARM64_CPU:-cortex-a72}     # the CPU qemu-aarch64 emulates in the root (QEMU_CPU): a Pi 4's
COPY=/srv/table-controller       # the project's copy, inside the root
STAGE=/srv/stage                 # the staging root of the install, inside the root
TESTS=/srv/test-venv             # the tests' virtual environment, inside the root
TEST_TOOLS=(pytest pytest-asyncio pytest-timeout hypothesis)   # their versions as pyproject.toml's dev extra
DECKS=$COPY/.cache/decks         # the deck designs, inside the root (tests/optical/decks.sh's place)
OPTICAL_DESIGN=standard          # the design the optical step teaches and reads
OPTICAL_DRAWS=${ARM64_OPTICAL_DRAWS:-100}   # its distorted draws (emulated: about 0.75 s each)
RESULTS=()                       # one line per step: name, seconds, result
ROOT=""                          # the arm64 root, once its folder is known

say() { printf 'arm64-check: %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }

# in_root COMMAND...: COMMAND in the arm64 root, with a clean environment (nothing of this machine's pip
# configuration: the root's pip asks PyPI, as a Pi's does). Bookworm's pip (23) trusts its own copy of
# certifi, not the system's certificates, unless told (PIP_CERT): see host_network. QEMU_CPU: the
# programs started there (and theirs, which inherit it) run on the Pi's CPU as qemu emulates it.
in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb QEMU_CPU="$CPU" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        PIP_CERT=/etc/ssl/certs/ca-certificates.crt "$@"
}

# host_network: this machine's name servers, and the certificate authorities it added to Debian's (a
# proxy's, on a network that has one), in the root: apt and pip there go out as this machine does.
host_network() {
    local added=/usr/local/share/ca-certificates
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    [ -d "$added" ] || return 0
    diff -rq "$added" "$ROOT$added" >/dev/null 2>&1 && return 0
    rm -rf "${ROOT:?}$added"
    cp -r "$added" "$ROOT$added"
    in_root update-ca-certificates >/dev/null 2>&1
    say "the root trusts the certificate authorities this machine added too: $(find "$added" -type f -printf '%f ')"
}

# step NAME FUNCTION: run FUNCTION (errors stop it, set -e), timed; its line in RESULTS. A failure ends
# the check (later steps need the earlier ones).
step() {
    local name=$1 start status seconds
    say "== $name =="
    start=$EPOCHREALTIME
    set +e
    ( set -e; "$2" )
    status=$?
    set -e
    seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    if [ "$status" = 0 ]; then
        RESULTS+=("$(printf '%-10s %8s s  passed' "$name" "$seconds")")
    else
        RESULTS+=("$(printf '%-10s %8s s  FAILED (status %s)' "$name" "$seconds" "$status")")
        exit 1
    fi
}

# mounts_under FOLDER: what is mounted at or below FOLDER, the deepest first.
mounts_under() {
    awk -v f="$1" '$5 == f || index($5, f "/") == 1 { print length($5), $5 }' /proc/self/mountinfo \
        | sort -rn | cut -d' ' -f2-
}

# unmount_root: whatever still runs in the root stopped (processes this check started there, or a run
# of it that was killed), then everything mounted in it unmounted.
unmount_root() {
    local pid mount
    [ -n "$ROOT" ] && [ -d "$ROOT" ] || return 0
    for pid in /proc/[0-9]*; do
        [ "$(readlink "$pid/root" 2>/dev/null)" != "$ROOT" ] || kill -KILL "${pid#/proc/}" 2>/dev/null || true
    done
    mounts_under "$ROOT" | while read -r mount; do
        umount "$mount" 2>/dev/null || umount -l "$mount" || say "could not unmount $mount" >&2
    done
}

# The way out: the root unmounted, the figures printed.
finish() {
    local status=$?
    unmount_root
    say "== figures: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m) host, $(nproc) cores; root ${ROOT:-none} =="
    printf '  %s\n' "${RESULTS[@]}"
    if [ "$status" = 0 ]; then say "every step passed"; else say "stopped: the last step failed" >&2; fi
}

host_tools() {
    local missing=() package
    for package in "${HOST_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
    done
    if [ ${#missing[@]} = 0 ]; then say "installed already: ${HOST_PACKAGES[*]}"; return; fi
    command -v apt-get >/dev/null || die "no apt-get here to install ${missing[*]}: install them by hand"
    say "installing ${missing[*]} (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# binfmt_misc: the kernel runs aarch64 programs through qemu-aarch64-static. Without it no program of the
# root can start another (pip, venv and pytest all do), so the check cannot run at all.
binfmt() {
    local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
            || die "binfmt_misc is not mounted and cannot be (a container without the privilege?): aarch64 programs cannot be run here"
        say "mounted binfmt_misc on /proc/sys/fs/binfmt_misc (it was not)"
    fi
    [ -e "$entry" ] || update-binfmts --enable qemu-aarch64 \
        || die "qemu-aarch64 cannot be registered with binfmt_misc (update-binfmts --enable qemu-aarch64 failed)"
    grep -qx enabled "$entry" || die "qemu-aarch64 is registered with binfmt_misc but disabled ($entry)"
    # F: the kernel opened the interpreter when it was registered, so it need not be inside the root.
    grep -q '^flags:.*F' "$entry" \
        || die "qemu-aarch64 is registered without the F flag: the root would need its own $(sed -n 's/^interpreter //p' "$entry")"
    sed 's/^/  /' "$entry"
}

# The arm64 root, made once: debootstrap (minbase, and the packages install.sh expects), the package
# lists (install.sh looks packages up). Reused while its marker names the same suite and packages.
make_root() {
    local marker=$ROOT/.arm64-check want="$SUITE arm64 $PACKAGES"
    if [ "$(cat "$marker" 2>/dev/null)" = "$want" ]; then
        say "reusing $ROOT ($want)"
    else
        [ -z "$(mounts_under "$WORK")" ] || die "something is mounted under $WORK: unmount it first"
        rm -rf "$ROOT" "$ROOT.new"
        mkdir -p "$WORK"
        say "debootstrap $want into $ROOT (emulated: many minutes)"
        # shellcheck disable=SC2086  # no mirror: debootstrap's default
        debootstrap --arch=arm64 --variant=minbase --include="$PACKAGES" "$SUITE" "$ROOT.new" ${ARM64_MIRROR:-} \
            >"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }
        mv "$ROOT.new" "$ROOT"
        host_network
        in_root apt-get update -qq
        printf '%s\n' "$want" >"$marker"
    fi
    # Its own /dev (debootstrap's nodes) with a pty instance of its own for the simulated boards, /proc;
    # unmounted on the way out (finish).
    mount -t proc proc "$ROOT/proc"
    mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$ROOT/dev/pts"
    mount -t tmpfs -o mode=1777 tmpfs "$ROOT/dev/shm"
    host_network
    say "inside: $(in_root uname -m) (qemu's $CPU), $(in_root dpkg --print-architecture)," \
        "$(in_root python3 --version)," \
        "Debian $(cat "$ROOT/etc/debian_version")"
}

# The project as it is in this checkout (committed or not, nothing git ignores), in place of the last run's.
copy_project() {
    [ -z "$(mounts_under "$ROOT/srv")" ] || die "something is mounted under $ROOT/srv"
    rm -rf "${ROOT:?}$COPY" "$ROOT$STAGE" "$ROOT$TESTS" "$ROOT/opt/table-controller"
    mkdir -p "$ROOT$COPY"
    git -C "$SOURCE" ls-files -z --cached --others --exclude-standard \
        | tar -C "$SOURCE" --null --ignore-failed-read -T - -cf - | tar -C "$ROOT$COPY" -xf -
    say "copied $(find "$ROOT$COPY" -type f | wc -l) files of $SOURCE to $COPY"
}

# The install into the staging root, after what a real install would take from apt here; then the wheels
# it took that are compiled, with their tags (each must be an aarch64 one).
staged_install() {
    in_root bash -c "cd $COPY && deploy/install.sh packages --with-screen"
    in_root bash -c "cd $COPY && DESTDIR=$STAGE deploy/install.sh install --with-screen --with-optical"
    local wheel tag odd=""
    for wheel in "$ROOT$STAGE"/opt/table-controller/current/venv/lib/python3*/site-packages/*.dist-info/WHEEL; do
        tag=$(sed -n 's/^Tag: //p' "$wheel" | tail -1)
        case "$tag" in
            *-none-any) ;;
            *aarch64) say "compiled for aarch64: $(basename "$(dirname "$wheel")" .dist-info) ($tag)" ;;
            *) say "neither pure Python nor aarch64: $(basename "$(dirname "$wheel")" .dist-info) ($tag)" >&2; odd=yes ;;
        esac
    done
    [ -z "$odd" ] || die "a wheel installed is for another machine"
}

# The installed program where the table has it: /opt/table-controller in the root leads to the staging
# root's, so the scripts' interpreter (/opt/table-controller/versions/VERSION/venv/bin/python) is there.
# The optical extra's numpy and OpenCV must be among the dependencies verify checked, and match.
verify_install() {
    local dist
    ln -sfn "$STAGE/opt/table-controller" "$ROOT/opt/table-controller"
    in_root "$STAGE/usr/local/bin/table-controller" --version
    in_root "$STAGE/usr/local/bin/table-controller" verify >"$WORK/verify.log" 2>&1 \
        || { grep -E 'FAIL|table-controller:' "$WORK/verify.log" >&2; exit 1; }
    grep -E '^manifest |^[0-9]+ files: |^runtime dependencies|^dependencies: ' "$WORK/verify.log"
    for dist in numpy opencv-python-headless; do
        grep -E "^  ok    $dist " "$WORK/verify.log" || die "verify did not check $dist (see $WORK/verify.log)"
    done
}

run_demo() {
    in_root bash -c "cd /tmp && /opt/table-controller/venv/bin/python -m controller.devkit.demo --hands 5 --pause 0" \
        >"$WORK/demo.log" 2>&1 || { tail -30 "$WORK/demo.log" >&2; exit 1; }
    grep -E '^== (Table|Hand|Demo)' "$WORK/demo.log"
}

run_service() {
    in_root bash -c "cd /tmp && /opt/table-controller/venv/bin/python $COPY/bench/service_bench.py \
        --command $STAGE/usr/local/bin/table-controller --timeout 120"
}

# The optical shoe's test decks, as tests/optical/decks.sh has them (it says what it could not have and
# exits 0, for the tests to skip): the renderer and the design must both be there after it.
optical_decks() {
    in_root bash -c "cd $COPY && sh tests/optical/decks.sh"
    in_root rsvg-convert --version \
        || die "no rsvg-convert in the root (librsvg2-bin; see /tmp/table-controller-decks.log there)"
    [ -d "$ROOT$DECKS/usr/share/carddecks/svg-$OPTICAL_DESIGN" ] \
        || die "no deck design $OPTICAL_DESIGN under $DECKS (see /tmp/table-controller-decks.log in the root)"
    say "deck designs: $(find "$ROOT$DECKS/usr/share/carddecks" -maxdepth 1 -name 'svg-*' | wc -l) under $DECKS"
}

# The optical shoe as installed: the installed program's interpreter and its drivers.optical (run from
# /tmp, nothing of the copy on the path but bench/, for optical_bench's measure); the designs and the
# rendered cards from DECKS, passed by name (the drivers' default, <project>/.cache/decks, is inside the
# venv's site-packages once installed). Teach from one clean pass, save and load the taught file, read
# the pass back (every card right), then OPTICAL_DRAWS distorted draws: a misread fails the step, and so
# does a RuntimeWarning (numpy's floating-point errors: NaN in a product of finite templates).
run_optical() {
    in_root bash -c "cd /tmp && rm -f /tmp/$OPTICAL_DESIGN.npz && /opt/table-controller/venv/bin/python \
        -W error::RuntimeWarning - $COPY/bench $DECKS $OPTICAL_DESIGN $OPTICAL_DRAWS" \
        >"$WORK/optical.log" 2>&1 <<'PYTHON' \
        || { tail -30 "$WORK/optical.log" >&2; exit 1; }
import json, sys, time
from pathlib import Path
bench, decks, name, draws = sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
start = time.perf_counter()
import cv2, numpy, drivers.optical
from drivers.optical.designs import deck, design
from drivers.optical.frames import FrameMaker
from drivers.optical.read import Reader
from drivers.optical.taught import load
from drivers.optical.teach import teach
print(f"imported in {time.perf_counter() - start:.1f} s: numpy {numpy.__version__}, OpenCV {cv2.__version__},"
      f" drivers.optical from {Path(drivers.optical.__file__).parent}")
assert drivers.optical.__file__.startswith("/opt/table-controller/"), "not the installed drivers"
start = time.perf_counter()
maker = FrameMaker(design(name, decks), decks)
clean = [(card, maker.frame(card)) for card in deck()]
print(f"{name}: 52 cards rendered by rsvg-convert and framed in {time.perf_counter() - start:.1f} s")
start = time.perf_counter()
teach(name, clean).save(Path(f"/tmp/{name}.npz"))
reader = Reader(load(Path(f"/tmp/{name}.npz")))
readings = [(card, reader.read(frame).card) for card, frame in clean]
wrong = [f"{card} read as {read}" for card, read in readings if read != card]
print(f"{name}: taught from the clean pass, saved and loaded, the pass read back in"
      f" {time.perf_counter() - start:.1f} s: {52 - len(wrong)} of 52 right", *wrong)
assert not wrong, "the clean pass is not read back"
sys.path.insert(0, bench)
from optical_bench import measure
start = time.perf_counter()
row = measure(name, maker, draws, 35)
print(f"{name}: {row['draws']} distorted draws in {time.perf_counter() - start:.1f} s:"
      f" {row['misreads']} misreads, {row['unreadable']} unreadable,"
      f" {row['read_ms']:.1f} ms a read, {row['frame_ms']:.1f} ms a frame (emulated)")
print(json.dumps(row))
assert row["taught"] and not row["misreads"], "misread"
PYTHON
    grep -vE '^\{' "$WORK/optical.log"
}

# The tests' environment: the same locked wheels as the install (the web lock: the tests take aiohttp; the
# optical lock: tests/games/test_catalog.py loads the optical driver, which imports OpenCV), the test tools
# at pyproject.toml's dev versions, the project itself editable.
make_test_venv() {
    local tools
    tools=$(in_root python3 -c 'import re, sys, tomllib
dev = tomllib.load(open(sys.argv[1], "rb"))["project"]["optional-dependencies"]["dev"]
print(" ".join(r for r in dev if re.split(r"[<>=!~\[ ;]", r)[0] in sys.argv[2:]))' "$COPY/pyproject.toml" "${TEST_TOOLS[@]}")
    in_root python3 -m venv "$TESTS"
    in_root "$TESTS/bin/pip" install --quiet --disable-pip-version-check --require-hashes --only-binary=:all: \
        -r "$COPY/deploy/requirements-web.lock" -r "$COPY/deploy/requirements-optical.lock"
    # shellcheck disable=SC2086  # one word per requirement
    in_root "$TESTS/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: $tools
    in_root "$TESTS/bin/pip" install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e "$COPY"
    say "test tools: $(in_root "$TESTS/bin/pip" list --format=freeze 2>/dev/null | grep -iE "^($(IFS='|'; echo "${TEST_TOOLS[*]}"))==" | tr '\n' ' ')"
}

run_tests() {
    in_root bash -c "cd $COPY && $TESTS/bin/python -m pytest -p no:cacheprovider tests/games tests/link" \
        >"$WORK/tests.log" 2>&1 || { tail -40 "$WORK/tests.log" >&2; exit 1; }
    tail -1 "$WORK/tests.log"
}

[ "$(id -u)" = 0 ] || die "run as root: the check installs packages, mounts and chroots (sudo make arm64-check)"
mkdir -p "$WORK"
exec > >(tee "$WORK/last-run.log") 2>&1
trap finish EXIT
ROOT=$(realpath -m "$WORK/root")
unmount_root                     # what a killed run left mounted
step host-tools host_tools
step binfmt binfmt
step root make_root
step copy copy_project
step install staged_install
step verify verify_install
step demo run_demo
step service run_service
step decks optical_decks
step optical run_optical
step test-venv make_test_venv
step tests run_tests
