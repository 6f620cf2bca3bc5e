"""Scripted backends: a programmable test double and a deterministic offline demo.

* :class:`ScriptedBackend` answers from a script: a sequence of replies consumed in
  order, or a function of the call. It records every call, so tests can assert on
  what moot sent. Like ``mockllm`` in inspect_ai or ``FunctionModel`` in pydantic-ai,
  it ships in the product so that users can test code built on moot.
* :class:`DemoBackend` (model spec ``scripted:demo``, optionally
  ``scripted:demo?latency_ms=200``) answers every call with a *demo writer*: a
  function registered for the call's format and round (:func:`register_demo_writer`)
  that writes a schema-valid, deterministic reply from the call's typed context and
  a seed. The model layer knows no debate: each debate format registers the writers
  for its rounds, and the judging layer those for the judge. It is for offline demos,
  reproducible examples and benchmarks; the writers label every figure as synthetic.

Token usage reported by both is an *estimate*, not a tokenizer count: one token per
run of non-space characters outside CJK text plus one per CJK character (see
:func:`estimate_tokens`).
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl

from pydantic import BaseModel

from moot.errors import BackendError, ConfigError
from moot.llm.types import (
    CallContext,
    Completion,
    GenerationSettings,
    Message,
    OutputSpec,
    Usage,
)
from moot.text import CJK_RANGES

__all__ = [
    "DemoBackend",
    "DemoCall",
    "DemoRequest",
    "DemoWriter",
    "ReplyFunction",
    "ScriptReply",
    "ScriptedBackend",
    "ScriptedCall",
    "demo_seed",
    "estimate_tokens",
    "register_demo_writer",
]

_TOKEN = re.compile(f"[{CJK_RANGES}]|[^\\s{CJK_RANGES}]+")


_FROM_CJK = re.compile("[\u3400-\U0010ffff]")
"""A character from U+3400 up, where every CJK range starts."""
NON_ASCII_SPACE = "\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Every white space character above ASCII (``str.isspace``), as a regex class's body."""
_WIDE = re.compile(f"[{NON_ASCII_SPACE}\u3400-\U0010ffff]")
"""What keeps a text from being counted by its UTF-8 bytes: white space above ASCII, or
a character from U+3400 up."""
_RUN_MARKS = bytes(32 if byte < 128 and chr(byte).isspace() else 120 for byte in range(256))
"""Each byte of UTF-8 text as ``b" "`` if it is an ASCII white space character to
``str.split`` (and to the regex's ``\\s``), else as ``b"x"`` (every byte of a
character above ASCII is 128 or more)."""


@lru_cache(maxsize=4096)
def estimate_tokens(text: str) -> int:
    """A deterministic token *estimate*: each CJK character counts one, and so does
    each run of other non-space characters (roughly one per English word). Cached:
    every call of a debate sends the same system prompt and much of the same text.
    A text with no character from U+3400 up (every CJK range starts there; prompts
    hold a dash or a curly quote) has no CJK character, so its count is that of its
    runs of non-space characters, which ``str.split`` finds (the same white space as
    the regex's ``\\s``). When its white space is ASCII only, the runs are counted
    without building a string each: its UTF-8 bytes marked space or not
    (``_RUN_MARKS``), a run starts at each non-space after a space, or at the start."""
    if text.isascii() or _WIDE.search(text) is None:
        marks = text.encode().translate(_RUN_MARKS)
        return marks.count(b" x") + marks.startswith(b"x")
    if _FROM_CJK.search(text) is None:
        return len(text.split())
    return len(_TOKEN.findall(text))


def _usage(messages: Sequence[Message], text: str) -> Usage:
    return Usage(
        prompt_tokens=sum(estimate_tokens(m.content) for m in messages),
        completion_tokens=estimate_tokens(text),
    )


# --------------------------------------------------------------------------------------
# ScriptedBackend: the programmable test double
# --------------------------------------------------------------------------------------

ScriptReply = str | BaseModel | Mapping[str, Any] | Completion
"""One scripted reply: text as is, a pydantic model or mapping serialised to JSON, or
a ``Completion`` returned unchanged (for full control, e.g. ``finish_reason="length"``)."""

ReplyFunction = Callable[
    [Sequence[Message], OutputSpec | None, GenerationSettings, CallContext | None],
    ScriptReply | Awaitable[ScriptReply],
]
"""A function of ``(messages, schema, settings, context)``, sync or async."""


@dataclass(frozen=True)
class ScriptedCall:
    """One call a :class:`ScriptedBackend` received."""

    messages: tuple[Message, ...]
    schema: OutputSpec | None
    settings: GenerationSettings
    context: CallContext | None


def _is_reply(value: object) -> bool:
    return isinstance(value, str | BaseModel | Mapping | Completion)


class ScriptedBackend:
    """A backend that answers from a script, for tests.

    ``script`` is either a sequence of replies, consumed one per call in order (a
    single reply is taken as a one-reply script), or a function
    ``(messages, schema, settings, context) -> reply`` that may be async. When the
    sequence runs out, the call raises ``BackendError``. Every call, including one
    that finds the script exhausted, is appended to :attr:`calls`.
    """

    def __init__(
        self,
        script: Iterable[ScriptReply] | ScriptReply | ReplyFunction,
        *,
        name: str = "scripted",
        latency_ms: float = 0.0,
    ) -> None:
        if latency_ms < 0:
            raise ConfigError(f"latency_ms must not be negative (got {latency_ms})")
        self._name = name
        self._latency = latency_ms / 1000
        self._function: ReplyFunction | None = None
        self._queue: list[ScriptReply] = []
        if _is_reply(script):
            self._queue = [script]  # type: ignore[list-item]
        elif callable(script):
            self._function = script
        else:
            self._queue = list(script)  # type: ignore[arg-type]
            for n, reply in enumerate(self._queue):
                if not _is_reply(reply):
                    raise ConfigError(
                        f"script item {n} is a {type(reply).__name__}; expected str,"
                        " pydantic model, mapping or Completion"
                    )
        self._used = 0
        self.calls: list[ScriptedCall] = []

    @property
    def spec(self) -> str:
        return self._name

    @property
    def remaining(self) -> int | None:
        """Replies left in a sequence script (``None`` for a function script)."""
        return None if self._function is not None else len(self._queue) - self._used

    def _completion(self, reply: ScriptReply, messages: Sequence[Message]) -> Completion:
        if isinstance(reply, Completion):
            return reply
        if isinstance(reply, BaseModel):
            text = reply.model_dump_json()
        elif isinstance(reply, str):
            text = reply
        elif isinstance(reply, Mapping):
            text = json.dumps(dict(reply), ensure_ascii=False)
        else:
            raise BackendError(
                f"scripted reply is a {type(reply).__name__}; expected str, pydantic model,"
                " mapping or Completion",
                spec=self.spec,
            )
        return Completion(
            text=text, finish_reason="stop", usage=_usage(messages, text), model=self.spec
        )

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        self.calls.append(ScriptedCall(tuple(messages), schema, settings, context))
        reply: ScriptReply
        if self._function is not None:
            result = self._function(messages, schema, settings, context)
            reply = await result if inspect.isawaitable(result) else result
        else:
            if self._used >= len(self._queue):
                what = f" ({context.role}, {context.round})" if context else ""
                raise BackendError(
                    f"script exhausted after {self._used} calls: no reply left for call"
                    f" {len(self.calls)}{what}",
                    spec=self.spec,
                )
            reply = self._queue[self._used]
            self._used += 1
        completion = self._completion(reply, messages)
        if self._latency:
            await asyncio.sleep(self._latency)
        return completion


# --------------------------------------------------------------------------------------
# DemoBackend: deterministic demo replies written by the formats' demo writers
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DemoRequest:
    """What a demo writer gets: the call's context (with its format's typed ``data``),
    the messages, the schema the reply must satisfy, and a seed for its choices."""

    context: CallContext
    messages: Sequence[Message]
    schema: OutputSpec | None
    seed: int

    def rng(self) -> random.Random:
        """A reproducible stream of choices for this call: the same seed, role, round
        and side always give the same stream, whatever the order of calls."""
        context = self.context
        return random.Random(demo_seed(self.seed, context.role, context.round, context.side))  # noqa: S311


DemoWriter = Callable[[DemoRequest], BaseModel | str]
"""Writes the reply to one demo call (a pydantic model, or JSON text)."""

_WRITERS: dict[tuple[str, str], DemoWriter] = {}
ANY_FORMAT = "*"
ANY_ROUND = "*"


def register_demo_writer(format_name: str, round_name: str, writer: DemoWriter) -> None:
    """Make ``scripted:demo`` answer ``round_name`` calls of ``format_name`` with
    ``writer``. ``format_name`` ``"*"`` answers that round for every format (the
    judge); ``round_name`` ``"*"`` answers every other round of the format. An exact
    match wins, then an any-format writer, then an any-round one."""
    _WRITERS[(format_name, round_name)] = writer


def demo_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed derived from ``seed`` and the parts (SHA-256)."""
    key = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class DemoCall:
    """One call a :class:`DemoBackend` answered, with ``time.perf_counter`` stamps."""

    context: CallContext
    started: float
    finished: float


class DemoBackend:
    """``scripted:demo``: deterministic, schema-valid demo replies for every round.

    The seed is the one given here, else the call's settings seed, else 0.
    ``latency_ms`` adds an ``asyncio.sleep`` to each call (concurrent calls overlap),
    for benchmarks; :attr:`calls` records each call's start and end.
    """

    def __init__(
        self, seed: int | None = None, *, latency_ms: float = 0.0, timeout: float | None = None
    ) -> None:
        if latency_ms < 0:
            raise ConfigError(f"latency_ms must not be negative (got {latency_ms})")
        self.seed = seed
        self.latency_ms = latency_ms
        self.timeout = timeout
        """Seconds a call may take: a ``latency_ms`` above it fails as a timeout."""
        self.calls: list[DemoCall] = []

    @classmethod
    def from_spec(
        cls, rest: str, *, seed: int | None = None, timeout: float | None = None
    ) -> DemoBackend:
        """Build from the part of a spec after ``scripted:``, e.g. ``demo?latency_ms=200``."""
        name, sep, query = rest.partition("?")
        if name != "demo":
            raise ConfigError(
                f"unknown scripted model {name!r} in 'scripted:{rest}'; known: demo"
                " (e.g. scripted:demo or scripted:demo?latency_ms=200)"
            )
        latency = 0.0
        if sep:
            try:
                params = parse_qsl(query, keep_blank_values=True, strict_parsing=True)
            except ValueError as exc:
                raise ConfigError(f"bad query {query!r} in 'scripted:{rest}'") from exc
            seen: set[str] = set()
            for key, value in params:
                if key != "latency_ms":
                    raise ConfigError(
                        f"unknown parameter {key!r} in 'scripted:{rest}'; known: latency_ms"
                    )
                if key in seen:
                    raise ConfigError(f"parameter {key!r} given twice in 'scripted:{rest}'")
                seen.add(key)
                try:
                    latency = float(value)
                except ValueError:
                    latency = -1.0
                if not 0 <= latency < float("inf"):
                    raise ConfigError(
                        f"latency_ms must be a non-negative number of milliseconds (got {value!r})"
                    )
        return cls(seed, latency_ms=latency, timeout=timeout)

    @property
    def spec(self) -> str:
        if not self.latency_ms:
            return "scripted:demo"
        value = self.latency_ms
        shown = str(int(value)) if value == int(value) else str(value)
        return f"scripted:demo?latency_ms={shown}"

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        started = time.perf_counter()
        if context is None:
            raise BackendError(
                "scripted:demo needs the call's CallContext to know what to write", spec=self.spec
            )
        seed = self.seed if self.seed is not None else (settings.seed or 0)
        reply = self.reply(context, messages, schema=schema, seed=seed)
        text = reply if isinstance(reply, str) else reply.model_dump_json()
        if self.latency_ms:
            delay = self.latency_ms / 1000
            if self.timeout is not None and delay > self.timeout:
                await asyncio.sleep(self.timeout)
                raise BackendError(
                    f"timed out: {self.spec} takes {delay:g} s per call, more than the"
                    f" {self.timeout:g} s timeout",
                    spec=self.spec,
                )
            await asyncio.sleep(delay)
        self.calls.append(DemoCall(context, started, time.perf_counter()))
        return Completion(
            text=text, finish_reason="stop", usage=_usage(messages, text), model=self.spec
        )

    def reply(
        self,
        context: CallContext,
        messages: Sequence[Message] = (),
        *,
        schema: OutputSpec | None = None,
        seed: int = 0,
    ) -> BaseModel | str:
        """The reply for one call (what :meth:`generate` serialises)."""
        writer = (
            _WRITERS.get((context.format, context.round))
            or _WRITERS.get((ANY_FORMAT, context.round))
            or _WRITERS.get((context.format, ANY_ROUND))
        )
        if writer is None:
            raise BackendError(
                f"scripted:demo has no writer for round {context.round!r} of format"
                f" {context.format or '(none)'!r}",
                spec=self.spec,
            )
        return writer(DemoRequest(context, messages, schema, seed))
