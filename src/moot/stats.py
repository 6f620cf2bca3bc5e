"""Statistics for evaluating forecasts: exact McNemar test, Wilson score interval,
Brier score and a reliability (calibration) table.

Pure Python (no numpy or scipy); the test suite checks every function against
statsmodels and scipy. Every function validates its input and raises ``ValueError``
with a message that names the bad argument.

>>> round(mcnemar_exact(3, 5), 6)
0.726562
>>> [round(x, 4) for x in wilson_interval(8, 10)]
[0.4902, 0.9433]
>>> round(brier_score([0.8, 0.3], [True, False]), 6)
0.065
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

__all__ = [
    "ReliabilityBin",
    "brier_score",
    "expected_calibration_error",
    "mcnemar_exact",
    "reliability_table",
    "wilson_interval",
]


def _count(value: object, name: str) -> int:
    """A non-negative integer count (bools and non-integral numbers are refused)."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a non-negative integer, got a bool ({value!r})")
    try:
        count = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        if isinstance(value, float) and value.is_integer():
            count = int(value)
        else:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}") from None
    if count < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {count}")
    return count


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts.

    ``b`` counts the cases the first classifier got right and the second wrong, ``c``
    the reverse. Under the null hypothesis each discordant case falls either way with
    probability 1/2, so the p-value is ``2 * P(X <= min(b, c))`` for
    ``X ~ Binomial(b + c, 1/2)``, capped at 1.0. With no discordant case (``b = c =
    0``) there is no evidence of a difference and the p-value is 1.0. Computed in
    exact integer arithmetic, so large counts lose no precision.
    """
    b = _count(b, "b")
    c = _count(c, "c")
    n = b + c
    k = min(b, c)
    # sum_{i=0..k} C(n, i), built term by term: C(n, i+1) = C(n, i) * (n - i) / (i + 1)
    term = 1
    tail = 1
    for i in range(k):
        term = term * (n - i) // (i + 1)
        tail += term
    p = Fraction(2 * tail, 2**n)
    return 1.0 if p >= 1 else float(p)


def _z(confidence: float) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    if not math.isfinite(confidence) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion ``successes / n``.

    ``confidence`` is the two-sided coverage (0.95 for a 95% interval). The bounds are
    clipped to [0, 1]. With ``n = 0`` nothing has been observed and the interval is the
    whole range ``(0.0, 1.0)`` (statsmodels returns NaN there). The lower bound is
    exactly 0.0 when ``successes = 0`` and the upper exactly 1.0 when ``successes = n``.
    """
    successes = _count(successes, "successes")
    n = _count(n, "n")
    if successes > n:
        raise ValueError(f"successes ({successes}) cannot exceed n ({n})")
    z = _z(confidence)
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # exact at the ends: the bound is 0 with no success and 1 with no failure (the
    # floating-point difference would leave a residue such as 3e-17)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def _probabilities(
    probs: Sequence[float], outcomes: Sequence[bool | int]
) -> list[tuple[float, int]]:
    """Pairs (probability, outcome 0/1), validated."""
    if isinstance(probs, str | bytes) or isinstance(outcomes, str | bytes):
        raise ValueError("probs and outcomes must be sequences of numbers")
    if len(probs) != len(outcomes):
        raise ValueError(f"probs and outcomes differ in length ({len(probs)} and {len(outcomes)})")
    if not probs:
        raise ValueError("probs and outcomes are empty")
    pairs: list[tuple[float, int]] = []
    for i, (p, o) in enumerate(zip(probs, outcomes, strict=True)):
        if isinstance(p, bool) or not isinstance(p, numbers.Real):
            raise ValueError(f"probs[{i}] must be a number, got {p!r}")
        if not math.isfinite(p) or not 0 <= p <= 1:
            raise ValueError(f"probs[{i}] must be a probability in [0, 1], got {p!r}")
        if o not in (0, 1) or (isinstance(o, float) and not o.is_integer()):
            raise ValueError(f"outcomes[{i}] must be 0/1 or a bool, got {o!r}")
        pairs.append((float(p), int(o)))
    return pairs


def brier_score(probs: Sequence[float], outcomes: Sequence[bool | int]) -> float:
    """Mean squared difference between each predicted probability and its outcome
    (1 if the event happened, else 0). 0 is perfect; always predicting 0.5 scores 0.25.
    """
    pairs = _probabilities(probs, outcomes)
    return math.fsum((p - o) ** 2 for p, o in pairs) / len(pairs)


@dataclass(frozen=True)
class ReliabilityBin:
    """One bin of a reliability table: forecasts whose probability lies in
    ``[lower, upper)`` (the last bin also holds ``upper`` itself).

    ``mean_predicted`` is the mean forecast probability in the bin and
    ``observed_frequency`` the share of those forecasts whose event happened; both
    are ``None`` for an empty bin. A calibrated forecaster has the two close together.
    """

    lower: float
    upper: float
    count: int
    mean_predicted: float | None
    observed_frequency: float | None


def _bins(bins: int) -> int:
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise ValueError(f"bins must be a positive integer, got {bins!r}")
    return bins


def reliability_table(
    probs: Sequence[float], outcomes: Sequence[bool | int], bins: int = 10
) -> list[ReliabilityBin]:
    """Reliability table: ``bins`` equal-width bins over [0, 1], every bin listed (empty
    ones with ``count = 0``). Bin ``i`` holds probabilities ``p`` with
    ``i / bins <= p < (i + 1) / bins``; ``p = 1`` goes to the last bin.
    """
    pairs = _probabilities(probs, outcomes)
    bins = _bins(bins)
    members: list[list[tuple[float, int]]] = [[] for _ in range(bins)]
    for p, o in pairs:
        members[min(bins - 1, math.floor(p * bins))].append((p, o))
    table: list[ReliabilityBin] = []
    for i, group in enumerate(members):
        count = len(group)
        table.append(
            ReliabilityBin(
                lower=i / bins,
                upper=(i + 1) / bins,
                count=count,
                mean_predicted=math.fsum(p for p, _ in group) / count if count else None,
                observed_frequency=sum(o for _, o in group) / count if count else None,
            )
        )
    return table


def expected_calibration_error(
    probs: Sequence[float], outcomes: Sequence[bool | int], bins: int = 10
) -> float:
    """Expected calibration error over the reliability table's bins: the mean, weighted
    by bin size, of ``|mean_predicted - observed_frequency|``."""
    table = reliability_table(probs, outcomes, bins)
    total = sum(row.count for row in table)
    return (
        math.fsum(
            row.count * abs(row.mean_predicted - row.observed_frequency)
            for row in table
            if row.mean_predicted is not None and row.observed_frequency is not None
        )
        / total
    )
