"""A cap on calls in flight to one endpoint (``--concurrency N``)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from moot.llm.backend import Backend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.llm.wrapper import Wrapper


class LimitedBackend(Wrapper):
    """Calls of ``inner`` take a slot of ``slots`` while in flight. Backends that talk
    to the same endpoint share one semaphore (created in the event loop that uses it)."""

    def __init__(self, inner: Backend, slots: asyncio.Semaphore) -> None:
        super().__init__(inner)
        self._semaphore = slots

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
