"""The table's own work per input, in process: no disk, no sockets.

Six seats play Easy Jack hands through :class:`controller.table.machine.Table`
with a journal that only keeps the records in memory and a publisher that drops
them, so what is timed is the table itself: the machine, the game, encoding
events, applying them. Prints the CPU time (process time, so other work on the
machine counts little) per card drawn and per hand.

    .venv/bin/python bench/table_bench.py [--hands 2000]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Limits
from controller.journal.lines import Record
from controller.table.machine import Table, TableSettings
from drivers.inputs import CardDrawn, DeviceOnline, ShoeLoaded, SpotWager
from firmware_bridge.kernel.cards import Card


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    hands = parser.parse_args().hands
    written: list[Record] = []

    def write(step: Sequence[Record]) -> None:
        written.extend(step)
        if len(written) > 10_000:
            written.clear()

    settings = TableSettings("BENCH", "easy-jack", 6, {"min_bet": 500, "max_bet": 50000},
                             ("deal", "stand", "next"), ("shoe", "rfid"))
    table = Table(settings, EasyJack(EasyJackRules(), Limits(500, 50000)),
                  clock=lambda: "2026-11-21T00:00:00.000Z", write=write,
                  publish=lambda topic, body: None)
    table.open(recovered=False)
    table.handle(DeviceOnline("shoe", "f", "s"))
    table.handle(DeviceOnline("rfid", "f", "s"))
    rng = random.Random(5)
    shoe: list[Card] = []
    shoe_id, cards, card_time, started = 0, 0, 0.0, time.process_time()
    for _ in range(hands):
        if len(shoe) < 60:
            shoe_id += 1
            shoe = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)] * 6
            rng.shuffle(shoe)
            table.handle(ShoeLoaded(shoe_id, 6))
        for seat in range(1, 7):
            table.handle(SpotWager(seat, "main", 2 * seat - 1, 1000, ("c",)))
        table.press("deal")
        while table.phase == "in_hand":
            if table.seat_in_turn() is not None and rng.random() < 0.5:
                table.press("stand")
                continue
            drawn = CardDrawn(shoe_id, table.state.shoe.last_index + 1, shoe.pop())
            begin = time.process_time()
            table.handle(drawn)
            card_time += time.process_time() - begin
            cards += 1
        table.press("next")
    total = time.process_time() - started
    print(f"{hands} hands, {cards} cards, {table.state.seq} events")
    print(f"table's own work per card drawn: {card_time / cards * 1e6:.1f} us")
    print(f"per hand (6 seats, every input): {total / hands * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
