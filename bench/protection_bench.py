"""Game protection's false alarms and detections on simulated players at the real Easy Jack table core.

Tables of six players of one kind (``controller/devkit/protection_sim.py``)
and a flat bettor on the seventh seat (so that the table deals while the
wongers wait; not counted) are dealt ``--shoes`` shoes each (about 25 hands a
shoe while everyone plays), every event fed to game protection
(``controller/podium/protection/``) under the default thresholds, as the monitor
does live. For each kind it prints the players alerted
(``advantage_play_suspected`` raised at any hand: what the pit sees), the
share, and those flagged at the end, by reason: for the flat bettors (strict,
and with noise: a bet one unit up now and then, a hand sat out now and then)
and the random bettors that is the false-alarm rate; for the counters and the
wongers, the detection rate; and the time game protection itself takes per
event (the table core's left out), given the event read into its record, and
apart the time that reading takes (the published bytes to the record: the
monitor reads each event once for its ratings, books and game protection).

    .venv/bin/python bench/protection_bench.py            # --flat 1000 --others 198 --shoes 8
    .venv/bin/python bench/protection_bench.py --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from controller.devkit.protection_sim import (
    CUT_AT,
    Counter,
    FlatBettor,
    Player,
    RandomBettor,
    SimTable,
    Wonger,
)
from controller.events.envelope import decode_body, encode_event
from controller.follow.records import FollowedEvent
from controller.podium.protection.settings import DEFAULT
from controller.podium.protection.watch import Protection

SEATS = 6
"""Players of the kind at each table; seat 7 holds a flat bettor, not counted."""

KINDS: dict[str, Callable[[], Player]] = {
    "flat": FlatBettor,
    "flat, noisy": lambda: FlatBettor(noise=0.1, breaks=0.05),
    "random": RandomBettor,
    "counter 1-8": Counter,
    "wonger": Wonger,
}


def run_kind(kind: str, players: int, shoes: int, seed: int) -> dict[str, Any]:
    """``players`` players of ``kind``, six a table, each table dealt ``shoes`` shoes (to the last
    one's cut card): who was alerted (at any hand) and who is flagged at the end, and why."""
    alerted = flagged = hands = 0
    spent = [0.0, 0, 0.0]
    """Seconds game protection took, the events it was fed, and the seconds reading them took."""
    reasons: dict[str, int] = {}
    hands_to_flag: list[int] = []
    tables = (players + SEATS - 1) // SEATS
    for n in range(tables):
        seats = min(SEATS, players - n * SEATS)
        protection = Protection(DEFAULT)
        name = f"T{n:04d}"
        first: dict[str, int] = {}

        def feed(event: dict[str, Any], protection: Protection = protection, name: str = name,
                 first: dict[str, int] = first) -> None:
            topic, body = encode_event(name, event["seq"], event["ts"], event["type"], event.get("hand"),
                                       event["data"])        # the bytes the table published
            reading = time.perf_counter()
            followed = FollowedEvent.of(decode_body(body), topic, body)
            _ = followed.event
            started = time.perf_counter()
            raised_now = protection.feed(name, "", followed)
            spent[0] += time.perf_counter() - started
            spent[1] += 1
            spent[2] += started - reading
            for raised in raised_now:
                if raised.data.get("seat") != SEATS + 1:
                    subject = raised.data["subject"]
                    first.setdefault(subject, protection.tallies[subject].figures().hands)

        players_at = {seat: KINDS[kind]() for seat in range(1, seats + 1)}
        table = SimTable({**players_at, SEATS + 1: FlatBettor()}, seed=seed * 100_003 + n, name=name,
                         on_event=feed)
        while table.shoe_id < shoes or table.index < CUT_AT:
            table.hand()
            hands += 1
        counted = protection.tables[name].seats
        for seat in players_at:        # a seat that never bet (a wonger who never saw his count) is no one
            subject = counted.get(seat)
            found = protection.tallies[subject].figures().reasons if subject is not None else ()
            flagged += bool(found)
            alerted += subject in first
            for reason in found:
                reasons[reason] = reasons.get(reason, 0) + 1
        hands_to_flag += first.values()
    hands_to_flag.sort()
    print(f"{kind}: {alerted} of {players} alerted", file=sys.stderr, flush=True)
    return {"kind": kind, "players": players, "shoes": shoes, "hands": round(hands / tables),
            "alerted": alerted, "share": round(alerted / players, 4) if players else None,
            "flagged_at_the_end": flagged, "reasons_at_the_end": reasons,
            "median_hands_to_the_alert": hands_to_flag[len(hands_to_flag) // 2] if hands_to_flag else None,
            "events": int(spent[1]),
            "us_per_event": round(spent[0] / spent[1] * 1e6, 1) if spent[1] else None,
            "us_reading_per_event": round(spent[2] / spent[1] * 1e6, 1) if spent[1] else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flat", type=int, default=1000, help="flat bettors of each flat kind (1000)")
    parser.add_argument("--others", type=int, default=198, help="random bettors, counters, wongers "
                        "each (198)")
    parser.add_argument("--shoes", type=int, default=8, help="shoes dealt at each table (8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    started = time.perf_counter()
    results = [run_kind(kind, args.flat if kind.startswith("flat") else args.others, args.shoes, args.seed)
               for kind in KINDS]
    figures = {"settings": DEFAULT.to_json(), "results": results,
               "seconds": round(time.perf_counter() - started, 1)}
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    s = DEFAULT
    print(f"thresholds: confidence {s.confidence}; bets: {s.min_hands} hands, correlation "
          f"{s.min_correlation}, spread {s.min_spread}x, ramp {s.min_ramp}x; wonging: {s.min_entries} "
          f"entries, +{s.wong_count}; "
          f"play: {s.min_count_plays} count plays; count {s.system.name}")
    for r in results:
        print(f"{r['kind']:>12}: {r['alerted']} of {r['players']} alerted ({r['share']:.2%}) over "
              f"{r['shoes']} shoes ({r['hands']} hands a table); flagged at the end "
              f"{r['flagged_at_the_end']}, by reason {r['reasons_at_the_end']}; median hands to the alert "
              f"{r['median_hands_to_the_alert']}; "
              f"{r['us_per_event']} us of game protection per event (and {r['us_reading_per_event']} us "
              f"reading it into its record)")
    print(f"{figures['seconds']} s")


if __name__ == "__main__":
    main()
