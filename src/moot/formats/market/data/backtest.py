"""Scoring a backtest: pure functions over per-snapshot rows (no model, no engine).

- ``direction_from_totals``: a direction and P(up) from the bull and bear totals.
- ``summarise``: directional accuracy of moot and of the single-agent baseline with
  Wilson intervals, McNemar's exact test between them, Brier scores and reliability
  tables of the stated P(up).
- ``grid_search_weights``: the judge's dimension weights (logic, evidence, clarity,
  persuasiveness) chosen on the earlier snapshots and scored on the later ones.

Definitions are in docs/market.md, "Backtest scoring".
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final, Literal, Protocol, TypeVar

from moot.stats import (
    ReliabilityBin,
    brier_score,
    mcnemar_exact,
    reliability_table,
    wilson_interval,
)

Direction = Literal["up", "down"]
DIRECTIONS: Final = ("up", "down")
MARKET_DIMENSIONS: Final = ("logic", "evidence", "clarity", "persuasiveness")
DEFAULT_WEIGHTS: Final[Mapping[str, float]] = {
    "logic": 0.30,
    "evidence": 0.30,
    "clarity": 0.20,
    "persuasiveness": 0.20,
}


def direction_from_totals(bull: float, bear: float) -> tuple[Direction, float]:
    """The forecast a verdict implies: ``up`` exactly when the bull total is higher,
    and ``P(up) = bull / (bull + bear)`` (0.5 when both are 0). Totals are
    non-negative scores on one scale (e.g. weighted 1-10 scores)."""
    for name, value in (("bull", bull), ("bear", bear)):
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"{name} total must be a finite number >= 0, got {value!r}")
    total = bull + bear
    p_up = 0.5 if total == 0 else bull / total
    return ("up" if bull > bear else "down"), p_up


def _probability(value: float, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")


def contradicts(direction: str, p_up: float) -> bool:
    """Whether a direction contradicts its own P(up): ``up`` below 0.5, ``down`` above."""
    return (direction == "up" and p_up < 0.5) or (direction == "down" and p_up > 0.5)


@dataclass(frozen=True)
class SnapshotRow:
    """One snapshot's forecasts by moot and by the single-agent baseline, and what
    happened (``actual_return_pct`` from ``as_of`` to ``end_date``)."""

    id: str
    as_of: dt.date
    predicted: Direction
    actual: Direction
    confidence_up: float
    baseline_predicted: Direction
    baseline_confidence_up: float
    target: str = ""
    end_date: dt.date | None = None
    actual_return_pct: float | None = None
    stated_confidence_up: float | None = None
    """moot's P(up) from its analysts' stated confidences (``stated_p_up``)."""

    def __post_init__(self) -> None:
        for name in ("predicted", "actual", "baseline_predicted"):
            if getattr(self, name) not in DIRECTIONS:
                raise ValueError(f"row {self.id}: {name} must be up or down")
        _probability(self.confidence_up, f"row {self.id}: confidence_up")
        _probability(self.baseline_confidence_up, f"row {self.id}: baseline_confidence_up")
        if self.stated_confidence_up is not None:
            _probability(self.stated_confidence_up, f"row {self.id}: stated_confidence_up")
        if self.actual_return_pct is not None and (
            not math.isfinite(self.actual_return_pct) or self.actual_return_pct <= -100
        ):
            raise ValueError(f"row {self.id}: actual_return_pct must be finite and above -100")

    @property
    def baseline_contradicts(self) -> bool:
        """The baseline's direction contradicts its own P(up): excluded from its scoring."""
        return contradicts(self.baseline_predicted, self.baseline_confidence_up)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["as_of"] = self.as_of.isoformat()
        data["end_date"] = self.end_date.isoformat() if self.end_date else None
        data["baseline_contradicts"] = self.baseline_contradicts
        return data


STOOD: Final = "UPHELD"
"""The standing that counts as the argument having stood; ``WEAKENED`` and
``REFUTED`` count as not, ``UNCERTAIN`` (the judge could not tell) as neither."""


@dataclass(frozen=True)
class ArgumentRow:
    """One opening argument of a snapshot's debate, as the calibration of stated
    confidence reads it: the analyst, its side, its stated confidence (0-1), the
    judge's final standing of the argument and whether its side was right."""

    snapshot: str
    agent: str
    side: str
    confidence: float
    standing: str
    right: bool

    @property
    def stood(self) -> bool | None:
        """True when upheld, False when weakened or refuted, None when uncertain."""
        return None if self.standing == "UNCERTAIN" else self.standing == STOOD

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "stood": self.stood}


def stated_p_up(confidences: Sequence[tuple[str, float]]) -> float | None:
    """P(up) from the analysts' stated confidences: the mean over arguments of the
    confidence of a bull argument and one minus that of a bear argument (``None``
    without arguments)."""
    if not confidences:
        return None
    return math.fsum(c if side == "bull" else 1 - c for side, c in confidences) / len(confidences)


@dataclass(frozen=True)
class BacktestSummary:
    """The figures of a backtest (see ``summarise``)."""

    n: int
    confidence: float
    accuracy: float
    accuracy_interval: tuple[float, float]
    baseline_accuracy: float | None
    baseline_accuracy_interval: tuple[float, float]
    baseline_n: int
    """Rows the baseline is scored on: those whose direction agrees with its P(up)."""
    baseline_excluded: tuple[str, ...]
    """Ids of the rows whose baseline direction contradicts its P(up) (``up`` with
    P(up) < 0.5, ``down`` above): left out of the baseline's figures and McNemar's."""
    moot_only_correct: int  # McNemar's b: moot right, baseline wrong
    baseline_only_correct: int  # McNemar's c: baseline right, moot wrong
    mcnemar_p: float
    brier: float
    baseline_brier: float | None
    reliability: tuple[ReliabilityBin, ...]
    baseline_reliability: tuple[ReliabilityBin, ...]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("accuracy_interval", "baseline_accuracy_interval", "baseline_excluded"):
            data[key] = list(data[key])
        return data


def summarise(
    rows: Sequence[SnapshotRow], *, confidence: float = 0.95, bins: int = 10
) -> BacktestSummary:
    """Accuracy (share of rows whose prediction equals the actual direction) of moot
    and the baseline with Wilson intervals at ``confidence``; McNemar's exact p from
    the rows where exactly one of them is right; Brier scores of ``confidence_up``
    against [actual is up]; reliability tables with ``bins`` equal-width bins. A row
    whose baseline direction contradicts its P(up) is left out of the baseline's
    figures and McNemar's, and counted (``baseline_excluded``); with every row left
    out, the baseline's accuracy and Brier score are ``None``."""
    if not rows:
        raise ValueError("no snapshot rows to summarise")
    ids = [r.id for r in rows]
    if len(set(ids)) != len(ids):
        raise ValueError("two rows share a snapshot id")
    n = len(rows)
    right = [r.predicted == r.actual for r in rows]
    up = [r.actual == "up" for r in rows]
    kept = [r for r in rows if not r.baseline_contradicts]
    paired = [(r.predicted == r.actual, r.baseline_predicted == r.actual) for r in kept]
    base_right = sum(s for _, s in paired)
    b = sum(m and not s for m, s in paired)
    c = sum(s and not m for m, s in paired)
    probs = [r.confidence_up for r in rows]
    base_probs = [r.baseline_confidence_up for r in kept]
    base_up = [r.actual == "up" for r in kept]
    return BacktestSummary(
        n=n,
        confidence=confidence,
        accuracy=sum(right) / n,
        accuracy_interval=wilson_interval(sum(right), n, confidence),
        baseline_accuracy=base_right / len(kept) if kept else None,
        baseline_accuracy_interval=wilson_interval(base_right, len(kept), confidence),
        baseline_n=len(kept),
        baseline_excluded=tuple(r.id for r in rows if r.baseline_contradicts),
        moot_only_correct=b,
        baseline_only_correct=c,
        mcnemar_p=mcnemar_exact(b, c),
        brier=brier_score(probs, up),
        baseline_brier=brier_score(base_probs, base_up) if kept else None,
        reliability=tuple(reliability_table(probs, up, bins)),
        baseline_reliability=tuple(reliability_table(base_probs, base_up, bins)) if kept else (),
    )


@dataclass(frozen=True)
class ScoredSnapshot:
    """A snapshot's judge scores: the mean of each dimension (1-10) over the bull side's
    arguments and over the bear side's, with the actual direction."""

    id: str
    as_of: dt.date
    actual: Direction
    bull: Mapping[str, float]
    bear: Mapping[str, float]

    def __post_init__(self) -> None:
        if self.actual not in DIRECTIONS:
            raise ValueError(f"snapshot {self.id}: actual must be up or down")
        for side in ("bull", "bear"):
            scores = getattr(self, side)
            if set(scores) != set(MARKET_DIMENSIONS):
                raise ValueError(
                    f"snapshot {self.id}: {side} scores must give exactly"
                    f" {', '.join(MARKET_DIMENSIONS)}"
                )
            if not all(math.isfinite(v) and v >= 0 for v in scores.values()):
                raise ValueError(f"snapshot {self.id}: {side} scores must be finite and >= 0")

    def forecast(self, weights: Mapping[str, float]) -> tuple[Direction, float]:
        """Direction and P(up) under ``weights`` (``direction_from_totals`` of the
        weighted bull and bear scores)."""
        bull = math.fsum(weights[d] * self.bull[d] for d in MARKET_DIMENSIONS)
        bear = math.fsum(weights[d] * self.bear[d] for d in MARKET_DIMENSIONS)
        return direction_from_totals(bull, bear)


def simplex_grid(step: float = 0.1) -> list[dict[str, float]]:
    """Every weighting of the four dimensions whose weights are multiples of ``step``
    and sum to 1 (286 weightings for 0.1, 1771 for 0.05)."""
    if not 0 < step <= 1:
        raise ValueError(f"step must be in (0, 1], got {step!r}")
    units = round(1 / step)
    if abs(units * step - 1) > 1e-9:
        raise ValueError(f"step must divide 1 evenly (0.1, 0.05, 0.25 ...), got {step!r}")
    grid = []
    for a, b, c in itertools.product(range(units + 1), repeat=3):
        d = units - a - b - c
        if d >= 0:
            grid.append(
                dict(
                    zip(
                        MARKET_DIMENSIONS, (round(x / units, 10) for x in (a, b, c, d)), strict=True
                    )
                )
            )
    return grid


class _Dated(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def as_of(self) -> dt.date: ...


DatedRow = TypeVar("DatedRow", bound=_Dated)


def split_by_date(
    rows: Sequence[DatedRow], train_fraction: float
) -> tuple[list[DatedRow], list[DatedRow]]:
    """Earlier rows for training, later for testing. Whole dates go to one side: the
    training set takes the earliest dates until it holds at least ``train_fraction`` of
    the rows, and always leaves at least one date for testing."""
    if not 0 < train_fraction < 1:
        raise ValueError(f"train_fraction must be in (0, 1), got {train_fraction!r}")
    dates = sorted({r.as_of for r in rows})
    if len(dates) < 2:
        raise ValueError("a train/test split by date needs snapshots on at least 2 dates")
    ordered = sorted(rows, key=lambda r: (r.as_of, r.id))
    cutoff = dates[0]
    for day in dates[:-1]:
        cutoff = day
        if sum(r.as_of <= day for r in ordered) >= train_fraction * len(ordered):
            break
    return [r for r in ordered if r.as_of <= cutoff], [r for r in ordered if r.as_of > cutoff]


def _evaluate(rows: Sequence[ScoredSnapshot], weights: Mapping[str, float]) -> tuple[int, float]:
    """(correct forecasts, Brier score) of ``weights`` on ``rows``."""
    forecasts = [r.forecast(weights) for r in rows]
    correct = sum(f[0] == r.actual for f, r in zip(forecasts, rows, strict=True))
    return correct, brier_score([f[1] for f in forecasts], [r.actual == "up" for r in rows])


@dataclass(frozen=True)
class WeightSearch:
    """The chosen weights and how they did in and out of sample."""

    weights: dict[str, float]
    step: float
    candidates: int
    split_date: dt.date  # the last training date
    train_n: int
    test_n: int
    train_accuracy: float
    test_accuracy: float
    test_accuracy_interval: tuple[float, float]
    test_brier: float
    default_weights: dict[str, float]
    default_test_accuracy: float
    default_test_brier: float

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["split_date"] = self.split_date.isoformat()
        data["test_accuracy_interval"] = list(self.test_accuracy_interval)
        return data


def grid_search_weights(
    rows: Sequence[ScoredSnapshot],
    *,
    train_fraction: float = 0.6,
    step: float = 0.1,
    confidence: float = 0.95,
) -> WeightSearch:
    """Choose the judge's dimension weights on the earlier snapshots, report them on the
    later ones.

    Every weighting of ``simplex_grid(step)`` forecasts each training snapshot
    (``ScoredSnapshot.forecast``); the one with the most correct directions wins, ties
    going to the lower Brier score, then to the weighting closest (L1) to the default
    30/30/20/20, then to the first in grid order. The winner, and for comparison the
    default weights, are then scored on the test snapshots, which took no part in the
    choice.
    """
    if not rows:
        raise ValueError("no scored snapshots to search weights on")
    ids = [r.id for r in rows]
    if len(set(ids)) != len(ids):
        raise ValueError("two scored snapshots share an id")
    train, test = split_by_date(rows, train_fraction)
    grid = simplex_grid(step)

    def rank(weights: Mapping[str, float]) -> tuple[int, float, float]:
        correct, brier = _evaluate(train, weights)
        distance = math.fsum(abs(weights[d] - DEFAULT_WEIGHTS[d]) for d in MARKET_DIMENSIONS)
        return (-correct, brier, round(distance, 9))

    best = min(grid, key=rank)  # min keeps the first of equals: grid order breaks ties
    train_correct, _ = _evaluate(train, best)
    test_correct, test_brier = _evaluate(test, best)
    default_correct, default_brier = _evaluate(test, DEFAULT_WEIGHTS)
    return WeightSearch(
        weights=dict(best),
        step=step,
        candidates=len(grid),
        split_date=max(r.as_of for r in train),
        train_n=len(train),
        test_n=len(test),
        train_accuracy=train_correct / len(train),
        test_accuracy=test_correct / len(test),
        test_accuracy_interval=wilson_interval(test_correct, len(test), confidence),
        test_brier=test_brier,
        default_weights=dict(DEFAULT_WEIGHTS),
        default_test_accuracy=default_correct / len(test),
        default_test_brier=default_brier,
    )
