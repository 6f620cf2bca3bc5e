"""Debates of N positions (``--sides "A;B;C"``, 2-6) in the structured format: each
position answers every other position's arguments exactly once, ids per position,
totals and the gap (leader against runner-up), the panel and its agreement figures,
the briefing; and the positions refused before anything runs."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import moot
from invariants import check_result_json
from moot.cli import app
from moot.errors import ConfigError
from moot.formats.structured.payload import StructuredPayload
from moot.llm.scripted import DemoBackend
from moot.options import RunOptions
from moot.store import Store
from panel_checks import check_panel

TOPIC = "Where should a family of four spend the winter?"
THREE = ("Hainan", "the North-East", "Yunnan")
SIX = ("Hainan", "the North-East", "Yunnan", "Sichuan", "Guangxi", "Xinjiang")


@pytest.mark.parametrize("sides", [THREE, SIX], ids=["three", "six"])
def test_every_position_answers_every_other_positions_arguments_once(
    sides: tuple[str, ...],
) -> None:
    result = moot.run_debate(TOPIC, model="scripted:demo", seed=4, sides=sides)
    doc = check_result_json(moot.to_json(result))
    keys = "ABCDEF"[: len(sides)]
    assert [(p["key"], p["name"], p["prefix"]) for p in doc["positions"]] == [
        (k, name, k) for k, name in zip(keys, sides, strict=True)
    ]
    assert doc["models"] == {**{k: "scripted:demo" for k in keys}, "judge": "scripted:demo"}
    body = StructuredPayload.model_validate(result.body)
    for key in keys:
        own = [a.id for a in body.arguments if a.side == key]
        assert own == [f"{key}-{n}" for n in range(1, len(own) + 1)]
        answered = sorted(c.target_id for c in body.cross_examinations if c.by == key)
        assert answered == sorted(a.id for a in body.arguments if a.side != key)
    # one trace row per argument, listing the answer of each of the other positions
    for row in result.judgement.trace:
        assert set(row.responses) == set(keys) - {row.side}
    assert list(result.judgement.totals) == list(keys)
    gap = result.judgement.gap
    ranked = sorted(result.judgement.totals.items(), key=lambda kv: kv[1], reverse=True)
    if gap.leader is not None:
        assert (gap.leader, gap.runner_up) == (ranked[0][0], ranked[1][0])
    assert result.usage.calls == 3 * len(sides) + 1


@pytest.mark.timing
def test_a_six_sided_debate_is_four_waves() -> None:
    """Every position's call of a round is in flight together (given six concurrency
    slots; the default is four per endpoint); the rounds follow each other: the wave
    count does not grow with the positions."""
    backend = DemoBackend(seed=4, latency_ms=50)
    moot.run_debate(TOPIC, model=backend, sides=SIX, concurrency=6)
    by_round: dict[str, list[tuple[float, float]]] = {}
    for call in backend.calls:
        by_round.setdefault(call.context.round, []).append((call.started, call.finished))
    assert list(by_round) == ["opening", "cross_examination", "closing", "judgement"]
    for name in ("opening", "cross_examination", "closing"):
        calls = by_round[name]
        assert len(calls) == 6
        assert max(start for start, _ in calls) < min(end for _, end in calls), name
    rounds = list(by_round.values())
    for before, after in itertools.pairwise(rounds):
        assert max(end for _, end in before) <= min(start for start, _ in after)


@pytest.mark.parametrize("sides", [THREE, SIX], ids=["three", "six"])
def test_a_panel_judges_n_positions(sides: tuple[str, ...]) -> None:
    result = moot.run_debate(
        TOPIC,
        model="scripted:demo",
        seed=6,
        sides=sides,
        panel=["technical", "business", "risk", "general"],
        judge_runs=2,
    )
    doc = check_result_json(moot.to_json(result), extra_calls=1 + 4 * 2 - 1)
    check_panel(doc)
    assert result.panel is not None
    keys = list("ABCDEF"[: len(sides)])
    assert list(result.panel.totals) == keys
    assert list(result.panel.intervals) == keys
    for judge in result.panel.judges:
        assert list(judge.totals) == keys
        assert list(judge.adjusted_totals) == keys
    # agreement is measured over every argument of every position
    ids = [a.id for a in StructuredPayload.model_validate(result.body).arguments]
    assert [row.argument_id for row in result.panel.consensus] == ids
    assert result.panel.agreement.indicative_only == (len(ids) < 10)
    assert result.panel.agreement.alpha_interval.label != "not_computable"
    assert result.panel.agreement.kappa.value is not None


def test_the_briefing_names_every_position() -> None:
    result = moot.run_debate(TOPIC, model="scripted:demo", seed=2, sides=THREE, panel=["risk"])
    briefing = moot.to_markdown(result)
    assert "**Positions:** Hainan, the North-East, Yunnan" in briefing
    for name in THREE:
        # the totals table has a row per position
        assert re.search(
            rf"^\| [1-6] \| {re.escape(name)}( \(leads\))? \| \d+\.\d\d \|", briefing, re.MULTILINE
        )
    body = StructuredPayload.model_validate(result.body)
    for arg in body.arguments:
        assert f"| {arg.id} |" in briefing
    assert result.panel is not None
    assert result.panel.gap.text in briefing


def test_chinese_positions_keep_their_names() -> None:
    sides = ("海南", "东北", "云南")
    result = moot.run_debate(
        "冬天去哪里过冬？", model="scripted:demo", seed=1, lang="zh", sides=sides
    )
    check_result_json(moot.to_json(result))
    assert [p.name for p in result.positions] == list(sides)
    briefing = moot.to_markdown(result)
    for name in sides:
        assert name in briefing


def test_two_named_sides_are_positions_a_and_b() -> None:
    result = moot.run_debate(TOPIC, model="scripted:demo", seed=1, sides=["Hainan", "Yunnan"])
    check_result_json(moot.to_json(result))
    assert [(p.key, p.prefix) for p in result.positions] == [("A", "A"), ("B", "B")]


def test_cli_sides_json_and_stored_run(tmp_path: Path) -> None:
    out = tmp_path / "three.json"
    ran = CliRunner().invoke(
        app,
        [
            "run",
            TOPIC,
            "--sides",
            ";".join(THREE),
            "--model",
            "scripted:demo",
            "--seed",
            "3",
            "--id",
            "three-sides",
            "--json",
            str(out),
            "-q",
        ],
    )
    assert ran.exit_code == 0, ran.output
    doc = check_result_json(out.read_text(encoding="utf-8"))
    assert [p["name"] for p in doc["positions"]] == list(THREE)
    for name in THREE:
        assert name in ran.stdout
    row = Store().get_debate("three-sides")
    assert row is not None
    assert row.status == "done"
    assert row.config["options"]["sides"] == list(THREE)
    # the stored options read back into the one options type
    assert RunOptions.from_json(row.config["options"]).sides == THREE


@pytest.mark.parametrize(
    ("sides", "message"),
    [
        (("Hainan",), "2 to 6 positions, not 1"),
        (("A", "B", "C", "D", "E", "F", "G"), "2 to 6 positions, not 7"),
        (("Hainan", "hainan"), "same name"),
        (("Hainan", "  Hainan "), "same name"),
        (("Hainan", "   "), "empty"),
        (("Hainan", "x" * 81), "over 80 characters"),
    ],
)
def test_bad_positions_are_refused_before_anything_is_stored(
    sides: tuple[str, ...], message: str
) -> None:
    store = Store()
    with pytest.raises(ConfigError, match=message):
        moot.run_debate(TOPIC, model="scripted:demo", sides=sides, store=store, debate_id="bad")
    assert store.get_debate("bad") is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sides", "Hainan"], "2 to 6 positions, not 1"),
        (["--sides", "Hainan;;Yunnan"], "none of them empty"),
        (["--sides", "A;B;C", "--pro-model", "scripted:demo"], "with --sides, give --model"),
        (["--rounds", "2"], "the structured format has no option rounds"),
    ],
)
def test_cli_refuses_bad_position_options(args: list[str], message: str) -> None:
    ran = CliRunner().invoke(
        app, ["run", TOPIC, "--model", "scripted:demo", "--id", "refused", "-q", *args]
    )
    assert ran.exit_code == 2, ran.output
    assert message in " ".join(ran.stderr.split())
    assert "Traceback" not in ran.output
    assert Store().get_debate("refused") is None


def test_three_sided_json_parses_back(tmp_path: Path) -> None:
    result = moot.run_debate(TOPIC, model="scripted:demo", seed=9, sides=THREE)
    again = moot.DebateResult.model_validate_json(moot.to_json(result))
    assert again == result
    assert json.loads(moot.to_json(again))["positions"][2]["name"] == "Yunnan"
