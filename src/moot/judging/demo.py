"""``scripted:demo`` for the judge and the topic classification, in every format.

The demo judge reads what the format tells it (``JudgeCall``: the units, what the
other positions answered to each, the standings and the rubric's dimensions) and
scores each unit by what happened to it: refuted units low, conceded ones high.
It never gives every unit identical scores, and its figures are labelled synthetic.
Its words are the format's: a format registers its own (:func:`register_judge_phrases`,
from its demo writers: the structured format's speak of cross-examination, the
competitive format's of timed stages and rebuttals, the free-form format's of
speeches); a format that registers none gets :data:`PHRASES`, which name no round.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from pydantic import BaseModel

from moot.demo_text import Weaver, excerpt
from moot.errors import BackendError
from moot.judging.deliberation import MAX_ROUNDS as DELIBERATION_ROUNDS
from moot.judging.deliberation import DeliberationCall, revision_reply_type
from moot.judging.flag_review import ROUND_REVIEW, ROUND_SCAN, FlagVerdict, StanceScan
from moot.judging.judge import JudgeCall
from moot.judging.replies import judge_reply_type
from moot.judging.topic import TopicTypeReply, classify_by_keywords
from moot.llm.scripted import ANY_FORMAT, DemoRequest, register_demo_writer
from moot.schema import FallacyType
from moot.usable import is_marker

FALLACY_TYPES: Final[tuple[FallacyType, ...]] = (
    "slippery_slope",
    "appeal_to_authority",
    "anecdotal_evidence",
    "false_dilemma",
    "circular_reasoning",
)
# Base scores by standing rank (best, partial, worst, uncertain); jittered per unit.
_BASE_SCORES: Final[tuple[int, ...]] = (8, 7, 4, 5)
_RESPONSE_RANK: Final[dict[str, int]] = {"concede": 0, "partial": 1, "refute": 2}


@dataclass(frozen=True)
class JudgePhrases:
    """What the demo judge writes in one language; ``{m}`` is the motion."""

    motion: str
    generic_motion: str
    topic_max_chars: int
    reasons: Mapping[str, str]
    """A unit's reason, by the answer that decided its standing (``none``: no answer,
    or one with no reason of its own)."""
    key_insight: str  # {u} {n}
    unresolved: tuple[str, ...]
    recommendation: str
    about: str = "On “{words}”: {reason}"
    """How a reason names its unit's own words (``{words}``, the claim's last ones): a
    judge that gives most units the same reason gave none (``moot.usable.copied_texts``)."""


OWN_WORDS = 10
"""How many of a unit's last words (twice as many characters in Chinese) its demo
reason names."""


def own_words(claim: str, lang: str) -> str:
    """The last words of ``claim`` (its last characters in Chinese), without its end
    mark and quotation marks (the reason quotes them)."""
    text = re.sub(r"[\"“”「」]", "", claim).strip().rstrip(".!?。！？")
    if lang == "zh":
        return text[-2 * OWN_WORDS :].lstrip("，、；：,;: ")
    return " ".join(text.split()[-OWN_WORDS:])


PHRASES: Final[dict[str, JudgePhrases]] = {
    # no format's vocabulary: a format with rounds of its own (a cross-examination,
    # timed stages) registers its words with register_judge_phrases
    "en": JudgePhrases(
        motion='the motion "{topic}"',
        generic_motion="the motion",
        topic_max_chars=90,
        reasons={
            "refute": "The other side refuted it, exposing a gap that was not repaired.",
            "challenge": "Its evidence was challenged as illustrative, and the reply did not"
            " settle the doubt.",
            "concede": "The other side conceded this point, so it stands as argued.",
            "partial": "The other side accepted its core but raised a fair dispute about the"
            " size of the effect.",
            "none": "Nothing the other side said answered it, so its standing is uncertain.",
        },
        key_insight="The debate on {m} was judged point by point: {u} of the {n} points"
        " judged held up, and every figure offered was illustrative rather than real.",
        unresolved=(
            "What would real, dated data show about the size of the effects claimed here?",
            "Who bears the transition costs of {m}, and for how long?",
            "Would a phased pilot change either side's conclusions?",
            "Which effects of {m} could be reversed if the results disappoint?",
        ),
        recommendation="Treat this scripted demo as an illustration of the debate's structure"
        " only: before deciding on {m}, replace the illustrative figures with"
        " real data, starting with the points whose standing is weakest.",
    ),
    "zh": JudgePhrases(
        motion="“{topic}”这一动议",
        generic_motion="该动议",
        topic_max_chars=40,
        about="关于“{words}”：{reason}",
        reasons={
            "refute": "对方驳斥了它，揭示的缺口没有得到修补。",
            "challenge": "其证据被质疑为示例性数据，而回应没有消除这一疑问。",
            "concede": "对方承认了这一点，因此它按原样成立。",
            "partial": "对方接受了其核心，但对影响幅度提出了合理的异议。",
            "none": "对方没有任何回应针对它，因此其地位尚不确定。",
        },
        key_insight="关于{m}的辩论逐点受评：受评的{n}个要点中有{u}个站住了脚，"
        "而双方提供的所有数据都是示例性的，并非真实数据。",
        unresolved=(
            "真实且注明日期的数据会如何显示这些效果的大小？",
            "{m}的转型成本由谁承担，持续多久？",
            "分阶段试点会改变任何一方的结论吗？",
            "如果结果令人失望，{m}的哪些影响可以逆转？",
        ),
        recommendation="请仅将本脚本演示视为辩论结构的示例：在就{m}作出决定之前，"
        "应当用真实数据替换示例数据，并优先核实地位最弱的要点。",
    ),
}
"""What the demo judge writes of a format that registers no words of its own."""


_FORMAT_PHRASES: dict[str, Mapping[str, JudgePhrases]] = {}


def register_judge_phrases(format_name: str, phrases: Mapping[str, JudgePhrases]) -> None:
    """Let the demo judge of format ``format_name`` write ``phrases`` (by language)
    instead of :data:`PHRASES`."""
    _FORMAT_PHRASES[format_name] = phrases


def _rank(responses: Mapping[str, str], rng: random.Random) -> tuple[int, str]:
    """The standing rank a unit earns from what the others answered to it (the most
    damaging answer counts), and the answer that decided it."""
    if not responses:
        return 3, "none"
    worst = max(responses.values(), key=lambda r: _RESPONSE_RANK.get(r, 1))
    if worst in _RESPONSE_RANK:
        return _RESPONSE_RANK[worst], worst
    return rng.choice((1, 3)), worst


def about_claim(reason: str, claim: str, lang: str, about: str | None = None) -> str:
    """``reason`` naming its unit's own words (``about``: the phrasing, by default the
    language's :data:`PHRASES`), or ``reason`` alone when the claim has none usable."""
    words = own_words(claim, lang)
    if is_marker(claim) or not words:
        return reason
    phrasing = about or PHRASES.get(lang, PHRASES["en"]).about
    return phrasing.format(words=words, reason=reason)


def _reason(p: JudgePhrases, answer: str, claim: str, lang: str) -> str:
    """A unit's reason, by the answer that decided its standing, naming its own words."""
    return about_claim(p.reasons.get(answer, p.reasons["none"]), claim, lang, p.about)


def judge(request: DemoRequest) -> BaseModel:
    call = request.context.data
    if not isinstance(call, JudgeCall):
        raise BackendError("scripted:demo: the judge call carries no JudgeCall")
    lang = request.context.lang
    table = _FORMAT_PHRASES.get(request.context.format, PHRASES)
    if lang not in table:
        raise BackendError(f"scripted:demo writes {', '.join(table)}, not {lang!r}")
    p = table[lang]
    w = Weaver(
        lang,
        request.context.topic,
        motion=p.motion,
        generic_motion=p.generic_motion,
        topic_max_chars=p.topic_max_chars,
    )
    rng = request.rng()
    reply_type = judge_reply_type(call.dimensions, call.standings)
    assessments = []
    rows: set[tuple[int, ...]] = set()
    upheld = 0
    for n, unit in enumerate(call.units):
        rank, answer = _rank(unit.responses, rng)
        upheld += rank == 0
        base = _BASE_SCORES[rank]
        scores = [max(1, min(10, base + rng.choice((-1, 0, 0, 1)))) for _ in call.dimensions]
        if n == len(call.units) - 1 and n > 0 and rows == {tuple(scores)}:
            # never identical scores everywhere (a judge-bias signal)
            scores[0] = scores[0] + 1 if scores[0] < 10 else scores[0] - 1
        rows.add(tuple(scores))
        assessments.append(
            {
                "argument_id": unit.id,
                "reason": _reason(p, answer, unit.claim, lang),
                "standing": call.standings[rank],
                **dict(zip(call.dimensions, scores, strict=True)),
            }
        )
    quotable = [u for u in call.units if len(u.claim) >= 3]
    fallacies = [
        {"argument_id": u.id, "type": rng.choice(FALLACY_TYPES), "quote": excerpt(u.claim, rng)}
        for u in rng.sample(quotable, min(len(quotable), rng.randint(0, 2)))
    ]
    questions = rng.sample(p.unresolved, min(len(p.unresolved), rng.randint(2, 3)))
    return reply_type.model_validate(
        {
            "assessments": assessments,
            "fallacies": [f for f in fallacies if len(f["quote"]) >= 3],
            "key_insight": w.say(p.key_insight, u=upheld, n=len(call.units), limit=400),
            "unresolved_questions": [w.say(q, limit=200) for q in questions],
            "recommendation": w.say(p.recommendation, limit=500),
        }
    )


def classification(request: DemoRequest) -> TopicTypeReply:
    context = request.context
    reason = "脚本演示：按关键词分类。" if context.lang == "zh" else "Scripted demo: keyword rule."
    return TopicTypeReply(topic_type=classify_by_keywords(context.topic), reason=reason)


REVISION_REASONS: Final[dict[str, str]] = {
    "en": "On a second reading, the answer it received weighs more than I had counted.",
    "zh": "再读一遍后，它得到的回应比我原先估计的更有分量。",
}
"""The new reason a demo judge sometimes gives for a revision."""


def deliberation(request: DemoRequest) -> BaseModel:
    """A demo judge in deliberation: where its weighted score of a unit is half a point
    or more from the other judges' mean, it moves each dimension one step toward their
    mean of that dimension six times in ten, and says why (a new reason) about one
    revision in three; otherwise it keeps its scores. Synthetic, like every demo figure."""
    call = request.context.data
    if not isinstance(call, DeliberationCall):
        raise BackendError("scripted:demo: the deliberation call carries no DeliberationCall")
    rng = request.rng()
    reason = REVISION_REASONS.get(request.context.lang, REVISION_REASONS["en"])
    rows = []
    for n, mine in enumerate(call.own):
        theirs = [view[n] for view in call.others]
        scores = dict(mine.scores)
        new_reason = ""
        if theirs:
            mean = sum(a.weighted for a in theirs) / len(theirs)
            if abs(mine.weighted - mean) >= 0.5 and rng.random() < 0.6:
                for d in call.dimensions:
                    target = sum(a.scores[d] for a in theirs) / len(theirs)
                    step = (target > scores[d]) - (target < scores[d])
                    scores[d] = max(1, min(10, scores[d] + step))
                new_reason = reason if rng.random() < 1 / 3 else ""
        rows.append(
            {
                "argument_id": mine.argument_id,
                "standing": mine.standing,
                **scores,
                "new_reason": new_reason,
            }
        )
    reply_type = revision_reply_type(call.dimensions, call.standings)
    return reply_type.model_validate({"assessments": rows})


REVIEW_REASONS: Final[dict[str, str]] = {
    "en": "Demo reviewer: a synthetic verdict that confirms every flag; use a real model.",
    "zh": "演示审阅者：合成的结论，确认所有标记；请使用真实模型。",
}


def flag_review(request: DemoRequest) -> BaseModel:
    """The demo reviewer of the detectors' flags: it cannot read, so it confirms every
    candidate and says its verdict is synthetic."""
    reason = REVIEW_REASONS.get(request.context.lang, REVIEW_REASONS["en"])
    return FlagVerdict(verdict="confirm", reason=reason)


def stance_scan(request: DemoRequest) -> BaseModel:
    """The demo reviewer's stance scan: it finds nothing (it cannot read)."""
    return StanceScan(drifting=[])


def register() -> None:
    """Let ``scripted:demo`` judge, deliberate, classify topics and review detector
    flags for every format."""
    register_demo_writer(ANY_FORMAT, ROUND_REVIEW, flag_review)
    register_demo_writer(ANY_FORMAT, ROUND_SCAN, stance_scan)
    register_demo_writer(ANY_FORMAT, "judgement", judge)
    register_demo_writer(ANY_FORMAT, "classification", classification)
    for number in range(1, DELIBERATION_ROUNDS + 1):
        register_demo_writer(ANY_FORMAT, f"deliberation_{number}", deliberation)
