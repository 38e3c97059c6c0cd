"""Game protection's routes of the monitor's web app (:mod:`controller.podium.protection.watch`).

* ``/protection``: the pit's game-protection list, the most suspicious first (or by another
  column), a page of it at a time, with a filter on the player or table and one to the flagged (the
  view kept in the page's address: ``?sort=bets&reverse=1&filter=T07&flagged=1&offset=100``);
  ``/protection?subject=<id>``: one player's page (or an unrated seat's): the
  bets against the true count, plotted on the page, basic strategy accuracy,
  the deviations, the ratings.
* ``GET /api/protection?limit=<n>``: one page of the list (what the page asks for, again every few
  seconds): ``{"subjects": [...], "total": <those that pass the filter>, "offset", "limit", "sort",
  "reverse", "filter", "flagged_only", "listed": <every subject>, "flagged": <of every subject>,
  "counts": {table: count} of the tables every subject that passes the filter sat at, "settings":
  {...}}``. ``offset`` (0), ``sort`` (``flagged``, or another column of
  :data:`~controller.podium.monitor.pages.protection_list.SORTS`), ``reverse`` (``1``), ``filter`` (words
  the name, label or a seat ``T07 seat 2`` holds, any case) and ``flagged`` (``1``: only the flagged)
  as the page chose; at most :data:`MOST` rows. A value that cannot be read: 400, saying which.
* ``GET /api/protection`` (no ``limit``): the whole list, the most suspicious first, each table's
  count and the settings (``{"subjects": Protection.subjects(), "counts": {...}, "settings":
  {...}}``), written a share of the subjects at a time: the export.
* ``GET /api/protection/subject?id=<id>``: one subject with its plot and deviations (404 unknown).

The rows and their orders are kept between two asks
(:class:`~controller.podium.monitor.pages.protection_list.ProtectionList`). The figures are the pit's:
nothing of them goes to the table or its dealer's screen.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from aiohttp import web

from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.pages.protection_list import SORTS, ProtectionList
from controller.podium.protection.watch import Protection

PROTECTION_FLOOR_KEY = web.AppKey("protection_floor", Floor)
PROTECTION_LIST_KEY = web.AppKey("protection_list", ProtectionList)
STATIC = Path(__file__).with_name("static")

OFF = "game protection is not kept by this monitor"

SHARE = 500
"""Subjects of the whole list written between two turns of the loop (some 10 ms)."""

MOST = 1000
"""The most rows a page of the list may ask for."""

LONGEST_FILTER = 200
"""The longest filter a page may ask with (in characters)."""


def _protection(request: web.Request) -> Protection:
    protection = request.app[PROTECTION_FLOOR_KEY].protection
    if protection is None:
        raise web.HTTPConflict(text=OFF)
    return protection


def _number(request: web.Request, name: str, default: int, least: int, most: int) -> int:
    """The query's whole number ``name`` (``default`` without it), from ``least`` to ``most``; 400."""
    given = request.query.get(name)
    if given is None:
        return default
    try:
        value = int(given)
    except ValueError:
        raise web.HTTPBadRequest(text=f"{name} is not a whole number: {given!r}") from None
    if not least <= value <= most:
        raise web.HTTPBadRequest(text=f"{name} is {value}: it may be {least} to {most}")
    return value


def _switch(request: web.Request, name: str) -> bool:
    """The query's ``name``: ``1`` on, ``0`` (or none) off; 400 for anything else."""
    given = request.query.get(name, "0")
    if given not in ("0", "1"):
        raise web.HTTPBadRequest(text=f"{name} is 0 or 1, not {given!r}")
    return given == "1"


async def _page(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "protection.html")


async def _list(request: web.Request) -> web.StreamResponse:
    """A page of the list with ``limit``, the whole list without (see the module's words)."""
    protection = _protection(request)
    if "limit" not in request.query:
        return await _whole(request, protection)
    limit = _number(request, "limit", 0, 1, MOST)
    offset = _number(request, "offset", 0, 0, 10**9)
    sort = request.query.get("sort", "flagged")
    if sort not in SORTS:
        raise web.HTTPBadRequest(text=f"no column {sort!r} to sort by: {', '.join(SORTS)}")
    reverse = _switch(request, "reverse")
    only_flagged = _switch(request, "flagged")
    wanted = request.query.get("filter", "")
    if len(wanted) > LONGEST_FILTER:
        raise web.HTTPBadRequest(text=f"the filter is longer than {LONGEST_FILTER} characters")
    rows = request.app[PROTECTION_LIST_KEY]
    await rows.refresh(protection)
    text = page_text(protection, rows, sort, reverse, wanted, offset, limit, only_flagged)
    return web.Response(text=text, content_type="application/json")


def page_text(protection: Protection, rows: ProtectionList, sort: str, reverse: bool, wanted: str,
              offset: int, limit: int, only_flagged: bool) -> str:
    """The JSON of one page of the list as asked for (see the module's words), from ``rows`` brought
    up to date with ``protection``."""
    page = rows.page(sort, reverse, wanted, offset, limit, only_flagged)
    head = {"total": page.total, "offset": offset, "limit": limit, "sort": sort, "reverse": reverse,
            "filter": wanted, "flagged_only": only_flagged, "listed": page.listed, "flagged": page.flagged,
            "counts": {name: protection.count_of(name) for name in page.tables},
            "settings": protection.settings.to_json()}
    return f'{{"subjects": [{", ".join(row.text for row in page.rows)}], {json.dumps(head)[1:]}'


async def _whole(request: web.Request, protection: Protection) -> web.StreamResponse:
    """``{"subjects": Protection.subjects(), "counts": {table: count}, "settings": {...}}``, as JSON,
    written a :data:`SHARE` of the subjects at a time."""
    rows = request.app[PROTECTION_LIST_KEY]
    await rows.refresh(protection)
    listed = rows.page().rows
    reply = web.StreamResponse(headers={"Content-Type": "application/json; charset=utf-8"})
    await reply.prepare(request)
    await reply.write(b'{"subjects": [')
    for start in range(0, len(listed), SHARE):
        share = ", ".join(row.text for row in listed[start:start + SHARE])
        await reply.write(((", " if start else "") + share).encode())
        await asyncio.sleep(0)
    tables = request.app[PROTECTION_FLOOR_KEY].tables
    counts = json.dumps({name: protection.count_of(name) for name in tables})
    settings = json.dumps(protection.settings.to_json())
    await reply.write(f'], "counts": {counts}, "settings": {settings}}}'.encode())
    await reply.write_eof()
    return reply


async def _subject(request: web.Request) -> web.StreamResponse:
    protection = _protection(request)
    subject = request.query.get("id", "")
    found = protection.subject(subject)
    if found is None:
        raise web.HTTPNotFound(text=f"no subject {subject!r}")
    return web.json_response(found)


def add_protection_routes(app: web.Application, floor: Floor) -> None:
    """Serve ``floor``'s game protection (a 409 saying so when it keeps none)."""
    app[PROTECTION_FLOOR_KEY] = floor
    app[PROTECTION_LIST_KEY] = ProtectionList()
    app.router.add_get("/protection", _page)
    app.router.add_get("/api/protection", _list)
    app.router.add_get("/api/protection/subject", _subject)
