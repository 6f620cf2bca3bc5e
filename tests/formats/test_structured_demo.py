"""``scripted:demo`` playing the structured format: every round by hand, as the format
calls it (its typed call data), checked with the format's own rules, for two
positions (pro/con) and for named positions; and whole debates with strict rules."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from moot.errors import BackendError
from moot.formats import get_format
from moot.formats.structured import rules
from moot.formats.structured.payload import (
    STANDINGS,
    Argument,
    Closing,
    CrossExamination,
    StanceChange,
)
from moot.formats.structured.replies import (
    MAX_ARGUMENTS,
    MIN_ARGUMENTS,
    ClosingReply,
    CrossExamReply,
    OpeningReply,
)
from moot.formats.structured.rounds import ClosingCall, CrossExamCall, OpeningCall
from moot.judging.judge import (
    JudgeCall,
    JudgedUnit,
    bias_signals,
    build_judgement,
    check_judge_reply,
)
from moot.judging.replies import judge_reply_type
from moot.judging.rubric import GENERAL
from moot.llm.scripted import DemoBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message
from moot.options import RunOptions
from moot.prompts import render
from moot.text import cjk_share, join_sentences, normalise, sentences, word_count


@pytest.fixture(autouse=True, scope="module")
def _demo_writers_registered() -> None:
    """The demo's writers are registered with the built-in formats, as in a run; run
    alone, this file would otherwise call a demo backend that knows no structured round."""
    get_format("structured")


SETTINGS = GenerationSettings()
MESSAGES = [Message("system", "You are a test."), Message("user", "Say something please")]
TOPICS = {
    "en": "Remote work should be the default for office jobs",
    "zh": "远程办公应当成为办公室工作的默认选项",
}
PRO_CON = {"pro": ("Pro", "PRO"), "con": ("Con", "CON")}
NAMED = {"A": ("Hainan", "A"), "B": ("the North-East", "B"), "C": ("Yunnan", "C")}


def _run(
    backend: DemoBackend, context: CallContext | None, messages: Sequence[Message] = MESSAGES
) -> Completion:
    return asyncio.run(backend.generate(messages, schema=None, settings=SETTINGS, context=context))


def _context(
    side: str, round_name: str, data: object, lang: str = "en", topic: str | None = None
) -> CallContext:
    return CallContext(
        role=side,
        round=round_name,
        side=side,
        lang=lang,
        topic=TOPICS[lang] if topic is None else topic,
        format="structured",
        data=data,
    )


def _opening(side: str, name: str, lang: str = "en", topic: str | None = None) -> CallContext:
    return _context(
        side, "opening", OpeningCall(side, name, MIN_ARGUMENTS, MAX_ARGUMENTS), lang, topic
    )


def _language_ok(text: str, lang: str) -> bool:
    share = cjk_share(text)
    return share > 0.3 if lang == "zh" else share < 0.3


def _debate_by_hand(
    backend: DemoBackend,
    lang: str,
    topic: str,
    positions: dict[str, tuple[str, str]] = PRO_CON,
) -> None:
    """Every round by hand, as the structured format calls it, checked with the rules."""
    prefixes = tuple(prefix for _, prefix in positions.values())
    arguments: list[Argument] = []
    for side, (name, prefix) in positions.items():
        reply = OpeningReply.model_validate_json(
            _run(backend, _opening(side, name, lang, topic)).text
        )
        assert rules.check_opening(reply, lang, prefixes) == []
        assert all(len(sentences(a.claim)) == 1 for a in reply.arguments)
        if side not in ("pro", "con"):
            # a named position argues for its own name
            assert all(name in a.claim for a in reply.arguments)
        arguments += [
            Argument(
                id=f"{prefix}-{n}",
                side=side,
                claim=a.claim,
                reasoning=a.reasoning,
                evidence=a.evidence,
            )
            for n, a in enumerate(reply.arguments, start=1)
        ]
    all_ids = [a.id for a in arguments]

    cross: list[CrossExamination] = []
    for side in positions:
        opposing = tuple(a for a in arguments if a.side != side)
        own = tuple(a for a in arguments if a.side == side)
        target_ids = tuple(a.id for a in opposing)
        data = CrossExamCall(side, opposing, own, target_ids)
        exam = CrossExamReply.model_validate_json(
            _run(backend, _context(side, "cross_examination", data, lang, topic)).text
        )
        assert rules.check_cross_exam(exam, target_ids, all_ids, lang, prefixes) == []
        assert tuple(i.target_id for i in exam.responses) == target_ids
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
    for side in positions:
        own = tuple(a for a in arguments if a.side == side)
        own_ids = tuple(a.id for a in own)
        received = tuple(c for c in cross if c.by != side and c.target_id in own_ids)
        given = tuple(c for c in cross if c.by == side)
        opposing = tuple(a for a in arguments if a.side != side)
        data_c = ClosingCall(side, own, opposing, received, given, own_ids, (100, 200))
        closing = ClosingReply.model_validate_json(
            _run(backend, _context(side, "closing", data_c, lang, topic)).text
        )
        assert rules.check_closing(closing, own_ids, lang) == []
        refuted = {c.target_id for c in received if c.response == "refute"}
        assert closing.unrefuted == {i: i not in refuted for i in own_ids}
        conceded = [c for c in given if c.response == "concede"]
        assert len(closing.concessions) == min(3, len(conceded))
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

    names = {side: name for side, (name, _) in positions.items()}
    transcript = render(
        "judge_transcript",
        lang,
        package="moot.formats.structured",
        names=names,
        arguments=arguments,
        cross=cross,
        closings=closings,
    )
    units = tuple(
        JudgedUnit(
            id=a.id,
            side=a.side,
            claim=a.claim,
            responses={c.by: c.response for c in cross if c.target_id == a.id},
        )
        for a in arguments
    )
    call = JudgeCall(units, STANDINGS, GENERAL.dimensions, transcript)
    context = CallContext(
        role="judge", round="judgement", topic=topic, lang=lang, format="structured", data=call
    )
    reply_type = judge_reply_type(GENERAL.dimensions, STANDINGS)
    verdict = reply_type.model_validate_json(_run(backend, context).text)
    debate_text = normalise(transcript)
    ids = [a.id for a in arguments]
    assert check_judge_reply(verdict, ids, debate_text, lang) == []
    assessments = getattr(verdict, "assessments")  # noqa: B009 (a reply type built at run time)
    assert [a.argument_id for a in assessments] == ids
    # the standing follows the most damaging answer any other position gave (the first
    # of equally damaging ones, in position order)
    damage = {"concede": 0, "partial": 1, "challenge": 1, "refute": 2}
    expected = {
        "refute": {"REFUTED"},
        "concede": {"UPHELD"},
        "partial": {"PARTIALLY_UPHELD"},
        "challenge": {"UNCERTAIN", "PARTIALLY_UPHELD"},
    }
    for assessment, unit in zip(assessments, units, strict=True):
        decisive = max(unit.responses.values(), key=lambda r: damage[r])
        assert assessment.standing in expected[decisive], (unit, assessment.standing)
        assert _language_ok(assessment.reason, lang)
    assert len(getattr(verdict, "fallacies")) <= 2  # noqa: B009
    assert all(_language_ok(q, lang) for q in getattr(verdict, "unresolved_questions"))  # noqa: B009
    judgement = build_judgement(
        verdict,
        judge_model=backend.spec,
        rubric=GENERAL,
        units=units,
        debate_text=debate_text,
        lang=lang,
        names=names,
    )
    assert all(f.verified for f in judgement.fallacies)
    assert bias_signals(judgement, lang) == []
    assert list(judgement.totals) == list(positions)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 11, 2024])
def test_demo_every_round_passes_every_rule(lang: str, seed: int) -> None:
    _debate_by_hand(DemoBackend(seed), lang, TOPICS[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seed", [0, 5])
def test_demo_named_positions_pass_every_rule(lang: str, seed: int) -> None:
    positions = (
        NAMED if lang == "en" else {"A": ("海南", "A"), "B": ("东北", "B"), "C": ("云南", "C")}
    )
    _debate_by_hand(DemoBackend(seed), lang, TOPICS[lang], positions)


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


def test_demo_is_deterministic_seed_sensitive_and_varies_the_count() -> None:
    context = _opening("pro", "Pro")
    first = _run(DemoBackend(seed=7), context).text
    assert _run(DemoBackend(seed=7), context).text == first
    by_seed = {
        seed: OpeningReply.model_validate_json(_run(DemoBackend(seed=seed), context).text)
        for seed in range(12)
    }
    assert len({r.model_dump_json() for r in by_seed.values()}) == len(by_seed)
    counts = {len(r.arguments) for r in by_seed.values()}
    assert counts == set(range(MIN_ARGUMENTS, MAX_ARGUMENTS + 1))


def test_demo_is_topic_aware_and_labels_its_figures() -> None:
    for lang, label in (("en", "not real data"), ("zh", "非真实数据")):
        text = _run(DemoBackend(1), _opening("pro", "Pro", lang)).text
        reply = OpeningReply.model_validate_json(text)
        assert all(TOPICS[lang] in a.claim for a in reply.arguments)
        assert all(label in a.evidence for a in reply.arguments)


def test_demo_needs_the_call_data_of_its_round() -> None:
    backend = DemoBackend(1)
    with pytest.raises(BackendError, match="carries no CrossExamCall"):
        _run(backend, _context("pro", "cross_examination", None))
    with pytest.raises(BackendError, match="carries no ClosingCall"):
        _run(backend, _context("pro", "closing", ("not", "a", "closing")))
    with pytest.raises(BackendError, match="carries no JudgeCall"):
        _run(backend, _context("judge", "judgement", None))
    french = CallContext(
        role="pro",
        round="opening",
        side="pro",
        lang="fr",
        format="structured",
        data=OpeningCall("pro", "Pro", 3, 5),
    )
    with pytest.raises(BackendError, match="'fr'"):
        _run(backend, french)


def test_demo_judge_of_units_nobody_answered_is_uncertain() -> None:
    units = (JudgedUnit("PRO-1", "pro", "A claim"), JudgedUnit("CON-1", "con", "Another"))
    call = JudgeCall(units, STANDINGS, GENERAL.dimensions, "")
    context = CallContext(
        role="judge", round="judgement", topic="t", format="structured", data=call
    )
    verdict = judge_reply_type(GENERAL.dimensions, STANDINGS).model_validate_json(
        _run(DemoBackend(3), context).text
    )
    assessments = getattr(verdict, "assessments")  # noqa: B009
    assert [a.standing for a in assessments] == ["UNCERTAIN", "UNCERTAIN"]
    assert check_judge_reply(verdict, ["PRO-1", "CON-1"], normalise("A claim Another"), "en") == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("sides", [(), ("Hainan", "the North-East", "Yunnan")])
def test_demo_runs_a_whole_debate_with_no_warnings_or_reasks(
    lang: str, sides: tuple[str, ...]
) -> None:
    from moot.debate import run_debate

    options = RunOptions(
        model=DemoBackend(5), lang=lang, seed=5, max_reasks=0, strict_rules=True, sides=sides
    )
    result = run_debate(TOPICS[lang], options)
    positions = len(sides) or 2
    assert result.warnings == []
    assert result.usage.calls == 3 * positions + 1
    assert result.usage.reasks == 0
    assert result.usage.prompt_tokens > 0
    assert result.usage.completion_tokens > 0
