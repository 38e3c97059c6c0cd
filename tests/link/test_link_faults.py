"""Acceptance: the host link over real ptys with the simulator and fault injection.

A real :class:`~firmware_bridge.link.host.HostLink` (timers shortened) and a
:class:`~firmware_bridge.simulator.board.SimulatedBoard` share one asyncio loop and
talk over a real pty behind a symlink. A scripted shoe of 200 cards is drawn
while faults are active: bursts of noise, 20 % of frames dropped, corrupted
CRCs, a board reboot, the port vanishing and coming back, and all of them
together. Every test shows that within each link session the host got every
card at most once and in order, and that after removing the repeats a new
session may bring (the spec's idempotence by ``(shoe_id, index)``) it got
every card exactly once, in order. Faults are triggered by what the host has
received, never by sleeping.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import Card, CutCard, Message, ShoeLoaded, SpotLights
from firmware_bridge.simulator.board import SimulatedBoard

CARDS = 200
DEADLINE = 20.0
"""Upper bound of one test; each normally takes a second or two."""


def scripted_cards(rng: random.Random, count: int = CARDS) -> list[tuple[int, int]]:
    return [(rng.randrange(1, 14), rng.randrange(4)) for _ in range(count)]


class Harness:
    """A board and a HostLink on one pty; records what the host receives, session by session."""

    def __init__(self, tmp_path: Path, seed: int) -> None:
        self.rng = random.Random(seed)
        self.link = tmp_path / f"shoe-{seed}"
        self.board = SimulatedBoard("shoe", link=self.link, rng=self.rng, rto=0.05, status_interval=0.2)
        self.session = 0
        self.received: list[tuple[int, Message]] = []
        self.online_count = 0
        self.offline_count = 0
        self.hooks: list[Callable[[], None]] = []
        """Called after every message the host receives (fault triggers)."""
        self.loop = asyncio.get_running_loop()
        self.done: asyncio.Future[None] = self.loop.create_future()
        self.offline: asyncio.Event = asyncio.Event()
        self.online: asyncio.Event = asyncio.Event()
        self.tasks: list[asyncio.Future[Any]] = []
        self.shoe_id = 0
        self.host: HostLink | None = None

    async def start(self) -> HostLink:
        await self.board.start()
        self.host = HostLink(
            str(self.link),
            on_message=self._on_message,
            on_online=self._on_online,
            on_offline=self._on_offline,
            reopen_interval=0.05,
            offline_after=0.5,
        )
        await self.host.start()
        return self.host

    async def close(self) -> None:
        if self.host is not None:
            await self.host.close()
        for task in self.tasks:
            if not task.done():
                task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.board.close()

    def _on_message(self, message: Message, *_: Any) -> None:
        self.received.append((self.session, message))
        for hook in list(self.hooks):
            hook()
        if self.delivered_indices()[-1:] == [CARDS] and not self.done.done():
            self.done.set_result(None)

    def _on_online(self, *_: Any) -> None:
        self.session += 1
        self.online_count += 1
        self.offline.clear()
        self.online.set()

    def _on_offline(self, *_: Any) -> None:
        self.offline_count += 1
        self.offline.set()
        self.online.clear()

    def cards(self) -> list[tuple[int, int]]:
        """(session, index) of every CARD received, in order."""
        return [(s, m.index) for s, m in self.received if isinstance(m, Card)]

    def delivered_indices(self) -> list[int]:
        """The card indices after dropping repeats by (shoe_id, index), in order of first arrival."""
        seen: set[tuple[int, int]] = set()
        out: list[int] = []
        for _, message in self.received:
            if isinstance(message, Card) and (self.shoe_id, message.index) not in seen:
                seen.add((self.shoe_id, message.index))
                out.append(message.index)
        return out

    def cards_received(self) -> int:
        return len(self.delivered_indices())

    def at_card(self, count: int, action: Callable[[], None]) -> None:
        """Run ``action`` once, when the host has got ``count`` distinct cards."""

        def hook() -> None:
            if self.cards_received() >= count:
                self.hooks.remove(hook)
                action()

        self.hooks.append(hook)

    async def run_shoe(self, cards: list[tuple[int, int]]) -> None:
        self.board.load_shoe(1, cards, cut_at=150)
        assert self.board.shoe is not None and self.board.shoe.shoe_id is not None
        self.shoe_id = self.board.shoe.shoe_id
        self.board.draw(len(cards))
        await asyncio.wait_for(self.done, DEADLINE)
        self.board.faults.clear()
        await asyncio.wait_for(self.board.wait_idle(), DEADLINE)

    def check_exactly_once_in_order(self, cards: list[tuple[int, int]]) -> None:
        by_session: dict[int, list[int]] = {}
        for session, index in self.cards():
            by_session.setdefault(session, []).append(index)
        for session, indices in by_session.items():
            # Within a session: no repeat, no gap, in order.
            assert indices == list(range(indices[0], indices[0] + len(indices))), session
        # Across sessions a new one may repeat what was not yet acknowledged, never skip.
        starts = sorted(by_session.items())
        for (_, before), (_, after) in itertools.pairwise(starts):
            assert after[0] <= before[-1] + 1
        assert self.delivered_indices() == list(range(1, CARDS + 1))
        identities = {m.index: (m.rank, m.suit) for _, m in self.received if isinstance(m, Card)}
        assert [identities[i] for i in range(1, CARDS + 1)] == cards
        assert next(m for _, m in self.received if isinstance(m, ShoeLoaded)) == ShoeLoaded(self.shoe_id, 1)
        assert {m for _, m in self.received if isinstance(m, CutCard)} == {CutCard(150)}


@pytest.fixture
async def harness(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Harness]:
    seed = sum(map(ord, request.node.name))
    h = Harness(tmp_path, seed)
    await h.start()
    yield h
    await h.close()


async def test_clean_link_baseline(harness: Harness) -> None:
    cards = scripted_cards(harness.rng)
    await harness.run_shoe(cards)
    harness.check_exactly_once_in_order(cards)
    assert harness.session == 1
    assert [i for _, i in harness.cards()] == list(range(1, CARDS + 1))


async def test_bursts_of_noise(harness: Harness) -> None:
    cards = scripted_cards(harness.rng)
    for count in range(10, CARDS, 15):
        harness.at_card(count, lambda: harness.board.noise(harness.rng.randrange(20, 600)))
    await harness.run_shoe(cards)
    harness.check_exactly_once_in_order(cards)
    assert harness.board.noise_sent > 0
    assert harness.host is not None and harness.host.stats.framing_errors > 0


async def test_a_fifth_of_the_frames_dropped(harness: Harness) -> None:
    cards = scripted_cards(harness.rng)
    harness.board.faults.drop_rate = 0.2
    await harness.run_shoe(cards)
    harness.check_exactly_once_in_order(cards)
    assert harness.board.frames_dropped >= 30
    assert harness.board.stats.retransmissions > 0


async def test_corrupted_crcs(harness: Harness) -> None:
    cards = scripted_cards(harness.rng)
    harness.board.faults.corrupt_rate = 0.1
    await harness.run_shoe(cards)
    harness.check_exactly_once_in_order(cards)
    assert harness.board.frames_corrupted >= 10
    assert harness.host is not None and harness.host.stats.crc_errors == harness.board.frames_corrupted


async def test_board_reboots_mid_stream(harness: Harness) -> None:
    cards = scripted_cards(harness.rng)
    harness.at_card(50, harness.board.reboot)
    harness.at_card(120, harness.board.reboot)
    await harness.run_shoe(cards)
    harness.check_exactly_once_in_order(cards)
    assert harness.session >= 3
    assert harness.board.stats.sessions >= 3


async def test_port_vanishes_and_comes_back_mid_stream(harness: Harness) -> None:
    cards = scripted_cards(harness.rng)
    harness.at_card(60, unplug_until_offline(harness))
    await harness.run_shoe(cards)
    harness.check_exactly_once_in_order(cards)
    assert harness.offline_count >= 1
    assert harness.session >= 2


def unplug_until_offline(harness: Harness) -> Callable[[], None]:
    """Unplug now; replug once the host has noticed (its on_offline), from a task."""

    async def replug_when_offline() -> None:
        await harness.offline.wait()
        await harness.board.replug()

    def action() -> None:
        harness.board.unplug()
        harness.tasks.append(asyncio.ensure_future(replug_when_offline()))

    return action


async def test_everything_at_once(harness: Harness) -> None:
    cards = scripted_cards(harness.rng)
    faults = harness.board.faults
    faults.drop_rate = 0.2
    faults.corrupt_rate = 0.1
    for count in range(5, CARDS, 25):
        harness.at_card(count, lambda: harness.board.noise(harness.rng.randrange(20, 400)))
    harness.at_card(40, harness.board.reboot)
    harness.at_card(100, unplug_until_offline(harness))
    harness.at_card(160, harness.board.reboot)
    await harness.run_shoe(cards)
    harness.check_exactly_once_in_order(cards)
    assert harness.board.frames_dropped > 0 and harness.board.frames_corrupted > 0
    assert harness.session >= 4


async def test_spot_lights_survive_a_board_reboot(harness: Harness) -> None:
    got: asyncio.Future[Message] = harness.loop.create_future()
    assert harness.host is not None
    await asyncio.wait_for(harness.online.wait(), DEADLINE)  # wait_idle() alone returns before any session
    await asyncio.wait_for(harness.board.wait_idle(), DEADLINE)
    harness.board.on_message = lambda m: None if got.done() else got.set_result(m)
    sessions = harness.board.stats.sessions
    # The board reboots before it has read the frame (no await in between): the SPOT_LIGHTS
    # reaches a board out of session, is ignored, and stays unacknowledged on the host.
    harness.host.send(SpotLights(0b1011))
    harness.board.reboot()
    assert harness.board.spot_lights == 0
    assert await asyncio.wait_for(got, DEADLINE) == SpotLights(0b1011)
    assert harness.board.spot_lights == 0b1011
    assert harness.board.stats.sessions > sessions
    assert harness.session >= 2


async def test_spot_lights_lost_on_the_line_arrive_in_a_later_session(harness: Harness) -> None:
    got: asyncio.Future[Message] = harness.loop.create_future()
    assert harness.host is not None
    await asyncio.wait_for(harness.online.wait(), DEADLINE)
    await asyncio.wait_for(harness.board.wait_idle(), DEADLINE)
    harness.board.on_message = lambda m: None if got.done() else got.set_result(m)
    harness.board.faults.rx_drop_rate = 1.0  # every host frame lost: SPOT_LIGHTS, ACKs, RESETs
    harness.host.send(SpotLights(0b0110))
    # The board's unacknowledged STATUS frames stall; the host gives up on the silent session...
    await asyncio.wait_for(harness.offline.wait(), DEADLINE)
    harness.board.reboot()
    harness.board.faults.rx_drop_rate = 0.0
    assert await asyncio.wait_for(got, DEADLINE) == SpotLights(0b0110)
    assert harness.board.spot_lights == 0b0110
    assert harness.board.frames_dropped_rx >= 1
