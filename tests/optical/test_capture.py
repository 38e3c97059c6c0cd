"""The captures: the scripted frames of a deck design, card after card as the beam asks, one that cannot be
read and none past the script's end; a camera that cannot be opened says so instead of giving frames."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from drivers.optical.capture import Camera, CaptureError
from drivers.optical.designs import deck
from drivers.optical.frames import FRAME_SIZE, FrameMaker
from drivers.optical.read import Reader
from drivers.optical.scripted import ScriptedFrames
from drivers.optical.teach import teach
from firmware_bridge.kernel.cards import Card


@pytest.fixture(scope="module")
def reader(standard: FrameMaker) -> Reader:
    return Reader(teach("standard", ((card, standard.frame(card)) for card in deck())))


def test_scripted_frames_follow_the_script_as_it_is_written(standard: FrameMaker, reader: Reader,
                                                            tmp_path: Path) -> None:
    script = tmp_path / "cards.txt"
    script.write_text("Kc\n# a comment, and a blank line\n\n9d hidden\n")
    frames = ScriptedFrames(standard, script)
    frames.start()
    first = frames.frame(time.monotonic())
    assert first is not None and first.shape == (FRAME_SIZE[1], FRAME_SIZE[0], 3)
    assert reader.read(first).card == Card.parse("Kc")
    hidden = frames.frame(time.monotonic())
    assert hidden is not None
    reading = reader.read(hidden)
    assert reading.card is None and reading.reason
    assert frames.frame(time.monotonic()) is None                 # past the end: the camera saw nothing
    with script.open("a") as more:
        more.write("Ah\nQs\n")              # written as the cards are dealt: Ah went with the card unseen
    last = frames.frame(time.monotonic())
    assert last is not None and reader.read(last).card == Card.parse("Qs")
    assert frames.given == 4
    frames.close()


def test_a_script_that_cannot_be_read_or_is_no_cards_is_a_capture_error(standard: FrameMaker,
                                                                       tmp_path: Path) -> None:
    script = tmp_path / "cards.txt"
    frames = ScriptedFrames(standard, script)
    with pytest.raises(CaptureError, match=r"cards\.txt cannot be read"):
        frames.frame(time.monotonic())
    script.write_text("Kc\nKc upside-down\n")
    with pytest.raises(CaptureError, match=r"cards\.txt: line 2: 'Kc upside-down' is not a card"):
        frames.frame(time.monotonic())


def test_a_camera_that_cannot_be_opened_gives_no_frame_but_says_why(tmp_path: Path) -> None:
    camera = Camera(str(tmp_path / "video9"))
    with pytest.raises(CaptureError, match="not started"):
        camera.frame(time.monotonic())
    camera.start()
    try:
        deadline = time.monotonic() + 5
        while True:
            try:
                camera.frame(time.monotonic())
            except CaptureError as fault:
                if "cannot be opened" in str(fault):
                    break
            assert time.monotonic() < deadline, "the camera never said it cannot be opened"
            time.sleep(0.02)
    finally:
        camera.close()
