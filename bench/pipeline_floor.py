"""The raw pipeline floor for ``bench/daemon_bench.py``: a board's CARD to the pit with no table in between.

A process of its own, like the daemon: the same pty link (``HostLink``, go-back-N
and its ACKs), then for each CARD one pit event encoded as the daemon encodes a
``card.dealt`` (and, with ``--rfid``, for each INVENTORY from a second link one
encoded as a ``bet.placed``), appended to a real journal (one write, one fsync)
and published on a ZeroMQ PUB socket. No driver, no table, no game, no high-water mark. What the
daemon takes beyond this floor is the table's own cost.

    .venv/bin/python bench/pipeline_floor.py --link PTY [--rfid PTY] --state DIR --publish ENDPOINT \
        [--table BENCH]

It runs until SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from pathlib import Path
from typing import Any

import zmq

from controller.events.envelope import encode_event, now_timestamp
from controller.journal.lines import Record
from controller.journal.log import Journal
from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import Card, Inventory, Message


class Floor:
    """Every CARD from the link: journaled (fsync), then published."""

    def __init__(self, table: str, journal: Journal, pub: zmq.Socket[bytes]) -> None:
        self.table = table
        self.journal = journal
        self.pub = pub

    def on_message(self, message: Message, *_: Any) -> None:
        if isinstance(message, Card):
            kind, hand = "card.dealt", 1
            data: dict[str, Any] = {"index": message.index, "to": "seat", "seat": 3, "hand_index": 0,
                                    "card": "Ah", "face_up": True}
        elif isinstance(message, Inventory):
            kind, hand = "bet.placed", 2
            data = {"seat": 1, "spot": "main", "amount": sum(chip.value for chip in message.chips)}
        else:
            return
        seq = self.journal.last_seq + 1
        topic, body = encode_event(self.table, seq, now_timestamp(), kind, hand, data, epoch=1795000000)
        self.journal.append(Record(seq, topic.decode(), body, {}))
        self.pub.send_multipart([topic, body], flags=zmq.NOBLOCK)


async def run(link: str, rfid: str | None, state: Path, publish: str, table: str) -> None:
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    context = zmq.Context()
    pub = context.socket(zmq.PUB)
    pub.setsockopt(zmq.LINGER, 0)
    pub.bind(publish)
    journal = Journal.open(state / "journal.log")
    floor = Floor(table, journal, pub)
    hosts = [HostLink(path, on_message=floor.on_message, on_online=lambda *_: None,
                      on_offline=lambda *_: None) for path in [link, *([rfid] if rfid else [])]]
    for host in hosts:
        await host.start()
    try:
        await stopping.wait()
    finally:
        for host in hosts:
            await host.close()
        journal.close()
        pub.close()
        context.term()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--link", required=True)
    parser.add_argument("--rfid", default=None, help="a second link, an RFID reader's")
    parser.add_argument("--state", type=Path, required=True)
    parser.add_argument("--publish", required=True)
    parser.add_argument("--table", default="BENCH")
    args = parser.parse_args()
    asyncio.run(run(args.link, args.rfid, args.state, args.publish, args.table))


if __name__ == "__main__":
    main()
