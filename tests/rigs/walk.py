"""A payment walk paid as a dealer pays it: each line's spots brought to what the hand says they
hold now, on the real daemon's simulated RFID reader (tests/rigs/daemon_rig.py's registry chips)."""

from __future__ import annotations

from collections.abc import Iterator

from tests.rigs.daemon_rig import TableRig, chip

Paying = dict[str, Iterator[int]]
"""The numbers of the registry's chips (1 to 39) the dealer pays a walk's lines with, by kind."""


def paying() -> Paying:
    """Chips no spot of the Blackjack Extreme hands of tests/e2e and tests/screen holds before the
    walk (they bet ``a1`` to ``a14`` and ``b1``; ``a39`` is kept for a test's own mistake)."""
    return {"b": iter(range(2, 40)), "a": iter(range(15, 39))}


def pay_line(rig: TableRig, chips_left: Paying) -> None:
    """The payment line on the display paid: every spot the hand checks brought to what it should
    hold (the picture's ``committed``), as a dealer does it: a loser's chips taken off, a winner
    paid chips worth the difference, $25s then $5s, on top of the bet."""
    state = rig.pit.control({"cmd": "state"})["state"]
    for seat, spots in state["committed"].items():
        for name, due in spots.items():
            read = state["live"].get(seat, {}).get(name, 0)
            if read == due:
                continue
            if due < read:
                assert due == 0, (seat, name, read, due)
                rig.bet(int(seat), name)
                rig.rfid.cmd("wait_idle")
                continue
            more = due - read
            chips = [chip("b", next(chips_left["b"])) for _ in range(more // 2500)]
            chips += [chip("a", next(chips_left["a"])) for _ in range(more % 2500 // 500)]
            rig.add(int(seat), name, *chips)
