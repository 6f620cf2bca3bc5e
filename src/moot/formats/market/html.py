"""The market format in the HTML report: the argument trace (each analyst's argument
with its evidence, the code's check of the numbers it cites and the evidence score
before and after the penalty, the challenges it received, its standing and score),
the transcript in speaking order (arguments, challenges, closings), and the format's
other briefing sections (the data and the analysts, the synthesis, the evidence check,
the cross-examination, the closings, the baseline) as the view's defaults show them.
It also tells the viewer's live page the market debate's rounds and how many calls its
analysts make."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moot.errors import MootError
from moot.formats.common.html import Argument, ArgumentView
from moot.formats.market.briefing import lead_judge
from moot.formats.market.inputs import analysts_of
from moot.formats.market.payload import FLAGGED_STATUSES, MarketPayload
from moot.report.html import charts, generic
from moot.report.html.common import ItemVerdict, add_turn, item_verdicts
from moot.report.html.labels import label
from moot.report.html.page import number
from moot.report.html.parts import (
    Context,
    FieldView,
    ItemRef,
    Section,
    TurnView,
    tone,
)
from moot.schema import DebateResult

NAME = "market"
ANALYST_ROUNDS = ("opening", "cross_examination", "closing")
CHALLENGE_CLASSES: Mapping[str, str] = {
    "refute": "bad",
    "question_evidence": "mixed",
    "partial": "mixed",
    "concede": "good",
}
"""How a challenge is coloured, seen from the argument it answers."""


def _body(result: DebateResult) -> MarketPayload:
    """The market format's part of a result."""
    return MarketPayload.model_validate(result.body)


# ---- the transcript ---------------------------------------------------------------


def transcript(ctx: Context) -> list[TurnView]:
    """Every statement in speaking order, as the detectors number the turns: the
    arguments, the challenges, the closings."""
    labels, body = ctx.labels, _body(ctx.result)
    turns: list[TurnView] = []

    def add(round_name: str, side: str, heading: str, fields: tuple[FieldView, ...]) -> None:
        add_turn(ctx, turns, round_name, side, heading, fields)

    for a in body.arguments:
        add(
            "opening",
            a.side,
            f"{a.id} ({a.agent})",
            (
                FieldView(labels["html.claim"], a.claim),
                FieldView(labels["html.evidence"], a.evidence),
                FieldView(labels["col.confidence"], f"{round(a.confidence * 100)}%"),
                FieldView(labels["html.counterpoints"], items=tuple(a.counterpoints)),
            ),
        )
    for c in body.challenges:
        kind = label(labels, f"response.{c.challenge_type}", c.challenge_type)
        add(
            "cross_examination",
            c.side,
            f"{c.by} → {c.target_id}: {kind}",
            (
                FieldView(labels["html.reasoning"], c.reasoning),
                FieldView(labels["col.new_evidence"], c.new_evidence or "-"),
            ),
        )
    for closing in body.closings:
        change = label(labels, f"conviction.{closing.conviction_change}", "")
        add(
            "closing",
            closing.side,
            f"{closing.agent} ({change})",
            (
                FieldView(labels["html.refined_claims"], items=tuple(closing.refined_claims)),
                FieldView(labels["html.closing_concessions"], items=tuple(closing.concessions)),
                FieldView(labels["html.closing_final"], closing.final_stance),
            ),
        )
    return turns


# ---- the argument trace -----------------------------------------------------------


@dataclass(frozen=True)
class Challenge:
    heading: str
    kind: str
    css: str
    reasoning: str
    new_evidence: str
    anchor: str


@dataclass(frozen=True)
class Unsupported:
    text: str
    closest: str
    kb_value: str


@dataclass(frozen=True)
class TraceLine:
    item: ItemRef
    agent: str
    evidence: str
    confidence: str
    counterpoints: tuple[str, ...]
    challenges: tuple[Challenge, ...]
    evidence_score: str
    """The judge's evidence score and, when the code lowered it, the lowered one."""
    penalised: bool
    checked: int
    unsupported: tuple[Unsupported, ...]
    verdict: ItemVerdict
    opening_anchor: str


@dataclass(frozen=True)
class LensGroup:
    """The arguments of one lens (technical, macro...): its rows of the trace and a
    chart of their scores."""

    label: str
    lines: tuple[TraceLine, ...]
    chart: charts.Chart
    summary: str
    """Each side's mean score in this lens."""


@dataclass(frozen=True)
class TraceView:
    note: str
    lenses: tuple[LensGroup, ...]


def trace_section(ctx: Context, turns: list[TurnView]) -> Section:
    """One row per argument: who made it, its evidence and the code's check of it, the
    challenges it received, the evidence score before and after the penalty, where it
    stood and its score."""
    result, labels = ctx.result, ctx.labels
    body = _body(result)
    verdicts = item_verdicts(ctx)
    lead = lead_judge(result)
    evidence = {s.argument_id: s for s in body.evidence_scores if s.judge == lead}
    first_challenge = len(body.arguments)
    lines = []
    for index, item in enumerate(ctx.items):
        argument = body.arguments[index]
        challenges = tuple(
            Challenge(
                heading=labels["html.challenge_by"].format(agent=c.by),
                kind=label(labels, f"response.{c.challenge_type}", c.challenge_type),
                css=tone(CHALLENGE_CLASSES, c.challenge_type),
                reasoning=c.reasoning,
                new_evidence=c.new_evidence,
                anchor=turns[first_challenge + n].anchor,
            )
            for n, c in enumerate(body.challenges)
            if c.target_id == item.id
        )
        score = evidence.get(item.id)
        shown = "-" if score is None else (
            str(score.raw) if score.raw == score.penalised else f"{score.raw} → {score.penalised}"
        )  # fmt: skip
        lines.append(
            TraceLine(
                item=item,
                agent=argument.agent,
                evidence=argument.evidence,
                confidence=f"{round(argument.confidence * 100)}%",
                counterpoints=tuple(argument.counterpoints),
                challenges=challenges,
                evidence_score=shown,
                penalised=score is not None and score.penalised < score.raw,
                checked=argument.check.checked,
                unsupported=tuple(
                    Unsupported(n.text, n.field or "-", n.kb_value or "-")
                    for n in argument.check.numbers
                    if n.status in FLAGGED_STATUSES
                ),
                verdict=verdicts[item.id],
                opening_anchor=turns[index].anchor,
            )
        )
    data = TraceView(note=labels["html.market_trace_note"], lenses=_by_lens(ctx, body, lines))
    return Section("trace", labels["arguments"], "formats/market/trace.html.j2", data)


def _by_lens(ctx: Context, body: MarketPayload, lines: list[TraceLine]) -> tuple[LensGroup, ...]:
    """The trace's rows grouped by the lens of their analyst (lenses in the order their
    first argument was made), each group with a chart of its arguments' scores on
    the scale of the whole debate."""
    labels = ctx.labels
    names = {a.lens: a.lens_label for a in body.analysts}
    groups: dict[str, list[TraceLine]] = {}
    for argument, line in zip(body.arguments, lines, strict=True):
        groups.setdefault(argument.lens, []).append(line)
    scores = [line.verdict.score for line in lines if line.verdict.score is not None]
    domain = charts.score_domain(scores)
    found = []
    for lens, members in groups.items():
        name = names.get(lens, lens)
        rows = [
            charts.BarRow(
                label=line.item.id,
                label_css=f"label {line.item.side.css}",
                value=math.nan if line.verdict.score is None else line.verdict.score,
                css=f"bar {line.item.side.css}",
                title=f"{line.item.id}: {number(line.verdict.score)}",
            )
            for line in members
        ]
        means = []
        for side in ctx.sides:
            values = [
                m.verdict.score
                for m in members
                if m.item.side.key == side.key and m.verdict.score is not None
            ]
            if values:
                means.append(f"{side.label} {number(statistics.fmean(values))}")
        found.append(
            LensGroup(
                label=name,
                lines=tuple(members),
                chart=charts.bar_chart(labels["html.lens_chart"].format(lens=name), rows, domain),
                summary=labels["html.lens_means"].format(means=" · ".join(means) or "-"),
            )
        )
    return tuple(found)


class MarketView(ArgumentView):
    """The market format: the analysts' arguments are the judged items."""

    name = NAME

    def arguments(self, result: DebateResult) -> Sequence[Argument]:
        """The arguments, in the order the analysts made them."""
        return _body(result).arguments

    def transcript(self, ctx: Context) -> list[TurnView]:
        return transcript(ctx)

    def sections(self, ctx: Context, turns: list[TurnView]) -> list[Section]:
        """The format's briefing sections, with the argument trace shown as a table of
        its own (its rows are the judged items)."""
        sections = []
        for section in generic.sections(ctx):
            if section.title == ctx.labels["arguments"]:
                sections.append(trace_section(ctx, turns))
            else:
                sections.append(section)
        return sections

    def rounds(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The analysts' rounds, the baseline's call beside the openings when asked
        for, and the synthesis beside the judgement."""
        first = ("baseline",) if _format_options(options).get("baseline") else ()
        return (*first, *ANALYST_ROUNDS, "synthesis")

    def debater_calls(self, options: Mapping[str, Any], positions: int) -> int | None:
        """Every analyst's opening, cross-examination and closing, the synthesis, and
        the baseline when asked for. None when the stored analysts file cannot be read
        any more (a run stored before the file was kept in its options)."""
        format_options = _format_options(options)
        try:
            panel = analysts_of(format_options)
        except MootError:
            return None
        baseline = 1 if format_options.get("baseline") else 0
        return len(panel.agents) * len(ANALYST_ROUNDS) + 1 + baseline


def _format_options(options: Mapping[str, Any]) -> Mapping[str, Any]:
    value = options.get("format_options") or {}
    return value if isinstance(value, Mapping) else {}
