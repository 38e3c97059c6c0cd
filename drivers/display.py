"""The dealer display: one view model of the table, and renderers that show it.

The controller builds a :class:`TableView` (plain, frozen, already decided:
what the dealer sees, never how; amounts come already written as money) after every change and hands it to a
:class:`Renderer`. :func:`render_text` turns a view into a plain text block;
:class:`TerminalRenderer` shows that block full-screen for the demo,
:class:`LogRenderer` writes it to a log, :class:`NullRenderer` shows nothing.
A real screen is another class with ``show(view)`` and ``close()``.

A face-down card is ``None`` in the view: its identity never reaches the
display, and it is drawn as ``[##]``.

>>> view = TableView(
...     table_id="T07", game="easy-jack", hand=57, phase="decisions",
...     instruction="Draw a card for seat 3 (hit), or press STAND",
...     seats=(
...         SeatView(seat=2, wagers={"main": "$10.00"}, hands=(HandLine(("9c", "9d"), "18"),),
...                  in_turn=False, result=None, alert=None),
...         SeatView(seat=3, wagers={"main": "$15.00", "side": "$5.00"},
...                  hands=(HandLine(("Qh", "7d"), "17"),), in_turn=True, result=None,
...                  alert="counterfeit chip"),
...     ),
...     dealer_cards=("Kc", None), dealer_total=None,
...     live_buttons=("stand",), alerts=("Seat 3 side: counterfeit chip 04a1b2c3d4e5f601",),
...     devices={"shoe": "online", "rfid": "offline: no answer for 3 s"},
...     payouts=(),
... )
>>> print(render_text(view))
T07 | easy-jack | hand 57 | decisions
==============================================================================
Devices: rfid OFFLINE: no answer for 3 s; shoe online
Dealer:   [Kc] [##]
  Seat 2  [9c] [9d] (18)  bet main $10.00
> Seat 3  [Qh] [7d] (17)  bet main $15.00, side $5.00  !! counterfeit chip
Alerts:
  !! Seat 3 side: counterfeit chip 04a1b2c3d4e5f601
Buttons: STAND
------------------------------------------------------------------------------
=> Draw a card for seat 3 (hit), or press STAND
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, TextIO, runtime_checkable

__all__ = [
    "HIDDEN_CARD",
    "HandLine",
    "LogRenderer",
    "NullRenderer",
    "Renderer",
    "SeatView",
    "TableView",
    "TerminalRenderer",
    "render_text",
]

HIDDEN_CARD = "[##]"
"""How a face-down card is drawn."""

MIN_WIDTH = 30
"""The narrowest text block :func:`render_text` draws."""

SPOT_ORDER = ("main", "side", "progressive", "insurance", "bet")
"""The order spots are listed in on a seat's line; other spots follow, alphabetically."""

CLEAR_SCREEN = "\x1b[H\x1b[2J"
"""ANSI: cursor home, then erase the whole screen."""

HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"


@dataclass(frozen=True)
class HandLine:
    """One hand of cards as the dealer sees it.

    ``cards`` are in pit notation (``"Qh"``), None for a face-down card;
    ``total`` is the hand's total as words (``"7"``, ``"soft 11"``,
    ``"natural"``, ``"bust 14"``) or None; ``status`` says where the hand
    stands (``"doubled"``, ``"folded"``) or None.
    """

    cards: tuple[str | None, ...] = ()
    total: str | None = None
    status: str | None = None


@dataclass(frozen=True)
class SeatView:
    """One seat as the dealer sees it.

    ``wagers`` maps each spot that holds chips now (the live RFID reading) to its amount in
    words (``"$15.00"``);
    ``hands`` are its hands of cards (more than one after a split);
    ``in_turn`` marks the seat whose decision the table waits for; ``result``
    is the settled result (``"main: pay 1500; side: collect 500"``) or None;
    ``alert`` is a problem at this seat, or None; ``stack`` the chips the
    table keeps for the seat in words (games with stacks), or None.
    """

    seat: int
    wagers: Mapping[str, str] = field(default_factory=dict)
    hands: tuple[HandLine, ...] = ()
    in_turn: bool = False
    result: str | None = None
    alert: str | None = None
    stack: str | None = None


@dataclass(frozen=True)
class TableView:
    """Everything the dealer display shows, at one moment.

    ``hand`` is the hand number (None between hands); ``instruction`` is the
    one line telling the dealer what to do next; ``live_buttons`` are the
    buttons that may be pressed now; ``devices`` maps a board to its state
    (``"online"`` or ``"offline: <reason>"``); ``payouts`` are the lines the
    dealer pays and collects by (``"Seat 3 main: PAY $15.00"``), in order;
    ``dealer_seat`` is the player-dealer's seat (None: the house deals);
    ``pots`` are a pot game's pots in words; ``notice`` is why the dealer's last
    press or command was refused (None once the table's state has changed
    since), shown apart from the alerts: ``??`` marks a refusal, ``!!`` an alert;
    ``message`` is the pit's message to the dealer, shown until acknowledged.
    """

    table_id: str
    game: str
    hand: int | None
    phase: str
    instruction: str
    seats: tuple[SeatView, ...] = ()
    dealer_cards: tuple[str | None, ...] = ()
    dealer_total: str | None = None
    live_buttons: tuple[str, ...] = ()
    alerts: tuple[str, ...] = ()
    devices: Mapping[str, str] = field(default_factory=dict)
    payouts: tuple[str, ...] = ()
    dealer_seat: int | None = None
    pots: tuple[str, ...] = ()
    notice: str | None = None
    message: str | None = None


@runtime_checkable
class Renderer(Protocol):
    """Something that shows table views: a terminal, a log, a real screen."""

    def show(self, view: TableView) -> None:
        """Show ``view`` (it replaces whatever was shown)."""

    def close(self) -> None:
        """Stop showing; release what the renderer holds. Calling it again does nothing."""


def format_cards(cards: tuple[str | None, ...]) -> str:
    """Cards as the dealer sees them; a face-down card is ``[##]``.

    >>> format_cards(("As", None))
    '[As] [##]'
    """
    return " ".join(HIDDEN_CARD if card is None else f"[{card}]" for card in cards)


def _spot_key(spot: str) -> tuple[int, str]:
    return (SPOT_ORDER.index(spot) if spot in SPOT_ORDER else len(SPOT_ORDER), spot)


def _format_wagers(wagers: Mapping[str, str]) -> str:
    bets = [f"{spot} {wagers[spot]}" for spot in sorted(wagers, key=_spot_key)]
    return "bet " + ", ".join(bets) if bets else "no bet"


def _format_hand(hand: HandLine) -> str:
    words = ", ".join(w for w in (hand.total, hand.status) if w is not None)
    return format_cards(hand.cards) + (f" ({words})" if words else "")


def _format_device(name: str, state: str) -> str:
    if state.startswith("offline"):
        state = "OFFLINE" + state[len("offline") :]
    return f"{name} {state}"


def render_text(view: TableView, width: int = 78) -> str:
    """The view as a plain text block, at most ``width`` columns wide (lines wrap).

    In order: a header line (table, game, hand, phase), the devices, the
    dealer's cards, one line per seat (``>`` marks the seat in turn), the
    payouts, the alerts (``!!``), a refusal (``??``), the live buttons, and
    last the instruction. Sections
    with nothing in them (payouts, alerts) are left out. Face-down cards are
    ``[##]``. The result is deterministic: the same view gives the same text.
    """
    width = max(width, MIN_WIDTH)
    lines: list[str] = []

    def add(text: str, indent: str = "    ") -> None:
        lines.extend(
            textwrap.wrap(
                text,
                width=width,
                subsequent_indent=indent,
                break_on_hyphens=False,
                drop_whitespace=True,
            )
            or [""]
        )

    hand = "no hand" if view.hand is None else f"hand {view.hand}"
    add(f"{view.table_id} | {view.game} | {hand} | {view.phase}")
    lines.append("=" * width)

    devices = "; ".join(_format_device(name, view.devices[name]) for name in sorted(view.devices))
    add(f"Devices: {devices or 'none'}")

    dealer = format_cards(view.dealer_cards) or "(no cards)"
    if view.dealer_total is not None:
        dealer += f" ({view.dealer_total})"
    who = "" if view.dealer_seat is None else f" (seat {view.dealer_seat})"
    add(f"Dealer{who}:   {dealer}")
    for pot in view.pots:
        add(f"  {pot}")

    for seat in view.seats:
        parts = [f"{'>' if seat.in_turn else ' '} Seat {seat.seat}"]
        if seat.hands:
            parts.append(" | ".join(_format_hand(hand) for hand in seat.hands))
        parts.append(_format_wagers(seat.wagers))
        if seat.stack is not None:
            parts.append(f"stack {seat.stack}")
        if seat.result is not None:
            parts.append(f"-> {seat.result}")
        if seat.alert is not None:
            parts.append(f"!! {seat.alert}")
        add("  ".join(parts), indent="          ")

    if view.payouts:
        lines.append("Payouts:")
        for payout in view.payouts:
            add(f"  {payout}", indent="    ")
    if view.alerts:
        lines.append("Alerts:")
        for alert in view.alerts:
            add(f"  !! {alert}", indent="     ")
    if view.notice is not None:
        add(f"Refused: ?? {view.notice}", indent="     ")
    if view.message is not None:
        add(f"From the pit: {view.message} (ACKNOWLEDGE when read)", indent="     ")

    buttons = "  ".join(name.upper() for name in view.live_buttons)
    add(f"Buttons: {buttons or '(none)'}")
    lines.append("-" * width)
    add(f"=> {view.instruction}", indent="   ")
    return "\n".join(lines)


class NullRenderer:
    """A renderer that shows nothing; it keeps the last view in :attr:`view` (for tests)."""

    def __init__(self) -> None:
        self.view: TableView | None = None

    def show(self, view: TableView) -> None:
        """Remember ``view``."""
        self.view = view

    def close(self) -> None:
        """Nothing to release."""


class LogRenderer:
    """Writes the text block to ``stream`` (default ``sys.stderr``) each time it changes, without flooding.

    Blocks are separated by a blank line. A view that renders exactly as the
    last one writes nothing. A view that tells the dealer something new (its
    instruction or its live buttons differ from the last view written) is
    always written at once: a prompt is never left out of the log. Views that
    change only in the rest (notices, chip readings) are rate limited: up to
    ``burst`` blocks at once, then at most one every ``every`` seconds (a token
    bucket), so a flood (a stuck button, a client pressing in a loop, each
    press refused) writes the newest view once a second, after a line saying how
    many views were left out, while a dealer's pace is never held back. A view
    held back is written when its turn comes (by a timer on the running asyncio
    loop, if any, else at the next :meth:`show`), or left out when a newer view
    comes first, or written at :meth:`close`. The stream is flushed after each
    block and is never closed (it belongs to the caller).

    >>> import io
    >>> out = io.StringIO()
    >>> renderer = LogRenderer(out, width=40)
    >>> view = TableView("T07", "easy-jack", None, "idle", "Press DEAL")
    >>> renderer.show(view); renderer.show(view)
    >>> out.getvalue().count("Press DEAL")
    1
    """

    def __init__(self, stream: TextIO | None = None, *, width: int = 78, burst: int = 60,
                 every: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._stream = stream
        self._width = width
        self._burst = burst
        self._every = every
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock()
        self._last: str | None = None
        self._last_prompt: tuple[str, tuple[str, ...]] | None = None
        self._held: str | None = None
        self._held_prompt: tuple[str, tuple[str, ...]] | None = None
        self._left_out = 0
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False

    def show(self, view: TableView) -> None:
        """Write ``view``'s block unless it is the same as the last one: now if it changes the
        instruction or the live buttons, else now or when the rate allows."""
        if self._closed:
            return
        text = render_text(view, self._width)
        if self._held is not None and text != self._held:
            self._left_out += 1
        self._held = None if text == self._last else text
        self._held_prompt = (view.instruction, tuple(view.live_buttons))
        self._release(now=self._held_prompt != self._last_prompt)

    def _release(self, *, now: bool = False) -> None:
        """Write the view held back if a token is free (or ``now``, whatever the rate), else make sure
        it is written when one is."""
        clock = self._clock()
        self._tokens = min(float(self._burst), self._tokens + (clock - self._stamp) / self._every)
        self._stamp = clock
        if self._held is None:
            return
        if self._tokens >= 1 or now:
            self._tokens = max(0.0, self._tokens - 1)
            self._write(self._held)
            return
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            self._timer = loop.call_later((1 - self._tokens) * self._every, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        if not self._closed:
            self._release()

    def _write(self, text: str) -> None:
        stream = self._stream if self._stream is not None else sys.stderr
        left_out = (f"({self._left_out} views of the display left out of the log: they changed too "
                    "fast)\n") if self._left_out else ""
        stream.write(("" if self._last is None else "\n") + left_out + text + "\n")
        stream.flush()
        self._last = text
        self._last_prompt = self._held_prompt
        self._held = None
        self._left_out = 0

    def close(self) -> None:
        """Write the view held back, if any, then stop writing (later views are ignored). The stream
        stays open."""
        if self._closed:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._held is not None:
            self._write(self._held)
        self._closed = True


class TerminalRenderer:
    """Full-screen on an ANSI terminal: clears the screen and redraws the text block.

    It redraws only when what it would show changed: a different view, or a
    resized terminal. ``width`` None follows the terminal's width (78 columns
    when the stream is not a terminal). :meth:`close` shows the cursor again
    and leaves the last block on the screen; the stream (default
    ``sys.stdout``) is never closed.
    """

    def __init__(self, stream: TextIO | None = None, *, width: int | None = None) -> None:
        self._stream = stream
        self._width = width
        self._last: str | None = None
        self._closed = False

    def _current_width(self) -> int:
        if self._width is not None:
            return self._width
        stream = self._stream if self._stream is not None else sys.stdout
        try:
            if stream.isatty():
                return shutil.get_terminal_size((79, 24)).columns - 1
        except (AttributeError, ValueError, OSError):
            pass
        return 78

    def show(self, view: TableView) -> None:
        """Clear the screen and draw ``view``, unless the screen already shows exactly that."""
        if self._closed:
            return
        text = render_text(view, self._current_width())
        if text == self._last:
            return
        stream = self._stream if self._stream is not None else sys.stdout
        prefix = HIDE_CURSOR if self._last is None else ""
        stream.write(prefix + CLEAR_SCREEN + text + "\n")
        stream.flush()
        self._last = text

    def close(self) -> None:
        """Show the cursor again; later views are ignored. Calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        if self._last is not None:
            stream = self._stream if self._stream is not None else sys.stdout
            stream.write(SHOW_CURSOR)
            stream.flush()
