"""The pit actions' routes of the monitor's web app (:mod:`controller.podium.monitor.models.actions`).

* ``POST /api/tables/<name>/command`` with ``{"cmd", "supervisor", "pin", ...the command's
  fields}`` (JSON only): carried out by the table; ``200 {"ok", "error", "record"}`` with the
  table's reply, ``409`` (the same JSON) when the floor file gives the table no control socket.
  Only for a signed-in user: with no password file, ``403``. A request that is not a command
  (``400``), for no such table (``404``), is answered and not recorded.
* ``GET /api/actions[?table=<name>]``: ``{"actions": [record, ...] (newest first), "sign_in":
  whether pit actions are possible here, "user": the signed-in user, "control": [the tables with a
  control socket]}``.
"""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from controller.commands.table import FloorAnswered
from controller.podium.monitor.models.actions import PitActions, parse_order
from firmware_bridge.kernel.json import JsonObject

log = logging.getLogger(__name__)

USER_KEY = web.RequestKey[str | None]("user")
"""A request's signed-in user (None when the monitor has no password file): set by the web app's
sign-in, read by every route that records who did something."""

ACTIONS_KEY = web.AppKey("actions", PitActions)
BODY_TIMEOUT_KEY = web.AppKey("body_timeout", float)
ANSWERING_KEY = web.AppKey("answering", set[asyncio.Task[None]])
"""The floor calls' answers on their way to their tables (kept until done)."""

NEEDS_SIGN_IN = ("pit actions need a signed-in user: this monitor has no password file "
                 "(start it with --password-file; docs/pit-monitor.md)")


async def read_json(request: web.Request, expected: str) -> JsonObject:
    """The request's JSON body, a JSON object, within the app's time for a body; ``expected`` says
    what to send (400 for a body that is not a JSON object)."""
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(text=f"send JSON: {expected}")
    try:
        async with asyncio.timeout(request.app[BODY_TIMEOUT_KEY]):
            body = await request.json()
    except TimeoutError:
        raise web.HTTPRequestTimeout(text="the request's body did not come in time") from None
    except ValueError:
        raise web.HTTPBadRequest(text=f"the body is not JSON: send {expected}") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text=f"send a JSON object: {expected}")
    return body


async def _command(request: web.Request) -> web.StreamResponse:
    actions = request.app[ACTIONS_KEY]
    table = request.match_info["name"]
    if table not in actions.controls:
        raise web.HTTPNotFound(text=f"no table {table}")
    who = request[USER_KEY]
    if who is None:
        raise web.HTTPForbidden(text=NEEDS_SIGN_IN)
    body = await read_json(request, '{"cmd": ..., "supervisor": ..., "pin": ..., and its fields}')
    try:
        order = parse_order(body)
    except ValueError as exc:
        raise web.HTTPBadRequest(text=str(exc)) from None
    outcome = await actions.carry_out(who, table, order)
    log.info("pit action by %s at %s: %s as %s: %s", who, table, order.cmd, order.supervisor,
             "done" if outcome["ok"] else f"refused ({outcome['error']})")
    status = 409 if table not in actions.controlled() else 200
    return web.json_response(outcome, status=status)


async def _actions(request: web.Request) -> web.StreamResponse:
    actions = request.app[ACTIONS_KEY]
    table = request.query.get("table") or None
    if table is not None and table not in actions.controls:
        raise web.HTTPNotFound(text=f"no table {table}")
    user = request[USER_KEY]
    return web.json_response({"actions": actions.book.records(table), "sign_in": user is not None,
                              "user": user, "control": actions.controlled()})


def answer_floor_call(app: web.Application, table: str, seq: int) -> None:
    """Tell ``table`` that the pit answered its dealer's floor call (``floor_called`` alert ``seq``),
    so the dealer's next call raises a new alert there (control command ``floor_answered``); in the
    background, its outcome logged: the acknowledgement is recorded already, whatever the table says."""
    control = app[ACTIONS_KEY].controls.get(table)
    if control is None:
        return

    async def send() -> None:
        reply = await control.send(FloorAnswered(seq).to_request())
        if not reply.get("ok"):
            log.info("floor call %s at %s answered here, not at the table: %s", seq, table,
                     reply.get("error"))

    task = asyncio.get_running_loop().create_task(send())
    app[ANSWERING_KEY].add(task)
    task.add_done_callback(app[ANSWERING_KEY].discard)


def add_action_routes(app: web.Application, actions: PitActions, body_timeout: float) -> None:
    """Serve the pit actions of ``actions`` in ``app`` (a request body has ``body_timeout`` seconds)."""
    app[ACTIONS_KEY] = actions
    app[BODY_TIMEOUT_KEY] = body_timeout
    app[ANSWERING_KEY] = set()
    app.router.add_post("/api/tables/{name}/command", _command)
    app.router.add_get("/api/actions", _actions)
