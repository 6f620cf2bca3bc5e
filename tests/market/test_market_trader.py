"""Strategies, calibration and contradictory rows, on numbers worked out by hand."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from moot.formats.market.data.backtest import SnapshotRow, stated_p_up, summarise
from moot.formats.market.data.trader import trader_report
from moot.formats.market.data.trading import (
    brier_decomposition,
    fit_platt,
    max_drawdown,
    net_returns,
    strategy_figures,
)


def row(n: int, predicted: str, actual_pct: float, base: str, base_p: float) -> SnapshotRow:
    start = dt.date(2020, 1, 1) + dt.timedelta(days=30 * n)
    return SnapshotRow(
        id=f"X_{start}",
        as_of=start,
        predicted=predicted,  # type: ignore[arg-type]
        actual="up" if actual_pct > 0 else "down",
        confidence_up=0.6 if predicted == "up" else 0.4,
        baseline_predicted=base,  # type: ignore[arg-type]
        baseline_confidence_up=base_p,
        target="X",
        end_date=start + dt.timedelta(days=30),
        actual_return_pct=actual_pct,
    )


def test_strategy_figures_by_hand() -> None:
    # +10%, -20%, +10% held long: equity 1.1, 0.88, 0.968
    figures = strategy_figures([1, 1, 1], [0.1, -0.2, 0.1], 12)
    assert figures.equity == pytest.approx((1.0, 1.1, 0.88, 0.968))
    assert figures.total_return_pct == pytest.approx(-3.2)
    assert figures.annualised_return_pct == pytest.approx((0.968**4 - 1) * 100)
    assert figures.max_drawdown_pct == pytest.approx(20.0)  # 1.1 -> 0.88
    sd = math.sqrt(((0.1 - 0) ** 2 + (-0.2 - 0) ** 2 + (0.1 - 0) ** 2) / 2)
    assert figures.volatility_pct == pytest.approx(sd * math.sqrt(12) * 100)
    assert figures.sharpe == pytest.approx(0.0)
    assert figures.hit_rate == pytest.approx(2 / 3)
    # flat in the loss: no drawdown, hit rate over the two invested periods
    flat = strategy_figures([1, 0, 1], [0.1, -0.2, 0.1], 12)
    assert flat.total_return_pct == pytest.approx(21.0)
    assert flat.max_drawdown_pct == 0.0
    assert flat.hit_rate == 1.0
    assert flat.invested_periods == 2


def test_costs_are_charged_on_position_changes() -> None:
    # flat -> long (1 unit), long -> short (2 units), short -> short (0)
    assert net_returns([1, -1, -1], [0.1, 0.1, -0.1], 0.01) == pytest.approx(
        [0.1 - 0.01, -0.1 - 0.02, 0.1]
    )
    assert max_drawdown([1.0, 1.2, 0.9, 1.5, 1.2]) == pytest.approx(0.25)


def test_contradictory_baseline_rows_are_left_out_and_counted() -> None:
    """The baseline said up with P(up) = 0 on every row (the issue's case): it used to
    score a Brier of 0.0 at 0% accuracy. Removing the guard (``contradicts`` always
    False) makes this test fail on baseline_n and baseline_brier."""
    rows = [row(n, "up", -1.0, "up", 0.0) for n in range(4)]
    rows.append(row(4, "down", -1.0, "down", 0.2))
    summary = summarise(rows)
    assert summary.baseline_excluded == tuple(r.id for r in rows[:4])
    assert summary.baseline_n == 1
    assert summary.baseline_accuracy == 1.0
    assert summary.baseline_brier == pytest.approx(0.04)
    assert summary.accuracy == pytest.approx(1 / 5)  # moot's rows all count
    every = summarise(rows[:4])
    assert every.baseline_accuracy is None
    assert every.baseline_brier is None
    report = trader_report(rows, {"X": 12.0})
    # the contradictory rows hold flat in the baseline's strategies
    assert report["strategies"]["X"]["baseline_long_short"]["invested_periods"] == 1
    assert report["calibration"]["baseline"]["n"] == 1


def test_stated_probability_and_brier_decomposition() -> None:
    assert stated_p_up([("bull", 0.8), ("bear", 0.6)]) == pytest.approx((0.8 + 0.4) / 2)
    assert stated_p_up([]) is None
    probs, outcomes = [0.15, 0.15, 0.85, 0.85], [False, True, True, True]
    rel, res, unc = brier_decomposition(probs, outcomes)
    # bins [0.1, 0.2): mean 0.15, observed 0.5; [0.8, 0.9): mean 0.85, observed 1
    assert rel == pytest.approx((2 * 0.35**2 + 2 * 0.15**2) / 4)
    assert res == pytest.approx((2 * 0.25**2 + 2 * 0.25**2) / 4)
    assert unc == pytest.approx(0.75 * 0.25)
    brier = sum((p - o) ** 2 for p, o in zip(probs, outcomes, strict=True)) / 4
    assert brier == pytest.approx(rel - res + unc)  # constant within each bin


def test_overlapping_periods_give_a_note_not_figures() -> None:
    rows = [row(0, "up", 1.0, "up", 0.7), row(1, "up", 1.0, "up", 0.7)]
    overlapping = [
        SnapshotRow(**{**r.__dict__, "end_date": r.as_of + dt.timedelta(days=60)}) for r in rows
    ]
    assert "overlap" in trader_report(overlapping, {"X": 12.0})["strategies"]["X"]["note"]
    assert "buy_and_hold" in trader_report(rows, {"X": 12.0})["strategies"]["X"]


def test_platt_fit_matches_a_general_optimiser() -> None:
    from scipy.optimize import minimize

    x = [-0.2, -0.1, -0.05, 0.0, 0.02, 0.05, 0.1, 0.15, 0.2, -0.15]
    y = [False, False, True, False, True, False, True, True, True, False]
    ridge = 1e-2

    def loss(params: list[float]) -> float:
        a, b = params
        total = ridge * a * a / 2
        for xi, yi in zip(x, y, strict=True):
            p = 1 / (1 + math.exp(-(a * xi + b)))
            total -= math.log(p) if yi else math.log(1 - p)
        return total

    reference = minimize(loss, [0.0, 0.0], method="Nelder-Mead", options={"xatol": 1e-9})
    a, b = fit_platt(x, y, ridge=ridge)
    assert (a, b) == pytest.approx(tuple(reference.x), abs=1e-4)
    assert a > 0  # higher scores, more often up
    # separable data: the penalty keeps the slope finite
    a_sep, _ = fit_platt([-1.0, -0.5, 0.5, 1.0], [False, False, True, True])
    assert math.isfinite(a_sep)
    assert a_sep > 0
