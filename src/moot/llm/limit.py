"""A cap on calls in flight to one endpoint (``--concurrency N``)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from moot.errors import ConfigError
from moot.llm.backend import Backend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec


class LimitedBackend:
    """At most ``limit`` calls of ``inner`` in flight at once (created inside the
    event loop that uses it)."""

    def __init__(self, inner: Backend, limit: int) -> None:
        if limit < 1:
            raise ConfigError("--concurrency must be at least 1")
        self._inner = inner
        self._semaphore = asyncio.Semaphore(limit)

    @property
    def spec(self) -> str:
        return self._inner.spec

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        async with self._semaphore:
            return await self._inner.generate(
                messages, schema=schema, settings=settings, context=context
            )
