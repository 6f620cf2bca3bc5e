"""``--panel-deliberate ROUNDS``: after the independent pass each judge reads the
others' anonymised scores and reasons and may revise once per round. The result
keeps both passes; agreement before and after is recomputed here with the
``krippendorff`` package, and the revisions and the conformity figure from the
judges' integer scores."""

from __future__ import annotations

import json
import statistics
from typing import Any

import krippendorff
import numpy as np
import pytest
from typer.testing import CliRunner

import moot
from moot.cli import app
from moot.errors import ConfigError
from moot.judging.deliberation import DeliberationCall, conformity
from moot.llm.scripted import DemoBackend
from moot.report.html import to_html
from moot.schema import DebateResult, Revision
from moot.store import Store
from panel_checks import check_panel

TOPIC = "Should a 10-person startup adopt microservices from day one?"
PANEL = ["technical", "business", "risk", "general"]


def _run(rounds: int, backend: DemoBackend | str = "scripted:demo", **extra: Any) -> DebateResult:
    return moot.run_debate(
        TOPIC, model=backend, panel=PANEL, panel_deliberate=rounds, seed=3, **extra
    )


def _alpha(judges: list[dict[str, Any]], ids: list[str]) -> float:
    data = np.array(
        [
            [next(s["calibrated"] for s in j["scores"] if s["argument_id"] == i) for i in ids]
            for j in judges
        ],
        dtype=float,
    )
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="interval"))


def _weighted(judge: dict[str, Any], source: str) -> dict[str, float]:
    """A judge's weighted score of each unit: of its first run (what deliberation
    starts from) or of its pooled scores."""
    rows = judge["runs"][0]["scores"] if source == "run" else judge["scores"]
    return {s["argument_id"]: s["weighted"] for s in rows}


@pytest.mark.parametrize("rounds", [1, 2])
def test_both_passes_agreement_and_conformity_recomputed(rounds: int) -> None:
    result = _run(rounds)
    doc = json.loads(result.model_dump_json())
    check_panel(doc)  # the independent pass is the panel, untouched
    panel = doc["panel"]
    deliberation = panel["deliberation"]
    assert [r["round"] for r in deliberation["rounds"]] == list(range(1, rounds + 1))
    ids = [c["argument_id"] for c in panel["consensus"]]
    names = [j["name"] for j in panel["judges"]]
    before = deliberation["agreement_before"]["alpha_interval"]["value"]
    assert before == pytest.approx(_alpha(panel["judges"], ids), abs=1e-4)
    assert before == panel["agreement"]["alpha_interval"]["value"]
    shown = {j["name"]: _weighted(j, "run") for j in panel["judges"]}
    every: list[Revision] = []
    for round_ in deliberation["rounds"]:
        judges = round_["judges"]
        assert [j["name"] for j in judges] == names
        # every judge's pooled scores are its one revised run's, weighted by its rubric
        for judge in judges:
            (run,) = judge["runs"]
            for score in judge["scores"]:
                raw = next(x for x in run["scores"] if x["argument_id"] == score["argument_id"])
                weights = judge["weights"]
                assert score["weighted"] == pytest.approx(
                    sum(weights[d] * raw["scores"][d] for d in weights), abs=1e-3
                )
        assert round_["agreement"]["alpha_interval"]["value"] == pytest.approx(
            _alpha(judges, ids), abs=1e-4
        )
        now = {j["name"]: _weighted(j, "pooled") for j in judges}
        means = {i: statistics.fmean(shown[n][i] for n in names) for i in ids}
        expected = [
            (n, i, shown[n][i], now[n][i], abs(now[n][i] - means[i]) < abs(shown[n][i] - means[i]))
            for n in names
            for i in ids
            if now[n][i] != shown[n][i]
        ]
        found = [Revision.model_validate(r) for r in round_["revisions"]]
        assert [
            (r.judge, r.argument_id, r.before, r.after, r.toward_mean) for r in found
        ] == expected
        for r in found:
            assert r.panel_mean == pytest.approx(means[r.argument_id], abs=1e-4)
        every += found
        shown = now
    assert deliberation["agreement_after"] == deliberation["rounds"][-1]["agreement"]
    assert deliberation["revisions"] == len(every)
    assert deliberation["toward_mean"] == sum(r.toward_mean for r in every)
    silent = sum(r.toward_mean and r.new_reason is None for r in every)
    assert deliberation["silent"] == silent
    assert deliberation["conformity"] == (round(silent / len(every), 4) if every else None)
    assert every, "the demo judges revise some scores"


def test_each_judge_sees_the_others_anonymised_and_is_asked_once_per_round() -> None:
    backend = DemoBackend(seed=3)
    _run(2, backend)
    calls = [c for c in backend.calls if c.context.round.startswith("deliberation_")]
    assert sorted((c.context.round, c.context.role) for c in calls) == sorted(
        (f"deliberation_{n}", f"judge:{name}") for n in (1, 2) for name in PANEL
    )
    for call in calls:
        data = call.context.data
        assert isinstance(data, DeliberationCall)
        assert len(data.others) == len(PANEL) - 1
        assert all(len(view) == len(data.own) for view in data.others)


def test_the_prompt_names_no_other_judge() -> None:
    seen: list[str] = []

    class Recording(DemoBackend):
        async def generate(self, messages: Any, **kwargs: Any) -> Any:
            context = kwargs.get("context")
            if context is not None and context.round == "deliberation_1":
                seen.append(messages[-1].content)
            return await super().generate(messages, **kwargs)

    _run(1, Recording(seed=3))
    assert len(seen) == len(PANEL)
    for text in seen:
        assert "Judge 1:" in text
        assert "Judge 3:" in text
        assert "Judge 4:" not in text
        debate = text[: text.index("</debate>")]
        for name in PANEL:
            assert text.count(f"{name} judge") == debate.count(f"{name} judge")


def test_deliberation_calls_are_journaled() -> None:
    store = Store()
    _run(1, store=store, debate_id="deliberating")
    rounds = [c.round for c in store.calls("deliberating")]
    assert rounds.count("deliberation_1") == len(PANEL)


def test_conformity_counts_silent_moves_toward_the_mean() -> None:
    def revision(toward: bool, reason: str | None) -> Revision:
        return Revision(
            round=1, judge="j", argument_id="PRO-1", before=5.0, after=6.0, panel_mean=6.0,
            toward_mean=toward, new_reason=reason,
        )  # fmt: skip

    assert conformity([]) is None
    assert conformity([revision(True, None), revision(True, "a new point")]) == 0.5
    assert conformity([revision(False, None), revision(True, None)]) == 0.5


def test_briefing_in_both_languages_and_the_html() -> None:
    for lang, title, note in (
        ("en", "### Deliberation", "The verdict above uses the independent pass"),
        ("zh", "### 合议", "上面的裁决采用独立评分"),
    ):
        topic = TOPIC if lang == "en" else "十人的初创公司应该从第一天就采用微服务吗？"
        ran = CliRunner().invoke(
            app,
            [
                "run", topic, "--model", "scripted:demo", "--panel", ",".join(PANEL),
                "--panel-deliberate", "1", "--lang", lang, "--no-store",
            ],
        )  # fmt: skip
        assert ran.exit_code == 0, ran.output
        assert title in ran.output
        assert note in ran.output
    page = to_html(_run(1))
    assert 'id="deliberation-table"' in page


@pytest.mark.parametrize("rounds", [-1, 4, 1.5])
def test_bad_rounds_are_refused(rounds: object) -> None:
    with pytest.raises(ConfigError, match="--panel-deliberate"):
        moot.run_debate(TOPIC, model="scripted:demo", panel=PANEL, panel_deliberate=rounds)


def test_deliberation_needs_a_panel() -> None:
    with pytest.raises(ConfigError, match="--panel-deliberate needs a --panel"):
        moot.run_debate(TOPIC, model="scripted:demo", panel_deliberate=1)
    ran = CliRunner().invoke(
        app, ["run", TOPIC, "--model", "scripted:demo", "--panel-deliberate", "1", "--no-store"]
    )
    assert ran.exit_code == 2
    assert "--panel-deliberate" in ran.output


def test_without_the_option_there_is_no_deliberation() -> None:
    result = _run(0)
    assert result.panel is not None
    assert result.panel.deliberation is None


def test_the_live_page_counts_and_names_the_deliberation_rounds() -> None:
    from moot.report.html.formats import expected_calls, rounds

    config = {"panel": PANEL, "panel_deliberate": 2, "sides": [], "topic_type": "technical"}
    assert rounds("structured", config)[-3:] == ("judgement", "deliberation_1", "deliberation_2")
    # three rounds of one call per position, every judge once, then twice more
    assert expected_calls("structured", config) == 3 * 2 + len(PANEL) * 3
    store = Store()
    result = _run(2, store=store, debate_id="counted", topic_type="technical")
    assert result.usage.calls == expected_calls("structured", config)
