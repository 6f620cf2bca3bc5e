"""The call journal: every model call of a stored run is written to SQLite before the
orchestration moves on, and a resumed run replays completed calls instead of
sending them again.

Replay is keyed by the request's identity (``moot.llm.requests.request_hash``): a
resumed run rebuilds the same prompts from the same replayed replies, so each
request finds its journaled reply; identical requests are matched in the order
they were made. A call that was in flight when the process died has no reply in
the journal and is sent again, and so is every attempt of a call whose re-asks ran
out without a valid reply (marked ``exhausted``): a run that failed on a bad reply
asks the model again when it is resumed, instead of replaying the same failure.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import replace

from moot.errors import BudgetExceeded, MootError
from moot.llm.backend import Backend
from moot.llm.requests import messages_as_json, request_hash
from moot.llm.types import (
    CallContext,
    Completion,
    FinishReason,
    GenerationSettings,
    Message,
    ModeFallback,
    OutputSpec,
    Usage,
)
from moot.llm.wrapper import Wrapper
from moot.store import CallRow, Store

_FINISH: dict[str | None, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "refusal": "refusal",
}


class Journal:
    """One run's journal: what was completed before (to replay) and the recorder."""

    def __init__(
        self,
        store: Store,
        debate_id: str,
        *,
        cost_of: Callable[[str, Usage], float] | None = None,
    ) -> None:
        self.store = store
        self.debate_id = debate_id
        self.cost_of = cost_of
        self._replay: dict[str, deque[CallRow]] = defaultdict(deque)
        for row in store.completed_calls(debate_id):
            self._replay[row.request_hash].append(row)
        store.clear_in_flight(debate_id)  # left by a process that ended mid-call

    def take(self, key: str) -> CallRow | None:
        """The next journaled reply for this request, if any is left."""
        queue = self._replay.get(key)
        if queue:
            return queue.popleft()
        return None

    def record_exhausted(self, completions: Sequence[Completion]) -> None:
        """Meter hook: these attempts of one call never validated; never replay them."""
        ids = [c.journal_id for c in completions if c.journal_id is not None]
        if ids:
            self.store.mark_exhausted(ids)

    def record_validation(self, completion: Completion, problems: list[str]) -> None:
        """Meter hook: store whether the reply validated (not for replayed rows)."""
        if completion.journal_id is not None and completion.source != "journal":
            self.store.set_validation(
                completion.journal_id, "invalid" if problems else "ok", problems
            )


class JournaledBackend(Wrapper):
    """Records every call of ``inner`` in the journal; replays journaled replies."""

    def __init__(self, inner: Backend, journal: Journal) -> None:
        super().__init__(inner)
        self._journal = journal

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        ctx = context or CallContext(role="unknown", round="unknown")
        key = request_hash(self.spec, messages, schema, settings)
        row = self._journal.take(key)
        if row is not None and row.reply is not None:
            return Completion(
                text=row.reply,
                finish_reason=_FINISH.get(row.finish_reason, "other"),
                usage=Usage(row.prompt_tokens, row.completion_tokens),
                model=row.model,
                source="journal",
                journal_id=row.id,
                structured_mode=row.structured_mode,
                fallback=ModeFallback.from_json(row.structured_mode, row.structured_fallback),
            )
        started = time.perf_counter()
        flight: int | None = self._journal.store.start_call(
            self._journal.debate_id,
            role=ctx.role,
            round=ctx.round,
            side=ctx.side,
            attempt=ctx.attempt,
            model=self.spec,
        )

        def record(completion: Completion | None, error: str | None) -> int:
            journal = self._journal
            live = completion is not None and completion.source == "live"
            cost = None
            if live and completion is not None:
                cost = journal.cost_of(self.spec, completion.usage) if journal.cost_of else 0.0
            nonlocal flight
            ended, flight = flight, None
            return journal.store.record_call(
                journal.debate_id,
                role=ctx.role,
                round=ctx.round,
                side=ctx.side,
                attempt=ctx.attempt,
                model=self.spec,
                request_hash=key,
                messages=messages_as_json(messages),
                schema_name=schema.name if schema else None,
                reply=completion.text if completion else None,
                finish_reason=completion.finish_reason if completion else None,
                prompt_tokens=completion.usage.prompt_tokens if completion else 0,
                completion_tokens=completion.usage.completion_tokens if completion else 0,
                latency_ms=(time.perf_counter() - started) * 1000,
                error=error,
                source=completion.source if completion else "live",
                cost_usd=cost,  # live calls: usage added in the same transaction
                structured_mode=completion.structured_mode if completion else None,
                structured_fallback=(
                    completion.fallback.as_json() if completion and completion.fallback else None
                ),
                in_flight=ended,
            )

        try:
            try:
                completion = await self._inner.generate(
                    messages, schema=schema, settings=settings, context=context
                )
            except BudgetExceeded:
                raise  # refused before it was sent: not a call, nothing to journal
            except MootError as exc:
                record(None, f"{type(exc).__name__}: {exc}")
                raise
            return replace(completion, journal_id=record(completion, None))
        finally:
            if flight is not None:  # refused, cancelled or not journaled: no longer going
                self._journal.store.end_call(flight)
