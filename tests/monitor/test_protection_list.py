"""``GET /api/protection`` on a floor of many subjects: the answer, put together a share of the subjects
at a time and each subject worked out again only after it changed, is ``json.dumps`` of every subject
(:meth:`Protection.subjects`, the most suspicious first), each table's count and the settings, before
and after the tables dealt on."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from controller.devkit.floor_sim import Dealer
from controller.events.envelope import decode_body, encode_event, now_timestamp
from controller.podium.monitor.alerts import AlertBook
from controller.podium.monitor.floor import Floor
from controller.podium.monitor.protection_web import SHARE
from controller.podium.monitor.web import make_app, make_runner
from controller.podium.protection.watch import Protection

TABLES = 100


@dataclass
class Heard:
    """Where an event was heard from, as a follower tells the floor (its table and epoch)."""

    name: str
    epoch: str = ""


def deal(floor: Floor, tables: list[tuple[Heard, Iterator[Any]]], events: int, seqs: dict[str, int]) -> None:
    """``events`` more events of each simulated table, heard live by ``floor``."""
    for heard, steps in tables:
        for kind, hand, data in itertools.islice(steps, events):
            seqs[heard.name] = seq = seqs.get(heard.name, 0) + 1
            topic, body = encode_event(heard.name, seq, now_timestamp(), kind, hand, data)
            floor.event(heard, decode_body(body), topic, body, True)  # type: ignore[arg-type]


def expected(floor: Floor) -> str:
    protection = floor.protection
    assert protection is not None
    return json.dumps({"subjects": protection.subjects(),
                       "counts": {name: protection.count_of(name) for name in floor.tables},
                       "settings": protection.settings.to_json()})


async def test_the_list_of_a_big_floor_is_every_subject_as_it_is_now(tmp_path: Path) -> None:
    names = [f"T{n:02d}" for n in range(TABLES)]
    floor = Floor(names, AlertBook(tmp_path / "acks.jsonl"))
    floor.protect(Protection())
    tables = [(Heard(name), Dealer(random.Random(n), regulars=frozenset(range(1, 7))).events())
              for n, name in enumerate(names)]
    seqs: dict[str, int] = {}
    deal(floor, tables, 120, seqs)
    protection = floor.protection
    assert protection is not None and len(protection.tallies) > SHARE      # more than one share
    runner = make_runner(make_app(floor))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/api/protection"
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as reply:
                first = await reply.text()
                assert reply.content_type == "application/json"
            assert first == expected(floor)
            deal(floor, tables, 40, seqs)                          # every table deals on: its subjects change
            async with session.get(url) as reply:
                again = await reply.text()
            assert again == expected(floor) and again != first
            shown = json.loads(again)
            assert len(shown["subjects"]) == len(protection.tallies)
            assert all(count is not None for count in shown["counts"].values())
    finally:
        await runner.cleanup()
