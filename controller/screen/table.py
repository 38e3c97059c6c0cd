"""The table as the screen knows it: the last picture, the link, the banners dismissed, the hits.

:class:`ScreenTable` is the follower's listener (``controller/pit/follow/
aio.py``): the picture is kept by the client library's one reducer
(:class:`~controller.pit.follow.picture.TablePicture`): every snapshot and
every ``table.view`` replaces it whole, so the page always draws the latest
one, however fast they come. From
the events it keeps only what the picture does not hold: the progressive hits
for the meter page and the ``progressive.paid`` that resolve a jackpot's
banner. :meth:`model` is what the page draws.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any

from controller.pit.follow.picture import TablePicture
from controller.screen.advice import banners
from controller.screen.forms import action_labels, offered
from controller.screen.payouts import payout_checks

HITS = 10
"""Progressive hits kept for the meter page."""

PICTURE_WAIT = 0.3
"""Seconds an event may go without its picture before the screen takes a snapshot instead."""


class ScreenTable:
    """One table's picture and what the screen adds to it; tells :attr:`on_change` of every change."""

    def __init__(self, name: str, denominations: tuple[int, ...]) -> None:
        self.name = name
        self.denominations = denominations
        self.drawn = TablePicture()
        """The last picture (the snapshot's state or a ``table.view``'s data)."""
        self.epoch = ""
        self.link_state = {"state": "connecting", "reason": ""}
        self.dismissed: set[str] = set()
        self.paid: list[tuple[int, int]] = []
        """``(seat, seq)`` of every ``progressive.paid`` seen in this epoch."""
        self.hits: deque[dict[str, Any]] = deque(maxlen=HITS)
        self.version = 0
        self.on_change: Callable[[], None] = lambda: None
        self._model: tuple[int, dict[str, Any]] | None = None
        self._watching = False

    def changed(self) -> None:
        """Something the page draws changed."""
        self.version += 1
        self.on_change()

    # -- the follower's listener ---------------------------------------------------------------

    def snapshot(self, follower: Any, snapshot: dict[str, Any]) -> None:
        """A fresh start: the snapshot's state is the whole picture."""
        self.epoch = follower.epoch
        self.paid.clear()
        self.hits.clear()
        self.drawn.restart(snapshot)
        self.changed()

    def refreshed(self, follower: Any, snapshot: dict[str, Any]) -> None:
        """A newer snapshot of the same sequence."""
        self.drawn.snapshot(snapshot)
        self.changed()

    def event(self, follower: Any, message: dict[str, Any], topic: bytes, body: bytes, live: bool) -> None:
        """Keep the progressive hits and payments; the picture that follows draws the rest."""
        data = message.get("data") or {}
        self.drawn.event(message)
        if self.drawn.stale and not self._watching:
            self._watching = True
            asyncio.get_running_loop().call_later(PICTURE_WAIT, self._picture_due, follower)
        if message.get("type") == "progressive.hit":
            self.hits.appendleft({"seat": data.get("seat"), "prize": data.get("prize"),
                                  "amount": data.get("amount"), "ts": message.get("ts")})
            self.changed()
        elif message.get("type") == "progressive.paid" and isinstance(data.get("seat"), int):
            self.paid.append((data["seat"], message["seq"]))
            self.changed()

    def picture(self, follower: Any, message: dict[str, Any]) -> None:
        """The table's latest picture."""
        self.drawn.view(message)
        self.changed()

    def link(self, follower: Any) -> None:
        """The link to the table changed (``live``, ``silent``, ``error``, ``connecting``)."""
        self.link_state = {"state": follower.link_state, "reason": follower.reason}
        self.changed()

    def _picture_due(self, follower: Any) -> None:
        self._watching = False
        if self.drawn.stale:
            follower.refresh()

    @property
    def state(self) -> dict[str, Any] | None:
        """The last picture, None before the first."""
        return self.drawn.state

    # -- the page -------------------------------------------------------------------------------

    def dismiss(self, key: str) -> bool:
        """The dealer dismissed a banner; False if no such banner may be dismissed now."""
        if not any(b["key"] == key and b["dismissable"] for b in self._banners()):
            return False
        self.dismissed.add(key)
        self.changed()
        return True

    def _banners(self) -> list[dict[str, Any]]:
        return banners(self.state or {}, self.epoch, self.dismissed, self.paid)

    def model(self) -> dict[str, Any]:
        """What the page draws: the picture, the link, the banners, the payouts, the chips, the hits."""
        if self._model is not None and self._model[0] == self.version:
            return self._model[1]
        picture = self.state
        chips = picture.get("chips") if picture is not None else None
        denominations = tuple(chips) if isinstance(chips, list) and chips else self.denominations
        model = {
            "table": self.name,
            "seq": self.drawn.seq,
            "link": self.link_state,
            "ready": picture is not None and self.link_state["state"] == "live",
            "picture": picture,
            "banners": self._banners(),
            "payouts": payout_checks(picture, denominations) if picture is not None else [],
            "denominations": sorted(denominations, reverse=True),
            "hits": list(self.hits),
            "forms": offered(picture),
            "labels": action_labels(picture),
        }
        self._model = (self.version, model)
        return model
