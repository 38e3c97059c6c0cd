"""What a camera at the shoe's mouth does to a card: one :class:`Distortion`, drawn from a seeded generator.

Every field is a physical cause with the range a shoe meets (frame pixels; the frame is
``drivers.optical.frames.FRAME_SIZE``, about 4.4 pixels a millimetre of a poker-size card):

- the card's pose as it leaves: ``shift``, ``rotation`` (it rides a guide, so a few degrees), ``scale``
  (its height over the camera), ``corners`` (perspective, the camera looking at it at a slant) and ``bend``
  (a bowed card);
- the card itself: ``fade`` (worn ink), ``scratches`` and ``spots`` (scuffs and dirt);
- the optics: ``motion`` (blur along the way the card leaves, at dealing speed: a card at about 1 m/s under
  a 1/1000 s exposure moves 1 mm, 4 - 5 pixels), ``defocus``;
- the light: ``gradient`` and ``vignette`` (uneven), ``tint`` (coloured: a warm or cold LED, the room's
  light), ``glare`` (a reflection off the card's gloss), ``exposure`` and ``gamma``;
- the sensor: ``noise`` (read noise) and ``shot`` (photon noise, grows with the light), ``jpeg`` (the
  camera's compression, its quality; 0 for none);
- the shoe: ``lip``, the fraction of the frame's height hidden by the shoe's lip at the top.

``Distortion()`` is none of these: the clean frame a teach pass is taken from. ``seed`` seeds whatever is
drawn pixel by pixel (noise, scratches) so that a Distortion makes the same frame each time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Distortion:
    """One draw of everything a camera does to a card (see the module's docstring for each field)."""

    shift: tuple[float, float] = (0.0, 0.0)
    rotation: float = 0.0
    scale: float = 1.0
    corners: tuple[float, ...] = (0.0,) * 8
    bend: float = 0.0
    fade: float = 0.0
    scratches: int = 0
    spots: int = 0
    motion: float = 0.0
    motion_angle: float = 90.0
    defocus: float = 0.0
    gradient: float = 0.0
    gradient_angle: float = 0.0
    vignette: float = 0.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: float = 0.0
    glare_at: tuple[float, float] = (0.5, 0.5)
    exposure: float = 1.0
    gamma: float = 1.0
    noise: float = 0.0
    shot: float = 0.0
    jpeg: int = 0
    lip: float = 0.0
    seed: int = 0

    @classmethod
    def draw(cls, rng: np.random.Generator, *, lip: float | None = None) -> Distortion:
        """A distortion drawn from ``rng``; ``lip`` fixes how much of the frame the lip hides.

        >>> a, b = Distortion.draw(np.random.default_rng(7)), Distortion.draw(np.random.default_rng(7))
        >>> a == b, a == Distortion()
        (True, False)
        """
        def u(low: float, high: float) -> float:
            return float(rng.uniform(low, high))

        glare = u(0.1, 0.35) if rng.random() < 0.25 else 0.0
        lip_hides = (u(0.0, 0.12) if rng.random() < 0.5 else 0.0) if lip is None else lip
        return cls(
            shift=(u(-8, 8), u(-8, 8)), rotation=u(-5, 5), scale=u(0.9, 1.1),
            corners=tuple(u(-4, 4) for _ in range(8)), bend=u(0, 3),
            fade=u(0, 0.3), scratches=int(rng.poisson(1.0)), spots=int(rng.poisson(1.5)),
            motion=u(0, 7), motion_angle=u(82, 98), defocus=u(0, 1.8),
            gradient=u(0, 0.45), gradient_angle=u(0, 360), vignette=u(0, 0.3),
            tint=(u(0.7, 1.1), u(0.85, 1.05), u(0.85, 1.15)), glare=glare, glare_at=(u(0, 1), u(0, 1)),
            exposure=u(0.55, 1.4), gamma=u(0.8, 1.25), noise=u(0, 6), shot=u(0, 0.6),
            jpeg=int(rng.integers(35, 96)), lip=lip_hides, seed=int(rng.integers(2**31)))
