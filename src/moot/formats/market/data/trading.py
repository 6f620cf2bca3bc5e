"""A trader's reading of a backtest: what following a forecast would have earned,
and how well stated probabilities match outcomes. Pure functions over numbers.

**Strategies.** Each snapshot is one holding period: the target's return ``R_t``
from ``as_of`` to ``end_date``. A strategy holds position ``p_t`` (1 long, 0 flat,
-1 short) over period t and earns ``r_t = p_t R_t - cost |p_t - p_(t-1)|`` (``cost``
a fraction per unit of position changed, 0 by default; ``p_0`` is flat). From the
``r_t``: total return ``prod(1 + r_t) - 1``; annualised return
``prod(1 + r_t)^(k / n) - 1`` with ``k`` periods a year (a year of bars divided by
the horizon); volatility ``stdev(r_t) sqrt(k)`` (sample standard deviation); Sharpe
``mean(r_t - rf / k) / stdev(r_t) sqrt(k)`` (``rf`` the yearly risk-free rate, 0
unless given; none when the deviation is 0); maximum drawdown, the largest fall of
the equity curve ``E_t = prod_(i<=t)(1 + r_i)`` (``E_0 = 1``) from its running
peak, ``max(1 - E_t / max_(s<=t) E_s)``; hit rate, the share of the periods with a
position whose ``p_t R_t`` is above 0. Periods must not overlap (a horizon longer
than the step between snapshots compounds the same days twice):
``non_overlapping`` says whether they do.

**Calibration.** ``brier_decomposition``: Murphy's decomposition over equal-width
bins, ``reliability = sum n_k (mean p_k - o_k)^2 / N``, ``resolution = sum n_k (o_k -
o)^2 / N``, ``uncertainty = o (1 - o)``; ``brier ~ reliability - resolution +
uncertainty`` (exactly when the probabilities are constant within each bin).
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from moot.stats import brier_score, expected_calibration_error, reliability_table


@dataclass(frozen=True)
class StrategyFigures:
    """One strategy's figures (returns, volatility and drawdown in percent)."""

    periods: int
    total_return_pct: float
    annualised_return_pct: float
    volatility_pct: float | None
    sharpe: float | None
    max_drawdown_pct: float
    hit_rate: float | None
    invested_periods: int
    equity: tuple[float, ...]
    """The equity curve after each period, starting at 1."""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["equity"] = list(self.equity)
        return data


def net_returns(positions: Sequence[float], returns: Sequence[float], cost: float) -> list[float]:
    """Each period's return of a strategy: ``p_t R_t - cost |p_t - p_(t-1)|``
    (fractions, ``p_0`` flat)."""
    if len(positions) != len(returns):
        raise ValueError("positions and returns must have the same length")
    if not math.isfinite(cost) or cost < 0:
        raise ValueError(f"cost must be a finite fraction >= 0, got {cost!r}")
    out, before = [], 0.0
    for p, r in zip(positions, returns, strict=True):
        out.append(p * r - cost * abs(p - before))
        before = p
    return out


def max_drawdown(equity: Sequence[float]) -> float:
    """The largest fall from a running peak, as a fraction (0 when it never falls)."""
    peak, worst = -math.inf, 0.0
    for value in equity:
        peak = max(peak, value)
        worst = max(worst, 1 - value / peak)
    return worst


def strategy_figures(
    positions: Sequence[float],
    returns: Sequence[float],
    periods_per_year: float,
    *,
    cost: float = 0.0,
    risk_free: float = 0.0,
) -> StrategyFigures:
    """The figures of holding ``positions`` over periods returning ``returns``
    (fractions; see the module docstring)."""
    if not returns:
        raise ValueError("no period to compute a strategy over")
    if periods_per_year <= 0:
        raise ValueError("periods_per_year must be above 0")
    net = net_returns(positions, returns, cost)
    equity = [1.0, *itertools.accumulate((1 + r for r in net), lambda a, b: a * b)]
    n = len(net)
    final = equity[-1]
    annual = final ** (periods_per_year / n) - 1 if final > 0 else -1.0
    sd = statistics.stdev(net) if n > 1 else None
    excess = statistics.fmean(r - risk_free / periods_per_year for r in net)
    invested = [p * r for p, r in zip(positions, returns, strict=True) if p != 0]
    return StrategyFigures(
        periods=n,
        total_return_pct=(final - 1) * 100,
        annualised_return_pct=annual * 100,
        volatility_pct=sd * math.sqrt(periods_per_year) * 100 if sd is not None else None,
        sharpe=excess / sd * math.sqrt(periods_per_year) if sd else None,
        max_drawdown_pct=max_drawdown(equity) * 100,
        hit_rate=sum(x > 0 for x in invested) / len(invested) if invested else None,
        invested_periods=len(invested),
        equity=tuple(equity),
    )


def non_overlapping(periods: Sequence[tuple[dt.date, dt.date]]) -> bool:
    """Whether each (start, end) period, in order, starts on or after the previous
    one's end."""
    return all(b[0] >= a[1] for a, b in itertools.pairwise(periods))


@dataclass(frozen=True)
class Calibration:
    """How stated probabilities match outcomes (see the module docstring)."""

    n: int
    brier: float
    ece: float
    reliability: float
    resolution: float
    uncertainty: float
    table: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["table"] = list(self.table)
        return data


def brier_decomposition(
    probs: Sequence[float], outcomes: Sequence[bool], bins: int = 10
) -> tuple[float, float, float]:
    """(reliability, resolution, uncertainty) over ``bins`` equal-width bins."""
    n = len(probs)
    if n == 0:
        raise ValueError("no probability to decompose")
    base = sum(outcomes) / n
    rel = res = 0.0
    for b in reliability_table(probs, outcomes, bins):
        if b.count and b.mean_predicted is not None and b.observed_frequency is not None:
            rel += b.count * (b.mean_predicted - b.observed_frequency) ** 2
            res += b.count * (b.observed_frequency - base) ** 2
    return rel / n, res / n, base * (1 - base)


def calibration(probs: Sequence[float], outcomes: Sequence[bool], bins: int = 10) -> Calibration:
    """Brier score, ECE, Murphy's decomposition and the reliability table."""
    rel, res, unc = brier_decomposition(probs, outcomes, bins)
    return Calibration(
        n=len(probs),
        brier=brier_score(probs, outcomes),
        ece=expected_calibration_error(probs, outcomes, bins),
        reliability=rel,
        resolution=res,
        uncertainty=unc,
        table=tuple(asdict(b) for b in reliability_table(probs, outcomes, bins) if b.count),
    )


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


def fit_platt(
    x: Sequence[float], y: Sequence[bool], *, ridge: float = 1e-2, iterations: int = 100
) -> tuple[float, float]:
    """Platt scaling: ``(a, b)`` of ``P = 1 / (1 + exp(-(a x + b)))`` fitted by Newton's
    method on the log-loss, with an L2 penalty ``ridge a^2 / 2`` so that separable
    data still give a finite slope."""
    if not x or len(x) != len(y):
        raise ValueError("Platt scaling needs as many outcomes as scores, at least one")
    a = b = 0.0
    for _ in range(iterations):
        ga, gb, haa, hab, hbb = ridge * a, 0.0, ridge, 0.0, 1e-9
        for xi, yi in zip(x, y, strict=True):
            p = _sigmoid(a * xi + b)
            r, w = p - float(yi), p * (1 - p)
            ga, gb = ga + r * xi, gb + r
            haa, hab, hbb = haa + w * xi * xi, hab + w * xi, hbb + w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    return a, b


def platt(a: float, b: float, x: float) -> float:
    """The calibrated probability of score ``x``."""
    return _sigmoid(a * x + b)
