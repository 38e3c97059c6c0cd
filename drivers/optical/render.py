"""A design's cards drawn as images: each card's SVG element rendered alone by Debian's ``rsvg-convert``.

Why rsvg-convert (librsvg2-bin): ``--export-id`` renders one element of a document, which is how the KDE
designs hold their cards (every card an element id of one SVG), and librsvg draws their gradients, filters
and embedded bitmaps faithfully and fast (C; a card of the largest design, dondorf, in about 0.25 s).
cairosvg and resvg-py render only a whole document, so each card would need its bounding box worked out
from the SVG's transforms first. Two designs (konqi-modern, xskat-french) hold each card as an embedded
bitmap that rsvg-convert will not export alone: that bitmap is decoded as it is.

A rendered card is cached as a PNG under ``<cache>/cards/<design>/``; :func:`card_texture` gives it as
premultiplied BGRA ``float32`` in 0..1, ``CARD_WIDTH`` pixels wide, cropped to the card's edges.
"""

from __future__ import annotations

import base64
import gzip
import os
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from drivers.optical.designs import CACHE, Design, deck, element_id
from firmware_bridge.kernel.cards import Card

CARD_WIDTH = 400
"""The width, in pixels, every card is scaled to before a frame is made of it."""

Texture = npt.NDArray[np.float32]
"""A card as premultiplied BGRA in 0..1, ``CARD_WIDTH`` wide."""


class RenderError(RuntimeError):
    """A design's card could not be drawn (no rsvg-convert, or the SVG has no such card)."""


def renderer() -> str:
    """The path of rsvg-convert; RenderError saying how to get it when it is missing."""
    found = shutil.which("rsvg-convert")
    if found is None:
        raise RenderError("rsvg-convert not found (Debian's librsvg2-bin: tests/optical/decks.sh installs "
                          "it)")
    return found


def _crop_to_card(rgba: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``rgba`` cut to its opaque part (export boxes can be larger than the card; shadows are faint)."""
    rows, cols = np.nonzero(rgba[:, :, 3] > 128)
    if rows.size == 0:
        raise RenderError("the card rendered empty")
    return rgba[rows.min():rows.max() + 1, cols.min():cols.max() + 1]


def _embedded_bitmap(design: Design, card: Card) -> npt.NDArray[np.uint8]:
    """The card's ``<image>`` element decoded, for designs that hold each card as a bitmap."""
    wanted = element_id(card)
    with gzip.open(design.svg) if design.svg.suffix == ".svgz" else design.svg.open("rb") as svg:
        elements = list(ET.parse(svg).iter())
    for element in elements:
        if element.get("id") == wanted:
            href = next((value for key, value in element.attrib.items() if key.endswith("href")), "")
            if element.tag.endswith("image") and href.startswith("data:"):
                data = np.frombuffer(base64.b64decode(href.split(",", 1)[1]), np.uint8)
                image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
                if image is not None and image.shape[2] == 3:
                    image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
                if image is not None:
                    return np.asarray(image, np.uint8)
            break
    raise RenderError(f"{design.name}: no element {wanted!r} that can be drawn alone")


def _rendered(design: Design, card: Card, zoom: float) -> npt.NDArray[np.uint8]:
    """The card rendered alone by rsvg-convert at ``zoom`` and cut to its edges."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "card.png"
        done = subprocess.run([renderer(), f"--export-id={element_id(card)}", "--zoom", f"{zoom:.4f}",
                               "--output", str(out), str(design.svg)], capture_output=True, text=True)
        if done.returncode != 0:
            return _crop_to_card(_embedded_bitmap(design, card))
        image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise RenderError(f"{design.name}: rsvg-convert drew no RGBA image of {card}")
    return _crop_to_card(np.asarray(image))


def _cached_path(design: Design, card: Card, cache: Path) -> Path:
    return cache / "cards" / design.name / f"{element_id(card)}.png"


def render_design(design: Design, cache: Path = CACHE, workers: int = 2) -> None:
    """Render every card of ``design`` not yet in the cache (``workers`` rsvg-convert at once)."""
    missing = [card for card in deck() if not _cached_path(design, card, cache).exists()]
    if not missing:
        return
    first = _rendered(design, missing[0], 1.0)
    zoom = 1.1 * CARD_WIDTH / first.shape[1]

    def one(card: Card) -> None:
        image = _rendered(design, card, zoom)
        path = _cached_path(design, card, cache)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.{id(card)}.png")
        cv2.imwrite(str(partial), image)
        partial.replace(path)                  # atomic: two test workers may render the same design

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, missing))


def card_texture(design: Design, card: Card, cache: Path = CACHE) -> Texture:
    """The card as premultiplied BGRA float32, ``CARD_WIDTH`` wide, rendered first if need be."""
    path = _cached_path(design, card, cache)
    if not path.exists():
        render_design(design, cache)
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise RenderError(f"{path} cannot be read")
    rgba = image.astype(np.float32) / 255.0
    rgba[:, :, :3] *= rgba[:, :, 3:]
    height = round(image.shape[0] * CARD_WIDTH / image.shape[1])
    return np.asarray(cv2.resize(rgba, (CARD_WIDTH, height), interpolation=cv2.INTER_AREA), np.float32)
