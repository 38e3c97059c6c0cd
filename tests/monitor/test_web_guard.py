"""The monitor's web server against a hostile client, over real HTTP on 127.0.0.1: wrong passwords
limited per name and address, the same answer for unknown names, the scrypt work one client can
cause bounded, only its own names in ``Host``, no other site's ``Origin``, event streams capped,
slow half-sent requests cut (issue 18, items 3 and 11)."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.pages.floor import make_app, make_runner
from controller.podium.monitor.pages.signin import ADDRESS_FAILURES, NAME_FAILURES
from controller.security.supervisor_pins import hash_pin
from controller.web.guard import STREAMS, STREAMS_PER_CLIENT, Streams

USERS = {"anna": hash_pin("s3cret words"), "ben": hash_pin("other words")}
TIMEOUT = 1.0
"""The request timeout the tests' servers use (seconds)."""

Reply = tuple[int, dict[str, str], bytes]


@pytest.fixture
async def server(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[int]:
    """A monitor web server (with passwords when the test is marked so) on 127.0.0.1; its port."""
    users = USERS if "signin" in request.node.name else None
    app = make_app(Floor(["T1"], AlertBook(tmp_path / "acks")), users, request_timeout=TIMEOUT)
    runner = make_runner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield runner.addresses[0][1]
    finally:
        await runner.cleanup()


async def ask(port: int, path: str = "/api/floor", *, user: tuple[str, str] | None = None,
              host: str | None = None, method: str = "GET", body: bytes = b"",
              headers: dict[str, str] | None = None, source: str = "127.0.0.1") -> Reply:
    """One HTTP/1.1 request on a fresh connection from ``source``; the status, headers and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Connection: close",
             f"Content-Length: {len(body)}"]
    if user is not None:
        lines.append("Authorization: Basic " + base64.b64encode(":".join(user).encode()).decode())
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    try:
        head, _, rest = (await asyncio.wait_for(reader.read(), 30)).partition(b"\r\n\r\n")
    finally:
        writer.close()
    status_line, *fields = head.decode().split("\r\n")
    found = {name.lower(): value.strip() for name, _, value in (f.partition(":") for f in fields)}
    return int(status_line.split()[1]), found, rest


async def test_signin_wrong_passwords_are_limited_per_name_and_address(server: int) -> None:
    for _ in range(NAME_FAILURES):
        assert (await ask(server, user=("anna", "guess")))[0] == 401
    status, headers, body = await ask(server, user=("anna", "s3cret words"))   # even the right one
    assert status == 429 and b"too many wrong passwords for this name" in body
    assert 0 < int(headers["retry-after"]) <= 60
    assert (await ask(server, user=("ben", "other words")))[0] == 200          # another name goes on
    assert (await ask(server, user=("anna", "s3cret words"), source="127.0.0.2"))[0] == 200
    for number in range(ADDRESS_FAILURES):                                     # spread over names
        status, _, body = await ask(server, user=(f"nobody{number}", "guess"))
        if status == 429:
            break
    assert b"too many wrong passwords from this address" in body
    assert (await ask(server, user=("ben", "other words")))[0] == 429
    assert (await ask(server, user=("ben", "other words"), source="127.0.0.3"))[0] == 200


async def test_signin_an_unknown_name_is_answered_as_a_known_one(server: int) -> None:
    answers = [(await ask(server, user=(name, "guess")))[::2] for name in ("anna", "zed") for _ in
               range(NAME_FAILURES + 1)]
    known, unknown = answers[:NAME_FAILURES + 1], answers[NAME_FAILURES + 1:]
    assert [status for status, _ in known] == [status for status, _ in unknown] == \
        [401] * NAME_FAILURES + [429]
    assert known == unknown


async def test_signin_a_burst_from_one_address_costs_no_more_checks_than_the_limit(server: int) -> None:
    replies = await asyncio.gather(*(ask(server, user=("anna", f"guess{n}")) for n in range(12)))
    statuses = sorted(status for status, _, _ in replies)
    assert statuses == [401] * NAME_FAILURES + [429] * (12 - NAME_FAILURES)


async def test_only_this_servers_names_are_answered(server: int) -> None:
    assert (await ask(server))[0] == 200
    assert (await ask(server, host=f"localhost:{server}"))[0] == 200
    status, _, body = await ask(server, host=f"rebound.example:{server}")
    assert status == 421 and b"'rebound.example'" in body
    assert (await ask(server, "/", host="rebound.example"))[0] == 421


async def test_no_other_sites_page_may_acknowledge_an_alert(server: int) -> None:
    ack = {"method": "POST", "body": b'{"key": "T1//1", "who": "x"}'}
    status, _, body = await ask(server, "/api/ack", **ack, headers={  # type: ignore[arg-type]
        "Content-Type": "application/json", "Origin": "http://localhost:9000"})
    assert status == 403 and b"not taken" in body
    status, _, _ = await ask(server, "/api/ack", **ack, headers={  # type: ignore[arg-type]
        "Content-Type": "application/json", "Origin": f"http://127.0.0.1:{server}"})
    assert status == 404                                          # its own page: no such alert, but heard


async def test_event_streams_are_capped_per_address(server: int) -> None:
    opened = []
    try:
        for _ in range(STREAMS_PER_CLIENT):
            reader, writer = await asyncio.open_connection("127.0.0.1", server)
            writer.write(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{server}\r\n\r\n".encode())
            opened.append(writer)
            assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"HTTP/1.1 200")
        status, headers, body = await ask(server, "/api/stream")
        assert status == 503 and b"too many event streams from this address" in body
        assert "retry-after" in headers
        another = await asyncio.open_connection("127.0.0.1", server, local_addr=("127.0.0.2", 0))
        another[1].write(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{server}\r\n\r\n".encode())
        opened.append(another[1])
        assert (await asyncio.wait_for(another[0].readline(), 10)).startswith(b"HTTP/1.1 200")
    finally:
        for writer in opened:
            writer.close()


def test_streams_are_capped_in_all() -> None:
    streams = Streams()
    for n in range(STREAMS):
        assert streams.open(f"10.0.{n // 250}.{n % 250}") is None
    assert streams.open("10.9.9.9") == f"too many event streams (at most {STREAMS})"
    streams.close("10.0.0.0")
    assert streams.open("10.9.9.9") is None


async def test_a_half_sent_request_is_cut_off(server: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server)
    writer.write(f"GET /api/floor HTTP/1.1\r\nHost: 127.0.0.1:{server}\r\n".encode())   # and no more
    try:
        assert await asyncio.wait_for(reader.read(), 10 * TIMEOUT) == b""               # closed
    finally:
        writer.close()
    reader, writer = await asyncio.open_connection("127.0.0.1", server)
    writer.write(f"POST /api/ack HTTP/1.1\r\nHost: 127.0.0.1:{server}\r\nContent-Type: application/json"
                 "\r\nContent-Length: 100\r\n\r\n{\"key\"".encode())                  # a body half sent
    try:
        answer = await asyncio.wait_for(reader.readline(), 10 * TIMEOUT)
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408")
    finally:
        writer.close()
