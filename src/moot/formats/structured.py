"""The structured format (SPEC section 1): opening -> cross-examination -> closing -> judge.

Each round is one wave of concurrent calls: both openings together, both
cross-examinations together (they depend only on the openings), both closings
together, then the judge. Each agent sees only what its round needs, not the whole
history. Ids are assigned here; every reply is validated before it is used.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar, cast

from moot.events import RoundStarted
from moot.formats import rules
from moot.formats.replies import (
    ClosingReply,
    CrossExamReply,
    OpeningReply,
    closing_spec,
    cross_exam_spec,
)
from moot.judging.judge import bias_signals, judge_debate
from moot.judging.panel import Seat, judge_panel
from moot.judging.topic import Source as TopicSource
from moot.judging.topic import classify_topic
from moot.llm.backend import Backend
from moot.llm.meter import Meter
from moot.llm.schemas import output_spec
from moot.llm.structured import Problem, generate_structured
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.llm.waves import gather_wave
from moot.prompts import render
from moot.schema import (
    SIDES,
    Argument,
    CalibrationMethod,
    Closing,
    CrossExamination,
    Judgement,
    Lang,
    Panel,
    QualityWarning,
    Side,
    StanceChange,
    TopicType,
)
from moot.text import join_sentences

ReplyT = TypeVar("ReplyT", OpeningReply, CrossExamReply, ClosingReply)
T = TypeVar("T")

# Output budgets per round, in tokens: room for the longest reply the bounded
# schemas allow, so a cut-off reply means a model that rambled, not a tight budget.
MAX_TOKENS = {
    "classification": 300,
    "opening": 2000,
    "cross_examination": 1800,
    "closing": 2000,
    "judgement": 3000,
}


@dataclass(frozen=True)
class DebateSettings:
    """How the debate samples and validates."""

    lang: Lang = "en"
    seed: int | None = None
    temperature: float = 0.3
    max_reasks: int = 2
    strict_rules: bool = False
    swap_seeds: bool = False
    """Give pro the seeds con would have had and vice versa (the swap-sides rerun)."""

    def for_call(self, round_name: str, role: str) -> GenerationSettings:
        """Per-call settings. The seed is derived from the debate seed and the call's
        role and round, so results do not depend on the order calls are made in."""
        if self.swap_seeds:
            role = {"pro": "con", "con": "pro"}.get(role, role)
        seed = None
        if self.seed is not None:
            digest = hashlib.sha256(f"{self.seed}:{role}:{round_name}".encode()).digest()
            seed = int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
        return GenerationSettings(
            temperature=self.temperature, max_tokens=MAX_TOKENS[round_name], seed=seed
        )


@dataclass(frozen=True)
class PanelPlan:
    """A judge panel instead of the single general judge."""

    seats: list[Seat]
    runs: int = 1
    method: CalibrationMethod = "zscore"
    topic_type: TopicType | None = None
    topic_type_source: TopicSource = "user"


@dataclass(frozen=True)
class DebateRecord:
    """Everything a structured debate produced, before it is packaged as a result."""

    arguments: list[Argument]
    cross_examinations: list[CrossExamination]
    closings: list[Closing]
    judgement: Judgement
    warnings: list[QualityWarning]
    panel: Panel | None = None


def _as_warning(problem: Problem, round_name: str, side: Side | None) -> QualityWarning:
    return QualityWarning(
        round=round_name,
        side=side,
        code=problem.code,
        where=problem.where,
        message=problem.message,
    )


class StructuredDebate:
    """Runs one two-sided structured debate over the given backends."""

    def __init__(
        self,
        topic: str,
        *,
        debaters: Mapping[Side, Backend],
        judge: Backend,
        settings: DebateSettings,
        meter: Meter,
        panel: PanelPlan | None = None,
    ) -> None:
        self.topic = topic
        self.panel = panel
        self.debaters = debaters
        self.judge = judge
        self.settings = settings
        self.meter = meter
        self._warnings: list[QualityWarning] = []
        self._pending: dict[tuple[str, Side], list[QualityWarning]] = {}
        self._arguments: list[Argument] = []
        self._cross: list[CrossExamination] = []
        self._closings: list[Closing] = []
        self.round = "opening"
        """The round under way (or the last one begun)."""

    @property
    def lang(self) -> Lang:
        return self.settings.lang

    def _context(self, round_name: str, side: Side | None, **extra: object) -> CallContext:
        role = side if side is not None else "judge"
        return CallContext(
            role=role,
            round=round_name,
            side=side,
            topic=self.topic,
            lang=self.lang,
            extra=dict(extra),
        )

    def _system(self, side: Side) -> Message:
        return Message("system", render("debater_system", self.lang, side=side, topic=self.topic))

    async def _ask(
        self,
        side: Side,
        round_name: str,
        prompt_name: str,
        reply_type: type[ReplyT],
        check: Callable[[ReplyT], list[Problem]],
        spec: OutputSpec,
        **prompt_context: object,
    ) -> ReplyT:
        messages = [
            self._system(side),
            Message(
                "user",
                render(prompt_name, self.lang, side=side, topic=self.topic, **prompt_context),
            ),
        ]
        outcome = await generate_structured(
            self.debaters[side],
            messages,
            reply_type,
            settings=self.settings.for_call(round_name, side),
            context=self._context(round_name, side, **prompt_context),
            meter=self.meter,
            spec=spec,
            check=check,
            max_reasks=self.settings.max_reasks,
            strict_rules=self.settings.strict_rules,
        )
        # Kept per side and added in side order when the round ends, so the result
        # does not depend on which side's call finished first (a resumed run replays
        # calls instantly, in another order than the original run).
        self._pending[(round_name, side)] = [
            _as_warning(p, round_name, side) for p in outcome.warnings
        ]
        return outcome.value

    async def _opening(self, side: Side) -> list[Argument]:
        reply = await self._ask(
            side,
            "opening",
            "opening",
            OpeningReply,
            lambda r: rules.check_opening(r, self.lang),
            output_spec(OpeningReply),
        )
        prefix = side.upper()
        return [
            Argument(
                id=f"{prefix}-{n}",
                side=side,
                claim=a.claim,
                reasoning=a.reasoning,
                evidence=a.evidence,
            )
            for n, a in enumerate(reply.arguments, start=1)
        ]

    async def _cross_examine(self, side: Side, arguments: list[Argument]) -> list[CrossExamination]:
        opposing = [a for a in arguments if a.side != side]
        own = [a for a in arguments if a.side == side]
        target_ids = [a.id for a in opposing]
        all_ids = [a.id for a in arguments]
        reply = await self._ask(
            side,
            "cross_examination",
            "cross_exam",
            CrossExamReply,
            lambda r: rules.check_cross_exam(r, target_ids, all_ids, self.lang),
            cross_exam_spec(output_spec(CrossExamReply), target_ids),
            opposing=opposing,
            own=own,
            target_ids=target_ids,
        )
        by_target = {item.target_id.upper(): item for item in reply.responses}
        return [
            CrossExamination(
                by=side,
                target_id=t,
                response=by_target[t].response,
                reasoning=by_target[t].reasoning,
                follow_up=by_target[t].follow_up,
            )
            for t in target_ids
        ]

    async def _closing(
        self, side: Side, arguments: list[Argument], cross: list[CrossExamination]
    ) -> Closing:
        own = [a for a in arguments if a.side == side]
        own_ids = [a.id for a in own]
        received = [c for c in cross if c.by != side]
        given = [c for c in cross if c.by == side]
        opposing = [a for a in arguments if a.side != side]
        reply = await self._ask(
            side,
            "closing",
            "closing",
            ClosingReply,
            lambda r: rules.check_closing(r, own_ids, self.lang),
            closing_spec(output_spec(ClosingReply), own_ids),
            own=own,
            opposing=opposing,
            received=received,
            given=given,
            own_ids=own_ids,
        )
        return Closing(
            side=side,
            concessions=list(reply.concessions),
            unrefuted=[i.upper() for i in reply.unrefuted],
            final_stance=join_sentences(reply.final_stance, self.lang),
            stance_change=StanceChange(
                changed=reply.stance_changed, reason=reply.stance_change_reason
            ),
        )

    def progress(self) -> dict[str, object]:
        """What the debate has completed so far, as JSON-ready data (for a run that
        stops early: a budget, an interrupt or a failure)."""
        return {
            "arguments": [a.model_dump() for a in self._arguments],
            "cross_examinations": [c.model_dump() for c in self._cross],
            "closings": [c.model_dump() for c in self._closings],
            "warnings": [w.model_dump() for w in self._warnings],
        }

    async def _round(self, round_name: str, calls: list[Awaitable[T]]) -> list[T]:
        """Run one wave of calls (see ``gather_wave``: a call that fails for good
        cancels the others; a budget refusal lets them finish first)."""
        try:
            return await gather_wave(calls)
        finally:
            for side in SIDES:
                self._warnings += self._pending.pop((round_name, side), [])

    def _begin(self, event: RoundStarted) -> None:
        self.round = event.round
        self.meter.emit(event)

    async def _topic_type(self, plan: PanelPlan) -> tuple[TopicType, TopicSource]:
        if plan.topic_type is not None:
            return plan.topic_type, plan.topic_type_source
        return await classify_topic(
            self.topic,
            lang=self.lang,
            backend=plan.seats[0].backend,
            meter=self.meter,
            settings=self.settings.for_call("classification", "classifier"),
            max_reasks=self.settings.max_reasks,
        )

    async def run(self) -> DebateRecord:
        """Run the four waves and return the record. A panel's topic classification
        depends only on the topic, so it runs in the first wave."""
        emit = self._begin
        emit(RoundStarted("opening"))
        topic_type: tuple[TopicType, TopicSource] = ("general", "user")
        opening = self._round("opening", [self._opening(s) for s in SIDES])
        if self.panel is None:
            openings = await opening
        else:
            # the classification depends only on the topic, so it joins the first wave
            first_wave: list[Awaitable[object]] = [opening, self._topic_type(self.panel)]
            done, classified = await gather_wave(first_wave)
            openings = cast(list[list[Argument]], done)
            topic_type = cast(tuple[TopicType, TopicSource], classified)
        arguments = [a for side_args in openings for a in side_args]
        self._arguments = arguments

        emit(RoundStarted("cross_examination"))
        exams = await self._round(
            "cross_examination", [self._cross_examine(s, arguments) for s in SIDES]
        )
        cross = [c for side_exams in exams for c in side_exams]
        self._cross = cross

        emit(RoundStarted("closing"))
        closings = await self._round("closing", [self._closing(s, arguments, cross) for s in SIDES])
        self._closings = closings

        emit(RoundStarted("judgement"))
        if self.settings.swap_seeds:
            # the swap run also reverses the reading order: the judges see con first,
            # so a verdict that survives is not an artefact of position either
            arguments = [a for a in arguments if a.side == "con"] + [
                a for a in arguments if a.side == "pro"
            ]
        if self.panel is not None:
            judgement, panel, warnings = await judge_panel(
                self.panel.seats,
                topic=self.topic,
                lang=self.lang,
                topic_type=topic_type[0],
                topic_type_source=topic_type[1],
                arguments=arguments,
                cross=cross,
                closings=closings,
                settings_for=lambda role: self.settings.for_call("judgement", role),
                meter=self.meter,
                max_reasks=self.settings.max_reasks,
                strict_rules=self.settings.strict_rules,
                runs=self.panel.runs,
                method=self.panel.method,
                seed=self.settings.seed or 0,
            )
            self._warnings += warnings
            return DebateRecord(
                arguments, cross, closings, judgement, list(self._warnings), panel=panel
            )
        judgement, outcome = await judge_debate(
            self.judge,
            topic=self.topic,
            lang=self.lang,
            arguments=arguments,
            cross=cross,
            closings=closings,
            settings=self.settings.for_call("judgement", "judge"),
            meter=self.meter,
            max_reasks=self.settings.max_reasks,
            strict_rules=self.settings.strict_rules,
        )
        self._warnings += [_as_warning(p, "judgement", None) for p in outcome.warnings]
        self._warnings += bias_signals(judgement, self.lang)
        return DebateRecord(arguments, cross, closings, judgement, list(self._warnings))
