"""What a camera gives the optical shoe: the frame of the card that just passed the shoe board's beam.

The shoe board's infrared beam across the shoe's mouth says when a card left (its CARD_UNREADABLE, or
CARD when its scanner also read a marked card's code); the camera looks at the index corner of the card
at the mouth. At the board's word the shoe's driver asks its :class:`Capture` for that card's frame,
giving the moment the word came (:func:`time.monotonic`): the frame is the camera's, taken just before.

Two captures play the part:

- :class:`Camera`, a V4L2 device (a USB UVC camera, or the Pi's camera module through its V4L2 driver)
  read by OpenCV's ``VideoCapture``: frames are taken all the while on a thread of its own, the last
  :data:`KEEP` seconds kept; the frame of a card is the sharpest of those taken in the :data:`LOOK_BACK`
  seconds before the word (the card's index still and in focus under the lens has the most detail, the
  shoe's empty bed and a card sliding past the least), cut to the camera's ``window`` and scaled to
  :data:`~drivers.optical.frames.FRAME_SIZE`. It needs a camera, so no test here runs it;
- :class:`~drivers.optical.scripted.ScriptedFrames`, frames rendered from a deck design for a script of
  cards (the tests and the simulation), one for each card through the beam.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import Protocol

import cv2
import numpy as np

from drivers.optical.frames import FRAME_SIZE, Frame
from firmware_bridge.kernel.repeat_log import RepeatLog

KEEP = 2.0
"""Seconds of the camera's frames kept."""

LOOK_BACK = 1.0
"""Seconds before the board's word in which the card's frame was taken: the board decides a card 0.15 s
after its beam clears, and the word crosses the USB link after that."""

REOPEN = 1.0
"""Seconds between two tries to open a camera that cannot be opened (unplugged, busy)."""

log = logging.getLogger(__name__)


class CaptureError(RuntimeError):
    """The capture cannot give frames now (the camera cannot be opened or read, a script cannot be read):
    the message says why."""


class Capture(Protocol):
    """A source of the frames of the cards that leave the shoe."""

    def start(self) -> None:
        """Start taking frames (open the camera); a camera that cannot be opened is tried again."""

    def frame(self, at: float) -> Frame | None:
        """The frame of the card whose beam word came at ``at`` (:func:`time.monotonic`), or None when
        there is none; :class:`CaptureError` when the capture cannot give frames. Called off the loop:
        it may take a few milliseconds."""

    def close(self) -> None:
        """Stop taking frames and let the camera go."""


class Camera:
    """A V4L2 camera (``device``: ``/dev/video0``, or a udev name), its frames cut to ``window`` (x, y,
    width, height in the camera's pixels; None: the whole image)."""

    def __init__(self, device: str, window: tuple[int, int, int, int] | None = None) -> None:
        self.device = device
        self.window = window
        self._frames: deque[tuple[float, Frame]] = deque()
        self._lock = threading.Lock()
        self._running = False
        self._thread: threading.Thread | None = None
        self._problem: str | None = "not started"
        self._repeats = RepeatLog(log)

    def start(self) -> None:
        """Start the thread that opens the camera and takes its frames."""
        self._running = True
        self._thread = threading.Thread(target=self._take, name=f"camera {self.device}", daemon=True)
        self._thread.start()

    def frame(self, at: float) -> Frame | None:
        """The sharpest frame taken in the :data:`LOOK_BACK` seconds before ``at``, as the reader takes it."""
        with self._lock:
            problem = self._problem
            taken = [image for when, image in self._frames if at - LOOK_BACK <= when <= at]
        if problem is not None:
            raise CaptureError(f"camera {self.device}: {problem}")
        if not taken:
            return None
        return self._fitted(max(taken, key=_sharpness))

    def close(self) -> None:
        """Stop the thread (it lets the camera go)."""
        self._running = False
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def _take(self) -> None:
        camera: cv2.VideoCapture | None = None
        while self._running:
            if camera is None:
                camera = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
                if not camera.isOpened():
                    camera = None
                    self._failed("cannot be opened")
                    time.sleep(REOPEN)
                    continue
            ok, image = camera.read()
            if not ok:
                camera.release()
                camera = None
                self._failed("stopped giving frames")
                continue
            now = time.monotonic()
            with self._lock:
                self._problem = None
                self._frames.append((now, np.asarray(image, np.uint8)))
                while self._frames and self._frames[0][0] < now - KEEP:
                    self._frames.popleft()
        if camera is not None:
            camera.release()

    def _failed(self, problem: str) -> None:
        with self._lock:
            self._problem = problem
            self._frames.clear()
        self._repeats.note(("camera", problem), logging.ERROR, f"camera {self.device}: {problem}")

    def _fitted(self, image: Frame) -> Frame:
        if self.window is not None:
            x, y, width, height = self.window
            image = image[y:y + height, x:x + width]
            if image.shape[0] < height or image.shape[1] < width:
                raise CaptureError(f"camera {self.device}: the window {self.window} does not lie inside "
                                   "its image")
        return np.asarray(cv2.resize(image, FRAME_SIZE, interpolation=cv2.INTER_AREA), np.uint8)


def _sharpness(image: Frame) -> float:
    """How much fine detail a frame holds: the variance of its grey image's Laplacian."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())
