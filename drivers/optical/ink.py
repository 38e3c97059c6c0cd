"""The ink of a frame: how dark and how red each pixel is against the card's own paper, and its blobs.

The paper's brightness is found channel by channel as the frame's upper envelope (a grey closing, on a
quarter-size frame, wider than the largest index pip); dividing by it takes out uneven and tinted light,
so ink is measured the same under any of them. ``strength`` is 1 less the darkest normalised channel (black
ink and red ink are both strong: red is dark in green and blue); ``redness`` is the red channel over the
other two. A blob is a connected piece of ink that does not touch the frame's edge (what touches it is the
shoe's bed or lip, or a glyph cut by them).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Plane = npt.NDArray[np.float32]

THRESHOLD = 0.4
"""The strength above which a pixel is ink."""

_PAD = 3
"""Pixels around a blob's box that its silhouette may reach (its blurred edge, below the threshold)."""

_CLOSING = 17
"""The paper's envelope: a closing this many quarter-size pixels wide (68 frame pixels)."""


@dataclass(frozen=True)
class Blob:
    """A connected piece of ink: its label in ``Ink.labels``, box (``x``, ``y``, ``w``, ``h``) and area."""

    label: int
    x: int
    y: int
    w: int
    h: int
    area: int

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


@dataclass(frozen=True)
class Ink:
    """A frame's ink: ``strength`` and ``redness`` per pixel, the blobs' ``labels`` and the ``blobs``."""

    strength: Plane
    redness: Plane
    labels: npt.NDArray[np.int32]
    blobs: list[Blob]


def ink(frame: npt.NDArray[np.uint8], *, min_area: int = 12) -> Ink:
    """The ink of a BGR ``frame`` and its blobs of at least ``min_area`` pixels."""
    height, width = frame.shape[:2]
    light = frame.astype(np.float32) + 1.0
    small = cv2.resize(light, (width // 4, height // 4), interpolation=cv2.INTER_AREA)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (_CLOSING, _CLOSING))
    envelope = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_REPLICATE)
    envelope = cv2.GaussianBlur(envelope, (3, 3), 0)
    paper = cv2.resize(envelope, (width, height), interpolation=cv2.INTER_LINEAR)
    normal = np.clip(light / paper, 0.0, 1.0)
    strength = np.asarray(1.0 - normal.min(axis=2), np.float32)
    redness = np.asarray(normal[:, :, 2] - (normal[:, :, 0] + normal[:, :, 1]) / 2, np.float32)
    mask = (strength > THRESHOLD).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs = []
    for label in range(1, count):
        x, y, w, h, area = (int(value) for value in stats[label])
        if area >= min_area and x > 0 and y > 0 and x + w < width and y + h < height:
            blobs.append(Blob(label, x, y, w, h, area))
    return Ink(strength, redness, np.asarray(labels, np.int32), blobs)


def glyph(found: Ink, blobs: list[Blob], size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """The silhouette of ``blobs`` (not their neighbours'), fitted, aspect kept, into a ``size`` (width,
    height) canvas; zero mean, unit norm: ready for a dot product.

    The silhouette is cut at half the glyph's own strength, where a blurred edge still lies where the sharp
    one was, so a faded or blurred glyph has the outline of a clean one.
    """
    height, width = found.strength.shape
    x0 = max(0, min(blob.x for blob in blobs) - _PAD)
    y0 = max(0, min(blob.y for blob in blobs) - _PAD)
    x1 = min(width, max(blob.x + blob.w for blob in blobs) + _PAD)
    y1 = min(height, max(blob.y + blob.h for blob in blobs) + _PAD)
    labels = found.labels[y0:y1, x0:x1]
    own = np.isin(labels, [blob.label for blob in blobs])
    strength = found.strength[y0:y1, x0:x1]
    peak = float(np.quantile(strength[own], 0.9))
    near = cv2.dilate(own.astype(np.uint8), np.ones((2 * _PAD + 1, 2 * _PAD + 1), np.uint8)) > 0
    cut = np.clip((strength - 0.5 * peak) / (0.3 * peak) + 0.5, 0.0, 1.0) * near
    rows, cols = np.nonzero(cut >= 0.5)
    if rows.size == 0:
        return np.zeros((size[1], size[0]), np.float32)
    cut = cut[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    canvas_w, canvas_h = size
    fit = min(canvas_w / cut.shape[1], canvas_h / cut.shape[0])
    w, h = max(1, round(cut.shape[1] * fit)), max(1, round(cut.shape[0] * fit))
    canvas = np.zeros((canvas_h, canvas_w), np.float32)
    left, top = (canvas_w - w) // 2, (canvas_h - h) // 2
    canvas[top:top + h, left:left + w] = cv2.resize(cut.astype(np.float32), (w, h),
                                                    interpolation=cv2.INTER_AREA)
    smooth = np.asarray(cv2.GaussianBlur(canvas, (3, 3), 0.7), np.float32)
    smooth -= smooth.mean()
    norm = float(np.linalg.norm(smooth))
    return np.asarray(smooth / norm if norm > 0 else smooth, np.float32)


def redness_of(found: Ink, blobs: list[Blob]) -> float:
    """The mean redness of the strong ink of ``blobs`` (their cores, where the colour is the ink's own)."""
    values = [found.redness[found.labels == blob.label] for blob in blobs]
    strengths = [found.strength[found.labels == blob.label] for blob in blobs]
    redness, strength = np.concatenate(values), np.concatenate(strengths)
    core = strength >= np.quantile(strength, 0.5)
    return float(redness[core].mean())
