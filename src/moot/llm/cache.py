"""The response cache: replies stored as JSON in SQLite, keyed by the full request.

By default only deterministic requests (temperature 0) are cached; ``policy="on"``
caches every request and ``"off"`` none. Only complete replies are stored: errors,
cut-off replies and refusals (any finish other than ``stop``) never are, and a reply
that fails validation is dropped again (:func:`drop_invalid`), so asking again (a
re-ask after the model was fixed, a resume) reaches the model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Literal

from moot.llm.backend import Backend
from moot.llm.requests import cache_key
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
from moot.store import Store

CachePolicy = Literal["auto", "on", "off"]


def caches(policy: CachePolicy, settings: GenerationSettings) -> bool:
    """Whether a request with these settings is served from and stored in the cache."""
    return policy == "on" or (policy == "auto" and settings.temperature == 0)


class CachedBackend(Wrapper):
    """Serves repeated requests from the store's cache instead of the model."""

    def __init__(self, inner: Backend, store: Store, policy: CachePolicy = "auto") -> None:
        super().__init__(inner)
        self._store = store
        self._policy = policy

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        if not caches(self._policy, settings):
            return await self._inner.generate(
                messages, schema=schema, settings=settings, context=context
            )
        key = cache_key(self.spec, messages, schema, settings)
        hit = self._store.cache_get(key)
        if hit is not None:
            return Completion(
                text=str(hit["text"]),
                finish_reason="stop",
                usage=Usage(int(hit["prompt_tokens"]), int(hit["completion_tokens"])),
                model=str(hit["model"]),
                source="cache",
                cache_key=key,
                structured_mode=hit.get("structured_mode"),
                fallback=ModeFallback.from_json(hit.get("structured_mode"), hit.get("fallback")),
            )
        completion = await self._inner.generate(
            messages, schema=schema, settings=settings, context=context
        )
        if completion.finish_reason == "stop":
            self._store.cache_put(
                key,
                model=self.spec,
                value={
                    "text": completion.text,
                    "prompt_tokens": completion.usage.prompt_tokens,
                    "completion_tokens": completion.usage.completion_tokens,
                    "model": completion.model,
                    "structured_mode": completion.structured_mode,
                    "fallback": completion.fallback.as_json() if completion.fallback else None,
                },
            )
            return replace(completion, cache_key=key)
        return completion


def drop_invalid(store: Store) -> Callable[[Completion, list[str]], None]:
    """A validation hook (``Meter.on_validation``) that removes a reply from the cache
    when it did not validate."""

    def hook(completion: Completion, problems: list[str]) -> None:
        if problems and completion.cache_key is not None:
            store.cache_delete(completion.cache_key)

    return hook
