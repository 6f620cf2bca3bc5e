"""The trader's report of a backtest: strategies and calibration from its rows.

``trader_report`` takes the backtest's rows (``SnapshotRow``, each with its target,
``end_date`` and ``actual_return_pct``) and gives, per target ticker, the figures of
five strategies (``moot.formats.market.data.trading``):

- ``buy_and_hold``: long every period;
- ``moot_long_flat`` / ``moot_long_short``: long when moot forecasts up, else flat
  (or short);
- ``baseline_long_flat`` / ``baseline_long_short``: the same on the single-agent
  baseline's direction; a row whose baseline contradicts itself holds flat (it gave
  no usable signal).

Strategies need the periods of one ticker not to overlap; where they do, that
ticker's entry says so instead of giving figures. Calibration is computed over
every row: moot's P(up) from the verdict's quality totals (``moot_quality``), moot's
P(up) from its analysts' stated confidences (``moot_stated``), the baseline's stated
P(up) on its consistent rows (``baseline``), moot's quality ratio calibrated by Platt
scaling on the earlier dates and scored on the later ones beside the raw ratio
(``moot_platt``), and each opening argument's stated confidence against whether its
side was right (``analysts``) and against whether the judge upheld it
(``analysts_standing``: ``UPHELD`` counts as standing, ``WEAKENED`` and ``REFUTED``
as not, ``UNCERTAIN`` standings are left out and counted), overall and per analyst
(``per_analyst``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moot.formats.market.data.backtest import ArgumentRow, SnapshotRow, split_by_date
from moot.formats.market.data.trading import (
    calibration,
    fit_platt,
    non_overlapping,
    platt,
    strategy_figures,
)
from moot.stats import brier_score, expected_calibration_error

POSITIONS = ("long_flat", "long_short")


def _position(direction: str, how: str) -> float:
    if direction == "up":
        return 1.0
    return 0.0 if how == "long_flat" else -1.0


def strategies(
    rows: Sequence[SnapshotRow],
    periods_per_year: float,
    *,
    cost: float = 0.0,
    risk_free: float = 0.0,
) -> dict[str, Any]:
    """The strategies of one ticker's rows, oldest first (see the module docstring)."""
    ordered = sorted(rows, key=lambda r: r.as_of)
    if any(r.end_date is None or r.actual_return_pct is None for r in ordered):
        return {"note": "rows without end_date and actual_return_pct: no strategy figures"}
    spans = [(r.as_of, r.end_date) for r in ordered if r.end_date is not None]
    if not non_overlapping(spans):
        return {
            "note": "the snapshots' holding periods overlap (horizon longer than the step"
            " between snapshots): no strategy figures"
        }
    returns = [(r.actual_return_pct or 0.0) / 100 for r in ordered]
    signals: dict[str, list[float]] = {"buy_and_hold": [1.0] * len(ordered)}
    for how in POSITIONS:
        signals[f"moot_{how}"] = [_position(r.predicted, how) for r in ordered]
        signals[f"baseline_{how}"] = [
            0.0 if r.baseline_contradicts else _position(r.baseline_predicted, how) for r in ordered
        ]
    return {
        name: strategy_figures(
            positions, returns, periods_per_year, cost=cost, risk_free=risk_free
        ).to_json()
        for name, positions in signals.items()
    }


def platt_out_of_sample(rows: Sequence[SnapshotRow], train_fraction: float = 0.6) -> dict[str, Any]:
    """moot's P(up) calibrated by Platt scaling of its quality ratio
    (``confidence_up - 0.5``), fitted on the earlier dates (``split_by_date``) and
    scored on the later ones beside the raw ratio: Brier, ECE and accuracy of each on
    the test rows. A ``note`` instead when the split or the fit cannot be made."""
    if len({r.as_of for r in rows}) < 2:
        return {"note": "Platt scaling needs snapshots on at least 2 dates"}
    train, test = split_by_date(rows, train_fraction)
    if len({r.actual for r in train}) < 2:
        return {"note": "the training dates hold one direction only: no Platt fit"}
    a, b = fit_platt([r.confidence_up - 0.5 for r in train], [r.actual == "up" for r in train])
    fitted = [platt(a, b, r.confidence_up - 0.5) for r in test]
    raw = [r.confidence_up for r in test]
    up = [r.actual == "up" for r in test]
    return {
        "a": a,
        "b": b,
        "split_date": max(r.as_of for r in train).isoformat(),
        "train_n": len(train),
        "test_n": len(test),
        "test_brier": brier_score(fitted, up),
        "test_ece": expected_calibration_error(fitted, up),
        "test_accuracy": sum((p > 0.5) == u for p, u in zip(fitted, up, strict=True)) / len(test),
        "raw_test_brier": brier_score(raw, up),
        "raw_test_ece": expected_calibration_error(raw, up),
        "raw_test_accuracy": sum((p > 0.5) == u for p, u in zip(raw, up, strict=True)) / len(test),
    }


def _confidence_against(
    arguments: Sequence[ArgumentRow],
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Calibration of the arguments' stated confidence against the outcome and against
    the judge's standing (with the uncertain standings counted)."""
    if not arguments:
        return None, None
    outcome = calibration([a.confidence for a in arguments], [a.right for a in arguments])
    judged = [a for a in arguments if a.stood is not None]
    standing: dict[str, Any] = (
        calibration([a.confidence for a in judged], [bool(a.stood) for a in judged]).to_json()
        if judged
        else {"n": 0}
    )
    standing["uncertain"] = len(arguments) - len(judged)
    return outcome.to_json(), standing


def per_analyst(arguments: Sequence[ArgumentRow]) -> dict[str, Any]:
    """Per analyst: its arguments, mean stated confidence, the share whose side was
    right and the share upheld (of those the judge could tell), and the Brier score
    and ECE of its confidence against each (``outcome``, ``standing``)."""
    by_agent: dict[str, list[ArgumentRow]] = {}
    for a in arguments:
        by_agent.setdefault(a.agent, []).append(a)
    out: dict[str, Any] = {}
    for agent, own in by_agent.items():
        outcome, standing = _confidence_against(own)
        judged = [a for a in own if a.stood is not None]
        out[agent] = {
            "side": own[0].side,
            "n": len(own),
            "mean_confidence": sum(a.confidence for a in own) / len(own),
            "right_rate": sum(a.right for a in own) / len(own),
            "upheld_rate": sum(bool(a.stood) for a in judged) / len(judged) if judged else None,
            "outcome": {k: (outcome or {}).get(k) for k in ("brier", "ece")},
            "standing": {k: (standing or {}).get(k) for k in ("n", "brier", "ece", "uncertain")},
        }
    return out


def trader_report(
    rows: Sequence[SnapshotRow],
    periods_per_year: dict[str, float],
    *,
    arguments: Sequence[ArgumentRow] = (),
    cost: float = 0.0,
    risk_free: float = 0.0,
) -> dict[str, Any]:
    """Strategies per target (``periods_per_year`` by target: a year of bars over the
    horizon) and calibration (``arguments``: every opening argument, its stated
    confidence, standing and whether its side was right)."""
    by_target: dict[str, list[SnapshotRow]] = {}
    for row in rows:
        by_target.setdefault(row.target, []).append(row)
    up = [r.actual == "up" for r in rows]
    kept = [r for r in rows if not r.baseline_contradicts]
    stated = [r for r in rows if r.stated_confidence_up is not None]
    against_outcome, against_standing = _confidence_against(arguments)
    calib: dict[str, Any] = {
        "moot_quality": calibration([r.confidence_up for r in rows], up).to_json(),
        "moot_stated": calibration(
            [r.stated_confidence_up or 0.0 for r in stated], [r.actual == "up" for r in stated]
        ).to_json()
        if stated
        else None,
        "baseline": calibration(
            [r.baseline_confidence_up for r in kept], [r.actual == "up" for r in kept]
        ).to_json()
        if kept
        else None,
        "moot_platt": platt_out_of_sample(rows),
        "analysts": against_outcome,
        "analysts_standing": against_standing,
        "per_analyst": per_analyst(arguments),
    }
    return {
        "cost": cost,
        "risk_free": risk_free,
        "strategies": {
            target: {
                "periods_per_year": periods_per_year[target],
                **strategies(own, periods_per_year[target], cost=cost, risk_free=risk_free),
            }
            for target, own in by_target.items()
        },
        "calibration": calib,
    }
