"""The screen's web app without a browser: what a touch sends to a real ZeroMQ control socket, the
supervisor's commands it lets through and those it refuses, and the model of a picture."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
import zmq
import zmq.asyncio
from aiohttp.test_utils import TestClient, TestServer

from controller.events.codec import from_json, record_json
from controller.events.hand import WagerResult
from controller.events.picture import Check, DevicePicture, Picture, TableAlert
from controller.follow.control import Control
from controller.follow.picture import PICTURE as BLANK
from controller.screen.table import CONFIRM_WITHIN, ScreenTable
from controller.screen.web import make_app
from controller.web.guard import STREAMS_PER_CLIENT
from tests.rigs.daemon_rig import free_ports

PICTURE = replace(
    from_json(Picture, json.loads(BLANK)), commands=("buy_in",), alerts=(
        TableAlert(3, None, "device_offline", "warning", "rfid off", about={"device": "rfid"}),
        TableAlert(4, None, "counterfeit_chip", "critical",
                   "seat 2 main: chip 00000000000000aa is not in the registry", 2, {"spot": "main"}),
        TableAlert(5, None, "new_code", "info", "something new")),
    devices={"rfid": DevicePicture(False, None, None, "no answer")},
    results=(WagerResult(2, "main", 0, "natural", 1000, 1500),),
    checks=(Check(2, "main", 2500),),
    live={"2": {"main": 2000}})
"""A table's picture with three alerts (one clears when the reader is back), a natural to pay."""


class Table:
    """A REP socket answering ok, keeping every request."""

    def __init__(self, context: zmq.asyncio.Context) -> None:
        self.endpoint = f"tcp://127.0.0.1:{free_ports(1)[0]}"
        self.rep = context.socket(zmq.REP)
        self.rep.bind(self.endpoint)
        self.requests: list[dict[str, Any]] = []
        self.task = asyncio.create_task(self.serve())

    async def serve(self) -> None:
        while True:
            request = json.loads(await self.rep.recv())
            self.requests.append(request)
            await self.rep.send(json.dumps({"ok": True}).encode())


@pytest.fixture
async def served() -> AsyncIterator[tuple[TestClient[Any, Any], Table, ScreenTable]]:
    context = zmq.asyncio.Context()
    table = Table(context)
    screen = ScreenTable("T07", (2500, 500))
    screen.epoch = "E1"
    screen.picture(None, 1, PICTURE)
    client = TestClient(TestServer(make_app(screen, Control(table.endpoint, context))))
    await client.start_server()
    try:
        yield client, table, screen
    finally:
        await client.close()
        table.task.cancel()
        table.rep.close(linger=0)
        context.destroy(linger=0)


async def test_touches_and_supervisor_commands_reach_the_control_socket_as_documented(
        served: tuple[TestClient[Any, Any], Table, ScreenTable]) -> None:
    client, table, _ = served
    touched = await client.post("/api/act", json={"action": "turn_up", "amount": 2})
    assert await touched.json() == {"ok": True}
    reply = await client.post("/api/command", json={"cmd": "buy_in", "seat": 3, "amount": 20000,
                                                    "supervisor": "S101", "pin": "4321"})
    assert await reply.json() == {"ok": True}
    await client.post("/api/command", json={"cmd": "void", "supervisor": "S101", "pin": "4321"})
    assert table.requests == [
        {"cmd": "act", "action": "turn_up", "amount": 2},
        {"cmd": "buy_in", "seat": 3, "amount": 20000, "supervisor": "S101", "pin": "4321"},
        {"cmd": "act", "action": "void", "supervisor": "S101", "pin": "4321"}]

    offered = await client.post("/api/command", json={"cmd": "format_disk", "supervisor": "S", "pin": "1"})
    assert offered.status == 400 and "no command 'format_disk'" in await offered.text()
    no_pin = await client.post("/api/command", json={"cmd": "buy_in", "supervisor": "S101"})
    assert no_pin.status == 400
    form = await client.post("/api/act", data="action=deal")
    assert form.status == 415                          # JSON only: no form from another page
    assert len(table.requests) == 3


async def test_a_request_is_decoded_as_the_table_decodes_it_and_carries_its_request_id(
        served: tuple[TestClient[Any, Any], Table, ScreenTable]) -> None:
    """The screen checks each field as the daemon will (one reason per bad field, the table's
    words), sends only the command's own fields built from its record, and passes the page's
    ``request_id`` on; the model gives each command offered its label and fields."""
    client, table, _ = served
    refusals = {
        "seat": "buy_in: seat must be a whole number",
        "amount": "buy_in: amount -5 is below 0 cents",
        "request_id": "request_id must be 1 to 64 letters, digits or . _ : - (one id per action, "
                      "the same for its retries)",
        "text": "buy_in takes no field 'text'",
    }
    for field, words in refusals.items():
        body = {"cmd": "buy_in", "seat": 3, "amount": 20000, "supervisor": "S101", "pin": "4321"}
        body[field] = {"seat": "three", "amount": -5, "request_id": "no spaces", "text": "x"}[field]
        reply = await client.post("/api/command", json=body)
        assert (reply.status, await reply.text()) == (400, words)
    assert table.requests == []
    sent = {"cmd": "buy_in", "seat": 3, "amount": 20000, "supervisor": "S101", "pin": "4321",
            "request_id": "a1b2"}
    assert await (await client.post("/api/command", json=sent)).json() == {"ok": True}
    touched = await client.post("/api/act", json={"action": "hit", "request_id": "c3"})
    assert await touched.json() == {"ok": True}
    assert table.requests == [sent, {"cmd": "act", "action": "hit", "request_id": "c3"}]
    model = await (await client.get("/api/model")).json()
    assert model["forms"] == {"buy_in": {"label": "Buy in", "fields": ["seat", "amount"], "books": True},
                              "recall": {"label": "Recall the last hands", "fields": ["hands"],
                                         "books": False},
                              "shoe_resync": {"label": "Resync the shoe", "fields": [], "books": True},
                              "void": {"label": "Void the hand", "fields": [], "books": True}}


async def test_the_model_says_what_to_do_and_what_to_pay(
        served: tuple[TestClient[Any, Any], Table, ScreenTable]) -> None:
    client, _, screen = served
    model = await (await client.get("/api/model")).json()
    banners = {b["key"]: b for b in model["banners"]}
    assert list(banners) == ["E1:4", "E1:3", "E1:5"]                  # most severe first
    assert banners["E1:4"]["todo"].startswith("Remove the chip from seat 2 main")
    assert "not in the registry" in banners["E1:4"]["message"]
    assert banners["E1:3"]["dismissable"] is False                    # goes when the reader is back
    assert banners["E1:5"]["todo"] == "something new"                  # an unknown code: its message
    assert [(p["state"], p["to_pay"], p["chips"]) for p in model["payouts"]] == [("short", 500, [[500, 1]])]

    refused = await (await client.post("/api/dismiss", json={"key": "E1:3"})).json()
    assert refused["ok"] is False
    assert (await (await client.post("/api/dismiss", json={"key": "E1:5"})).json())["ok"] is True
    assert (await (await client.post("/api/dismiss", json={"key": "E1:4"})).json())["ok"] is False
    assert (await (await client.post("/api/dismiss", json={"key": "E1:4", "confirm": True})).json())["ok"]
    screen.picture(None, 1, replace(PICTURE, devices={"rfid": DevicePicture(True, None, None, None)}))
    model = await (await client.get("/api/model")).json()
    assert model["banners"] == []
    assert model["picture"] == json.loads(json.dumps(record_json(screen.shown)))   # the picture as published


async def test_a_critical_banner_is_dismissed_only_by_a_first_touch_and_its_confirmation(
        served: tuple[TestClient[Any, Any], Table, ScreenTable]) -> None:
    client, _, _ = served

    async def dismiss(**body: Any) -> dict[str, Any]:
        reply: dict[str, Any] = await (await client.post("/api/dismiss", json={"key": "E1:4", **body})).json()
        return reply

    async def shown() -> dict[str, Any] | None:
        model = await (await client.get("/api/model")).json()
        return next((b for b in model["banners"] if b["key"] == "E1:4"), None)

    assert (await shown() or {}).get("confirm") is True
    alone = await dismiss(confirm=True)                   # a confirmation with no first touch
    assert alone == {"ok": False, "error": "touch Done first, then confirm", "armed": False}
    armed = await dismiss()
    assert armed["ok"] is False and armed["armed"] is True
    assert (await shown() or {}).get("armed") is True     # every page shows "Done: sure?"
    again = await dismiss()                               # the same request again arms, no more
    assert again["ok"] is False and (await shown()) is not None
    assert await dismiss(confirm=True) == {"ok": True}
    assert await shown() is None


def test_a_confirmation_after_its_time_is_refused_and_the_banner_stays() -> None:
    now = [100.0]
    screen = ScreenTable("T07", (500,), clock=lambda: now[0])
    screen.epoch = "E1"
    screen.picture(None, 1, PICTURE)
    assert screen.dismiss("E1:4").armed
    now[0] += CONFIRM_WITHIN
    late = screen.dismiss("E1:4", confirm=True)
    assert not late.done and late.reason == "touch Done first, then confirm"
    assert [b["armed"] for b in screen.model()["banners"] if b["key"] == "E1:4"] == [False]
    assert screen.dismiss("E1:4").armed
    now[0] += CONFIRM_WITHIN - 1
    assert screen.dismiss("E1:4", confirm=True).done
    assert "E1:4" not in [b["key"] for b in screen.model()["banners"]]


async def test_event_streams_are_capped_and_the_model_still_answers(
        served: tuple[TestClient[Any, Any], Table, ScreenTable]) -> None:
    client, _, _ = served
    streams = [await client.get("/api/stream") for _ in range(STREAMS_PER_CLIENT)]
    try:
        assert [s.status for s in streams] == [200] * STREAMS_PER_CLIENT
        for stream in streams:                                 # each is a live stream: the model first
            assert (await stream.content.readline()).startswith(b"event: model")
        refused = await client.get("/api/stream")
        assert refused.status == 503 and refused.headers["Retry-After"] == "30"
        reason = f"too many event streams from this address (at most {STREAMS_PER_CLIENT})"
        assert await refused.text() == reason
        model = await client.get("/api/model")
        assert model.status == 200 and (await model.json())["table"] == "T07"
        streams.pop().close()                                  # one page goes: another may come
        for _ in range(100):
            again = await client.get("/api/stream")
            if again.status == 200:
                break
            await asyncio.sleep(0.05)
        streams.append(again)
        assert again.status == 200
    finally:
        for stream in streams:
            stream.close()
