"""The structured format in the HTML report: the argument trace (each opening
argument's path through every other position's cross-examination and its own
closing to its standing), the closing stances and the transcript in speaking order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moot.formats.common.html import Argument, ArgumentView
from moot.formats.structured.payload import StructuredPayload
from moot.report.html.common import (
    StandingView,
    add_turn,
    item_scores,
    item_standings,
)
from moot.report.html.labels import label
from moot.report.html.parts import (
    RESPONSE_CLASSES,
    Context,
    FieldView,
    ItemRef,
    Located,
    Section,
    SideView,
    TurnView,
    tone,
)
from moot.schema import DebateResult

NAME = "structured"
ROUNDS = ("opening", "cross_examination", "closing")
"""The debaters' rounds of the journal, in order."""


def _body(result: DebateResult) -> StructuredPayload:
    """The structured format's part of a result."""
    return StructuredPayload.model_validate(result.body)


# ---- the transcript ---------------------------------------------------------------


def transcript(ctx: Context) -> list[TurnView]:
    """Every statement in speaking order: the opening arguments, the cross-examination
    answers, the closings (the order the detectors number turns in)."""
    result, labels = ctx.result, ctx.labels
    turns: list[TurnView] = []

    def add(round_name: str, side: str, heading: str, fields: tuple[FieldView, ...]) -> None:
        add_turn(ctx, turns, round_name, side, heading, fields)

    for a in _body(result).arguments:
        add(
            "opening",
            a.side,
            a.id,
            (
                FieldView(labels["html.claim"], a.claim),
                FieldView(labels["html.reasoning"], a.reasoning),
                FieldView(labels["html.evidence"], a.evidence),
            ),
        )
    for c in _body(result).cross_examinations:
        response = label(labels, f"response.{c.response}", c.response)
        add(
            "cross_examination",
            c.by,
            f"→ {c.target_id}: {response}",
            (
                FieldView(labels["html.reasoning"], c.reasoning),
                FieldView(labels["html.follow_up"], c.follow_up),
            ),
        )
    for closing in _body(result).closings:
        side = ctx.side(closing.side)
        change = labels[closing.stance_change.label]
        add(
            "closing",
            closing.side,
            side.label if side else closing.side,
            (
                FieldView(labels["html.closing_concessions"], items=tuple(closing.concessions)),
                FieldView(labels["html.closing_unrefuted"], items=tuple(closing.unrefuted)),
                FieldView(labels["html.closing_final"], closing.final_stance),
                FieldView(
                    labels["html.closing_change"], f"{change}: {closing.stance_change.reason}"
                ),
            ),
        )
    return turns


# ---- the argument trace -----------------------------------------------------------


@dataclass(frozen=True)
class Step:
    text: str
    css: str


@dataclass(frozen=True)
class Answer:
    by: SideView
    heading: str
    response: str
    css: str
    reasoning: str
    follow_up: str
    anchor: str


@dataclass(frozen=True)
class TraceLine:
    item: ItemRef
    reasoning: str
    evidence: str
    answers: tuple[Answer, ...]
    path: tuple[Step, ...]
    standing: StandingView
    score: float | None
    spread: float | None
    disputed: bool
    reason: str
    opening_anchor: str


@dataclass(frozen=True)
class TraceView:
    note: str
    lines: tuple[TraceLine, ...]
    panel: bool


def _name(ctx: Context, key: str) -> str:
    side = ctx.side(key)
    return side.label if side is not None else key


def _closing_step(ctx: Context, item: ItemRef) -> Step:
    labels = ctx.labels
    closing = next((c for c in _body(ctx.result).closings if c.side == item.side.key), None)
    if closing is None:
        return Step(labels["html.path.no_closing"], "neutral")
    if item.id in closing.unrefuted:
        return Step(labels["html.path.claimed"], "claimed")
    return Step(labels["html.path.not_claimed"], "neutral")


def trace_section(ctx: Context, turns: list[TurnView]) -> Section:
    """One row per opening argument: its claim, every other position's answer, the path
    it took and where it stood (the panel's majority, or the judge's standing)."""
    result, labels = ctx.result, ctx.labels
    scores = item_scores(result)
    standings = item_standings(ctx)
    reasons = {row.argument_id: row.reason for row in result.judgement.trace}
    consensus = {c.argument_id: c for c in result.panel.consensus} if result.panel else {}
    cross_turn = {
        (c.by, c.target_id): turns[len(_body(result).arguments) + i].anchor
        for i, c in enumerate(_body(result).cross_examinations)
    }
    lines = []
    for index, item in enumerate(ctx.items):
        argument = _body(result).arguments[index]
        answers = tuple(
            Answer(
                by=ctx.side(c.by) or item.side,
                heading=labels["html.response_by"].format(side=_name(ctx, c.by)),
                response=label(labels, f"response.{c.response}", c.response),
                css=tone(RESPONSE_CLASSES, c.response),
                reasoning=c.reasoning,
                follow_up=c.follow_up,
                anchor=cross_turn[(c.by, c.target_id)],
            )
            for c in _body(result).cross_examinations
            if c.target_id == item.id
        )
        standing = standings.get(item.id, StandingView("-", "neutral", ""))
        path = (
            Step(labels["html.path.opening"], item.side.css),
            *(
                (Step(f"{a.by.label}: {a.response}", a.css) for a in answers)
                if answers
                else (Step(labels["html.path.no_cross"], "neutral"),)
            ),
            _closing_step(ctx, item),
            Step(standing.label, standing.css),
        )
        row = consensus.get(item.id)
        lines.append(
            TraceLine(
                item=item,
                reasoning=argument.reasoning,
                evidence=argument.evidence,
                answers=answers,
                path=path,
                standing=standing,
                score=scores.get(item.id),
                spread=row.std if row else None,
                disputed=bool(row and row.disputed),
                reason=reasons.get(item.id, ""),
                opening_anchor=turns[index].anchor,
            )
        )
    data = TraceView(note=labels["html.trace_note"], lines=tuple(lines), panel=bool(consensus))
    return Section("trace", labels["arguments"], "formats/structured/trace.html.j2", data)


# ---- closings ----------------------------------------------------------------------


@dataclass(frozen=True)
class ClosingView:
    side: SideView
    final_stance: str
    concessions: tuple[str, ...]
    unrefuted: tuple[Located, ...]
    changed: bool
    change: str
    reason: str
    anchor: str


def closings_section(ctx: Context, turns: list[TurnView]) -> Section:
    """Each side's closing: its final stance, concessions, the arguments it claims stood
    unrefuted, and whether its stance changed."""
    result, labels = ctx.result, ctx.labels
    first = len(_body(result).arguments) + len(_body(result).cross_examinations)
    views = []
    for i, closing in enumerate(_body(result).closings):
        side = ctx.side(closing.side)
        assert side is not None  # noqa: S101 (a closing always has a side)
        # a change with no usable reason is not shown as one
        changed = closing.stance_change.label == "stance.changed"
        views.append(
            ClosingView(
                side=side,
                final_stance=closing.final_stance,
                concessions=tuple(closing.concessions),
                unrefuted=tuple(ctx.locate(item_id) for item_id in closing.unrefuted),
                changed=changed,
                change=labels[closing.stance_change.label],
                reason=closing.stance_change.reason,
                anchor=turns[first + i].anchor,
            )
        )
    return Section(
        "closings", labels["closings"], "formats/structured/closings.html.j2", tuple(views)
    )


class StructuredView(ArgumentView):
    """The structured format: its opening arguments are the judged items."""

    name = NAME

    def arguments(self, result: DebateResult) -> Sequence[Argument]:
        """The opening arguments, in the order they were made."""
        return _body(result).arguments

    def transcript(self, ctx: Context) -> list[TurnView]:
        return transcript(ctx)

    def sections(self, ctx: Context, turns: list[TurnView]) -> list[Section]:
        """The argument trace and the closing stances."""
        return [trace_section(ctx, turns), closings_section(ctx, turns)]

    def rounds(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return ROUNDS

    def debater_calls(self, options: Mapping[str, Any], positions: int) -> int | None:
        """An opening, a cross-examination and a closing per position."""
        return len(ROUNDS) * positions
