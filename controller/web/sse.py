"""Server-Sent Events for the web servers: an event's bytes, and a new stream counted within the caps of
:class:`controller.web.guard.Streams`."""

from __future__ import annotations

import json

from aiohttp import web

from controller.web.guard import Streams

RETRY_AFTER = 30
"""Seconds a client refused a stream is told to wait before trying again."""


def sse(event: str, data: object) -> bytes:
    """One Server-Sent Event.

    >>> sse("tile", {"table": "T1"})
    b'event: tile\\ndata: {"table":"T1"}\\n\\n'
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"event: {event}\ndata: {text}\n\n".encode()


HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
"""The headers of an event stream's response."""


def stream_refusal(streams: Streams, request: web.Request) -> web.Response | None:
    """Count a new event stream from ``request``'s address in ``streams`` (None; the caller calls
    ``streams.close(request.remote or "")`` when it ends), or, past the caps, the ``503`` refusal to
    send, with ``Retry-After`` and the reason (not counted)."""
    why = streams.open(request.remote or "")
    if why is None:
        return None
    return web.Response(status=503, text=why, headers={"Retry-After": str(RETRY_AFTER)})
