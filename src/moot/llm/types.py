"""Typed values that cross the model boundary: messages, settings, requests and completions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Role = Literal["system", "user", "assistant"]
FinishReason = Literal["stop", "length", "refusal", "other"]
Source = Literal["live", "cache", "journal"]


@dataclass(frozen=True)
class Message:
    """One chat message."""

    role: Role
    content: str


@dataclass(frozen=True)
class GenerationSettings:
    """Sampling settings for one call. ``seed`` is honoured where the backend can."""

    temperature: float = 0.3
    max_tokens: int = 1024
    seed: int | None = None
    repeat_penalty: float = 1.1
    frequency_penalty: float = 0.0
    """OpenAI's frequency penalty (llama.cpp's over its last 64 tokens); moot sets it
    only when it re-asks a reply that looped or was cut off, and sends it only then."""


@dataclass(frozen=True)
class OutputSpec:
    """The structured output a call expects: a name and a JSON schema."""

    name: str
    json_schema: dict[str, Any]
    prefixes: tuple[tuple[str, str], ...] = ()
    """``(property, text)``: every free string property of that name must begin with
    ``text``. A backend that constrains output with a grammar (``local``) enforces it
    (``moot.llm.grammar``); the others cannot, and the prompt asks for it."""
    sentences: tuple[str, ...] = ()
    """Names of string properties (or arrays of strings) whose values are sentences: a
    backend that constrains output with a grammar makes each start with a capital
    letter or a Chinese character and end with a sentence end (``moot.llm.grammar``);
    the others cannot, and code checks them (a judge's synthesis: ``SYNTHESIS_WORDS``)."""
    verbatim: tuple[str, ...] = ()
    """Names of string properties whose values are copied from the user's data (a
    quote of a document), not written as prose: they are not checked as usable text
    (``moot.usable``), since markup, code or JSON in a document is the document's,
    and code checks them against the data instead."""


@dataclass(frozen=True)
class CallContext:
    """What a call is for. Backends must not need it; the scripted demo and the
    progress display read it, and it labels the call in logs and journals.

    ``format`` names the debate format and ``data`` is that format's typed account of
    the call (a dataclass the format defines, e.g. the arguments a cross-examination
    answers); the model layer never looks inside it."""

    role: str
    round: str
    side: str | None = None
    topic: str = ""
    lang: str = "en"
    attempt: int = 1
    format: str = ""
    data: object = None


@dataclass(frozen=True)
class Usage:
    """Token counts for one or more calls."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
        )


@dataclass(frozen=True)
class ModeFallback:
    """The server refused a call's schema in its better structured-output modes.

    ``rejected`` lists the refused modes in the order they were tried, ``mode`` is the
    one that produced the reply, ``reason`` the server's own words for the last
    refusal (shortened)."""

    mode: str
    rejected: tuple[str, ...]
    reason: str

    def as_json(self) -> dict[str, Any]:
        """What the journal and the cache store (the mode is stored beside it)."""
        return {"rejected": list(self.rejected), "reason": self.reason}

    @classmethod
    def from_json(cls, mode: str | None, value: Any) -> ModeFallback | None:
        """The fallback stored by :meth:`as_json` for a reply in ``mode``, if any."""
        if mode is None or not isinstance(value, dict) or not value.get("rejected"):
            return None
        return cls(mode, tuple(str(m) for m in value["rejected"]), str(value.get("reason", "")))


@dataclass(frozen=True)
class Completion:
    """A backend's raw reply to one request."""

    text: str
    finish_reason: FinishReason
    usage: Usage
    model: str
    source: Source = "live"
    """Where the reply came from: the model, the response cache, or the run's journal."""
    journal_id: int | None = None
    """The journal row of this call, when the run is journaled."""
    timings: dict[str, float] | None = None
    """Where the time went, when the backend can tell (the local model reports
    ``prompt_eval_ms``, ``prompt_eval_tokens``, ``generation_ms``, ``generated_tokens``
    and ``seconds``); for benchmarks, never stored."""
    cache_key: str | None = None
    """The response-cache entry holding this reply, when it came from or went into it."""
    structured_mode: str | None = None
    """How the server was asked for the schema (``json_schema``, ``json_object``,
    ``prompt``), for backends that choose; ``None`` for the others."""
    fallback: ModeFallback | None = None
    """Set when this schema was sent in a weaker mode than the server's usual one
    because the server refused it there."""
