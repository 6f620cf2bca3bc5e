"""The HTML report of a market backtest (``moot backtest ... --html FILE``): one
self-contained page in moot's page shell (its stylesheet allowed by hash, no script)
with the summary figures, an equity curve of the strategies per ticker, the
reliability diagram of moot's P(up) (raw, and Platt-calibrated beside the raw one on
the later snapshots when a Platt fit exists), and a table of the snapshots whose run
ids link to each debate's page in the viewer (``runs/<id>``, relative).

Every figure is read from the backtest's JSON (``BacktestReport.to_json``), so the page
shows what ``--json`` writes. Documented in docs/market.md, "Backtest"."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

from moot.formats.market.backtest import BacktestReport
from moot.formats.market.data.backtest import SnapshotRow, split_by_date
from moot.formats.market.data.trading import platt
from moot.formats.market.labels import labels as market_labels
from moot.report.html import charts
from moot.report.html.page import number, render
from moot.stats import reliability_table

STRATEGIES: Final = (
    ("moot_long_flat", "side-0"),
    ("moot_long_short", "side-2"),
    ("baseline_long_flat", "side-1"),
    ("baseline_long_short", "side-3"),
    ("buy_and_hold", "side-4"),
)
"""The strategies drawn, each with its line's colour class."""
FIGURES: Final = (
    ("total_return_pct", "bt.total"),
    ("annualised_return_pct", "bt.annual"),
    ("volatility_pct", "bt.volatility"),
    ("sharpe", "bt.sharpe"),
    ("max_drawdown_pct", "bt.drawdown"),
    ("hit_rate", "bt.hit"),
)
STEPS: Final = (0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
MAX_TICKS: Final = 8
PLATT_TRAIN: Final = 0.6
"""The training share of the Platt fit (``platt_out_of_sample``'s default)."""


def run_href(run_id: str) -> str:
    """The viewer's page of a run (``moot view`` serves ``/runs/<id>``), relative so it
    resolves beside the viewer's root."""
    return f"runs/{quote(run_id, safe='')}"


def equity_domain(values: Sequence[float]) -> tuple[float, float, float]:
    """The vertical axis of equity curves: a round step giving at most eight grid
    lines, and the bounds on whole steps around every value."""
    low, high = min([1.0, *values]), max([1.0, *values])
    step = next((s for s in STEPS if (high - low) / s <= 7), STEPS[-1])
    return round(math.floor(low / step) * step, 9), round(math.ceil(high / step) * step, 9), step


@dataclass(frozen=True)
class StrategyRow:
    name: str
    css: str
    figures: tuple[str, ...]


@dataclass(frozen=True)
class TickerView:
    target: str
    chart: charts.Chart | None
    rows: tuple[StrategyRow, ...]
    note: str


@dataclass(frozen=True)
class SnapshotLine:
    cells: tuple[str, ...]
    run_id: str
    href: str


def _ticker(target: str, entry: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
            labels: Mapping[str, str]) -> TickerView:  # fmt: skip
    """One ticker's equity chart and strategy table (a note when it has no figures)."""
    if "note" in entry:
        return TickerView(target, None, (), str(entry["note"]))
    ordered = sorted((r for r in rows if r["target"] == target), key=lambda r: str(r["as_of"]))
    steps = [str(ordered[0]["as_of"]), *(str(r["end_date"]) for r in ordered)]
    series = [
        charts.Series(labels[f"bt.strategy.{name}"], css, tuple(entry[name]["equity"]))
        for name, css in STRATEGIES
    ]
    low, high, step = equity_domain([v for s in series for v in s.values if v is not None])
    chart = charts.line_chart(
        labels["bt.equity_chart"].format(target=target),
        steps,
        series,
        (low, high),
        step=step,
        max_ticks=MAX_TICKS,
    )
    table = tuple(
        StrategyRow(
            labels[f"bt.strategy.{name}"],
            css,
            tuple(number(entry[name][key]) for key, _ in FIGURES),
        )
        for name, css in STRATEGIES
    )
    return TickerView(target, chart, table, "")


def _observed(probs: Sequence[float], ups: Sequence[bool]) -> tuple[float | None, ...]:
    return tuple(b.observed_frequency if b.count else None for b in reliability_table(probs, ups))


def reliability(
    report: BacktestReport, doc: Mapping[str, Any], labels: Mapping[str, str]
) -> charts.Chart:
    """The reliability diagram: each bin's share that went up for moot's raw P(up)
    over every snapshot and, when Platt scaling was fitted, for the raw and the
    calibrated P(up) on the later snapshots it was scored on; the diagonal beside."""
    bins = doc["summary"]["reliability"]
    steps = [f"{b['lower']:.1f}-{b['upper']:.1f}" for b in bins]
    series = [
        charts.Series(
            labels["bt.diagonal"], "", tuple((b["lower"] + b["upper"]) / 2 for b in bins)
        ),
        charts.Series(
            labels["bt.raw"].format(n=len(report.rows)),
            "side-0",
            tuple(b["observed_frequency"] if b["count"] else None for b in bins),
        ),
    ]
    fit = doc["trader"]["calibration"]["moot_platt"]
    if "a" in fit:
        _, test = split_by_date(report.rows, PLATT_TRAIN)
        ups = [r.actual == "up" for r in test]
        raw = [r.confidence_up for r in test]
        calibrated = [platt(fit["a"], fit["b"], r.confidence_up - 0.5) for r in test]
        series.append(
            charts.Series(labels["bt.raw_test"].format(n=len(test)), "side-3", _observed(raw, ups))
        )
        series.append(
            charts.Series(
                labels["bt.platt_test"].format(n=len(test)), "side-2", _observed(calibrated, ups)
            )
        )
    return charts.line_chart(labels["bt.reliability_chart"], steps, series, (0.0, 1.0), step=0.25)


def _summary(doc: Mapping[str, Any], labels: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """(figure, moot, baseline) rows of the summary table."""
    s = doc["summary"]
    calib = doc["trader"]["calibration"]

    def interval(pair: Sequence[float] | None) -> str:
        return "-" if pair is None else f"[{number(pair[0], 3)}, {number(pair[1], 3)}]"

    baseline = calib["baseline"]
    return [
        (labels["bt.n"], str(s["n"]), str(s["baseline_n"])),
        (labels["bt.accuracy"], number(s["accuracy"], 3), number(s["baseline_accuracy"], 3)),
        (
            labels["bt.interval"].format(level=s["confidence"]),
            interval(s["accuracy_interval"]),
            interval(s["baseline_accuracy_interval"]),
        ),
        (labels["bt.brier"], number(s["brier"], 4), number(s["baseline_brier"], 4)),
        (
            labels["bt.ece"],
            number(calib["moot_quality"]["ece"], 4),
            number(baseline["ece"] if baseline else None, 4),
        ),
    ]


def _notes(doc: Mapping[str, Any], labels: Mapping[str, str]) -> list[str]:
    """The sentences under the summary table: McNemar, rows left out, the weights and
    the Platt fit."""
    s = doc["summary"]
    notes = [
        labels["bt.mcnemar"].format(
            p=number(s["mcnemar_p"], 4), b=s["moot_only_correct"], c=s["baseline_only_correct"]
        )
    ]
    if s["baseline_excluded"]:
        notes.append(labels["bt.excluded"].format(n=", ".join(s["baseline_excluded"])))
    search = s["weight_search"]
    if search is None:
        notes.append(labels["bt.weights_none"].format(note=s["weight_search_note"]))
    else:
        notes.append(
            labels["bt.weights"].format(
                train_n=search["train_n"],
                split_date=search["split_date"],
                test_n=search["test_n"],
                weights=", ".join(f"{d} {v:.1f}" for d, v in s["weights"].items()),
                accuracy=number(search["test_accuracy"], 3),
                brier=number(search["test_brier"], 4),
            )
        )
    fit = doc["trader"]["calibration"]["moot_platt"]
    if "a" in fit:
        notes.append(
            labels["bt.platt"].format(
                train_n=fit["train_n"],
                split_date=fit["split_date"],
                test_n=fit["test_n"],
                brier=number(fit["test_brier"], 4),
                ece=number(fit["test_ece"], 4),
                raw_brier=number(fit["raw_test_brier"], 4),
                raw_ece=number(fit["raw_test_ece"], 4),
            )
        )
    else:
        notes.append(labels["bt.platt_none"].format(note=fit["note"]))
    return notes


def _snapshot_line(row: SnapshotRow, run_id: str, labels: Mapping[str, str]) -> SnapshotLine:
    def direction(value: str) -> str:
        return labels.get(f"direction.{value}", value)

    cells = (
        row.id,
        row.target,
        row.as_of.isoformat(),
        row.end_date.isoformat() if row.end_date else "-",
        number(row.actual_return_pct),
        direction(row.actual),
        direction(row.predicted),
        number(row.confidence_up, 3),
        direction(row.baseline_predicted),
        number(row.baseline_confidence_up, 3),
    )
    return SnapshotLine(cells, run_id, run_href(run_id))


SNAPSHOT_COLUMNS: Final = (
    *("bt.snapshot", "bt.target", "bt.as_of", "bt.end", "bt.return", "bt.actual"),
    *("bt.predicted", "bt.p_up", "bt.baseline_predicted", "bt.baseline_p_up", "bt.run"),
)


ANALYST_COLUMNS: Final = (
    *("bt.agent", "bt.side", "bt.arguments", "bt.mean_confidence", "bt.right_rate"),
    *("bt.upheld_rate", "bt.brier_outcome", "bt.brier_standing"),
)


def _analysts(calibration: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """One row per analyst: its side, arguments, mean stated confidence, the shares
    right and upheld, and the Brier score of its confidence against each."""
    return [
        (
            agent,
            row["side"],
            str(row["n"]),
            number(row["mean_confidence"], 3),
            number(row["right_rate"], 3),
            number(row["upheld_rate"], 3),
            number(row["outcome"]["brier"], 4),
            number(row["standing"]["brier"], 4),
        )
        for agent, row in (calibration.get("per_analyst") or {}).items()
    ]


def backtest_html(report: BacktestReport, lang: str = "en") -> str:
    """The backtest's report as one HTML page in ``lang`` (en or zh)."""
    labels = market_labels(lang)
    doc = report.to_json()
    trader = doc["trader"]
    bins = [b for b in doc["summary"]["reliability"] if b["count"]]
    return render(
        "formats/market/backtest.html.j2",
        lang=lang,
        format_name="market",
        title=labels["bt.title"].format(id=report.id),
        L=labels,
        report=report,
        meta=labels["bt.meta"].format(n=len(report.rows), source=report.source),
        summary=_summary(doc, labels),
        notes=_notes(doc, labels),
        equity_note=labels["bt.equity_note"].format(cost=trader["cost"]),
        tickers=[
            _ticker(target, entry, doc["snapshots"], labels)
            for target, entry in trader["strategies"].items()
        ],
        figure_labels=[labels[key] for _, key in FIGURES],
        reliability=reliability(report, doc, labels),
        bins=[
            (
                f"[{b['lower']:.1f}, {b['upper']:.1f})",
                b["count"],
                number(b["mean_predicted"], 3),
                number(b["observed_frequency"], 3),
            )
            for b in bins
        ],
        analysts=_analysts(trader["calibration"]),
        analysts_note=labels["bt.analysts_note"].format(
            uncertain=(trader["calibration"]["analysts_standing"] or {}).get("uncertain", 0)
        ),
        analyst_columns=[labels[key] for key in ANALYST_COLUMNS],
        columns=[labels[key] for key in SNAPSHOT_COLUMNS],
        snapshots=[_snapshot_line(d.row, d.run_id, labels) for d in report.debates],
    )
