"""The games' strategies built on a thread of their own, so that game protection never holds the monitor's
loop.

Easy Jack's strategy is its exact solver, which walks every hand from a full
shoe once (a second or two of CPU); Buster Blackjack X's a fraction of a
second. :class:`StrategiesApart` is what :class:`~controller.podium.protection.watch.Protection`
asks for a table's strategy: it gives the one built, or starts building it and
gives None until it is ready (game protection asks again at each hand, so a
table's decisions are checked from the first hand after its strategy is built).
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

from controller.podium.protection.strategies import GameStrategy, strategy_for
from controller.podium.ratings.hands import Rules


class StrategiesApart:
    """Each game's strategy, built once on a worker thread."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="strategies")
        self._working: dict[tuple[str | None, str], Future[GameStrategy | None]] = {}

    def __call__(self, game: str | None, rules: Rules | None, key: str) -> GameStrategy | None:
        """The strategy if built; else None, and it is being built."""
        if game is None or rules is None:
            return None
        work = self._working.get((game, key))
        if work is None:
            self._working[(game, key)] = self._pool.submit(strategy_for, game, dict(rules), key)
            return None
        return work.result() if work.done() and work.exception() is None else None

    def let_go(self) -> None:
        """Stop the worker (what it builds now is let go)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
