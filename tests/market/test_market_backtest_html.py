"""``moot backtest --html``: the page shows the figures ``--json`` writes, its
snapshot rows link to their runs in the viewer, it speaks Chinese with ``--lang zh``,
it keeps the page shell's policy (no script, the stylesheet by hash), and a bad
``--html`` path is refused before any debate."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from moot.cli import app
from moot.formats.market.backtest import BacktestReport, run_backtest
from moot.formats.market.backtest_html import backtest_html, equity_domain
from moot.formats.market.data import demo_snapshots, write_snapshots
from moot.formats.market.labels import LABELS
from moot.options import RunOptions
from moot.report.html.page import content_security_policy
from moot.store import Store


@pytest.fixture(scope="module")
def snapshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight snapshots of the synthetic demo set, written in the documented layout."""
    return write_snapshots(demo_snapshots()[4:12], tmp_path_factory.mktemp("snapshots"))


@pytest.fixture(scope="module")
def report(snapshot_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> BacktestReport:
    store = Store(tmp_path_factory.mktemp("store") / "moot.db")
    return run_backtest(
        snapshot_dir,
        RunOptions(model="scripted:demo", seed=5),
        store=store,
        backtest_id="bt-html",
        cost=0.001,
    )


def cells(page: str, table_id: str) -> list[list[str]]:
    """The text of every body row's cells of the table ``table_id``."""
    body = page[page.index(f'id="{table_id}"') :]
    body = body[body.index("<tbody>") : body.index("</tbody>")]
    return [
        [unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r)]
        for r in re.findall(r"<tr>(.*?)</tr>", body)
    ]


def test_the_page_shows_the_json_figures(report: BacktestReport) -> None:
    doc = report.to_json()
    page = backtest_html(report)
    summary = {row[0]: row[1:] for row in cells(page, "summary-table")}
    s = doc["summary"]
    assert summary["accuracy"] == [f"{s['accuracy']:.3f}", f"{s['baseline_accuracy']:.3f}"]
    assert summary["Brier score"] == [f"{s['brier']:.4f}", f"{s['baseline_brier']:.4f}"]
    ece = doc["trader"]["calibration"]["moot_quality"]["ece"]
    assert summary["expected calibration error"][0] == f"{ece:.4f}"
    assert f"McNemar exact p = {s['mcnemar_p']:.4f}" in page
    # the strategy table of the one ticker: each strategy's figures from --json
    (target,) = doc["trader"]["strategies"]
    entry = doc["trader"]["strategies"][target]
    rows = {r[0]: r[1:] for r in cells(page, "strategies-1")}
    assert rows["moot long/short"][0] == f"{entry['moot_long_short']['total_return_pct']:.2f}"
    assert rows["buy and hold"][4] == f"{entry['buy_and_hold']['max_drawdown_pct']:.2f}"
    # the reliability table: the non-empty bins of moot's P(up)
    bins = [b for b in s["reliability"] if b["count"]]
    assert cells(page, "reliability-table") == [
        [
            f"[{b['lower']:.1f}, {b['upper']:.1f})",
            str(b["count"]),
            f"{b['mean_predicted']:.3f}",
            f"{b['observed_frequency']:.3f}",
        ]
        for b in bins
    ]


def test_the_analyst_table_shows_each_analyst_s_calibration(report: BacktestReport) -> None:
    doc = report.to_json()
    agents = doc["trader"]["calibration"]["per_analyst"]
    rows = {r[0]: r[1:] for r in cells(backtest_html(report), "analyst-table")}
    assert set(rows) == set(agents) == {a["agent"] for a in doc["arguments"]}
    for agent, row in agents.items():
        assert rows[agent][:2] == [row["side"], str(row["n"])]
        assert rows[agent][5] == f"{row['outcome']['brier']:.4f}"
        assert rows[agent][6] == f"{row['standing']['brier']:.4f}"
    zh = backtest_html(report, "zh")
    assert "分析师所述置信度" in zh
    assert "Brier（地位）" in zh


def test_the_equity_chart_draws_every_strategy_s_curve(report: BacktestReport) -> None:
    doc = report.to_json()
    page = backtest_html(report)
    (target,) = doc["trader"]["strategies"]
    equity = doc["trader"]["strategies"][target]["moot_long_flat"]["equity"]
    n = len(doc["snapshots"])
    assert len(equity) == n + 1
    chart = page[page.index('<svg class="chart" viewBox') : page.index("</svg>")]
    # five strategies, a point per step each, joined by n segments
    assert chart.count('class="point side-') == 5 * (n + 1)
    assert chart.count('class="trend side-') == 5 * n
    # the hidden table gives the equity after each period, last one included
    assert f"{equity[-1]:.2f}" in page[page.index('<table class="sr-only">') :]


def test_the_reliability_diagram_shows_raw_and_platt_beside(report: BacktestReport) -> None:
    fit = report.to_json()["trader"]["calibration"]["moot_platt"]
    assert "a" in fit
    page = backtest_html(report)
    assert f"Platt, later {fit['test_n']}" in page
    assert f"raw P(up), later {fit['test_n']}" in page
    assert f"raw P(up), all {len(report.rows)}" in page
    assert f"Brier {fit['test_brier']:.4f}" in page


def test_snapshot_rows_link_to_their_runs(report: BacktestReport) -> None:
    page = backtest_html(report)
    links = re.findall(r'<a class="run" href="([^"]+)">([^<]+)</a>', page)
    assert links == [(f"runs/{d.run_id}", d.run_id) for d in report.debates]
    assert report.debates[0].run_id == f"bt-html.{report.debates[0].snapshot.id}"
    rows = cells(page, "snapshot-table")
    assert [r[0] for r in rows] == [d.snapshot.id for d in report.debates]
    first = report.debates[0].row
    assert rows[0][7] == f"{first.confidence_up:.3f}"


def test_the_page_keeps_the_shell_s_policy(report: BacktestReport) -> None:
    page = backtest_html(report)
    assert "<script" not in page
    assert content_security_policy(format_name="market") in unescape(page)
    assert page.count("<svg") == 2  # the equity curve of the one ticker, the reliability


def test_the_chinese_page(report: BacktestReport) -> None:
    page = backtest_html(report, "zh")
    zh = LABELS["zh"]
    assert 'lang="zh-Hans"' in page
    for key in ("bt.summary", "bt.equity", "bt.strategy.moot_long_short", "bt.diagonal"):
        assert zh[key] in page
    assert "Equity curves" not in page
    assert zh["direction.up"] in page


def test_equity_domain_holds_every_value_on_round_steps() -> None:
    low, high, step = equity_domain([0.93, 1.12])
    assert (low, high, step) == (0.9, 1.15, 0.05)
    low, high, step = equity_domain([0.4, 2.6])
    assert (low, high) == (0.0, 3.0)
    assert (high - low) / step <= 8


def test_the_command_writes_the_page(
    snapshot_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOOT_HOME", str(tmp_path / "home"))
    out, page = tmp_path / "bt.json", tmp_path / "report" / "bt.html"
    args = ["backtest", str(snapshot_dir), "--model", "scripted:demo", "--seed", "5"]
    args += ["--id", "cli", "--json", str(out), "--html", str(page), "--quiet", "--lang", "zh"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(out.read_text("utf-8"))
    text = page.read_text("utf-8")
    assert LABELS["zh"]["bt.title"].format(id="cli") in text
    for row in doc["snapshots"]:
        assert f'href="runs/cli.{row["id"]}"' in text


def test_a_bad_html_path_is_refused_before_any_debate(
    snapshot_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOOT_HOME", str(tmp_path / "home"))
    args = ["backtest", str(snapshot_dir), "--model", "scripted:demo", "--quiet"]
    result = CliRunner().invoke(app, [*args, "--html", str(tmp_path)])
    assert result.exit_code == 2
    assert "--html" in result.output
    assert not (tmp_path / "home" / "moot.db").exists()
