"""Teaching a deck design from one clean pass: each card's index found, its rank glyph and suit pip kept.

Each card's glyphs are kept as the clean frame shows them and as the shoe draws them: turned a little
(the card rides its guide a few degrees askew, :data:`TURNS`) and blurred (the card's motion as it is dealt,
the lens out of focus), so a turned or blurred glyph is met by a template turned and blurred alike. The
pass is one deck (or more) dealt through the shoe in a known order, or each card confirmed by the
dealer. In a clean frame the index is found by its shape alone: the rank is the topmost ink at the card's
left (with the ink beside it on the same line, as the two digits of a 10), the suit pip the ink just under
it. From the pass the design's layout is learnt (where pips lie, how big ranks and pips are, where a rank
lies from its pip): the reader looks only there. Teaching refuses a pass it cannot trust: a card with no
index, a rank or suit the pass lacks, a card whose rank glyph is not like the others of its rank.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np
import numpy.typing as npt

from drivers.optical import blur
from drivers.optical.frames import Frame
from drivers.optical.ink import AGAIN, Blob, Ink, cut, glyph, ink, place, redness_of, silhouette
from drivers.optical.taught import PIP_SIZE, RANK_SIZE, Layout, Taught
from firmware_bridge.kernel.cards import Card

SAME_RANK = 0.75
"""Each rank glyph of the pass must match the mean of its rank's at least this well, and a blurred glyph
the clean one (else it is not kept)."""


TURNS = (-3.5, 3.5)
"""The angles (degrees) each clean frame is also turned by before its glyphs are kept."""


class TeachError(ValueError):
    """A teach pass the reader cannot learn from; the message says which card and why."""


def index_of_clean(found: Ink, width: int, height: int) -> tuple[list[Blob], Blob] | None:
    """The rank's blobs and the suit pip of a clean frame's index, or None when there is none."""
    blobs = [blob for blob in found.blobs if blob.h <= 0.45 * height and blob.w <= 0.6 * width
             and blob.area >= 30]
    left = [blob for blob in blobs if blob.x < 0.4 * width]
    if not left:
        return None
    first = min(left, key=lambda blob: blob.y)
    rank = [first]
    grown = True
    while grown:
        grown = False
        x0, x1 = min(b.x for b in rank), max(b.x + b.w for b in rank)
        for blob in blobs:
            aligned = (abs(blob.y - first.y) <= 0.15 * first.h
                       and abs(blob.y + blob.h - first.y - first.h) <= 0.15 * first.h)
            near = blob.x - x1 < 0.5 * first.h and x0 - blob.x - blob.w < 0.5 * first.h
            if blob not in rank and aligned and near:
                rank.append(blob)
                grown = True
    x0, x1 = min(b.x for b in rank), max(b.x + b.w for b in rank)
    bottom = max(b.y + b.h for b in rank)
    under = [blob for blob in blobs if blob not in rank and blob.y >= bottom - 0.1 * first.h
             and blob.x < x1 and blob.x + blob.w > x0 and blob.h < 1.5 * first.h]
    if not under:
        return None
    return rank, min(under, key=lambda blob: blob.y)


def teach(design: str, frames: Iterable[tuple[Card, Frame]]) -> Taught:
    """The design taught from clean ``frames`` of known cards; TeachError when the pass will not do."""
    ranks, pips, grown_pips, rank_of, suit_of, clean_ranks, clean_of = [], [], [], [], [], [], []
    glyph_sizes: list[tuple[int, int, int, int]] = []
    places: list[tuple[float, float]] = []
    centres, pip_sizes, rank_boxes, rank_heights, redness = [], [], [], [], []
    for card, frame in frames:
        first = ink(frame)
        for again in range(len(AGAIN) + 1):            # the cut that parts the index from a picture
            found = cut(first, again)
            index = index_of_clean(found, frame.shape[1], frame.shape[0])
            if index is not None:
                break
        if index is None:
            raise TeachError(f"{design}: no index found on {card} (a rank with a suit pip under it)")
        rank, pip = index
        rank_shape, pip_shape = silhouette(found, rank), silhouette(found, [pip])
        if rank_shape is None or pip_shape is None:
            raise TeachError(f"{design}: the index of {card} has no glyph strong enough to keep")
        clean_rank, clean_pip = glyph(rank_shape, RANK_SIZE), glyph(pip_shape, PIP_SIZE)
        clean_ranks.append(clean_rank)
        clean_of.append(card)
        for blurred in _blurred(frame):
            seen = cut(ink(blurred), again)
            blurred_rank, blurred_pip = _same(seen, rank), _same(seen, [pip])
            if not blurred_rank or len(blurred_pip) != 1 or set(blurred_rank) & set(blurred_pip):
                continue                    # the blur joined the rank to its pip: no template of it
            blurred_rank_shape = silhouette(seen, blurred_rank)
            blurred_pip_shape = silhouette(seen, blurred_pip)
            if blurred_rank_shape is None or blurred_pip_shape is None:
                continue
            rank_glyph, pip_glyph = glyph(blurred_rank_shape, RANK_SIZE), glyph(blurred_pip_shape, PIP_SIZE)
            if min(float(np.vdot(rank_glyph, clean_rank)), float(np.vdot(pip_glyph, clean_pip))) >= SAME_RANK:
                ranks.append(rank_glyph)
                pips.append(pip_glyph)
                grown_pips.append(glyph(silhouette(seen, blurred_pip, grown=True), PIP_SIZE))
                rank_of.append(card.rank)
                glyph_sizes.append((blurred_rank_shape.w, blurred_rank_shape.h, blurred_pip_shape.w,
                              blurred_pip_shape.h))
                places.append(place(blurred_rank_shape, blurred_pip_shape))
                suit_of.append(card.suit)
        cx, cy = pip_shape.centre
        centres.append((cx, cy))
        pip_sizes.append((pip_shape.w, pip_shape.h))
        rank_boxes.append((rank_shape.x - cx, rank_shape.y - cy, rank_shape.x + rank_shape.w - cx,
                           rank_shape.y + rank_shape.h - cy))
        rank_heights.append(rank_shape.h)
        redness.append((card.suit in (1, 2), redness_of(found, [pip])))
    missing = [f"rank {r}" for r in range(1, 14) if r not in rank_of]
    missing += [f"suit {s}" for s in range(4) if s not in suit_of]
    if missing:
        raise TeachError(f"{design}: the pass lacks {', '.join(missing)}")
    _check_ranks(design, np.stack(clean_ranks), clean_of)
    boxes = np.array(rank_boxes, np.float64)
    sizes = np.array(pip_sizes, np.float64)
    (cx, cy), (w0, h0), (w1, h1) = np.mean(centres, axis=0), sizes.min(axis=0), sizes.max(axis=0)
    (x0, y0), (x1, y1) = boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)
    layout = Layout(
        pip_centre=(float(cx), float(cy)), pip_size=(float(w0), float(h0), float(w1), float(h1)),
        rank_box=(float(x0), float(y0), float(x1), float(y1)),
        rank_height=(float(min(rank_heights)), float(max(rank_heights))),
        red=float(np.mean([value for red, value in redness if red])),
        black=float(np.mean([value for red, value in redness if not red])))
    return Taught(design, layout, np.stack(ranks), np.stack(pips), np.array(rank_of, np.int8),
                  np.array(suit_of, np.int8), np.array(glyph_sizes, np.float32), np.stack(grown_pips),
                  np.array(places, np.float32))


def _blurred(frame: Frame) -> list[Frame]:
    """The clean frame and its turns (:data:`TURNS`), each also as the shoe's blurs draw it: moving as a
    dealt card does, out of focus, and both."""
    height, width = frame.shape[:2]
    turns = [cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0) for angle in TURNS]
    edge = cv2.BORDER_REPLICATE
    turned = [frame] + [np.asarray(cv2.warpAffine(frame, turn, (width, height), borderMode=edge), np.uint8)
                        for turn in turns]
    kernels = [blur.motion(3.5), blur.motion(6.5), blur.disk(1.5), blur.both(5.5, 1.2)]
    return turned + [np.asarray(cv2.filter2D(each, -1, kernel), np.uint8) for each in turned
                     for kernel in kernels]


def _same(seen: Ink, clean: list[Blob]) -> list[Blob]:
    """The blobs of a blurred frame that are the clean frame's ``clean`` blobs (their centres in them)."""
    def inside(blob: Blob, box: Blob) -> bool:
        x, y = blob.centre
        return box.x - 2 <= x <= box.x + box.w + 2 and box.y - 2 <= y <= box.y + box.h + 2

    return [blob for blob in seen.blobs if any(inside(blob, box) for box in clean)]


def _check_ranks(design: str, ranks: npt.NDArray[np.float32], cards: list[Card]) -> None:
    """Every clean rank glyph is like the others of its rank (else the index was found wrong on that card)."""
    of = np.array([card.rank for card in cards])
    for template, card in zip(ranks, cards, strict=True):
        mean = ranks[of == card.rank].mean(axis=0)
        score = float(np.vdot(template, mean)) / max(float(np.linalg.norm(mean)), 1e-9)
        if score < SAME_RANK:
            raise TeachError(f"{design}: the rank glyph found on {card} is not like its rank's others "
                             f"({score:.2f})")
