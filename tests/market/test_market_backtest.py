"""Backtest scoring (by hand and against statsmodels), the weight grid search, and
the snapshot layout, loader, demo set and worked example."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

from moot.errors import DataError
from moot.formats.market.data.backtest import (
    DEFAULT_WEIGHTS,
    ScoredSnapshot,
    SnapshotRow,
    direction_from_totals,
    grid_search_weights,
    simplex_grid,
    split_by_date,
    summarise,
)
from moot.formats.market.data.demo import SYNTHETIC_WARNING
from moot.formats.market.data.kb import kb_to_data
from moot.formats.market.data.snapshots import (
    Snapshot,
    demo_snapshots,
    load_snapshots,
    write_snapshots,
)

ROOT = Path(__file__).resolve().parents[2]

# id, actual, predicted, confidence_up, baseline_predicted, baseline_confidence_up
TABLE = [
    ("r01", "up", "up", 0.8, "up", 0.6),  # both right
    ("r02", "up", "up", 0.7, "down", 0.4),  # moot only
    ("r03", "down", "down", 0.3, "down", 0.4),  # both
    ("r04", "down", "down", 0.2, "up", 0.6),  # moot only
    ("r05", "up", "down", 0.4, "up", 0.7),  # baseline only
    ("r06", "down", "down", 0.4, "down", 0.3),  # both
    ("r07", "up", "up", 0.6, "down", 0.45),  # moot only
    ("r08", "down", "up", 0.55, "up", 0.6),  # neither
    ("r09", "up", "up", 0.9, "up", 0.8),  # both
    ("r10", "down", "up", 0.6, "up", 0.55),  # neither
]


def rows() -> list[SnapshotRow]:
    return [
        SnapshotRow(i, dt.date(2024, 1, n + 1), p, a, c, bp, bc)  # type: ignore[arg-type]
        for n, (i, a, p, c, bp, bc) in enumerate(TABLE)
    ]


def test_summary_by_hand() -> None:
    s = summarise(rows(), bins=5)
    assert s.n == 10
    assert s.accuracy == 0.7  # r01-r04, r06, r07, r09
    assert s.baseline_accuracy == 0.5  # r01, r03, r05, r06, r09
    assert (s.moot_only_correct, s.baseline_only_correct) == (3, 1)
    # McNemar exact: 2 * (C(4,0) + C(4,1)) / 2^4 = 10/16
    assert s.mcnemar_p == 0.625
    # moot: .04 + .09 + .09 + .04 + .36 + .16 + .16 + .3025 + .01 + .36 = 1.6125
    assert s.brier == pytest.approx(0.16125)
    # baseline: .16 + .36 + .16 + .36 + .09 + .09 + .3025 + .36 + .04 + .3025 = 2.225
    assert s.baseline_brier == pytest.approx(0.2225)
    # bins of 0.2: [0.2, 0.4): 0.3, 0.2 (both down); [0.4, 0.6): 0.4 up, 0.4 down,
    # 0.55 down; [0.6, 0.8): 0.7 up, 0.6 up, 0.6 down; [0.8, 1]: 0.8 up, 0.9 up
    assert [b.count for b in s.reliability] == [0, 2, 3, 3, 2]
    assert [b.mean_predicted for b in s.reliability[1:]] == pytest.approx(
        [0.25, 1.35 / 3, 1.9 / 3, 0.85]
    )
    assert [b.observed_frequency for b in s.reliability[1:]] == pytest.approx(
        [0.0, 1 / 3, 2 / 3, 1.0]
    )


def test_summary_agrees_with_statsmodels() -> None:
    s = summarise(rows(), confidence=0.9)
    assert s.accuracy_interval == pytest.approx(
        proportion_confint(7, 10, alpha=0.1, method="wilson"), abs=1e-12
    )
    assert s.baseline_accuracy_interval == pytest.approx(
        proportion_confint(5, 10, alpha=0.1, method="wilson"), abs=1e-12
    )
    table = [[4, 3], [1, 2]]  # [both right, moot only], [baseline only, neither]
    assert s.mcnemar_p == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-12)
    data = s.to_json()
    json.dumps(data)  # plain JSON
    assert data["accuracy_interval"] == list(s.accuracy_interval)


def test_rows_are_validated() -> None:
    with pytest.raises(ValueError, match="confidence_up must be a probability"):
        SnapshotRow("x", dt.date(2024, 1, 1), "up", "up", 1.2, "up", 0.5)
    with pytest.raises(ValueError, match="predicted must be up or down"):
        SnapshotRow("x", dt.date(2024, 1, 1), "flat", "up", 0.5, "up", 0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no snapshot rows"):
        summarise([])
    with pytest.raises(ValueError, match="share a snapshot id"):
        summarise(rows()[:2] + rows()[:1])


def test_direction_from_totals() -> None:
    assert direction_from_totals(7.5, 6.0) == ("up", 7.5 / 13.5)
    assert direction_from_totals(5.0, 5.0) == ("down", 0.5)  # a tie is not up
    assert direction_from_totals(0.0, 0.0) == ("down", 0.5)
    assert direction_from_totals(3.0, 9.0) == ("down", 0.25)
    with pytest.raises(ValueError, match="bear total must be a finite number >= 0"):
        direction_from_totals(1.0, -1.0)


def scored(day: dt.date, actual: str, diff: tuple[float, float, float, float]) -> ScoredSnapshot:
    """Bull scores 5 + diff per dimension (logic, evidence, clarity, persuasiveness);
    bear scores 5."""
    dims = ("logic", "evidence", "clarity", "persuasiveness")
    return ScoredSnapshot(
        day.isoformat(),
        day,
        actual,  # type: ignore[arg-type]
        {d: 5 + x for d, x in zip(dims, diff, strict=True)},
        dict.fromkeys(dims, 5.0),
    )


def grid_rows() -> list[ScoredSnapshot]:
    d = dt.date
    return [
        scored(d(2024, 1, 1), "up", (-1, 2, 0, 0)),
        scored(d(2024, 1, 2), "down", (1, -2, 0, 0)),
        scored(d(2024, 1, 3), "up", (1, 1, -3, 0)),
        scored(d(2024, 1, 4), "down", (-1, -1, 3, 0)),
        scored(d(2024, 2, 1), "up", (-1, 2, 0, 0)),
        scored(d(2024, 2, 2), "down", (1, -2, 1, 1)),
    ]


def test_grid_search_by_hand() -> None:
    # step 0.5: 10 weightings. On the 4 training rows (the first 4 dates: 4 >= 0.6 * 6)
    # only evidence alone, logic+evidence and evidence+persuasiveness (half each) get
    # all 4 right. Brier (P(up) = (5 + w.D) / (10 + w.D)): evidence alone 0.1796,
    # the two halves 0.2138 each -> evidence alone wins.
    # Test rows: evidence alone gets both right; the default 30/30/20/20 gets
    # 0.3 (up, right) and 0.3 - 0.6 + 0.2 + 0.2 = 0.1 (up, wrong) -> 0.5.
    result = grid_search_weights(grid_rows(), step=0.5)
    assert result.candidates == 10
    assert result.weights == {"logic": 0.0, "evidence": 1.0, "clarity": 0.0, "persuasiveness": 0.0}
    assert (result.train_n, result.test_n) == (4, 2)
    assert result.split_date == dt.date(2024, 1, 4)
    assert result.train_accuracy == 1.0
    assert result.test_accuracy == 1.0
    assert result.default_test_accuracy == 0.5
    assert result.default_weights == dict(DEFAULT_WEIGHTS)
    assert result.test_accuracy_interval == pytest.approx(
        proportion_confint(2, 2, alpha=0.05, method="wilson"), abs=1e-12
    )
    # with the finer default grid the winner still gets the training rows all right
    fine = grid_search_weights(grid_rows())
    assert fine.candidates == 286
    assert fine.train_accuracy == 1.0
    json.dumps(fine.to_json())


def test_split_keeps_dates_whole() -> None:
    d = dt.date
    same_day = (
        [scored(d(2024, 1, 1), "up", (0, 1, 0, 0))]
        + [
            ScoredSnapshot(
                f"b{i}", d(2024, 1, 2), "up", dict(DEFAULT_WEIGHTS), dict(DEFAULT_WEIGHTS)
            )
            for i in range(3)
        ]
        + [scored(d(2024, 1, 3), "down", (0, -1, 0, 0))]
    )
    train, test = split_by_date(same_day, 0.5)
    assert [r.id for r in train] == ["2024-01-01", "b0", "b1", "b2"]  # 2024-01-02 not split
    assert [r.id for r in test] == ["2024-01-03"]
    with pytest.raises(ValueError, match="at least 2 dates"):
        split_by_date(same_day[1:4], 0.5)


def test_grid_and_scores_are_validated() -> None:
    assert len(simplex_grid(0.1)) == 286
    assert len(simplex_grid(0.05)) == 1771
    assert all(abs(sum(w.values()) - 1) < 1e-9 for w in simplex_grid(0.1))
    with pytest.raises(ValueError, match="divide 1 evenly"):
        simplex_grid(0.3)
    with pytest.raises(ValueError, match="exactly logic, evidence, clarity, persuasiveness"):
        ScoredSnapshot("x", dt.date(2024, 1, 1), "up", {"logic": 5}, dict(DEFAULT_WEIGHTS))
    with pytest.raises(ValueError, match="train_fraction"):
        grid_search_weights(grid_rows(), train_fraction=1.0)


# --- snapshots ----------------------------------------------------------------------


def test_demo_snapshots_are_synthetic_dated_and_consistent() -> None:
    snapshots = demo_snapshots()
    assert len(snapshots) == 19
    assert [s.as_of for s in snapshots] == sorted(s.as_of for s in snapshots)
    for snapshot in snapshots:
        assert snapshot.synthetic
        assert SYNTHETIC_WARNING in snapshot.kb.meta.warnings
        assert snapshot.kb.meta.as_of == snapshot.outcome.as_of
        assert snapshot.outcome.end_date > snapshot.as_of
        assert (snapshot.outcome.return_pct > 0) == (snapshot.outcome.direction == "up")
    directions = {s.outcome.direction for s in snapshots}
    assert directions == {"up", "down"}
    assert load_snapshots("demo") == snapshots


def test_snapshot_kbs_do_not_know_their_outcome() -> None:
    snapshots = demo_snapshots()
    for earlier, later in itertools.pairwise(snapshots):
        # the end of one snapshot's horizon is the date of the next: its close must be
        # in the later KB only
        assert earlier.outcome.end_date == later.as_of
        assert earlier.kb.indices["EXI"].close != later.kb.indices["EXI"].close
        text = json.dumps(kb_to_data(earlier.kb))
        assert later.as_of.isoformat() not in text


def test_write_then_load_a_snapshot_set(tmp_path: Path) -> None:
    snapshots = demo_snapshots()[:3]
    write_snapshots(snapshots, tmp_path)
    (tmp_path / "README.md").write_text("my snapshots\n", encoding="utf-8")  # ignored
    (tmp_path / ".cache").mkdir()  # ignored
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir() and p.name[0] != ".") == [
        s.id for s in snapshots
    ]
    assert load_snapshots(tmp_path) == snapshots


def broken_set(tmp_path: Path) -> Path:
    write_snapshots(demo_snapshots()[:2], tmp_path)
    return tmp_path / demo_snapshots()[0].id


def edit_outcome(folder: Path, **changes: object) -> None:
    path = folder / "outcome.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(changes)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda f: (f / "kb.json").unlink(), "has no kb.json"),
        (lambda f: (f / "outcome.json").write_text("{", encoding="utf-8"), "not valid JSON"),
        (lambda f: edit_outcome(f, direction="up", return_pct=-1.0), "direction is up but"),
        (lambda f: edit_outcome(f, return_pct=0.0, direction="up"), "up exactly when"),
        (lambda f: edit_outcome(f, end_date="2020-01-01"), "is not after as_of"),
        (lambda f: edit_outcome(f, as_of="2020-01-01", end_date="2020-02-01"),
         "differs from the KB's meta.as_of"),
        (lambda f: edit_outcome(f, target="SPX"), "target 'SPX' is not in the KB's indices"),
        (lambda f: edit_outcome(f, horizon_sessions=0), "horizon_sessions"),
        (lambda f: edit_outcome(f, note="x"), "note: Extra inputs"),
        (lambda f: (f / "kb.json").write_text('{"meta": {}}', encoding="utf-8"),
         "not a valid knowledge base"),
        (lambda f: f.rename(f.parent / "bad id"), "snapshot id 'bad id'"),
        # `^...$` let a trailing newline through; the run id check then failed mid-backtest
        (lambda f: f.rename(f.parent / (f.name + "\n")), r"snapshot id '.*\\n'"),
        (lambda f: f.rename(f.parent / ("s" * 39)), "38 at most"),
    ],
)  # fmt: skip
def test_bad_snapshots_are_refused_with_the_place(
    tmp_path: Path, damage: object, message: str
) -> None:
    folder = broken_set(tmp_path)
    damage(folder)  # type: ignore[operator]
    with pytest.raises(DataError, match=message):
        load_snapshots(tmp_path)


def test_two_snapshots_of_one_date_are_refused(tmp_path: Path) -> None:
    """Both used to be debated and scored: one forecast counted twice."""
    first = demo_snapshots()[0]
    write_snapshots([first, Snapshot("copy", first.kb, first.outcome)], tmp_path)
    with pytest.raises(DataError, match=f"{first.id} and copy both forecast EXI on {first.as_of}"):
        load_snapshots(tmp_path)


def test_an_outcome_below_minus_100_percent_is_refused(tmp_path: Path) -> None:
    folder = broken_set(tmp_path)
    edit_outcome(folder, return_pct=-150.0, direction="down")
    with pytest.raises(DataError, match="return_pct"):
        load_snapshots(tmp_path)


def test_empty_or_missing_snapshot_set(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="has no snapshot"):
        load_snapshots(tmp_path)
    with pytest.raises(DataError, match="is not a directory"):
        load_snapshots(tmp_path / "absent")


def test_snapshot_checks_its_parts() -> None:
    first = demo_snapshots()[0]
    with pytest.raises(ValueError, match=r"differs from the KB's meta\.as_of"):
        Snapshot(first.id, demo_snapshots()[1].kb, first.outcome)


@pytest.mark.process
def test_worked_example_turns_the_shipped_csv_into_snapshots(tmp_path: Path) -> None:
    out = tmp_path / "snaps"
    command = [sys.executable, str(ROOT / "examples/market/prices_to_snapshots.py")]
    command += [str(ROOT / "examples/market/synthetic-prices.csv"), str(out)]
    command += ["--ticker", "EXI", "--name", "ExampleIndex", "--synthetic"]
    command += ["--macro", str(ROOT / "examples/market/synthetic-macro.csv")]
    command += ["--every", "10", "--horizon", "10"]
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "wrote 6 snapshots" in result.stdout
    assert "[synthetic data]" in result.stdout
    snapshots = load_snapshots(out)
    assert len(snapshots) == 6
    first = snapshots[0]
    assert first.kb.meta.synthetic
    assert first.kb.technicals["EXI"].sma_200 is not None  # a year of history before it
    assert set(first.kb.macro) == {"CPI_YOY", "POLICY_RATE"}
    assert first.kb.macro["CPI_YOY"].unit == "percent"
    assert all(s.outcome.horizon_sessions == 10 for s in snapshots)
    assert first.id == "EXI_2024-05-17"
    # May's figure, dated 2024-05-01 in the file, is May's: moved to May 31, said so
    assert first.kb.macro["CPI_YOY"].date == dt.date(2024, 4, 30)
    assert "CPI_YOY): monthly values dated at their period's start" in result.stderr
    # two FRED-style files, figures published 45 days after the date they carry
    fred = tmp_path / "UNRATE.csv"
    fred.write_text(
        "observation_date,UNRATE\n2024-03-01,3.9\n2024-04-01,.\n2024-05-01,4.0\n",
        encoding="utf-8",
    )
    lagged_out = tmp_path / "lagged"
    lagged = subprocess.run(
        [*command[:3], str(lagged_out), *command[4:], "--macro", str(fred), "--macro-lag", "45"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert lagged.returncode == 0, lagged.stderr
    macro = load_snapshots(lagged_out)[0].kb.macro
    assert set(macro) == {"CPI_YOY", "POLICY_RATE", "UNRATE"}
    # dated by their months' ends: April's (2024-04-30 + 45) is not out by 2024-05-17
    assert macro["CPI_YOY"].date == dt.date(2024, 3, 31)
    assert macro["UNRATE"].date == dt.date(2024, 3, 31)  # April's is missing ('.')
    bad = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples/market/prices_to_snapshots.py"),
            str(ROOT / "examples/market/synthetic-macro.csv"),
            str(tmp_path / "x"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert "ticker(s) IDX not in the price file(s)" in bad.stderr
