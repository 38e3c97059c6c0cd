"""A taught deck design as a file: what the reader keeps of each rank and suit, versioned and checksummed.

One ``.npz`` (numpy's zip of arrays, read without pickle) holding ``ranks`` and ``pips`` (a glyph template
per card of the teach pass, :func:`drivers.optical.ink.glyph`), their ``rank_of`` and ``suit_of``, their
``sizes`` (the rank glyph's width and height and the pip's, in frame pixels, before fitting), ``grown``
(each pip's template with its faint ink, :func:`drivers.optical.ink.silhouette`'s ``grown``), ``places``
(where each rank glyph lies from its pip, :func:`drivers.optical.ink.place`), and
``meta``: the format's version, the design's name and its layout (where the index pip lies in the frame,
the sizes of pips and ranks, where the rank lies from its pip, the red and black inks' redness). ``checksum``
is the SHA-256 of all of them: a file changed by a byte, cut short or of another version is refused with a
:class:`TaughtError` saying why, so a shoe never reads with a broken design.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

FORMAT = 3
"""The file format's version; a file of another one is refused (format 1 had no ``grown``, format 2 no
``places``: teach again)."""

RANK_SIZE = (32, 32)
"""A rank glyph's template, width and height."""

PIP_SIZE = (32, 32)
"""A suit pip's template, width and height."""


class TaughtError(ValueError):
    """A taught file that cannot be used: unreadable, corrupt, or of another format."""


@dataclass(frozen=True)
class Layout:
    """Where a design's index lies in a clean frame, in frame pixels.

    ``pip_centre``: the index pip's mean centre; ``pip_size``: the smallest and largest pip (w, h, w, h);
    ``rank_box``: the box (x0, y0, x1, y1) every rank glyph falls in, from its pip's centre;
    ``rank_height``: the lowest and highest rank glyph; ``red`` and ``black``: the mean redness of the
    red suits' and the black suits' ink.
    """

    pip_centre: tuple[float, float]
    pip_size: tuple[float, float, float, float]
    rank_box: tuple[float, float, float, float]
    rank_height: tuple[float, float]
    red: float
    black: float


@dataclass(frozen=True)
class Taught:
    """A design as taught: a template per card of the teach pass, the cards' ranks and suits, the glyphs'
    sizes (rank width, rank height, pip width, pip height), the pips grown by their faint ink, where each rank
    glyph lies from its pip (across, down, in pip heights), the layout."""

    design: str
    layout: Layout
    ranks: npt.NDArray[np.float32]
    pips: npt.NDArray[np.float32]
    rank_of: npt.NDArray[np.int8]
    suit_of: npt.NDArray[np.int8]
    sizes: npt.NDArray[np.float32]
    grown: npt.NDArray[np.float32]
    places: npt.NDArray[np.float32]

    def save(self, path: Path) -> None:
        """Write the file (through a temporary one, replaced in one step)."""
        arrays = self._arrays()
        buffer = io.BytesIO()
        stored: dict[str, Any] = {**arrays, "checksum": np.array(_checksum(arrays))}
        np.savez(buffer, **stored)
        partial = path.with_name(path.name + ".partial")
        partial.write_bytes(buffer.getvalue())
        partial.replace(path)

    def _arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        meta = {"format": FORMAT, "design": self.design, "layout": asdict(self.layout)}
        return {"meta": np.array(json.dumps(meta, sort_keys=True)), "ranks": self.ranks, "pips": self.pips,
                "rank_of": self.rank_of, "suit_of": self.suit_of, "sizes": self.sizes, "grown": self.grown,
                "places": self.places}


def _checksum(arrays: dict[str, npt.NDArray[np.generic]]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        value = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{value.dtype.str}:{value.shape}:".encode())
        digest.update(value.tobytes())
    return digest.hexdigest()


def load(path: Path) -> Taught:
    """The taught design in ``path``, checked: TaughtError naming the file and the fault when it is bad."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as fault:
        raise TaughtError(f"{path}: not a taught design file ({fault})") from fault
    meta = _meta(path, arrays)
    if meta.get("format") != FORMAT:                  # before the arrays: another format holds others
        raise TaughtError(f"{path}: format {meta.get('format')!r}, this reader reads format {FORMAT}: "
                          "teach the design again")
    expected = {"checksum", "meta", "ranks", "pips", "rank_of", "suit_of", "sizes", "grown", "places"}
    if set(arrays) != expected:
        raise TaughtError(f"{path}: holds {sorted(arrays)}, not {sorted(expected)}")
    checksum = str(arrays.pop("checksum"))
    if checksum != _checksum(arrays):
        raise TaughtError(f"{path}: the checksum does not match: the file is corrupt")
    try:
        layout = _layout(meta["layout"])
    except TaughtError as fault:
        raise TaughtError(f"{path}: {fault}") from fault
    taught = Taught(str(meta.get("design")), layout, arrays["ranks"], arrays["pips"],
                    arrays["rank_of"], arrays["suit_of"], arrays["sizes"], arrays["grown"], arrays["places"])
    count = len(taught.rank_of)
    if (taught.ranks.shape != (count, RANK_SIZE[1], RANK_SIZE[0])
            or taught.pips.shape != (count, PIP_SIZE[1], PIP_SIZE[0])
            or taught.grown.shape != taught.pips.shape or taught.suit_of.shape != (count,)
            or taught.sizes.shape != (count, 4) or taught.places.shape != (count, 2)):
        raise TaughtError(f"{path}: the templates' shapes do not match format {FORMAT}")
    return taught


def _meta(path: Path, arrays: dict[str, npt.NDArray[np.generic]]) -> dict[str, Any]:
    try:
        meta = json.loads(str(arrays["meta"]))
    except (KeyError, ValueError) as fault:
        raise TaughtError(f"{path}: no readable meta: the file is corrupt") from fault
    if not isinstance(meta, dict):
        raise TaughtError(f"{path}: no readable meta: the file is corrupt")
    return meta


def _layout(fields: dict[str, Any]) -> Layout:
    try:
        x, y = (float(value) for value in fields["pip_centre"])
        w0, h0, w1, h1 = (float(value) for value in fields["pip_size"])
        x0, y0, x1, y1 = (float(value) for value in fields["rank_box"])
        low, high = (float(value) for value in fields["rank_height"])
        return Layout((x, y), (w0, h0, w1, h1), (x0, y0, x1, y1), (low, high), float(fields["red"]),
                      float(fields["black"]))
    except (KeyError, TypeError, ValueError) as fault:
        raise TaughtError(f"the layout {fields!r} is not format {FORMAT}'s") from fault
