"""A simulated floor for the pit monitor: tables that deal plausible hands on the pit sockets.

Each table is an :class:`EnvelopeTable` (the real PitServer, events made up
here): bets on random seats, one card each and a face-down card for the
dealer, players drawing to a total, the dealer's card revealed, results paid
as a game to 11 would pay them (3:2 on a natural, a Dealer Bust side wager),
now and then a counterfeit chip or an unreadable card. The first table has a
progressive meter; every fourth table (the second, sixth, ...) is banked by a
player instead of the house: stacks, a player-dealer whose seat moves round
after each hand, and a tournament's blind levels. The tables stand in pits of
four (``Pit 1``: T01 to T04, ...). The hands are plausible,
not a real game: for the real games run the daemon
(``tests/rigs/daemon_rig.py``). The tables' pictures (``table.view`` after
every event, and the snapshot) carry the game's part (totals, phases) from
:func:`game_view`, as a real table's game would.

``python -m controller.devkit.floor_sim --tables 8`` serves the monitor on
http://127.0.0.1:8080/ over eight such tables; ``--screenshot FILE`` instead
takes a picture of the floor (or of ``--page table/T02``) with headless
Chromium and stops.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import zmq.asyncio
from aiohttp import web

from controller.devkit.pit_table import EnvelopeTable
from controller.games.catalog import rules_from_json, rules_json
from controller.games.parts.totals import total_of
from controller.pit.follow.aio import Follower
from controller.pit.follow.sources import TableSource
from controller.pit.monitor.alerts import AlertBook
from controller.pit.monitor.floor import Floor
from controller.pit.monitor.web import make_app

RANKS = "A23456789TJQK"
SUITS = "cdhs"
BETS = (500, 1000, 1000, 2500, 2500, 5000, 10000)
DEALER_BUST_PAYS = {2: 3, 3: 4, 4: 10, 5: 50, 6: 500}
BUY_IN = 50_000
"""A banked table's stacks to start with."""
BLINDS = ((500, 1000, 1500), (1000, 2000, 3000), (2000, 4000, 6000))
"""A banked table's tournament levels: the minimum blind, then its multiples."""
LEVEL_HANDS = 6
"""Hands per tournament level."""

EASY_JACK_RULES = rules_json(rules_from_json("easy-jack", {}))
"""The rules a house-banked simulated table publishes, as a real table would: Easy Jack's defaults."""

Step = tuple[str, int | None, dict[str, Any]]
"""``(type, hand, data)`` of one event."""


def points(card: str) -> int:
    """A card's points with an ace as 1.

    >>> points("As"), points("Kd"), points("7c")
    (1, 10, 7)
    """
    return min(RANKS.index(card[0]) + 1, 10)


def total_words(cards: list[str | None]) -> str | None:
    """The total of the cards showing, in the words of a game to 11.

    >>> total_words(["5h", "3s"]), total_words(["As"]), total_words(["Kh", "5c", None]), total_words([None])
    ('8', 'natural', 'bust 15', None)
    """
    shown = [points(c) for c in cards if c is not None]
    if not shown:
        return None
    total = total_of(shown)
    if total.natural:
        return "natural"
    if total.bust:
        return f"bust {total.points}"
    return f"soft {total.points}" if total.soft else str(total.points)


def game_view(state: dict[str, Any]) -> None:
    """Write the simulated game's part into a snapshot's state: totals, each hand's wager, the phase
    (``dealing``, then ``players`` once the dealer has her face-down card, ``dealer`` once it is up)."""
    for seat in state["seats"]:
        for hand in seat["hands"]:
            hand.update(total=total_words(hand["cards"]), wager=seat["bets"].get("main"))
        seat["total"] = seat["hands"][0]["total"] if seat["hands"] else None
    dealer = state["dealer"]
    dealer["total"] = total_words(dealer["cards"])
    if state["table_phase"] == "in_hand":
        state["phase"] = "dealing" if not dealer["cards"] else "players" if dealer["cards"][0] is None \
            else "dealer"


class Dealer:
    """The events of one simulated table, hand after hand; ``banker``: a player banks the hands."""

    def __init__(self, rng: random.Random, *, seats: int = 6, progressive: bool = False,
                 banker: bool = False) -> None:
        self.rng = rng
        self.seats = seats
        self.progressive = progressive
        self.banker = banker
        self.meter = 1_250_000
        self.index = 0
        self.shoe: list[str] = []
        self.stacks = {seat: BUY_IN for seat in range(1, seats + 1)} if banker else {}
        self.button = 1

    @property
    def game(self) -> str:
        """The simulated game's name, as ``table.opened`` says it."""
        return "banked-11 (sim)" if self.banker else "easy-jack"

    def _card(self) -> tuple[int, str]:
        if not self.shoe:
            self.shoe = [r + s for r in RANKS for s in SUITS] * 6
            self.rng.shuffle(self.shoe)
        self.index += 1
        return self.index, self.shoe.pop()

    def events(self, hands: int | None = None) -> Iterator[Step]:
        """The table opening, then ``hands`` hands (forever if None)."""
        opened: dict[str, Any] = {"game": self.game, "seats": self.seats,
                                  "limits": {"min_bet": 500, "max_bet": 50000}, "recovered": False}
        if not self.banker:   # Easy Jack's rules by default: a rating's theo there is the real game's
            opened["rules"] = EASY_JACK_RULES
        yield "table.opened", None, opened
        yield "device.online", None, {"device": "shoe", "firmware": "shoe-1.2", "serial": "SH-0042"}
        yield "device.online", None, {"device": "rfid", "firmware": "rfid-2.0", "serial": "RF-0042"}
        yield "shoe.loaded", None, {"shoe_id": "S-1", "decks": 6}
        for seat, amount in sorted(self.stacks.items()):
            yield "seat.stack", None, {"seat": seat, "amount": amount, "reason": "buy_in"}
        if self.banker:
            yield "button.moved", None, {"seat": self.button}
        number = 0
        while hands is None or number < hands:
            if self.banker and number % LEVEL_HANDS == 0:
                yield from self._level(number // LEVEL_HANDS + 1)
            number += 1
            yield from self.hand(number)

    def _level(self, level: int) -> Iterator[Step]:
        ends = datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=20)
        ends_at = f"{ends:%Y-%m-%dT%H:%M:%S}.000Z"
        yield "tournament.level", None, {"level": level, "blinds": list(BLINDS[min(level, 3) - 1]),
                                         "ends_at": ends_at}

    def hand(self, number: int) -> Iterator[Step]:
        """One hand from the first bet to ``hand.ended``."""
        rng = self.rng
        dealer_seat = self.button if self.banker else None
        free = [seat for seat in range(1, self.seats + 1) if seat != dealer_seat]
        playing = sorted(rng.sample(free, rng.randint(1, min(4, len(free)))))
        bets: list[dict[str, Any]] = []
        for seat in playing:
            if rng.random() < 0.03:
                yield "alert", number, {"code": "counterfeit_chip", "severity": "critical",
                                        "message": "a chip that is not in the registry",
                                        "seat": seat, "spot": "main", "uid": f"{rng.getrandbits(64):016x}"}
            bets.append({"seat": seat, "spot": "main", "amount": rng.choice(BETS)})
            yield "bet.placed", number, dict(bets[-1])
            if rng.random() < 0.3 and not self.banker:
                bets.append({"seat": seat, "spot": "side", "amount": 500})
                yield "bet.placed", number, dict(bets[-1])
        yield "hand.started", number, {"seats": playing, "dealer_seat": dealer_seat}
        yield "bets.closed", number, {"bets": bets}
        if self.progressive:
            self.meter += sum(b["amount"] for b in bets if b["spot"] == "main") // 100
            yield "meter", number, {"name": "progressive", "value": self.meter}
        held: dict[int, list[str]] = {}
        for seat in playing:
            index, card = self._card()
            held[seat] = [card]
            yield "card.dealt", number, {"index": index, "to": "seat", "seat": seat, "hand_index": 0,
                                         "card": card, "face_up": True}
        hole_index, hole = self._card()
        yield "card.dealt", number, {"index": hole_index, "to": "dealer", "seat": dealer_seat,
                                     "hand_index": 0, "card": None, "face_up": False}
        for seat in playing:
            goal = rng.choice((6, 7, 8))
            while total_of([points(c) for c in held[seat]]).points < goal and len(held[seat]) < 5:
                if rng.random() < 0.02:
                    index, _ = self._card()
                    yield "alert", number, {"code": "card_unreadable", "severity": "warning",
                                            "message": "the shoe could not read a card", "index": index}
                index, card = self._card()
                held[seat].append(card)
                yield "card.dealt", number, {"index": index, "to": "seat", "seat": seat, "hand_index": 0,
                                             "card": card, "face_up": True}
            if not total_of([points(c) for c in held[seat]]).bust:
                yield "player.action", number, {"seat": seat, "hand_index": 0, "action": "stand"}
        yield "card.revealed", number, {"index": hole_index, "to": "dealer", "seat": dealer_seat,
                                        "hand_index": 0, "card": hole}
        dealer = [hole]
        while total_of([points(c) for c in dealer]).points < 8:
            index, card = self._card()
            dealer.append(card)
            yield "card.dealt", number, {"index": index, "to": "dealer", "seat": dealer_seat,
                                         "hand_index": 0, "card": card, "face_up": True}
        results = [self._result(b, held[b["seat"]], dealer) for b in bets]
        yield "hand.settled", number, {"results": results}
        if self.banker:
            yield from self._bank(number, results, dealer_seat)
        yield "hand.ended", number, {"hand": number}
        for bet in bets:
            yield "bet.placed", number + 1, {"seat": bet["seat"], "spot": bet["spot"], "amount": 0}

    def _bank(self, number: int, results: list[dict[str, Any]], dealer_seat: Any) -> Iterator[Step]:
        """The stacks after a banked hand, and the deal passing to the left."""
        for result in results:
            self.stacks[result["seat"]] += result["payout"]
        self.stacks[dealer_seat] -= sum(r["payout"] for r in results)
        for seat in sorted({r["seat"] for r in results} | {dealer_seat}):
            yield "seat.stack", number, {"seat": seat, "amount": self.stacks[seat], "reason": "result"}
        self.button = self.button % self.seats + 1
        yield "button.moved", number, {"seat": self.button}

    @staticmethod
    def _result(bet: dict[str, Any], cards: list[str], dealer: list[str]) -> dict[str, Any]:
        wager = bet["amount"]
        mine, house = total_of([points(c) for c in cards]), total_of([points(c) for c in dealer])
        if bet["spot"] == "side":
            pays = DEALER_BUST_PAYS[min(len(dealer), 6)] if house.bust else -1
            outcome, payout = ("win", wager * pays) if house.bust else ("lose", -wager)
        elif mine.bust:
            outcome, payout = "lose", -wager
        elif mine.natural and not house.natural:
            outcome, payout = "natural", wager * 3 // 2
        elif house.bust or mine.points > house.points:
            outcome, payout = "win", wager
        elif mine.points == house.points:
            outcome, payout = "push", 0
        else:
            outcome, payout = "lose", -wager
        return {"seat": bet["seat"], "spot": bet["spot"], "hand_index": 0, "outcome": outcome,
                "wager": wager, "payout": payout}

async def deal(table: EnvelopeTable, steps: Iterator[Step], pace: float) -> None:
    """Publish the steps one every ``pace`` seconds (a dealer's speed, for a person to watch)."""
    for kind, hand, data in steps:
        table.emit(kind, hand, data)
        await asyncio.sleep(pace)


class _WhenLive:
    """The floor's listener, which also tells when every table has been heard."""

    def __init__(self, floor: Floor) -> None:
        self.floor = floor
        self.live = asyncio.Event()

    def snapshot(self, follower: Follower, snapshot: dict[str, Any]) -> None:
        self.floor.snapshot(follower, snapshot)

    def refreshed(self, follower: Follower, snapshot: dict[str, Any]) -> None:
        self.floor.refreshed(follower, snapshot)

    def event(self, follower: Follower, message: dict[str, Any], topic: bytes, body: bytes,
              live: bool) -> None:
        self.floor.event(follower, message, topic, body, live)

    def picture(self, follower: Follower, message: dict[str, Any]) -> None:
        self.floor.picture(follower, message)

    def link(self, follower: Follower) -> None:
        self.floor.link(follower)
        if all(t.link == "live" for t in self.floor.tables.values()):
            self.live.set()


async def run_floor(count: int, port: int, pace: float, screenshot: Path | None, page: str = "") -> None:
    """``count`` simulated tables and a monitor over them; a screenshot, or serve until interrupted."""
    context = zmq.asyncio.Context()
    dealers = [Dealer(random.Random(n), progressive=n == 0, banker=n % 4 == 1) for n in range(count)]
    tables = [EnvelopeTable(f"T{n + 1:02d}", context=context, game=dealer.game, game_view=game_view)
              for n, dealer in enumerate(dealers)]
    tasks: list[asyncio.Task[None]] = []
    with tempfile.TemporaryDirectory(prefix="floor-sim-") as folder:
        pits = {t.table_id: f"Pit {n // 4 + 1}" for n, t in enumerate(tables)}
        floor = Floor([t.table_id for t in tables], AlertBook(Path(folder) / "acks.jsonl"), pits)
        listener = _WhenLive(floor)
        runner = web.AppRunner(make_app(floor))
        await runner.setup()
        try:
            for table in tables:
                await table.start()
                source = TableSource(table.table_id, table.publish_endpoint, table.sync_endpoint)
                follower = Follower(source, listener, context=context, raw_data=True)
                tasks.append(asyncio.create_task(follower.run()))
            await listener.live.wait()
            for n, (table, dealer) in enumerate(zip(tables, dealers, strict=True)):
                rng = dealer.rng
                # a few hands already played, the next one under way, the rest at a dealer's pace
                steps = [*dealer.events(hands=3 + n % 4), *dealer.hand(4 + n % 4)]
                under_way = len(steps) - rng.randint(3, 16)
                for kind, hand, data in steps[:under_way]:
                    table.emit(kind, hand, data)
                if n == 2:
                    table.emit("alert", None, {"code": "device_offline", "severity": "warning",
                                               "message": "the rfid is offline: no answer", "device": "rfid"})
                tasks.append(asyncio.create_task(deal(table, iter(steps[under_way:]), pace)))
            site = web.TCPSite(runner, "127.0.0.1", port)
            await site.start()
            url = f"http://127.0.0.1:{runner.addresses[0][1]}/"
            if screenshot is None:
                print(f"floor of {count} simulated tables: {url}", flush=True)
                await asyncio.gather(*tasks)
            else:
                await asyncio.to_thread(take_screenshot, url + page, screenshot, folder)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await runner.cleanup()
            for table in tables:
                await table.close()
            context.destroy(linger=0)


def take_screenshot(url: str, path: Path, folder: str) -> None:
    """A PNG of the page at ``url`` in headless Chromium, once its tiles are drawn."""
    from controller.devkit.browser import chromium

    driver = chromium(Path(folder) / "chromium", width=1500, height=1000)
    try:
        driver.get(url)
        driver.execute_async_script(
            "const done = arguments[0]; const wait = () => document.querySelectorAll('.tile').length"
            " || document.querySelectorAll('.seat-box').length ? setTimeout(done, 500)"
            " : setTimeout(wait, 100); wait();")
        driver.save_screenshot(str(path))
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--pace", type=float, default=0.4, help="seconds between a dealer's events")
    parser.add_argument("--screenshot", type=Path, help="write a PNG of the page and stop")
    parser.add_argument("--page", default="", help="the page to take: '' (the floor) or table/T01")
    args = parser.parse_args()
    asyncio.run(run_floor(args.tables, args.port, args.pace, args.screenshot, args.page))


if __name__ == "__main__":
    main()
