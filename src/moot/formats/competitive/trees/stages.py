"""The stages of a competitive debate, the order of its speeches, and how many
exchanges are left after each speech (the ``k`` of the minimax strength)."""

from __future__ import annotations

from typing import Final, Literal

from moot.formats.competitive.trees.sides import SIDES, Side

Stage = Literal["opening", "rebuttal", "closing"]
STAGES: Final[tuple[Stage, ...]] = ("opening", "rebuttal", "closing")
EXCHANGE_STAGES: Final[frozenset[Stage]] = frozenset({"opening", "rebuttal"})
"""Stages whose speeches can still be answered; a closing adds no new exchange."""

SPEAKING_ORDER: Final[tuple[tuple[Stage, Side], ...]] = tuple(
    (stage, side) for stage in STAGES for side in SIDES
)
"""Each stage is spoken by pro, then con: opening, rebuttal, closing."""


def strength_steps(stage: Stage, side: Side) -> int:
    """``k`` for a speech: the exchanges that can still answer it, i.e. the opening and
    rebuttal speeches after it. Opening-pro 3, opening-con 2, rebuttal-pro 1, else 0."""
    try:
        position = SPEAKING_ORDER.index((stage, side))
    except ValueError:
        raise ValueError(f"no speech {stage!r} by {side!r} in a competitive debate") from None
    return sum(1 for later, _ in SPEAKING_ORDER[position + 1 :] if later in EXCHANGE_STAGES)
