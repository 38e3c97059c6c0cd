"""A table's edges worked out in a child process, so the game's math never holds the monitor's loop.

The math takes seconds of CPU (Easy Jack's exact figures, Blackjack Extreme's
simulated bank); the monitor starts ``python -m
controller.podium.monitor.apart.edges GAME`` with the rules as JSON on its
stdin, and reads the :class:`~controller.podium.ratings.edges.Edges` as JSON from
its stdout. Each child does one piece of work and ends: a monitor killed
meanwhile leaves nothing running for longer than that piece takes (a pool of
workers would outlive it).
"""

from __future__ import annotations

import asyncio
import json
import sys

from controller.podium.ratings.edges import Edges
from controller.podium.ratings.figures import edges_of
from controller.podium.ratings.hands import Rules


async def edges_apart(game: str, rules: Rules) -> Edges:
    """:func:`~controller.podium.ratings.figures.edges_of` in a child process; RuntimeError with the
    child's last words if it could not work them out."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "controller.podium.monitor.apart.edges", game,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await child.communicate(json.dumps(dict(rules)).encode())
    except asyncio.CancelledError:
        child.kill()
        raise
    if child.returncode != 0:
        words = err.decode(errors="replace").strip().splitlines()
        raise RuntimeError(words[-1] if words else f"the edges' process ended with {child.returncode}")
    return Edges.from_json(json.loads(out))


def main() -> int:
    """``GAME`` as the argument, the rules on stdin: the edges on stdout (status 1 and why on stderr
    when they cannot be worked out)."""
    try:
        edges = edges_of(sys.argv[1], json.load(sys.stdin))
    except Exception as exc:  # an unknown game, rules it refuses: said, not a traceback
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(edges.to_json()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
