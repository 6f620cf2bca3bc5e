"""The two sides of a competitive debate (it is always pro against con)."""

from __future__ import annotations

from typing import Literal

Side = Literal["pro", "con"]
SIDES: tuple[Side, Side] = ("pro", "con")


def other_side(side: Side) -> Side:
    """The opposing side."""
    return "con" if side == "pro" else "pro"
