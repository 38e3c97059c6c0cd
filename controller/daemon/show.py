"""What the daemon shows after each step (:class:`Show`): the table's picture, published as
``table.view`` if it changed (docs/pit-events.md), the dealer display, the status line, the button
lights and the spot lights; after a chip reading, once the readings have been quiet for
:data:`SHOW_DELAY`.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from controller.config.loader import Config
from controller.daemon.service import SystemdLink, table_status
from controller.events.codec import record_json
from controller.events.envelope import VIEW_TYPE, encode_event, now_timestamp
from controller.events.picture import Picture
from controller.journal.high_water import Start
from controller.pit.server import PitServer
from controller.table.machine import Table
from controller.table.views import dealer_view, table_picture
from drivers.board import BoardDriver
from drivers.buttons import DealerPanel
from drivers.display import Renderer

SHOW_DELAY = 0.002
"""Seconds without a chip reading before the table's picture is drawn after one (:meth:`Show.after`):
readings that come back to back (a stack of chips read as it is placed) are each journaled and
published at once, and share one picture, drawn once they stop; the dealer sees no difference. Every
other input draws the picture at once."""
SHOW_AT_LEAST = 0.05
"""Seconds at most from a step to its picture while inputs keep coming back to back."""


class ShowParts(Protocol):
    """What of the daemon (:class:`controller.daemon.loop.Daemon`) :class:`Show` reads, at each
    picture (the daemon starts its boards, buttons and sockets after it made its :class:`Show`)."""

    config: Config
    table: Table
    start: Start
    renderer: Renderer
    systemd: SystemdLink
    panel: DealerPanel | None
    boards: list[BoardDriver]
    pit: PitServer | None


class Show:
    """What the daemon shows after a step: the table's picture, published as ``table.view`` if it
    changed (docs/pit-events.md), the dealer display, the status line, the button lights and the spot
    lights (the spots of the seat in turn and, while betting is open, the spots the game lights for
    betting). After a chip reading they wait until the readings have been quiet for
    :data:`SHOW_DELAY`: readings that come back to back (a stack of chips read as it is placed)
    share one picture. It reads the daemon's parts at each picture (the daemon starts its boards,
    buttons and sockets after it made its :class:`Show`)."""

    def __init__(self, daemon: ShowParts) -> None:
        self.daemon = daemon
        self.last_picture: tuple[int, Picture] | None = None
        """The seq and the picture last published in ``table.view``."""
        self.timer: asyncio.TimerHandle | None = None
        """The :meth:`when_quiet` called for on the loop, until it runs."""
        self.reading = False
        """Whether the step :meth:`after` follows was a chip reading (its picture may wait)."""
        self.quiet_at = 0.0
        """Loop time at which the inputs will have been quiet for :data:`SHOW_DELAY`."""
        self.unshown_since = 0.0
        """Loop time of the first step the picture does not show yet."""

    def after(self) -> None:
        """After a step: :meth:`now`, or after a chip reading (:attr:`reading`) once the readings have
        been quiet for :data:`SHOW_DELAY`."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:                               # driven without a loop (tests): show now
            loop = None
        quiet, self.reading = self.reading, False
        if not quiet or loop is None:
            self.now()
            return
        now = loop.time()
        self.quiet_at = now + SHOW_DELAY
        if self.timer is None:
            self.unshown_since = now
            self.timer = loop.call_at(self.quiet_at, self.when_quiet)

    def when_quiet(self) -> None:
        """:meth:`now` once no input came for :data:`SHOW_DELAY`, or :data:`SHOW_AT_LEAST` after
        the first step it has not shown yet."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        if now < self.quiet_at and now < self.unshown_since + SHOW_AT_LEAST:
            self.timer = loop.call_at(min(self.quiet_at, self.unshown_since + SHOW_AT_LEAST),
                                      self.when_quiet)
            return
        self.now()

    def now(self) -> None:
        """The table's picture published if it changed, and the display and lights up to date."""
        self.cancel()
        daemon = self.daemon
        table = daemon.table
        picture = table_picture(table)
        self.publish(picture)
        view = dealer_view(table, picture)
        daemon.renderer.show(view)
        daemon.systemd.status(table_status(table))
        if daemon.panel is not None:
            daemon.panel.set_live(view.live_buttons)
        seat = table.seat_in_turn()
        lit = table.game.betting_lights if table.phase == "betting" else ()
        spots = {a for a, (s, spot) in daemon.config.antennas.items() if s == seat or spot in lit}
        for board in daemon.boards:
            board.light_spots(spots)

    def cancel(self) -> None:
        """Call off the picture waiting for the readings to stop, if one is."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def publish(self, picture: Picture) -> None:
        """Publish ``table.view`` with the table's picture after every step and whenever it differs
        from the last one sent (docs/pit-events.md, "The table's picture"), so that a consumer
        always has the picture of the last event it took. Like a heartbeat it takes no seq of its
        own (it carries the seq of the last event it reflects) and is neither journaled nor
        replayed: it is drawn from what the journal holds and from what the boards say live."""
        state = self.daemon.table.state
        pit = self.daemon.pit
        if pit is None or (state.seq, picture) == self.last_picture:
            return
        topic, body = encode_event(self.daemon.config.table_id, state.seq, now_timestamp(), VIEW_TYPE,
                                   state.hand_no if state.in_hand else None, record_json(picture),
                                   epoch=self.daemon.start.epoch)
        pit.publish(topic, body)
        self.last_picture = (state.seq, picture)
