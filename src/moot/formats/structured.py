"""The structured format (SPEC section 1): opening -> cross-examination -> closing -> judge.

Each round is one wave of concurrent calls: both openings together, both
cross-examinations together (they depend only on the openings), both closings
together, then the judge. Each agent sees only what its round needs, not the whole
history. Ids are assigned here; every reply is validated before it is used.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
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
from moot.profiles import STANDARD, ModelProfile
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
    profiles: Mapping[str, ModelProfile] = field(default_factory=dict)
    """Each role's model profile (``pro``, ``con``, ``judge``, ``judge:NAME``);
    standard where a role is missing."""

    def profile(self, role: str) -> ModelProfile:
        """The profile of a role (a panel judge ``judge:NAME#K`` is ``judge:NAME``)."""
        return self.profiles.get(role.partition("#")[0], STANDARD)

    def for_call(self, round_name: str, role: str) -> GenerationSettings:
        """Per-call settings. The seed is derived from the debate seed and the call's
        role and round, so results do not depend on the order calls are made in. The
        output limit is set per reply schema (``moot.llm.structured``)."""
        if self.swap_seeds:
            role = {"pro": "con", "con": "pro"}.get(role, role)
        seed = None
        if self.seed is not None:
            digest = hashlib.sha256(f"{self.seed}:{role}:{round_name}".encode()).digest()
            seed = int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
        return GenerationSettings(temperature=self.temperature, seed=seed)


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
        profile = self.settings.profile(side)
        messages = [
            self._system(side),
            Message(
                "user",
                render(
                    prompt_name,
                    self.lang,
                    side=side,
                    topic=self.topic,
                    examples=profile.examples,
                    **prompt_context,
                ),
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
            rule_reasks=profile.rule_reasks,
            strict_rules=self.settings.strict_rules,
        )
        # Kept per side and added in side order when the round ends, so the result
        # does not depend on which side's call finished first (a resumed run replays
        # calls instantly, in another order than the original run).
        self._pending[(round_name, side)] = [
            _as_warning(p, round_name, side) for p in outcome.warnings
        ]
        return outcome.value

    def _spec(self, side: Side, base: OutputSpec) -> OutputSpec:
        """A reply schema as ``side``'s model profile asks for it in this language."""
        return self.settings.profile(side).spec(base, self.lang)

    async def _opening(self, side: Side) -> list[Argument]:
        spec = self._spec(side, output_spec(OpeningReply))
        count = spec.json_schema["properties"]["arguments"]
        reply = await self._ask(
            side,
            "opening",
            "opening",
            OpeningReply,
            lambda r: rules.check_opening(r, self.lang),
            spec,
            min_args=count["minItems"],
            max_args=count["maxItems"],
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
            self._spec(side, cross_exam_spec(output_spec(CrossExamReply), target_ids)),
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
        stance_words = self.settings.profile(side).stance_words
        reply = await self._ask(
            side,
            "closing",
            "closing",
            ClosingReply,
            lambda r: rules.check_closing(r, own_ids, self.lang, stance_words),
            self._spec(side, closing_spec(output_spec(ClosingReply), own_ids)),
            stance_words=stance_words,
            own=own,
            opposing=opposing,
            received=received,
            given=given,
            own_ids=own_ids,
        )
        stood = {ident.upper(): value for ident, value in reply.unrefuted.items()}
        return Closing(
            side=side,
            concessions=list(reply.concessions),
            unrefuted=[i for i in own_ids if stood.get(i, False)],
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
        """Run one wave of calls. Every call is let finish (and so is journaled and
        counted) before the first failure is raised: a budget stop or a bad reply on
        one side must not abandon the other side's call, already paid for."""
        results = await asyncio.gather(*calls, return_exceptions=True)
        for side in SIDES:
            self._warnings += self._pending.pop((round_name, side), [])
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return cast(list[T], results)

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
        emit = self.meter.emit
        emit(RoundStarted("opening"))
        topic_type: tuple[TopicType, TopicSource] = ("general", "user")
        opening = self._round("opening", [self._opening(s) for s in SIDES])
        if self.panel is None:
            openings = await opening
        else:
            # the classification depends only on the topic, so it joins the first
            # wave; both finish before either failure is raised (no call abandoned)
            done, classified = await asyncio.gather(
                opening, self._topic_type(self.panel), return_exceptions=True
            )
            for first_wave in (done, classified):
                if isinstance(first_wave, BaseException):
                    raise first_wave
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
                profile_for=self.settings.profile,
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
            profile=self.settings.profile("judge"),
        )
        self._warnings += [_as_warning(p, "judgement", None) for p in outcome.warnings]
        self._warnings += bias_signals(judgement, self.lang)
        return DebateRecord(arguments, cross, closings, judgement, list(self._warnings))
