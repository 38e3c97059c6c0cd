"""Reading a frame against a taught design: rank, suit and a confidence, or unreadable with the reason.

The index pip is looked for where the design's pips lie (a blob of a pip's size near the taught place, or
pieces of one lying together), the rank glyph where the design's ranks lie from their pip. Each is matched
against the taught templates (a dot product of normalised glyphs: 1 is the same shape). A card is read
only when three cues agree:

- the rank glyph matches one rank at least ``RANK_SCORE`` and better than every other rank by ``MARGIN``,
  and the size and place of a taught glyph of that rank and suit (the rank's height against its pip's, the
  rank's and the pip's width against their height, where the rank lies from its pip: a glyph cut short by
  the lip or half lost in the glare matches another's shape, not its size, and a piece of one, a 10 without
  its 0, lies apart from where the glyph it looks like, the J, lies);
- the suit pip matches one suit likewise (``SUIT_SCORE``, ``MARGIN``), and grown by its faint ink (a
  shaded pip's pale part) it is still nearest that suit;
- the ink's colour, red or black, measured apart from any shape, is the suit's, on the pip and the rank.

Anything less is unreadable (``Reading.card`` None, ``reason`` saying what failed), never the best guess:
the table then asks the dealer to show the card. Two places that each read as a card, differently, are
unreadable too, and so are two other cuts of a frame's ink that read differently (:meth:`Reader.read`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain

import numpy as np
import numpy.typing as npt

from drivers.optical.frames import Frame
from drivers.optical.ink import (
    AGAIN,
    Blob,
    Ink,
    Silhouette,
    cut,
    glyph,
    ink,
    parted,
    place,
    redness_of,
    silhouette,
)
from drivers.optical.taught import PIP_SIZE, RANK_SIZE, Taught
from firmware_bridge.kernel.cards import RANK_CHARS, SUIT_CHARS, Card

RANK_SCORE = 0.8
SUIT_SCORE = 0.82
MARGIN = 0.3
"""The best label's lead over the next, as a share of how far apart their templates are."""
RED, BLACK = 0.42, 0.28
"""The ink is red above ``RED`` and black below ``BLACK`` of the way from the taught black to red."""

_PIP_REACH = 34.0          # pixels a pip may lie from its taught place (the card's pose in the shoe)
_SIZE_SLACK = 1.35         # how much bigger (or 1/x smaller) than taught a glyph may look
_SMALL_SLACK = 1.6         # and how much smaller a pip (its points lost in a blur)
_CANDIDATES = 3            # the nearest pip-like blobs tried
_LOST = 0.3                # a rank read in another cut may lack pieces of at most this share of its ink
_JOIN = 3                  # pixels apart that pieces of a pip may lie (its thin joints lost)
_HEIGHT_SLACK = 0.2        # a rank glyph's height over its pip's may differ this much from its template's
_ASPECT_SLACK = 0.25       # and its width over its height
_PIP_SLACK = 0.18          # and the pip's width over its height (a club without its stalk is a spade's shape)
_ACROSS_SLACK = 0.15       # and its centre from its pip's, across and down, in pip heights
_DOWN_SLACK = 0.3


Pip = tuple[Blob, ...]
"""A suit pip: its blob, or the pieces a cut left of it."""


@dataclass(frozen=True)
class Reading:
    """What a frame reads as: ``card`` (None: unreadable, ``reason`` says why) and the cues' scores."""

    card: Card | None
    confidence: float
    reason: str | None = None
    rank_score: float = 0.0
    rank_margin: float = 0.0
    suit_score: float = 0.0
    suit_margin: float = 0.0
    red: float = 0.5
    pip_suit: int | None = None
    """The suit its pip clearly is (``SUIT_SCORE`` and ``MARGIN``) under a rank glyph, read or not."""


class Reader:
    """Reads frames of the design ``taught``."""

    def __init__(self, taught: Taught) -> None:
        self.taught = taught
        self._ranks = _Templates(taught.ranks, taught.rank_of)
        self._pips = _Templates(taught.pips, taught.suit_of)
        self._grown = _Templates(taught.grown, taught.suit_of)

    def read(self, frame: Frame) -> Reading:
        """The card in ``frame``, or unreadable with the reason; never a guess.

        When the ink cut at the frame's own threshold reads as no card, it is cut again in every way that
        parts or joins what the camera's blurs and the card's print may have joined or parted
        (:data:`drivers.optical.ink.AGAIN`), and a blob where the index lies too tall for a pip is cut
        across at its narrowest row (a rank run into its pip, :meth:`_parted`). Each is read with the same
        checks. When none reads, each cut's pips are read with the rank glyph of each cut that thins the
        ink (raised, opened): the one keeps a pip whole (a club's thin stalk), the other parts a rank from
        a picture's line beside it, and no one cut does both; the thinned rank must be all of the rank's
        ink in the pip's own cut but for small pieces (:func:`_within`: a 10 whose 0 was thinned away is
        not a J). Every place that reads as a card in any of them must read as the same card: a cut that
        takes a piece away can leave another glyph's shape (a 10's 1 is a J), so where two disagree the
        card is unreadable, never the first one found; and so is a card whose suit is not that of every
        pip, in any cut, that is clearly one suit under a rank glyph (a club whose stalk a cut took is a
        spade's shape, read in that cut, where the club is clear in another).
        """
        found = ink(frame)
        own = self._readings(found)
        first = self._read_ink(own)
        if first.card is not None:
            return first
        again = [cut(found, again) for again in range(1, len(AGAIN) + 1)]
        cuts = [found, *again, *self._parted(found)]
        candidates = [(each, self._pip_candidates(each)) for each in cuts]
        readings = [self._read_at(each, *pip) for each, pips in candidates[1:] for pip in pips]
        agreed = _agreed(readings, "the ink cut other ways reads as different cards")
        if agreed is None:
            thinned = [each for each, (higher, opened, _) in zip(again, AGAIN, strict=True)
                       if higher or opened]
            readings += [self._read_at(each, *pip, ranks) for each, pips in candidates for pip in pips
                         for ranks in thinned if ranks is not each]
            agreed = _agreed(readings, "the ink cut other ways reads as different cards")
        if agreed is None or agreed.card is None:
            return agreed or first
        suits = {reading.pip_suit for reading in own + readings
                 if reading.pip_suit is not None} - {agreed.card.suit}
        if suits:
            clearly = ", ".join(SUIT_CHARS[suit] for suit in sorted(suits))
            return Reading(None, 0.0, f"read as {agreed.card} in another cut, where a pip under a rank glyph "
                                      f"is clearly {clearly}")
        return agreed

    def _readings(self, found: Ink) -> list[Reading]:
        """The reading of each place in ``found`` where the index may lie (none: no pip there)."""
        return [self._read_at(found, *pip) for pip in self._pip_candidates(found)]

    def _read_ink(self, readings: list[Reading]) -> Reading:
        """The card a cut whose places read as ``readings`` reads as: one place's, or unreadable when none
        reads or two differ."""
        if not readings:
            return Reading(None, 0.0, "no suit pip where the index lies")
        return (_agreed(readings, "two places read as different cards")
                or max(readings, key=lambda reading: reading.confidence))

    def _pip_candidates(self, found: Ink) -> list[tuple[Pip, Silhouette]]:
        """The pip-sized blobs nearest where the design's pips lie, with their silhouettes; and the groups
        of pieces smaller than a pip that lie together (:meth:`_pieces`)."""
        layout = self.taught.layout
        w0, h0, w1, h1 = layout.pip_size
        px, py = layout.pip_centre
        near = []
        for pip in chain(((blob,) for blob in found.blobs), self._pieces(found)):
            x0, y0 = min(blob.x for blob in pip), min(blob.y for blob in pip)
            w, h = max(blob.x + blob.w for blob in pip) - x0, max(blob.y + blob.h for blob in pip) - y0
            distance = float(np.hypot(x0 + w / 2 - px, y0 + h / 2 - py))
            if distance > _PIP_REACH or w > w1 * _SIZE_SLACK or h > h1 * _SIZE_SLACK:
                continue
            shape = silhouette(found, list(pip))
            if (shape is not None and w0 / _SMALL_SLACK <= shape.w <= w1 * _SIZE_SLACK
                    and h0 / _SMALL_SLACK <= shape.h <= h1 * _SIZE_SLACK):
                near.append((distance, pip, shape))
        near.sort(key=lambda item: item[0])
        return [(pip, shape) for _, pip, shape in near[:_CANDIDATES]]

    def _pieces(self, found: Ink) -> Iterator[Pip]:
        """The groups of two or more blobs near where the pips lie, each narrower or lower than the smallest
        pip (not a whole pip and a speck), that lie within ``_JOIN`` pixels of each other: a pip whose thin
        joints the cut lost (a club's lobes and stalk apart), whole again without closing the ink, which
        would join it to its neighbours too."""
        layout = self.taught.layout
        w0, h0, w1, h1 = layout.pip_size
        px, py = layout.pip_centre
        reach = _PIP_REACH + max(w1, h1)
        small = [blob for blob in found.blobs if blob.w <= w1 and blob.h <= h1
                 and (blob.w < w0 / _SMALL_SLACK or blob.h < h0 / _SMALL_SLACK)
                 and float(np.hypot(blob.centre[0] - px, blob.centre[1] - py)) <= reach]
        groups: list[list[Blob]] = []
        for blob in small:
            joined = [group for group in groups if any(_gap(blob, other) <= _JOIN for other in group)]
            merged = [blob, *(other for group in joined for other in group)]
            groups = [group for group in groups if group not in joined] + [merged]
        return (tuple(group) for group in groups if len(group) > 1)

    def _parted(self, found: Ink) -> Iterator[Ink]:
        """``found`` with each blob that may be a rank run into its pip cut in two across its narrowest row.

        Such a blob is where the index lies (its lowest pip's height of it about the taught pip place), too
        tall for a pip and no taller than a rank over its pip; its narrowest row is looked for between a
        rank's height from its top and a pip's from its bottom, and it is cut at the foot of the neck (the
        rank keeps its tail, the pip is whole), then at its head. The blur along the way the card leaves
        joins a rank to the pip under it (a Q's tail to its heart) where no threshold parts them: the
        pieces are then read as any other blobs, every check applied, so a wrong cut reads as no card."""
        layout = self.taught.layout
        _, h0, _, h1 = layout.pip_size
        px, py = layout.pip_centre
        low, high = layout.rank_height
        for blob in found.blobs:
            if not h1 * _SIZE_SLACK < blob.h <= (high + h1) * _SIZE_SLACK:
                continue
            bottom = blob.y + blob.h - h0 / 2
            if float(np.hypot(blob.centre[0] - px, bottom - py)) > _PIP_REACH:
                continue
            first, last = blob.y + round(low / _SIZE_SLACK), blob.y + blob.h - round(h0 / _SMALL_SLACK)
            if first >= last:
                continue
            widths = (found.labels[first:last, blob.x:blob.x + blob.w] == blob.label).sum(axis=1)
            narrowest = np.flatnonzero(widths <= widths.min() + 1)
            for row in dict.fromkeys((narrowest[-1], narrowest[0])):    # the neck's foot, then its head
                yield parted(found, blob, first + int(row))

    def _rank_blobs(self, found: Ink, pip: Pip, centre: tuple[float, float], pips: Ink) -> list[Blob]:
        """The blobs of ``found`` where the design's rank glyphs lie from the pip (of ``pips``) whose centre
        is ``centre``; none of the pip's own ink."""
        layout = self.taught.layout
        high = layout.rank_height[1]
        slack = 0.3 * high
        cx, cy = centre
        x0, y0, x1, y1 = layout.rank_box
        zone = (cx + x0 - slack, cy + y0 - slack, cx + x1 + slack, cy + y1 + slack)
        near = [blob for blob in found.blobs if blob not in pip and blob.h <= high * _SIZE_SLACK
                and zone[0] <= blob.x and blob.x + blob.w <= zone[2]
                and zone[1] <= blob.y and blob.y + blob.h <= zone[3]]
        if pips is found:
            return near
        own = np.concatenate([found.labels[blob.y:blob.y + blob.h, blob.x:blob.x + blob.w][
            pips.labels[blob.y:blob.y + blob.h, blob.x:blob.x + blob.w] == blob.label] for blob in pip])
        return [blob for blob in near if not np.any(own == blob.label)]

    def _read_at(self, found: Ink, pip: Pip, pip_shape: Silhouette, ranks: Ink | None = None) -> Reading:
        """The reading of the index whose pip is ``pip`` of ``found``, its rank glyph taken from the ink
        ``ranks`` (another cut of it; ``found`` when None)."""
        ranks = found if ranks is None else ranks
        rank_blobs = self._rank_blobs(ranks, pip, pip_shape.centre, found)
        rank_shape = silhouette(ranks, rank_blobs) if rank_blobs else None
        if rank_shape is None:
            return Reading(None, 0.0, "no rank glyph above the suit pip")
        if ranks is not found and not _within(self._rank_blobs(found, pip, pip_shape.centre, found), found,
                                              rank_blobs, ranks):
            return Reading(None, 0.0, "the rank glyph of another cut is not all the ink of this one's")
        low, high = self.taught.layout.rank_height
        if not low / _SIZE_SLACK <= rank_shape.h <= high * _SIZE_SLACK:
            return Reading(None, 0.0, f"the rank glyph is {rank_shape.h} pixels high, not {low:.0f} - "
                                      f"{high:.0f}")
        rank, rank_score, rank_margin = self._ranks.best(glyph(rank_shape, RANK_SIZE))
        suit, suit_score, suit_margin = self._pips.best(glyph(pip_shape, PIP_SIZE))
        red = self._red(redness_of(found, list(pip)))
        rank_red = self._red(redness_of(ranks, rank_blobs))
        clear = suit if suit_score >= SUIT_SCORE and suit_margin >= MARGIN else None
        scores = dict(rank_score=rank_score, rank_margin=rank_margin, suit_score=suit_score,
                      suit_margin=suit_margin, red=red)
        confidence = min(rank_score, suit_score)
        reason = None
        if rank_score < RANK_SCORE or rank_margin < MARGIN:
            reason = f"the rank glyph is not clearly one rank ({RANK_CHARS[rank - 1]} {rank_score:.2f}, " \
                     f"next by {rank_margin:.2f})"
        elif not self._fits(rank, suit, rank_shape, pip_shape):
            reason = f"the rank glyph is {rank_shape.w} x {rank_shape.h} pixels over a pip {pip_shape.h} " \
                     f"high: not the size or place of a {RANK_CHARS[rank - 1]} (part of it hidden or lost?)"
        elif suit_score < SUIT_SCORE or suit_margin < MARGIN:
            reason = f"the pip is not clearly one suit ({SUIT_CHARS[suit]} {suit_score:.2f}, next by " \
                     f"{suit_margin:.2f})"
        elif (grown := self._grown_suit(found, pip)) not in (None, suit):
            reason = f"the pip is nearer {SUIT_CHARS[grown]} with its faint ink (its shading, a pale part)"
        elif not (red > RED if suit in (1, 2) else red < BLACK):
            reason = f"the ink's colour ({red:.2f} of the way to red) is not the {SUIT_CHARS[suit]} pip's"
        elif rank_red < BLACK if suit in (1, 2) else rank_red > RED:
            reason = "the rank is not in the pip's ink"
        if reason is not None:
            return Reading(None, confidence, reason, pip_suit=clear, **scores)
        return Reading(Card(rank, suit), confidence, None, pip_suit=clear, **scores)

    def _grown_suit(self, found: Ink, pip: Pip) -> int | None:
        """The suit the pip's shape is nearest when grown by its faint ink (None: nothing to grow). A shaded
        pip's pale part, lost to the cut, can leave a shape like another suit's (a spade without its point
        is a club), so the two must agree."""
        shape = silhouette(found, list(pip), grown=True)
        if shape is None:
            return None
        return self._grown.best(glyph(shape, PIP_SIZE))[0]

    def _fits(self, rank: int, suit: int, rank_shape: Silhouette, pip_shape: Silhouette) -> bool:
        """The glyphs have the sizes and the place of one taught glyph of ``rank`` of ``suit`` (of ``rank``
        when the pass had none of that suit): the rank's height over its pip's, the rank's and the pip's
        width over their height, where the rank lies from the pip (a glyph cut short by the lip or half lost
        matches another's shape, not its size; a piece of one, a 10's 1 alone, lies apart from the glyph it
        looks like, the J)."""
        taught = self.taught
        of = (taught.rank_of == rank) & (taught.suit_of == suit)
        if not of.any():
            of = taught.rank_of == rank
        sizes, places = taught.sizes[of], taught.places[of]
        height = rank_shape.h / pip_shape.h / (sizes[:, 1] / sizes[:, 3]) - 1.0
        aspect = rank_shape.w / rank_shape.h / (sizes[:, 0] / sizes[:, 1]) - 1.0
        pip = pip_shape.w / pip_shape.h / (sizes[:, 2] / sizes[:, 3]) - 1.0
        across, down = np.abs(places - np.array(place(rank_shape, pip_shape), np.float32)).T
        return bool(np.any((np.abs(height) <= _HEIGHT_SLACK) & (np.abs(aspect) <= _ASPECT_SLACK)
                           & (np.abs(pip) <= _PIP_SLACK)
                           & (across <= _ACROSS_SLACK) & (down <= _DOWN_SLACK)))

    def _red(self, redness: float) -> float:
        layout = self.taught.layout
        return (redness - layout.black) / max(layout.red - layout.black, 1e-6)


def _within(blobs: list[Blob], found: Ink, glyph: list[Blob], other: Ink) -> bool:
    """``glyph``, blobs of the ``other`` cut, is the rank ``blobs`` of ``found`` are, less small pieces: a cut
    that thinned a rank glyph away from a picture's line or specks keeps the glyph, one that lost a piece
    of it (a 10's 0: a blob with none of ``glyph``'s ink, ``_LOST`` of its area or more) does not."""
    labels = [blob.label for blob in glyph]
    lost = 0
    for blob in blobs:
        box = (slice(blob.y, blob.y + blob.h), slice(blob.x, blob.x + blob.w))
        if not np.isin(other.labels[box][found.labels[box] == blob.label], labels).any():
            lost += blob.area
    return lost < _LOST * sum(blob.area for blob in glyph)


def _gap(a: Blob, b: Blob) -> int:
    """The pixels between two blobs' boxes (0: they touch or overlap)."""
    return max(a.x - b.x - b.w, b.x - a.x - a.w, a.y - b.y - b.h, b.y - a.y - a.h, 0)


def _agreed(readings: list[Reading], disagreeing: str) -> Reading | None:
    """The most confident of ``readings`` that read as a card, when all that do read as the same one;
    unreadable, ``disagreeing`` and the cards, when two differ; None when none reads as a card."""
    read = [reading for reading in readings if reading.card is not None]
    if not read:
        return None
    cards = sorted({str(reading.card) for reading in read})
    if len(cards) > 1:
        return Reading(None, 0.0, f"{disagreeing} ({', '.join(cards)})")
    return max(read, key=lambda reading: reading.confidence)


class _Templates:
    """The templates of one cue (rank glyphs or suit pips), each with its label."""

    def __init__(self, templates: npt.NDArray[np.float32], labels: npt.NDArray[np.int8]) -> None:
        self.vectors = templates.reshape(len(templates), -1)
        self.labels = labels
        self.gram = self.vectors @ self.vectors.T

    def best(self, glyph: npt.NDArray[np.float32]) -> tuple[int, float, float]:
        """The best label for ``glyph``, its score, and its lead over the best other label as a share of
        how far apart the two templates are (1: as like the one as the template itself, 0: between)."""
        scores = self.vectors @ glyph.ravel()
        best = int(np.argmax(scores))
        label = int(self.labels[best])
        others = np.flatnonzero(self.labels != label)
        other = int(others[np.argmax(scores[others])])
        apart = max(1.0 - float(self.gram[best, other]), 1e-3)
        return label, float(scores[best]), float(scores[best] - scores[other]) / apart
