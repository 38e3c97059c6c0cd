"""Tests for drivers.display: the dealer's text block and the renderers that show it."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re

import pytest

from drivers.display import (
    CLEAR_SCREEN,
    SHOW_CURSOR,
    HandLine,
    LogRenderer,
    NullRenderer,
    Renderer,
    SeatView,
    TableView,
    TerminalRenderer,
    render_text,
)

# The dealer's hole card is the 9s and seat 4's double-down card the Ah: the
# view only knows they are face down.
SAMPLE = TableView(
    table_id="T07",
    game="easy-jack",
    hand=57,
    phase="decisions",
    instruction="Draw a card for seat 3 (hit), or press STAND",
    seats=(
        SeatView(1, {"main": "$25.00"}, (HandLine(("Ks", "Qd"), "20"),), False, None, None),
        SeatView(3, {"side": "$5.00", "main": "$15.00"}, (HandLine(("Qh", "4d"), "14"),), True, None, None),
        SeatView(4, {"main": "$50.00"}, (HandLine(("5c", "6c", None)),), False, None, None),
        SeatView(5, {}, (), False, None, "counterfeit chip on main"),
    ),
    dealer_cards=("Kc", None),
    dealer_total=None,
    live_buttons=("stand", "hit"),
    alerts=("Seat 5 main: counterfeit chip ffffffffffffffff",),
    devices={"shoe": "online", "rfid": "offline: no answer for 3 s"},
    payouts=(),
)

SETTLED = dataclasses.replace(
    SAMPLE,
    phase="settle",
    instruction="Pay and collect as shown, then press NEXT",
    seats=(
        SeatView(1, {"main": "$25.00"}, (HandLine(("Ks", "Qd"), "20"),), False, "main: pay 2500", None),
        SeatView(
            3,
            {"main": "$15.00", "side": "$5.00"},
            (HandLine(("Qh", "4d", "Ts"), "bust 24"),),
            False,
            "main: collect 1500; side: collect 500",
            None,
        ),
    ),
    dealer_cards=("Kc", "9s"),
    dealer_total="19",
    live_buttons=("next",),
    alerts=(),
    devices={"shoe": "online", "rfid": "online"},
    payouts=("Seat 1 main: PAY $25.00", "Seat 3 main: COLLECT $15.00", "Seat 3 side: COLLECT $5.00"),
)


def test_header_comes_first_and_instruction_last() -> None:
    lines = render_text(SAMPLE).splitlines()
    assert lines[0] == "T07 | easy-jack | hand 57 | decisions"
    assert lines[-1] == "=> Draw a card for seat 3 (hit), or press STAND"


def test_sample_view_shows_what_the_dealer_needs() -> None:
    text = render_text(SAMPLE)
    lines = text.splitlines()
    seat_lines = [line for line in lines if "Seat " in line and not line.startswith("  !!")]
    assert [line[:8] for line in seat_lines] == ["  Seat 1", "> Seat 3", "  Seat 4", "  Seat 5"]
    assert "> Seat 3  [Qh] [4d] (14)  bet main $15.00, side $5.00" in lines
    assert "  Seat 1  [Ks] [Qd] (20)  bet main $25.00" in lines
    assert "  Seat 5  no bet  !! counterfeit chip on main" in lines
    assert "Dealer:   [Kc] [##]" in lines
    assert "Devices: rfid OFFLINE: no answer for 3 s; shoe online" in lines
    assert "  !! Seat 5 main: counterfeit chip ffffffffffffffff" in lines
    assert "Buttons: STAND  HIT" in lines
    assert "Payouts:" not in text


def test_hidden_cards_never_appear() -> None:
    text = render_text(SAMPLE)
    assert text.count("[##]") == 2
    assert "9s" not in text
    assert "Ah" not in text
    assert "  Seat 4  [5c] [6c] [##]  bet main $50.00" in text.splitlines()
    shown = re.findall(r"\[([^\]]+)\]", text)
    assert sorted(shown) == sorted(["Ks", "Qd", "Qh", "4d", "5c", "6c", "##", "Kc", "##"])


def test_settled_view_lists_payouts_and_results() -> None:
    lines = render_text(SETTLED).splitlines()
    assert lines[lines.index("Payouts:") + 1 : lines.index("Payouts:") + 4] == [
        "  Seat 1 main: PAY $25.00",
        "  Seat 3 main: COLLECT $15.00",
        "  Seat 3 side: COLLECT $5.00",
    ]
    assert "  Seat 1  [Ks] [Qd] (20)  bet main $25.00  -> main: pay 2500" in lines
    assert "Dealer:   [Kc] [9s] (19)" in lines
    assert "Alerts:" not in lines
    assert "Buttons: NEXT" in lines
    assert not any(line.startswith(">") for line in lines)


def test_between_hands() -> None:
    view = TableView("T07", "easy-jack", None, "idle", "Place bets, then press DEAL")
    assert render_text(view).splitlines() == [
        "T07 | easy-jack | no hand | idle",
        "=" * 78,
        "Devices: none",
        "Dealer:   (no cards)",
        "Buttons: (none)",
        "-" * 78,
        "=> Place bets, then press DEAL",
    ]


def test_render_is_deterministic_whatever_the_mapping_order() -> None:
    reordered = dataclasses.replace(
        SAMPLE,
        devices={"rfid": "offline: no answer for 3 s", "shoe": "online"},
        seats=(SAMPLE.seats[0],
               dataclasses.replace(SAMPLE.seats[1], wagers={"main": "$15.00", "side": "$5.00"}),
               *SAMPLE.seats[2:]),
    )
    assert render_text(reordered) == render_text(SAMPLE)


@pytest.mark.parametrize("width", [30, 40, 78, 120])
def test_lines_fit_the_width_and_nothing_is_lost(width: int) -> None:
    instruction = "Seat 3 doubled: draw exactly one card for seat 3, face down, then press NEXT"
    view = dataclasses.replace(SAMPLE, instruction=instruction)
    text = render_text(view, width)
    assert all(len(line) <= width for line in text.splitlines())
    assert " ".join(text.split()).endswith(f"=> {instruction}")
    assert "counterfeit chip on main" in " ".join(text.split())


def test_tiny_width_is_raised_to_the_minimum() -> None:
    assert render_text(SAMPLE, 5) == render_text(SAMPLE, 30)


def test_renderers_follow_the_protocol() -> None:
    for renderer in (TerminalRenderer(io.StringIO()), LogRenderer(io.StringIO()), NullRenderer()):
        assert isinstance(renderer, Renderer)


def test_terminal_renderer_redraws_only_when_the_view_changes() -> None:
    out = io.StringIO()
    renderer = TerminalRenderer(out)
    renderer.show(SAMPLE)
    renderer.show(SAMPLE)
    renderer.show(dataclasses.replace(SAMPLE))  # equal, though another object
    assert out.getvalue().count(CLEAR_SCREEN) == 1
    assert out.getvalue().endswith(CLEAR_SCREEN + render_text(SAMPLE) + "\n")

    renderer.show(SETTLED)
    assert out.getvalue().count(CLEAR_SCREEN) == 2
    assert out.getvalue().endswith(CLEAR_SCREEN + render_text(SETTLED) + "\n")

    renderer.show(SAMPLE)
    assert out.getvalue().count(CLEAR_SCREEN) == 3


def test_terminal_renderer_close_restores_the_cursor_once() -> None:
    out = io.StringIO()
    renderer = TerminalRenderer(out, width=40)
    renderer.show(SAMPLE)
    renderer.close()
    renderer.close()
    renderer.show(SETTLED)
    assert out.getvalue().count(SHOW_CURSOR) == 1
    assert out.getvalue().endswith(SHOW_CURSOR)
    assert "PAY" not in out.getvalue()
    assert not out.closed


def test_terminal_renderer_width_on_a_non_terminal_is_78() -> None:
    out = io.StringIO()
    TerminalRenderer(out).show(SAMPLE)
    assert "=" * 78 + "\n" in out.getvalue()
    assert "=" * 79 not in out.getvalue()


def test_log_renderer_writes_each_change_separated_by_a_blank_line() -> None:
    out = io.StringIO()
    renderer = LogRenderer(out)
    renderer.show(SAMPLE)
    renderer.show(SAMPLE)
    renderer.show(SETTLED)
    renderer.show(SETTLED)
    assert out.getvalue() == render_text(SAMPLE) + "\n\n" + render_text(SETTLED) + "\n"
    assert "\x1b" not in out.getvalue()
    renderer.close()
    renderer.show(SAMPLE)
    assert out.getvalue().count("decisions") == 1
    assert not out.closed


def test_null_renderer_keeps_the_last_view() -> None:
    renderer = NullRenderer()
    assert renderer.view is None
    renderer.show(SAMPLE)
    assert renderer.view is SAMPLE
    renderer.close()


def test_log_renderer_writes_a_flood_of_changes_at_most_once_a_second_after_a_burst() -> None:
    """Views that change only in their notices (a client pressing in a loop, each press refused)."""
    out = io.StringIO()
    now = [0.0]
    renderer = LogRenderer(out, burst=3, every=1.0, clock=lambda: now[0])
    views = [dataclasses.replace(SAMPLE, alerts=(f"press {n} refused",)) for n in range(1000)]
    for view in views[:500]:                                  # 500 changes within one instant
        renderer.show(view)
    assert out.getvalue().count("refused") == 3               # the burst, then nothing more for now
    now[0] = 1.0
    renderer.show(views[500])                                 # a token is back: the newest view is written
    assert out.getvalue().count("refused") == 4
    assert "(497 views of the display left out of the log: they changed too fast)\n" in out.getvalue()
    assert "press 500 refused" in out.getvalue()
    for view in views[501:]:
        renderer.show(view)
    renderer.close()                                          # the last view is never lost
    assert out.getvalue().count("refused") == 5
    assert "press 999 refused" in out.getvalue()


def test_log_renderer_never_leaves_out_a_change_of_instruction_or_of_the_buttons() -> None:
    """However fast they come, a view that tells the dealer something new (a re-buy-or-leave prompt
    right after the settlement, another button lit) is written (issue 18 item 8)."""
    out = io.StringIO()
    renderer = LogRenderer(out, burst=1, every=1.0, clock=lambda: 0.0)
    steps = [dataclasses.replace(SAMPLE, instruction=f"step {n}") for n in range(50)]
    lit = [dataclasses.replace(steps[-1], live_buttons=buttons) for buttons in (("deal",), ("next",))]
    for view in (*steps, *lit):
        renderer.show(view)
        renderer.show(dataclasses.replace(view, alerts=("a notice",)))   # a repeat may be left out
    text = out.getvalue()
    assert [line for line in text.splitlines() if line.startswith("=> ")] == [
        f"=> step {n}" for n in range(50)] + ["=> step 49"] * 2
    assert "Buttons: DEAL\n" in text and "Buttons: NEXT\n" in text
    assert "left out of the log" in text


async def test_log_renderer_writes_a_held_view_when_its_turn_comes_on_the_loop() -> None:
    out = io.StringIO()
    renderer = LogRenderer(out, burst=1, every=0.05)
    noticed = dataclasses.replace(SAMPLE, alerts=("a notice",))
    renderer.show(SAMPLE)
    renderer.show(noticed)                                    # held back: no token left
    assert "a notice" not in out.getvalue()
    await asyncio.sleep(0.3)                                  # the timer is due after 0.05 s
    assert out.getvalue().endswith(render_text(noticed) + "\n")
    renderer.close()
