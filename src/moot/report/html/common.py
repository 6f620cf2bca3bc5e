"""The sections every format's report shares: verdict and gap, the panel's agreement,
score charts, flags, unresolved questions, the transcript, models and usage.

They read the parts of a result that do not depend on the format (the judgement or
the panel, warnings, usage, models) and the judged items and transcript turns that
the format's view supplies (``moot.report.html.formats``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from moot.report.html import charts
from moot.report.html.labels import label
from moot.report.html.page import number
from moot.report.html.parts import (
    AGREEMENT_CLASSES,
    SIDE_CLASSES,
    Context,
    FieldView,
    FlagView,
    ItemRef,
    Located,
    Section,
    SideView,
    TurnView,
    tone,
)
from moot.report.markdown import fallback_notes, group_warnings, lead_judge
from moot.report.verdict import Evidence, verdict_text
from moot.schema import Agreement, AgreementStat, DebateResult, Deliberation, Fallacy


def dimensions_of(result: DebateResult) -> tuple[str, ...]:
    """The rubric dimensions the judge scored, in order."""
    return tuple(result.judgement.weights)


def sides_of(result: DebateResult) -> tuple[SideView, ...]:
    """The debate's positions in order, each with its name and colour."""
    return tuple(
        SideView(key=p.key, label=p.name, css=f"side-{i % SIDE_CLASSES}")
        for i, p in enumerate(result.positions)
    )


def side_total(totals: Mapping[str, float], key: str) -> float:
    """A position's total (totals are keyed by position; NaN, shown as ``-``, for a
    position a stored result has no total for)."""
    return float(totals.get(key, math.nan))


# ---- the numbers the report shows for each judged item --------------------------


def item_scores(result: DebateResult) -> dict[str, float]:
    """Each item's score as the verdict used it: with a panel, the judges' scores on the
    common scale weighted like the panel's totals (so a side's mean is its panel
    total); with one judge, the weighted score code computed."""
    if result.panel is None:
        return {s.argument_id: s.weighted for s in result.judgement.scores}
    weights = {j.name: j.weight for j in result.panel.judges}
    total_weight = sum(weights.values())
    scores = {}
    for row in result.panel.consensus:
        names = list(row.scores)
        if total_weight > 0:
            shares = [weights.get(n, 0.0) / total_weight for n in names]
        else:
            shares = [1 / len(names)] * len(names)
        scores[row.argument_id] = sum(
            share * row.scores[n] for share, n in zip(shares, names, strict=True)
        )
    return scores


@dataclass(frozen=True)
class StandingView:
    label: str
    css: str
    source: str


def item_standings(ctx: Context) -> dict[str, StandingView]:
    """Each item's final standing: the panel's majority (``tie`` when it has none) or
    the single judge's."""
    labels, result = ctx.labels, ctx.result
    if result.panel is not None:
        source = labels["html.standing_panel"]
        return {
            c.argument_id: StandingView(
                label(labels, f"standing.{c.majority_standing}", str(c.majority_standing))
                if c.majority_standing
                else labels["panel.tie"],
                ctx.standing_css(c.majority_standing),
                source,
            )
            for c in result.panel.consensus
        }
    source = labels["html.standing_judge"]
    return {
        row.argument_id: StandingView(
            label(labels, f"standing.{row.standing}", row.standing),
            ctx.standing_css(row.standing),
            source,
        )
        for row in result.judgement.trace
    }


# ---- verdict and gap ------------------------------------------------------------


@dataclass(frozen=True)
class SideTotal:
    side: SideView
    total: float
    interval: tuple[float, float] | None
    leads: bool
    rank: int = 0
    """Its place in the ranking (1 = first; equal totals share a place)."""


@dataclass(frozen=True)
class SwapView:
    sentence: str
    note: str | None
    survives: bool
    totals: tuple[tuple[SideView, float], ...]
    models: tuple[tuple[SideView, str], ...]
    """Which model argued each position in the swapped run (shown when they differ)."""


@dataclass(frozen=True)
class GapView:
    """The gap between the leading position and the runner-up, as code computed it."""

    value: float
    leader: SideView | None
    runner_up: SideView | None
    text: str
    css: str


@dataclass(frozen=True)
class TrustView:
    """The trust verdict as the card shows it: the level (its code, the CSS tone, its
    words) and the details of its top reasons."""

    level: str
    css: str
    label: str
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class VerdictView:
    sentence: str
    gap: GapView
    decided: bool
    basis: str
    totals: tuple[SideTotal, ...]
    """In rank order: the named winner first, then by total."""
    score_note: str
    swap: SwapView | None
    key_insight: str
    recommendation: str
    reading_by: str | None
    expert_note: str | None
    trust: TrustView | None = None
    warning: str | None = None
    """Why the verdict should not be relied on (trust caution or low), shown first."""
    chip: str = ""
    """Beside the gap: who is ahead of whom by the verdict's rule, or no winner."""
    evidence: tuple[Evidence, ...] = ()
    """The signals the verdict weighs (totals, judges' vote, stages, audience vote)."""
    rule: str = ""


def _swap(ctx: Context) -> SwapView | None:
    swap, labels = ctx.result.swap, ctx.labels
    if swap is None:
        return None

    def name(key: str | None) -> str:
        side = ctx.side(key)
        return side.label if side else labels["swap.none"]

    if swap.survives and not swap.original_leader:
        sentence = labels["swap.survives_none"]
    elif swap.survives:
        sentence = labels["swap.survives"].format(side=name(swap.original_leader))
    else:
        sentence = labels["swap.fails"].format(
            first=name(swap.original_leader), second=name(swap.swapped_leader)
        )
    return SwapView(
        sentence=sentence,
        note=labels["swap.same_model"] if swap.same_model else None,
        survives=swap.survives,
        totals=tuple(
            (s, side_total(swap.swapped_totals, s.key))
            for s in ctx.sides
            if s.key in swap.swapped_totals
        ),
        models=()
        if swap.same_model
        else tuple((s, swap.models[s.key]) for s in ctx.sides if s.key in swap.models),
    )


TRUST_TONES = {"ok": "good", "caution": "mixed", "low": "bad"}


def verdict_section(ctx: Context) -> Section:
    """The trust verdict, then the verdict by the one rule (``moot.report.verdict``):
    the headline, the gap and its chip, the positions ranked with the leader marked
    (each total with its interval under a panel), the evidence weighed (the judges'
    vote, a format's further signals) and the rule; the swap check, the key insight
    and the recommendation."""
    result, labels = ctx.result, ctx.labels
    panel = result.panel
    said = verdict_text(result, labels)
    gap = said.verdict.gap
    totals = panel.totals if panel else result.judgement.totals
    basis = (
        labels["html.panel_of"].format(n=len(panel.judges))
        if panel is not None
        else f"{labels['html.one_judge']}: {result.judgement.judge_model}"
    )
    side_totals = tuple(
        SideTotal(
            side=side,
            total=side_total(totals, side.key),
            interval=(
                (panel.intervals[side.key].low, panel.intervals[side.key].high)
                if panel and side.key in panel.intervals
                else None
            ),
            leads=ranked.leads,
            rank=ranked.rank,
        )
        for ranked in said.ranking
        if (side := ctx.side(ranked.key)) is not None
    )
    diverged = panel is not None and panel.divergence.diverged
    judge = lead_judge(result)
    data = VerdictView(
        sentence=said.sentence,
        gap=GapView(
            value=gap.value,
            leader=ctx.side(gap.leader),
            runner_up=ctx.side(gap.runner_up),
            text=gap.text,
            css=tone({"clear_difference": "good", "moderate_difference": "mixed"}, gap.reading),
        ),
        decided=said.verdict.leader is not None,
        basis=basis,
        totals=side_totals,
        score_note=labels["score_note"],
        swap=_swap(ctx),
        key_insight=result.judgement.key_insight,
        recommendation=result.judgement.recommendation,
        reading_by=label(labels, f"judge.{judge}", judge) if judge else None,
        expert_note=(
            labels["panel.expert"]
            if diverged and panel is not None and panel.divergence.reasons != ["close_totals"]
            else None
        ),
        trust=TrustView(
            level=said.trust.level,
            css=TRUST_TONES[said.trust.level],
            label=said.level,
            reasons=tuple(r.detail for r in said.trust.reasons),
        ),
        warning=said.warning,
        chip=said.chip,
        evidence=said.evidence,
        rule=said.rule if said.evidence else "",
    )
    return Section("verdict", labels["html.verdict"], "sections/verdict.html.j2", data)


# ---- the panel ------------------------------------------------------------------


@dataclass(frozen=True)
class AgreementView:
    name: str
    value: float | None
    label: str
    css: str
    note: str | None
    meter: charts.Chart


@dataclass(frozen=True)
class JudgeRow:
    name: str
    model: str
    weight: float
    raw: tuple[float, ...]
    adjusted: tuple[float, ...]
    run_spread: float


@dataclass(frozen=True)
class ConsensusRow:
    item: Located
    majority: StandingView
    standings: tuple[tuple[str, str], ...]
    """(label, tone) of each judge's standing, in judge order."""
    scores: tuple[float, ...]
    spread: float
    disputed: bool


@dataclass(frozen=True)
class PassRow:
    """One pass of a deliberating panel: its agreement, totals and revisions."""

    name: str
    stats: tuple[float | None, ...]
    totals: tuple[float, ...]
    revisions: str


@dataclass(frozen=True)
class DeliberationView:
    note: str
    passes: tuple[PassRow, ...]
    conformity: str


def deliberation_view(
    ctx: Context, deliberation: Deliberation, totals: dict[str, float]
) -> DeliberationView:
    """Agreement and totals before deliberation and after each round, and the
    conformity of the revisions (``--panel-deliberate``)."""
    labels = ctx.labels

    def stats(a: Agreement) -> tuple[float | None, ...]:
        return (a.alpha_interval.value, a.alpha_nominal.value, a.kappa.value)

    passes = [
        PassRow(
            labels["panel.pass.independent"],
            stats(deliberation.agreement_before),
            tuple(side_total(totals, s.key) for s in ctx.sides),
            "-",
        ),
        *(
            PassRow(
                labels["panel.pass.round"].format(n=r.round),
                stats(r.agreement),
                tuple(side_total(r.totals, s.key) for s in ctx.sides),
                str(len(r.revisions)),
            )
            for r in deliberation.rounds
        ),
    ]
    if deliberation.conformity is None:
        conformity = labels["panel.conformity.none"]
    else:
        conformity = labels["panel.conformity.text"].format(
            conformity=f"{deliberation.conformity:.0%}",
            silent=deliberation.silent,
            revisions=deliberation.revisions,
            toward=deliberation.toward_mean,
        )
    note = labels["panel.deliberation.note"].format(rounds=len(deliberation.rounds))
    return DeliberationView(note, tuple(passes), conformity)


@dataclass(frozen=True)
class PanelView:
    topic_type: str
    calibration: str
    judge_runs: int
    judges: tuple[JudgeRow, ...]
    judge_names: tuple[str, ...]
    sides: tuple[SideView, ...]
    agreement: tuple[AgreementView, ...]
    indicative: str | None
    diverged: bool
    """The panel could not agree (not merely: the totals are too close to call)."""
    too_close: str | None
    reasons: tuple[str, ...]
    disputed: tuple[ConsensusRow, ...]
    settle: tuple[str, ...]
    consensus: tuple[ConsensusRow, ...]
    scale_note: str
    deliberation: DeliberationView | None = None


def _agreement(name: str, stat: AgreementStat, labels: dict[str, str]) -> AgreementView:
    return AgreementView(
        name=name,
        value=stat.value,
        label=label(labels, f"label.{stat.label}", stat.label),
        css=tone(AGREEMENT_CLASSES, stat.label),
        note=stat.note,
        meter=charts.agreement_meter(name, stat.value),
    )


def panel_section(ctx: Context) -> Section | None:
    """The judges, their weights and totals; the agreement statistics with their
    labels; what the judges disputed and what would settle it; per-item standings."""
    panel, labels = ctx.result.panel, ctx.labels
    if panel is None:
        return None
    names = tuple(label(labels, f"judge.{j.name}", j.name) for j in panel.judges)
    standings = item_standings(ctx)
    rows = tuple(
        ConsensusRow(
            item=ctx.locate(c.argument_id),
            majority=standings[c.argument_id],
            standings=tuple(
                (
                    label(labels, f"standing.{c.standings.get(j.name)}", "-"),
                    ctx.standing_css(c.standings.get(j.name)),
                )
                for j in panel.judges
            ),
            scores=tuple(c.scores.get(j.name, float("nan")) for j in panel.judges),
            spread=c.std,
            disputed=c.disputed,
        )
        for c in panel.consensus
    )
    source = label(labels, f"panel.source.{panel.topic_type_source}", panel.topic_type_source)
    data = PanelView(
        topic_type=f"{label(labels, f'topic.{panel.topic_type}', panel.topic_type)} ({source})",
        calibration=label(
            labels, f"calibration.{panel.calibration_method}", panel.calibration_method
        ),
        judge_runs=panel.judge_runs,
        judges=tuple(
            JudgeRow(
                name=name,
                model=j.model,
                weight=j.weight,
                raw=tuple(side_total(j.totals, s.key) for s in ctx.sides),
                adjusted=tuple(side_total(j.adjusted_totals, s.key) for s in ctx.sides),
                run_spread=max((s.run_spread for s in j.scores), default=0.0),
            )
            for name, j in zip(names, panel.judges, strict=True)
        ),
        judge_names=names,
        sides=ctx.sides,
        agreement=(
            _agreement(labels["panel.alpha_interval"], panel.agreement.alpha_interval, labels),
            _agreement(labels["panel.alpha_nominal"], panel.agreement.alpha_nominal, labels),
            _agreement(labels["panel.kappa"], panel.agreement.kappa, labels),
        ),
        indicative=panel.agreement.note,
        diverged=panel.divergence.diverged and panel.divergence.reasons != ["close_totals"],
        too_close=labels["panel.too_close"]
        if panel.divergence.reasons == ["close_totals"]
        else None,
        reasons=tuple(label(labels, f"divergence.{r}", r) for r in panel.divergence.reasons),
        disputed=tuple(
            r for r in rows if r.item.label in panel.divergence.disputed_arguments and r.disputed
        ),
        settle=tuple(panel.divergence.settle) if panel.divergence.diverged else (),
        consensus=rows,
        scale_note=labels["html.agreement_scale"],
        deliberation=(
            deliberation_view(ctx, panel.deliberation, panel.totals)
            if panel.deliberation is not None
            else None
        ),
    )
    return Section("panel", labels["panel"], "sections/panel.html.j2", data)


# ---- score charts ---------------------------------------------------------------


@dataclass(frozen=True)
class ScoresView:
    totals: charts.Chart
    totals_note: str
    dimensions: charts.Chart
    dimensions_note: str
    items: charts.Chart
    items_title: str
    items_note: str
    legend: tuple[SideView, ...]


def _dimension_means(ctx: Context) -> dict[str, dict[str, float]]:
    """Per side, per dimension: the mean over the side's items (and, with a panel, over
    the judges' run-averaged dimension scores)."""
    result = ctx.result
    side_of = {item.id: item.side.key for item in ctx.items}
    dimensions = dimensions_of(result)
    values: dict[str, dict[str, list[float]]] = {
        s.key: {d: [] for d in dimensions} for s in ctx.sides
    }
    rows: list[object] = (
        [s for j in result.panel.judges for s in j.scores]
        if result.panel
        else list(result.judgement.scores)
    )
    for row in rows:
        side = side_of.get(str(getattr(row, "argument_id", "")))
        if side not in values:
            continue
        scored = getattr(row, "scores", {})
        for d in dimensions:
            if d in scored:
                values[side][d].append(float(scored[d]))
    return {
        side: {d: statistics.fmean(v) if v else math.nan for d, v in dims.items()}
        for side, dims in values.items()
    }


def scores_section(ctx: Context) -> Section:
    """Totals (with intervals), per-dimension means per side and each item's score
    (with each judge's score as a dot under a panel), as inline SVG charts."""
    result, labels = ctx.result, ctx.labels
    panel = result.panel
    totals = panel.totals if panel else result.judgement.totals
    scores = item_scores(result)
    judge_dots: dict[str, list[float]] = {}
    if panel is not None:
        for c in panel.consensus:
            judge_dots[c.argument_id] = [c.scores.get(j.name, math.nan) for j in panel.judges]
    every = [*scores.values(), *(v for dots in judge_dots.values() for v in dots)]
    if panel is not None:
        every += [v for i in panel.intervals.values() for v in (i.low, i.high)]
    domain = charts.score_domain(every)
    total_rows = [
        charts.BarRow(
            label=side.label,
            label_css=f"label {side.css}",
            value=side_total(totals, side.key),
            css=f"bar {side.css}",
            title=f"{side.label}: {number(side_total(totals, side.key))}",
            interval=(
                (panel.intervals[side.key].low, panel.intervals[side.key].high)
                if panel and side.key in panel.intervals
                else None
            ),
        )
        for side in ctx.sides
    ]
    means = _dimension_means(ctx)
    groups = [
        charts.Group(
            label=label(labels, f"dim.{d}", d),
            bars=tuple(
                (means[s.key][d], f"bar {s.css}", f"{s.label}, {d}: {number(means[s.key][d])}")
                for s in ctx.sides
            ),
        )
        for d in dimensions_of(result)
    ]
    judge_names = [label(labels, f"judge.{j.name}", j.name) for j in panel.judges] if panel else []
    disputed = {c.argument_id for c in panel.consensus if c.disputed} if panel else set()
    item_rows = [
        charts.BarRow(
            label=item.id,
            label_css=f"label {item.side.css}",
            value=scores.get(item.id, math.nan),
            css=f"bar {item.side.css}",
            title=f"{item.id}: {number(scores.get(item.id, math.nan))}",
            dots=tuple(
                (value, "dot", f"{name}: {value:.2f}")
                for name, value in zip(judge_names, judge_dots.get(item.id, []), strict=False)
            ),
            note=labels["html.disputed"] if item.id in disputed else "",
        )
        for item in ctx.items
    ]
    items_title = labels["html.chart.items"].format(unit=ctx.unit)
    data = ScoresView(
        totals=charts.bar_chart(labels["html.chart.totals"], total_rows, domain),
        totals_note=labels["html.chart.totals_panel" if panel else "html.chart.totals_judge"],
        dimensions=charts.grouped_chart(labels["html.chart.dimensions"], groups, (0.0, 10.0)),
        dimensions_note=labels["html.chart.dimensions_note"].format(unit=ctx.unit),
        items=charts.bar_chart(items_title, item_rows, domain),
        items_title=items_title,
        items_note=labels["html.chart.items_panel" if panel else "html.chart.items_judge"].format(
            unit=ctx.unit
        ),
        legend=ctx.sides,
    )
    return Section("scores", labels["html.scores"], "sections/scores.html.j2", data)


# ---- flags ----------------------------------------------------------------------


@dataclass(frozen=True)
class WarningLine:
    heading: str
    rule: str
    places: tuple[str, ...]


@dataclass(frozen=True)
class FlagsView:
    fallacies: tuple[FlagView, ...]
    detectors: tuple[FlagView, ...]
    warnings: tuple[WarningLine, ...]
    judge_zero_variance: bool


def _fallacy(ctx: Context, fallacy: Fallacy) -> FlagView:
    item = ctx.item(fallacy.argument_id)
    return FlagView(
        kind=label(ctx.labels, f"fallacy.{fallacy.type}", fallacy.type),
        where=ctx.locate(fallacy.argument_id),
        side=item.side if item else None,
        evidence=fallacy.quote,
        verified=fallacy.verified,
    )


def turn_place(turn: TurnView, labels: dict[str, str]) -> Located:
    """Where a turn is, in words (its number, round and heading) and by its anchor."""
    parts = [labels["html.turn"].format(n=turn.number), turn.round, turn.heading]
    return Located(" · ".join(p for p in parts if p), turn.anchor)


def detector_flags(ctx: Context, turns: Sequence[TurnView] | None) -> list[FlagView]:
    """The detectors' flags as the result recorded them, each placed on its turn
    (``turns``: the page's transcript, in the format's transcript order; None when
    it does not follow that order), else on its judged unit, else on the debate."""
    labels = ctx.labels
    views = []
    for flag in ctx.result.detectors:
        if turns is not None and flag.turn is not None and 0 <= flag.turn < len(turns):
            where = turn_place(turns[flag.turn], labels)
        elif flag.unit is not None:
            where = ctx.locate(flag.unit)
        elif flag.turn is not None:
            where = Located(labels["html.turn"].format(n=flag.turn), None)
        else:
            where = Located(labels["html.whole_debate"], None)
        views.append(
            FlagView(
                kind=label(labels, f"detector.{flag.detector}", flag.detector),
                where=where,
                side=ctx.side(flag.side),
                evidence=flag.evidence,
            )
        )
    return views


def flags_section(ctx: Context, turns: Sequence[TurnView] | None) -> Section:
    """Possible fallacies (with whether the quote was found), the detectors' flags on
    their turns and the protocol rules still broken after the re-asks."""
    result, labels = ctx.result, ctx.labels
    fallacies = tuple(_fallacy(ctx, f) for f in result.judgement.fallacies)
    names = {s.key: s.label for s in ctx.sides}
    data = FlagsView(
        fallacies=fallacies,
        detectors=tuple(detector_flags(ctx, turns)),
        warnings=tuple(
            WarningLine(heading, rule, tuple(places))
            for heading, rule, places in group_warnings(result.warnings, labels, names)
        ),
        judge_zero_variance=any(w.code == "judge_zero_variance" for w in result.warnings),
    )
    return Section("flags", labels["html.flags"], "sections/flags.html.j2", data)


# ---- unresolved questions, transcript, models and usage --------------------------


def questions_section(ctx: Context) -> Section:
    """The judge's unresolved questions."""
    labels = ctx.labels
    questions = tuple(ctx.result.judgement.unresolved_questions)
    return Section("unresolved", labels["unresolved"], "sections/questions.html.j2", questions)


@dataclass(frozen=True)
class TranscriptView:
    summary: str
    turns: tuple[TurnView, ...]


def transcript_section(ctx: Context, turns: Sequence[TurnView]) -> Section:
    """Every statement in speaking order, collapsed until opened."""
    labels = ctx.labels
    data = TranscriptView(
        summary=labels["html.transcript_summary"].format(n=len(turns)), turns=tuple(turns)
    )
    return Section("transcript", labels["html.transcript"], "sections/transcript.html.j2", data)


@dataclass(frozen=True)
class ModelRow:
    role: str
    model: str
    profile: str


@dataclass(frozen=True)
class UsageView:
    models: tuple[ModelRow, ...]
    figures: tuple[tuple[str, str], ...]
    settings: tuple[tuple[str, str], ...]
    fallbacks: tuple[str, ...]
    """One sentence per schema a server refused in its usual structured-output mode."""
    footer: str


def role_label(role: str, ctx: Context) -> str:
    """A role of ``result.models`` (a position's key, ``judge``, ``judge:risk``) in
    words: the position's name, the judge, a panel judge's profile."""
    labels = ctx.labels
    if role.startswith("judge:"):
        name = role.removeprefix("judge:")
        return label(labels, f"judge.{name}", name)
    if role == "judge":
        return labels["role.judge"]
    side = ctx.side(role)
    return side.label if side is not None else role


def usage_section(ctx: Context) -> Section:
    """Which model played each role (with its profile), what the debate cost, and the
    settings that reproduce it."""
    result, labels = ctx.result, ctx.labels
    usage = result.usage
    data = UsageView(
        models=tuple(
            ModelRow(
                role_label(role, ctx),
                spec,
                result.profiles[role].name if role in result.profiles else "-",
            )
            for role, spec in result.models.items()
        ),
        figures=(
            (labels["html.calls"], str(usage.calls)),
            (labels["html.reasks"], str(usage.reasks)),
            (labels["html.prompt_tokens"], str(usage.prompt_tokens)),
            (labels["html.completion_tokens"], str(usage.completion_tokens)),
            (labels["html.wall_seconds"], f"{usage.wall_seconds:.1f}"),
        ),
        settings=(
            (labels["html.format"], label(labels, f"format.{result.format}", result.format)),
            (labels["positions"], str(len(result.positions))),
            (labels["html.language"], label(labels, f"lang.{result.lang}", result.lang)),
            (
                labels["html.seed"],
                labels["html.no_seed"] if result.seed is None else str(result.seed),
            ),
            (labels["html.schema_version"], result.schema_version),
        ),
        fallbacks=tuple(fallback_notes(result, labels)),
        footer=labels["html.footer"],
    )
    return Section("usage", labels["html.models_usage"], "sections/usage.html.j2", data)


def item_ref(item_id: str, side: SideView, index: int, text: str) -> ItemRef:
    """A judged item with the anchor code gives it (from its position, never its id)."""
    return ItemRef(id=item_id, side=side, anchor=f"item-{index}", text=text)


@dataclass(frozen=True)
class ItemVerdict:
    """Where a judged item ended: its standing, its score (with the judges' spread and
    whether they disagreed, under a panel) and the judge's reason."""

    standing: StandingView
    score: float | None
    spread: float | None
    disputed: bool
    reason: str


def item_verdicts(ctx: Context) -> dict[str, ItemVerdict]:
    """Each judged item's verdict, by id."""
    result = ctx.result
    scores = item_scores(result)
    standings = item_standings(ctx)
    reasons = {row.argument_id: row.reason for row in result.judgement.trace}
    consensus = {c.argument_id: c for c in result.panel.consensus} if result.panel else {}
    verdicts = {}
    for item in ctx.items:
        row = consensus.get(item.id)
        verdicts[item.id] = ItemVerdict(
            standing=standings.get(item.id, StandingView("-", "neutral", "")),
            score=scores.get(item.id),
            spread=row.std if row else None,
            disputed=bool(row and row.disputed),
            reason=reasons.get(item.id, ""),
        )
    return verdicts


def argument_items(
    arguments: Sequence[tuple[str, str, str]], sides: tuple[SideView, ...]
) -> list[ItemRef]:
    """Arguments ``(id, side, claim)`` as judged items, in the order they were made."""
    by_key = {s.key: s for s in sides}
    return [
        item_ref(ident, by_key.get(side) or SideView(side, side, "side-x"), i, claim)
        for i, (ident, side, claim) in enumerate(arguments)
    ]


def add_turn(
    ctx: Context,
    turns: list[TurnView],
    round_name: str,
    side: str,
    heading: str,
    fields: tuple[FieldView, ...],
) -> None:
    """Append the next statement of the transcript (its number and anchor follow the
    ones before it)."""
    side_view = ctx.side(side)
    assert side_view is not None  # noqa: S101 (a statement always has a side)
    turns.append(
        TurnView(
            number=len(turns),
            anchor=f"turn-{len(turns)}",
            round=label(ctx.labels, f"round.{round_name}", round_name),
            side=side_view,
            heading=heading,
            fields=fields,
        )
    )
