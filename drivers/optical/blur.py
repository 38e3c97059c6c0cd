"""The two blurs of a camera at the shoe's mouth, as kernels: the card's motion and the lens's defocus.

``drivers.optical.frames`` blurs its frames with them; ``drivers.optical.teach`` blurs the clean frames of a
teach pass with them too, so the templates also hold each glyph as a moving card and an unsharp lens draw it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

Kernel = npt.NDArray[np.float32]


def motion(length: float, angle: float = 90.0) -> Kernel:
    """A line ``length`` pixels long at ``angle`` degrees (90: down the frame, the way a card leaves)."""
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    half = (size - 1) / 2
    dx, dy = math.cos(math.radians(angle)) * length / 2, math.sin(math.radians(angle)) * length / 2
    cv2.line(kernel, (round(half - dx), round(half - dy)), (round(half + dx), round(half + dy)), 1.0, 1,
             cv2.LINE_AA)
    return np.asarray(kernel / kernel.sum(), np.float32)


def disk(radius: float) -> Kernel:
    """A defocused lens's blur: a disk of ``radius`` pixels, its edge antialiased, summing to 1."""
    size = math.ceil(radius) * 2 + 1
    ys, xs = np.mgrid[:size, :size] - size // 2
    found = np.clip(radius + 0.5 - np.hypot(xs, ys), 0.0, 1.0).astype(np.float32)
    return np.asarray(found / found.sum(), np.float32)


def both(length: float, radius: float, angle: float = 90.0) -> Kernel:
    """A moving card seen through an unsharp lens: :func:`motion` then :func:`disk`, as one kernel."""
    line = motion(length, angle)
    pad = math.ceil(radius)
    found = cv2.filter2D(np.pad(line, pad), -1, disk(radius), borderType=cv2.BORDER_CONSTANT)
    return np.asarray(found / found.sum(), np.float32)
