"""What one ask of the game protection page costs the monitor, in process (no HTTP), CPU time.

A floor of ``--tables`` simulated tables (``tests/rigs/protected_floor.py``, six regulars each) dealt
``--events`` events each; then the page's asks
(:func:`~controller.podium.monitor.pages.protection.page_text`, its rows brought up to date first:
:meth:`~controller.podium.monitor.pages.protection_list.ProtectionList.refresh`)
for a page of 100 as the page asks for it: the list's own order, no filter; filtered by a table
(``T07``) and by a seat (``seat 6``); only the flagged; only the flagged by bets, turned round. Each
after nothing was read since, after one table dealt a hand, and after every table did. The answer
carries the count at every table the rows that pass the filter sat at: its bytes too.

    .venv/bin/python bench/protection_list_bench.py     # --tables 2600 --events 600
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.podium.monitor.pages.protection import page_text  # noqa: E402
from controller.podium.monitor.pages.protection_list import ProtectionList  # noqa: E402
from tests.rigs.protected_floor import ProtectedFloor, protected_floor  # noqa: E402

ASKS = {"no filter": ("flagged", False, "", False), "T07": ("flagged", False, "T07", False),
        "seat 6": ("flagged", False, "seat 6", False), "flagged only": ("flagged", False, "", True),
        "flagged by bets, turned": ("bets", True, "", True)}
"""Each ask: its sort, reverse, filter and flagged-only."""

HAND = 25
"""Events of a hand of six (about)."""


async def timed(dealt: ProtectedFloor, rows: ProtectionList, since: str, deal: ProtectedFloor | None) -> None:
    """Each of :data:`ASKS` (asked once before) after ``deal`` dealt a hand (None: nothing read
    since), printed: the rows brought up to date, the answer made, of which the counts."""
    protection = dealt.protection
    for name, (sort, reverse, wanted, flagged) in ASKS.items():
        await rows.refresh(protection)
        page_text(protection, rows, sort, reverse, wanted, 0, 100, flagged)
        if deal is not None:
            deal.deal(HAND)
        began = time.process_time()
        await rows.refresh(protection)
        brought = time.process_time()
        text = page_text(protection, rows, sort, reverse, wanted, 0, 100, flagged)
        made = time.process_time()
        tables = rows.page(sort, reverse, wanted, 0, 100, flagged).tables
        again = time.process_time()
        counts = json.dumps({table: protection.count_of(table) for table in tables})
        counted = time.process_time() - again
        print(f"| {since} | {name} | {(brought - began) * 1000:,.1f} ms | {(made - brought) * 1000:,.1f} ms "
              f"({counted * 1000:,.1f} ms for {len(tables):,} counts) | {len(text.encode()):,} B "
              f"({len(counts.encode()):,} B) |")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2600)
    parser.add_argument("--events", type=int, default=600)
    args = parser.parse_args()
    dealt = protected_floor(Path(tempfile.mkdtemp()), args.tables, args.events)
    rows = ProtectionList()
    await rows.refresh(dealt.protection)
    whole = rows.page()
    print(f"{args.tables:,} tables, {whole.listed:,} subjects ({whole.flagged:,} flagged), "
          f"{len(whole.tables):,} tables with a subject")
    print("| since the last ask | page of 100 | rows brought up to date | answer made (the counts) "
          "| answer (the counts) |\n|---|---|---|---|---|")
    await timed(dealt, rows, "no event read", None)
    one = ProtectedFloor(dealt.floor, dealt.tables[:1], dealt.seqs)
    await timed(dealt, rows, "one table dealt a hand", one)
    await timed(dealt, rows, "every table dealt a hand", dealt)


if __name__ == "__main__":
    asyncio.run(main())
