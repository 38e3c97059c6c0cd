"""A simulated floor for the pit monitor: tables that deal plausible hands on the pit sockets.

Each table is an :class:`EnvelopeTable` (the real PitServer, events made up
here): bets on random seats, one card each and a face-down card for the
dealer, players drawing to a total, the dealer's card revealed, results paid
as a game to 11 would pay them (3:2 on a natural, a Dealer Bust side wager),
now and then a counterfeit chip or an unreadable card; six-deck shoes, the cut
card out three quarters of the way through and a new shoe loaded before the
next hand, as a real table's shoe is (so game protection counts every shoe).
The first table has a progressive meter; every fourth table (the second,
sixth, ...) is banked by a player instead of the house: stacks, a
player-dealer whose seat moves round after each hand, and a tournament's
blind levels. The tables stand in pits of
four (``Pit 1``: T01 to T04, ...). The hands are plausible,
not a real game: for the real games run the daemon
(``tests/rigs/daemon_rig.py``). The tables' pictures (``table.view`` after
every event, and the snapshot) carry the game's part (totals, phases) from
:func:`game_view`, as a real table's game would.

The monitor keeps ratings and shift figures in a database (``--db``, a
temporary SQLite file unless given), as ``pit-monitor serve --db`` does: each
table has played 14 to 23 hands before the floor is shown, timed as if dealt a
hand every 75 seconds up to now (then it deals on at ``--pace``), with players ``P-1001``, ... rated at some
seats (``controller/devkit/sim_pit.py``); the tables take the pit's actions
(supervisor S101, PIN 1234), which the monitor sends when the page is signed in
(``--sign-in``: user anna, password floor-sim).

``python -m controller.devkit.floor_sim --tables 8`` serves the monitor on
http://127.0.0.1:8080/ over eight such tables; ``--screenshot FILE`` instead
takes a picture of the floor (or of ``--page table/T02``) with headless
Chromium and stops, and ``--docs FOLDER`` takes the pictures of
docs/pit-monitor.md (``controller/devkit/floor_shots.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import datetime
import itertools
import random
import tempfile
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path

import zmq.asyncio
from aiohttp import web

from controller.devkit.pit_table import EnvelopeTable
from controller.devkit.sim_pit import (
    BANKED_RULES,
    PIT_PASSWORD,
    PIT_USER,
    RATED,
    SUPERVISOR,
    SUPERVISOR_PIN,
    PitTable,
    rated_floor,
    regulars,
    sim_shifts,
)
from controller.devkit.sim_state import SimulatedState
from controller.events.codec import record_json
from controller.events.envelope import utc_timestamp
from controller.events.hand import WagerResult
from controller.follow.aio import Follower
from controller.follow.control import Control
from controller.follow.sources import TableSource
from controller.games.catalog import rules_from_json, rules_json
from controller.games.parts.totals import total_of
from controller.podium.monitor.models.actions import ActionBook, PitActions
from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.pages.floor import make_app
from controller.podium.monitor.stores.events import open_store
from controller.security.supervisor_pins import hash_pin
from firmware_bridge.kernel.json import JsonObject

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

HOUSE_GAME, BANKED_GAME = "easy-jack", "banked-11 (sim)"
"""The game a house-banked simulated table says it deals, and a player-banked one."""
EASY_JACK_RULES = record_json(rules_json(rules_from_json(HOUSE_GAME, {})))
"""The rules a house-banked simulated table publishes, as a real table would: Easy Jack's defaults."""
PLAYED = 14
"""Hands a table has played before the floor is shown: 14 for the first, then up to 23."""
HAND_SECONDS = 75.0
"""The time those hands are spread over, per hand (they are published at once, back-dated)."""
DECKS = 6
CUT_AT = 234
"""Cards dealt before the cut card comes out (three quarters of six decks)."""

Step = tuple[str, int | None, JsonObject]
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


def game_view(state: SimulatedState) -> None:
    """Write the simulated game's part into a table's state: totals, each hand's wager, the phase
    (``dealing``, then ``players`` once the dealer has her face-down card, ``dealer`` once it is up)."""
    for seat in state.seats:
        for hand in seat.hands:
            hand.total, hand.wager = total_words(hand.cards), seat.bets.get("main")
        seat.total = seat.hands[0].total if seat.hands else None
    dealer = state.dealer.cards
    state.dealer.total = total_words(dealer)
    if state.table_phase == "in_hand":
        state.phase = "dealing" if not dealer else "players" if dealer[0] is None else "dealer"


class Dealer:
    """The events of one simulated table, hand after hand; ``banker``: a player banks the hands;
    ``regulars``: seats that bet every hand (unless dealing it), beside those chosen at random."""

    def __init__(self, rng: random.Random, *, seats: int = 6, progressive: bool = False,
                 banker: bool = False, regulars: frozenset[int] = frozenset()) -> None:
        self.rng = rng
        self.seats = seats
        self.progressive = progressive
        self.banker = banker
        self.regulars = regulars
        self.meter = 1_250_000
        self.index = 0
        self.shoe: list[str] = []
        self.shoes = 1
        """Shoes loaded (the one in play is the shoe of this number)."""
        self.cut_card_out = False
        self.stacks = {seat: BUY_IN for seat in range(1, seats + 1)} if banker else {}
        self.button = 1

    @property
    def game(self) -> str:
        """The simulated game's name, as ``table.opened`` says it."""
        return BANKED_GAME if self.banker else HOUSE_GAME

    def _card(self) -> tuple[int, str]:
        if not self.shoe:               # shuffled when its first card is drawn
            self.shoe = [r + s for r in RANKS for s in SUITS] * DECKS
            self.rng.shuffle(self.shoe)
        self.index += 1
        return self.index, self.shoe.pop()

    def _cut(self, number: int) -> Iterator[Step]:
        """``shoe.cut_card`` once the cards drawn reach :data:`CUT_AT`."""
        if self.index >= CUT_AT and not self.cut_card_out:
            self.cut_card_out = True
            yield "shoe.cut_card", number, {"index": self.index}

    def _next_shoe(self) -> Iterator[Step]:
        """A new shoe loaded after the cut card came out (before the next hand)."""
        if self.cut_card_out:
            self.shoes += 1
            self.shoe, self.index, self.cut_card_out = [], 0, False
            yield "shoe.loaded", None, {"shoe_id": self.shoes, "decks": DECKS}

    def events(self, hands: int | None = None) -> Iterator[Step]:
        """The table opening, then ``hands`` hands (forever if None)."""
        # Easy Jack's rules by default: a rating's theo there is the real game's
        yield "table.opened", None, {"game": self.game, "seats": self.seats,
                                     "limits": {"min_bet": 500, "max_bet": 50000}, "recovered": False,
                                     "rules": BANKED_RULES if self.banker else EASY_JACK_RULES}
        yield "device.online", None, {"device": "shoe", "firmware": "shoe-1.2", "serial": "SH-0042"}
        yield "device.online", None, {"device": "rfid", "firmware": "rfid-2.0", "serial": "RF-0042"}
        yield "shoe.loaded", None, {"shoe_id": self.shoes, "decks": DECKS}
        for seat, amount in sorted(self.stacks.items()):
            yield "seat.stack", None, {"seat": seat, "amount": amount, "reason": "buy_in"}
        if self.banker:
            yield "button.moved", None, {"seat": self.button}
        yield from self.play(1, hands)

    def play(self, first: int, last: int | None = None) -> Iterator[Step]:
        """Hands ``first`` to ``last`` (forever if None), a banked table's level changing every
        :data:`LEVEL_HANDS` hands."""
        number = first
        while last is None or number <= last:
            if self.banker and (number - 1) % LEVEL_HANDS == 0:
                yield from self._level((number - 1) // LEVEL_HANDS + 1)
            yield from self.hand(number)
            number += 1

    def _level(self, level: int) -> Iterator[Step]:
        ends = datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=20)
        ends_at = f"{ends:%Y-%m-%dT%H:%M:%S}.000Z"
        yield "tournament.level", None, {"level": level, "blinds": list(BLINDS[min(level, 3) - 1]),
                                         "ends_at": ends_at}

    def hand(self, number: int) -> Iterator[Step]:
        """One hand from the first bet to ``hand.ended``."""
        yield from self._next_shoe()
        rng = self.rng
        dealer_seat = self.button if self.banker else None
        free = [seat for seat in range(1, self.seats + 1) if seat != dealer_seat]
        chosen = rng.sample(free, rng.randint(1, min(4, len(free))))
        playing = sorted({*chosen, *(self.regulars & set(free))})
        bets: list[tuple[int, str, int]] = []
        for seat in playing:
            if rng.random() < 0.008:
                yield "alert", number, {"code": "counterfeit_chip", "severity": "critical",
                                        "message": "a chip that is not in the registry",
                                        "seat": seat, "spot": "main", "uid": f"{rng.getrandbits(64):016x}"}
            bets.append((seat, "main", rng.choice(BETS)))
            yield "bet.placed", number, {"seat": seat, "spot": "main", "amount": bets[-1][2]}
            if rng.random() < 0.3 and not self.banker:
                bets.append((seat, "side", 500))
                yield "bet.placed", number, {"seat": seat, "spot": "side", "amount": 500}
        yield "hand.started", number, {"seats": list(playing), "dealer_seat": dealer_seat}
        yield "bets.closed", number, {"bets": [{"seat": seat, "spot": spot, "amount": amount}
                                               for seat, spot, amount in bets]}
        if self.progressive:
            self.meter += sum(amount for _, spot, amount in bets if spot == "main") // 100
            yield "meter", number, {"name": "progressive", "value": self.meter}
        held: dict[int, list[str]] = {}
        for seat in playing:
            index, card = self._card()
            held[seat] = [card]
            yield "card.dealt", number, {"index": index, "to": "seat", "seat": seat, "hand_index": 0,
                                         "card": card, "face_up": True}
            yield from self._cut(number)
        hole_index, hole = self._card()
        yield "card.dealt", number, {"index": hole_index, "to": "dealer", "seat": dealer_seat,
                                     "hand_index": 0, "card": None, "face_up": False}
        yield from self._cut(number)
        for seat in playing:
            goal = rng.choice((6, 7, 8))
            while total_of([points(c) for c in held[seat]]).points < goal and len(held[seat]) < 5:
                if rng.random() < 0.01:
                    index, _ = self._card()
                    yield "alert", number, {"code": "card_unreadable", "severity": "warning",
                                            "message": "the shoe could not read a card", "index": index}
                index, card = self._card()
                held[seat].append(card)
                yield "card.dealt", number, {"index": index, "to": "seat", "seat": seat, "hand_index": 0,
                                             "card": card, "face_up": True}
                yield from self._cut(number)
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
            yield from self._cut(number)
        results = [self._result(seat, spot, amount, held[seat], dealer) for seat, spot, amount in bets]
        yield "hand.settled", number, {"results": [record_json(result) for result in results]}
        if self.banker:
            yield from self._bank(number, results, self.button)
        yield "hand.ended", number, {"hand": number}
        for seat, spot, _ in bets:
            yield "bet.placed", number + 1, {"seat": seat, "spot": spot, "amount": 0}

    def _bank(self, number: int, results: list[WagerResult], dealer_seat: int) -> Iterator[Step]:
        """The stacks after a banked hand, and the deal passing to the left."""
        for result in results:
            self.stacks[result.seat] += result.payout
        self.stacks[dealer_seat] -= sum(r.payout for r in results)
        for seat in sorted({r.seat for r in results} | {dealer_seat}):
            yield "seat.stack", number, {"seat": seat, "amount": self.stacks[seat], "reason": "result"}
        self.button = self.button % self.seats + 1
        yield "button.moved", number, {"seat": self.button}

    @staticmethod
    def _result(seat: int, spot: str, wager: int, cards: list[str], dealer: list[str]) -> WagerResult:
        mine, house = total_of([points(c) for c in cards]), total_of([points(c) for c in dealer])
        if spot == "side":
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
        return WagerResult(seat, spot, 0, outcome, wager, payout)

async def deal(table: PitTable, steps: Iterator[Step], pace: float) -> None:
    """Publish the steps one every ``pace`` seconds (a dealer's speed, for a person to watch); none
    while the pit has the table closed."""
    for kind, hand, data in steps:
        await table.open_again.wait()
        table.emit(kind, hand, data)
        await asyncio.sleep(pace)


def back_dated(steps: Sequence[Step], end: datetime.datetime) -> list[tuple[str, Step]]:
    """The steps, each with a ``ts``: spread evenly over :data:`HAND_SECONDS` per hand begun, the
    last one just before ``end``."""
    hands = sum(kind == "hand.started" for kind, _, _ in steps)
    span = datetime.timedelta(seconds=HAND_SECONDS * max(hands, 1))
    step = span / max(len(steps), 1)
    return [(utc_timestamp(end - span + n * step), one) for n, one in enumerate(steps)]


def openings(names: Sequence[str], played: Sequence[Sequence[tuple[str, Step]]]
             ) -> dict[str, list[tuple[int, str, str]]]:
    """Each table's ratings to open (``RATED``): seat, player, and the ``ts`` of the first event of
    the hand it is rated from."""
    found: dict[str, list[tuple[int, str, str]]] = {}
    for seated in RATED:
        if seated.table < len(names):
            at = next(ts for ts, (_, hand, _) in played[seated.table] if hand == seated.from_hand)
            found.setdefault(names[seated.table], []).append((seated.seat, seated.player, at))
    return found


Shots = Callable[[str, Path, str | None], None]
"""Pictures to take of the page: ``(url, folder for the browser's profile, Authorization header)``."""


async def run_floor(count: int, port: int, pace: float, *, db: str | None = None, sign_in: bool = False,
                    shots: Shots | None = None) -> None:
    """``count`` simulated tables and a monitor over them, with ratings and shift figures kept in
    ``db`` (a temporary SQLite file if None); a sign-in as anna with ``sign_in``; the ``shots`` taken,
    or serve until interrupted."""
    context = zmq.asyncio.Context()
    now = datetime.datetime.now(datetime.UTC)
    dealers = [Dealer(random.Random(n), progressive=n == 0, banker=n % 4 == 1, regulars=regulars(n))
               for n in range(count)]
    tables = [PitTable(f"T{n + 1:02d}", context=context, game=dealer.game, game_view=game_view)
              for n, dealer in enumerate(dealers)]
    names = [t.table_id for t in tables]
    pits = {name: f"Pit {n // 4 + 1}" for n, name in enumerate(names)}
    # the hands played before the floor is shown (the last one under way), timed as if dealt up to now
    played: list[list[tuple[str, Step]]] = []
    rest: list[Iterator[Step]] = []
    for n, dealer in enumerate(dealers):
        hands = PLAYED + 3 * (n % 4)
        steps = [*dealer.events(hands=hands), *dealer.play(hands + 1, hands + 1)]
        under_way = len(steps) - dealer.rng.randint(6, 24)
        played.append(back_dated(steps[:under_way], now))
        rest.append(itertools.chain(steps[under_way:], dealer.play(hands + 2)))
    tasks: list[asyncio.Task[None]] = []
    with tempfile.TemporaryDirectory(prefix="floor-sim-") as folder:
        store = await asyncio.to_thread(open_store, db or str(Path(folder) / "floor.sqlite"))
        rated = None
        runner = None
        try:
            games = {t.table_id: d.game for t, d in zip(tables, dealers, strict=True)}
            rated = await rated_floor(store, games, pits, sim_shifts(now), openings(names, played),
                                      (HOUSE_GAME, EASY_JACK_RULES), BANKED_GAME)
            floor = Floor(names, AlertBook(Path(folder) / "acks.jsonl"), pits)
            floor.rate(rated)
            for table in tables:
                await table.start()
            actions = PitActions({t.table_id: Control(t.control_endpoint, context) for t in tables},
                                 ActionBook(Path(folder) / "actions.jsonl"))
            users = {PIT_USER: hash_pin(PIT_PASSWORD)} if sign_in else None
            runner = web.AppRunner(make_app(floor, users, actions=actions))
            await runner.setup()
            for table in tables:
                source = TableSource(table.table_id, table.publish_endpoint, table.sync_endpoint)
                follower = Follower(source, floor, context=context, raw_data=True)
                tasks.append(asyncio.create_task(follower.run()))
            await _all_live(floor)
            for n, table in enumerate(tables):
                for ts, (kind, hand, data) in played[n]:
                    table.emit(kind, hand, data, ts=ts)
                    if kind == "hand.ended":
                        await asyncio.sleep(0.01)   # let the monitor read: a burst beyond 1,000 is dropped
                if n == 2:
                    table.emit("alert", None, {"code": "device_offline", "severity": "warning",
                                               "message": "the rfid is offline: no answer", "device": "rfid"})
            await _caught_up(floor, tables)
            tasks.extend(asyncio.create_task(deal(table, steps, pace))
                         for table, steps in zip(tables, rest, strict=True))
            site = web.TCPSite(runner, "127.0.0.1", port)
            await site.start()
            url = f"http://127.0.0.1:{runner.addresses[0][1]}/"
            if shots is None:
                signed = f" (sign in as {PIT_USER}, password {PIT_PASSWORD})" if sign_in else ""
                print(f"floor of {count} simulated tables: {url}{signed}", flush=True)
                await asyncio.gather(*tasks)
            else:
                auth = "Basic " + base64.b64encode(f"{PIT_USER}:{PIT_PASSWORD}".encode()).decode() \
                    if sign_in else None
                await asyncio.to_thread(shots, url, Path(folder), auth)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if runner is not None:
                await runner.cleanup()
            for table in tables:
                await table.close()
            context.destroy(linger=0)
            if rated is not None:
                rated.let_go()
            store.close()


async def _all_live(floor: Floor) -> None:
    """Wait until the monitor has heard every table."""
    while not all(table.link == "live" for table in floor.tables.values()):
        await asyncio.sleep(0.05)


async def _caught_up(floor: Floor, tables: Sequence[EnvelopeTable], within: float = 20.0) -> None:
    """Wait until the monitor holds every event the tables published (a gap is replayed by then)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while any(floor.tables[t.table_id].seq < len(t.history) for t in tables) and loop.time() < deadline:
        await asyncio.sleep(0.05)


def main() -> None:
    from controller.devkit import floor_shots

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--pace", type=float,
                        help="seconds between a dealer's events (0.4; 2 while pictures are taken)")
    parser.add_argument("--db", metavar="PATH|URL",
                        help="where the ratings are kept (SQLite file or postgresql:// URL; "
                             "default: a temporary SQLite file)")
    parser.add_argument("--sign-in", action="store_true",
                        help=f"sign-in required (user {PIT_USER}, password {PIT_PASSWORD}): the pit's "
                             f"actions can be taken (supervisor {SUPERVISOR}, PIN {SUPERVISOR_PIN})")
    parser.add_argument("--screenshot", type=Path, help="write a PNG of the page and stop")
    parser.add_argument("--page", default="", help="the page to take: '' (the floor) or table/T01")
    parser.add_argument("--docs", type=Path, metavar="FOLDER",
                        help="write the pictures of docs/pit-monitor.md into FOLDER and stop (signed in)")
    args = parser.parse_args()
    shots: Shots | None = None
    if args.docs is not None:
        shots = partial(floor_shots.docs_shots, args.docs)
    elif args.screenshot is not None:
        shots = partial(floor_shots.one_shot, args.page, args.screenshot)
    pace = args.pace if args.pace is not None else 0.4 if shots is None else 2.0
    asyncio.run(run_floor(args.tables, args.port, pace, db=args.db,
                          sign_in=args.sign_in or args.docs is not None, shots=shots))


if __name__ == "__main__":
    main()
