"""The table's control socket from an asyncio loop (the dealer screen, the pit monitor): one REQ socket
per command, with a time limit: :data:`TIMEOUT`, or the longer one its command declares in the
registry (``reply_within``: ``critical_memory_clear``'s whole check of the journal).

A command that gets no reply in time (the daemon stopped, or is restarting) is
answered ``{"ok": false, "error": "the table did not answer ..."}``; the socket
is closed either way, so a late reply is never taken for the next command's.
Nothing here logs a request: a supervisor's PIN travels in it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import zmq
import zmq.asyncio

from controller.commands.registry import REPLY_WITHIN, reply_within
from controller.events.codec import JsonObject
from controller.follow.sources import Curve

TIMEOUT = REPLY_WITHIN
"""Seconds a command may wait for the table's reply, unless its command declares longer."""


class Control:
    """Sends control commands (docs/control.md) to one table."""

    def __init__(self, endpoint: str, context: zmq.asyncio.Context, curve: Curve | None = None,
                 timeout: float = TIMEOUT) -> None:
        self.endpoint = endpoint
        self.context = context
        self.curve = curve
        self.timeout = timeout

    async def send(self, request: Mapping[str, object]) -> JsonObject:
        """One command and the table's reply, or a refusal saying the table did not answer (within
        ``timeout``, or the longer wait the command declares)."""
        timeout = max(self.timeout, reply_within(request))
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
            if not await req.poll(int(timeout * 1000)):
                return {"ok": False, "error": f"the table did not answer within {timeout:g} s: "
                                              "is it running?"}
            reply = json.loads(await req.recv())
            if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
                return {"ok": False, "error": "the table's reply cannot be read"}
            return reply
        except (zmq.ZMQError, ValueError) as exc:
            return {"ok": False, "error": f"the table cannot be reached: {exc}"}
        finally:
            req.close(linger=0)
