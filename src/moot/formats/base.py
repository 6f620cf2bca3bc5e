"""What a debate format is, and what the engine gives it to run.

A **format** (:class:`Format`) declares its name, how many positions it takes, its
rounds (each a wave of concurrent model calls, run by its :meth:`Format.run`), its
reply types, its judge rubric and standings, its result payload, the demo writers
that let ``scripted:demo`` play it, and its section of the briefing. It lives in its
own package under ``moot/formats/`` with its prompts, and is registered in
``moot.formats`` by one line. The engine (``moot.debate``) knows no format: it
resolves models, builds the stack of call wrappers (meter, journal, cache, budget,
concurrency), runs :meth:`Format.run` with a :class:`Debate`, and packages the
returned :class:`Record` into the versioned result.

:class:`Debate` is everything a format needs while it runs: the topic, language and
positions, each role's backend and model profile, seeds, and three services that
keep every format's calls alike: :meth:`Debate.ask` (one validated structured call
with re-asks), :meth:`Debate.wave` (a round of concurrent calls: when one fails for
good the others are cancelled, warnings are kept in a stable order) and
:meth:`Debate.judge` (the single judge, or the panel).

Two generic extensions serve formats that need more than their positions' calls:

- **Extra roles.** ``ask`` takes any role name. A position's key, ``judge`` and
  ``judge:NAME`` use their own model; any other role (an audience member, a
  moderator) is played by the judge's model, with the judge's profile, under its
  own name in the journal and in the seeds. ``ask(..., temperature=0.0)`` overrides
  the debate's temperature for one call (deterministic ratings; temperature-0
  replies are what the response cache keeps by default).
- **The run store.** When the run is stored, :meth:`Debate.earlier_results` reads
  finished runs of the same format, and :meth:`Debate.recall` / :meth:`Debate.keep`
  keep a format's own values (a prepared structure that took many calls) in the
  store's response cache, under the run's cache policy (``--no-cache``: nothing is
  kept or read). Without a store both are empty.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel

from moot.briefing import Section
from moot.detectors.transcript import Flag, JudgeScore, Transcript, Turn
from moot.errors import ConfigError
from moot.events import RoundStarted
from moot.formats.fields import FormatOption, check_fields, option_names
from moot.judging.judge import (
    JudgedUnit,
    JudgeRequest,
    ScoreAdjuster,
    bias_signals,
    judge_units,
)
from moot.judging.panel import PanelPlan, judge_panel
from moot.judging.rubric import Rubric
from moot.judging.topic import classify_topic
from moot.judging.verdict import Signal
from moot.llm.backend import Backend
from moot.llm.cache import CachePolicy
from moot.llm.meter import Meter
from moot.llm.structured import Checker, Problem, generate_structured
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.llm.waves import gather_wave
from moot.profiles import PROFILES, STANDARD, ModelProfile
from moot.prompts import render
from moot.schema import (
    DebateResult,
    Judgement,
    Lang,
    Panel,
    Position,
    QualityWarning,
    SourceCitation,
)
from moot.sources.library import Library
from moot.store import Store

T = TypeVar("T")
ReplyT = TypeVar("ReplyT", bound=BaseModel)

MIN_POSITIONS = 2
MAX_POSITIONS = 6
POSITION_LETTERS = "ABCDEF"


def make_positions(names: Sequence[str] | None, lang: str) -> list[Position]:
    """The debate's positions: pro and con by default; otherwise one per name given
    (2-6), keyed ``A``..``F``. Names are trimmed and must be distinct."""
    if not names:
        from moot import i18n

        labels = i18n.labels(lang)
        return [
            Position(key="pro", name=labels["side.pro"], prefix="PRO"),
            Position(key="con", name=labels["side.con"], prefix="CON"),
        ]
    cleaned = [" ".join(n.split()) for n in names]
    if not MIN_POSITIONS <= len(cleaned) <= MAX_POSITIONS:
        raise ConfigError(
            f"a debate has {MIN_POSITIONS} to {MAX_POSITIONS} positions, not {len(cleaned)}"
        )
    if any(not n for n in cleaned):
        raise ConfigError("a position's name is empty")
    if len({n.casefold() for n in cleaned}) != len(cleaned):
        raise ConfigError("two positions have the same name")
    if any(len(n) > 80 for n in cleaned):
        raise ConfigError("a position's name is over 80 characters")
    return [
        Position(key=letter, name=name, prefix=letter)
        for letter, name in zip(POSITION_LETTERS, cleaned, strict=False)
    ]


def mirrored(keys: Sequence[str]) -> dict[str, str]:
    """The swap-sides exchange of positions: the i-th of ``n`` and the ``(n+1-i)``-th
    trade places, as the judge's reading order is reversed (pro and con trade; of
    ``A``, ``B``, ``C`` the first and the last, the middle one keeps its own)."""
    return dict(zip(keys, reversed(keys), strict=True))


def swap_roles(keys: Sequence[str], roles: Mapping[str, str]) -> dict[str, str]:
    """Whose seeds each role takes in the swap-sides rerun, so that seeds follow the
    models (:func:`mirrored`): a position takes its mirror's. A role the format derives
    from a position (``Format.roles``: role -> position) takes the seeds of the role
    derived from the mirrored position in the same place, the ``k``-th of one
    position's roles the ``k``-th of the other's (the market format's ``bull:tech_bull``
    those of ``bear:tech_bear`` when the analysts list the lenses alike); a derived
    role without a counterpart keeps its own. Every other role (the judges, a role
    played by the judge's model) keeps its own."""
    mirror = mirrored(keys)
    derived = {key: [role for role, source in roles.items() if source == key] for key in keys}
    swap = {key: other for key, other in mirror.items() if key != other}
    for key, other in mirror.items():
        if key != other:
            swap.update(zip(derived[key], derived[other], strict=False))
    return swap


@dataclass(frozen=True)
class DebateSettings:
    """How the debate samples and validates, for every format."""

    lang: Lang = "en"
    seed: int | None = None
    temperature: float = 0.3
    max_reasks: int = 2
    strict_rules: bool = False
    swap: Mapping[str, str] = field(default_factory=dict)
    """The swap-sides rerun: each role -> the role whose seeds it takes instead of its
    own (:func:`swap_roles`), in the round of the same name, or in the mirrored round
    when the round is named after a position (the competitive format's ``opening_pro``
    is ``opening_con``'s in the rerun); empty in every other run."""
    profiles: Mapping[str, ModelProfile] = field(default_factory=dict)
    """Each role's model profile; standard where a role is missing."""

    @property
    def swap_seeds(self) -> bool:
        """Whether this is the swap-sides rerun: the models and their seeds exchanged
        between mirrored positions, and the judges reading the positions in reverse."""
        return bool(self.swap)

    def profile(self, role: str) -> ModelProfile:
        """The profile of a role (a panel judge ``judge:NAME#K`` is ``judge:NAME``)."""
        return self.profiles.get(role.partition("#")[0], STANDARD)

    def for_call(
        self, round_name: str, role: str, temperature: float | None = None
    ) -> GenerationSettings:
        """Per-call settings. The seed is derived from the debate seed and the call's
        role and round, so results do not depend on the order calls are made in. The
        output limit is set per reply schema (``moot.llm.structured``). ``temperature``
        overrides the debate's for this call."""
        if self.swap:
            role = self.swap.get(role, role)
            # a round named after a position (``opening_pro``) is its mirror's round
            round_name = "_".join(self.swap.get(word, word) for word in round_name.split("_"))
        seed = None
        if self.seed is not None:
            digest = hashlib.sha256(f"{self.seed}:{role}:{round_name}".encode()).digest()
            seed = int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
        return GenerationSettings(
            temperature=self.temperature if temperature is None else temperature, seed=seed
        )


@dataclass(frozen=True)
class Record:
    """What a format's run produced, before the engine packages it as a result."""

    payload: BaseModel
    judgement: Judgement
    panel: Panel | None
    warnings: list[QualityWarning]


@dataclass
class Debate:
    """One run of a format: its inputs, and the services every format uses."""

    format: Format
    topic: str
    positions: list[Position]
    settings: DebateSettings
    backends: Mapping[str, Backend]
    """Role -> backend: each position's key, ``judge``, and ``judge:NAME`` for a panel."""
    meter: Meter
    options: Mapping[str, Any] = field(default_factory=dict)
    """The format's own options (e.g. ``rounds``), validated by the format."""
    panel: PanelPlan | None = None
    warnings: list[QualityWarning] = field(default_factory=list)
    progress: dict[str, Any] = field(default_factory=dict)
    """What the run completed so far, JSON-ready (saved when a run stops early)."""
    round: str = "setup"
    """The round under way (or the last one begun)."""
    store: Store | None = None
    """The run store when the run is stored (see :meth:`earlier_results`, :meth:`recall`)."""
    run_id: str | None = None
    """The stored run's id (``None`` when the run is not stored)."""
    cache_policy: CachePolicy = "auto"
    """The run's cache policy: ``off`` keeps and reads no format values either."""
    recalls: dict[str, int] = field(default_factory=dict)
    """How often this execution of the run recalled each key (shared with its swap
    rerun), so that each recall finds what the same recall found before a resume."""
    sources: Library | None = None
    """The documents the debaters argue from (``--sources``); None without them."""
    citations: list[SourceCitation] = field(default_factory=list)
    """Every evidence item's check, in the order of the judged units (the format
    fills it before the judge reads the debate; the result's ``sources`` section)."""
    _pending: dict[tuple[str, str], list[QualityWarning]] = field(default_factory=dict)

    @property
    def lang(self) -> Lang:
        return self.settings.lang

    def position_keys(self) -> list[str]:
        return [p.key for p in self.positions]

    def name_of(self, key: str) -> str:
        return next(p.name for p in self.positions if p.key == key)

    def _plays(self, role: str) -> str:
        """The role whose model and profile ``role`` uses: its own for a position, the
        judge and a panel judge; the judge's for any other (extra) role."""
        return role if role.partition("#")[0] in self.backends else "judge"

    def backend_for(self, role: str) -> Backend:
        """The backend a call by ``role`` goes to (an extra role uses the judge's)."""
        return self.backends[self._plays(role).partition("#")[0]]

    def profile_for(self, role: str) -> ModelProfile:
        """The model profile of ``role`` (an extra role has the judge's)."""
        return self.settings.profile(self._plays(role))

    def spec_for(self, role: str, base: OutputSpec) -> OutputSpec:
        """A reply schema as ``role``'s model profile asks for it in this language."""
        return self.profile_for(role).spec(base, self.lang)

    def render(self, template: str, /, **values: object) -> str:
        """One of the format's prompt templates, in the debate's language."""
        return render(template, self.lang, package=self.format.prompts, **values)

    def context(self, role: str, round_name: str, data: object = None) -> CallContext:
        """The context of a call by ``role`` (a position key) in ``round_name``."""
        return CallContext(
            role=role,
            round=round_name,
            side=role,
            topic=self.topic,
            lang=self.lang,
            format=self.format.name,
            data=data,
        )

    async def ask(
        self,
        role: str,
        round_name: str,
        messages: Sequence[Message],
        reply_type: type[ReplyT],
        spec: OutputSpec,
        *,
        check: Checker[ReplyT] | None = None,
        data: object = None,
        temperature: float | None = None,
        place: str = "",
    ) -> tuple[ReplyT, list[QualityWarning]]:
        """One structured call by ``role``: validated, re-asked as its profile allows.
        ``role`` is a position key, ``judge``, or an extra role played by the judge's
        model (see the module). ``temperature`` overrides the debate's for this call.
        ``place`` is where the reply stands in the round's whole reply (the warnings'
        paths start with it: ``arguments[2]`` for one argument asked for on its own).
        Returns the reply and the rule problems it was kept with (also recorded for
        the round: see :meth:`wave`)."""
        profile = self.profile_for(role)
        outcome = await generate_structured(
            self.backend_for(role),
            messages,
            reply_type,
            settings=self.settings.for_call(round_name, role, temperature),
            context=self.context(role, round_name, data),
            meter=self.meter,
            spec=spec,
            check=check,
            max_reasks=self.settings.max_reasks,
            rule_reasks=profile.rule_reasks,
            strict_rules=self.settings.strict_rules,
        )
        warnings = [as_warning(p, round_name, role, place) for p in outcome.warnings]
        # kept per role and added in position order when the round ends, so the result
        # does not depend on which call finished first (a resume replays instantly)
        self._pending.setdefault((round_name, role), []).extend(warnings)
        return outcome.value, warnings

    async def wave(self, round_name: str, calls: Sequence[Awaitable[T]]) -> list[T]:
        """Run one round's calls concurrently (``gather_wave``: when one fails for good
        the others are cancelled, a budget refusal lets them finish)."""
        self.round = round_name
        self.meter.emit(RoundStarted(round_name))
        try:
            return await gather_wave(calls)
        finally:
            positions = self.position_keys()
            others = sorted({r for rnd, r in self._pending if rnd == round_name} - set(positions))
            for role in [*positions, *others]:
                self.warnings += self._pending.pop((round_name, role), [])

    def earlier_results(self, limit: int = 200) -> list[tuple[str, DebateResult]]:
        """``(run id, result)`` of finished runs of this format in the run store, newest
        first (at most ``limit``; not this run). Empty when the run is not stored; a
        stored result that no longer reads back (another version of moot) is skipped."""
        if self.store is None:
            return []
        results = []
        for run_id, text in self.store.finished_results(self.format.name, limit + 1):
            if run_id == self.run_id:
                continue
            try:
                results.append((run_id, DebateResult.model_validate_json(text)))
            except ValueError:
                continue
        return results[:limit]

    def _format_key(self, key: str) -> str:
        digest = hashlib.sha256(f"{self.format.name}\n{key}".encode()).hexdigest()
        return f"format:{self.format.name}:{digest}"

    def recall(self, key: str) -> dict[str, Any] | None:
        """A value this format kept under ``key`` (see :meth:`keep`), or None: without
        a store, under ``--no-cache``, or when nothing was kept.

        A stored run notes what each recall found (the value, or nothing), and a
        resumed run finds that again, not what the cache holds now: a value the
        interrupted run kept *after* its recall found nothing (a rehearsal tree grown
        before the kill) is not taken on resume, so its calls are replayed from the
        journal and the resumed run equals the uninterrupted one. (The note lives in
        the response cache: after ``moot cache clear`` a resume asks the cache again.)"""
        if self.store is None or self.cache_policy == "off":
            return None
        name = self._format_key(key)
        if self.run_id is None:
            return self.store.cache_get(name)
        occurrence = self.recalls.get(name, 0)
        self.recalls[name] = occurrence + 1
        note = f"recalled:{self.run_id}:{occurrence}:{name}"
        found = self.store.cache_get(note)
        if found is not None:
            value = found.get("value")
            return dict(value) if isinstance(value, Mapping) else None
        value = self.store.cache_get(name)
        self.store.cache_put(note, model="moot", value={"value": value})
        return value

    def keep(self, key: str, model: str, value: Mapping[str, Any]) -> None:
        """Keep ``value`` (JSON) under ``key`` in the store's response cache, for later
        runs (``moot cache clear`` removes it; ``model`` names the model it came from).
        Nothing is kept without a store or under ``--no-cache``."""
        if self.store is None or self.cache_policy == "off":
            return
        self.store.cache_put(self._format_key(key), model=model, value=value)

    def _request(
        self,
        units: Sequence[JudgedUnit],
        transcript: str,
        rubric: Rubric,
        standings: Sequence[str],
        order: Sequence[str] | None,
        unit: str,
        adjust: ScoreAdjuster | None,
        round_name: str = "judgement",
    ) -> JudgeRequest:
        """What the judges are asked, for :meth:`judge` and :meth:`score_round`."""
        keys = list(order) if order is not None else self.position_keys()
        return JudgeRequest(
            topic=self.topic,
            lang=self.lang,
            units=tuple(units),
            transcript=transcript,
            positions=tuple(keys),
            rubric=rubric,
            standings=tuple(standings),
            meter=self.meter,
            max_reasks=self.settings.max_reasks,
            strict_rules=self.settings.strict_rules,
            format_name=self.format.name,
            names={p.key: p.name for p in self.positions},
            unit=unit,
            adjust=adjust,
            round_name=round_name,
        )

    async def judge(
        self,
        units: Sequence[JudgedUnit],
        transcript: str,
        *,
        rubric: Rubric,
        standings: Sequence[str],
        order: Sequence[str] | None = None,
        unit: str = "",
        adjust: ScoreAdjuster | None = None,
    ) -> tuple[Judgement, Panel | None]:
        """The verdict on ``units`` (every judged argument or speech, with what the
        other positions answered to it): by the single judge, or by the panel.
        ``transcript`` is the debate as the judge reads it (rendered by the format);
        ``order`` the positions' reading order (the swap rerun reverses it);
        ``adjust`` lets the format correct each judge's integer scores by code before
        anything is computed from them (see ``moot.judging.judge.ScoreAdjuster``)."""
        self.round = "judgement"
        self.meter.emit(RoundStarted("judgement"))
        request = self._request(units, transcript, rubric, standings, order, unit, adjust)
        if self.panel is not None:
            topic_type = self.progress.get("topic_type")
            judgement, panel, warnings = await judge_panel(
                self.panel,
                request,
                topic_type=topic_type or ("general", "user"),
                settings_for=lambda role: self.settings.for_call("judgement", role),
                profile_for=self.settings.profile,
                seed=self.settings.seed or 0,
            )
            self.warnings += warnings
            return judgement, panel
        judgement, warnings = await self._single_judge(request, "judgement")
        self.warnings += warnings
        return judgement, None

    async def score_round(
        self,
        round_name: str,
        units: Sequence[JudgedUnit],
        transcript: str,
        *,
        rubric: Rubric,
        standings: Sequence[str],
        order: Sequence[str] | None = None,
        unit: str = "",
        adjust: ScoreAdjuster | None = None,
    ) -> tuple[Judgement, list[QualityWarning]]:
        """An interim score of ``units`` by the debate's judge model (the lead judge of
        a panel), in its own round ``round_name``: one call, journaled and seeded like
        every call. Unlike :meth:`judge` it neither marks the round nor adds to the
        debate's warnings: it may run alongside the next round's wave, so the format
        adds the returned warnings where its result's order wants them."""
        request = self._request(
            units, transcript, rubric, standings, order, unit, adjust, round_name
        )
        return await self._single_judge(request, round_name)

    async def _single_judge(
        self, request: JudgeRequest, round_name: str
    ) -> tuple[Judgement, list[QualityWarning]]:
        """The debate's judge model on ``request`` in ``round_name``: its judgement, and
        the warnings of its reply's problems and of its score bias."""
        judgement, problems = await judge_units(
            self.backends["judge"],
            request,
            settings=self.settings.for_call(round_name, "judge"),
            profile=self.settings.profile("judge"),
        )
        warnings = [as_warning(p, round_name, None) for p in problems]
        return judgement, warnings + bias_signals(judgement, self.lang)

    async def classify_topic(self) -> None:
        """The panel's topic type (judge weights depend on it): the user's, else the
        judge model's classification, which joins the first wave of calls."""
        plan = self.panel
        if plan is None:
            return
        if plan.topic_type is not None:
            self.progress["topic_type"] = (plan.topic_type, plan.topic_type_source)
            return
        self.progress["topic_type"] = await classify_topic(
            self.topic,
            lang=self.lang,
            backend=plan.seats[0].backend,
            meter=self.meter,
            settings=self.settings.for_call("classification", "classifier"),
            max_reasks=self.settings.max_reasks,
        )


STANCES: dict[str, dict[str, str]] = {
    "en": {"pro": "For: {topic}", "con": "Against: {topic}"},
    "zh": {"pro": "正方：{topic}", "con": "反方：{topic}"},
}
"""Pro's and con's stances as the detectors read them (a named position is its name)."""


def speech_transcript(
    result: DebateResult, speeches: Sequence[tuple[str, str, str]]
) -> tuple[Transcript, list[str | None]]:
    """A debate of speeches as the detectors read it: each ``(id, position, text)`` a
    turn in order, with the judge's weighted score of each speech (for formats whose
    judged units are their speeches)."""
    table = STANCES[result.lang]
    index = {ident: n for n, (ident, _, _) in enumerate(speeches)}
    transcript = Transcript(
        topic=result.topic,
        lang=result.lang,
        sides={
            p.key: table[p.key].format(topic=result.topic) if p.key in table else p.name
            for p in result.positions
        },
        turns=[Turn(side=side, text=text) for _, side, text in speeches],
        names={p.key: p.name for p in result.positions},
        judge_scores=[
            JudgeScore(turn=index[s.argument_id], score=s.weighted)
            for s in result.judgement.scores
            if s.argument_id in index
        ],
    )
    return transcript, [ident for ident, _, _ in speeches]


def as_sent(specs: Iterable[OutputSpec]) -> list[OutputSpec]:
    """Each schema as every model profile asks for it in every language (the shapes
    are the same; the bounds differ), for the portability checks."""
    return [
        profile.spec(spec, lang)
        for spec in specs
        for profile in PROFILES.values()
        for lang in ("en", "zh")
    ]


def example_ids(prefix: str, count: int) -> list[str]:
    """Ids as code numbers them: ``PRO-1`` ... ``PRO-count``."""
    return [f"{prefix}-{n}" for n in range(1, count + 1)]


def as_warning(
    problem: Problem, round_name: str, side: str | None, place: str = ""
) -> QualityWarning:
    """A rule problem kept after the re-asks, as the result records it; ``place`` is
    where the reply stands in the round's whole reply (``arguments[2]`` for one
    argument asked for on its own), put before the problem's path."""
    where = ".".join(part for part in (place, problem.where) if part)
    return QualityWarning(
        round=round_name, side=side, code=problem.code, where=where, message=problem.message
    )


class Format(ABC):
    """A debate format. Subclasses set the class attributes and implement the
    methods; an instance is stateless (one per registry entry).

    A format owns what it adds, and the layers above find it through the format:
    its HTML view is named by ``html_view`` (an import path the report resolves, so
    a format never imports the report layer; its sections' templates live in a
    ``templates/`` folder beside the ``Format`` class and are named
    ``formats/<name>/<file>``), its report labels come from :meth:`labels`. A
    format installed from another package declares its view and labels the same
    way.

    A format can live in another package: declare it in that package's metadata under
    the entry-point group ``moot.formats``, naming a ``Format`` subclass (instantiated
    with no arguments) or an instance::

        [project.entry-points."moot.formats"]
        toy = "toy_format:ToyFormat"

    moot loads the group when the registry is first used (``--format``, ``moot
    formats``), registers each format under its ``name``, and calls the format's
    :meth:`register_extras` once (demo writers, HTML view). A plugin that fails to
    load or to register is reported with a warning naming it and left out; every
    other format and command keeps working."""

    name: ClassVar[str]
    summary: ClassVar[dict[str, str]]
    """One line per language for ``moot formats``."""
    min_positions: ClassVar[int] = MIN_POSITIONS
    max_positions: ClassVar[int] = MAX_POSITIONS
    html_view: ClassVar[str | None] = None
    """``"package.module:ClassName"`` of the format's HTML view (a subclass of
    ``moot.report.html.formats.FormatView``, made with no arguments), which also
    describes its runs to ``moot view``'s live page. None: the generic view (the
    judge's trace, the transcript and the format's briefing sections)."""
    rubric: ClassVar[Rubric]
    standings: ClassVar[tuple[str, ...]]
    """Ordered best, partial, worst, uncertain (the demo judge relies on the order)."""
    payload_type: ClassVar[type[BaseModel]]
    prompts: ClassVar[str]
    """The package whose ``prompts/<lang>/`` directory holds the format's templates."""
    fields: ClassVar[tuple[FormatOption, ...]] = ()
    """The format's own options (``RunOptions.format_options``) and the ``moot run``
    flags that set them, declared once (see :mod:`moot.formats.fields`)."""
    source_tokens: ClassVar[int | None] = None
    """The token budget of the passages one call of a side is given from the
    documents of ``--sources``; None: the format does not argue from documents and
    refuses ``--sources``."""
    side_names: ClassVar[tuple[str, str] | None] = None
    """What ``--pro-model`` and ``--con-model`` mean in a format whose two positions
    are not pro and con (market: bull and bear), for their help text."""
    command_modules: ClassVar[tuple[str, ...]] = ()
    """Modules of commands the format adds to ``moot`` (``moot backtest``): each has a
    ``register(app)`` taking the command line's Typer app. They belong to the command
    line's layer and are imported only by it."""

    @property
    def option_names(self) -> tuple[str, ...]:
        """The names of the format's options."""
        return option_names(self.fields)

    def register_extras(self) -> None:  # noqa: B027 (a hook most formats leave alone)
        """Register what the format adds beside itself when the registry takes it in:
        its ``scripted:demo`` writers, its HTML view. Default: nothing."""

    def positions(self, sides: Sequence[str], lang: str) -> list[Position]:
        """The positions debated: by default pro and con, or the names given with
        ``--sides`` (a format with positions of its own refuses ``sides``)."""
        return make_positions(sides, lang)

    def named_for(self, positions: list[Position], topic: str, lang: str) -> list[Position]:
        """``positions`` as ``topic`` names them (the structured format: pro and con on an
        "A or B" question each take their option into their name). Default: as they are."""
        return positions

    def roles(self, positions: Sequence[Position], options: Mapping[str, Any]) -> dict[str, str]:
        """Roles the format's calls use beyond the positions' keys and ``judge``, each
        mapped to the role whose model it takes (a position's key, or ``judge``): the
        market format's analysts ``bull:tech_bull`` argue with the bull side's model.
        Every role gets its own backend entry, seeds and profile. Default: none."""
        return {}

    def stored_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The format's options as a run keeps them: a format whose options name input
        files reads them here into data, so the stored run (and its resume) argues from
        what was read when it started, whatever happens to the files. Called before
        anything is checked or stored; must leave stored options as they are. Default:
        the options unchanged."""
        return dict(options)

    def widest_wave(
        self,
        positions: Sequence[Position],
        options: Mapping[str, Any],
        *,
        judge_calls: int,
        classifier: bool,
    ) -> int:
        """The most model calls one of the format's waves makes at once: the engine's
        default concurrency cap is at least this, so each round runs as one wave.
        ``judge_calls`` is the judging wave's calls (1, or every run of every panel
        judge); ``classifier`` whether the panel's topic classification joins the first
        wave. Default: one call per position in a round, or the judges."""
        return max(len(positions) + classifier, judge_calls)

    def check_options(self, options: Mapping[str, Any], positions: int) -> list[str]:
        """Refuse options the format cannot run with (``ConfigError``): unknown ones,
        and values outside their fields' declared constraints; return warnings about
        options it runs with but advises against."""
        unknown = sorted(set(options) - set(self.option_names))
        if unknown:
            raise ConfigError(
                f"the {self.name} format has no option {', '.join(unknown)}"
                f" (its options: {', '.join(self.option_names) or 'none'})"
            )
        if not self.min_positions <= positions <= self.max_positions:
            raise ConfigError(
                f"the {self.name} format takes {self.min_positions} to {self.max_positions}"
                f" positions, not {positions}"
            )
        check_fields(self.fields, options, self.name)
        return []

    @abstractmethod
    async def run(self, debate: Debate) -> Record:
        """Run every round and the judge; return what the debate produced."""

    @abstractmethod
    def transcript(self, result: DebateResult) -> tuple[Transcript, list[str | None]]:
        """The debate as the detectors read it, and the judged unit of each turn
        (None for a turn that is not one)."""

    @abstractmethod
    def briefing(self, result: DebateResult, labels: Mapping[str, str]) -> list[Section]:
        """The format's sections of the briefing (as data: see ``moot.briefing``)."""

    def extra_flags(self, result: DebateResult, transcript: Transcript) -> list[Flag]:
        """Detector flags only this format can raise (from its structured record, e.g.
        concessions the closings do not reflect). Default: none."""
        return []

    def verdict_signals(self, result: DebateResult) -> list[Signal]:
        """Evidence about who won that only this format holds (the competitive
        format's stage wins and audience vote), combined with the judges' totals by
        the rule of ``moot.judging.verdict``. Default: none (the totals decide)."""
        return []

    def labels(self, lang: str) -> Mapping[str, str]:
        """The format's own labels in ``lang`` (``en`` or ``zh``, the same keys in
        both), added to the shared ones (``moot.i18n``) wherever a result of this
        format is shown: its briefing, the Markdown and the HTML report, the viewer's
        live page. Every label only this format uses is here, not in the shared table
        (the rule codes of its warnings, its round names, its answers). Default: none."""
        return {}

    @abstractmethod
    def schemas(self) -> list[OutputSpec]:
        """Every reply schema the format may send (for the portability checks)."""

    def payload(self, result: DebateResult) -> BaseModel:
        """A result's payload as this format's typed payload."""
        return self.payload_type.model_validate(result.body)


def first_wave_with_classification(
    debate: Debate, round_name: str, calls: Sequence[Awaitable[T]]
) -> Awaitable[list[T]]:
    """A format's first wave, joined by the panel's topic classification (it depends
    only on the topic, so it costs no extra wave). Either failing cancels the other."""

    async def classify() -> list[T]:
        await debate.classify_topic()
        return []

    async def both() -> list[T]:
        done, _ = await gather_wave([debate.wave(round_name, calls), classify()])
        return done

    return both()
