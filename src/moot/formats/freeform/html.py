"""The free-form format in the HTML report: every speech by round, what it answered
and what answered it, where it stood and its score; the speeches a detector had
asked for again; the transcript in speaking order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moot.formats.freeform import DEFAULT_ROUNDS
from moot.formats.freeform.payload import DetectorReask, FreeformPayload, Speech
from moot.report.html import charts
from moot.report.html.common import StandingView, item_ref, item_scores, item_standings
from moot.report.html.formats import FormatView
from moot.report.html.labels import label, round_label
from moot.report.html.parts import (
    Context,
    FieldView,
    ItemRef,
    Located,
    Section,
    SideView,
    TurnView,
)
from moot.schema import DebateResult

NAME = "freeform"


def _body(result: DebateResult) -> FreeformPayload:
    """The free-form format's part of a result."""
    return FreeformPayload.model_validate(result.body)


@dataclass(frozen=True)
class ReaskView:
    detectors: str
    outcome: str
    css: str
    reason: str


@dataclass(frozen=True)
class SpeechLine:
    item: ItemRef
    text: str
    answers: tuple[Located, ...]
    """The previous round's speeches it answers."""
    answered_by: tuple[Located, ...]
    """The next round's speeches that answer it."""
    unanswered: str
    """What to show when none did (nothing in the last round: no round came after)."""
    standing: StandingView
    score: float | None
    spread: float | None
    disputed: bool
    reason: str
    reask: ReaskView | None
    turn_anchor: str


@dataclass(frozen=True)
class RoundGroup:
    label: str
    lines: tuple[SpeechLine, ...]


@dataclass(frozen=True)
class SpeechesView:
    note: str
    rounds: tuple[RoundGroup, ...]


def _reask(ctx: Context, reask: DetectorReask | None) -> ReaskView | None:
    if reask is None:
        return None
    labels = ctx.labels
    return ReaskView(
        detectors=", ".join(label(labels, f"detector.{d}", d) for d in reask.detectors),
        outcome=labels["reask.fixed" if reask.fixed else "reask.not_fixed"],
        css="good" if reask.fixed else "bad",
        reason=reask.reason,
    )


def speeches_section(ctx: Context, turns: list[TurnView]) -> Section:
    """One row per speech, grouped by round: its text, the speeches it answered and
    those that answered it (each a link to its row), where it stood and its score."""
    result, labels = ctx.result, ctx.labels
    body = _body(result)
    scores = item_scores(result)
    standings = item_standings(ctx)
    reasons = {row.argument_id: row.reason for row in result.judgement.trace}
    consensus = {c.argument_id: c for c in result.panel.consensus} if result.panel else {}
    reasks = {r.speech_id: r for r in body.detector_reasks}
    answered_by: dict[str, list[str]] = {}
    for speech in body.speeches:
        for target in speech.responds_to:
            answered_by.setdefault(target, []).append(speech.id)
    groups: dict[int, list[SpeechLine]] = {}
    for index, (item, speech) in enumerate(zip(ctx.items, body.speeches, strict=True)):
        row = consensus.get(speech.id)
        groups.setdefault(speech.round, []).append(
            SpeechLine(
                item=item,
                text=speech.text,
                answers=tuple(ctx.locate(i) for i in speech.responds_to),
                answered_by=tuple(ctx.locate(i) for i in answered_by.get(speech.id, [])),
                unanswered=labels["html.not_answered"] if speech.round < body.rounds else "-",
                standing=standings.get(speech.id, StandingView("-", "neutral", "")),
                score=scores.get(speech.id),
                spread=row.std if row else None,
                disputed=bool(row and row.disputed),
                reason=reasons.get(speech.id, ""),
                reask=_reask(ctx, reasks.get(speech.id)),
                turn_anchor=turns[index].anchor,
            )
        )
    data = SpeechesView(
        note=labels["html.speeches_note"],
        rounds=tuple(
            RoundGroup(round_label(labels, f"round_{number}"), tuple(lines))
            for number, lines in sorted(groups.items())
        ),
    )
    return Section("speeches", labels["speeches"], "formats/freeform/speeches.html.j2", data)


@dataclass(frozen=True)
class TrajectoryView:
    note: str
    chart: charts.Chart


def trajectory_section(ctx: Context) -> Section | None:
    """The judge's score of each position after each round (``--judge-each-round``)
    as a line chart, its numbers also in a table a screen reader reads; None when the
    judge scored only at the end."""
    body, labels = _body(ctx.result), ctx.labels
    if not body.round_scores:
        return None
    steps = [round_label(labels, f"round_{r.round}") for r in body.round_scores]
    series = [
        charts.Series(
            side.label, side.css, tuple(r.scores.get(side.key) for r in body.round_scores)
        )
        for side in ctx.sides
    ]
    every = [v for line in series for v in line.values if v is not None]
    chart = charts.line_chart(labels["trajectory.chart"], steps, series, charts.score_domain(every))
    data = TrajectoryView(labels["trajectory.note"], chart)
    return Section("trajectory", labels["trajectory"], "formats/freeform/trajectory.html.j2", data)


def _turn(ctx: Context, number: int, speech: Speech) -> TurnView:
    labels = ctx.labels
    side = ctx.side(speech.side)
    assert side is not None  # noqa: S101 (a speech always has a side)
    fields = [FieldView(labels["col.speech"], speech.text)]
    if speech.responds_to:
        fields.append(FieldView(labels["html.answers"], ", ".join(speech.responds_to)))
    return TurnView(
        number=number,
        anchor=f"turn-{number}",
        round=round_label(labels, f"round_{speech.round}"),
        side=side,
        heading=speech.id,
        fields=tuple(fields),
    )


class FreeformView(FormatView):
    """The free-form format: its speeches are the judged items."""

    name = NAME
    unit = "speech"

    def items(self, result: DebateResult, sides: tuple[SideView, ...]) -> list[ItemRef]:
        """Every speech in speaking order, with the first sentence the judge read as its
        claim."""
        by_key = {s.key: s for s in sides}
        claims = {row.argument_id: row.claim for row in result.judgement.trace}
        return [
            item_ref(
                s.id,
                by_key.get(s.side) or SideView(s.side, s.side, "side-x"),
                i,
                claims.get(s.id, s.text),
            )
            for i, s in enumerate(_body(result).speeches)
        ]

    def transcript(self, ctx: Context) -> list[TurnView]:
        """Every speech in speaking order (the order of ``Format.transcript``)."""
        return [_turn(ctx, n, s) for n, s in enumerate(_body(ctx.result).speeches)]

    def sections(self, ctx: Context, turns: list[TurnView]) -> list[Section]:
        trajectory = trajectory_section(ctx)
        return [speeches_section(ctx, turns), *([trajectory] if trajectory else [])]

    def rounds(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The rounds in order; with ``--judge-each-round`` each round's score comes
        beside the next round (the last one's before the final judgement)."""
        count = _rounds(options) or 0
        steps: list[str] = []
        for n in range(1, count + 1):
            steps.append(f"round_{n}")
            if _each_round(options) and n > 1:
                steps.append(f"judge_round_{n - 1}")
        if _each_round(options) and count:
            steps.append(f"judge_round_{count}")
        return tuple(steps)

    def debater_calls(self, options: Mapping[str, Any], positions: int) -> int | None:
        """A speech per position and round (a detector's re-ask of a speech is one
        more), and with ``--judge-each-round`` the judge's score of every round."""
        count = _rounds(options)
        if count is None:
            return None
        return count * positions + (count if _each_round(options) else 0)


def _each_round(options: Mapping[str, Any]) -> bool:
    """Whether the stored run scored every round (``--judge-each-round``)."""
    format_options = options.get("format_options") or {}
    return isinstance(format_options, Mapping) and format_options.get("judge_each_round") is True


def _rounds(options: Mapping[str, Any]) -> int | None:
    """The stored ``--rounds`` (the default when not given); None when damaged."""
    format_options = options.get("format_options") or {}
    if not isinstance(format_options, Mapping):
        return None
    value = format_options.get("rounds", DEFAULT_ROUNDS)
    if value is None:
        return DEFAULT_ROUNDS
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return value
