"""The table as the screen knows it: the last picture, the link, the banners dismissed, the hits.

:class:`ScreenTable` is the follower's listener in records
(:class:`~controller.follow.records.RecordListener`, on a follower through
:class:`~controller.follow.records.Records`): the picture is a
:class:`~controller.events.picture.Picture`, and every snapshot and every
``table.view`` replaces it whole, so the page always draws the latest one,
however fast they come; the page gets it as the table published it (the
codec writes the record as exactly those bytes). From
the events it keeps only what the picture does not hold: the progressive hits
for the meter page (the picture's ``jackpots`` says which still wait for a
supervisor, and so when a jackpot's banner goes). :meth:`~ScreenTable.model` is what the
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
from typing import TYPE_CHECKING, TypedDict

from controller.events.codec import record_json
from controller.events.hand import Acted
from controller.events.picture import Picture
from controller.follow.records import FollowedEvent
from controller.games.session.progressive import ProgressiveHit
from controller.screen.advice import Banner, banners
from controller.screen.answers import ENDS, Answers
from controller.screen.forms import Form, action_labels, dangerous, offered
from controller.screen.payouts import PayoutCheck, payout_checks
from controller.screen.reasons import payout_reasons
from firmware_bridge.kernel.json import JsonObject

if TYPE_CHECKING:
    from controller.follow.aio import Follower

HITS = 10
"""Progressive hits kept for the meter page."""

PICTURE_WAIT = 0.3
"""Seconds an event may go without its picture before the screen takes a snapshot instead."""

CONFIRM_WITHIN = 10.0
"""Seconds after the first step of a two-step dismissal within which its confirmation counts."""

READ = frozenset({*ENDS, ProgressiveHit.pit_type, Acted.pit_type})
"""The events whose record the screen reads (the others only move the stream on)."""


@dataclass(frozen=True)
class Dismissal:
    """What became of a request to dismiss a banner: ``done``, or ``armed`` (a first step taken,
    its confirmation awaited), or neither, and why (``reason``)."""

    done: bool
    armed: bool = False
    reason: str = ""


class Link(TypedDict):
    """The link to the table: its ``state`` (``live``, ``silent``, ``error``, ``connecting``) and why."""

    state: str
    reason: str


class Hit(TypedDict):
    """A progressive prize won, for the meter page."""

    seat: int
    prize: str
    amount: int
    ts: str


class Model(TypedDict):
    """What the page draws (:meth:`ScreenTable.model`), sent to it as JSON."""

    table: str
    seq: int
    link: Link
    ready: bool
    picture: JsonObject | None
    banners: list[Banner]
    payouts: list[PayoutCheck]
    denominations: list[int]
    hits: list[Hit]
    forms: dict[str, Form]
    labels: dict[str, str]
    dangerous: list[str]
    answers: list[str]
    reasons: dict[str, str]


class ScreenTable:
    """One table's picture and what the screen adds to it; tells :attr:`on_change` of every change."""

    def __init__(self, name: str, denominations: tuple[int, ...],
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``clock`` (seconds, monotonic) times the confirmation of a two-step dismissal."""
        self.name = name
        self.denominations = denominations
        self.shown: Picture | None = None
        """The last picture (the snapshot's or a ``table.view``'s), None before the first."""
        self.seq = 0
        """The seq of the last event the picture reflects."""
        self.last_seq = 0
        """The seq of the last event of the stream."""
        self.epoch = ""
        self.link_state: Link = {"state": "connecting", "reason": ""}
        self.dismissed: set[str] = set()
        self.armed: dict[str, float] = {}
        """Banners whose two-step dismissal is armed, and when."""
        self._clock = clock
        self.hits: deque[Hit] = deque(maxlen=HITS)
        self.answers = Answers()
        """The answers given during the hand in play (a chip count)."""
        self.version = 0
        self.on_change: Callable[[], None] = lambda: None
        self._model: tuple[int, Model] | None = None
        self._watching = False

    def changed(self) -> None:
        """Something the page draws changed."""
        self.version += 1
        self.on_change()

    # -- the follower's listener (in records) ----------------------------------------------------

    def snapshot(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        """A fresh start: the snapshot's picture is the whole picture."""
        self.epoch = follower.epoch
        self.hits.clear()
        self.answers.clear()
        self.last_seq = 0
        self._take(seq, picture)

    def refreshed(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        """A newer snapshot of the same sequence."""
        self._take(seq, picture)

    def event(self, follower: Follower, event: FollowedEvent, live: bool) -> None:
        """Keep the progressive hits; the picture that follows draws the rest."""
        self.last_seq = event.seq
        if self.stale and not self._watching:
            self._watching = True
            asyncio.get_running_loop().call_later(PICTURE_WAIT, self._picture_due, follower)
        if event.type not in READ:
            return
        if self.answers.event(event, self.shown.game if self.shown is not None else None):
            self.changed()
        hit = event.event
        if isinstance(hit, ProgressiveHit):
            self.hits.appendleft({"seat": hit.seat, "prize": hit.prize, "amount": hit.amount,
                                  "ts": event.ts})
            self.changed()

    def picture(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        """The table's latest picture."""
        self._take(seq, picture)

    def link(self, follower: Follower) -> None:
        """The link to the table changed (``live``, ``silent``, ``error``, ``connecting``)."""
        self.link_state = {"state": follower.link_state, "reason": follower.reason}
        self.changed()

    def _take(self, seq: int, picture: Picture | None) -> None:
        """The picture as of event ``seq``; one that does not read as a picture (None, logged by
        :class:`~controller.follow.records.Records`) leaves the last."""
        if picture is not None:
            self.shown = picture
        self.seq = seq
        self.last_seq = max(self.last_seq, seq)
        self.changed()

    @property
    def stale(self) -> bool:
        """An event came after the picture: its picture is on the way (or was lost with a gap)."""
        return self.seq < self.last_seq

    def _picture_due(self, follower: Follower) -> None:
        self._watching = False
        if self.stale:
            follower.refresh()

    @property
    def commands(self) -> tuple[str, ...]:
        """The supervisor's commands the table offers now (the picture's ``commands``)."""
        return self.shown.commands if self.shown is not None else ()

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

    def _banners(self) -> list[Banner]:
        if self.shown is None:
            return []
        return banners(self.shown, self.epoch, self.dismissed, self._armed())

    def model(self) -> Model:
        """What the page draws: the picture, the link, the banners, the payouts, the chips, the hits."""
        if self._model is not None and self._model[0] == self.version:
            return self._model[1]
        picture = self.shown
        game = picture.game if picture is not None else None
        denominations = picture.chips if picture is not None and picture.chips else self.denominations
        model: Model = {
            "table": self.name,
            "seq": self.seq,
            "link": self.link_state,
            "ready": picture is not None and self.link_state["state"] == "live",
            "picture": record_json(picture) if picture is not None else None,
            "banners": self._banners(),
            "payouts": payout_checks(picture, denominations) if picture is not None else [],
            "denominations": sorted(denominations, reverse=True),
            "hits": list(self.hits),
            "forms": offered(self.commands),
            "labels": action_labels(game),
            "dangerous": dangerous(game, self.commands),
            "answers": self.answers.now(picture.hand if picture is not None else None),
            "reasons": payout_reasons(picture.results or ()) if picture is not None else {},
        }
        self._model = (self.version, model)
        return model
