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
"""The strength above which a pixel is ink, at most."""

_PAD = 3
"""Pixels around a blob's box that its silhouette may reach (its blurred edge, below the threshold)."""

_GROW = 12
"""Pixels beyond its blob a glyph's fainter ink may reach (a shaded pip's pale top, a faint thin stroke)."""

_FAINT = 0.5
"""The faintest ink joined to a glyph, as a share of the cut's threshold."""

_THIN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
"""Faint ink narrower than this is not grown into (a picture's frame line, a scratch)."""

_HIDDEN = 0.7
"""A row at the top with more than this share dark is the lip's or the bed's, not the card's."""

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
    """A frame's ink: ``strength`` and ``redness`` per pixel; cut at ``threshold``, its blobs' ``labels``
    and the ``blobs`` of at least ``min_area`` pixels."""

    strength: Plane
    redness: Plane
    threshold: float
    labels: npt.NDArray[np.int32]
    blobs: list[Blob]
    min_area: int = 12
    top: int = 0

    def at(self, threshold: float, *, opened: int = 0, closed: int = 0) -> Ink:
        """The same ink cut at another ``threshold``; with ``opened``, its thin lines (narrower than that
        many pixels: a picture's frame, a scratch) taken away, so a glyph that touches one stands alone;
        with ``closed``, its gaps that narrow filled, so a glyph whose thin joints the blur lost is whole."""
        labels, blobs = _blobs(self.strength, threshold, self.min_area, self.top, opened, closed)
        return Ink(self.strength, self.redness, threshold, labels, blobs, self.min_area, self.top)


def ink(frame: npt.NDArray[np.uint8], *, min_area: int = 12) -> Ink:
    """The ink of a BGR ``frame``, cut at a threshold that follows its contrast (a faded card's or a dim
    frame's ink is cut lower: ``THRESHOLD`` at most), and its blobs of at least ``min_area`` pixels."""
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
    threshold = float(np.clip(0.45 * np.quantile(strength, 0.99), 0.2, THRESHOLD))
    top = _hidden_rows(strength > threshold)
    labels, blobs = _blobs(strength, threshold, min_area, top)
    return Ink(strength, redness, threshold, labels, blobs, min_area, top)


AGAIN = ((0.2, 0, 0), (0.0, 0, 5), (0.0, 3, 0), (0.0, 5, 0))
"""The other cuts of a frame's ink, tried in turn when the first shows no card: (threshold raised by, opened,
closed; see :meth:`Ink.at`). Higher: a blurred rank and pip, joined by their blurs, part; closed 5: a pip
whose thin joints the blur lost (a club's stalk) is whole; opened 3 and 5: a glyph touching a thin line (a
face card's frame) stands alone."""


def cut(found: Ink, again: int) -> Ink:
    """``found`` as first cut (``again`` 0), or cut the ``again``-th other way of :data:`AGAIN`."""
    if again == 0:
        return found
    higher, opened, closed = AGAIN[again - 1]
    return found.at(min(found.threshold + higher, 0.7), opened=opened, closed=closed)


def _hidden_rows(mask: npt.NDArray[np.bool_]) -> int:
    """The rows at the top where no paper shows (the shoe's lip, or the bed above the card): nearly all
    of each is dark. A glyph the lip cuts then stands alone below them, cut, and is read or refused as
    it is, rather than lost in the lip's darkness."""
    dark = mask.mean(axis=1) > _HIDDEN
    return int(np.argmin(dark)) if not dark.all() else mask.shape[0]


def parted(found: Ink, blob: Blob, row: int) -> Ink:
    """``found`` with ``blob`` cut across at frame row ``row`` (that row and the next taken out of it): a
    rank and its pip that a blur along the card's way joined (a Q's tail run into its heart), parted where
    the ink between them is narrowest, so that each is a blob again."""
    mask = (found.labels > 0).astype(np.uint8)
    band = mask[row:row + 2]
    band[found.labels[row:row + 2] == blob.label] = 0
    labels, blobs = _labelled(mask, found.min_area, found.top)
    return Ink(found.strength, found.redness, found.threshold, labels, blobs, found.min_area, found.top)


def _blobs(strength: Plane, threshold: float, min_area: int, top: int,
           opened: int = 0, closed: int = 0) -> tuple[npt.NDArray[np.int32], list[Blob]]:
    mask = (strength > threshold).astype(np.uint8)
    mask[:top] = 0
    for operation, size in ((cv2.MORPH_OPEN, opened), (cv2.MORPH_CLOSE, closed)):
        if size:
            shape = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
            mask = np.asarray(cv2.morphologyEx(mask, operation, shape), np.uint8)
    return _labelled(mask, min_area, top)


def _labelled(mask: npt.NDArray[np.uint8], min_area: int,
              top: int) -> tuple[npt.NDArray[np.int32], list[Blob]]:
    """The connected pieces of ``mask``, labelled, and the blobs among them (see the module's docstring)."""
    height, width = mask.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs = []
    for label in range(1, count):
        x, y, w, h, area = (int(value) for value in stats[label])
        if area >= min_area and x > 0 and y >= max(top, 1) and x + w < width and y + h < height:
            blobs.append(Blob(label, x, y, w, h, area))
    return np.asarray(labels, np.int32), blobs


@dataclass(frozen=True)
class Silhouette:
    """A glyph's silhouette (0 to 1), cut to its box, whose top-left corner is (``x``, ``y``) in the frame."""

    cut: Plane
    x: int
    y: int

    @property
    def w(self) -> int:
        return int(self.cut.shape[1])

    @property
    def h(self) -> int:
        return int(self.cut.shape[0])

    @property
    def centre(self) -> tuple[float, float]:
        """The middle of its box, in frame pixels."""
        return self.x + self.w / 2, self.y + self.h / 2


def place(rank: Silhouette, pip: Silhouette) -> tuple[float, float]:
    """Where the rank glyph's centre lies from its pip's, across and down, in the pip's heights (a piece of
    a glyph, a 10's 1 or a 4's upright stroke, lies where no whole glyph of the rank it looks like does)."""
    (rx, ry), (px, py) = rank.centre, pip.centre
    return (rx - px) / pip.h, (ry - py) / pip.h


def silhouette(found: Ink, blobs: list[Blob], *, grown: bool = False) -> Silhouette | None:
    """The silhouette of ``blobs`` (not their neighbours'): cut at half the glyph's own strength, where a
    blurred edge still lies where the sharp one was, so a faded or blurred glyph has a clean one's outline
    and size. None when nothing of it is that strong.

    ``grown`` (a suit pip's): the glyph is also the fainter ink joined to the blobs (down to half the cut's
    threshold, up to ``_GROW`` pixels beyond them, clear of every other blob and of thin lines), each part
    cut at half the strongest ink of the glyph near it: a shaded pip's pale top is the pip's, where cut at
    the glyph's peak a spade without its point is a club and a diamond without its top a heart. (A rank
    glyph is not grown: its faint ink joins it to the card's frame and print.)"""
    height, width = found.strength.shape
    reach = _PAD + (_GROW if grown else 0)
    x0 = max(0, min(blob.x for blob in blobs) - reach)
    y0 = max(0, min(blob.y for blob in blobs) - reach)
    x1 = min(width, max(blob.x + blob.w for blob in blobs) + reach)
    y1 = min(height, max(blob.y + blob.h for blob in blobs) + reach)
    labels = found.labels[y0:y1, x0:x1]
    mine = [blob.label for blob in blobs]
    own = np.isin(labels, mine)
    strength = found.strength[y0:y1, x0:x1]
    peak = float(np.quantile(strength[own], 0.9))
    if grown:
        others = np.isin(labels, [blob.label for blob in found.blobs if blob.label not in mine])
        clear = ~_dilated(others, 2) | own            # no other blob's ink, nor its blurred edge
        faint = (strength > _FAINT * found.threshold) & clear & _dilated(own, _GROW)
        faint = own | (cv2.morphologyEx(faint.astype(np.uint8), cv2.MORPH_OPEN, _THIN) > 0)
        _, parts = cv2.connectedComponents(faint.astype(np.uint8), connectivity=8)
        body = np.isin(parts, np.unique(parts[own]))  # the faint ink's pieces the blobs are in
        local = cv2.dilate(np.where(body, strength, 0.0).astype(np.float32), np.ones((7, 7), np.uint8))
        level: npt.NDArray[np.float32] | float = np.maximum(local, 0.5 * peak)
    else:
        body, clear, level = own, own | (labels == 0), peak
    near = _dilated(body, _PAD) & clear
    cut = np.clip((strength / level - 0.5) / 0.3 + 0.5, 0.0, 1.0) * near
    rows, cols = np.nonzero(cut >= 0.5)
    if rows.size == 0:
        return None
    top, left = int(rows.min()), int(cols.min())
    kept = np.asarray(cut[top:rows.max() + 1, left:cols.max() + 1], np.float32)
    return Silhouette(kept, x0 + left, y0 + top)


def _dilated(mask: npt.NDArray[np.bool_], by: int) -> npt.NDArray[np.bool_]:
    """``mask`` grown by ``by`` pixels every way."""
    size = 2 * by + 1
    return np.asarray(cv2.dilate(mask.astype(np.uint8), np.ones((size, size), np.uint8)) > 0)


def glyph(shape: Silhouette | None, size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """``shape`` fitted, aspect kept, into a ``size`` (width, height) canvas, smoothed a little, zero mean
    and unit norm: ready for a dot product (all zeros for no shape)."""
    canvas_w, canvas_h = size
    canvas = np.zeros((canvas_h, canvas_w), np.float32)
    if shape is None:
        return canvas
    fit = min(canvas_w / shape.w, canvas_h / shape.h)
    w, h = max(1, round(shape.w * fit)), max(1, round(shape.h * fit))
    left, top = (canvas_w - w) // 2, (canvas_h - h) // 2
    canvas[top:top + h, left:left + w] = cv2.resize(shape.cut, (w, h), interpolation=cv2.INTER_AREA)
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
