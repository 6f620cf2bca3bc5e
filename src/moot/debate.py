"""The engine and its public entry points: ``run_debate`` / ``arun_debate`` and
``resume_debate``. It knows no debate format: it resolves models, wraps every
backend, runs the chosen format (``moot.formats``) and packages its record as the
versioned result.

Model specs are resolved once per distinct spec, so roles that share a model share
one backend (one model worker for the embedded model). Callers may also pass
``Backend`` instances directly, for example a ``ScriptedBackend`` in tests.

Every call of a role goes through the same stack of wrappers, outermost first::

    Metered -> Journaled (stored runs) -> Cached (stored runs) -> Budgeted -> Limited -> backend

so the meter counts every call, the journal records (and on resume replays) every
call, cache hits cost nothing, and only calls that really reach the model count
against the budget and hold a concurrency slot.

A stored run (``store=`` given) is written to SQLite as it goes: its options first,
each model call before the debate moves on, its final status and result at the end.
``resume_debate`` continues it from the journal.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from moot.detectors.core import run_detectors
from moot.detectors.transcript import Flag, Transcript
from moot.errors import BudgetExceeded, ConfigError
from moot.events import Listener, OptionAdvice, RunStored, SourcesIndexed, deliver
from moot.formats import formats, get_format
from moot.formats.base import Debate, DebateSettings, Format, Record, mirrored, swap_roles
from moot.formats.fields import output_fields
from moot.i18n import labels
from moot.judging.flag_review import review_flags
from moot.judging.panel import PanelPlan, Seat, judge_identity
from moot.judging.profiles import JudgeProfile, assign_models, select_profiles
from moot.judging.verdict import base_leader
from moot.llm.backend import DEFAULT_SPEC, Backend, resolve_backend
from moot.llm.budget import Budget, BudgetedBackend, PriceTable
from moot.llm.cache import CachedBackend, drop_invalid
from moot.llm.checked import CheckedBackend
from moot.llm.journal import Journal, JournaledBackend
from moot.llm.limit import LimitedBackend
from moot.llm.meter import Meter, MeteredBackend
from moot.llm.served import discover_small_models
from moot.llm.types import GenerationSettings
from moot.options import DEFAULT_CONCURRENCY, ModelRef, RunOptions
from moot.profiles import profile_for
from moot.schema import (
    SCHEMA_VERSION,
    DebateResult,
    DetectorFlag,
    DetectorReview,
    Judgement,
    Lang,
    Panel,
    Position,
    ProfileReport,
    QualityWarning,
    SwapCheck,
    UsageReport,
)
from moot.sources.citations import section as sources_section
from moot.sources.library import Library, changed_documents, open_library
from moot.store import Store
from moot.trust import Turns, with_trust
from moot.validation import RUN_ID, check_name, check_text

RESUMABLE = ("running", "interrupted", "failed", "budget_exceeded")


def new_debate_id() -> str:
    """A fresh run id: UTC time plus random hex, sortable and unique."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def verdict_leader(judgement: Judgement, panel: Panel | None) -> str | None:
    """The position the totals' verdict favours: the panel's winner, or the single
    judge's leader unless the top is evenly matched (``moot.judging.verdict``)."""
    return base_leader(judgement, panel)


@dataclass(frozen=True)
class Plan:
    """Everything decided before a run starts: checked options, the format, the
    positions, each role's backend and the panel's judge profiles."""

    topic: str
    options: RunOptions
    format: Format
    positions: list[Position]
    backends: dict[str, Backend]
    judges: list[JudgeProfile]
    notes: list[str]
    """What the format advises against in these options (kept as warnings)."""
    concurrency: int
    """Most calls in flight per endpoint: the option, or enough for the format's
    widest wave (at least ``DEFAULT_CONCURRENCY``)."""


def _resolve_roles(
    refs: Mapping[str, ModelRef], seed: int | None, timeout: float | None
) -> dict[str, Backend]:
    """One backend per distinct spec, shared by the roles that name it."""
    by_spec: dict[str, Backend] = {}
    resolved: dict[str, Backend] = {}
    for role, ref in refs.items():
        if isinstance(ref, str):
            if ref not in by_spec:
                by_spec[ref] = resolve_backend(ref, seed=seed, timeout=timeout)
            resolved[role] = by_spec[ref]
        else:
            resolved[role] = ref
    return resolved


def _role_refs(
    options: RunOptions, positions: list[Position], extra: Mapping[str, str]
) -> dict[str, ModelRef]:
    """Each debater role's model (a position's key), the judge's, and the model of each
    further role of the format (``extra``: role -> the role whose model it takes).
    ``pro_model`` and ``con_model`` are the first and second position's models (pro
    and con; for a format with two positions of its own, e.g. the market format's
    bull and bear, those)."""
    default: ModelRef = options.model if options.model is not None else DEFAULT_SPEC
    named = dict(
        zip([p.key for p in positions[:2]], (options.pro_model, options.con_model), strict=False)
    )
    refs: dict[str, ModelRef] = {p.key: named.get(p.key) or default for p in positions}
    refs["judge"] = options.judge_model or default
    for role, source in extra.items():
        refs[role] = refs[source]
    return refs


def plan_run(topic: str, options: RunOptions, models: Mapping[str, str] | None = None) -> Plan:
    """Check everything and resolve every role's backend, before anything is stored or
    sent. ``models`` (a stored run's role -> spec) replaces the options' models."""
    check_text(topic, "the topic")
    topic = topic.strip()
    if not topic:
        raise ConfigError("the topic is empty")
    check_text(list(options.sides), "--sides")
    check_text(dict(options.format_options), "--format-option")
    options.validate()
    fmt = get_format(options.format)
    options = options.replace(format_options=fmt.stored_options(options.format_options))
    positions = fmt.named_for(fmt.positions(options.sides, options.lang), topic, options.lang)
    if options.sources and fmt.source_tokens is None:
        able = [f.name for f in formats() if f.source_tokens is not None]
        raise ConfigError(
            f"the {fmt.name} format does not argue from documents (--sources) yet;"
            f" formats that do: {', '.join(able)}"
        )
    notes = fmt.check_options(dict(options.format_options), len(positions))
    judges = select_profiles(list(options.panel), options.panel_profiles) if options.panel else []
    refs: dict[str, ModelRef]
    if models is not None:
        refs = dict(models)
    else:
        refs = _role_refs(options, positions, fmt.roles(positions, options.format_options))
        for name, spec in assign_models(judges, list(options.judge_models), None).items():
            # a judge nobody named gets the judge model (a spec or a Backend)
            refs[f"judge:{name}"] = spec if spec is not None else refs["judge"]
        if judges:
            lead = next((p.name for p in judges if p.name == "general"), judges[0].name)
            refs["judge"] = refs[f"judge:{lead}"]
    backends = _resolve_roles(refs, options.seed, options.timeout)
    concurrency = options.concurrency
    if concurrency is None:
        widest = fmt.widest_wave(
            positions,
            options.format_options,
            judge_calls=len(judges) * options.judge_runs if judges else 1,
            classifier=bool(judges) and options.topic_type is None,
        )
        concurrency = max(DEFAULT_CONCURRENCY, widest)
    return Plan(topic, options, fmt, positions, backends, judges, notes, concurrency)


@dataclass
class _Run:
    """One execution of a debate (a first run or a resume)."""

    plan: Plan
    on_event: Listener | None
    store: Store | None = None
    debate_id: str | None = None
    prices: PriceTable = field(default_factory=PriceTable)
    used_tokens: int = 0
    used_cost: float = 0.0
    judge_accuracy: dict[str, list[int]] = field(default_factory=dict)
    """Each panel judge's (hits, debates) when the run started, so a resume weighs the
    judges exactly as the first run did."""
    library: Library | None = None
    """The documents of ``--sources``, read and indexed before the run."""

    @property
    def options(self) -> RunOptions:
        return self.plan.options

    def _stack(self, meter: Meter, budget: Budget, journal: Journal | None) -> dict[str, Backend]:
        wrapped: dict[int, Backend] = {}
        roles: dict[str, Backend] = {}
        slots: dict[str, asyncio.Semaphore] = {}
        for role, backend in self.plan.backends.items():
            if id(backend) not in wrapped:
                # one concurrency cap per endpoint (server), whatever the model names
                endpoint = str(getattr(backend, "endpoint", backend.spec))
                slot = slots.setdefault(endpoint, asyncio.Semaphore(self.plan.concurrency))
                layer: Backend = LimitedBackend(CheckedBackend(backend), slot)
                if budget.limited:
                    layer = BudgetedBackend(layer, budget)
                if self.store is not None and journal is not None:
                    layer = CachedBackend(layer, self.store, self.options.cache)
                    layer = JournaledBackend(layer, journal)
                wrapped[id(backend)] = MeteredBackend(layer, meter)
            roles[role] = wrapped[id(backend)]
        return roles

    def _panel_plan(self, roles: Mapping[str, Backend]) -> PanelPlan | None:
        if not self.plan.judges:
            return None
        seats = []
        for profile in self.plan.judges:
            hits, debates = self.judge_accuracy.get(profile.name, (0, 0))
            accuracy = hits / debates if debates else 1.0
            seats.append(
                Seat(
                    profile,
                    roles[f"judge:{profile.name}"],
                    accuracy=accuracy,
                    accuracy_debates=debates,
                )
            )
        return PanelPlan(
            seats=seats,
            runs=self.options.judge_runs,
            deliberate=self.options.panel_deliberate,
            method=self.options.calibration,
            topic_type=self.options.topic_type,
        )

    def _language_warnings(self, meter: Meter, lang: str) -> list[QualityWarning]:
        """A Chinese run on the embedded model says that model is an English one: on
        stderr (as advice) and in the result (a setup warning, code ``english_model``,
        which the trust verdict reads)."""
        if lang != "zh" or not any(b.spec == DEFAULT_SPEC for b in self.plan.backends.values()):
            return []
        message = labels(lang)["english_model"]
        meter.emit(OptionAdvice(message))
        return [QualityWarning(round="setup", side=None, code="english_model", message=message)]

    async def execute(self) -> DebateResult:
        plan, options = self.plan, self.options
        budget = Budget(
            max_tokens=options.max_tokens,
            max_cost=options.max_cost,
            prices=self.prices,
            used_tokens=self.used_tokens,
            used_cost=self.used_cost,
        )
        budget.require_prices([b.spec for b in plan.backends.values()])
        meter = Meter(self.on_event)
        for note in plan.notes:
            meter.emit(OptionAdvice(note))
        journal: Journal | None = None
        if self.store is not None and self.debate_id is not None:
            journal = Journal(self.store, self.debate_id, cost_of=budget.cost_of)
            meter.on_validation(journal.record_validation)
            meter.on_exhausted(journal.record_exhausted)
            meter.on_validation(drop_invalid(self.store))
        roles = self._stack(meter, budget, journal)
        small, notes = await discover_small_models(plan.backends, options.profile, options.lang)
        for note in notes:
            meter.emit(OptionAdvice(note))
        profiles = {
            role: profile_for(backend.spec, options.profile, small=role in small)
            for role, backend in plan.backends.items()
        }
        settings = DebateSettings(
            lang=cast(Lang, options.lang),
            seed=options.seed,
            temperature=options.temperature,
            max_reasks=options.max_reasks,
            strict_rules=options.strict_rules,
            profiles=profiles,
        )
        debate = Debate(
            format=plan.format,
            topic=plan.topic,
            positions=plan.positions,
            settings=settings,
            backends=roles,
            meter=meter,
            options=dict(options.format_options),
            panel=self._panel_plan(roles),
            warnings=[
                *(
                    QualityWarning(round="setup", side=None, code="format_option", message=note)
                    for note in plan.notes
                ),
                *self._language_warnings(meter, options.lang),
                *(
                    QualityWarning(round="setup", side=None, code="profile_auto", message=note)
                    for note in notes
                ),
            ],
            store=self.store,
            run_id=self.debate_id,
            cache_policy=options.cache,
            sources=self.library,
        )
        started = time.perf_counter()
        try:
            record = await plan.format.run(debate)
            swap = await self._swap(record, debate) if options.swap_sides else None
        except BaseException as exc:
            self._save_failure(exc, debate, meter, started)
            raise
        result = DebateResult(
            format=plan.format.name,
            topic=plan.topic,
            lang=settings.lang,
            seed=options.seed,
            models={role: b.spec for role, b in plan.backends.items()},
            positions=plan.positions,
            judgement=record.judgement,
            panel=record.panel,
            warnings=record.warnings,
            usage=self._usage(meter, started),
            profiles={role: ProfileReport(**dataclasses.asdict(p)) for role, p in profiles.items()},
            swap=swap,
            sources=None
            if self.library is None
            else sources_section(self.library, debate.citations, settings.lang),
            payload={plan.format.name: record.payload.model_dump(mode="json")},
        )
        detectors, review, turns = await detect_and_review(
            plan.format,
            result,
            roles["judge"] if options.review_flags else None,
            meter=meter,
            seed=options.seed,
            max_reasks=options.max_reasks,
        )
        result = result.model_copy(
            update={
                "detectors": detectors,
                "detector_review": review,
                "usage": self._usage(meter, started),
            }
        )
        result = with_trust(result, turns)  # the detectors' transcript, read once
        if self.store is not None and self.debate_id is not None:
            self.store.set_status(self.debate_id, "done", result_json=result.model_dump_json())
        return result

    async def _swap(self, record: Record, first: Debate) -> SwapCheck:
        """Rerun with the positions exchanged (``mirrored``: pro and con, or the first
        and the last of several): each model, with its sampling seeds and profile, now
        argues the mirrored position, and the judges read the positions in reverse
        order. The verdict survives when the same position leads."""
        keys = first.position_keys()
        mirror = mirrored(keys)
        panel = first.panel
        if panel is not None and record.panel is not None:
            # the same topic type (and so the same judge weights) as the first run
            panel = dataclasses.replace(
                panel,
                topic_type=record.panel.topic_type,
                topic_type_source=record.panel.topic_type_source,
            )
        settings = first.settings
        derived = first.format.roles(first.positions, first.options)
        # whose model each position plays now; the format's further roles argue with
        # their position's model: they move with it
        plays = {
            **mirror,
            **{role: mirror[key] for role, key in derived.items() if key in mirror},
        }
        swapped = Debate(
            format=first.format,
            topic=first.topic,
            positions=first.positions,
            settings=dataclasses.replace(
                settings,
                swap=swap_roles(keys, derived),
                profiles={
                    **settings.profiles,
                    **{role: settings.profile(key) for role, key in plays.items()},
                },
            ),
            backends={
                **first.backends,
                **{role: first.backends[key] for role, key in plays.items()},
            },
            meter=first.meter,
            options=first.options,
            panel=panel,
            store=first.store,
            run_id=first.run_id,
            cache_policy=first.cache_policy,
            recalls=first.recalls,
            sources=first.sources,
        )
        other = await first.format.run(swapped)
        one = verdict_leader(record.judgement, record.panel)
        two = verdict_leader(other.judgement, other.panel)
        totals = other.panel.totals if other.panel else other.judgement.totals
        specs = self.plan.backends
        return SwapCheck(
            original_leader=one,
            swapped_leader=two,
            survives=one == two,
            swapped_totals=totals,
            swapped_diverged=other.panel.divergence.diverged if other.panel else None,
            same_model=all(specs[key].spec == specs[other].spec for key, other in mirror.items()),
            models={key: specs[other].spec for key, other in mirror.items()},
        )

    @staticmethod
    def _usage(meter: Meter, started: float) -> UsageReport:
        return UsageReport(
            calls=meter.calls,
            reasks=meter.reasks,
            prompt_tokens=meter.usage.prompt_tokens,
            completion_tokens=meter.usage.completion_tokens,
            wall_seconds=round(time.perf_counter() - started, 3),
            structured_fallbacks=meter.structured_fallbacks(),
        )

    def _save_failure(
        self, exc: BaseException, debate: Debate, meter: Meter, started: float
    ) -> None:
        if self.store is None or self.debate_id is None:
            return
        if isinstance(exc, BudgetExceeded):
            status = "budget_exceeded"
        elif isinstance(exc, KeyboardInterrupt | asyncio.CancelledError):
            status = "interrupted"
        else:
            status = "failed"
        partial = {
            "schema_version": SCHEMA_VERSION,
            "partial": True,
            "format": self.plan.format.name,
            "topic": self.plan.topic,
            "lang": self.options.lang,
            "models": {role: b.spec for role, b in self.plan.backends.items()},
            **debate.progress,
            "usage": self._usage(meter, started).model_dump(),
        }
        partial.pop("topic_type", None)
        self.store.set_status(
            self.debate_id,
            status,
            result_json=json.dumps(partial, ensure_ascii=False),
            error=_failure_text(exc, status, debate.round),
        )


def detect(fmt: Format, result: DebateResult) -> list[DetectorFlag]:
    """Every detector's flags on a finished debate, each tied to its judged unit."""
    return _detect(fmt, result)[0]


def _detect(fmt: Format, result: DebateResult) -> tuple[list[DetectorFlag], Turns]:
    """``detect``, with the transcript and units it read."""
    transcript, units, flags = _candidates(fmt, result)
    return [_unit_flag(f, units) for f in flags], (transcript, units)


def _candidates(
    fmt: Format, result: DebateResult
) -> tuple[Transcript, list[str | None], list[Flag]]:
    """The debate as a transcript, each turn's judged unit, and the detectors' flags."""
    transcript, units = fmt.transcript(result)
    return transcript, list(units), run_detectors(transcript) + fmt.extra_flags(result, transcript)


async def detect_and_review(
    fmt: Format,
    result: DebateResult,
    reviewer: Backend | None,
    *,
    meter: Meter,
    seed: int | None,
    max_reasks: int,
) -> tuple[list[DetectorFlag], DetectorReview | None, Turns]:
    """``detect``, then, with a ``reviewer`` (the model-assisted mode,
    ``--review-flags``), that model's review of the flags (``moot.judging.flag_review``):
    the flags it kept, the record of the review, and the transcript and units read
    (the trust verdict reads them again)."""
    if reviewer is None:
        flags_found, turns = _detect(fmt, result)
        return flags_found, None, turns
    transcript, units, flags = _candidates(fmt, result)
    review = await review_flags(
        transcript,
        flags,
        backend=reviewer,
        meter=meter,
        settings=GenerationSettings(temperature=0.0, seed=seed),
        max_reasks=max_reasks,
    )
    record = DetectorReview(
        model=review.model,
        calls=review.calls,
        reviewed=review.reviewed,
        unreviewed=review.unreviewed,
        found=review.found,
        rejected=[_unit_flag(f, units) for f in review.rejected],
    )
    return [_unit_flag(f, units) for f in review.flags], record, (transcript, units)


def _unit_flag(flag: Flag, units: Sequence[str | None]) -> DetectorFlag:
    """A detector's flag as the result records it, tied to its judged unit."""
    turn = flag.turn
    return DetectorFlag(
        detector=flag.detector,
        turn=turn,
        unit=units[turn] if turn is not None and turn < len(units) else None,
        side=flag.side,
        evidence=flag.evidence,
        mode=flag.mode,
        review=flag.review,
        review_reason=flag.review_reason,
    )


def _failure_text(exc: BaseException, status: str, round_name: str) -> str:
    """What a stopped run's ``error`` says: the exception, or for an interrupt what
    happened and in which round (a bare ``CancelledError`` tells a reader nothing)."""
    if status == "interrupted":
        return (
            f"interrupted during the {round_name} round (Ctrl-C, SIGTERM or a cancelled"
            " task) before the run finished; completed calls are kept"
        )
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _stored_config(
    plan: Plan, judge_accuracy: Mapping[str, list[int]], library: Library | None
) -> dict[str, Any]:
    return {
        "options": plan.options.as_json(),
        "models": {role: b.spec for role, b in plan.backends.items()},
        "judge_accuracy": dict(judge_accuracy),
        "sources": library.hashes() if library is not None else [],
    }


def _library(
    paths: tuple[str, ...], store: Store | None, on_event: Listener | None
) -> Library | None:
    """The documents of ``--sources``, read, checked and indexed (in the run store when
    there is one, else in memory) before any model call; None without them."""
    if not paths:
        return None
    index = store if store is not None else Store(":memory:")

    def progress(done: int, total: int, indexed: int) -> None:
        deliver(on_event, SourcesIndexed(done, total, indexed))

    return open_library(paths, index, progress)


async def arun_debate(
    topic: str,
    options: RunOptions | None = None,
    *,
    on_event: Listener | None = None,
    store: Store | None = None,
    debate_id: str | None = None,
    prices: PriceTable | None = None,
    **changes: Any,
) -> DebateResult:
    """Run a debate on ``topic`` and return its validated result.

    ``options`` (a :class:`RunOptions`) says how; keyword ``changes`` set single
    options on top of it (``model="scripted:demo"``, ``format="freeform"``,
    ``sides=["Hainan", "Yunnan", "the North-East"]``, ``seed=7``...; see
    ``RunOptions``). With ``store`` the run is journaled under ``debate_id``
    (generated when not given) and can be resumed; it is announced to ``on_event`` as
    ``RunStored`` once it is written.

    Every option is checked before anything is stored or sent: ``ConfigError``.
    ``BackendError`` when a model cannot be reached, ``ModelOutputError`` when a reply
    never validates, ``BudgetExceeded`` before a call that could exceed
    ``max_tokens`` or ``max_cost``.
    """
    options = (options or RunOptions()).replace(**changes)
    plan = plan_run(topic, options)
    if store is not None:
        debate_id = check_name(
            debate_id or new_debate_id(),
            RUN_ID,
            "run id",
            "use letters, digits, '.', '_' or '-', starting with a letter or digit (max 64)",
        )
        plan.options.as_json()  # refuses Backend objects before anything is stored
    # checked before anything is stored, so a refused run is never left "running"
    Budget(max_cost=options.max_cost, prices=prices).require_prices(
        [b.spec for b in plan.backends.values()]
    )
    run = _Run(plan, on_event, prices=prices or PriceTable())
    run.library = _library(plan.options.sources, store, on_event)
    if store is not None and debate_id is not None:
        run.judge_accuracy = {
            p.name: list(
                store.judge_accuracy(judge_identity(p.name, plan.backends[f"judge:{p.name}"].spec))
            )
            for p in plan.judges
        }
        store.create_debate(
            debate_id,
            topic=plan.topic,
            format=plan.format.name,
            config=_stored_config(plan, run.judge_accuracy, run.library),
            models={role: b.spec for role, b in plan.backends.items()},
        )
        run.store, run.debate_id = store, debate_id
        if not deliver(on_event, RunStored(debate_id)):
            on_event = run.on_event = None
    return await run.execute()


async def aresume_debate(
    debate_id: str,
    *,
    store: Store,
    max_tokens: int | None = None,
    max_cost: float | None = None,
    timeout: float | None = None,
    on_event: Listener | None = None,
    prices: PriceTable | None = None,
    force: bool = False,
    format_options: Mapping[str, Any] | None = None,
) -> DebateResult:
    """Continue a stored run that did not finish. Calls completed before are taken
    from the journal, not sent again (a reply that never validated is asked again);
    a new budget and timeout may be given, and new output locations of the format
    (``format_options={"audio_dir": ...}``: only the options its fields declare as
    outputs, which change no call; ``ConfigError`` for another)."""
    row = store.get_debate(debate_id)
    if row is None:
        raise ConfigError(f"no run with id {debate_id!r}")
    if row.status not in RESUMABLE:
        raise ConfigError(f"run {debate_id!r} is {row.status}; only unfinished runs resume")
    stored = row.config
    if not isinstance(stored.get("options"), dict) or not isinstance(stored.get("models"), dict):
        raise ConfigError(
            f"run {debate_id!r} was stored by another version of moot and cannot be resumed"
        )
    overrides: dict[str, Any] = {
        k: v
        for k, v in (("max_tokens", max_tokens), ("max_cost", max_cost), ("timeout", timeout))
        if v is not None
    }
    options = RunOptions.from_json(stored["options"])
    if format_options:
        overrides["format_options"] = _new_outputs(options, format_options)
    options = options.replace(**overrides)
    plan = plan_run(row.topic, options, models=stored["models"])
    Budget(max_cost=options.max_cost, prices=prices).require_prices(
        [b.spec for b in plan.backends.values()]
    )
    kept = list(stored.get("sources") or [])
    changes = changed_documents(kept)
    if changes:
        raise ConfigError(
            f"run {debate_id!r} argued from documents that changed; it cannot be resumed"
            " on other evidence (start a new run): " + "; ".join(changes)
        )
    store.claim(debate_id, force=force)  # before changing anything of a run we may not own
    library = _library(tuple(e["path"] for e in kept), store, on_event)
    accuracy = {k: list(v) for k, v in dict(stored.get("judge_accuracy") or {}).items()}
    if overrides:
        store.update_config(debate_id, _stored_config(plan, accuracy, library))
    run = _Run(
        plan,
        on_event,
        store=store,
        debate_id=debate_id,
        prices=prices or PriceTable(),
        used_tokens=row.prompt_tokens + row.completion_tokens,
        used_cost=row.cost_usd,
        judge_accuracy=accuracy,
        library=library,
    )
    return await run.execute()


def _new_outputs(options: RunOptions, given: Mapping[str, Any]) -> dict[str, Any]:
    """The stored format options with the output locations ``given`` in place."""
    outputs = {f.key: f for f in output_fields(get_format(options.format).fields)}
    for key in given:
        if key not in outputs:
            allowed = ", ".join(f"{f.flag or f.key}" for f in outputs.values()) or "none"
            raise ConfigError(
                f"a resumed run keeps its {options.format} options; only output locations"
                f" may change ({allowed}), not {key}"
            )
    return {**options.format_options, **given}


def run_debate(
    topic: str,
    options: RunOptions | None = None,
    *,
    on_event: Listener | None = None,
    store: Store | None = None,
    debate_id: str | None = None,
    prices: PriceTable | None = None,
    **changes: Any,
) -> DebateResult:
    """Synchronous form of :func:`arun_debate`, with the same arguments."""
    return asyncio.run(
        arun_debate(
            topic,
            options,
            on_event=on_event,
            store=store,
            debate_id=debate_id,
            prices=prices,
            **changes,
        )
    )


def resume_debate(
    debate_id: str,
    *,
    store: Store,
    max_tokens: int | None = None,
    max_cost: float | None = None,
    timeout: float | None = None,
    on_event: Listener | None = None,
    prices: PriceTable | None = None,
    force: bool = False,
    format_options: Mapping[str, Any] | None = None,
) -> DebateResult:
    """Synchronous form of :func:`aresume_debate`."""
    return asyncio.run(
        aresume_debate(
            debate_id,
            store=store,
            max_tokens=max_tokens,
            max_cost=max_cost,
            timeout=timeout,
            on_event=on_event,
            prices=prices,
            force=force,
            format_options=format_options,
        )
    )
