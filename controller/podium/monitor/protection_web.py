"""Game protection's routes of the monitor's web app (:mod:`controller.podium.protection.watch`).

* ``/protection``: the pit's game-protection list, the most suspicious first;
  ``/protection?subject=<id>``: one player's page (or an unrated seat's): the
  bets against the true count, plotted on the page, basic strategy accuracy,
  the deviations, the ratings.
* ``GET /api/protection``: every subject with its figures, the most suspicious
  first, each table's count, and the settings in force. A floor follows
  thousands of subjects and the page asks again every few seconds: the answer
  is put together a share of the subjects at a time (:data:`SHARE`), the loop
  going on between two, each subject worked out again only if it changed.
* ``GET /api/protection/subject?id=<id>``: one subject with its plot and deviations (404 unknown).

The figures are the pit's: nothing of them goes to the table or its dealer's screen.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from aiohttp import web

from controller.podium.monitor.floor import Floor

PROTECTION_FLOOR_KEY = web.AppKey("protection_floor", Floor)
STATIC = Path(__file__).with_name("static")

OFF = "game protection is not kept by this monitor"

SHARE = 500
"""Subjects put into ``/api/protection``'s answer between two turns of the loop (at most about 20 ms)."""


def _floor(request: web.Request) -> Floor:
    floor = request.app[PROTECTION_FLOOR_KEY]
    if floor.protection is None:
        raise web.HTTPConflict(text=OFF)
    return floor


async def _page(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "protection.html")


async def _list(request: web.Request) -> web.StreamResponse:
    """``{"subjects": Protection.subjects(), "counts": {table: count}, "settings": {...}}``, as JSON,
    put together a :data:`SHARE` of the subjects at a time."""
    floor = _floor(request)
    protection = floor.protection
    assert protection is not None
    listed = []
    for n, tally in enumerate(list(protection.tallies.values()), 1):
        found = protection.listed(tally)
        if found is not None:
            listed.append(found)
        if n % SHARE == 0:
            await asyncio.sleep(0)
    listed.sort(key=lambda entry: entry.order)
    counts = json.dumps({name: protection.count_of(name) for name in floor.tables})
    text = (f'{{"subjects": [{", ".join(entry.text for entry in listed)}], "counts": {counts}, '
            f'"settings": {json.dumps(protection.settings.to_json())}}}')
    return web.Response(text=text, content_type="application/json")


async def _subject(request: web.Request) -> web.StreamResponse:
    protection = _floor(request).protection
    assert protection is not None
    subject = request.query.get("id", "")
    found = protection.subject(subject)
    if found is None:
        raise web.HTTPNotFound(text=f"no subject {subject!r}")
    return web.json_response(found)


def add_protection_routes(app: web.Application, floor: Floor) -> None:
    """Serve ``floor``'s game protection (a 409 saying so when it keeps none)."""
    app[PROTECTION_FLOOR_KEY] = floor
    app.router.add_get("/protection", _page)
    app.router.add_get("/api/protection", _list)
    app.router.add_get("/api/protection/subject", _subject)
