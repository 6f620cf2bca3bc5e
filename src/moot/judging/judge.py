"""One judge: scores every judged unit, traces its fate, flags possible fallacies.

A *unit* is what a format has judged: an opening argument in the structured format,
a speech in the free-form format. The format renders the debate as the judge reads
it (the transcript); the judge model supplies integer scores per rubric dimension,
standings, reasons, fallacy flags and the qualitative synthesis. Everything numeric
that a reader sees (weighted scores, each position's total, the gap between the
leader and the runner-up and its reading) is computed here, never taken from the
model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from moot import i18n
from moot.judging.replies import judge_reply_type
from moot.judging.rubric import Rubric, mean
from moot.llm.backend import Backend
from moot.llm.meter import Meter
from moot.llm.schemas import enum_item_field, output_spec, pin_items
from moot.llm.structured import Problem, generate_structured
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.profiles import STANDARD, ModelProfile
from moot.prompts import render
from moot.schema import (
    ArgumentScore,
    Fallacy,
    Gap,
    GapReading,
    Judgement,
    QualityWarning,
    TraceRow,
)
from moot.text import cjk_share, normalise, whole_words
from moot.usable import (
    COPIED,
    SYNTHESIS_WORDS,
    UNUSABLE,
    copied_texts,
    unusable_reason,
    word_count,
)

EVEN_GAP = 1.0
CLEAR_GAP = 3.0

ScoreAdjuster = Callable[[str, str, Mapping[str, int]], dict[str, int]]
"""A format's correction of a judge's integer scores, by code: ``(judge role, unit id,
scores) -> scores``, applied to every judge run before weighted scores, totals or a
panel's statistics are computed (the market format lowers the evidence score of an
argument that cites numbers its data does not hold). The judgement then holds the
corrected scores; the format keeps the judge's own."""


@dataclass(frozen=True)
class JudgedUnit:
    """One thing the judge scores: its id, its position, the line the trace shows
    (``claim``) and what every other position answered to it (``responses``)."""

    id: str
    side: str
    claim: str
    responses: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class JudgeRequest:
    """What the judges of a debate are asked to judge, and how: the same for the single
    judge and for every judge of a panel (who weighs the rubric its own way: see
    ``Rubric.applied_to``). What differs between judges (the backend, the sampling
    settings, the model profile, the role and persona) is given with each call."""

    topic: str
    lang: str
    units: tuple[JudgedUnit, ...]
    """Every judged unit (argument, speech), with what the other positions answered."""
    transcript: str
    """The debate as the judge reads it (rendered by the format)."""
    positions: tuple[str, ...]
    """The reading order of the positions' units (the swap rerun reverses it)."""
    rubric: Rubric
    standings: tuple[str, ...]
    meter: Meter
    max_reasks: int
    strict_rules: bool
    format_name: str = ""
    names: Mapping[str, str] | None = None
    """Each position's name, for the gap's text (default: the keys)."""
    unit: str = ""
    """What is judged (an argument, a speech) in the debate's language."""
    adjust: ScoreAdjuster | None = None
    """The format's correction of the integer scores by code (see :data:`ScoreAdjuster`)."""
    round_name: str = "judgement"
    """The round the judge's calls are made in (the free-form format's per-round scores
    are ``judge_round_N``): it names the calls in the journal and seeds them."""


@dataclass(frozen=True)
class JudgeCall:
    """What a judge call is about (the ``data`` of its call context): the units in
    the order they are judged, the format's standings and the rubric's dimensions,
    and the transcript the judge reads."""

    units: tuple[JudgedUnit, ...]
    standings: tuple[str, ...]
    dimensions: tuple[str, ...]
    transcript: str


def read_gap(totals: Mapping[str, float], lang: str, names: Mapping[str, str]) -> Gap:
    """The gap between the leading position and the runner-up, and its reading: under
    1 point evenly matched, over 3 a clear difference, otherwise a moderate difference.
    There is no leader when the top totals are equal."""
    ranked = sorted(totals.items(), key=lambda item: item[1], reverse=True)
    (first, top), (second, next_best) = ranked[0], ranked[1]
    value = round(top - next_best, 4)
    leader = first if value > 0 else None
    runner_up = second if value > 0 else None
    reading: GapReading
    if value < EVEN_GAP:
        reading = "evenly_matched"
    elif value > CLEAR_GAP:
        reading = "clear_difference"
    else:
        reading = "moderate_difference"
    text = i18n.gap_text(
        lang,
        reading,
        value,
        names.get(leader, "") if leader else "",
        names.get(runner_up, "") if runner_up else "",
    )
    return Gap(value=value, leader=leader, runner_up=runner_up, reading=reading, text=text)


def position_totals(weighted: Mapping[str, float], side_of: Mapping[str, str]) -> dict[str, float]:
    """Each position's total: the mean weighted score of its units (in position order
    of first appearance)."""
    order = list(dict.fromkeys(side_of.values()))
    return {
        side: mean([w for ident, w in weighted.items() if side_of[ident] == side]) for side in order
    }


def check_judge_reply(
    reply: Any,
    ids: Sequence[str],
    debate_text: str,
    lang: str,
    *,
    limits: Mapping[str, int] | None = None,
) -> list[Problem]:
    """Every unit assessed exactly once, with a reason that is not a copy of its
    reasons for most other units (``moot.usable.copied_texts``); fallacies name real
    units and quote words that occur in the debate; prose in the debate's language;
    the synthesis made of sentences, none of them cut at its length bound
    (``limits``: each synthesis field's ``maxLength`` as the reply was asked for, see
    ``synthesis_limits``; a text of exactly that length was ended by the grammar, not
    by the model)."""
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
        problems.append(Problem(f"assessments: {ident} is not judged in this debate"))
    reasons = [a.reason for a in reply.assessments]
    copies = copied_texts(reasons)
    for n in copies:  # the same reason for most arguments is a reason about none
        message = i18n.message(lang, "reask.copied_reason", n=len(copies) - 1)
        where = f"assessments[{n + 1}].reason"
        problems.append(Problem(f"{where}: {message}", hard=False, code=COPIED, where=where))
    for n, flag in enumerate(reply.fallacies, start=1):
        if flag.argument_id.upper() not in ids:
            problems.append(
                Problem(f"fallacies[{n}].argument_id: {flag.argument_id} is not judged here")
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
    synthesis = [
        *prose,
        *(
            (f"unresolved_questions[{n}]", question)
            for n, question in enumerate(reply.unresolved_questions, start=1)
        ),
    ]
    for label, text in synthesis:
        # a fragment is not a synthesis: re-asked, else shown as unusable text
        usable = unusable_reason(text) is None  # else the usable-text rule flags it
        bound = (limits or {}).get(label.partition("[")[0])
        cut = bound is not None and len(text.strip()) == bound  # ended by the grammar
        if text.strip() and usable and (cut or word_count(text) < SYNTHESIS_WORDS):
            message = i18n.message(lang, "reask.sentence", words=SYNTHESIS_WORDS)
            problems.append(Problem(f"{label}: {message}", hard=False, code=UNUSABLE, where=label))
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
    reply: Any,
    *,
    judge_model: str,
    rubric: Rubric,
    units: Sequence[JudgedUnit],
    debate_text: str,
    lang: str,
    names: Mapping[str, str],
    adjust: Callable[[str, Mapping[str, int]], dict[str, int]] | None = None,
) -> Judgement:
    """Turn a validated judge reply into a ``Judgement``; all arithmetic is done here
    (after ``adjust``, the format's correction of a unit's integer scores, if any)."""
    by_id = {a.argument_id.upper(): a for a in reply.assessments}
    scores: list[ArgumentScore] = []
    trace: list[TraceRow] = []
    for unit in units:
        assessment = by_id[unit.id]
        dims = {d: int(getattr(assessment, d)) for d in rubric.dimensions}
        if adjust is not None:
            dims = adjust(unit.id, dims)
        scores.append(
            ArgumentScore(
                argument_id=unit.id, side=unit.side, scores=dims, weighted=rubric.weighted(dims)
            )
        )
        trace.append(
            TraceRow(
                argument_id=unit.id,
                side=unit.side,
                claim=unit.claim,
                responses=dict(unit.responses),
                standing=str(assessment.standing),
                reason=assessment.reason,
            )
        )
    totals = position_totals(
        {s.argument_id: s.weighted for s in scores}, {u.id: u.side for u in units}
    )
    fallacies = [
        Fallacy(
            argument_id=f.argument_id.upper(),
            type=f.type,
            # a quote cut inside a word at its length bound is shown to its last whole word
            quote=whole_words(f.quote, debate_text),
            verified=normalise(f.quote) in debate_text,
        )
        for f in reply.fallacies
    ]
    return Judgement(
        judge_model=judge_model,
        rubric=rubric.name,
        weights=dict(rubric.weights),
        scores=scores,
        totals=totals,
        gap=read_gap(totals, lang, names),
        trace=trace,
        fallacies=fallacies,
        key_insight=reply.key_insight,
        unresolved_questions=list(reply.unresolved_questions),
        recommendation=reply.recommendation,
    )


def bias_signals(judgement: Judgement, lang: str) -> list[QualityWarning]:
    """Trace signals of judge bias: identical scores everywhere."""
    rows = {tuple(sorted(s.scores.items())) for s in judgement.scores}
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


SYNTHESIS_FIELDS = ("key_insight", "recommendation", "unresolved_questions")
"""The judge's synthesis: written as sentences where a grammar can make them so
(SmolLM2 wrote noun phrases, numbered lists and text cut at the length bound)."""


def synthesis_limits(spec: OutputSpec) -> dict[str, int]:
    """The length bound of each synthesis field of a judge's reply ``spec`` (an
    unresolved question's: its items'): a text as long as its bound was cut there
    (SmolLM2 fills it, and the grammar ends it with whatever mark it must)."""
    properties = spec.json_schema["properties"]
    limits = {}
    for name in SYNTHESIS_FIELDS:
        node = properties[name]
        node = node.get("items", node) if node.get("type") == "array" else node
        if "maxLength" in node:
            limits[name] = int(node["maxLength"])
    return limits


def judge_spec(rubric: Rubric, standings: Sequence[str], ids: Sequence[str]) -> OutputSpec:
    """The judge's reply schema with one assessment slot per unit id, in order, and
    fallacy ids limited to those units."""
    reply_type = judge_reply_type(rubric.dimensions, tuple(standings))
    spec = enum_item_field(
        pin_items(output_spec(reply_type), "assessments", "argument_id", list(ids)),
        "fallacies",
        "argument_id",
        list(ids),
    )
    # the synthesis is read as sentences: a grammar writes it so (moot.llm.grammar)
    return replace(spec, sentences=SYNTHESIS_FIELDS)


def judge_system(
    rubric: Rubric, standings: Sequence[str], persona: str, unit: str, lang: str
) -> Message:
    """The judge's system message: its rubric's weights, the standings, its persona."""
    labels = i18n.labels(lang)
    return Message(
        "system",
        render(
            "judge_system",
            lang,
            weights=dict(rubric.weights),
            descriptions={d: labels[f"dimension.{d}"] for d in rubric.dimensions},
            standings=list(standings),
            profile=persona,
            unit=unit,
        ),
    )


async def judge_units(
    backend: Backend,
    request: JudgeRequest,
    *,
    settings: GenerationSettings,
    profile: ModelProfile = STANDARD,
    role: str = "judge",
    persona: str = "general",
) -> tuple[Judgement, list[Problem]]:
    """Ask ``backend`` to judge ``request`` and return the computed ``Judgement`` with
    the rule problems the reply was kept with. ``settings`` and ``profile`` are this
    judge's (its seed, its model's profile); ``role`` names the call (a panel runs
    ``judge:NAME#RUN``); ``persona`` is the judge profile the system prompt names."""
    topic, lang, units, transcript = request.topic, request.lang, request.units, request.transcript
    positions, rubric, standings = request.positions, request.rubric, request.standings
    adjust = request.adjust
    order = {side: n for n, side in enumerate(positions)}
    ordered = sorted(units, key=lambda u: order.get(u.side, len(order)))
    ids = [u.id for u in ordered]
    debate_text = normalise(transcript)
    reply_type = judge_reply_type(rubric.dimensions, tuple(standings))
    labels = i18n.labels(lang)
    noun = request.unit or labels["unit.argument"]
    messages = [
        judge_system(rubric, standings, persona, noun, lang),
        Message(
            "user",
            render("judge", lang, topic=topic, transcript=transcript, ids=ids, unit=noun),
        ),
    ]
    spec = profile.spec(judge_spec(rubric, standings, ids), lang)
    limits = synthesis_limits(spec)
    outcome = await generate_structured(
        backend,
        messages,
        reply_type,
        settings=settings,
        context=CallContext(
            role=role,
            round=request.round_name,
            topic=topic,
            lang=lang,
            format=request.format_name,
            data=JudgeCall(tuple(ordered), tuple(standings), rubric.dimensions, transcript),
        ),
        meter=request.meter,
        spec=spec,
        check=lambda reply: check_judge_reply(reply, ids, debate_text, lang, limits=limits),
        max_reasks=request.max_reasks,
        rule_reasks=profile.rule_reasks,
        strict_rules=request.strict_rules,
    )
    judgement = build_judgement(
        outcome.value,
        judge_model=backend.spec,
        rubric=rubric,
        units=units,
        debate_text=debate_text,
        lang=lang,
        names=request.names or {side: side for side in positions},
        adjust=None if adjust is None else (lambda ident, dims: adjust(role, ident, dims)),
    )
    return judgement, outcome.warnings
