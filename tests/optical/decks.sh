#!/bin/sh
# The optical shoe's test decks: Debian's kdegames-card-data-kf5 (16 SVG deck designs), fetched with
# `apt-get download` and unpacked with `dpkg -x` (no root needed) into .cache/decks/ of the work tree, and
# Debian's SVG renderer rsvg-convert (librsvg2-bin), installed when missing and we are root. Called by
# tests/system_packages.sh (`make system-packages`, `make test`) or on its own. When either cannot be had
# it says so plainly and exits 0: the tests that need them skip and say why.
root=$(cd "$(dirname "$0")/../.." && pwd)
dest="${DECKS_DIR:-$root/.cache/decks}"
package=kdegames-card-data-kf5
log=/tmp/table-controller-decks.log
if [ ! -d "$dest/usr/share/carddecks/svg-standard" ]; then
    work=$(mktemp -d)
    fetched=no
    if command -v apt-get >/dev/null 2>&1; then
        if (cd "$work" && apt-get download -q "$package") >"$log" 2>&1; then
            fetched=yes
        elif [ "$(id -u)" = 0 ] && apt-get update -q >>"$log" 2>&1 \
                && (cd "$work" && apt-get download -q "$package") >>"$log" 2>&1; then
            fetched=yes
        fi
    fi
    if [ "$fetched" = yes ] && mkdir -p "$dest" && dpkg -x "$work"/"$package"_*.deb "$dest" >>"$log" 2>&1; then
        echo "deck designs: $package unpacked into $dest" >&2
    else
        echo "deck designs: $package cannot be had (no apt-get, or apt-get download failed: see $log):" \
             "the optical shoe's tests will skip" >&2
    fi
    rm -rf "$work"
fi
if ! command -v rsvg-convert >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        export DEBIAN_FRONTEND=noninteractive
        echo "installing librsvg2-bin (rsvg-convert, renders the deck designs)" >&2
        if ! { apt-get install -y -q librsvg2-bin || { apt-get update -q && apt-get install -y -q librsvg2-bin; }; } \
                >>"$log" 2>&1; then
            echo "rsvg-convert: apt-get install librsvg2-bin failed (see $log): the optical shoe's tests will skip" >&2
        fi
    else
        echo "rsvg-convert missing (librsvg2-bin; not root or no apt-get): the optical shoe's tests will skip" >&2
    fi
fi
exit 0
