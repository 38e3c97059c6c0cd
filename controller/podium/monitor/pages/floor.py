"""The floor page and its live updates: an aiohttp app on the monitor's loop, pushed with Server-Sent Events.

Pages (plain HTML, CSS and JavaScript from ``static/``, nothing to build):

* ``/``: the floor, one tile per table; ``/table/<name>``: one table in detail.

JSON API:

* ``GET /api/floor``: every tile; ``GET /api/tables/<name>``: one table in detail.
* ``GET /api/stream[?table=<name>]``: Server-Sent Events; first ``floor`` (and
  ``detail`` with ``table``), then ``tiles`` (``{"tables": [tile, ...]}``: the
  tables that changed; and ``detail``) as tables change. Changes are pushed,
  never polled: the followers tell the :class:`Hub`, which draws a changed
  table once for all the changes since it was last sent, and on a big floor
  sends the tables in turns (``DRAW``), so that the page is never far behind.
* ``POST /api/ack`` with ``{"key": ..., "who": ...}`` (JSON only): acknowledge
  an alert; with passwords on, ``who`` is the signed-in user.
* ``GET /api/acks``: every acknowledgement recorded.
* ``POST /api/tables/<name>/command``, ``GET /api/actions``: the pit's actions
  (:mod:`controller.podium.monitor.pages.actions`).
* ``POST /api/tables/<name>/ratings``, ``POST /api/ratings/<id>/close``,
  ``GET /api/ratings``: rated play (:mod:`controller.podium.monitor.pages.ratings`;
  with ``serve --db``).
* ``/protection``, ``GET /api/protection``, ``GET /api/protection/subject?id=``: game
  protection (:mod:`controller.podium.monitor.pages.protection`).

Served on loopback unless TLS (certificate and key) and a password file are
configured; the password file has one ``name:hash`` a line, the hash from
``table-controller hash-pin`` (HTTP Basic authentication over TLS), checked by
:class:`~controller.podium.monitor.pages.signin.SignIn` (wrong passwords limited). Only
requests for this server's names, from no other site's page, are answered; event
streams are capped and slow requests cut (:mod:`controller.web.guard`).
"""

from __future__ import annotations

import asyncio
import base64
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web

from controller.pit.server import is_local_endpoint
from controller.podium.monitor.models.actions import ActionBook, PitActions
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.pages.actions import USER_KEY, add_action_routes, answer_floor_call, read_json
from controller.podium.monitor.pages.protection import add_protection_routes
from controller.podium.monitor.pages.ratings import add_rating_routes
from controller.podium.monitor.pages.signin import Refused, SignIn
from controller.security.supervisor_pins import looks_like_pin_hash
from controller.web.guard import (
    MAX_BODY,
    REQUEST_TIMEOUT,
    Streams,
    foreign_origin,
    misdirected,
    server_names,
)
from controller.web.sse import HEADERS, sse, stream_refusal

STATIC = Path(__file__).with_name("static")

KEEPALIVE = 15.0
"""Seconds between comment lines on an idle event stream (so dead connections are noticed)."""

TILES_PER_SECOND = 4000
"""Tiles drawn per second at most, however big the floor: a table that keeps changing is sent every
``tables / TILES_PER_SECOND`` seconds (every :data:`TICK` on a floor of up to 200 tables, every half
second with 2,000), drawn once for all the changes that came meanwhile."""

TICK = 0.05
"""Seconds between two sendings, while tables wait to be sent."""

CLIENT_QUEUE = 2000
"""Messages queued for one page; a page that falls this far behind is dropped and reconnects afresh."""


@dataclass(eq=False)
class Page:
    """One open page's stream: the table it details (if any) and what waits to be sent to it."""

    table: str | None
    queue: asyncio.Queue[bytes | None] = field(default_factory=lambda: asyncio.Queue(CLIENT_QUEUE))

    def push(self, chunk: bytes) -> bool:
        """Queue a message; False (and the page is told to go) if it is too far behind."""
        try:
            self.queue.put_nowait(chunk)
            return True
        except asyncio.QueueFull:
            self.close()
            return False

    def close(self) -> None:
        """Drop what waits and tell the stream to end."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)


class Hub:
    """Sends every change of the floor to every open page: each table that changed, drawn once for all
    the changes since it was last sent (at once after a quiet spell), at most every :attr:`refresh`
    seconds, a share of the floor at a time (:data:`TILES_PER_SECOND`)."""

    def __init__(self, floor: Floor) -> None:
        self.floor = floor
        self.refresh = max(TICK, len(floor.tables) / TILES_PER_SECOND)
        """Seconds at least between two sendings of a table."""
        self.pages: set[Page] = set()
        self._dirty: dict[str, None] = {}
        """The tables changed and not yet sent, the longest waiting first."""
        self._sent: dict[str, float] = {}
        """When each table was last sent (the loop's time)."""
        self._scheduled = False
        floor.on_change = self.changed

    def changed(self, table: str) -> None:
        """A table changed: send it with the next sending that it is due for."""
        self._dirty.setdefault(table)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Send the changed tables that are due (last sent :attr:`refresh` seconds ago or more) to
        every page, at most twice the share of the floor that a sending needs when every table keeps
        changing, and a table's detail to the pages showing it; again in :data:`TICK` seconds while
        any wait. So drawing a big floor never holds the loop for long."""
        loop = asyncio.get_running_loop()
        self._scheduled = False
        now = loop.time()
        budget = 2 * int(len(self.floor.tables) * TICK / self.refresh) + 1
        due: list[str] = []
        for table in self._dirty:
            if self._sent.get(table, -self.refresh) + self.refresh <= now:
                due.append(table)
                if len(due) >= budget:
                    break
        for table in due:
            del self._dirty[table]
            self._sent[table] = now
        if self._dirty:
            self._scheduled = True
            loop.call_later(TICK, self.flush)
        if not due or not self.pages:
            return
        tiles = sse("tiles", {"tables": [self.floor.tile(name) for name in due]})
        details: dict[str, bytes] = {}
        for page in list(self.pages):
            if not page.push(tiles):
                self.pages.discard(page)
            elif page.table is not None and page.table in due:
                if page.table not in details:
                    details[page.table] = sse("detail", self.floor.detail(page.table))
                if not page.push(details[page.table]):
                    self.pages.discard(page)
        for table in due:
            self.floor.tables[table].let_go()     # drawn: its state dies young (TableModel.let_go)


FLOOR_KEY = web.AppKey("floor", Floor)
HUB_KEY = web.AppKey("hub", Hub)
SIGNIN_KEY = web.AppKey("signin", SignIn)
NAMES_KEY = web.AppKey("names", frozenset[str])
STREAMS_KEY = web.AppKey("streams", Streams)
TIMEOUT_KEY = web.AppKey("request_timeout", float)


def load_passwords(path: Path) -> dict[str, str]:
    """``name:hash`` lines (``#`` comments and blank lines skipped); ValueError names a bad line."""
    users: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, colon, stored = line.partition(":")
        if not colon or not name or not looks_like_pin_hash(stored):
            raise ValueError(f"{path}:{number}: expected name:hash (the hash from table-controller hash-pin)")
        users[name] = stored
    if not users:
        raise ValueError(f"{path}: no user")
    return users


def may_listen(host: str, tls: bool, passwords: bool) -> str | None:
    """Why the page may not be served on ``host`` (None: it may).

    >>> may_listen("127.0.0.1", False, False) is None, may_listen("::1", False, False) is None
    (True, True)
    >>> may_listen("0.0.0.0", True, False)
    'serving on 0.0.0.0 needs TLS (--tls-cert, --tls-key) and a password file (--password-file)'
    """
    address = f"tcp://[{host}]:0" if ":" in host else f"tcp://{host}:0"
    if is_local_endpoint(address) or (tls and passwords):
        return None
    return f"serving on {host} needs TLS (--tls-cert, --tls-key) and a password file (--password-file)"


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer only requests for this server's names and from no other site's page."""
    why = misdirected(request.headers.get("Host"), request.app[NAMES_KEY])
    if why is not None:
        return web.Response(status=421, text=why)
    why = foreign_origin(request.headers.get("Origin"), request.scheme, request.headers.get("Host"))
    if why is not None:
        return web.Response(status=403, text=why)
    return await handler(request)


@web.middleware
async def _authenticate(request: web.Request, handler: Handler) -> web.StreamResponse:
    """HTTP Basic authentication against the password file; the user is ``request[USER_KEY]``."""
    signin = request.app[SIGNIN_KEY]
    request[USER_KEY] = None
    if not signin.users:
        return await handler(request)
    scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
    try:
        name, _, password = base64.b64decode(encoded, validate=True).decode().partition(":")
    except (ValueError, UnicodeDecodeError):
        name = password = ""
    if scheme.lower() == "basic" and name:
        try:
            matched = await signin.check(name, password, request.remote or "")
        except Refused as refused:
            return web.Response(status=429, text=str(refused), headers={"Retry-After": str(refused.wait)})
        if matched:
            request[USER_KEY] = name
            return await handler(request)
    return web.Response(status=401, text="sign in", headers={"WWW-Authenticate": 'Basic realm="pit monitor"'})


async def _page(request: web.Request) -> web.StreamResponse:
    name = request.match_info.get("name")
    if name is not None and name not in request.app[FLOOR_KEY].tables:
        raise web.HTTPNotFound(text=f"no table {name}")
    return web.FileResponse(STATIC / ("table.html" if name else "floor.html"))


async def _floor(request: web.Request) -> web.StreamResponse:
    return web.json_response(request.app[FLOOR_KEY].view())


async def _detail(request: web.Request) -> web.StreamResponse:
    floor = request.app[FLOOR_KEY]
    name = request.match_info["name"]
    if name not in floor.tables:
        raise web.HTTPNotFound(text=f"no table {name}")
    return web.json_response(floor.detail(name))


async def _stream(request: web.Request) -> web.StreamResponse:
    floor, hub = request.app[FLOOR_KEY], request.app[HUB_KEY]
    table = request.query.get("table") or None
    if table is not None and table not in floor.tables:
        raise web.HTTPNotFound(text=f"no table {table}")
    streams = request.app[STREAMS_KEY]
    refusal = stream_refusal(streams, request)
    if refusal is not None:
        return refusal
    page = Page(table)
    try:
        response = web.StreamResponse(headers=HEADERS)
        await response.prepare(request)
        hub.pages.add(page)
        await response.write(sse("floor", floor.view()))
        if table is not None:
            await response.write(sse("detail", floor.detail(table)))
        while True:
            if page.queue.empty():
                try:
                    chunks = [await asyncio.wait_for(page.queue.get(), KEEPALIVE)]
                except TimeoutError:
                    chunks = [b": still here\n\n"]
            else:
                chunks = []
            while not page.queue.empty():
                chunks.append(page.queue.get_nowait())
            if None in chunks:
                break  # too far behind: the browser reconnects and starts from a whole picture
            await response.write(b"".join(c for c in chunks if c is not None))
    except ConnectionResetError:
        pass
    finally:
        hub.pages.discard(page)
        streams.close(request.remote or "")
    return response


async def _ack(request: web.Request) -> web.StreamResponse:
    body = await read_json(request, '{"key": ..., "who": ...}')
    try:
        key = body["key"]
        who = request[USER_KEY] or body.get("who", "")
        if not isinstance(key, str) or not isinstance(who, str):
            raise TypeError("key and who are text")
    except (KeyError, TypeError, AttributeError) as exc:
        raise web.HTTPBadRequest(text=f"expected {{\"key\": ..., \"who\": ...}}: {exc}") from exc
    try:
        alert = request.app[FLOOR_KEY].ack(key, who)
    except KeyError:
        raise web.HTTPNotFound(text=f"no open alert {key}") from None
    except ValueError as exc:
        raise web.HTTPBadRequest(text=str(exc)) from exc
    if alert.data.get("code") == "floor_called":
        answer_floor_call(request.app, alert.table, alert.seq)
    return web.json_response(alert.to_json())


async def _acks(request: web.Request) -> web.StreamResponse:
    return web.json_response(request.app[FLOOR_KEY].book.records())


def make_app(floor: Floor, users: dict[str, str] | None = None, *, names: frozenset[str] | None = None,
             request_timeout: float = REQUEST_TIMEOUT, actions: PitActions | None = None) -> web.Application:
    """The monitor's web app over ``floor`` (``users``: name -> password hash, or none), answering to
    ``names`` (:func:`~controller.web.guard.server_names`; loopback's by default); a request
    has ``request_timeout`` seconds to come in whole. ``actions``: the tables' control sockets and
    the action record (none: no table has a control socket, nothing is recorded)."""
    app = web.Application(middlewares=[_guard, _authenticate], client_max_size=MAX_BODY)
    app[FLOOR_KEY] = floor
    app[HUB_KEY] = Hub(floor)
    app[SIGNIN_KEY] = SignIn(users or {})
    app[NAMES_KEY] = names if names is not None else server_names("127.0.0.1")
    app[STREAMS_KEY] = Streams()
    app[TIMEOUT_KEY] = request_timeout
    app.router.add_get("/", _page)
    app.router.add_get("/table/{name}", _page)
    app.router.add_get("/api/floor", _floor)
    app.router.add_get("/api/tables/{name}", _detail)
    app.router.add_get("/api/stream", _stream)
    app.router.add_post("/api/ack", _ack)
    app.router.add_get("/api/acks", _acks)
    add_action_routes(app, actions or PitActions(dict.fromkeys(floor.tables), ActionBook()), request_timeout)
    add_rating_routes(app, floor, floor.rated)
    add_protection_routes(app, floor)
    app.router.add_static("/static/", STATIC)
    app.on_shutdown.append(_close_streams)
    return app


def make_runner(app: web.Application) -> web.AppRunner:
    """The runner to serve ``app`` with: a connection that has not sent a whole request head within
    the app's request timeout is closed (aiohttp's keep-alive timeout, which also closes idle ones)."""
    return web.AppRunner(app, keepalive_timeout=app[TIMEOUT_KEY])


async def _close_streams(app: web.Application) -> None:
    for page in list(app[HUB_KEY].pages):
        page.close()


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server TLS context from a certificate (chain) and its key, in PEM."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context
