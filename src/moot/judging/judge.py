"""One judge: scores every opening argument, traces its fate, flags possible fallacies.

The judge model supplies integer scores, standings, reasons, fallacy flags and the
qualitative synthesis. Everything numeric that a reader sees (weighted scores,
side totals, the gap and its reading) is computed here, never taken from the model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from moot import i18n
from moot.judging.replies import JudgeReply, judge_spec
from moot.judging.rubric import DIMENSIONS, GENERAL, Rubric, mean
from moot.llm.backend import Backend
from moot.llm.meter import Meter
from moot.llm.structured import Outcome, Problem, generate_structured
from moot.llm.types import CallContext, GenerationSettings, Message
from moot.prompts import render
from moot.schema import (
    SIDES,
    Argument,
    ArgumentScore,
    Closing,
    CrossExamination,
    Fallacy,
    Gap,
    GapReading,
    Judgement,
    QualityWarning,
    Side,
    Totals,
    TraceRow,
)
from moot.text import cjk_share, normalise

EVEN_GAP = 1.0
CLEAR_GAP = 3.0


def read_gap(totals: Totals, lang: str) -> Gap:
    """The gap between side totals and its reading: under 1 point evenly matched,
    over 3 a clear difference, otherwise a moderate difference."""
    value = round(abs(totals.pro - totals.con), 4)
    leader: Side | None = None
    if totals.pro != totals.con:
        leader = "pro" if totals.pro > totals.con else "con"
    reading: GapReading
    if value < EVEN_GAP:
        reading = "evenly_matched"
    elif value > CLEAR_GAP:
        reading = "clear_difference"
    else:
        reading = "moderate_difference"
    text = i18n.gap_text(lang, reading, value, leader)
    return Gap(value=value, leader=leader, reading=reading, text=text)


def _debate_text(
    arguments: Sequence[Argument],
    cross: Sequence[CrossExamination],
    closings: Sequence[Closing],
) -> str:
    parts = [f"{a.claim} {a.reasoning} {a.evidence}" for a in arguments]
    parts += [f"{c.reasoning} {c.follow_up}" for c in cross]
    parts += [" ".join([*c.concessions, c.final_stance]) for c in closings]
    return normalise(" ".join(parts))


def check_judge_reply(
    reply: JudgeReply, ids: Sequence[str], debate_text: str, lang: str
) -> list[Problem]:
    """Every argument assessed exactly once; fallacies name real arguments and quote
    words that occur in the debate; prose in the debate's language."""
    problems: list[Problem] = []
    counts = Counter(a.argument_id.upper() for a in reply.assessments)
    for ident in ids:
        if counts[ident] != 1:
            problems.append(
                Problem(
                    f"assessments: {ident} must be assessed exactly once (found {counts[ident]})"
                )
            )
    for ident in sorted(set(counts) - set(ids)):
        problems.append(Problem(f"assessments: {ident} is not an argument of this debate"))
    for n, flag in enumerate(reply.fallacies, start=1):
        if flag.argument_id.upper() not in ids:
            problems.append(
                Problem(
                    f"fallacies[{n}].argument_id: {flag.argument_id} is not"
                    " an argument of this debate"
                )
            )
        if normalise(flag.quote) not in debate_text:
            problems.append(
                Problem(
                    f"fallacies[{n}].quote: {i18n.message(lang, 'reask.fallacy_quote')}",
                    hard=False,
                    code="fallacy_quote",
                    where=f"fallacies[{n}].quote",
                )
            )
    prose = [("key_insight", reply.key_insight), ("recommendation", reply.recommendation)]
    for label, text in prose:
        share = cjk_share(text)
        if (lang == "zh" and share < 0.3) or (lang == "en" and share > 0.3):
            problems.append(
                Problem(
                    f"{label}: {i18n.message(lang, 'reask.language')}",
                    hard=False,
                    code="language",
                    where=label,
                )
            )
    return problems


def build_judgement(
    reply: JudgeReply,
    *,
    judge_model: str,
    rubric: Rubric,
    arguments: Sequence[Argument],
    cross: Sequence[CrossExamination],
    debate_text: str,
    lang: str,
) -> Judgement:
    """Turn a validated judge reply into a ``Judgement``; all arithmetic is done here."""
    by_id = {a.argument_id.upper(): a for a in reply.assessments}
    scores: list[ArgumentScore] = []
    trace: list[TraceRow] = []
    answered = {c.target_id: c.response for c in cross}
    for arg in arguments:
        assessment = by_id[arg.id]
        dims = {d: int(getattr(assessment, d)) for d in DIMENSIONS}
        scores.append(ArgumentScore(argument_id=arg.id, weighted=rubric.weighted(dims), **dims))
        trace.append(
            TraceRow(
                argument_id=arg.id,
                side=arg.side,
                claim=arg.claim,
                cross_examination=answered.get(arg.id),
                standing=assessment.standing,
                reason=assessment.reason,
            )
        )
    weighted = {s.argument_id: s.weighted for s in scores}
    side_of = {a.id: a.side for a in arguments}
    totals = Totals(
        **{
            side: mean([w for ident, w in weighted.items() if side_of[ident] == side])
            for side in SIDES
        }
    )
    fallacies = [
        Fallacy(
            argument_id=f.argument_id.upper(),
            type=f.type,
            quote=f.quote,
            verified=normalise(f.quote) in debate_text,
        )
        for f in reply.fallacies
    ]
    return Judgement(
        judge_model=judge_model,
        weights=dict(rubric.weights),
        scores=scores,
        totals=totals,
        gap=read_gap(totals, lang),
        trace=trace,
        fallacies=fallacies,
        key_insight=reply.key_insight,
        unresolved_questions=list(reply.unresolved_questions),
        recommendation=reply.recommendation,
    )


def bias_signals(judgement: Judgement, lang: str) -> list[QualityWarning]:
    """Trace signals of judge bias (SPEC section 4): identical scores everywhere."""
    rows = {tuple(getattr(s, d) for d in DIMENSIONS) for s in judgement.scores}
    if len(judgement.scores) > 1 and len(rows) == 1:
        return [
            QualityWarning(
                round="judgement",
                side=None,
                code="judge_zero_variance",
                message=i18n.message(lang, "judge_zero_variance"),
            )
        ]
    return []


async def judge_debate(
    backend: Backend,
    *,
    topic: str,
    lang: str,
    arguments: Sequence[Argument],
    cross: Sequence[CrossExamination],
    closings: Sequence[Closing],
    settings: GenerationSettings,
    meter: Meter,
    max_reasks: int,
    strict_rules: bool,
    rubric: Rubric = GENERAL,
    role: str = "judge",
) -> tuple[Judgement, Outcome[JudgeReply]]:
    """Ask ``backend`` to judge the debate and return the computed ``Judgement``.
    ``role`` names the call (a panel runs ``judge:NAME#RUN``)."""
    ids = [a.id for a in arguments]
    debate_text = _debate_text(arguments, cross, closings)
    messages = [
        Message(
            "system",
            render("judge_system", lang, weights=dict(rubric.weights), profile=rubric.name),
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
    outcome = await generate_structured(
        backend,
        messages,
        JudgeReply,
        settings=settings,
        context=CallContext(
            role=role,
            round="judgement",
            topic=topic,
            lang=lang,
            extra={"argument_ids": ids, "arguments": list(arguments), "cross": list(cross)},
        ),
        meter=meter,
        spec=judge_spec(ids),
        check=lambda reply: check_judge_reply(reply, ids, debate_text, lang),
        max_reasks=max_reasks,
        strict_rules=strict_rules,
    )
    judgement = build_judgement(
        outcome.value,
        judge_model=backend.spec,
        rubric=rubric,
        arguments=arguments,
        cross=cross,
        debate_text=debate_text,
        lang=lang,
    )
    return judgement, outcome
