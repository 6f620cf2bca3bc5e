"""``moot backtest`` on scripted debates: rows and summary recomputed from its JSON,
resumable by id, and its command line."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from moot.cli import app
from moot.errors import ConfigError, DataError
from moot.formats.market.backtest import run_backtest, snapshot_seed, topic_of
from moot.formats.market.data import demo_snapshots, write_snapshots
from moot.options import RunOptions
from moot.store import Store

OPTIONS = RunOptions(model="scripted:demo", seed=5)


@pytest.fixture(scope="module")
def snapshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six snapshots of the synthetic demo set, written in the documented layout."""
    root = tmp_path_factory.mktemp("snapshots")
    return write_snapshots(demo_snapshots()[6:12], root)


def mcnemar(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value, written out again."""
    n = b + c
    if n == 0:
        return 1.0
    tail: float = sum(math.comb(n, k) for k in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)


def contradicts(row: dict[str, Any]) -> bool:
    p = float(row["baseline_confidence_up"])
    direction = str(row["baseline_predicted"])
    return (direction == "up" and p < 0.5) or (direction == "down" and p > 0.5)


def equity_figures(signal: list[float], returns: list[float], per_year: float) -> dict[str, Any]:
    """A strategy's figures written out again, loop by loop (no shared helper)."""
    equity, value, peak, drawdown = [1.0], 1.0, 1.0, 0.0
    for p, r in zip(signal, returns, strict=True):
        value *= 1 + p * r
        equity.append(value)
        peak = max(peak, value)
        drawdown = max(drawdown, (peak - value) / peak)
    net = [p * r for p, r in zip(signal, returns, strict=True)]
    mean = sum(net) / len(net)
    sd = math.sqrt(sum((x - mean) ** 2 for x in net) / (len(net) - 1))
    held = [x for p, x in zip(signal, net, strict=True) if p != 0]
    return {
        "total_return_pct": (value - 1) * 100,
        "annualised_return_pct": (value ** (per_year / len(net)) - 1) * 100,
        "volatility_pct": sd * math.sqrt(per_year) * 100,
        "sharpe": mean / sd * math.sqrt(per_year) if sd else None,
        "max_drawdown_pct": drawdown * 100,
        "hit_rate": sum(x > 0 for x in held) / len(held) if held else None,
        "equity": equity,
    }


def recompute(doc: dict[str, Any], *, horizon: int, bars_a_year: int) -> None:
    """Accuracy, McNemar, Brier and every strategy figure from the per-snapshot rows
    alone (a baseline contradicting its own P(up) is left out of its figures)."""
    rows = doc["snapshots"]
    summary = doc["summary"]
    n = len(rows)
    right = [r["predicted"] == r["actual"] for r in rows]
    kept = [r for r in rows if not contradicts(r)]
    assert summary["baseline_excluded"] == [r["id"] for r in rows if contradicts(r)]
    assert summary["baseline_n"] == len(kept)
    base = [r["baseline_predicted"] == r["actual"] for r in kept]
    up = [r["actual"] == "up" for r in rows]
    assert summary["accuracy"] == pytest.approx(sum(right) / n)
    assert summary["baseline_accuracy"] == pytest.approx(sum(base) / len(kept))
    pairs = [(r["predicted"] == r["actual"], r["baseline_predicted"] == r["actual"]) for r in kept]
    b = sum(m and not s for m, s in pairs)
    c = sum(s and not m for m, s in pairs)
    assert summary["mcnemar_p"] == pytest.approx(mcnemar(b, c))
    brier = sum((r["confidence_up"] - u) ** 2 for r, u in zip(rows, up, strict=True)) / n
    baseline_brier = sum(
        (r["baseline_confidence_up"] - (r["actual"] == "up")) ** 2 for r in kept
    ) / len(kept)
    assert summary["brier"] == pytest.approx(brier)
    assert summary["baseline_brier"] == pytest.approx(baseline_brier)
    for key in ("accuracy_interval", "baseline_accuracy_interval"):
        low, high = summary[key]
        assert 0 <= low <= high <= 1
    for row in rows:
        assert set(row) == {
            "id",
            "as_of",
            "predicted",
            "actual",
            "confidence_up",
            "baseline_predicted",
            "baseline_confidence_up",
            "target",
            "end_date",
            "actual_return_pct",
            "stated_confidence_up",
            "baseline_contradicts",
        }
        assert (row["confidence_up"] > 0.5) == (row["predicted"] == "up")
        assert (row["actual_return_pct"] > 0) == (row["actual"] == "up")
    trader = doc["trader"]
    for target in {r["target"] for r in rows}:
        own = sorted((r for r in rows if r["target"] == target), key=lambda r: r["as_of"])
        returns = [r["actual_return_pct"] / 100 for r in own]
        figures = trader["strategies"][target]
        assert figures["periods_per_year"] == pytest.approx(bars_a_year / horizon)
        signals = {
            "buy_and_hold": [1.0] * len(own),
            "moot_long_flat": [1.0 if r["predicted"] == "up" else 0.0 for r in own],
            "moot_long_short": [1.0 if r["predicted"] == "up" else -1.0 for r in own],
            "baseline_long_flat": [
                0.0 if contradicts(r) else 1.0 if r["baseline_predicted"] == "up" else 0.0
                for r in own
            ],
            "baseline_long_short": [
                0.0 if contradicts(r) else 1.0 if r["baseline_predicted"] == "up" else -1.0
                for r in own
            ],
        }
        for name, signal in signals.items():
            expected = equity_figures(signal, returns, bars_a_year / horizon)
            for key, value in expected.items():
                assert figures[name][key] == pytest.approx(value), (target, name, key)
    stated = [r for r in rows if r["stated_confidence_up"] is not None]
    moot_stated = trader["calibration"]["moot_stated"]
    assert moot_stated["brier"] == pytest.approx(
        sum((r["stated_confidence_up"] - (r["actual"] == "up")) ** 2 for r in stated) / len(stated)
    )
    quality = trader["calibration"]["moot_quality"]
    assert quality["brier"] == pytest.approx(brier)
    fit = trader["calibration"]["moot_platt"]
    if "note" not in fit:  # the reported fit, applied again to the later rows
        test = [r for r in rows if r["as_of"] > fit["split_date"]]
        assert fit["test_n"] == len(test)
        assert fit["train_n"] == n - len(test)
        probs = [
            1 / (1 + math.exp(-(fit["a"] * (r["confidence_up"] - 0.5) + fit["b"]))) for r in test
        ]
        assert fit["test_brier"] == pytest.approx(
            sum((p - (r["actual"] == "up")) ** 2 for p, r in zip(probs, test, strict=True))
            / len(test)
        )
        assert fit["raw_test_brier"] == pytest.approx(
            sum((r["confidence_up"] - (r["actual"] == "up")) ** 2 for r in test) / len(test)
        )
    # Murphy: brier = reliability - resolution + uncertainty when P is constant per bin
    base_rate = sum(up) / n
    assert quality["uncertainty"] == pytest.approx(base_rate * (1 - base_rate))
    recompute_analysts(doc)


def recompute_analysts(doc: dict[str, Any]) -> None:
    """The analysts' calibration from the ``arguments`` rows: stated confidence against
    the outcome (its side right) and against the judge's standing (UPHELD stood,
    WEAKENED and REFUTED did not, UNCERTAIN left out), overall and per analyst."""
    arguments = doc["arguments"]
    actual = {r["id"]: r["actual"] for r in doc["snapshots"]}
    assert {a["snapshot"] for a in arguments} == set(actual)
    for a in arguments:
        assert a["right"] == ((a["side"] == "bull") == (actual[a["snapshot"]] == "up"))
        assert a["stood"] == {"UPHELD": True, "WEAKENED": False, "REFUTED": False}.get(
            a["standing"]
        )

    def brier(pairs: list[tuple[float, bool]]) -> float:
        return sum((p - y) ** 2 for p, y in pairs) / len(pairs)

    calibration = doc["trader"]["calibration"]
    outcome = [(a["confidence"], a["right"]) for a in arguments]
    judged = [(a["confidence"], a["stood"]) for a in arguments if a["stood"] is not None]
    assert calibration["analysts"]["n"] == len(outcome)
    assert calibration["analysts"]["brier"] == pytest.approx(brier(outcome))
    standing = calibration["analysts_standing"]
    assert standing["n"] == len(judged) > 0
    assert standing["uncertain"] == len(arguments) - len(judged)
    assert standing["brier"] == pytest.approx(brier(judged))
    agents = calibration["per_analyst"]
    assert set(agents) == {a["agent"] for a in arguments}
    for agent, row in agents.items():
        own = [a for a in arguments if a["agent"] == agent]
        told = [a for a in own if a["stood"] is not None]
        assert row["n"] == len(own)
        assert row["mean_confidence"] == pytest.approx(sum(a["confidence"] for a in own) / len(own))
        assert row["right_rate"] == pytest.approx(sum(a["right"] for a in own) / len(own))
        assert row["outcome"]["brier"] == pytest.approx(
            brier([(a["confidence"], a["right"]) for a in own])
        )
        if told:
            assert row["upheld_rate"] == pytest.approx(sum(a["stood"] for a in told) / len(told))
            assert row["standing"]["brier"] == pytest.approx(
                brier([(a["confidence"], a["stood"]) for a in told])
            )


def test_backtest_rows_and_summary_recompute(snapshot_dir: Path) -> None:
    store = Store()
    seen: list[tuple[int, int]] = []
    report = run_backtest(
        snapshot_dir,
        OPTIONS,
        store=store,
        backtest_id="bt1",
        on_snapshot=lambda done, total, _: seen.append((done, total)),
    )
    assert seen == [(n, 6) for n in range(1, 7)]
    doc = json.loads(json.dumps(report.to_json()))
    recompute(doc, horizon=20, bars_a_year=252)
    assert doc["synthetic"] is True
    assert [r["id"] for r in doc["snapshots"]] == sorted(p.name for p in snapshot_dir.iterdir())
    actual = {s.id: s.outcome.direction for s in demo_snapshots()}
    assert all(r["actual"] == actual[r["id"]] for r in doc["snapshots"])
    summary = doc["summary"]
    assert set(summary["weights"]) == {"logic", "evidence", "clarity", "persuasiveness"}
    assert math.isclose(sum(summary["weights"].values()), 1.0)
    assert summary["out_of_sample_accuracy"] == summary["weight_search"]["test_accuracy"]
    for debate in doc["debates"]:
        row = store.get_debate(debate["run_id"])
        assert row is not None
        assert row.status == "done"
        assert debate["run_id"] == f"bt1.{debate['id']}"
    # each snapshot debates with its own seed, so the debates differ
    assert len({tuple(d["totals"].values()) for d in doc["debates"]}) > 1


def test_a_rerun_with_the_same_id_reuses_and_resumes(snapshot_dir: Path) -> None:
    store = Store()
    first = run_backtest(snapshot_dir, OPTIONS, store=store, backtest_id="again")
    calls = {d.run_id: len(store.calls(d.run_id)) for d in first.debates}
    stopped = first.debates[2].run_id
    store.set_status(stopped, "interrupted")
    second = run_backtest(snapshot_dir, OPTIONS, store=store, backtest_id="again")
    assert [d.reused for d in second.debates] == [True, True, False, True, True, True]
    assert second.to_json()["snapshots"] == first.to_json()["snapshots"]
    # the interrupted run replayed its journal: no call was sent again
    assert {d.run_id: len(store.calls(d.run_id)) for d in second.debates} == calls
    with pytest.raises(ConfigError, match="holds another debate"):
        run_backtest(snapshot_dir, OPTIONS.replace(lang="zh"), store=store, backtest_id="again")


def test_snapshot_topics_and_seeds() -> None:
    snapshot = demo_snapshots()[0]
    assert topic_of(snapshot, "en") == (
        "Will ExampleIndex (synthetic) (EXI) close higher 20 sessions after 2024-05-29"
        " than it did on 2024-05-29?"
    )
    assert "收盘价" in topic_of(snapshot, "zh")
    assert snapshot_seed(None, "x") is None
    assert snapshot_seed(1, "a") != snapshot_seed(1, "b")
    assert snapshot_seed(1, "a") == snapshot_seed(1, "a")


def test_backtest_refuses_a_panel_and_bad_sources(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="one judge"):
        run_backtest("demo", OPTIONS.replace(panel=("general",)), store=Store())
    with pytest.raises(ConfigError, match="not a directory"):
        run_backtest(tmp_path / "nothing", OPTIONS, store=Store())


def _moot(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def test_a_run_id_too_long_is_refused_before_the_first_debate(tmp_path: Path) -> None:
    """It was refused when the backtest reached it, after earlier snapshots were
    debated."""
    root = write_snapshots(demo_snapshots()[:2], tmp_path / "set")
    store = Store(tmp_path / "moot.db")
    longest = 63 - len(demo_snapshots()[0].id)
    with pytest.raises(ConfigError, match=f"use a --id of at most {longest} characters"):
        run_backtest(root, OPTIONS, store=store, backtest_id="b" * 60)
    assert store.list_debates() == []


def test_a_snapshot_folder_name_too_long_is_blamed_not_the_id(tmp_path: Path) -> None:
    snapshots = demo_snapshots()[:2]
    root = write_snapshots(snapshots, tmp_path / "set")
    (root / snapshots[1].id).rename(root / ("s" * 39))
    store = Store(tmp_path / "moot.db")
    with pytest.raises(DataError, match=r"snapshot id 's{39}'.*38 at most") as caught:
        run_backtest(root, OPTIONS, store=store, backtest_id="bt")
    assert "--id" not in str(caught.value)
    assert store.list_debates() == []


def test_backtest_command_writes_the_json_and_prints_the_figures(
    snapshot_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "bt.json"
    args = [
        "backtest",
        str(snapshot_dir),
        "--model",
        "scripted:demo",
        "--seed",
        "3",
        "--json",
        str(out),
        "--id",
        "cli-bt",
    ]
    result = _moot(*args)
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    recompute(doc, horizon=20, bars_a_year=252)
    assert "McNemar exact p" in result.stdout
    assert "rerun with --id cli-bt" in result.stderr
    assert "[6/6]" in result.stderr
    again = _moot(*args, "--quiet")
    assert again.exit_code == 0, again.output
    assert json.loads(out.read_text(encoding="utf-8"))["snapshots"] == doc["snapshots"]
    assert again.stderr.count("[") == 0
    bad = _moot("backtest", str(tmp_path / "missing"), "--model", "scripted:demo")
    assert bad.exit_code == 2
    assert "not a directory" in bad.stderr


def test_run_command_takes_a_knowledge_base(tmp_path: Path) -> None:
    result = _moot(
        "run", "Will the demo index rise?", "--format", "market", "--kb", "demo",
        "--model", "scripted:demo", "--seed", "2", "--no-store", "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Evidence check" in result.stdout
    assert "Bull (tech\\_bull)" in result.stdout
    refused = _moot("run", "x", "--kb", "demo", "--model", "scripted:demo", "--no-store")
    assert refused.exit_code == 2
    assert "no option kb" in refused.stderr
    missing = _moot("run", "x", "--format", "market", "--model", "scripted:demo", "--no-store")
    assert missing.exit_code == 2
    assert "--kb PATH" in missing.stderr


def test_a_backtest_runs_its_snapshots_in_parallel_on_the_batch_engine(
    snapshot_dir: Path,
) -> None:
    """Three snapshot debates at once give the rows one at a time gives (each debate's
    seed is its snapshot's), and every snapshot is reported once, as it finishes."""
    store = Store()
    seen: list[str] = []
    parallel = run_backtest(
        snapshot_dir,
        OPTIONS,
        store=store,
        backtest_id="par3",
        parallel=3,
        on_snapshot=lambda done, total, debate: seen.append(debate.row.id),
    )
    one_by_one = run_backtest(snapshot_dir, OPTIONS, store=store, backtest_id="par1")
    assert sorted(seen) == sorted(d.row.id for d in one_by_one.debates)
    assert parallel.to_json()["snapshots"] == one_by_one.to_json()["snapshots"]
    assert [d.run_id for d in parallel.debates] == [f"par3.{d.row.id}" for d in parallel.debates]
