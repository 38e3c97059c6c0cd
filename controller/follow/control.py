"""The table's control socket from an asyncio loop (the dealer screen, the pit monitor): one REQ socket
per command, waiting for its reply as long as the command declares in the registry (its
``reply_within``, 3 s, or 600 s for ``critical_memory_clear``'s whole check of the journal) plus a
margin for the link (:func:`~controller.commands.registry.reply_wait`), or as long as the caller says.

A command that gets no reply in time is answered ``{"ok": false, "error":
"the table did not answer <cmd> within <N> s: ..."}`` (:func:`unanswered`): the
table may still carry it out, or it is not running; the socket is closed either
way, so a late reply is never taken for the next command's. Nothing here logs a
request: a supervisor's PIN travels in it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import zmq
import zmq.asyncio

from controller.commands.registry import Request, decode, reply_wait
from controller.follow.sources import Curve
from firmware_bridge.kernel.json import JsonObject


def unanswered(request: Mapping[str, object], wait: float) -> str:
    """What a client tells its user when no reply to ``request`` came within ``wait`` seconds: the
    command (named as a refusal of it would be: ``press`` and ``act`` by their button or action) may
    still be carried out (a slow one, the table busy), or the table is not running; its state says
    which, before the command is sent again.

    >>> unanswered({"cmd": "critical_memory_clear"}, 602.0)
    "the table did not answer critical_memory_clear within 602 s: it may still carry it out, or it \
is not running; check the table's state before sending it again"
    >>> unanswered({"cmd": "act", "action": "stand"}, 5.0)[:40]
    'the table did not answer stand within 5 '
    """
    decoded = decode(request)
    name = request.get("cmd")
    if isinstance(decoded, Request):
        shown = decoded.command.subject
    else:
        shown = name[:40] if isinstance(name, str) else "the request"
    return (f"the table did not answer {shown} within {wait:g} s: it may still carry it out, "
            "or it is not running; check the table's state before sending it again")


class Control:
    """Sends control commands (docs/control.md) to one table."""

    def __init__(self, endpoint: str, context: zmq.asyncio.Context, curve: Curve | None = None) -> None:
        self.endpoint = endpoint
        self.context = context
        self.curve = curve

    async def send(self, request: Mapping[str, object], timeout: float | None = None) -> JsonObject:
        """One command and the table's reply, or a refusal saying the table did not answer
        (:func:`unanswered`) within the command's ``reply_within`` and the link's margin, or within
        ``timeout`` seconds when given (:func:`~controller.commands.registry.reply_wait`)."""
        wait = reply_wait(request, timeout)
        req = self.context.socket(zmq.REQ)
        req.setsockopt(zmq.LINGER, 0)
        if self.curve is not None:
            server, public, secret = self.curve
            req.setsockopt(zmq.CURVE_SERVERKEY, server)
            req.setsockopt(zmq.CURVE_PUBLICKEY, public)
            req.setsockopt(zmq.CURVE_SECRETKEY, secret)
        req.connect(self.endpoint)
        try:
            await req.send(json.dumps(request).encode())
            if not await req.poll(int(wait * 1000)):
                return {"ok": False, "error": unanswered(request, wait)}
            reply = json.loads(await req.recv())
            if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
                return {"ok": False, "error": "the table's reply cannot be read"}
            return reply
        except (zmq.ZMQError, ValueError) as exc:
            return {"ok": False, "error": f"the table cannot be reached: {exc}"}
        finally:
            req.close(linger=0)
