"""Counting and observing every model call: one wrapper around ``Backend.generate``.

A listener that fails (a display that cannot draw what a model wrote, say) is logged
and dropped; it never stops the debate it observes.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from typing import Any

from moot.errors import BudgetExceeded
from moot.llm.backend import Backend
from moot.llm.events import (
    CallFinished,
    CallStarted,
    Observer,
    Reasked,
    Retrying,
    Validated,
    deliver,
)
from moot.llm.retry import RetryEvent, retry_listener
from moot.llm.types import (
    CallContext,
    Completion,
    GenerationSettings,
    Message,
    ModeFallback,
    OutputSpec,
    Usage,
)
from moot.llm.wrapper import Wrapper
from moot.schema import StructuredFallback

ValidationHook = Callable[[Completion, list[str]], None]
ExhaustedHook = Callable[[Sequence[Completion]], None]


class Meter:
    """Tallies calls, re-asks and tokens across a debate and forwards events."""

    def __init__(self, listener: Observer | None = None) -> None:
        self._listener = listener
        self._ids = itertools.count(1)
        self.calls = 0
        self.reasks = 0
        self.usage = Usage()
        self._validation_hooks: list[ValidationHook] = []
        self._exhausted_hooks: list[ExhaustedHook] = []
        # (model, schema name, fallback) -> calls, in the order first seen
        self._fallbacks: dict[tuple[str, str, ModeFallback], int] = {}

    def emit(self, event: object) -> None:
        if not deliver(self._listener, event):
            self._listener = None  # it failed: it gets no more events

    @property
    def observed(self) -> bool:
        """Whether events reach a listener (none was given, or it failed): a caller may
        skip making an event no one receives."""
        return self._listener is not None

    def next_id(self) -> int:
        return next(self._ids)

    def on_validation(self, hook: ValidationHook) -> None:
        """Call ``hook(completion, problems)`` after each reply is validated (the
        journal records the outcome this way)."""
        self._validation_hooks.append(hook)

    def record_validation(
        self,
        completion: Completion,
        problems: Sequence[str],
        *,
        context: CallContext | None = None,
        codes: Sequence[str] = (),
    ) -> None:
        for hook in self._validation_hooks:
            hook(completion, list(problems))
        if context is not None and self.observed:
            self.emit(Validated(context, tuple(codes)))

    def on_exhausted(self, hook: ExhaustedHook) -> None:
        """Call ``hook(completions)`` with every attempt of a call whose re-asks ran out
        without a valid reply (the journal then never replays them: a resume asks
        again)."""
        self._exhausted_hooks.append(hook)

    def record_exhausted(self, completions: Sequence[Completion]) -> None:
        for hook in self._exhausted_hooks:
            hook(list(completions))

    def record_reask(
        self,
        context: CallContext,
        attempt: int,
        problems: Sequence[str],
        codes: Sequence[str] = (),
    ) -> None:
        self.reasks += 1
        self.emit(Reasked(context, attempt, tuple(problems), tuple(codes)))

    def record_fallback(self, model: str, schema_name: str, fallback: ModeFallback) -> None:
        """Count a call sent in a weaker structured-output mode than its server's usual."""
        key = (model, schema_name, fallback)
        self._fallbacks[key] = self._fallbacks.get(key, 0) + 1

    def structured_fallbacks(self) -> list[StructuredFallback]:
        """The fallbacks counted so far, one entry per model, schema and fallback."""
        return [
            StructuredFallback.model_validate(
                {
                    "model": model,
                    "schema_name": schema_name,
                    "mode": fallback.mode,
                    "rejected": list(fallback.rejected),
                    "reason": fallback.reason,
                    "calls": calls,
                }
            )
            for (model, schema_name, fallback), calls in self._fallbacks.items()
        ]


def _retrying(meter: Meter, call_id: int, ctx: CallContext) -> Callable[[RetryEvent], None]:
    """What tells ``meter`` of each retry of call ``call_id``."""

    def retrying(event: RetryEvent) -> None:
        meter.emit(Retrying(call_id, ctx, event.attempt, event.reason, event.delay))

    return retrying


class MeteredBackend(Wrapper):
    """A backend that reports every call to a ``Meter``; behaviour is otherwise unchanged."""

    def __init__(self, inner: Backend, meter: Meter) -> None:
        super().__init__(inner)
        self._meter = meter

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        ctx = context or CallContext(role="unknown", round="unknown")
        meter = self._meter
        call_id = meter.next_id()
        meter.calls += 1
        # a meter without a listener gets no events: none is made (it can get no
        # listener later), and retries are reported to no one, as its listener would
        observed = meter.observed
        if observed:
            meter.emit(CallStarted(call_id, ctx, self.spec))
        started = time.perf_counter()
        try:
            with retry_listener(_retrying(meter, call_id, ctx) if observed else None):
                completion = await self._inner.generate(
                    messages, schema=schema, settings=settings, context=ctx
                )
        except Exception as exc:
            refused = isinstance(exc, BudgetExceeded)
            if refused:
                meter.calls -= 1  # never sent: not a call
            self._finished(
                call_id,
                ctx,
                Usage(),
                started,
                error=str(exc) or type(exc).__name__,
                sent=not refused,
            )
            raise
        meter.usage = meter.usage + completion.usage
        if completion.fallback is not None and schema is not None:
            meter.record_fallback(self.spec, schema.name, completion.fallback)
        self._finished(
            call_id,
            ctx,
            completion.usage,
            started,
            source=completion.source,
            timings=completion.timings,
        )
        return completion

    def _finished(
        self, call_id: int, ctx: CallContext, usage: Usage, started: float, **details: Any
    ) -> None:
        """Tell the meter's listener that call ``call_id`` ended (no event without one)."""
        if self._meter.observed:
            seconds = time.perf_counter() - started
            self._meter.emit(CallFinished(call_id, ctx, self.spec, usage, seconds, **details))
