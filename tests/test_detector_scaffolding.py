"""The eleventh round's topic-drift form (docs/detectors.md, "Eleventh round"): a turn that is
the debate framework's scaffolding (an instruction on how to write the argument, echoed
instead of obeyed, or the framework's fallback text where the model returned nothing) is no
speech and drifts; a speech that uses the same words about its subject does not."""

from __future__ import annotations

from typing import Any

import pytest

from moot.detectors import parse_transcript, run_detectors
from moot.detectors.topic_drift import scaffolding

DEBATES: dict[str, tuple[dict[str, str], str, str]] = {
    "en": (
        {"Scientist": "Scientist (argues its own view)", "Philosopher": "Philosopher (its own)"},
        "Should AI be regulated like medicine?",
        "AI should be regulated like medicine: trials before release, and a regulator.",
    ),
    "zh": (
        {"严格合规Agent": "严格合规视角", "宽松业务Agent": "宽松业务视角"},
        "历史补贴困难人员续领资格：申请人是否符合资格",
        "申请人的困难登记有效，补贴记录连续，没有命中排除项，应当认定符合续领资格。",
    ),
}
"""Each language's sides, motion and opening turn (a Chinese panel like fresh10's)."""


def _findings(text: str, lang: str) -> dict[tuple[str, int | None], str]:
    """The lexical pass's flags (detector, turn) -> evidence when ``text`` answers an
    opening."""
    sides, topic, opening = DEBATES[lang]
    first, second = list(sides)
    turns = [{"side": first, "text": opening}, {"side": second, "text": text}]
    data: dict[str, Any] = {"topic": topic, "lang": lang, "sides": sides, "turns": turns}
    found = run_detectors(parse_transcript(data), "lexical")
    return {(f.detector, f.turn): f.evidence for f in found}


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("The argument should be 100-200 words in length.", "100-200 words"),
        ("The argument should include a call to action.", "argument should include"),
        ("It must use language from the original text.", "it must use language"),
        ("(You can use any sentence, but be sure to provide a reason.", "you can use any sentence"),
        (
            "The philosopher should use a specific example to support their argument.",
            "the philosopher should use a specific example",
        ),
        ("Each response must not exceed 150 words. Be persuasive.", "response must not exceed"),
        ("模型未返回可读推理，已使用保守兜底策略。\n\n推理文本缺失", "模型未返回"),
        ("发言字数控制在300字以内。论点应包含数据。", "字数控制"),
        (
            "The model did not return a response; a fallback answer was used.",
            "the model did not return",
        ),
    ],
)
def test_an_echoed_instruction_or_a_fallback_is_scaffolding(text: str, cue: str) -> None:
    found = scaffolding(text, ["Scientist", "Philosopher"])
    assert found is not None
    assert found.startswith(cue)


@pytest.mark.parametrize(
    "text",
    [
        # the same words about the subject of a debate
        "The argument should be rejected: trials cost years and patients wait.",
        "The government should use evidence from the trials before it licenses a model.",
        "Every lab should provide evidence of safety, as drug makers must.",
        "We need a fallback plan when a model fails in a hospital.",
        # a business model is no language model: only a reply, text or output not returned
        "The model did not return any profit in its first three years, so the subsidy failed.",
        "The business model did not generate revenue for the farms.",
        # an instruction echoed and then obeyed: the turn is judged on its argument
        "The argument should be 100-200 words. Regulating AI like medicine would mean trials "
        "before release, a licensing regulator, recalls when harm appears, and liability for "
        "makers who hide risks; each of these works for drugs and would work for models.",
        "该模型在试点中未返回错误结果，说明审核规则可行。",
        # how to argue, said to the opponent: a retort, not an echoed instruction
        "You should cite evidence, not anecdotes.",
        "That is not true. You must use evidence here.",
        "Your argument should cite sources.",
        "Be sure to provide evidence before you accuse me.",
        "你的论证应该引用数据。",
        "对方的论点必须包含证据。",
        "你方论证应该引用数据",
        "Your own argument should cite sources.",
        "My opponents' argument should cite data.",
        "反方的论证应该引用数据。",
        "对方辩友的论点必须包含证据。",
    ],
)
def test_a_speech_is_not_scaffolding(text: str) -> None:
    assert scaffolding(text, ["Scientist", "Philosopher"]) is None


def test_a_scaffolding_turn_drifts_in_either_language() -> None:
    for text in (
        "The argument should be 100-200 words in length.",
        "The philosopher should use a specific example to support their argument.",
    ):
        found = _findings(text, "en")
        assert list(found) == [("topic_drift", 1)]
        assert "framework's scaffolding" in found["topic_drift", 1]
    fallback = "模型未返回可读推理，已使用保守兜底策略。 已按保守原则生成结论。\n\n推理文本缺失"
    found = _findings(fallback, "zh")
    assert list(found) == [("topic_drift", 1)]
    assert "框架的脚手架文本（复述的写作要求或兜底文本，“模型未返回”）" in found["topic_drift", 1]


def test_a_role_not_in_the_debate_is_no_instruction() -> None:
    # "the patient" is no side and no debater: advice about the subject, not scaffolding
    text = "The patient should use a specific example of a side effect when reporting it."
    assert scaffolding(text, ["Scientist", "Philosopher"]) is None
