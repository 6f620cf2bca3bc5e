"""Scoring dimensions and their weights. Weighted sums are computed here, by code.

A rubric names its dimensions and weighs them; every debate format declares one
(the structured and free-form formats score logic, evidence, responsiveness and
honesty; the market format logic, evidence, clarity and persuasiveness). A judge
profile of the panel weighs the standard dimensions its own way
(:meth:`Rubric.applied_to` says what happens under a format with other dimensions).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from moot.errors import ConfigError

DIMENSIONS = ("logic", "evidence", "responsiveness", "honesty")
"""The standard dimensions, in the order judges are asked for them."""


@dataclass(frozen=True)
class Rubric:
    """A named set of dimension weights that sum to 1, in the order given."""

    name: str
    weights: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.weights:
            raise ConfigError(f"rubric {self.name!r} weighs no dimension")
        for dimension, weight in self.weights.items():
            if not dimension.isidentifier() or not dimension.islower():
                raise ConfigError(f"rubric {self.name!r}: bad dimension name {dimension!r}")
            if not math.isfinite(weight) or weight < 0:
                raise ConfigError(f"rubric {self.name!r} has a negative or non-finite weight")
        if abs(sum(self.weights.values()) - 1.0) > 1e-9:
            raise ConfigError(f"rubric {self.name!r} weights must sum to 1")
        object.__setattr__(self, "weights", MappingProxyType(dict(self.weights)))

    @property
    def dimensions(self) -> tuple[str, ...]:
        return tuple(self.weights)

    def weighted(self, scores: Mapping[str, float]) -> float:
        """The weighted score of one unit, rounded to 4 decimals."""
        return round(sum(self.weights[d] * scores[d] for d in self.dimensions), 4)

    def applied_to(self, format_rubric: Rubric) -> Rubric:
        """This judge's weights under a format's rubric: its own when it weighs the
        same dimensions, else the format's (a profile made for the standard dimensions
        cannot weigh others)."""
        if set(self.dimensions) == set(format_rubric.dimensions):
            return Rubric(self.name, {d: self.weights[d] for d in format_rubric.dimensions})
        return Rubric(self.name, dict(format_rubric.weights))


GENERAL = Rubric(
    "general", {"logic": 0.30, "evidence": 0.30, "responsiveness": 0.25, "honesty": 0.15}
)


def mean(values: list[float]) -> float:
    """Arithmetic mean rounded to 4 decimals; ``ConfigError`` on an empty list."""
    if not values:
        raise ConfigError("cannot average an empty list of scores")
    return round(sum(values) / len(values), 4)
