"""Stable identities of model requests, for the journal and the response cache."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from moot.llm.types import GenerationSettings, Message, OutputSpec


def messages_as_json(messages: Sequence[Message]) -> list[dict[str, str]]:
    """Messages as plain dicts (what the journal stores)."""
    return [{"role": m.role, "content": m.content} for m in messages]


def _digest(payload: dict[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def request_hash(
    spec: str,
    messages: Sequence[Message],
    schema: OutputSpec | None,
    settings: GenerationSettings,
) -> str:
    """Identity of a request: model spec, messages, schema and every sampling setting.
    Specs never hold secrets (keys come from the environment)."""
    identity: dict[str, Any] = {
        "spec": spec,
        "messages": messages_as_json(messages),
        "schema": None if schema is None else [schema.name, schema.json_schema],
        "temperature": settings.temperature,
        "max_tokens": settings.max_tokens,
        "seed": settings.seed,
        "repeat_penalty": settings.repeat_penalty,
    }
    if settings.frequency_penalty:  # only when set, so earlier runs' hashes still match
        identity["frequency_penalty"] = settings.frequency_penalty
    return _digest(identity)


def cache_key(
    spec: str,
    messages: Sequence[Message],
    schema: OutputSpec | None,
    settings: GenerationSettings,
) -> str:
    """The response-cache key: model spec (which includes any base URL), messages,
    schema, temperature, seed and output limit. Retries and timeouts are not in it."""
    return "v1:" + request_hash(spec, messages, schema, settings)
