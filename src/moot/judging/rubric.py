"""Scoring dimensions and their weights. Weighted sums are computed here, by code."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from moot.errors import ConfigError

DIMENSIONS = ("logic", "evidence", "responsiveness", "honesty")


@dataclass(frozen=True)
class Rubric:
    """A named set of dimension weights that sum to 1."""

    name: str
    weights: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if set(self.weights) != set(DIMENSIONS):
            raise ConfigError(f"rubric {self.name!r} must weight exactly {', '.join(DIMENSIONS)}")
        if not all(math.isfinite(w) for w in self.weights.values()):
            raise ConfigError(f"rubric {self.name!r} has a weight that is not a finite number")
        if any(w < 0 for w in self.weights.values()):
            raise ConfigError(f"rubric {self.name!r} has a negative weight")
        if abs(sum(self.weights.values()) - 1.0) > 1e-9:
            raise ConfigError(f"rubric {self.name!r} weights must sum to 1")
        object.__setattr__(self, "weights", MappingProxyType(dict(self.weights)))

    def weighted(self, scores: Mapping[str, float]) -> float:
        """The weighted score of one argument, rounded to 4 decimals."""
        return round(sum(self.weights[d] * scores[d] for d in DIMENSIONS), 4)


GENERAL = Rubric(
    "general", {"logic": 0.30, "evidence": 0.30, "responsiveness": 0.25, "honesty": 0.15}
)


def mean(values: list[float]) -> float:
    """Arithmetic mean rounded to 4 decimals; ``ConfigError`` on an empty list."""
    if not values:
        raise ConfigError("cannot average an empty list of scores")
    return round(sum(values) / len(values), 4)
