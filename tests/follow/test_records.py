"""The follow library's typed values: the picture as a record, each event as a record with its envelope.

On real tables (``tests/table/picture_scenarios.py``: every game through its
phases): :attr:`TablePicture.picture` is the record of the picture published,
decoded once per picture, let go and read again equal; a picture that is no
picture leaves the last one, logged. On a real journal: every event a table
published reads back, as the public reads it, as the record the table journaled,
except that a card dealt face down has no card; an unregistered type reads as
None, and data that is not its record as None too, logged.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from controller.events.codec import decode, from_json
from controller.events.envelope import decode_body
from controller.events.hand import Dealt, DealtInPublic
from controller.events.picture import Picture
from controller.follow.picture import TablePicture
from controller.follow.records import FollowedEvent
from controller.table.state import STEP_KEYS
from tests.rigs.table_rig import Rig
from tests.table.picture_scenarios import read_golden


def test_the_picture_is_the_record_of_each_picture_decoded_once_and_again_after_let_go() -> None:
    shown = TablePicture()
    assert shown.picture is None
    for seq, (name, _, body) in enumerate(read_golden()[:60], start=1):
        shown.event({"seq": seq})
        shown.view({"seq": seq, "raw": body})
        picture = shown.picture
        assert picture == from_json(Picture, json.loads(body)), name
        assert shown.picture is picture                          # decoded once
        shown.let_go()
        assert shown.picture == picture and shown.picture is not picture, name   # read again, equal
        assert shown.state == json.loads(body)                   # the dict, still there for now


def test_a_snapshot_s_picture_and_one_that_came_decoded_are_records_too() -> None:
    (_, _, first), (_, _, second) = read_golden()[:2]
    shown = TablePicture()
    shown.snapshot({"seq": 3, "state": json.loads(first)})
    assert shown.picture == from_json(Picture, json.loads(first))
    shown.view({"seq": 4, "data": json.loads(second)})
    assert shown.picture == from_json(Picture, json.loads(second))


def test_a_picture_that_is_no_picture_leaves_the_last_one_and_is_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    (_, _, body), = read_golden()[:1]
    shown = TablePicture()
    shown.view({"seq": 1, "raw": body})
    good = shown.picture
    assert good is not None
    shown.view({"seq": 2, "raw": b'{"table":"T01","seats":"none"}'})
    with caplog.at_level(logging.WARNING, logger="controller.follow.picture"):
        assert shown.picture is good
    assert "not the table's picture" in caplog.text


def test_every_published_event_reads_as_its_journaled_record_a_face_down_card_unknown(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    rig.ready(s1_main=1000, s2_main=500, s2_side=500)
    rig.press("deal")
    for card in ("9h", "As", "7c", "2d"):
        rig.card(card)
    rig.press("stand")                                           # settled: the hole card turned up
    rig.press("next")
    face_down = 0
    for record in rig.journal.since(1):
        message = decode_body(record.body)
        followed = FollowedEvent.of(message, record.topic.encode(), record.body)
        assert (followed.seq, followed.type, followed.hand, followed.ts) == (
            record.seq, message["type"], message["hand"], message["ts"])
        assert followed.body == record.body and followed.data == message["data"]
        journaled = decode(message["type"], message["data"],
                           {k: v for k, v in record.private.items() if k not in STEP_KEYS})
        if isinstance(journaled, Dealt):
            public = followed.event
            assert isinstance(public, DealtInPublic)
            assert (public.target, public.index) == (journaled.target, journaled.index)
            assert public.card == (journaled.card if journaled.target.face_up else None)
            face_down += not journaled.target.face_up
        else:
            assert followed.event == journaled, record.topic
        assert followed.event is followed.event                  # decoded once
    assert face_down == 1                                        # the dealer's hole card


def test_an_unregistered_type_is_none_and_data_that_is_not_its_record_is_none_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    def followed(kind: str, data: str) -> FollowedEvent:
        body = (f'{{"v":1,"table":"T01","seq":5,"epoch":7,"ts":"x","type":"{kind}","hand":null,'
                f'"data":{data}}}').encode()
        return FollowedEvent.of(decode_body(body), f"T01/{kind}".encode(), body)

    unknown = followed("example.unknown", '{"a":1}')
    assert unknown.event is None and unknown.data == {"a": 1} and unknown.epoch == "7"
    with caplog.at_level(logging.WARNING, logger="controller.follow.records"):
        assert followed("card.dealt", '{"index":3}').event is None
    assert "is not a card.dealt" in caplog.text
    with pytest.raises(ValueError, match="not an event's envelope"):
        FollowedEvent.of({"seq": "5", "ts": "x", "type": "a"}, b"T01/a", b"{}")


def test_the_table_s_the_hands_and_the_session_parts_events_are_all_read_as_records() -> None:
    """In a process that imports the follow library alone (as a consumer does), every event type the
    table publishes, the session parts' included, is registered for decode_public."""
    program = ("import controller.follow.records\n"
               "from controller.events.registry import registered\n"
               "print(' '.join(sorted(registered())))")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert {"seat.stack", "button.moved", "progressive.hit", "tournament.level", "table.opened",
            "dealer.in", "tray.counted", "table.closed", "card.dealt", "alert"} <= set(done.stdout.split())
