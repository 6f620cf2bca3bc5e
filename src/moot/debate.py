"""The public entry points: ``run_debate`` / ``arun_debate`` and ``resume_debate``.

Model specs are resolved once per distinct spec, so roles that share a model share
one backend (one loaded GGUF for the embedded model). Callers may also pass
``Backend`` instances directly, for example a ``ScriptedBackend`` in tests.

Every call of a role goes through the same stack of wrappers, outermost first::

    Metered -> Journaled (stored runs) -> Cached (stored runs) -> Budgeted -> Limited -> backend

so the meter counts every call, the journal records (and on resume replays) every
call, cache hits cost nothing, and only calls that really reach the model count
against the budget and hold a concurrency slot.

A stored run (``store=`` given) is written to SQLite as it goes: its configuration
first, each model call before the orchestration moves on, its final status and
result at the end. ``resume_debate`` continues it from the journal.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, TypedDict, Unpack, cast

from moot.errors import BudgetExceeded, ConfigError
from moot.events import Listener
from moot.formats.structured import DebateRecord, DebateSettings, PanelPlan, StructuredDebate
from moot.judging.panel import Seat, judge_identity
from moot.judging.profiles import TOPIC_TYPES, JudgeProfile, assign_models, select_profiles
from moot.judging.rubric import Rubric
from moot.llm.backend import DEFAULT_SPEC, Backend, resolve_backend
from moot.llm.budget import Budget, BudgetedBackend, PriceTable
from moot.llm.cache import CachedBackend, CachePolicy
from moot.llm.journal import Journal, JournaledBackend
from moot.llm.limit import LimitedBackend
from moot.llm.meter import Meter, MeteredBackend
from moot.schema import (
    SCHEMA_VERSION,
    CalibrationMethod,
    DebateResult,
    Lang,
    Side,
    SwapCheck,
    TopicType,
    UsageReport,
)
from moot.store import Store

ModelRef = str | Backend
DEBATE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
RESUMABLE = ("running", "interrupted", "failed", "budget_exceeded")


@dataclass(frozen=True)
class RunConfig:
    """Everything needed to run (or resume) a debate; stored with a run."""

    topic: str
    models: dict[str, str] = field(default_factory=dict)
    lang: str = "en"
    seed: int | None = None
    temperature: float = 0.3
    max_reasks: int = 2
    strict_rules: bool = False
    max_tokens: int | None = None
    max_cost: float | None = None
    cache: CachePolicy = "auto"
    concurrency: int = 4
    panel: list[str] = field(default_factory=list)
    panel_profiles: dict[str, Any] = field(default_factory=dict)
    judge_models: dict[str, str] = field(default_factory=dict)
    judge_runs: int = 1
    calibration: CalibrationMethod = "zscore"
    topic_type: TopicType | None = None
    swap_sides: bool = False
    judge_accuracy: dict[str, list[int]] = field(default_factory=dict)
    """Each panel judge's (hits, debates) when the run started, so a resume weighs the
    judges exactly as the first run did."""

    def validate(self) -> None:
        if not self.topic.strip():
            raise ConfigError("the topic is empty")
        if self.lang not in ("en", "zh"):
            raise ConfigError(f"unsupported language {self.lang!r}; use en or zh")
        if self.max_reasks < 0:
            raise ConfigError("max_reasks must be 0 or more")
        if not 0.0 <= self.temperature <= 2.0:
            raise ConfigError("temperature must be between 0 and 2")
        if self.concurrency < 1:
            raise ConfigError("concurrency must be at least 1")
        if self.cache not in ("auto", "on", "off"):
            raise ConfigError("cache must be auto, on or off")
        if self.judge_runs < 1:
            raise ConfigError("judge_runs must be at least 1")
        if self.calibration not in ("zscore", "minmax"):
            raise ConfigError("calibration must be zscore or minmax")
        if self.topic_type is not None and self.topic_type not in TOPIC_TYPES:
            raise ConfigError(f"topic type must be one of {', '.join(TOPIC_TYPES)}")

    def profiles(self) -> list[JudgeProfile]:
        """The panel's judge profiles (custom ones are stored with the run)."""
        custom = {
            name: JudgeProfile(
                name,
                Rubric(name, p["weights"]),
                p.get("relevance", {}),
                p.get("model"),
            )
            for name, p in self.panel_profiles.items()
        }
        return select_profiles(self.panel, custom)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunConfig:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


def verdict_leader(record: DebateRecord) -> Side | None:
    """The side the verdict favours: the panel's winner, or the single judge's leader
    unless the totals are evenly matched."""
    if record.panel is not None:
        return record.panel.winner
    gap = record.judgement.gap
    return None if gap.reading == "evenly_matched" else gap.leader


def new_debate_id() -> str:
    """A fresh run id: UTC time plus random hex, sortable and unique."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def _resolve_roles(refs: Mapping[str, ModelRef], seed: int | None) -> dict[str, Backend]:
    """One backend per distinct spec, shared by the roles that name it."""
    by_spec: dict[str, Backend] = {}
    resolved: dict[str, Backend] = {}
    for role, ref in refs.items():
        if isinstance(ref, str):
            if ref not in by_spec:
                by_spec[ref] = resolve_backend(ref, seed=seed)
            resolved[role] = by_spec[ref]
        else:
            resolved[role] = ref
    return resolved


def _role_refs(
    model: ModelRef | None,
    pro_model: ModelRef | None,
    con_model: ModelRef | None,
    judge_model: ModelRef | None,
) -> dict[str, ModelRef]:
    default = model if model is not None else DEFAULT_SPEC
    return {
        "pro": pro_model or default,
        "con": con_model or default,
        "judge": judge_model or default,
    }


@dataclass
class _Run:
    """One execution of a debate (a first run or a resume)."""

    config: RunConfig
    backends: dict[str, Backend]
    on_event: Listener | None
    store: Store | None = None
    debate_id: str | None = None
    prices: PriceTable = field(default_factory=PriceTable)
    used_tokens: int = 0
    used_cost: float = 0.0

    def _stack(self, meter: Meter, budget: Budget, journal: Journal | None) -> dict[str, Backend]:
        wrapped: dict[int, Backend] = {}
        roles: dict[str, Backend] = {}
        slots: dict[str, asyncio.Semaphore] = {}
        for role, backend in self.backends.items():
            if id(backend) not in wrapped:
                # one concurrency cap per endpoint (server), whatever the model names
                endpoint = str(getattr(backend, "endpoint", backend.spec))
                slot = slots.setdefault(endpoint, asyncio.Semaphore(self.config.concurrency))
                layer: Backend = LimitedBackend(backend, slot)
                if budget.limited:
                    layer = BudgetedBackend(layer, budget)
                if self.store is not None and journal is not None:
                    layer = CachedBackend(layer, self.store, self.config.cache)
                    layer = JournaledBackend(layer, journal)
                wrapped[id(backend)] = MeteredBackend(layer, meter)
            roles[role] = wrapped[id(backend)]
        return roles

    async def execute(self) -> DebateResult:
        config = self.config
        budget = Budget(
            max_tokens=config.max_tokens,
            max_cost=config.max_cost,
            prices=self.prices,
            used_tokens=self.used_tokens,
            used_cost=self.used_cost,
        )
        budget.require_prices([b.spec for b in self.backends.values()])
        meter = Meter(self.on_event)
        journal: Journal | None = None
        if self.store is not None and self.debate_id is not None:
            journal = Journal(self.store, self.debate_id, cost_of=budget.cost_of)
            meter.on_validation(journal.record_validation)
        roles = self._stack(meter, budget, journal)
        settings = DebateSettings(
            lang=cast(Lang, config.lang),
            seed=config.seed,
            temperature=config.temperature,
            max_reasks=config.max_reasks,
            strict_rules=config.strict_rules,
        )
        panel = self._panel_plan(roles)
        debate = StructuredDebate(
            config.topic,
            debaters={"pro": roles["pro"], "con": roles["con"]},
            judge=roles["judge"],
            settings=settings,
            meter=meter,
            panel=panel,
        )
        started = time.perf_counter()
        try:
            record = await debate.run()
            swap = (
                await self._swap(record, roles, settings, meter, panel)
                if config.swap_sides
                else None
            )
        except BaseException as exc:
            self._save_failure(exc, debate, meter, started)
            raise
        result = DebateResult(
            topic=config.topic,
            lang=settings.lang,
            seed=config.seed,
            models={role: b.spec for role, b in self.backends.items()},
            arguments=record.arguments,
            cross_examinations=record.cross_examinations,
            closings=record.closings,
            judgement=record.judgement,
            warnings=record.warnings,
            usage=self._usage(meter, started),
            panel=record.panel,
            swap=swap,
        )
        if self.store is not None and self.debate_id is not None:
            self.store.set_status(self.debate_id, "done", result_json=result.model_dump_json())
        return result

    def _panel_plan(self, roles: Mapping[str, Backend]) -> PanelPlan | None:
        config = self.config
        if not config.panel:
            return None
        seats = []
        for profile in config.profiles():
            backend = roles[f"judge:{profile.name}"]
            hits, debates = config.judge_accuracy.get(profile.name, (0, 0))
            accuracy = hits / debates if debates else 1.0
            seats.append(Seat(profile, backend, accuracy=accuracy, accuracy_debates=debates))
        return PanelPlan(
            seats=seats,
            runs=config.judge_runs,
            method=config.calibration,
            topic_type=config.topic_type,
        )

    async def _swap(
        self,
        record: DebateRecord,
        roles: Mapping[str, Backend],
        settings: DebateSettings,
        meter: Meter,
        panel: PanelPlan | None,
    ) -> SwapCheck:
        """Rerun with the stances exchanged: the pro side's model (and its sampling
        seeds) now argues con and vice versa. The verdict survives when the same
        stance leads."""
        if panel is not None and record.panel is not None:
            # the same topic type (and so the same judge weights) as the first run
            panel = replace(
                panel,
                topic_type=record.panel.topic_type,
                topic_type_source=record.panel.topic_type_source,
            )
        swapped = StructuredDebate(
            self.config.topic,
            debaters={"pro": roles["con"], "con": roles["pro"]},
            judge=roles["judge"],
            settings=replace(settings, swap_seeds=True),
            meter=meter,
            panel=panel,
        )
        other = await swapped.run()
        first, second = verdict_leader(record), verdict_leader(other)
        totals = other.panel.totals if other.panel else other.judgement.totals
        return SwapCheck(
            original_leader=first,
            swapped_leader=second,
            survives=first == second,
            swapped_totals=totals,
            swapped_diverged=other.panel.divergence.diverged if other.panel else None,
            same_model=roles["pro"].spec == roles["con"].spec,
            models={"pro": roles["con"].spec, "con": roles["pro"].spec},
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
        self, exc: BaseException, debate: StructuredDebate, meter: Meter, started: float
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
            "topic": self.config.topic,
            "lang": self.config.lang,
            "models": {role: b.spec for role, b in self.backends.items()},
            **debate.progress(),
            "usage": self._usage(meter, started).model_dump(),
        }
        message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        self.store.set_status(
            self.debate_id,
            status,
            result_json=json.dumps(partial, ensure_ascii=False),
            error=message,
        )


async def arun_debate(
    topic: str,
    *,
    model: ModelRef | None = None,
    pro_model: ModelRef | None = None,
    con_model: ModelRef | None = None,
    judge_model: ModelRef | None = None,
    lang: str = "en",
    seed: int | None = None,
    temperature: float = 0.3,
    max_reasks: int = 2,
    strict_rules: bool = False,
    on_event: Listener | None = None,
    store: Store | None = None,
    debate_id: str | None = None,
    max_tokens: int | None = None,
    max_cost: float | None = None,
    cache: CachePolicy = "auto",
    concurrency: int = 4,
    prices: PriceTable | None = None,
    panel: Sequence[str] = (),
    panel_profiles: Mapping[str, JudgeProfile] | None = None,
    judge_models: Sequence[str] = (),
    judge_runs: int = 1,
    calibration: CalibrationMethod = "zscore",
    topic_type: TopicType | None = None,
    swap_sides: bool = False,
) -> DebateResult:
    """Run a structured debate on ``topic`` and return its validated result.

    ``model`` sets every role (default: the embedded ``local`` model); ``pro_model``,
    ``con_model`` and ``judge_model`` override single roles. Each is a model spec
    string or a ``Backend``. With ``store`` the run is journaled under ``debate_id``
    (generated when not given) and can be resumed. Raises ``ConfigError`` for bad
    options, ``BackendError`` when a model cannot be reached, ``ModelOutputError``
    when a reply never validates and ``BudgetExceeded`` before a call that could
    exceed ``max_tokens`` or ``max_cost``.

    ``panel`` names judge profiles (``technical``, ``business``, ``risk``,
    ``general`` or custom ones from ``panel_profiles``) to judge as a panel;
    ``judge_models`` assigns their models (``NAME=SPEC`` or plain specs),
    ``judge_runs`` runs each judge several times, ``calibration`` is ``zscore`` or
    ``minmax`` and ``topic_type`` overrides the topic classification.
    ``swap_sides`` reruns the debate with the stances exchanged between the models.
    """
    profiles = select_profiles(list(panel), panel_profiles) if panel else []
    assigned = assign_models(profiles, judge_models, None)
    refs = _role_refs(model, pro_model, con_model, judge_model)
    for name, spec in assigned.items():
        # a judge nobody named gets the judge model (a spec or a Backend)
        refs[f"judge:{name}"] = spec if spec is not None else refs["judge"]
    if profiles:
        lead = next((p.name for p in profiles if p.name == "general"), profiles[0].name)
        refs["judge"] = refs[f"judge:{lead}"]
    backends = _resolve_roles(refs, seed)
    custom = {
        p.name: {
            "weights": dict(p.rubric.weights),
            "relevance": dict(p.relevance),
            "model": p.model,
        }
        for p in profiles
    }
    config = RunConfig(
        topic=topic.strip(),
        models={role: b.spec for role, b in backends.items()},
        lang=lang,
        seed=seed,
        temperature=temperature,
        max_reasks=max_reasks,
        strict_rules=strict_rules,
        max_tokens=max_tokens,
        max_cost=max_cost,
        cache=cache,
        concurrency=concurrency,
        panel=[p.name for p in profiles],
        panel_profiles=custom,
        judge_models={name: backends[f"judge:{name}"].spec for name in assigned},
        judge_runs=judge_runs,
        calibration=calibration,
        topic_type=topic_type,
        swap_sides=swap_sides,
    )
    config.validate()
    if judge_runs > 1 and not profiles:
        raise ConfigError("--judge-runs needs a --panel (a panel of one judge is fine)")
    # checked before anything is stored, so a refused run is never left "running"
    Budget(max_cost=max_cost, prices=prices).require_prices([b.spec for b in backends.values()])
    run = _Run(config, backends, on_event, prices=prices or PriceTable())
    if store is not None:
        if not all(isinstance(r, str) for r in refs.values()):
            raise ConfigError("a stored run needs model specs, not Backend objects")
        debate_id = debate_id or new_debate_id()
        if not DEBATE_ID.match(debate_id):
            raise ConfigError(
                f"bad run id {debate_id!r}: use letters, digits, '.', '_' or '-' (max 64)"
            )
        accuracy = {
            p.name: list(
                store.judge_accuracy(judge_identity(p.name, backends[f"judge:{p.name}"].spec))
            )
            for p in profiles
        }
        config = replace(config, judge_accuracy=accuracy)
        run.config = config
        store.create_debate(
            debate_id,
            topic=config.topic,
            format="structured",
            config=config.as_json(),
            models=config.models,
        )
        run.store, run.debate_id = store, debate_id
    return await run.execute()


async def aresume_debate(
    debate_id: str,
    *,
    store: Store,
    max_tokens: int | None = None,
    max_cost: float | None = None,
    on_event: Listener | None = None,
    prices: PriceTable | None = None,
    force: bool = False,
) -> DebateResult:
    """Continue a stored run that did not finish. Calls completed before are taken
    from the journal, not sent again; a new budget may be given."""
    row = store.get_debate(debate_id)
    if row is None:
        raise ConfigError(f"no run with id {debate_id!r}")
    if row.status not in RESUMABLE:
        raise ConfigError(f"run {debate_id!r} is {row.status}; only unfinished runs resume")
    config = RunConfig.from_json(row.config)
    overrides: dict[str, Any] = {}
    if max_tokens is not None:
        overrides["max_tokens"] = max_tokens
    if max_cost is not None:
        overrides["max_cost"] = max_cost
    backends = _resolve_roles(dict(config.models), config.seed)
    if overrides:
        config = RunConfig.from_json({**config.as_json(), **overrides})
    config.validate()
    Budget(max_cost=config.max_cost, prices=prices).require_prices(
        [b.spec for b in backends.values()]
    )
    store.claim(debate_id, force=force)  # before changing anything of a run we may not own
    if overrides:
        store.update_config(debate_id, config.as_json())
    run = _Run(
        config,
        backends,
        on_event,
        store=store,
        debate_id=debate_id,
        prices=prices or PriceTable(),
        used_tokens=row.prompt_tokens + row.completion_tokens,
        used_cost=row.cost_usd,
    )
    return await run.execute()


class DebateOptions(TypedDict, total=False):
    """The keyword options of :func:`arun_debate` (see there)."""

    model: ModelRef | None
    pro_model: ModelRef | None
    con_model: ModelRef | None
    judge_model: ModelRef | None
    lang: str
    seed: int | None
    temperature: float
    max_reasks: int
    strict_rules: bool
    on_event: Listener | None
    store: Store | None
    debate_id: str | None
    max_tokens: int | None
    max_cost: float | None
    cache: CachePolicy
    concurrency: int
    prices: PriceTable | None
    panel: Sequence[str]
    panel_profiles: Mapping[str, JudgeProfile] | None
    judge_models: Sequence[str]
    judge_runs: int
    calibration: CalibrationMethod
    topic_type: TopicType | None
    swap_sides: bool


def run_debate(topic: str, **options: Unpack[DebateOptions]) -> DebateResult:
    """Synchronous form of :func:`arun_debate`, with the same options."""
    return asyncio.run(arun_debate(topic, **options))


def resume_debate(
    debate_id: str,
    *,
    store: Store,
    max_tokens: int | None = None,
    max_cost: float | None = None,
    on_event: Listener | None = None,
    prices: PriceTable | None = None,
    force: bool = False,
) -> DebateResult:
    """Synchronous form of :func:`aresume_debate`."""
    return asyncio.run(
        aresume_debate(
            debate_id,
            store=store,
            max_tokens=max_tokens,
            max_cost=max_cost,
            on_event=on_event,
            prices=prices,
            force=force,
        )
    )
