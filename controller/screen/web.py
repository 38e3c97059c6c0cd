"""The screen's web app: the dealer's page, the meter page, the latest model pushed, touches sent on.

Pages (plain HTML, CSS and JavaScript from ``static/``, nothing to build):
``/`` the dealer's screen, ``/meter`` the players' meter page.

* ``GET /api/model``: what the page draws now (:meth:`ScreenTable.model`).
* ``GET /api/stream``: Server-Sent Events, one ``model`` each time the table
  changes. A page is never sent a backlog: when it is slow, it gets the latest
  model and nothing in between, so a prompt is never lost behind old ones.
  Streams are capped as the monitor's are (:class:`controller.web.guard.Streams`:
  16 from one address, 256 in all; one more is refused ``503``), so no local
  process can hold every file descriptor and starve ``/api/model`` and the touches.
* ``POST /api/act`` ``{"action", "amount"?, "request_id"?}``: the control command ``act``.
* ``POST /api/command`` ``{"cmd", "supervisor", "pin", "seat"?, "amount"?,
  "request_id"?}``: a supervisor's command (one of the picture's ``commands``,
  ``shoe_resync``, or ``void``, sent as ``act``), with the supervisor's id and PIN
  as docs/control.md says. The PIN is passed on once and neither logged nor kept.
  The model's ``forms`` gives each command offered its label and fields.
* ``POST /api/dealer`` ``{"cmd", "dealer"?, "dealer_pin"?, "request_id"?}``: the dealer's
  own commands (``dealer_in``, ``dealer_out``, ``opener``, ``closer``: docs/control.md, "The
  table's books"), with the dealer's PIN, passed on once and neither logged nor kept.
* ``POST /api/dismiss`` ``{"key", "confirm"?}``: the dealer dismisses a banner;
  one that takes two steps is armed by a first request and dismissed by a
  second with ``"confirm": true`` (:meth:`ScreenTable.dismiss`). The reply is
  ``{"ok": true}`` once dismissed, else ``{"ok": false, "error", "armed"}``.

``act`` and ``command`` are decoded as the daemon decodes them
(:mod:`controller.commands`) and sent as built from the command's record, so a
bad field is refused here with the table's words and a name cannot be misspelt.
The page gives each person's action a ``request_id`` and sends the same one
again when it retries, so a command that was carried out but whose answer was
lost is not carried out twice (docs/control.md, "Request ids").

Every POST takes JSON only (``Content-Type: application/json``), so another
page in the browser cannot send one without the browser asking first; as the
pit monitor's (``controller/web/guard.py``), a request whose ``Host``
is not a loopback name of this server (DNS rebinding) is refused ``421``, one
whose ``Origin`` is another site's ``403``, and a body is at most 16 KiB. The
reply of a command is the table's own (``{"ok": ..., "error": ...}``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web

from controller.commands.books import DealerIn, DealerOut, SignCloser, SignOpener
from controller.commands.registry import Request, decode
from controller.commands.table import Act
from controller.follow.control import Control
from controller.games.catalog import load_games
from controller.screen.forms import VOID, offered
from controller.screen.table import ScreenTable
from controller.web.guard import MAX_BODY, Streams, foreign_origin, misdirected, server_names
from controller.web.sse import HEADERS, sse, stream_refusal
from firmware_bridge.kernel.json import JsonObject

STATIC = Path(__file__).with_name("static")

KEEPALIVE = 15.0
"""Seconds between comment lines on an idle event stream (so a dead page is noticed)."""


class Pages:
    """Wakes every open page's stream when the table changes."""

    def __init__(self, table: ScreenTable) -> None:
        self.table = table
        self.waiting: set[asyncio.Event] = set()
        self.closing = False
        table.on_change = self.wake

    def wake(self) -> None:
        """The table changed: every stream sends the latest model."""
        for event in self.waiting:
            event.set()


NAMES = server_names("127.0.0.1")
"""The names the screen answers to: loopback's (any of ``[screen] listen``) and the machine's."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer only requests for this server's names and from no other site's page."""
    why = misdirected(request.headers.get("Host"), NAMES)
    if why is None:
        why = foreign_origin(request.headers.get("Origin"), request.scheme, request.headers.get("Host"))
        if why is not None:
            return web.Response(status=403, text=why)
        return await handler(request)
    return web.Response(status=421, text=why)


TABLE_KEY = web.AppKey("table", ScreenTable)
PAGES_KEY = web.AppKey("pages", Pages)
STREAMS_KEY = web.AppKey("streams", Streams)
CONTROL_KEY = web.AppKey("control", Control)


async def _file(request: web.Request) -> web.StreamResponse:
    name = "meter.html" if request.path.rstrip("/") == "/meter" else "screen.html"
    return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


async def _model(request: web.Request) -> web.StreamResponse:
    return web.json_response(request.app[TABLE_KEY].model())


async def _stream(request: web.Request) -> web.StreamResponse:
    table, pages, streams = request.app[TABLE_KEY], request.app[PAGES_KEY], request.app[STREAMS_KEY]
    refusal = stream_refusal(streams, request)
    if refusal is not None:
        return refusal
    woken = asyncio.Event()
    pages.waiting.add(woken)
    try:
        response = web.StreamResponse(headers=HEADERS)
        await response.prepare(request)
        sent = -1
        while not pages.closing:
            if table.version != sent:
                sent = table.version
                await response.write(sse("model", table.model()))
                continue
            woken.clear()
            try:
                await asyncio.wait_for(woken.wait(), KEEPALIVE)
            except TimeoutError:
                await response.write(b": still here\n\n")
    except ConnectionResetError:
        pass
    finally:
        pages.waiting.discard(woken)
        streams.close(request.remote or "")
    return response


async def _body(request: web.Request) -> JsonObject:
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(text="send JSON")
    try:
        body: object = await request.json()
    except ValueError:
        raise web.HTTPBadRequest(text="send a JSON object") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="send a JSON object")
    return body


def _decoded(body: JsonObject) -> Request:
    """The request ``body`` asks for, decoded as the daemon will (:mod:`controller.commands`), so a
    bad field is refused here in the table's words (``400``)."""
    decoded = decode(body)
    if isinstance(decoded, str):
        raise web.HTTPBadRequest(text=decoded)
    return decoded


def _sent(decoded: Request) -> dict[str, object]:
    """The control request for ``decoded``, built from its record."""
    return decoded.command.to_request(supervisor=decoded.supervisor, pin=decoded.pin,
                                      request_id=decoded.request_id)


async def _act(request: web.Request) -> web.StreamResponse:
    body = await _body(request)
    if not isinstance(body.get("action"), str) or not body["action"]:
        raise web.HTTPBadRequest(text="act needs an action name")
    decoded = _decoded({**body, "cmd": Act.name})
    return web.json_response(await request.app[CONTROL_KEY].send(_sent(decoded)))


async def _command(request: web.Request) -> web.StreamResponse:
    body = await _body(request)
    table = request.app[TABLE_KEY]
    cmd = body.get("cmd")
    if not isinstance(cmd, str) or cmd not in offered(table.commands):
        raise web.HTTPBadRequest(text=f"the table offers no command {cmd!r}")
    supervisor, pin = body.get("supervisor"), body.get("pin")
    if not isinstance(supervisor, str) or not isinstance(pin, str):
        raise web.HTTPBadRequest(text="a supervisor's command needs the supervisor's id and PIN")
    if cmd == VOID:
        body = {**{k: v for k, v in body.items() if k != "cmd"}, "cmd": Act.name, "action": VOID}
    decoded = _decoded(body)
    return web.json_response(await request.app[CONTROL_KEY].send(_sent(decoded)))


DEALER_COMMANDS = frozenset(cls.name for cls in (DealerIn, DealerOut, SignOpener, SignCloser))
"""The dealer's own commands the page sends (``POST /api/dealer``)."""


async def _dealer(request: web.Request) -> web.StreamResponse:
    body = await _body(request)
    if body.get("cmd") not in DEALER_COMMANDS:
        raise web.HTTPBadRequest(text=f"the dealer's commands are {', '.join(sorted(DEALER_COMMANDS))}")
    if "supervisor" in body or "pin" in body:
        raise web.HTTPBadRequest(text="a dealer's command carries the dealer's PIN as dealer_pin")
    decoded = _decoded(body)
    return web.json_response(await request.app[CONTROL_KEY].send(_sent(decoded)))


async def _dismiss(request: web.Request) -> web.StreamResponse:
    body = await _body(request)
    done = request.app[TABLE_KEY].dismiss(str(body.get("key")), body.get("confirm") is True)
    if not done.done:
        return web.json_response({"ok": False, "error": done.reason, "armed": done.armed})
    return web.json_response({"ok": True})


def make_app(table: ScreenTable, control: Control) -> web.Application:
    """The screen's web app over ``table``, sending commands through ``control``."""
    load_games()                     # every game's commands, to decode what the page sends
    app = web.Application(middlewares=[_guard], client_max_size=MAX_BODY)
    app[TABLE_KEY] = table
    app[PAGES_KEY] = Pages(table)
    app[STREAMS_KEY] = Streams()
    app[CONTROL_KEY] = control
    app.router.add_get("/", _file)
    app.router.add_get("/meter", _file)
    app.router.add_get("/api/model", _model)
    app.router.add_get("/api/stream", _stream)
    app.router.add_post("/api/act", _act)
    app.router.add_post("/api/command", _command)
    app.router.add_post("/api/dealer", _dealer)
    app.router.add_post("/api/dismiss", _dismiss)
    app.router.add_static("/static/", STATIC)
    app.on_shutdown.append(_close_streams)
    return app


async def _close_streams(app: web.Application) -> None:
    app[PAGES_KEY].closing = True
    app[PAGES_KEY].wake()
