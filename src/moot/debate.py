"""The public entry point: ``run_debate`` / ``arun_debate``.

Model specs are resolved once per distinct spec, so roles that share a model share
one backend (one loaded GGUF for the embedded model). Callers may also pass
``Backend`` instances directly, for example a ``ScriptedBackend`` in tests.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import cast

from moot.errors import ConfigError
from moot.events import Listener
from moot.formats.structured import DebateSettings, StructuredDebate
from moot.llm.backend import DEFAULT_SPEC, Backend, resolve_backend
from moot.llm.meter import Meter, MeteredBackend
from moot.schema import DebateResult, Lang, Side, UsageReport

ModelRef = str | Backend
ROLES = ("pro", "con", "judge")


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
) -> DebateResult:
    """Run a structured debate on ``topic`` and return its validated result.

    ``model`` sets every role (default: the embedded ``local`` model); ``pro_model``,
    ``con_model`` and ``judge_model`` override single roles. Each is a model spec
    string or a ``Backend``. Raises ``ConfigError`` for bad options,
    ``BackendError`` when a model cannot be reached and ``ModelOutputError`` when a
    reply never validates.
    """
    topic = topic.strip()
    if not topic:
        raise ConfigError("the topic is empty")
    if lang not in ("en", "zh"):
        raise ConfigError(f"unsupported language {lang!r}; use en or zh")
    if max_reasks < 0:
        raise ConfigError("max_reasks must be 0 or more")
    if not 0.0 <= temperature <= 2.0:
        raise ConfigError("temperature must be between 0 and 2")
    backends = _resolve_roles(
        model, {"pro": pro_model, "con": con_model, "judge": judge_model}, seed
    )
    meter = Meter(on_event)
    metered = {role: MeteredBackend(b, meter) for role, b in backends.items()}
    settings = DebateSettings(
        lang=cast(Lang, lang),
        seed=seed,
        temperature=temperature,
        max_reasks=max_reasks,
        strict_rules=strict_rules,
    )
    debaters: dict[Side, Backend] = {"pro": metered["pro"], "con": metered["con"]}
    started = time.perf_counter()
    record = await StructuredDebate(
        topic, debaters=debaters, judge=metered["judge"], settings=settings, meter=meter
    ).run()
    return DebateResult(
        topic=topic,
        lang=settings.lang,
        seed=seed,
        models={role: b.spec for role, b in backends.items()},
        arguments=record.arguments,
        cross_examinations=record.cross_examinations,
        closings=record.closings,
        judgement=record.judgement,
        warnings=record.warnings,
        usage=UsageReport(
            calls=meter.calls,
            reasks=meter.reasks,
            prompt_tokens=meter.usage.prompt_tokens,
            completion_tokens=meter.usage.completion_tokens,
            wall_seconds=round(time.perf_counter() - started, 3),
        ),
    )


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
        )
    )
