"""A panel of differentiated judges that measures its own agreement.

Pipeline: independent scoring (every judge x run concurrently, none sees another's
output) -> per-judge aggregation over runs (self-consistency) -> calibration ->
weighting (0.7 x relevance to the topic type + 0.3 x historical accuracy) ->
agreement (Krippendorff's alpha, interval on calibrated scores and nominal on
standings; Fleiss' kappa on standings, matched by argument id) -> divergence
decision -> bootstrap intervals. Every number here is computed by code from the
judges' raw integer scores, which the result keeps for anyone to recompute.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from moot import i18n
from moot.judging.agreement import (
    agreement_label,
    alpha_data,
    fleiss_kappa,
    fleiss_table,
    krippendorff_alpha,
)
from moot.judging.calibration import calibrate
from moot.judging.deliberation import Juror, conformity, deliberate_once
from moot.judging.judge import JudgedUnit, JudgeRequest, bias_signals, judge_units, read_gap
from moot.judging.profiles import JudgeProfile
from moot.judging.rubric import Rubric
from moot.judging.topic import Source as TopicSource
from moot.llm.backend import Backend
from moot.llm.structured import Problem
from moot.llm.types import GenerationSettings
from moot.llm.waves import gather_wave
from moot.profiles import ModelProfile
from moot.schema import (
    Agreement,
    AgreementStat,
    ArgumentConsensus,
    Calibration,
    CalibrationMethod,
    CommonScale,
    Deliberation,
    DeliberationRound,
    Divergence,
    Interval,
    Judgement,
    Panel,
    PanelJudge,
    PanelScore,
    QualityWarning,
    TopicType,
)

RELEVANCE_SHARE = 0.7
ACCURACY_SHARE = 0.3
LOW_ALPHA = 0.50
LOW_KAPPA = 0.40
DISPUTED_STD = 2.5  # cross-judge sample std of weighted scores, 1-10 scale (2,4,7,9 -> 3.1)
CLOSE_TOTALS = 0.05
BOOTSTRAP_SAMPLES = 2000


@dataclass(frozen=True)
class PanelPlan:
    """A judge panel instead of the single general judge."""

    seats: list[Seat]
    runs: int = 1
    deliberate: int = 0
    """Rounds of deliberation after the independent pass (``--panel-deliberate``)."""
    method: CalibrationMethod = "zscore"
    topic_type: TopicType | None = None
    topic_type_source: TopicSource = "user"


@dataclass(frozen=True)
class Seat:
    """One judge on the panel: profile, backend and track record."""

    profile: JudgeProfile
    backend: Backend
    accuracy: float = 1.0
    accuracy_debates: int = 0


def judge_identity(name: str, model: str) -> str:
    """How a judge is known in the judge history: its profile name and model spec."""
    return f"{name}@{model}"


def judge_weight(relevance: float, accuracy: float) -> float:
    """A judge's weight: 0.7 x domain relevance + 0.3 x historical accuracy."""
    return round(RELEVANCE_SHARE * relevance + ACCURACY_SHARE * accuracy, 6)


def _std(values: Sequence[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def _mode(values: Sequence[str]) -> str | None:
    """The most common value; None when two or more tie for most common."""
    ranked = Counter(values).most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


@dataclass(frozen=True)
class _Draft:
    """One judge's scores before the panel's common scale is known."""

    means: dict[str, dict[str, float]]
    weighted: dict[str, float]
    run_spread: dict[str, float]
    standing: dict[str, str]
    calibrated: dict[str, float]
    calibration: Calibration


def _draft(
    rubric: Rubric, runs: Sequence[Judgement], method: CalibrationMethod, lang: str
) -> _Draft:
    ids = [s.argument_id for s in runs[0].scores]
    per_run = [{s.argument_id: s.scores for s in run.scores} for run in runs]
    standings = [{t.argument_id: t.standing for t in run.trace} for run in runs]
    dims = rubric.dimensions
    means = {i: {d: statistics.fmean(r[i][d] for r in per_run) for d in dims} for i in ids}
    weighted = {i: rubric.weighted(means[i]) for i in ids}
    spread = {i: round(_std([rubric.weighted(r[i]) for r in per_run]), 4) for i in ids}
    modal = {i: _mode([s[i] for s in standings]) or standings[0][i] for i in ids}
    calibrated, calibration = calibrate(weighted, method, lang)
    return _Draft(means, weighted, spread, modal, calibrated, calibration)


def common_scale(calibrations: Sequence[Calibration]) -> CommonScale:
    """The scale calibrated scores are put back on, so totals read like scores: the
    judges' mean centre, and the mean scale of the judges that had any spread (a
    z-score of 1 is then one typical judge's standard deviation)."""
    center = statistics.fmean(c.center for c in calibrations)
    scales = [c.scale for c in calibrations if c.scale > 0]
    return CommonScale(
        center=round(center, 6), scale=round(statistics.fmean(scales), 6) if scales else 0.0
    )


def _side_totals(values: Mapping[str, float], side_of: Mapping[str, str]) -> dict[str, float]:
    order = list(dict.fromkeys(side_of.values()))
    return {
        side: round(statistics.fmean(v for i, v in values.items() if side_of[i] == side), 4)
        for side in order
    }


def _stat(value: float, note: str | None = None) -> AgreementStat:
    if math.isnan(value):
        return AgreementStat(value=None, label="not_computable", note=note)
    return AgreementStat(value=round(value, 4), label=agreement_label(value), note=note)


def measure_agreement(
    judges: Sequence[PanelJudge],
    argument_ids: Sequence[str],
    lang: str = "en",
    standings: Sequence[str] = ("UPHELD", "PARTIALLY_UPHELD", "REFUTED", "UNCERTAIN"),
) -> Agreement:
    """Alpha (interval) on calibrated scores, alpha (nominal) and Fleiss' kappa on
    standings; every rating matched to its argument by id."""
    calibrated = {j.name: {s.argument_id: s.calibrated for s in j.scores} for j in judges}
    standings_by_judge = {j.name: {s.argument_id: s.standing for s in j.scores} for j in judges}
    _, _, interval_data = alpha_data(calibrated)
    _, _, nominal_data = alpha_data(standings_by_judge)
    alpha_i = krippendorff_alpha(interval_data, "interval")
    alpha_n = krippendorff_alpha(nominal_data, "nominal")
    kappa = math.nan
    kappa_note = None
    if len(judges) >= 2:
        _, table = fleiss_table(standings_by_judge, tuple(standings))
        kappa = fleiss_kappa(table) if table else math.nan
    else:
        kappa_note = i18n.message(lang, "agreement.one_judge")
    few = len(argument_ids) < 10 or len(judges) < 3
    note = (
        i18n.message(lang, "agreement.indicative", arguments=len(argument_ids), judges=len(judges))
        if few
        else None
    )
    return Agreement(
        alpha_interval=_stat(alpha_i, kappa_note),
        alpha_nominal=_stat(alpha_n, kappa_note),
        kappa=_stat(kappa, kappa_note),
        indicative_only=few,
        note=note,
    )


def _normalised(weights: Sequence[float]) -> list[float]:
    """Weights scaled to sum 1; equal weights when every weight is 0."""
    total = sum(weights)
    if total <= 0:
        return [1 / len(weights)] * len(weights)
    return [w / total for w in weights]


def panel_totals(judges: Sequence[PanelJudge]) -> dict[str, float]:
    """Each position's total: the weight-weighted mean of the judges' totals on the
    common calibrated scale (equal weights if every judge weighs 0)."""
    shares = _normalised([j.weight for j in judges])
    return {
        side: round(
            sum(w * j.adjusted_totals[side] for w, j in zip(shares, judges, strict=True)), 4
        )
        for side in judges[0].adjusted_totals
    }


def bootstrap_intervals(
    judges: Sequence[PanelJudge],
    side_of: Mapping[str, str],
    *,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = 0,
) -> dict[str, Interval]:
    """95% percentile intervals of each position's panel total (calibrated scale),
    resampling judges and, within each position, its units (with replacement)."""
    rng = random.Random(seed)  # noqa: S311 - reproducible resampling, not security
    sides = list(dict.fromkeys(side_of.values()))
    ids = {side: [i for i, s in side_of.items() if s == side] for side in sides}
    adjusted = [{s.argument_id: s.adjusted for s in j.scores} for j in judges]
    draws: dict[str, list[float]] = {side: [] for side in sides}
    for _ in range(samples):
        picked = [rng.randrange(len(judges)) for _ in judges]
        shares = _normalised([judges[p].weight for p in picked])
        for side in sides:
            sample = [rng.choice(ids[side]) for _ in ids[side]]
            draws[side].append(
                sum(
                    w * statistics.fmean(adjusted[p][i] for i in sample)
                    for w, p in zip(shares, picked, strict=True)
                )
            )
    intervals: dict[str, Interval] = {}
    for side in sides:
        ordered = sorted(draws[side])
        low = ordered[int(0.025 * (samples - 1))]
        high = ordered[math.ceil(0.975 * (samples - 1))]
        intervals[side] = Interval(low=round(low, 4), high=round(high, 4))
    return intervals


def consensus(judges: Sequence[PanelJudge], argument_ids: Sequence[str]) -> list[ArgumentConsensus]:
    """Per argument: each judge's score on the common calibrated scale (and raw), its
    standing, the majority standing and the cross-judge spread of calibrated scores
    (a judge who is merely more lenient does not make an argument disputed)."""
    rows = []
    for i in argument_ids:
        picked = {j.name: next(s for s in j.scores if s.argument_id == i) for j in judges}
        scores = {name: s.adjusted for name, s in picked.items()}
        spread = round(_std(list(scores.values())), 4)
        standings = {name: s.standing for name, s in picked.items()}
        rows.append(
            ArgumentConsensus(
                argument_id=i,
                scores=scores,
                raw_scores={name: s.weighted for name, s in picked.items()},
                standings=standings,
                majority_standing=_mode(list(standings.values())),
                std=spread,
                disputed=spread >= DISPUTED_STD,
            )
        )
    return rows


def decide_divergence(
    agreement: Agreement,
    rows: Sequence[ArgumentConsensus],
    totals: Mapping[str, float],
    judges: Sequence[PanelJudge],
) -> Divergence:
    """The panel cannot agree when alpha < 0.50 and kappa < 0.40, or a unit's
    cross-judge spread is very large, or the leader's and the runner-up's totals are
    within 5% of each other."""
    reasons = []
    alpha, kappa = agreement.alpha_interval.value, agreement.kappa.value
    if alpha is not None and kappa is not None and alpha < LOW_ALPHA and kappa < LOW_KAPPA:
        reasons.append("low_agreement")
    if any(r.disputed for r in rows):
        reasons.append("disputed_argument")
    top, second = sorted(totals.values(), reverse=True)[:2]
    if top > 0 and (top - second) / top < CLOSE_TOTALS:
        reasons.append("close_totals")
    ranked = sorted(rows, key=lambda r: r.std, reverse=True)
    disputed = [r.argument_id for r in ranked if r.disputed] or [
        r.argument_id for r in ranked[:3] if r.std > 0
    ]
    settle: list[str] = []
    for judge in judges:
        for run in judge.runs:
            for question in run.unresolved_questions:
                if question not in settle:
                    settle.append(question)
    return Divergence(
        diverged=bool(reasons),
        reasons=reasons,
        disputed_arguments=disputed if reasons else disputed[:3],
        settle=settle[:6],
    )


async def judge_panel(
    plan: PanelPlan,
    request: JudgeRequest,
    *,
    topic_type: tuple[TopicType, TopicSource],
    settings_for: Callable[[str], GenerationSettings],
    profile_for: Callable[[str], ModelProfile],
    seed: int = 0,
) -> tuple[Judgement, Panel, list[QualityWarning]]:
    """Run every judge ``plan.runs`` times on ``request``, concurrently, and compute
    the panel verdict. Each judge weighs the request's rubric dimensions its own way
    (see ``Rubric.applied_to``); the request's ``adjust`` corrects every run's integer
    scores by code before anything is computed from them. ``settings_for`` and
    ``profile_for`` give a judge run's settings (by ``judge:NAME#RUN``) and a judge's
    model profile (by ``judge:NAME``); ``seed`` seeds the bootstrap. Returns the lead
    judgement (the general judge's first run, else the first judge's), the panel, and
    the warnings of every judge run."""
    seats, runs, method = plan.seats, plan.runs, plan.method
    kind, kind_source = topic_type
    lang, units, names = request.lang, request.units, request.names
    rubrics = [seat.profile.rubric.applied_to(request.rubric) for seat in seats]
    calls = [
        judge_units(
            seat.backend,
            replace(request, rubric=own),
            settings=settings_for(f"judge:{seat.profile.name}#{k}"),
            profile=profile_for(f"judge:{seat.profile.name}"),
            role=f"judge:{seat.profile.name}#{k}",
            persona=seat.profile.name,
        )
        for seat, own in zip(seats, rubrics, strict=True)
        for k in range(1, runs + 1)
    ]
    # a judge call that fails for good cancels the others (see gather_wave)
    outcomes = await gather_wave(calls)
    warnings: list[QualityWarning] = []
    per_seat: list[list[Judgement]] = []
    for n in range(len(seats)):
        mine = outcomes[n * runs : (n + 1) * runs]
        per_seat.append([judgement for judgement, _ in mine])
        for judgement, problems in mine:
            warnings += [_warning(p) for p in problems]
            warnings += bias_signals(judgement, lang)
    judges, scale = panel_judges(seats, rubrics, per_seat, method, kind, units, lang)
    ids = [u.id for u in units]
    agreement = measure_agreement(judges, ids, lang, request.standings)
    totals = panel_totals(judges)
    rows = consensus(judges, ids)
    divergence = decide_divergence(agreement, rows, totals, judges)
    gap = read_gap(totals, lang, names or {side: side for side in totals})
    panel = Panel(
        topic_type=kind,
        topic_type_source=kind_source,
        calibration_method=method,
        common_scale=scale,
        judge_runs=runs,
        judges=judges,
        totals=totals,
        intervals=bootstrap_intervals(judges, {u.id: u.side for u in units}, seed=seed),
        gap=gap,
        agreement=agreement,
        consensus=rows,
        divergence=divergence,
        # no winner when the panel diverged, nor when it agrees the top is even
        winner=None if divergence.diverged or gap.reading == "evenly_matched" else gap.leader,
    )
    if plan.deliberate:
        deliberation, problems = await _deliberate(
            plan, rubrics, judges, request, kind, settings_for, profile_for
        )
        panel = panel.model_copy(update={"deliberation": deliberation})
        warnings += [_warning(p, "deliberation") for p in problems]
    lead = next((j for j in judges if j.name == "general"), judges[0]).runs[0]
    return lead, panel, warnings


def panel_judges(
    seats: Sequence[Seat],
    rubrics: Sequence[Rubric],
    per_seat: Sequence[Sequence[Judgement]],
    method: CalibrationMethod,
    kind: TopicType,
    units: Sequence[JudgedUnit],
    lang: str,
) -> tuple[list[PanelJudge], CommonScale]:
    """Each seat's judgement runs aggregated (self-consistency), calibrated, put on the
    panel's common scale and weighted: the panel's judges, and the scale."""
    drafts = [_draft(own, runs, method, lang) for own, runs in zip(rubrics, per_seat, strict=True)]
    scale = common_scale([d.calibration for d in drafts])
    side_of = {u.id: u.side for u in units}
    judges: list[PanelJudge] = []
    for seat, own, judge_runs, d in zip(seats, rubrics, per_seat, drafts, strict=True):
        adjusted = {i: round(scale.center + scale.scale * c, 4) for i, c in d.calibrated.items()}
        relevance = seat.profile.relevance_to(kind)
        judges.append(
            PanelJudge(
                name=seat.profile.name,
                model=seat.backend.spec,
                weights=dict(own.weights),
                relevance=relevance,
                accuracy=seat.accuracy,
                accuracy_debates=seat.accuracy_debates,
                weight=judge_weight(relevance, seat.accuracy),
                runs=list(judge_runs),
                scores=[
                    PanelScore(
                        argument_id=i,
                        scores={dim: round(v, 4) for dim, v in d.means[i].items()},
                        weighted=d.weighted[i],
                        run_spread=d.run_spread[i],
                        calibrated=d.calibrated[i],
                        adjusted=adjusted[i],
                        standing=d.standing[i],
                    )
                    for i in d.weighted
                ],
                totals=_side_totals(d.weighted, side_of),
                adjusted_totals=_side_totals(adjusted, side_of),
                calibration=d.calibration,
            )
        )
    return judges, scale


async def _deliberate(
    plan: PanelPlan,
    rubrics: Sequence[Rubric],
    independent: Sequence[PanelJudge],
    request: JudgeRequest,
    kind: TopicType,
    settings_for: Callable[[str], GenerationSettings],
    profile_for: Callable[[str], ModelProfile],
) -> tuple[Deliberation, list[Problem]]:
    """``plan.deliberate`` rounds of deliberation from each judge's first independent
    run (``moot.judging.deliberation``), the panel recomputed after each."""
    ids = [u.id for u in request.units]
    shown = [j.runs[0] for j in independent]
    before = measure_agreement(independent, ids, request.lang, request.standings)
    rounds: list[DeliberationRound] = []
    problems: list[Problem] = []
    for number in range(1, plan.deliberate + 1):
        jurors = [
            Juror(
                seat.profile.name,
                seat.backend,
                own,
                settings_for(f"judge:{seat.profile.name}#d{number}"),
                profile_for(f"judge:{seat.profile.name}"),
            )
            for seat, own in zip(plan.seats, rubrics, strict=True)
        ]
        shown, found, kept = await deliberate_once(number, jurors, shown, request)
        problems += kept
        judges, scale = panel_judges(
            plan.seats,
            rubrics,
            [[j] for j in shown],
            plan.method,
            kind,
            request.units,
            request.lang,
        )
        rounds.append(
            DeliberationRound(
                round=number,
                judges=judges,
                common_scale=scale,
                totals=panel_totals(judges),
                agreement=measure_agreement(judges, ids, request.lang, request.standings),
                revisions=found,
            )
        )
    every = [r for d in rounds for r in d.revisions]
    return (
        Deliberation(
            rounds=rounds,
            agreement_before=before,
            agreement_after=rounds[-1].agreement,
            revisions=len(every),
            toward_mean=sum(1 for r in every if r.toward_mean),
            silent=sum(1 for r in every if r.toward_mean and r.new_reason is None),
            conformity=conformity(every),
        ),
        problems,
    )


def _warning(problem: Problem, round_name: str = "judgement") -> QualityWarning:
    return QualityWarning(
        round=round_name,
        side=None,
        code=problem.code,
        where=problem.where,
        message=problem.message,
    )
