"""Camera-like frames of a card's index corner, made from a rendered design and a :class:`Distortion`.

The camera sees a fixed window at the shoe's mouth: in units of the card's width ``W``, from ``-0.06 W`` to
``0.34 W`` across and ``-0.06 W`` to ``0.74 W`` down from the card's top-left corner (the shoe's bed shows
beyond the card's edges), as a ``FRAME_SIZE`` BGR ``uint8`` frame, 280 pixels to ``W``. A card may lie
either way up in the shoe, so the corner seen is the top left or, turned upright, the bottom right.

A frame is made as the light makes it: the worn card is laid in the window by its pose and bend, blurred
by its motion, put on the bed under the shoe's lip; the light falls on it; the lens defocuses it, the
exposure and the sensor's noise are added and the camera compresses it.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from drivers.optical import blur
from drivers.optical.designs import CACHE, Design
from drivers.optical.distort import Distortion
from drivers.optical.render import Texture, card_texture
from firmware_bridge.kernel.cards import Card

FRAME_SIZE = (112, 224)
"""The frame's width and height in pixels."""

PIXELS_PER_WIDTH = 280.0
"""Frame pixels to the card's width, before the pose scales it."""

WINDOW_ORIGIN = (-0.06, -0.06)
"""The frame's top-left corner, in card widths from the card's top-left corner."""

Frame = npt.NDArray[np.uint8]
"""A camera frame: ``FRAME_SIZE[1]`` rows of ``FRAME_SIZE[0]`` BGR pixels."""

CLEAN = Distortion()
"""No distortion: the frame a teach pass is taken from."""

_BED = np.array([0.10, 0.16, 0.11], np.float32)     # the shoe's bed: dark green, BGR
_LIP = np.array([0.09, 0.09, 0.10], np.float32)     # the lip: black plastic


class FrameMaker:
    """Frames of one design's cards; the cards' images are rendered (and cached) as they are first needed."""

    def __init__(self, design: Design, cache: Path = CACHE) -> None:
        self.design = design
        self.cache = cache
        self._corners: dict[tuple[Card, bool], Texture] = {}

    def _corner(self, card: Card, turned: bool) -> Texture:
        """The part of the card any pose can bring into the window, top left (or bottom right, turned)."""
        key = (card, turned)
        if key not in self._corners:
            texture = card_texture(self.design, card, self.cache)
            if turned:
                texture = texture[::-1, ::-1]
            self._corners[key] = np.ascontiguousarray(texture[:400, :210])
        return self._corners[key]

    def frame(self, card: Card, distortion: Distortion = CLEAN, *, turned: bool = False) -> Frame:
        """``card``'s index corner as the camera sees it (the bottom-right corner, upright, if ``turned``)."""
        rng = np.random.default_rng(distortion.seed)
        layer = _worn(self._corner(card, turned), distortion, rng)
        layer = _posed(layer, distortion)
        layer = _moved(layer, distortion.motion, distortion.motion_angle)
        scene = layer[:, :, :3] + (1.0 - layer[:, :, 3:]) * _BED
        scene = _under_lip(scene, distortion.lip)
        scene = _lit(scene, distortion)
        if distortion.defocus > 0.3:
            scene = cv2.filter2D(scene, -1, blur.disk(distortion.defocus))
        scene = np.clip(scene * distortion.exposure, 0.0, 1.0) ** distortion.gamma * 255.0
        if distortion.noise or distortion.shot:
            sigma = np.sqrt(distortion.noise ** 2 + distortion.shot * scene)
            scene = scene + rng.standard_normal(scene.shape).astype(np.float32) * sigma
        frame = np.clip(scene + 0.5, 0, 255).astype(np.uint8)
        if distortion.jpeg:
            _, packed = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, distortion.jpeg])
            frame = cv2.imdecode(packed, cv2.IMREAD_COLOR)
        return np.asarray(frame, np.uint8)


def _worn(corner: Texture, d: Distortion, rng: np.random.Generator) -> Texture:
    """The card's corner faded toward its paper, scratched (light lines) and spotted (dark dirt)."""
    if not (d.fade or d.scratches or d.spots):
        return corner
    worn = corner.copy()
    alpha = worn[:, :, 3:]
    worn[:, :, :3] += d.fade * (alpha - worn[:, :, :3])      # toward white paper, premultiplied
    height, width = worn.shape[:2]
    marks = np.zeros((height, width), np.float32)
    for _ in range(d.scratches):
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        angle, length = rng.uniform(0, math.pi), rng.uniform(20, 120)
        end = (int(x + length * math.cos(angle)), int(y + length * math.sin(angle)))
        cv2.line(marks, (int(x), int(y)), end, float(rng.uniform(0.5, 0.9)), 1, cv2.LINE_AA)
    worn[:, :, :3] += marks[:, :, None] * (alpha - worn[:, :, :3])
    for _ in range(d.spots):
        centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
        dirt = np.zeros((height, width), np.float32)
        cv2.circle(dirt, centre, int(rng.integers(1, 4)), float(rng.uniform(0.3, 0.6)), -1, cv2.LINE_AA)
        worn[:, :, :3] *= 1.0 - dirt[:, :, None]
    return worn


def _posed(corner: Texture, d: Distortion) -> Texture:
    """The corner laid in the window: similarity (shift, rotation, scale), perspective and bend."""
    width, height = FRAME_SIZE
    scale = PIXELS_PER_WIDTH / 400.0 * d.scale                  # card pixels (render.CARD_WIDTH) -> frame
    centre = np.array([width / 2, height / 2])
    turn = math.radians(d.rotation)
    rotate = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    frame_corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    origin = -np.array(WINDOW_ORIGIN) * PIXELS_PER_WIDTH
    # Where each frame corner falls on the card, in card pixels.
    on_card = ((frame_corners - centre - np.array(d.shift)) @ rotate.T + centre - origin) / scale
    on_card += np.array(d.corners, np.float64).reshape(4, 2) / scale
    to_card = cv2.getPerspectiveTransform(frame_corners.astype(np.float32), on_card.astype(np.float32))
    us, vs = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    vs = vs + d.bend * np.sin(math.pi * us / width)              # bowed across, flat at its edges
    points = np.stack([us, vs, np.ones_like(us)], axis=-1) @ to_card.T
    map_x = (points[:, :, 0] / points[:, :, 2]).astype(np.float32)
    map_y = (points[:, :, 1] / points[:, :, 2]).astype(np.float32)
    posed = cv2.remap(corner, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                      borderValue=0)
    return np.asarray(posed, np.float32)


def _moved(layer: Texture, length: float, angle: float) -> Texture:
    """The card's layer blurred along ``angle`` (degrees) over ``length`` pixels: its motion while exposed."""
    if length < 1.0:
        return layer
    return np.asarray(cv2.filter2D(layer, -1, blur.motion(length, angle)), np.float32)


def _under_lip(scene: Texture, lip: float) -> Texture:
    """The top ``lip`` of the frame hidden by the shoe's lip, its edge lit a little brighter."""
    rows = round(lip * FRAME_SIZE[1])
    if rows <= 0:
        return scene
    scene = scene.copy()
    scene[:rows] = _LIP
    scene[rows - 1] = _LIP * 2.5
    return scene


def _lit(scene: Texture, d: Distortion) -> Texture:
    """The scene under the shoe's light: uneven (gradient, vignette), tinted, with a glare."""
    width, height = FRAME_SIZE
    us, vs = np.meshgrid(np.linspace(-0.5, 0.5, width), np.linspace(-0.5, 0.5, height))
    turn = math.radians(d.gradient_angle)
    along = (us * math.cos(turn) + vs * math.sin(turn)) / math.sqrt(0.5) + 0.5    # 0 .. 1 across
    light = (1.0 - d.gradient * along) * (1.0 - d.vignette * 2.0 * (us ** 2 + vs ** 2))
    lit = scene * light[:, :, None].astype(np.float32) * np.array(d.tint, np.float32)
    if d.glare:
        gu, gv = d.glare_at[0] - 0.5, d.glare_at[1] - 0.5
        glare = d.glare * np.exp(-((us - gu) ** 2 + (vs - gv) ** 2) / 0.02)
        lit = lit + glare[:, :, None].astype(np.float32)
    return np.asarray(lit, np.float32)
