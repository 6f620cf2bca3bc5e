"""The scripted backends: the programmable test double and the ``scripted:demo`` model."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

import pytest
from pydantic import BaseModel

from moot.errors import BackendError, ConfigError
from moot.formats import rules
from moot.formats.replies import (
    MAX_ARGUMENTS,
    MIN_ARGUMENTS,
    ClosingReply,
    CrossExamReply,
    OpeningReply,
)
from moot.formats.structured import DebateSettings, StructuredDebate
from moot.judging.judge import _debate_text, bias_signals, build_judgement, check_judge_reply
from moot.judging.replies import JudgeReply
from moot.judging.rubric import GENERAL
from moot.llm.backend import Backend, resolve_backend
from moot.llm.meter import Meter, MeteredBackend
from moot.llm.scripted import DemoBackend, ScriptedBackend, estimate_tokens
from moot.llm.structured import generate_structured
from moot.llm.types import (
    CallContext,
    Completion,
    GenerationSettings,
    Message,
    OutputSpec,
    Usage,
)
from moot.prompts import render
from moot.schema import SIDES, Argument, Closing, CrossExamination, Lang, Side, StanceChange
from moot.text import cjk_share, join_sentences, sentences, word_count

SETTINGS = GenerationSettings()
MESSAGES = [Message("system", "You are a test."), Message("user", "Say something please")]
TOPICS = {
    "en": "Remote work should be the default for office jobs",
    "zh": "远程办公应当成为办公室工作的默认选项",
}


class Pair(BaseModel):
    a: int
    b: str


def _run(
    backend: Backend, context: CallContext | None = None, messages: Sequence[Message] = MESSAGES
) -> Completion:
    return asyncio.run(backend.generate(messages, schema=None, settings=SETTINGS, context=context))


# ---- ScriptedBackend ------------------------------------------------------------------


def test_scripted_replies_are_consumed_in_order() -> None:
    backend = ScriptedBackend(["first", {"k": "值"}, Pair(a=1, b="x")])
    assert isinstance(backend, Backend)
    assert backend.spec == "scripted"
    assert backend.remaining == 3
    texts = [_run(backend).text for _ in range(3)]
    assert texts[0] == "first"
    assert json.loads(texts[1]) == {"k": "值"}
    assert Pair.model_validate_json(texts[2]) == Pair(a=1, b="x")
    assert backend.remaining == 0


def test_scripted_completion_fields_and_usage_estimate() -> None:
    completion = _run(ScriptedBackend(["one two three"], name="fake-model"))
    assert completion.finish_reason == "stop"
    assert completion.model == "fake-model"
    assert completion.usage == Usage(prompt_tokens=7, completion_tokens=3)
    assert estimate_tokens("hello world, 你好") == 4


def test_scripted_completion_passes_through_unchanged() -> None:
    cut = Completion(text='{"a": 1', finish_reason="length", usage=Usage(5, 9), model="m")
    assert _run(ScriptedBackend([cut])) is cut


def test_scripted_single_reply_is_a_one_reply_script() -> None:
    backend = ScriptedBackend("only")
    assert _run(backend).text == "only"
    with pytest.raises(BackendError):
        _run(backend)


def test_scripted_rejects_items_it_cannot_send() -> None:
    with pytest.raises(ConfigError, match="script item 1"):
        ScriptedBackend(["ok", 42])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="latency_ms"):
        ScriptedBackend(["ok"], latency_ms=-1)


def test_scripted_records_every_call() -> None:
    backend = ScriptedBackend(["a", "b"])
    spec = OutputSpec(name="X", json_schema={"type": "object"})
    context = CallContext(role="pro", round="opening", side="pro", topic="t")
    asyncio.run(backend.generate(MESSAGES, schema=spec, settings=SETTINGS, context=context))
    _run(backend)
    first, second = backend.calls
    assert first.messages == tuple(MESSAGES)
    assert first.schema == spec
    assert first.settings == SETTINGS
    assert first.context == context
    assert second.schema is None
    assert second.context is None


def test_scripted_exhaustion_is_a_clear_backend_error() -> None:
    backend = ScriptedBackend(["a", "b"])
    _run(backend)
    _run(backend)
    with pytest.raises(BackendError, match="script exhausted after 2 calls") as info:
        _run(backend, CallContext(role="judge", round="judgement"))
    assert info.value.spec == "scripted"
    assert "judge" in str(info.value)
    assert len(backend.calls) == 3


def test_scripted_function_form_sync_and_async() -> None:
    seen: list[tuple[int, str | None]] = []

    def reply(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> str:
        seen.append((len(messages), context.role if context else None))
        return f"echo: {messages[-1].content}"

    async def areply(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> Completion:
        await asyncio.sleep(0)
        return Completion(text="async", finish_reason="length", usage=Usage(), model="m")

    sync_backend = ScriptedBackend(reply)
    assert sync_backend.remaining is None
    assert _run(sync_backend, CallContext(role="con", round="closing")).text == (
        "echo: Say something please"
    )
    assert seen == [(2, "con")]
    assert _run(ScriptedBackend(areply)).finish_reason == "length"


def test_scripted_drives_the_reask_loop() -> None:
    good = {"a": 2, "b": "ok"}
    backend = ScriptedBackend(["not json", good])
    outcome = asyncio.run(
        generate_structured(
            backend,
            MESSAGES,
            Pair,
            settings=SETTINGS,
            context=CallContext(role="pro", round="opening"),
            meter=Meter(),
        )
    )
    assert outcome.value == Pair(a=2, b="ok")
    assert outcome.attempts == 2
    assert backend.calls[1].messages[-2] == Message("assistant", "not json")


# ---- DemoBackend: specs -----------------------------------------------------------------


def test_demo_from_spec() -> None:
    plain = DemoBackend.from_spec("demo", seed=4)
    assert plain.spec == "scripted:demo"
    assert plain.latency_ms == 0
    assert plain.seed == 4
    slow = DemoBackend.from_spec("demo?latency_ms=200")
    assert slow.latency_ms == 200
    assert slow.spec == "scripted:demo?latency_ms=200"
    assert DemoBackend.from_spec("demo?latency_ms=12.5").spec == "scripted:demo?latency_ms=12.5"
    resolved = resolve_backend("scripted:demo?latency_ms=200", seed=9)
    assert isinstance(resolved, DemoBackend)
    assert (resolved.seed, resolved.latency_ms) == (9, 200)


@pytest.mark.parametrize(
    ("rest", "message"),
    [
        ("", "unknown scripted model"),
        ("demo2", "unknown scripted model"),
        ("other?latency_ms=1", "unknown scripted model"),
        ("demo?latency=5", "unknown parameter 'latency'"),
        ("demo?latency_ms=5&speed=1", "unknown parameter 'speed'"),
        ("demo?latency_ms=abc", "non-negative number"),
        ("demo?latency_ms=-1", "non-negative number"),
        ("demo?latency_ms=inf", "non-negative number"),
        ("demo?latency_ms=nan", "non-negative number"),
        ("demo?latency_ms=", "non-negative number"),
        ("demo?latency_ms=1&latency_ms=2", "given twice"),
        ("demo?latency_ms", "bad query"),
    ],
)
def test_demo_from_spec_rejects_bad_specs(rest: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        DemoBackend.from_spec(rest)


# ---- DemoBackend: behaviour -------------------------------------------------------------


def _opening_context(side: Side, lang: str = "en", topic: str | None = None) -> CallContext:
    return CallContext(
        role=side,
        round="opening",
        side=side,
        lang=lang,
        topic=TOPICS[lang] if topic is None else topic,
    )


def test_demo_is_deterministic_and_seed_sensitive() -> None:
    context = _opening_context("pro")
    first = _run(DemoBackend(seed=7), context).text
    assert _run(DemoBackend(seed=7), context).text == first
    by_seed = {
        seed: OpeningReply.model_validate_json(_run(DemoBackend(seed=seed), context).text)
        for seed in range(12)
    }
    assert len({r.model_dump_json() for r in by_seed.values()}) == len(by_seed)
    counts = {len(r.arguments) for r in by_seed.values()}
    assert counts == set(range(MIN_ARGUMENTS, MAX_ARGUMENTS + 1))


def test_demo_seed_falls_back_to_the_call_settings() -> None:
    context = _opening_context("con")
    backend = DemoBackend()

    def text(seed: int) -> str:
        settings = GenerationSettings(seed=seed)
        completion = asyncio.run(
            backend.generate(MESSAGES, schema=None, settings=settings, context=context)
        )
        return completion.text

    assert text(1) == text(1)
    assert text(1) != text(2)


def test_demo_is_topic_aware_and_labels_its_figures() -> None:
    for lang, label in (("en", "not real data"), ("zh", "非真实数据")):
        text = _run(DemoBackend(1), _opening_context("pro", lang)).text
        reply = OpeningReply.model_validate_json(text)
        assert all(TOPICS[lang] in a.claim for a in reply.arguments)
        assert all(label in a.evidence for a in reply.arguments)


def test_demo_reports_usage_estimates() -> None:
    completion = _run(DemoBackend(1), _opening_context("pro"))
    assert completion.usage.prompt_tokens == sum(estimate_tokens(m.content) for m in MESSAGES)
    assert completion.usage.completion_tokens == estimate_tokens(completion.text)
    assert completion.model == "scripted:demo"


def test_demo_calls_overlap_when_concurrent() -> None:
    backend = DemoBackend(1, latency_ms=50)

    async def both() -> None:
        await asyncio.gather(
            backend.generate(
                MESSAGES, schema=None, settings=SETTINGS, context=_opening_context("pro")
            ),
            backend.generate(
                MESSAGES, schema=None, settings=SETTINGS, context=_opening_context("con")
            ),
        )

    asyncio.run(both())
    first, second = backend.calls
    assert first.started < second.finished
    assert second.started < first.finished


def test_demo_needs_a_context_it_understands() -> None:
    backend = DemoBackend(1)
    with pytest.raises(BackendError, match="CallContext"):
        _run(backend, None)
    with pytest.raises(BackendError, match="round"):
        _run(backend, CallContext(role="pro", round="rebuttal", side="pro"))
    with pytest.raises(BackendError, match="target_ids"):
        _run(backend, CallContext(role="pro", round="cross_examination", side="pro"))
    with pytest.raises(BackendError, match="argument_ids"):
        _run(backend, CallContext(role="judge", round="judgement"))
    with pytest.raises(BackendError, match="fr"):
        _run(backend, CallContext(role="pro", round="opening", side="pro", lang="fr"))


def _language_ok(text: str, lang: str) -> bool:
    share = cjk_share(text)
    return share > 0.3 if lang == "zh" else share < 0.3


def _debate_by_hand(backend: DemoBackend, lang: str, topic: str) -> None:
    """Every round by hand, as the structured format calls it, checked with the rules."""
    arguments: list[Argument] = []
    for side in SIDES:
        reply = OpeningReply.model_validate_json(
            _run(backend, _opening_context(side, lang, topic)).text
        )
        assert rules.check_opening(reply, lang) == []
        assert all(len(sentences(a.claim)) == 1 for a in reply.arguments)
        arguments += [
            Argument(
                id=f"{side.upper()}-{n}",
                side=side,
                claim=a.claim,
                reasoning=a.reasoning,
                evidence=a.evidence,
            )
            for n, a in enumerate(reply.arguments, start=1)
        ]
    all_ids = [a.id for a in arguments]

    cross: list[CrossExamination] = []
    for side in SIDES:
        opposing = [a for a in arguments if a.side != side]
        own = [a for a in arguments if a.side == side]
        target_ids = [a.id for a in opposing]
        context = CallContext(
            role=side,
            round="cross_examination",
            side=side,
            topic=topic,
            lang=lang,
            extra={"opposing": opposing, "own": own, "target_ids": target_ids},
        )
        exam = CrossExamReply.model_validate_json(_run(backend, context).text)
        assert rules.check_cross_exam(exam, target_ids, all_ids, lang) == []
        assert [i.target_id for i in exam.responses] == target_ids
        assert len({i.response for i in exam.responses}) >= min(3, len(target_ids))
        cross += [
            CrossExamination(
                by=side,
                target_id=i.target_id,
                response=i.response,
                reasoning=i.reasoning,
                follow_up=i.follow_up,
            )
            for i in exam.responses
        ]

    closings: list[Closing] = []
    for side in SIDES:
        own = [a for a in arguments if a.side == side]
        own_ids = [a.id for a in own]
        received = [c for c in cross if c.by != side]
        given = [c for c in cross if c.by == side]
        context = CallContext(
            role=side,
            round="closing",
            side=side,
            topic=topic,
            lang=lang,
            extra={
                "own": own,
                "opposing": [a for a in arguments if a.side != side],
                "received": received,
                "given": given,
                "own_ids": own_ids,
            },
        )
        closing = ClosingReply.model_validate_json(_run(backend, context).text)
        assert rules.check_closing(closing, own_ids, lang) == []
        refuted = {c.target_id for c in received if c.response == "refute"}
        assert closing.unrefuted == {i: i not in refuted for i in own_ids}
        conceded = [c for c in given if c.response == "concede"]
        assert len(closing.concessions) == len(conceded)
        assert closing.stance_changed == bool(conceded)
        stance = join_sentences(closing.final_stance, lang)
        words = word_count(stance)
        assert 100 <= words <= 200
        if lang == "zh":
            assert 150 <= len(stance) <= 320
        closings.append(
            Closing(
                side=side,
                concessions=closing.concessions,
                unrefuted=[i for i, stood in closing.unrefuted.items() if stood],
                final_stance=stance,
                stance_change=StanceChange(
                    changed=closing.stance_changed, reason=closing.stance_change_reason
                ),
            )
        )

    ids = [a.id for a in arguments]
    messages = [
        Message(
            "system", render("judge_system", lang, weights=dict(GENERAL.weights), profile="general")
        ),
        Message(
            "user",
            render(
                "judge",
                lang,
                topic=topic,
                arguments=arguments,
                cross=cross,
                closings=closings,
                ids=ids,
            ),
        ),
    ]
    context = CallContext(
        role="judge", round="judgement", topic=topic, lang=lang, extra={"argument_ids": ids}
    )
    verdict = JudgeReply.model_validate_json(_run(backend, context, messages).text)
    debate_text = _debate_text(arguments, cross, closings)
    assert check_judge_reply(verdict, ids, debate_text, lang) == []
    assert [a.argument_id for a in verdict.assessments] == ids
    expected = {
        "refute": {"REFUTED"},
        "concede": {"UPHELD"},
        "partial": {"PARTIALLY_UPHELD"},
        "challenge": {"UNCERTAIN", "PARTIALLY_UPHELD"},
    }
    answered = {c.target_id: c.response for c in cross}
    for assessment in verdict.assessments:
        assert assessment.standing in expected[answered[assessment.argument_id]]
        assert _language_ok(assessment.reason, lang)
    assert len(verdict.fallacies) <= 2
    assert all(_language_ok(q, lang) for q in verdict.unresolved_questions)
    judgement = build_judgement(
        verdict,
        judge_model=backend.spec,
        rubric=GENERAL,
        arguments=arguments,
        cross=cross,
        debate_text=debate_text,
        lang=lang,
    )
    assert all(f.verified for f in judgement.fallacies)
    assert bias_signals(judgement, lang) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 11, 2024])
def test_demo_every_round_passes_every_rule(lang: str, seed: int) -> None:
    _debate_by_hand(DemoBackend(seed), lang, TOPICS[lang])


@pytest.mark.parametrize(
    ("lang", "topic"),
    [
        ("en", "Should the U.S. ban TikTok? Yes! See above, argument 2 and PRO-1."),
        ("en", "远程办公应当成为默认选项"),
        ("en", "word " * 80),
        ("zh", "Should AI be regulated?"),
        ("zh", "是否应该征收碳税？是的。新论点：不应该！"),
        ("zh", "人工智能" * 40),
    ],
)
def test_demo_awkward_topics_still_pass_every_rule(lang: str, topic: str) -> None:
    for seed in range(4):
        _debate_by_hand(DemoBackend(seed), lang, topic)


def test_demo_judge_without_cross_examination_in_the_prompt() -> None:
    ids = ["PRO-1", "CON-1"]
    context = CallContext(role="judge", round="judgement", topic="t", extra={"argument_ids": ids})
    verdict = JudgeReply.model_validate_json(_run(DemoBackend(3), context).text)
    assert [a.standing for a in verdict.assessments] == ["UNCERTAIN", "UNCERTAIN"]
    assert verdict.fallacies == []
    assert check_judge_reply(verdict, ids, "", "en") == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_demo_runs_a_whole_debate_with_no_warnings_or_reasks(lang: Lang) -> None:
    meter = Meter()
    backend = MeteredBackend(DemoBackend(5), meter)
    debate = StructuredDebate(
        TOPICS[lang],
        debaters={"pro": backend, "con": backend},
        judge=backend,
        settings=DebateSettings(lang=lang, seed=5, max_reasks=0, strict_rules=True),
        meter=meter,
    )
    record = asyncio.run(debate.run())
    assert record.warnings == []
    assert meter.calls == 7
    assert meter.reasks == 0
    assert meter.usage.prompt_tokens > 0
    assert meter.usage.completion_tokens > 0
