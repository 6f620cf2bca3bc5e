"""The judge panel: calibration, weights, agreement, divergence, intervals, swap."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

import moot
from moot.cli import app
from moot.errors import ConfigError
from moot.formats.structured.payload import StructuredPayload
from moot.judging.calibration import calibrate
from moot.judging.panel import decide_divergence, judge_weight
from moot.judging.profiles import BUILTIN, assign_models, load_profiles, select_profiles
from moot.judging.topic import classify_by_keywords
from moot.llm.scripted import DemoBackend, ScriptedBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.schema import Agreement, AgreementStat, ArgumentConsensus
from moot.store import Store
from panel_checks import check_panel

TOPIC = "Should a 10-person startup adopt microservices from day one?"
PANEL = ["technical", "business", "risk", "general"]


def test_calibration_zscore_minmax_and_degenerate_cases() -> None:
    values, cal = calibrate({"a": 2.0, "b": 4.0, "c": 6.0})
    assert values == pytest.approx({"a": -1.224745, "b": 0.0, "c": 1.224745})
    assert cal.note is None
    values, cal = calibrate({"a": 2.0, "b": 4.0, "c": 6.0}, "minmax")
    assert values == {"a": 0.0, "b": 0.5, "c": 1.0}
    values, cal = calibrate({"a": 5.0, "b": 5.0})
    assert values == {"a": 0.0, "b": 0.0}
    assert cal.note is not None
    assert "equal" in cal.note
    values, cal = calibrate({"a": 7.0}, "minmax")
    assert values == {"a": 0.5}
    assert cal.note is not None
    assert "one score" in cal.note


@pytest.mark.parametrize("method", ["zscore", "minmax"])
def test_equal_scores_whose_float_mean_is_off_by_an_ulp_are_flat(method: str) -> None:
    """Six equal weighted scores of 5.85 (seen on the embedded model's panel at seed 11):
    the naive float mean is 5.8500000000000005 and the deviation about 1e-16, which made
    every calibrated score -1.0 with a stored scale of 0."""
    scores = dict.fromkeys("abcdef", 5.85)
    assert sum(scores.values()) / len(scores) != 5.85  # the float trap is real
    values, cal = calibrate(scores, method)  # type: ignore[arg-type]
    neutral = 0.0 if method == "zscore" else 0.5
    assert values == dict.fromkeys("abcdef", neutral)
    assert cal.scale == 0.0
    assert cal.note is not None
    assert "equal" in cal.note


def test_judge_weight_formula() -> None:
    assert judge_weight(1.0, 1.0) == 1.0
    assert judge_weight(0.5, 1.0) == pytest.approx(0.65)
    assert judge_weight(1.0, 0.0) == pytest.approx(0.7)


def test_builtin_profiles_carry_the_spec_weights() -> None:
    assert dict(BUILTIN["technical"].rubric.weights) == {
        "logic": 0.40,
        "evidence": 0.35,
        "responsiveness": 0.15,
        "honesty": 0.10,
    }
    assert dict(BUILTIN["risk"].rubric.weights) == {
        "logic": 0.15,
        "evidence": 0.20,
        "responsiveness": 0.35,
        "honesty": 0.30,
    }
    with pytest.raises(ConfigError, match="unknown judge"):
        select_profiles(["technical", "astrology"])


def test_custom_profiles_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "judges.toml"
    path.write_text(
        "[judges.security]\nlogic = 0.25\nevidence = 0.35\nresponsiveness = 0.15\n"
        'honesty = 0.25\nmodel = "scripted:demo"\n[judges.security.relevance]\ntechnical = 1.0\n',
        encoding="utf-8",
    )
    profiles = load_profiles(path)
    assert profiles["security"].relevance_to("technical") == 1.0
    assert profiles["security"].relevance_to("business") == 0.7
    path.write_text("[judges.bad]\nlogic = 0.5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="needs numeric"):
        load_profiles(path)


def test_judge_models_are_assigned_by_name_order_or_to_all() -> None:
    profiles = select_profiles(["technical", "risk"])
    assert assign_models(profiles, [], "local") == {"technical": "local", "risk": "local"}
    assert assign_models(profiles, ["a"], "local") == {"technical": "a", "risk": "a"}
    assert assign_models(profiles, ["a", "b"], "local") == {"technical": "a", "risk": "b"}
    assert assign_models(profiles, ["risk=openai:x@http://h/v1"], "local") == {
        "technical": "local",
        "risk": "openai:x@http://h/v1",
    }
    with pytest.raises(ConfigError):
        assign_models(profiles, ["a", "b", "c"], "local")
    with pytest.raises(ConfigError, match="no judge 'business'"):
        assign_models(profiles, ["business=local"], "local")


def test_topic_type_keywords() -> None:
    assert classify_by_keywords("Should we move our database to Kubernetes?") == "technical"
    assert classify_by_keywords("What is the regulatory risk and compliance outlook?") == "risk"
    assert classify_by_keywords("Is it a good idea?") == "general"
    assert classify_by_keywords("这个软件架构用微服务好吗？") == "technical"


def _stat(value: float | None) -> AgreementStat:
    return AgreementStat(value=value, label="high" if value else "not_computable")


def _row(ident: str, scores: Sequence[float]) -> ArgumentConsensus:
    import statistics

    std = statistics.stdev(scores)
    return ArgumentConsensus(
        argument_id=ident,
        scores={f"j{n}": s for n, s in enumerate(scores)},
        raw_scores={f"j{n}": s for n, s in enumerate(scores)},
        standings={f"j{n}": "UPHELD" for n in range(len(scores))},
        majority_standing="UPHELD",
        std=std,
        disputed=std >= 2.5,
    )


@pytest.mark.parametrize(
    ("alpha", "kappa", "scores", "totals", "reasons"),
    [
        (0.9, 0.9, [6, 6.5, 6.2], {"pro": 7.0, "con": 5.0}, []),
        (0.4, 0.3, [6, 6.5, 6.2], {"pro": 7.0, "con": 5.0}, ["low_agreement"]),
        (0.4, 0.6, [6, 6.5, 6.2], {"pro": 7.0, "con": 5.0}, []),
        (0.9, 0.9, [2, 4, 7, 9], {"pro": 7.0, "con": 5.0}, ["disputed_argument"]),
        (0.9, 0.9, [6, 6.5, 6.2], {"pro": 6.1, "con": 6.0}, ["close_totals"]),
        (None, None, [6, 6.5, 6.2], {"pro": 7.0, "con": 5.0}, []),
        # N positions: the leader against the runner-up, not against the last
        (0.9, 0.9, [6, 6.5, 6.2], {"A": 2.0, "B": 7.0, "C": 6.9}, ["close_totals"]),
        (0.9, 0.9, [6, 6.5, 6.2], {"A": 6.9, "B": 2.0, "C": 7.0, "D": 3.0}, ["close_totals"]),
        (0.9, 0.9, [6, 6.5, 6.2], {"A": 7.0, "B": 6.0, "C": 6.9, "D": 6.95}, ["close_totals"]),
        (0.9, 0.9, [6, 6.5, 6.2], {"A": 5.0, "B": 7.0, "C": 6.0}, []),
    ],
)
def test_divergence_rules(
    alpha: float | None,
    kappa: float | None,
    scores: list[float],
    totals: dict[str, float],
    reasons: list[str],
) -> None:
    agreement = Agreement(
        alpha_interval=_stat(alpha),
        alpha_nominal=_stat(alpha),
        kappa=_stat(kappa),
        indicative_only=True,
    )
    rows = [_row("PRO-1", scores), _row("CON-1", [5, 5.5, 5.2])]
    divergence = decide_divergence(agreement, rows, totals, [])
    assert divergence.reasons == reasons
    assert divergence.diverged == bool(reasons)
    if "disputed_argument" in reasons:
        assert divergence.disputed_arguments[0] == "PRO-1"


def test_panel_debate_numbers_all_follow_from_the_raw_scores() -> None:
    result = moot.run_debate(TOPIC, model="scripted:demo", seed=5, panel=PANEL, judge_runs=2)
    doc = json.loads(moot.to_json(result))
    check_panel(doc)
    panel = doc["panel"]
    assert [j["name"] for j in panel["judges"]] == PANEL
    assert panel["topic_type_source"] == "model"
    # the single-judge fields stay valid: the lead (general) judge's first run
    assert doc["judgement"] == panel["judges"][3]["runs"][0]
    assert doc["usage"]["calls"] == 6 + 1 + len(PANEL) * 2


def test_judges_never_see_each_other() -> None:
    demo = DemoBackend(seed=2)
    judge_prompts: list[list[Message]] = []

    async def judge(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> Completion:
        assert context is not None
        if context.round == "judgement":
            judge_prompts.append(list(messages))
        return await demo.generate(messages, schema=schema, settings=settings, context=context)

    result = moot.run_debate(
        TOPIC,
        model="scripted:demo",
        judge_models=["risk=scripted:demo"],
        judge_model=ScriptedBackend(judge),
        panel=["general", "risk"],
        seed=2,
    )
    assert result.panel is not None
    assert len(judge_prompts) == 1  # the general judge went through the scripted backend
    texts = " ".join(m.content for m in judge_prompts[0])
    for other in result.panel.judges:
        for run in other.runs:
            assert run.key_insight not in texts


def test_topic_type_falls_back_to_keywords_and_can_be_set() -> None:
    demo = DemoBackend(seed=1)

    async def no_classifier(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> Completion | str:
        assert context is not None
        if context.round == "classification":
            return "not json"
        return await demo.generate(messages, schema=schema, settings=settings, context=context)

    backend = ScriptedBackend(no_classifier)
    topic = "Should we migrate our database to Kubernetes?"
    result = moot.run_debate(topic, model=backend, panel=["technical", "general"], seed=1)
    assert result.panel is not None
    assert (result.panel.topic_type, result.panel.topic_type_source) == ("technical", "keywords")
    chosen = moot.run_debate(
        topic, model="scripted:demo", panel=["technical"], topic_type="risk", seed=1
    )
    assert chosen.panel is not None
    assert (chosen.panel.topic_type, chosen.panel.topic_type_source) == ("risk", "user")
    assert chosen.panel.judges[0].relevance == 0.6


def test_one_judge_panel_reports_agreement_as_not_computable() -> None:
    result = moot.run_debate(TOPIC, model="scripted:demo", panel=["risk"], seed=1)
    assert result.panel is not None
    assert result.panel.agreement.kappa.label == "not_computable"
    assert result.panel.agreement.kappa.value is None
    assert result.panel.agreement.indicative_only


def test_swap_sides_exchanges_the_models() -> None:
    demo_a, demo_b = DemoBackend(seed=1), DemoBackend(seed=2)
    seen: list[tuple[str, str]] = []

    def named(name: str, demo: DemoBackend) -> ScriptedBackend:
        async def answer(
            messages: Sequence[Message],
            schema: OutputSpec | None,
            settings: GenerationSettings,
            context: CallContext | None,
        ) -> Completion:
            assert context is not None
            seen.append((name, context.role))
            return await demo.generate(messages, schema=schema, settings=settings, context=context)

        return ScriptedBackend(answer, name=name)

    result = moot.run_debate(
        TOPIC,
        pro_model=named("A", demo_a),
        con_model=named("B", demo_b),
        judge_model="scripted:demo",
        swap_sides=True,
        seed=3,
    )
    assert result.swap is not None
    assert result.swap.models == {"pro": "B", "con": "A"}
    assert {role for name, role in seen if name == "A"} == {"pro", "con"}
    assert result.swap.survives == (result.swap.original_leader == result.swap.swapped_leader)
    briefing = moot.to_markdown(result)
    assert "## Stance swap check" in briefing


def test_too_close_to_call_names_no_winner() -> None:
    for seed in range(1, 40):
        result = moot.run_debate(TOPIC, model="scripted:demo", seed=seed, panel=PANEL)
        assert result.panel is not None
        if result.panel.divergence.reasons == ["close_totals"]:
            break
    else:
        pytest.fail("no close-totals panel in 40 seeds")
    briefing = moot.to_markdown(result)
    assert result.panel.winner is None
    assert "too close to call, so no winner is named" in briefing


def test_a_panel_that_disagrees_names_no_winner_and_says_why() -> None:
    """One judge ranks the arguments in reverse: real disagreement, not leniency."""
    demo = DemoBackend(seed=8)

    async def contrarian(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> str:
        assert context is not None
        reply = await demo.generate(messages, schema=schema, settings=settings, context=context)
        doc = json.loads(reply.text)
        if context.role.startswith(("judge:risk", "judge:business")):
            for item in doc["assessments"]:
                for dim in ("logic", "evidence", "responsiveness", "honesty"):
                    item[dim] = 11 - item[dim]
                item["standing"] = "REFUTED" if item["standing"] == "UPHELD" else "UPHELD"
        return json.dumps(doc)

    result = moot.run_debate(TOPIC, model=ScriptedBackend(contrarian), panel=PANEL, seed=8)
    assert result.panel is not None
    divergence = result.panel.divergence
    assert divergence.diverged
    assert {"low_agreement", "disputed_argument"} & set(divergence.reasons)
    assert result.panel.winner is None
    briefing = moot.to_markdown(result)
    assert "could not agree, so no winner is named" in briefing
    assert "human expert" in briefing
    assert "Most disputed arguments" in briefing
    for ident in divergence.disputed_arguments:
        assert f"**{ident}**" in briefing
    check_panel(json.loads(moot.to_json(result)))


def test_cli_panel_json_and_calibrate(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "panel.json"
    ran = runner.invoke(
        app,
        [
            "run",
            TOPIC,
            "--model",
            "scripted:demo",
            "--seed",
            "4",
            "--panel",
            "technical,business,general",
            "--judge-runs",
            "2",
            "--json",
            str(out),
            "-q",
        ],
    )
    assert ran.exit_code == 0, ran.output
    check_panel(json.loads(out.read_text(encoding="utf-8")))

    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        json.dumps({"topic": "Should we rewrite billing in Rust?", "correct": "con"})
        + "\n"
        + json.dumps({"topic": "Should cities ban cars downtown?", "correct": "pro"})
        + "\n",
        encoding="utf-8",
    )
    calibrated = runner.invoke(
        app,
        ["calibrate", str(cases), "--model", "scripted:demo", "--panel", "technical,general", "-q"],
    )
    assert calibrated.exit_code == 0, calibrated.output
    store = Store()
    hits, debates = store.judge_accuracy("technical@scripted:demo")
    assert debates == 2
    # the recorded accuracy now weighs the technical judge in the next panel
    result = moot.run_debate(
        TOPIC,
        model="scripted:demo",
        panel=["technical"],
        topic_type="technical",
        seed=1,
        store=store,
    )
    assert result.panel is not None
    judge = result.panel.judges[0]
    assert judge.accuracy == hits / 2
    assert judge.accuracy_debates == 2
    assert math.isclose(judge.weight, 0.7 * 1.0 + 0.3 * hits / 2)


def test_a_merely_lenient_judge_is_calibrated_away() -> None:
    """A judge who adds 3 points to everything, and one who takes 3 away, keep the
    same ranking: calibration must not read that as disagreement."""
    demo = DemoBackend(seed=6)

    async def shifted(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> str:
        assert context is not None
        reply = await demo.generate(messages, schema=schema, settings=settings, context=context)
        shift = {"judge:technical#1": 3, "judge:risk#1": -3}.get(context.role, 0)
        doc = json.loads(reply.text)
        if shift and context.round == "judgement":
            for item in doc["assessments"]:
                for dim in ("logic", "evidence", "responsiveness", "honesty"):
                    item[dim] = min(10, max(1, item[dim] + shift))
        return json.dumps(doc)

    result = moot.run_debate(
        TOPIC, model=ScriptedBackend(shifted), panel=["technical", "risk", "general"], seed=6
    )
    assert result.panel is not None
    raw_spread = max(
        (max(r.raw_scores.values()) - min(r.raw_scores.values())) for r in result.panel.consensus
    )
    assert raw_spread > 4  # the raw scores are far apart...
    assert "disputed_argument" not in result.panel.divergence.reasons  # ...but not disputed
    check_panel(json.loads(moot.to_json(result)))


def test_zero_judge_weights_fall_back_to_equal_weights() -> None:
    from moot.judging.panel import bootstrap_intervals, panel_totals

    result = moot.run_debate(TOPIC, model="scripted:demo", panel=["technical", "risk"], seed=2)
    assert result.panel is not None
    judges = [j.model_copy(update={"weight": 0.0}) for j in result.panel.judges]
    totals = panel_totals(judges)
    for side in ("pro", "con"):
        expected = sum(j.adjusted_totals[side] for j in judges) / 2
        assert totals[side] == pytest.approx(expected, abs=1e-4)
    side_of = {a.id: a.side for a in StructuredPayload.model_validate(result.body).arguments}
    intervals = bootstrap_intervals(judges, side_of, samples=200)
    assert intervals["pro"].low <= intervals["pro"].high


def test_judge_runs_need_a_panel() -> None:
    with pytest.raises(ConfigError, match="needs a --panel"):
        moot.run_debate(TOPIC, model="scripted:demo", judge_runs=2)


def test_a_refused_run_is_never_left_running() -> None:
    store = Store()
    with pytest.raises(ConfigError, match="needs a price"):
        moot.run_debate(
            TOPIC,
            model="openai:m@http://127.0.0.1:9/v1",
            max_cost=0.01,
            store=store,
            debate_id="no-price",
        )
    assert store.get_debate("no-price") is None
