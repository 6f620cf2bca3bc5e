"""``moot tournament``: N competitive debates between two debater configurations,
sides alternating, tallied with Wilson intervals; and its command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moot.cli import app
from moot.errors import ConfigError
from moot.formats.competitive.tournament import check_plan, run_tournament, tally
from moot.options import RunOptions
from moot.stats import wilson_interval
from moot.store import Store

TOPICS = ["Should cities ban cars from their centres?", "Should schools abolish homework?"]
SMALL = {
    "embedder": "lexical",
    "claims": 1,
    "branching": 1,
    "depth": 1,
    "voters": 3,
    "stage_seconds": {"opening": 40, "rebuttal": 40, "closing": 30},
}


def test_a_tournament_alternates_sides_and_tallies_every_debate() -> None:
    store = Store()
    result = run_tournament(
        TOPICS,
        ["full", "baseline"],
        3,
        RunOptions(model="scripted:demo", seed=10, format_options=SMALL),
        store=store,
    )
    assert [g.configs for g in result.games] == [
        {"pro": "full", "con": "baseline"},
        {"pro": "baseline", "con": "full"},
        {"pro": "full", "con": "baseline"},
    ]
    assert [g.topic for g in result.games] == [TOPICS[0], TOPICS[1], TOPICS[0]]
    assert [g.seed for g in result.games] == [11, 12, 13]
    for game in result.games:
        assert game.run_id is not None
        row = store.get_debate(game.run_id)
        assert row is not None
        assert row.status == "done"
        body = json.loads(row.result_json or "{}")["payload"]["competitive"]
        assert {side: s["config"] for side, s in body["sides"].items()} == game.configs
    full, baseline = result.standings
    for standing, name in ((full, "full"), (baseline, "baseline")):
        assert standing.config == name
        verdicts = [g.verdict for g in result.games]
        wins = verdicts.count(name)
        decided = sum(v is not None for v in verdicts)
        assert standing.verdict.wins == wins
        assert standing.verdict.losses == decided - wins
        low, high = wilson_interval(wins, decided)
        assert standing.verdict.interval == (round(low, 4), round(high, 4))
        stages = [w for g in result.games for w in g.stages.values()]
        assert standing.stages.wins + standing.stages.losses + standing.stages.undecided == len(
            stages
        )
    assert full.verdict.wins == baseline.verdict.losses


def test_tally_of_nothing_decided_is_the_whole_interval() -> None:
    record = tally([None, None], "full")
    assert (record.wins, record.losses, record.undecided) == (0, 0, 2)
    assert record.rate is None
    assert record.interval == (0.0, 1.0)


@pytest.mark.parametrize(
    ("configs", "debates", "message"),
    [
        (["full"], 2, "between two configurations"),
        (["full", "full"], 2, "two different"),
        (["full", "clever"], 2, "unknown configuration 'clever'"),
        (["full", "baseline"], 0, "--debates"),
    ],
)
def test_bad_plans_are_refused(configs: list[str], debates: int, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        check_plan(TOPICS, configs, debates)


def test_the_tournament_command(tmp_path: Path) -> None:
    out = tmp_path / "tournament.json"
    command = [
        "tournament",
        TOPICS[0],
        "--configs",
        "no-flow,no-rehearsal",
        "--debates",
        "2",
        "--model",
        "scripted:demo",
        "--stage-seconds",
        "40,40,30",
        "--depth",
        "1",
        "--branching",
        "1",
        "--format-option",
        "claims=1",
        "--format-option",
        "embedder=lexical",
        "--no-store",
        "--quiet",
        "--json",
        str(out),
    ]
    done = CliRunner().invoke(app, command)
    assert done.exit_code == 0, (done.stderr[-2000:], done.exception)
    assert "no-flow" in done.stdout
    assert "95% interval" in done.stdout
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["configs"] == ["no-flow", "no-rehearsal"]
    assert len(doc["games"]) == 2
    assert all(g["run_id"] is None for g in doc["games"])
    bad = CliRunner().invoke(
        app, [*command[:2], "--configs", "full,clever", "--model", "scripted:demo"]
    )
    assert bad.exit_code == 2
    assert "unknown configuration" in bad.stderr


def test_a_tournament_runs_on_the_batch_engine_and_resumes_by_its_id(tmp_path: Path) -> None:
    """The debates run as one batch (two at once here), stored under the tournament's
    id: run again with that id and more debates, the finished ones are skipped, not run
    again, and the tally is the same over them."""
    options = RunOptions(model="scripted:demo", seed=4, format_options=SMALL)
    seen: list[tuple[str, str]] = []
    with Store(tmp_path / "moot.db") as store:
        first = run_tournament(
            TOPICS,
            ["full", "baseline"],
            2,
            options,
            store=store,
            tournament_id="tn-resume",
            parallel=2,
            on_outcome=lambda o: seen.append((o.id, o.outcome)),
        )
        assert sorted(o for _, o in seen) == ["done", "done"]
        assert all(g.run_id is not None and g.run_id.startswith("tn-resume-") for g in first.games)
        seen.clear()
        second = run_tournament(
            TOPICS,
            ["full", "baseline"],
            3,
            options,
            store=store,
            tournament_id="tn-resume",
            on_outcome=lambda o: seen.append((o.id, o.outcome)),
        )
        assert len(store.list_debates()) == 3
    assert second.games[:2] == first.games
    assert dict(seen) == {
        **{g.run_id: "skipped" for g in first.games},
        second.games[2].run_id: "done",
    }


def test_a_tournament_without_a_store_cannot_go_to_a_ray_cluster() -> None:
    with pytest.raises(ConfigError, match="shared store"):
        run_tournament(
            TOPICS,
            ["full", "baseline"],
            1,
            RunOptions(model="scripted:demo", format_options=SMALL),
            executor="ray",
            address="127.0.0.1:1",
        )
