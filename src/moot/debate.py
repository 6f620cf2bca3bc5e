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
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from moot.errors import BudgetExceeded, ConfigError
from moot.events import Listener
from moot.formats.structured import DebateSettings, StructuredDebate
from moot.llm.backend import DEFAULT_SPEC, Backend, resolve_backend
from moot.llm.budget import Budget, BudgetedBackend, PriceTable
from moot.llm.cache import CachedBackend, CachePolicy
from moot.llm.journal import Journal, JournaledBackend
from moot.llm.limit import LimitedBackend
from moot.llm.meter import Meter, MeteredBackend
from moot.schema import SCHEMA_VERSION, DebateResult, Lang, Side, UsageReport
from moot.store import Store

ModelRef = str | Backend
ROLES = ("pro", "con", "judge")
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

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunConfig:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


def new_debate_id() -> str:
    """A fresh run id: UTC time plus random hex, sortable and unique."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def _resolve_roles(
    model: ModelRef | None, overrides: Mapping[str, ModelRef | None], seed: int | None
) -> dict[str, Backend]:
    default = model if model is not None else DEFAULT_SPEC
    by_spec: dict[str, Backend] = {}
    resolved: dict[str, Backend] = {}
    for role in ROLES:
        ref = overrides.get(role) or default
        if isinstance(ref, str):
            if ref not in by_spec:
                by_spec[ref] = resolve_backend(ref, seed=seed)
            resolved[role] = by_spec[ref]
        else:
            resolved[role] = ref
    return resolved


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
        for role, backend in self.backends.items():
            if id(backend) not in wrapped:
                layer: Backend = LimitedBackend(backend, self.config.concurrency)
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
        debaters: dict[Side, Backend] = {"pro": roles["pro"], "con": roles["con"]}
        debate = StructuredDebate(
            config.topic, debaters=debaters, judge=roles["judge"], settings=settings, meter=meter
        )
        started = time.perf_counter()
        try:
            record = await debate.run()
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
        )
        if self.store is not None and self.debate_id is not None:
            self.store.set_status(self.debate_id, "done", result_json=result.model_dump_json())
        return result

    @staticmethod
    def _usage(meter: Meter, started: float) -> UsageReport:
        return UsageReport(
            calls=meter.calls,
            reasks=meter.reasks,
            prompt_tokens=meter.usage.prompt_tokens,
            completion_tokens=meter.usage.completion_tokens,
            wall_seconds=round(time.perf_counter() - started, 3),
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
) -> DebateResult:
    """Run a structured debate on ``topic`` and return its validated result.

    ``model`` sets every role (default: the embedded ``local`` model); ``pro_model``,
    ``con_model`` and ``judge_model`` override single roles. Each is a model spec
    string or a ``Backend``. With ``store`` the run is journaled under ``debate_id``
    (generated when not given) and can be resumed. Raises ``ConfigError`` for bad
    options, ``BackendError`` when a model cannot be reached, ``ModelOutputError``
    when a reply never validates and ``BudgetExceeded`` before a call that could
    exceed ``max_tokens`` or ``max_cost``.
    """
    refs = {"pro": pro_model, "con": con_model, "judge": judge_model}
    backends = _resolve_roles(model, refs, seed)
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
    )
    config.validate()
    run = _Run(config, backends, on_event, prices=prices or PriceTable())
    if store is not None:
        if not all(isinstance(r, str) or r is None for r in [model, *refs.values()]):
            raise ConfigError("a stored run needs model specs, not Backend objects")
        debate_id = debate_id or new_debate_id()
        if not DEBATE_ID.match(debate_id):
            raise ConfigError(
                f"bad run id {debate_id!r}: use letters, digits, '.', '_' or '-' (max 64)"
            )
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
    if overrides:
        config = RunConfig.from_json({**config.as_json(), **overrides})
        store.update_config(debate_id, config.as_json())
    config.validate()
    backends = _resolve_roles(None, dict(config.models), config.seed)
    store.set_status(debate_id, "running")
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


def run_debate(
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
) -> DebateResult:
    """Synchronous form of :func:`arun_debate`, with the same options."""
    return asyncio.run(
        arun_debate(
            topic,
            model=model,
            pro_model=pro_model,
            con_model=con_model,
            judge_model=judge_model,
            lang=lang,
            seed=seed,
            temperature=temperature,
            max_reasks=max_reasks,
            strict_rules=strict_rules,
            on_event=on_event,
            store=store,
            debate_id=debate_id,
            max_tokens=max_tokens,
            max_cost=max_cost,
            cache=cache,
            concurrency=concurrency,
            prices=prices,
        )
    )


def resume_debate(
    debate_id: str,
    *,
    store: Store,
    max_tokens: int | None = None,
    max_cost: float | None = None,
    on_event: Listener | None = None,
    prices: PriceTable | None = None,
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
        )
    )
