"""The table as the screen knows it: the last picture, the link, the banners dismissed, the hits.

:class:`ScreenTable` is the follower's listener (``controller/follow/
aio.py``): the picture is kept by the client library's one reducer
(:class:`~controller.follow.picture.TablePicture`): every snapshot and
every ``table.view`` replaces it whole, so the page always draws the latest
one, however fast they come. From
the events it keeps only what the picture does not hold: the progressive hits
for the meter page (the picture's ``jackpots`` says which still wait for a
supervisor, and so when a jackpot's banner goes). :meth:`model` is what the
page draws.

A banner whose dismissal takes two steps (:func:`controller.events.alerts.two_steps`:
one that clears by a supervisor, or a critical one the registry does not know)
is dismissed only by a confirmation (``confirm``) within :data:`CONFIRM_WITHIN`
seconds of a first request that armed it; a single request, or a confirmation
alone, leaves it shown. The arming is the server's, so every page shows it.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.follow.picture import TablePicture
from controller.screen.advice import banners
from controller.screen.answers import Answers
from controller.screen.forms import action_labels, dangerous, offered
from controller.screen.payouts import payout_checks
from controller.screen.reasons import payout_reasons

HITS = 10
"""Progressive hits kept for the meter page."""

PICTURE_WAIT = 0.3
"""Seconds an event may go without its picture before the screen takes a snapshot instead."""

CONFIRM_WITHIN = 10.0
"""Seconds after the first step of a two-step dismissal within which its confirmation counts."""


@dataclass(frozen=True)
class Dismissal:
    """What became of a request to dismiss a banner: ``done``, or ``armed`` (a first step taken,
    its confirmation awaited), or neither, and why (``reason``)."""

    done: bool
    armed: bool = False
    reason: str = ""


class ScreenTable:
    """One table's picture and what the screen adds to it; tells :attr:`on_change` of every change."""

    def __init__(self, name: str, denominations: tuple[int, ...],
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``clock`` (seconds, monotonic) times the confirmation of a two-step dismissal."""
        self.name = name
        self.denominations = denominations
        self.drawn = TablePicture()
        """The last picture (the snapshot's state or a ``table.view``'s data)."""
        self.epoch = ""
        self.link_state = {"state": "connecting", "reason": ""}
        self.dismissed: set[str] = set()
        self.armed: dict[str, float] = {}
        """Banners whose two-step dismissal is armed, and when."""
        self._clock = clock
        self.hits: deque[dict[str, Any]] = deque(maxlen=HITS)
        self.answers = Answers()
        """The answers given during the hand in play (a chip count)."""
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
        self.hits.clear()
        self.answers.clear()
        self.drawn.restart(snapshot)
        self.changed()

    def refreshed(self, follower: Any, snapshot: dict[str, Any]) -> None:
        """A newer snapshot of the same sequence."""
        self.drawn.snapshot(snapshot)
        self.changed()

    def event(self, follower: Any, message: dict[str, Any], topic: bytes, body: bytes, live: bool) -> None:
        """Keep the progressive hits; the picture that follows draws the rest."""
        data = message.get("data") or {}
        self.drawn.event(message)
        if self.answers.event(message, self.state):
            self.changed()
        if self.drawn.stale and not self._watching:
            self._watching = True
            asyncio.get_running_loop().call_later(PICTURE_WAIT, self._picture_due, follower)
        if message.get("type") == "progressive.hit":
            self.hits.appendleft({"seat": data.get("seat"), "prize": data.get("prize"),
                                  "amount": data.get("amount"), "ts": message.get("ts")})
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

    def dismiss(self, key: str, confirm: bool = False) -> Dismissal:
        """The dealer touched a banner's Done (``confirm``: its second touch, "Done: sure?")."""
        banner = next((b for b in self._banners() if b["key"] == key), None)
        if banner is None or not banner["dismissable"]:
            return Dismissal(False, reason="this banner goes by itself once it is resolved"
                             if banner is not None else "no such banner is shown")
        if banner["confirm"]:
            if not confirm:
                self.armed[key] = self._clock()
                self._expire(key)
                self.changed()
                return Dismissal(False, armed=True, reason=f"touch Done again within {CONFIRM_WITHIN:.0f} s "
                                                           "to confirm")
            if not banner["armed"]:
                return Dismissal(False, reason="touch Done first, then confirm")
        self.armed.pop(key, None)
        self.dismissed.add(key)
        self.changed()
        return Dismissal(True)

    def _armed(self) -> set[str]:
        """The banners armed no longer ago than :data:`CONFIRM_WITHIN`."""
        now = self._clock()
        return {key for key, at in self.armed.items() if now - at < CONFIRM_WITHIN}

    def _expire(self, key: str) -> None:
        """Draw the banner unarmed again once its confirmation is too late (on a running loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_later(CONFIRM_WITHIN, self._disarm, key)

    def _disarm(self, key: str) -> None:
        at = self.armed.get(key)
        if at is not None and key not in self._armed():
            del self.armed[key]
            self.changed()

    def _banners(self) -> list[dict[str, Any]]:
        return banners(self.state or {}, self.epoch, self.dismissed, self._armed())

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
            "dangerous": dangerous(picture),
            "answers": self.answers.now(picture.get("hand") if picture is not None else None),
            "reasons": payout_reasons(picture) if picture is not None else {},
        }
        self._model = (self.version, model)
        return model
