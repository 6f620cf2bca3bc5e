"""The market format end to end on scripted backends: its rounds and waves, its
invariants recomputed from the result's JSON, slices respected in every prompt, the
evidence check and its penalty, the anti-handshake and new-evidence re-asks, the
panel, the swap and the options it refuses."""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from pydantic import BaseModel
from test_market_analysts import RATES_PANEL, canary_kb

from invariants import check_result_json
from moot import i18n, run_debate
from moot.debate import plan_run, resume_debate
from moot.errors import BudgetExceeded, ConfigError, DataError
from moot.formats import get_format
from moot.formats.market import demo
from moot.formats.market.data import MODULES, demo_kb, dump_kb, load_panel, render_slice
from moot.formats.market.data.evidence import penalised_evidence
from moot.formats.market.data.slices import agent_slice
from moot.formats.market.inputs import kb_option
from moot.formats.market.payload import ATTACKS
from moot.formats.market.replies import (
    MAX_CLAIM,
    ArgumentDraft,
    ChallengeItem,
    CrossExamReply,
    OpeningReply,
)
from moot.llm.schemas import portability_problems, registered_schemas
from moot.llm.scripted import DemoBackend, DemoRequest, ScriptedBackend
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.options import RunOptions
from moot.report import to_json, to_markdown
from moot.schema import DebateResult
from moot.store import Store
from panel_checks import check_panel


def labels(lang: str) -> dict[str, str]:
    """The shared labels and the market format's own, as a market briefing shows them."""
    return {**i18n.labels(lang), **get_format("market").labels(lang)}


TOPIC = "Will ExampleIndex close higher a month from now?"
WEIGHTS = {"logic": 0.30, "evidence": 0.30, "clarity": 0.20, "persuasiveness": 0.20}
Reply = BaseModel | str


def demo_reply(
    messages: Sequence[Message],
    schema: OutputSpec | None,
    settings: GenerationSettings,
    context: CallContext | None,
) -> Reply:
    """What ``scripted:demo`` answers (the seed the call's settings carry)."""
    assert context is not None
    return DemoBackend().reply(context, messages, schema=schema, seed=settings.seed or 0)


def backend(
    override: Callable[[CallContext, DemoRequest], Reply | None] | None = None,
    *,
    latency_ms: float = 0.0,
) -> ScriptedBackend:
    """A scripted backend that plays the demo, except where ``override`` answers."""

    def reply(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> Reply:
        assert context is not None
        if override is not None:
            request = DemoRequest(context, messages, schema, settings.seed or 0)
            answer = override(context, request)
            if answer is not None:
                return answer
        return demo_reply(messages, schema, settings, context)

    return ScriptedBackend(reply, name="scripted:market-test", latency_ms=latency_ms)


def run_market(model: Any = "scripted:demo", **changes: Any) -> DebateResult:
    options: dict[str, Any] = {"format": "market", "format_options": {"kb": "demo"}, "seed": 7}
    options.update(changes)
    return run_debate(TOPIC, model=model, **options)


def check_market_invariants(result: DebateResult, *, extra_calls: int = 0) -> dict[str, Any]:
    """Recompute from the result's JSON what every debate and the market format promise
    (``invariants.check_result_json``), and what the built-in analysts add: eight, four
    a side, ids from their names, claims within 50 characters, the market rubric; the
    same seed gives the same debate, another seed another."""
    doc = check_result_json(to_json(result), extra_calls=extra_calls)
    body: dict[str, Any] = doc["payload"]["market"]
    analysts = {a["id"]: a for a in body["analysts"]}
    assert len(analysts) == 8
    assert Counter(a["side"] for a in analysts.values()) == {"bull": 4, "bear": 4}
    for agent in analysts:
        own = [a["id"] for a in body["arguments"] if a["agent"] == agent]
        assert own == [f"{agent.upper()}-{n}" for n in range(1, len(own) + 1)]
    assert all(len(a["claim"]) <= 50 for a in body["arguments"])
    assert doc["judgement"]["weights"] == WEIGHTS
    one, two = run_market(seed=11), run_market(seed=11)
    assert one.payload == two.payload
    assert one.judgement == two.judgement
    assert run_market(seed=12).payload != one.payload
    return body


# ---- rounds, waves, invariants --------------------------------------------------------


def test_demo_debate_keeps_every_invariant_and_cites_only_real_numbers() -> None:
    result = run_market()
    body = check_market_invariants(result)
    numbers = [
        n
        for key in ("arguments", "challenges", "closings")
        for item in body[key]
        for n in item["check"]["numbers"]
    ]
    assert len(numbers) > 40
    assert {n["status"] for n in numbers} == {"matched"}
    assert result.usage.reasks == 0
    assert result.warnings == []
    assert body["synthesis"]["bull_case"]
    assert body["synthesis"]["judge_note"]
    assert body["baseline"] is None
    assert result.usage.calls == 8 * 3 + 2  # three rounds of eight, the judge, the synthesis


def test_chinese_demo_debate_speaks_chinese_and_cites_real_numbers() -> None:
    result = run_market(lang="zh")
    body = check_market_invariants(result)
    assert result.positions[0].name == "多头"
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in a["claim"]) for a in body["arguments"])
    statuses = {n["status"] for a in body["arguments"] for n in a["check"]["numbers"]}
    assert statuses == {"matched"}
    assert "市场综合" in to_markdown(result)


def test_same_seed_same_debate() -> None:
    one, two = run_market(seed=11), run_market(seed=11)
    assert one.payload == two.payload
    assert one.judgement == two.judgement
    assert run_market(seed=12).payload != one.payload


@pytest.mark.timing
def test_every_round_is_one_wave_of_concurrent_calls() -> None:
    """Openings, cross-examinations and closings each run all eight at once; the judge
    and its synthesis run together: four sequential waves (counted, not timed)."""
    in_flight: dict[str, int] = defaultdict(int)
    peak: dict[str, int] = defaultdict(int)
    order: list[str] = []

    class Recording(ScriptedBackend):
        async def generate(self, messages: Any, **kwargs: Any) -> Any:
            context = kwargs["context"]
            wave = "judge" if context.round in ("judgement", "synthesis") else context.round
            if not order or order[-1] != wave:
                order.append(wave)
            in_flight[wave] += 1
            peak[wave] = max(peak[wave], in_flight[wave])
            try:
                await asyncio.sleep(0.02)
                return await super().generate(messages, **kwargs)
            finally:
                in_flight[wave] -= 1

    result = run_market(model=Recording(demo_reply))  # the default concurrency
    assert order == ["opening", "cross_examination", "closing", "judge"]
    assert dict(peak) == {"opening": 8, "cross_examination": 8, "closing": 8, "judge": 2}
    assert result.usage.calls == 26
    peak.clear()
    order.clear()
    run_market(model=Recording(demo_reply), concurrency=4)
    assert dict(peak) == {"opening": 4, "cross_examination": 4, "closing": 4, "judge": 2}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, 8),
        ({"format_options": {"kb": "demo", "baseline": True}}, 9),
        ({"panel": ("technical", "business")}, 9),  # the topic classification joins
        ({"panel": ("technical", "business"), "topic_type": "technical"}, 8),
        ({"panel": ("technical", "business", "risk", "general"), "judge_runs": 3}, 13),
        ({"concurrency": 3}, 3),
        # structured: room for every opening argument call at once (the compact
        # profile asks each of a position's three arguments in its own call)
        ({"format": "structured", "format_options": {}}, 6),
        ({"format": "structured", "format_options": {}, "sides": tuple("ABCDEF")}, 18),
    ],
)
def test_default_concurrency_fits_the_widest_wave(changes: dict[str, Any], expected: int) -> None:
    """Without --concurrency each round is one wave: the cap is the format's widest
    wave (every analyst with the baseline and the classification, or the judges with
    the synthesis), at least 4."""
    options = RunOptions(
        format="market", format_options={"kb": "demo"}, model="scripted:demo"
    ).replace(**changes)
    assert plan_run(TOPIC, options).concurrency == expected


def test_baseline_joins_the_first_wave() -> None:
    result = run_market(format_options={"kb": "demo", "baseline": True})
    body = check_market_invariants(result)
    baseline = body["baseline"]
    assert baseline["direction"] in ("up", "down")
    assert (baseline["probability_up"] > 0.5) == (baseline["direction"] == "up")
    assert "baseline" in result.models
    assert result.usage.calls == 27


# ---- slices ---------------------------------------------------------------------------


def test_no_prompt_of_an_analyst_holds_data_outside_its_slice() -> None:
    """A KB whose every value is unique to its module: no prompt of an analyst holds
    a value of another module; its opening and cross-examination prompts hold its
    slice once, its closing prompt none (it cites what its arguments cited)."""
    kb, tokens = canary_kb()
    seen = backend()
    result = run_market(model=seen, format_options={"kb": kb_option(kb)})
    panel = load_panel()
    prompts: dict[str, list[str]] = defaultdict(list)
    for call in seen.calls:
        assert call.context is not None
        prompts[call.context.role].append("\n".join(m.content for m in call.messages))
    for agent in panel.agents.values():
        role = f"{agent.stance}:{agent.id}"
        texts = prompts[role]
        assert len(texts) == 3  # opening, cross-examination, closing
        own = render_slice(agent_slice(kb, agent))
        assert [text.count(own) for text in texts] == [1, 1, 0]
        for text in texts:
            for module in MODULES:
                if module in agent.modules:
                    continue
                leaked = [t for t in tokens[module] if t in text]
                assert not leaked, f"{role} sees {leaked} of {module}"
    assert result.body["kb"]["source"] == "canary"


def test_judge_reads_the_whole_knowledge_base() -> None:
    seen = backend()
    run_market(model=seen)
    judge = [c for c in seen.calls if c.context and c.context.round == "judgement"]
    assert len(judge) == 1
    assert render_slice(demo_kb()) in "\n".join(m.content for m in judge[0].messages)


# ---- the evidence check ---------------------------------------------------------------


def test_planted_wrong_numbers_are_all_flagged_and_correct_ones_never() -> None:
    planted: dict[str, list[str]] = {}

    def plant(context: CallContext, request: DemoRequest) -> Reply | None:
        if context.round != "opening" or context.attempt != 1:
            return None
        reply, texts = demo.planted_opening(request)
        planted[context.role.partition(":")[2]] = texts
        return reply

    for lang in ("en", "zh"):
        planted.clear()
        result = run_market(model=backend(plant), lang=lang)
        body = check_market_invariants(result)
        assert len(planted) == 8
        for a in body["arguments"]:
            flagged = [n["text"] for n in a["check"]["numbers"] if n["status"] == "unsupported"]
            assert len(flagged) == 1, (a["id"], a["check"])
            assert a["check"]["numbers"]
        flagged_by_agent: dict[str, list[str]] = defaultdict(list)
        for a in body["arguments"]:
            flagged_by_agent[a["agent"]] += [
                n["text"] for n in a["check"]["numbers"] if n["status"] == "unsupported"
            ]
        assert dict(flagged_by_agent) == planted
        penalised = [e for e in body["evidence_scores"] if e["raw"] > 1]
        assert penalised
        assert all(e["penalised"] < e["raw"] for e in penalised)
        briefing = to_markdown(result)
        assert labels(lang)["market.evidence"] in briefing
        for texts in planted.values():
            for text in texts:
                assert text in briefing


def _fund_bull_opening(lang: str) -> OpeningReply:
    """A P/E of 15 when the data says 35.03, a wrong earnings yield and a wrong date,
    beside correct and rounded citations."""
    if lang == "en":
        texts = [
            (
                "Valuation looks cheap at this level",
                "The trailing P/E of ExampleIndex is 15, against a long-run average of 18.5;"
                " earnings per share grew 4.58% year on year.",
            ),
            (
                "Earnings yield beats the bond yield",
                "The earnings yield is 5.2% while the dividend yield is about 1.5%, as of"
                " 2025-10-01; ExampleIndex closed at 6,876.17.",
            ),
        ]
    else:
        texts = [
            (
                "估值处于便宜的水平",
                "ExampleIndex 的市盈率为15倍，长期平均市盈率为18.5倍；每股收益同比增长4.58%。",
            ),
            (
                "盈利收益率高于债券收益率",
                "盈利收益率为5.2%，股息率约为1.5%；ExampleIndex 收于6,876.17。",
            ),
        ]
    return OpeningReply(
        arguments=[
            ArgumentDraft(claim=claim, evidence=evidence, confidence=70, counterpoints=["demo"])
            for claim, evidence in texts
        ]
    )


@pytest.mark.parametrize(
    ("lang", "wrong"),
    [("en", {"15", "5.2%", "2025-10-01"}), ("zh", {"15倍", "5.2%"})],
)
def test_a_pe_of_15_when_the_data_says_35_is_flagged(lang: str, wrong: set[str]) -> None:
    def answer(context: CallContext, request: DemoRequest) -> Reply | None:
        if context.round == "opening" and context.role == "bull:fund_bull":
            return _fund_bull_opening(lang)
        return None

    result = run_market(model=backend(answer), lang=lang)
    body = check_market_invariants(result)
    own = [a for a in body["arguments"] if a["agent"] == "fund_bull"]
    numbers = [n for a in own for n in a["check"]["numbers"]]
    flagged = {n["text"] for n in numbers if n["status"] == "unsupported"}
    assert flagged == wrong
    matched = {n["text"] for n in numbers if n["status"] == "matched"}
    assert {"18.5", "4.58%", "6,876.17"} <= {m.removesuffix("倍") for m in matched}
    pe = next(n for n in own[0]["check"]["numbers"] if n["text"].startswith("15"))
    assert pe["field"] == "fundamentals.EXI.pe_trailing"
    assert pe["kb_value"] == "35.03"
    raw = {e["argument_id"]: e for e in body["evidence_scores"]}
    first = raw[own[0]["id"]]
    assert first["penalised"] == penalised_evidence_int(first["raw"], 1, 3)


def penalised_evidence_int(raw: int, unsupported: int, cited: int) -> int:
    """The documented rule, written out again."""
    if unsupported == 0:
        return raw
    score = max(1, raw - 2 * unsupported)
    if unsupported == cited:
        score = min(score, 3)
    return min(raw, score)


def test_penalty_rule_matches_the_library_function() -> None:
    from moot.formats.market.data.evidence import EvidenceReport, NumberCheck

    def report(unsupported: int, matched: int) -> EvidenceReport:
        checks = [
            NumberCheck("1", 0, 1, "number", 1.0, "unsupported", None, None)
            for _ in range(unsupported)
        ] + [NumberCheck("2", 0, 1, "number", 2.0, "matched", "x", 2.0) for _ in range(matched)]
        return EvidenceReport(tuple(checks))

    for raw in range(1, 11):
        for unsupported in range(4):
            for matched in range(3):
                expected = penalised_evidence_int(raw, unsupported, unsupported + matched)
                got = penalised_evidence(raw, report(unsupported, matched))
                assert got == expected


# ---- cross-examination rules ------------------------------------------------------------


def test_handshake_and_invented_new_evidence_are_asked_again() -> None:
    """tech_bull first concedes everything, then cites a number outside its slice: both
    are sent back with the reason; the third reply is the demo's."""

    def answer(context: CallContext, request: DemoRequest) -> Reply | None:
        if context.round != "cross_examination" or context.role != "bull:tech_bull":
            return None
        good = demo.cross_examination(request)
        if context.attempt == 1:
            items = [c.model_copy(update={"challenge_type": "concede"}) for c in good.challenges]
            return CrossExamReply(challenges=items)
        if context.attempt == 2:
            items = [
                c.model_copy(update={"new_evidence": "The VIX stands at 41.17."})
                if c.challenge_type in ATTACKS
                else c
                for c in good.challenges
            ]
            return CrossExamReply(challenges=items)
        return good

    seen = backend(answer)
    result = run_market(model=seen)
    check_market_invariants(result)
    assert result.usage.reasks == 2
    calls = [c for c in seen.calls if c.context and c.context.role == "bull:tech_bull"]
    cross = [c for c in calls if c.context and c.context.round == "cross_examination"]
    assert len(cross) == 3
    second = cross[1].messages[-1].content
    assert "challenge or refute at least 2" in second
    third = cross[2].messages[-1].content
    assert "41.17" in third
    assert "not in your data" in third
    assert result.warnings == []


def test_a_handshake_that_persists_is_kept_as_a_warning() -> None:
    def answer(context: CallContext, request: DemoRequest) -> Reply | None:
        if context.round == "cross_examination" and context.role == "bear:macro_bear":
            good = demo.cross_examination(request)
            return CrossExamReply(
                challenges=[
                    c.model_copy(update={"challenge_type": "concede", "new_evidence": ""})
                    for c in good.challenges
                ]
            )
        return None

    result = run_market(model=backend(answer))
    check_market_invariants(result, extra_calls=0)
    codes = {(w.code, w.side) for w in result.warnings}
    assert ("handshake", "bear:macro_bear") in codes
    assert labels("en")["rule.handshake"] in to_markdown(result)
    with pytest.raises(Exception, match="did not validate"):
        run_market(model=backend(answer), strict_rules=True)


def test_a_challenge_of_an_unknown_argument_is_refused() -> None:
    def answer(context: CallContext, request: DemoRequest) -> Reply | None:
        if context.round == "cross_examination" and context.role == "bull:tech_bull":
            good = demo.cross_examination(request)
            if context.attempt == 1:
                wrong = [c.model_copy(update={"target_id": "FUND_BEAR-1"}) for c in good.challenges]
                return CrossExamReply(challenges=wrong)
            return good
        return None

    result = run_market(model=backend(answer))
    check_market_invariants(result)
    assert result.usage.reasks == 1


def test_a_quoted_opponent_number_is_not_flagged() -> None:
    """A challenge may repeat the wrong number it disputes."""

    def answer(context: CallContext, request: DemoRequest) -> Reply | None:
        if context.round == "opening" and context.role == "bull:fund_bull":
            return _fund_bull_opening("en")
        if context.round == "cross_examination" and context.role == "bear:fund_bear":
            good = demo.cross_examination(request)
            first = good.challenges[0]
            items = [
                ChallengeItem(
                    target_id=first.target_id,
                    challenge_type="refute",
                    reasoning="They say the P/E is 15, but the data says 35.03.",
                    new_evidence="The trailing P/E of ExampleIndex is 35.03.",
                ),
                *good.challenges[1:],
            ]
            return CrossExamReply(challenges=items)
        return None

    result = run_market(model=backend(answer))
    body = result.body
    challenge = next(
        c for c in body["challenges"] if c["by"] == "fund_bear" and c["target_id"] == "FUND_BULL-1"
    )
    statuses = {n["text"]: n["status"] for n in challenge["check"]["numbers"]}
    assert statuses == {"15": "quoted", "35.03": "matched"}
    assert challenge["check"]["unsupported"] == 0


# ---- judging ----------------------------------------------------------------------------


def test_panel_judges_weigh_the_market_dimensions() -> None:
    result = run_market(panel=["technical", "business", "risk", "general"])
    assert result.panel is not None
    for judge in result.panel.judges:
        assert judge.weights == WEIGHTS
    body = check_market_invariants(result, extra_calls=1 + 3)  # classification, 3 judges
    check_panel(json.loads(to_json(result)))  # the panel's figures, recomputed
    judges = {e["judge"] for e in body["evidence_scores"]}
    assert judges == {f"judge:{name}#1" for name in ("technical", "business", "risk", "general")}
    assert labels("en")["market.panel_weights"] in to_markdown(result)


def _scored(request: DemoRequest, scores: Callable[[int], int]) -> str:
    """The demo judge's reply with the n-th assessment's four scores set to scores(n)."""
    reply = demo_reply(
        request.messages,
        request.schema,
        GenerationSettings(seed=request.seed),
        request.context,
    )
    data = json.loads(reply if isinstance(reply, str) else reply.model_dump_json())
    for n, assessment in enumerate(data["assessments"]):
        for dimension in WEIGHTS:
            assessment[dimension] = scores(n)
    return json.dumps(data)


@pytest.mark.parametrize(("inflated", "flagged"), [(True, True), (False, False)])
def test_score_inflation_detector_reads_the_market_judge(inflated: bool, flagged: bool) -> None:
    """A judge that gives every argument 9-10 is flagged; one whose scores spread
    over the scale (6-8 for good arguments) is not."""

    def judge(context: CallContext, request: DemoRequest) -> Reply | None:
        if context.round != "judgement":
            return None
        return _scored(request, (lambda n: 9 + n % 2) if inflated else (lambda n: 4 + n % 5))

    result = run_market(model=backend(judge))
    weighted = [s.weighted for s in result.judgement.scores]
    assert (min(weighted) >= 9) == inflated
    fired = [f for f in result.detectors if f.detector == "score_inflation"]
    assert bool(fired) == flagged
    if flagged:
        assert labels("en")["detector.score_inflation"] in to_markdown(result)


def test_swap_sides_moves_every_analyst_to_the_other_model() -> None:
    bull, bear = backend(), backend()
    result = run_market(
        pro_model=bull, con_model=bear, judge_model="scripted:demo", swap_sides=True
    )
    assert result.swap is not None
    bull_roles = {c.context.role for c in bull.calls if c.context}
    bear_roles = {c.context.role for c in bear.calls if c.context}
    analysts = {f"{a.stance}:{a.id}" for a in load_panel().agents.values()}
    # the first run: each side's analysts on its model; the swapped run: the other way
    assert bull_roles == bear_roles == analysts
    first_bull = [c.context.role for c in bull.calls[:8] if c.context]
    assert all(role.startswith("bull:") for role in first_bull)


def test_format_is_listed_and_its_schemas_are_portable() -> None:
    fmt = get_format("market")
    assert "--kb" in fmt.summary["en"]
    for spec in fmt.schemas():
        assert portability_problems(spec.json_schema) == [], spec.name


def _shape(spec: OutputSpec) -> str:
    """A schema with the argument ids it pins replaced by one placeholder: what
    registered schemas and sent ones must share, since a debate names its own ids."""

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                key: {**value, "enum": ["ID"]}
                if key in ("target_id", "argument_id") and isinstance(value, dict)
                else walk(value)
                for key, value in node.items()
            }
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return json.dumps([spec.name, walk(spec.json_schema)], sort_keys=True)


@pytest.mark.parametrize(
    ("changes", "judged"),
    [
        ({"panel": ("technical", "business", "risk"), "judge_runs": 2, "swap_sides": True}, 23),
        ({"format_options": {"kb": "demo", "baseline": True}, "lang": "zh"}, 23),
        ({"profile": "compact", "seed": 5}, 16),  # two arguments each
    ],
    ids=["panel-runs-swap", "baseline-zh", "compact"],
)
def test_every_schema_a_debate_sends_has_a_registered_shape(
    changes: dict[str, Any], judged: int
) -> None:
    """The registry holds, up to the argument ids, every schema a market debate of the
    built-in analysts sends (so the converter tests check what is really sent): the
    judge's for every number of arguments, each profile's and each language's."""

    def fewer(context: CallContext, request: DemoRequest) -> Reply | None:
        # one analyst makes two arguments, the others three: 23 for the judge to assess
        if context.round != "opening" or context.role != "bull:tech_bull":
            return None
        reply = demo_reply(
            request.messages, request.schema, GenerationSettings(seed=request.seed), context
        )
        assert isinstance(reply, OpeningReply)
        return OpeningReply(arguments=reply.arguments[:2])

    seen = backend(fewer)
    result = run_market(model=seen, **changes)
    assert len(result.judgement.scores) == judged
    registered = {_shape(spec) for specs in registered_schemas().values() for spec in specs}
    sent = [c.schema for c in seen.calls if c.schema is not None]
    assert {s.name for s in sent} >= {"OpeningReply", "CrossExamReply", "JudgeReply"}
    assert [s.name for s in sent if _shape(s) not in registered] == []


# ---- options ----------------------------------------------------------------------------


def test_options_are_checked_before_anything_runs(tmp_path: Any) -> None:
    with pytest.raises(ConfigError, match="needs a knowledge base"):
        run_debate(TOPIC, format="market", model="scripted:demo")
    with pytest.raises(ConfigError, match="bull and bear"):
        run_market(sides=["A", "B"])
    with pytest.raises(DataError, match=r"missing\.json"):
        run_market(format_options={"kb": str(tmp_path / "missing.json")})
    with pytest.raises(ConfigError, match="baseline option"):
        run_market(format_options={"kb": "demo", "baseline": "yes"})
    with pytest.raises(ConfigError, match="no option rounds"):
        run_market(format_options={"kb": "demo", "rounds": 2})
    data = kb_option(demo_kb())
    data.pop("fundamentals")
    data.pop("sectors")
    notes = get_format("market").check_options({"kb": data}, 2)
    assert any("fund_bull" in n and "fundamentals" in n for n in notes)
    for module in ("macro", "global_markets", "indices"):
        data.pop(module, None)
    with pytest.raises(ConfigError, match="macro_bull"):
        get_format("market").check_options({"kb": data}, 2)


def test_a_user_panel_of_analysts_runs_with_its_own_roles(tmp_path: Any) -> None:
    path = tmp_path / "analysts.toml"
    path.write_text(RATES_PANEL, encoding="utf-8")
    result = run_market(format_options={"kb": "demo", "analysts": str(path)})
    body = result.body
    assert {a["id"] for a in body["analysts"]} == {"rates_up", "rates_down"}
    assert {"bull:rates_up", "bear:rates_down"} <= set(result.models)
    assert all(a["lens"] == "rates" for a in body["arguments"])
    assert {n["field"].split(".")[0] for a in body["arguments"] for n in a["check"]["numbers"]} <= {
        "macro",
        "meta",
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_scripted_analysts_argue_from_a_slice_that_leans_one_way(lang: str, tmp_path: Any) -> None:
    """A panel of the user's own, on a KB whose only macro figures all lean up (CPI and
    rates falling): the scripted bear still argues, from those figures."""
    path = tmp_path / "analysts.toml"
    path.write_text(RATES_PANEL, encoding="utf-8")
    kb = {
        "meta": {"as_of": "2026-05-15", "source": "test", "warnings": []},
        "macro": {
            "CPI": {"name": "CPI y/y", "unit": "percent", "value": 3.1, "previous": 3.4,
                    "change": -0.3, "date": "2026-05-01"},
            "RATE": {"name": "Policy rate", "unit": "percent", "value": 4.5, "previous": 4.75,
                     "change": -0.25, "date": "2026-05-01"},
        },
    }  # fmt: skip
    result = run_market(format_options={"kb": kb, "analysts": str(path)}, lang=lang)
    bear = [a for a in result.body["arguments"] if a["agent"] == "rates_down"]
    assert len(bear) >= 2
    for argument in bear:
        assert argument["check"]["numbers"]
        assert not argument["check"]["unsupported"]


def test_every_scripted_claim_is_a_valid_claim() -> None:
    """The scripted analysts' claims fit a claim's bounds (Chinese ones, half the
    characters), whatever the lens."""
    for lang, limit in (("en", MAX_CLAIM), ("zh", MAX_CLAIM // 2)):
        for lens, sides in demo._words(lang).claims.items():
            for claims in sides.values():
                for claim in claims:
                    draft = {"claim": claim, "evidence": "x" * 10, "confidence": 50}
                    ArgumentDraft.model_validate({**draft, "counterpoints": ["abc"]})
                    assert len(claim) <= limit, (lens, claim)


def test_a_stored_run_keeps_its_files_and_resumes_without_them(tmp_path: Any) -> None:
    """The KB and analysts files are read into the run's stored options: a run stopped
    by its budget resumes after both files are gone, on the data it started with, and
    ends as the same run uninterrupted would."""
    kb_path, analysts_path = tmp_path / "kb.json", tmp_path / "analysts.toml"
    kb_path.write_text(dump_kb(demo_kb()), encoding="utf-8")
    analysts_path.write_text(RATES_PANEL, encoding="utf-8")
    files = {"kb": str(kb_path), "analysts": str(analysts_path)}
    store = Store()
    whole = run_market(format_options=files)
    with pytest.raises(BudgetExceeded):
        run_market(format_options=files, store=store, debate_id="kept", max_tokens=5000)
    row = store.get_debate("kept")
    assert row is not None
    assert 0 < len(store.calls("kept")) < whole.usage.calls  # stopped part of the way
    stored = RunOptions.from_json(row.config["options"])
    assert stored.format_options["kb"] == kb_option(demo_kb())
    assert set(stored.format_options["analysts"]["agents"]) == {"rates_up", "rates_down"}
    kb_path.unlink()
    analysts_path.unlink()
    resumed = resume_debate("kept", store=store, max_tokens=10**6)
    assert resumed.body == whole.body
    assert resumed.judgement == whole.judgement


def test_a_label_reaches_over_an_entry_name_and_ma_distances_are_percentages() -> None:
    from moot.formats.market.data import verify_numbers

    kb = demo_kb()
    checks = verify_numbers("The trailing P/E of ExampleIndex is 15.", kb).checks
    assert [(c.text, c.status, c.field) for c in checks] == [
        ("15", "unsupported", "fundamentals.EXI.pe_trailing")
    ]
    for text in (
        "ExampleIndex trades above its 200-day moving average by 15.23%",
        "ExampleIndex 相对200日均线15.23%",
    ):
        (check,) = verify_numbers(text, kb).checks
        assert (check.status, check.field) == ("matched", "technicals.EXI.close_vs_sma_200_pct")
