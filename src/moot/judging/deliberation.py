"""Judges who deliberate (``--panel-deliberate ROUNDS``, in the manner of ChatEval).

After the panel's independent pass, each deliberation round shows every judge the
other judges' scores and reasons of the pass before, anonymised (``Judge 1``,
``Judge 2``, ... in the panel's order, never their profile or model), beside its
own, and lets it revise each score once: the same integer dimensions and standing,
and a ``new_reason`` it must give when a revision rests on something it did not say
before (empty otherwise). The judges of a round are asked concurrently (one wave,
``deliberation_N``), each call journaled and seeded like every call.

Code then measures what deliberation did, from the integer scores:

- a **revision** is a unit whose weighted score a judge changed in a round;
- it moved **toward the panel mean** when its distance to the mean of every judge's
  weighted score of that unit in the pass the judge was shown shrank;
- **conformity** is the share of revisions that moved toward the panel mean without
  a stated new reason (None when nobody revised);
- the panel's agreement (Krippendorff's alpha and Fleiss' kappa, as
  ``moot.judging.panel`` computes it) before deliberation and after each round.

The verdict (totals, divergence, winner) stays the independent pass's: the panel is
built to measure agreement, and the deliberated pass is reported beside it so that
the rise in agreement can be read against the conformity that produced it.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from moot import i18n
from moot.judging.judge import (
    JudgedUnit,
    JudgeRequest,
    judge_system,
    position_totals,
    read_gap,
)
from moot.judging.rubric import Rubric
from moot.llm.backend import Backend
from moot.llm.schemas import output_spec, pin_items, register_schemas
from moot.llm.structured import Problem, generate_structured
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.llm.waves import gather_wave
from moot.profiles import ModelProfile
from moot.prompts import render
from moot.schema import ArgumentScore, Judgement, Revision, TraceRow

MAX_ROUNDS = 3


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


@cache
def revision_reply_type(dimensions: tuple[str, ...], standings: tuple[str, ...]) -> type[BaseModel]:
    """A deliberating judge's reply: one assessment per unit (id, standing, an integer
    1-10 per dimension, and ``new_reason``: empty, or what it had not said before)."""
    fields: dict[str, Any] = {
        "argument_id": (str, Field(max_length=16)),
        "standing": (Literal[standings], ...),
    }
    fields.update({d: (int, Field(ge=1, le=10)) for d in dimensions})
    fields["new_reason"] = (str, Field(max_length=300))
    assessment: Any = create_model("Revised", __base__=_Reply, **fields)
    reply: type[BaseModel] = create_model(
        "DeliberationReply",
        __base__=_Reply,
        assessments=(list[assessment], Field(min_length=1, max_length=60)),
    )
    return reply


def revision_spec(rubric: Rubric, standings: Sequence[str], ids: Sequence[str]) -> OutputSpec:
    """The reply schema with one assessment slot per unit id, in order."""
    reply_type = revision_reply_type(rubric.dimensions, tuple(standings))
    return pin_items(output_spec(reply_type), "assessments", "argument_id", list(ids))


@register_schemas("panel deliberation")
def deliberation_schemas() -> Iterator[OutputSpec]:
    """The deliberation schemas of each built-in judge profile's rubric over the
    general rubric, for two to six units, as every model profile sends them in both
    languages."""
    from moot.judging.profiles import BUILTIN
    from moot.judging.rubric import GENERAL
    from moot.profiles import PROFILES

    standings = ("STRONG", "MIXED", "WEAK", "UNCERTAIN")
    for judge in BUILTIN.values():
        rubric = judge.rubric.applied_to(GENERAL)
        for count in (2, 6):
            base = revision_spec(rubric, standings, [f"A-{n}" for n in range(1, count + 1)])
            for profile in PROFILES.values():
                for lang in ("en", "zh"):
                    yield profile.spec(base, lang)


@dataclass(frozen=True)
class Assessment:
    """One judge's assessment of one unit as another judge is shown it."""

    argument_id: str
    scores: Mapping[str, int]
    weighted: float
    standing: str
    reason: str


@dataclass(frozen=True)
class DeliberationCall:
    """The ``data`` of a deliberation call: the round, the judge's own assessments and
    the others' (anonymised, each a list in unit order), the standings and dimensions."""

    round: int
    own: tuple[Assessment, ...]
    others: tuple[tuple[Assessment, ...], ...]
    standings: tuple[str, ...]
    dimensions: tuple[str, ...]


def assessments(judgement: Judgement) -> tuple[Assessment, ...]:
    """A judgement's assessments, in its units' order."""
    reasons = {t.argument_id: (t.standing, t.reason) for t in judgement.trace}
    return tuple(
        Assessment(
            s.argument_id,
            dict(s.scores),
            s.weighted,
            reasons[s.argument_id][0],
            reasons[s.argument_id][1],
        )
        for s in judgement.scores
    )


def check_revision(reply: Any, ids: Sequence[str]) -> list[Problem]:
    """Every unit assessed exactly once, no other."""
    counts = Counter(a.argument_id.upper() for a in reply.assessments)
    problems = [
        Problem(f"assessments: {i} must be assessed exactly once (found {counts[i]})")
        for i in ids
        if counts[i] != 1
    ]
    problems += [
        Problem(f"assessments: {i} is not judged in this debate")
        for i in sorted(set(counts) - set(ids))
    ]
    return problems


def revised(
    previous: Judgement,
    reply: Any,
    rubric: Rubric,
    units: Sequence[JudgedUnit],
    lang: str,
    names: Mapping[str, str],
    adjust: Callable[[str, Mapping[str, int]], dict[str, int]] | None,
) -> Judgement:
    """``previous`` with the reply's scores and standings; a unit's reason is the new
    one when the judge gave one. The synthesis and fallacy flags are kept."""
    by_id = {a.argument_id.upper(): a for a in reply.assessments}
    scores: list[ArgumentScore] = []
    trace: list[TraceRow] = []
    for score, row in zip(previous.scores, previous.trace, strict=True):
        answer = by_id[score.argument_id]
        dims = {d: int(getattr(answer, d)) for d in rubric.dimensions}
        if adjust is not None:
            dims = adjust(score.argument_id, dims)
        scores.append(score.model_copy(update={"scores": dims, "weighted": rubric.weighted(dims)}))
        reason = answer.new_reason.strip() or row.reason
        trace.append(row.model_copy(update={"standing": str(answer.standing), "reason": reason}))
    totals = position_totals(
        {s.argument_id: s.weighted for s in scores}, {u.id: u.side for u in units}
    )
    return previous.model_copy(
        update={
            "scores": scores,
            "trace": trace,
            "totals": totals,
            "gap": read_gap(totals, lang, names),
        }
    )


@dataclass(frozen=True)
class Juror:
    """One panel judge as deliberation calls it."""

    name: str
    backend: Backend
    rubric: Rubric
    settings: GenerationSettings
    profile: ModelProfile


async def deliberate_once(
    number: int,
    jurors: Sequence[Juror],
    shown: Sequence[Judgement],
    request: JudgeRequest,
) -> tuple[list[Judgement], list[Revision], list[Problem]]:
    """Deliberation round ``number``: each juror, shown the others' ``shown`` pass
    anonymised, revises its own once (concurrently). Returns each juror's revised
    judgement, the revisions and the rule problems the replies were kept with."""
    lang, units = request.lang, request.units
    order = {side: n for n, side in enumerate(request.positions)}
    ids = [u.id for u in sorted(units, key=lambda u: order.get(u.side, len(order)))]
    names = request.names or {side: side for side in request.positions}
    labels = i18n.labels(lang)
    noun = request.unit or labels["unit.argument"]
    views = [assessments(j) for j in shown]
    adjust = request.adjust

    async def ask(index: int, juror: Juror) -> tuple[Judgement, list[Problem]]:
        own = views[index]
        others = tuple(v for n, v in enumerate(views) if n != index)
        messages = [
            judge_system(juror.rubric, request.standings, juror.name, noun, lang),
            Message(
                "user",
                render(
                    "deliberate",
                    lang,
                    topic=request.topic,
                    transcript=request.transcript,
                    ids=ids,
                    unit=noun,
                    own=own,
                    others=others,
                    round=number,
                ),
            ),
        ]
        reply_type = revision_reply_type(juror.rubric.dimensions, tuple(request.standings))
        outcome = await generate_structured(
            juror.backend,
            messages,
            reply_type,
            settings=juror.settings,
            context=CallContext(
                role=f"judge:{juror.name}",
                round=f"deliberation_{number}",
                topic=request.topic,
                lang=lang,
                format=request.format_name,
                data=DeliberationCall(
                    number, own, others, tuple(request.standings), juror.rubric.dimensions
                ),
            ),
            meter=request.meter,
            spec=juror.profile.spec(revision_spec(juror.rubric, request.standings, ids), lang),
            check=lambda reply: check_revision(reply, ids),
            max_reasks=request.max_reasks,
            rule_reasks=juror.profile.rule_reasks,
            strict_rules=request.strict_rules,
        )
        role = f"judge:{juror.name}#d{number}"
        judgement = revised(
            shown[index],
            outcome.value,
            juror.rubric,
            units,
            lang,
            names,
            None if adjust is None else (lambda ident, dims: adjust(role, ident, dims)),
        )
        return judgement, outcome.warnings

    outcomes = await gather_wave([ask(n, juror) for n, juror in enumerate(jurors)])
    after = [judgement for judgement, _ in outcomes]
    problems = [p for _, found in outcomes for p in found]
    return after, revisions(number, jurors, shown, after), problems


def revisions(
    number: int,
    jurors: Sequence[Juror],
    shown: Sequence[Judgement],
    after: Sequence[Judgement],
) -> list[Revision]:
    """The units whose weighted score a juror changed in round ``number``, each with
    the panel mean it was shown, whether it moved toward it, and its new reason."""
    means = {
        s.argument_id: statistics.fmean(
            next(x.weighted for x in j.scores if x.argument_id == s.argument_id) for j in shown
        )
        for s in shown[0].scores
    }
    found: list[Revision] = []
    for juror, before, now in zip(jurors, shown, after, strict=True):
        old = {s.argument_id: s for s in before.scores}
        old_reasons = {t.argument_id: t for t in before.trace}
        for score, row in zip(now.scores, now.trace, strict=True):
            previous = old[score.argument_id]
            if score.weighted == previous.weighted:
                continue
            mean = round(means[score.argument_id], 4)
            stated = row.reason if row.reason != old_reasons[score.argument_id].reason else ""
            found.append(
                Revision(
                    round=number,
                    judge=juror.name,
                    argument_id=score.argument_id,
                    before=previous.weighted,
                    after=score.weighted,
                    panel_mean=mean,
                    toward_mean=abs(score.weighted - mean) < abs(previous.weighted - mean),
                    new_reason=stated or None,
                )
            )
    return found


def conformity(found: Sequence[Revision]) -> float | None:
    """The share of revisions that moved toward the panel mean without a stated new
    reason (None when nobody revised)."""
    if not found:
        return None
    silent = sum(1 for r in found if r.toward_mean and r.new_reason is None)
    return round(silent / len(found), 4)
