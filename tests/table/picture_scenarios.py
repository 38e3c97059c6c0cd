"""Real tables of every game walked through their phases, the table's picture taken at each step.

Each scenario plays one table in process on a real journal (the rig of
``tests/rigs/table_rig.py``): a hand of each game walked at random with a fixed
seed (the walk of ``test_table_open_actions``: offered actions, cards, boards
going offline and back) through betting, the hand, its settlement and the next
betting round; and one table that goes through what the pit and the books do (a
tray, fills, the dealer signed in, the opener, a floor call, a message, a closed
table, new limits, a jackpot waiting and confirmed, a tournament's level).

:func:`pictures` yields, at every step, the compact JSON of :func:`public_state`
and of :func:`table_picture` as published. ``tests/data/pictures.jsonl.gz`` holds
them as the dict-built views of main wrote them, before the picture was records (``python -m
tests.table.picture_scenarios`` writes it again), so ``test_picture_golden`` keeps
today's bytes after the code that made them is gone.
"""

from __future__ import annotations

import functools
import gzip
import json
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from controller.commands import books as orders
from controller.commands.table import CloseTable, DealerMessage, OpenTable, SetLimits, TrayFill
from controller.events.codec import record_json
from controller.events.envelope import compact_json
from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.interface import Limits
from controller.table.machine import Table, TableSettings
from controller.table.views import public_state, table_picture
from drivers.inputs import CardDrawn, DeviceStatus, SpotWager
from firmware_bridge.kernel.cards import Card
from tests.rigs.table_rig import Rig
from tests.table.test_table_open_actions import GAMES, RANKS, SUITS, move

GOLDEN = Path(__file__).parents[1] / "data" / "pictures.jsonl.gz"
"""The pictures main's dict-built views published, one JSON line per step."""

SAVED = Path(__file__).parents[1] / "data" / "checkpoints.jsonl.gz"
"""The checkpoint main's dict-built state wrote at the end of each scenario."""

Shot = tuple[str, bytes, bytes]
"""One step: the scenario's name and step, the public state's bytes, the picture's bytes."""


def picture_json(table: Table) -> dict[str, Any]:
    """The picture of ``table`` as JSON data (as the daemon publishes it)."""
    return record_json(table_picture(table))


def state_json(table: Table) -> dict[str, Any]:
    """The public state of ``table`` as JSON data."""
    return record_json(public_state(table))


def shot(name: str, table: Table) -> Shot:
    """The step's bytes."""
    return name, compact_json(state_json(table)), compact_json(picture_json(table))


def walked(folder: Path, game: str, seed: int, screen: bool) -> Iterator[Shot]:
    """A hand of ``game`` walked at random (``seed``), then NEXT and the next betting round."""
    make, ready = GAMES[game]
    made = make()
    buttons = () if screen else ("deal", "next", "void", *made.actions)
    rig = Rig(folder, game=made, buttons=buttons)
    name = f"{game}/{seed}/{'screen' if screen else 'buttons'}"
    yield shot(f"{name}/opened", rig.table)
    ready(rig)
    chance = random.Random(seed)
    deck = [rank + suit for rank in RANKS for suit in SUITS] * made.decks
    chance.shuffle(deck)
    yield shot(f"{name}/ready", rig.table)
    assert rig.table.press("deal", physical=False) is None
    for step in range(400):
        yield shot(f"{name}/{step}", rig.table)
        if rig.table.phase == "settled":
            break
        move(rig, picture_json(rig.table), deck, chance)
    rig.table.press("next", physical=False)
    yield shot(f"{name}/next", rig.table)
    yield saved(name, rig.table)
    rig.journal.close()


class Pit(Rig):
    """The rig's Easy Jack table with a tray and chips in its registry."""

    def _table(self, write: Any) -> Table:
        settings = TableSettings("T07", "easy-jack", 4, {"min_bet": 500, "max_bet": 50000}, self.buttons,
                                 ("shoe", "rfid"), chips=(100, 500, 2500), tray=True)
        ticks = iter(range(10**9))
        return Table(settings, self.game, clock=lambda: f"2026-11-21T00:00:00.{next(ticks) % 1000:03d}Z",
                     write=write)


def pit(folder: Path) -> Iterator[Shot]:
    """What the pit and the books do to an Easy Jack table with a tray, between and during hands."""
    rig = Pit(folder)
    table = rig.table
    steps: list[tuple[str, Callable[[], object]]] = [
        ("ready", lambda: rig.ready(s1_main=1000, s2_main=500, s2_side=500)),
        ("tray", lambda: rig.do(SpotWager(0, "tray", 9, 250_000, ("t1", "t2", "t3"), (),
                                          values=(100_000, 50_000, 100_000)))),
        ("status", lambda: rig.do(DeviceStatus("shoe", ("lid open",)))),
        ("dealer_in", lambda: table.books_command(orders.DealerIn("D7", "1"), None)),
        ("opener", lambda: table.books_command(orders.SignOpener("1"), None)),
        ("fill", lambda: table.pit_command(TrayFill(20_000), "S1")),
        ("message", lambda: table.pit_command(DealerMessage("Count the tray"), "S1")),
        ("call_floor", lambda: table.press("call_floor", physical=False)),
        ("refused", lambda: table.press("next", physical=False)),
        ("deal", lambda: table.press("deal", physical=False)),
        ("card1", lambda: rig.card("9h")),
        ("card2", lambda: rig.card("As")),
        ("stray", lambda: rig.do(CardDrawn(99, 5, Card.parse("Ah")))),
        ("card3", lambda: rig.card("7c")),
        ("card4", lambda: rig.card("2d")),
        ("acknowledge", lambda: table.press("acknowledge", physical=False)),
        ("stand", lambda: table.press("stand", physical=False)),
        ("card5", lambda: rig.card("Kd")),
        ("card6", lambda: rig.card("Qc")),
        ("next", lambda: table.press("next", physical=False)),
        ("limits", lambda: table.pit_command(SetLimits(1000, 100_000), "S1")),
        ("close", lambda: table.pit_command(CloseTable(), "S1")),
        ("open", lambda: table.pit_command(OpenTable(), "S1")),
        ("dealer_out", lambda: table.books_command(orders.DealerOut(), None)),
    ]
    for name, step in steps:
        step()
        yield shot(f"pit/{name}", table)
    yield saved("pit", table)
    rig.journal.close()


def jackpot(folder: Path) -> Iterator[Shot]:
    """Buster Blackjack X: a stack bought in, a progressive prize waiting, then confirmed."""
    rig = Rig(folder, game=BusterBlackjackX(BusterRules(), Limits(500, 50000)),
              buttons=("deal", "stand", "next", "void"), payout_check=True)
    table = rig.table
    steps: list[tuple[str, Callable[[], object]]] = [
        ("ready", rig.ready),
        ("buy_in", lambda: table.command("buy_in", {"seat": 5, "amount": 50_000})),
        ("bets", lambda: (rig.bet(1, "main", 1000), rig.bet(1, "progressive", 100))),
        ("deal", lambda: table.press("deal", physical=False)),
        *[(f"card{n}", lambda text=text: rig.card(text)) for n, text in enumerate(("7c", "7c", "7c", "Td"))],
        ("stand", lambda: table.press("stand", physical=False)),
        ("confirm", lambda: table.command("confirm_progressive", {"seat": 1, "supervisor": "S101"})),
        ("paid", lambda: rig.bet(1, "main", 0)),
        ("next", lambda: table.press("next", physical=False)),
    ]
    for name, step in steps:
        step()
        yield shot(f"jackpot/{name}", table)
    yield saved("jackpot", table)
    rig.journal.close()


def tournament(folder: Path) -> Iterator[Shot]:
    """Blackjack Extreme as a tournament: the players seated, the level clock ticked."""
    game = BlackjackExtreme(BlackjackExtremeRules(format="tournament", starting_stack=1000,
                                                  levels={1: 500, 2: 1000}), Limits(500, 50000))
    rig = Rig(folder, game=game, buttons=())
    table = rig.table
    steps: list[tuple[str, Callable[[], object]]] = [
        ("ready", rig.ready),
        ("buy_in", lambda: [table.command("buy_in", {"seat": seat}) for seat in (1, 2)]),
        ("button", lambda: table.command("button", {"seat": 1})),
        ("tick", table.tick),
    ]
    for name, step in steps:
        step()
        yield shot(f"tournament/{name}", table)
    yield saved("tournament", table)
    rig.journal.close()


def saved(name: str, table: Table) -> Shot:
    """The checkpoint of the table at the end of scenario ``name`` (between hands), as the daemon
    writes its state (no picture: its name ends in ``/checkpoint``)."""
    return f"{name}/checkpoint", compact_json(table.state.checkpoint()), b""


def steps() -> Iterator[Shot]:
    """Every scenario's steps and its checkpoint at the end, each table on a journal in a temporary
    folder of its own."""
    runs: list[Callable[[Path], Iterator[Shot]]] = [pit, jackpot, tournament]
    for game in sorted(GAMES):
        for screen in (True, False):
            runs.append(functools.partial(walked, game=game, seed=1, screen=screen))
    for run in runs:
        with tempfile.TemporaryDirectory(prefix="pictures-") as folder:
            yield from run(Path(folder))


def pictures() -> Iterator[Shot]:
    """Every scenario's steps (:func:`steps` without the checkpoints)."""
    return (step for step in steps() if not step[0].endswith("/checkpoint"))


def checkpoints() -> Iterator[tuple[str, bytes]]:
    """Every scenario's checkpoint at its end."""
    return ((name, data) for name, data, _ in steps() if name.endswith("/checkpoint"))


def write_golden(path: Path = GOLDEN, made: Iterator[Shot] | None = None) -> int:
    """Write every step's bytes (``made``, else :func:`pictures`) to ``path``; the number of steps."""
    lines = [json.dumps([name, state.decode(), picture.decode()])
             for name, state, picture in (made if made is not None else pictures())]
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return len(lines)


def read_golden(path: Path = GOLDEN) -> list[Shot]:
    """The steps :func:`write_golden` wrote."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [(name, state.encode(), picture.encode())
                for name, state, picture in (json.loads(line) for line in lines if line.strip())]


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else GOLDEN.parent
    print(write_golden(folder / GOLDEN.name), "steps written")
    print(write_golden(folder / SAVED.name, ((name, data, b"") for name, data in checkpoints())),
          "checkpoints written")
