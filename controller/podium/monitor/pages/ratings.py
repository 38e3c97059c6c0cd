"""The rated play's routes of the monitor's web app (:mod:`controller.podium.monitor.models.rated`).

* ``POST /api/tables/<name>/ratings`` with ``{"seat", "player", "who"}`` (JSON only): rate a
  player at a seat from now (another player rated there is closed); ``who`` is the signed-in user
  when there are passwords. ``200 {"rating", "replaced"}``; ``400`` with the reason when it cannot
  be opened (among them a seat beyond 1..32, :data:`~controller.podium.ratings.rating.MAX_SEAT`, and
  one the table does not have, once the monitor knows its seats); ``409``
  when the table is closed (its picture says so: no hand is dealt there until the pit opens it) or
  when the monitor keeps no ratings (it was started without ``--db``).
* ``POST /api/ratings/<id>/close`` with ``{"who"}``: close it now; ``200 {"rating"}``.
* ``GET /api/ratings[?table=<name>]``: the open ratings with their figures so far.

Each change is stored before it is answered, and the table's page is told at once.
"""

from __future__ import annotations

from aiohttp import web

from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.models.rated import Rated
from controller.podium.monitor.pages.actions import USER_KEY, read_json
from controller.podium.ratings.rating import RatingError, seat_number

RATED_KEY = web.AppKey("rated", Rated)
RATINGS_FLOOR_KEY = web.AppKey("ratings_floor", Floor)

NO_DATABASE = ("ratings need the recorder's database: start the monitor with --db (the database "
               "pit-monitor record stores into; docs/pit-monitor.md)")


def _rated(request: web.Request) -> Rated:
    rated = request.app.get(RATED_KEY)
    if rated is None:
        raise web.HTTPConflict(text=NO_DATABASE)
    return rated


def _who(request: web.Request, body: object) -> str:
    """The signed-in user, else the name the page sends; 400 without one."""
    who = request[USER_KEY] or (body.get("who") if isinstance(body, dict) else None)
    if not isinstance(who, str) or not who.strip():
        raise web.HTTPBadRequest(text="say who you are (your name, top right)")
    return who.strip()


async def _open(request: web.Request) -> web.StreamResponse:
    rated, floor = _rated(request), request.app[RATINGS_FLOOR_KEY]
    table = request.match_info["name"]
    if table not in floor.tables:
        raise web.HTTPNotFound(text=f"no table {table}")
    body = await read_json(request, '{"seat": N, "player": "...", "who": "..."}')
    who = _who(request, body)
    seat, player = body.get("seat"), body.get("player")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(player, str):
        raise web.HTTPBadRequest(text="a rating needs a seat (a number) and a player id (text)")
    try:
        seat = seat_number(seat)
    except RatingError as exc:
        raise web.HTTPBadRequest(text=str(exc)) from None
    picture = floor.tables[table].picture.picture
    if picture is not None and picture.closed:
        raise web.HTTPConflict(text=f"table {table} is closed: open it (Pit actions) before rating a player "
                                    "there")
    seats = [] if picture is None else [s.seat for s in picture.seats]
    if seats and seat not in seats:     # a table not heard from yet lists none: its seats are unknown
        raise web.HTTPBadRequest(text=f"table {table} has no seat {seat} (its seats: "
                                      f"{', '.join(str(s) for s in seats)})")
    try:
        rating, replaced = await rated.open(table, seat, player, who)
    except RatingError as exc:
        raise web.HTTPBadRequest(text=str(exc)) from None
    floor.on_change(table)
    return web.json_response({"rating": rating.to_json(),
                              "replaced": None if replaced is None else replaced.to_json()})


async def _close(request: web.Request) -> web.StreamResponse:
    rated, floor = _rated(request), request.app[RATINGS_FLOOR_KEY]
    try:
        rating_id = int(request.match_info["id"])
    except ValueError:
        raise web.HTTPNotFound(text=f"no rating {request.match_info['id']}") from None
    body = await read_json(request, '{"who": "..."}')
    try:
        rating = await rated.close(rating_id, _who(request, body))
    except RatingError as exc:
        raise web.HTTPBadRequest(text=str(exc)) from None
    if rating.table in floor.tables:
        floor.on_change(rating.table)
    return web.json_response({"rating": rating.to_json()})


async def _list(request: web.Request) -> web.StreamResponse:
    rated, floor = _rated(request), request.app[RATINGS_FLOOR_KEY]
    table = request.query.get("table") or None
    if table is not None and table not in floor.tables:
        raise web.HTTPNotFound(text=f"no table {table}")
    tables = [table] if table is not None else list(floor.tables)
    return web.json_response({"ratings": [r for t in tables for r in rated.open_ratings(t)]})


def add_rating_routes(app: web.Application, floor: Floor, rated: Rated | None) -> None:
    """Serve the ratings of ``rated`` (None: the monitor keeps none, and says why when asked)."""
    if rated is not None:
        app[RATED_KEY] = rated
    app[RATINGS_FLOOR_KEY] = floor
    app.router.add_post("/api/tables/{name}/ratings", _open)
    app.router.add_post("/api/ratings/{id}/close", _close)
    app.router.add_get("/api/ratings", _list)
