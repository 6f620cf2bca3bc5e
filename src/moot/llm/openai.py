"""Any OpenAI-compatible chat endpoint: OpenAI itself, llama.cpp's servers, vLLM, Ollama...

``openai:MODEL`` talks to ``https://api.openai.com/v1`` (or ``OPENAI_BASE_URL``);
``openai:MODEL@BASE_URL`` talks to ``BASE_URL``, which wins over ``OPENAI_BASE_URL``.
The key comes from ``OPENAI_API_KEY``. A local server usually needs no key, so when
none is set but a base URL is (argument or environment), the placeholder key
``"not-needed"`` is sent; with neither a key nor a base URL a ``ConfigError`` asks for
``OPENAI_API_KEY``. The key is never part of the spec or of any error message.

Structured output adapts to the server, schema by schema. There are three modes,
best first:

1. ``response_format={"type": "json_schema", ...}`` - the standard form (OpenAI,
   vLLM, llama.cpp's C++ ``llama-server``, LM Studio, recent Ollama);
2. ``response_format={"type": "json_object", "schema": ...}`` - the extension that
   llama-cpp-python's server enforces with a grammar (it answers the standard form
   with HTTP 500);
3. no ``response_format``: the schema is only described in the prompt.

The first structured call discovers the server's mode (:attr:`OpenAIBackend.structured_mode`):
it tries the modes in order, and one the server answers with HTTP 400, 404, 422, 500
or 501 is given up (a 404 whose error code is ``model_not_found`` is an unknown
model, not a rejection); concurrent first calls wait for it. ``structured_mode=``
skips discovery and makes that mode the best one tried.

Each new schema is then tried from the best mode still in play, and a server that
refuses that schema in a mode it otherwise answers (HTTP 400 or 422 at once, 500
once the retries for it are spent: a converter that cannot handle a construct) does
not end the debate: for this backend's lifetime the schema falls back to the next
mode, ``json_object`` with the schema in the prompt, then the prompt alone. The
:class:`~moot.llm.types.Completion` reports the mode used (``structured_mode``) and
any such fallback (``fallback``), so the journal, the result's usage and the
briefing show it. A mode refused for two different schemas and never accepted is
taken as unsupported by the server and no longer tried. A schema that has been
answered in a mode is past negotiation: from then on its errors are ordinary errors.

Retries (:mod:`moot.llm.retry`) are the backend's only layer: the SDK's own are off
(``max_retries=0``) for every request. Connection errors, timeouts, HTTP 408, 409,
429 and 5xx are retried with exponential backoff and jitter, honouring
``Retry-After`` up to the policy's cap (``retry=`` on the constructor); anything else
fails at once with a message that says what to fix. Each attempt is bounded by
``timeout`` seconds (default 120), connecting and reading included; a server that
hangs longer counts as a retryable timeout. Retries are logged, counted
(:attr:`OpenAIBackend.retry_count`) and reported to ``on_retry``.

Probing and retrying share that one layer, with one difference: while discovering
the server's mode, the statuses that reject a mode (including 500 and 501, which are
otherwise retried) are not retryable, so a rejected mode costs exactly one request
and the next mode is tried. A probe that fails for a transient reason (connection,
timeout, 408, 409, 429, 502-504) is retried in the same mode under the same policy,
since the failure says nothing about the mode; if the retries run out, the call fails
and nothing is learned (the next call probes again). The price: a genuinely
transient 500 during discovery makes the backend skip that mode, one step down the
list; during a new schema's first call in a mode the server answers, only a 500 that
outlasts the retries does, and only for that schema.

The ``schema_instruction`` prompt (the schema as text) is added to the last user
message in modes 2 and 3, not in mode 1. In mode 1 the server enforces a standard
field, so repeating the schema would only cost context. In mode 2 ``schema`` is an
extension: a server that accepts ``json_object`` but ignores ``schema`` still gets
the shape from the prompt (and OpenAI's JSON mode insists the prompt mentions JSON);
for llama.cpp it also tells a small model what the grammar-forced fields mean. It is
appended to the last user message rather than sent as an extra message, because
many chat templates reject two user messages in a row or a late system message.

``temperature``, ``max_tokens``, ``seed`` and ``frequency_penalty`` (when set) are
sent; ``repeat_penalty`` is not part of the OpenAI API and is not sent. Connections
are not kept alive between calls: each call opens its own, so the backend holds no
sockets, needs no closing, and works from any event loop (``run_debate`` runs a new
loop each time).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import os
import re
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx2
import openai
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionAssistantMessageParam,
    ChatCompletionMessageParam,
    ChatCompletionSystemMessageParam,
    ChatCompletionUserMessageParam,
)

from moot.errors import BackendError, ConfigError
from moot.llm.counts import token_count
from moot.llm.retry import (
    Failure,
    RetryAfterTooLong,
    RetryError,
    RetryEvent,
    RetryPolicy,
    call_with_retries,
    classify_error,
    format_seconds,
)
from moot.llm.served import (
    ServedModel,
    fit_reply,
    from_llama_cpp,
    from_ollama,
    surely_fits,
)
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
from moot.prompts import render

StructuredMode = Literal["json_schema", "json_object", "prompt"]

#: The structured-output modes, in the order they are probed.
MODES: tuple[StructuredMode, ...] = ("json_schema", "json_object", "prompt")

#: The key sent when no key is set but a base URL is: local servers ignore it.
NO_KEY_PLACEHOLDER = "not-needed"

DEFAULT_BASE_URL = "https://api.openai.com/v1"

#: Seconds one request may take, connecting and reading included.
DEFAULT_TIMEOUT = 120.0
DISCOVERY_TIMEOUT = 5.0
"""Seconds each discovery request may take (:meth:`OpenAIBackend.discover`)."""

# A server that does not support a response_format answers one of these.
_REJECTED_STATUSES = frozenset({400, 404, 422, 500, 501})

# A server that supports the mode but refuses one schema answers one of these (a 500
# only counts once its retries are spent: it may be transient).
_SCHEMA_REJECTED_STATUSES = frozenset({400, 422, 500})

# A mode refused for this many different schemas, and never accepted, is not tried
# for new schemas any more: the server does not support it.
_REFUSALS_TO_GIVE_UP = 2

# How many recent retries OpenAIBackend.retries keeps.
_RETRY_HISTORY = 256

_MAX_DETAIL = 500

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Learned:
    """The mode a schema is sent in, and why it is not the server's usual one."""

    mode: StructuredMode
    fallback: ModeFallback | None


class _Refused(Exception):
    """A mode was refused for a schema: try the next one."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"HTTP {status}: {detail}")
        self.status = status


def _origin(url: str) -> tuple[str, str, int | None]:
    """Scheme, host and port: where a key may be sent."""
    parts = urlsplit(url)
    default = {"https": 443, "http": 80}.get(parts.scheme)
    return parts.scheme.lower(), (parts.hostname or "").lower(), parts.port or default


def _check_base_url(url: str) -> None:
    """A base URL must be ``http(s)://HOST[:PORT][/PATH]``: anything else is a
    configuration error before any run is stored, not a failed request later."""
    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
        parts = urlsplit("")
    if (
        parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or not port_ok
        or any(ch.isspace() or not ch.isprintable() for ch in url)
    ):
        raise ConfigError(
            f"bad base URL {url!r}: use http(s)://HOST[:PORT]/PATH, e.g."
            " openai:MODEL@http://127.0.0.1:8080/v1"
        )


def _refuse_credentials_in_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.username or parts.password or "key" in parts.query.lower():
        raise ConfigError(
            "the base URL carries credentials; put the key in an environment variable and"
            " name it in the spec: openai:MODEL@BASE_URL#KEY_ENV"
        )


def _choose_key(explicit_base_url: str | None, key_env: str | None) -> str | None:
    """The key for an endpoint. A named variable (``#KEY_ENV``) wins. Otherwise
    ``OPENAI_API_KEY`` is sent only where it belongs: to OpenAI, to ``OPENAI_BASE_URL``
    (configured together with it), or to an explicit base URL on either's host. Any
    other server gets no key (a local server needs none), so a key meant for one
    provider is never sent to another. "Same server" means same scheme, host and port."""
    if key_env:
        value = os.environ.get(key_env)
        if not value:
            raise ConfigError(f"the spec names the key variable {key_env}, which is not set")
        return value
    key = os.environ.get("OPENAI_API_KEY") or None
    if key is None or explicit_base_url is None:
        return key
    trusted = {_origin(DEFAULT_BASE_URL)}
    env_base = os.environ.get("OPENAI_BASE_URL")
    if env_base:
        trusted.add(_origin(env_base))
    return key if _origin(explicit_base_url) in trusted else None


class OpenAIBackend:
    """A model behind an OpenAI-compatible ``/chat/completions`` endpoint."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        key_env: str | None = None,
        structured_mode: StructuredMode | None = None,
        http_client: httpx2.AsyncClient | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        on_retry: Callable[[RetryEvent], None] | None = None,
    ) -> None:
        """``base_url`` and ``api_key`` win over ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``.

        ``structured_mode`` skips probing; ``http_client`` replaces the default
        connection handling (proxies, custom certificates, instrumentation; its own
        timeout is replaced by ``timeout``). ``retry`` is the retry policy (``None``:
        the default :class:`RetryPolicy`; ``RetryPolicy(max_attempts=1)`` turns retries
        off); ``timeout`` bounds each request in seconds; ``on_retry`` is called with
        every retry before its wait.
        """
        model = model.strip()
        if not model:
            raise ConfigError("the openai backend needs a model name: openai:MODEL")
        if structured_mode is not None and structured_mode not in MODES:
            raise ConfigError(
                f"unknown structured_mode {structured_mode!r}; choose one of {', '.join(MODES)}"
            )
        if not (timeout > 0 and math.isfinite(timeout)):
            raise ConfigError(f"timeout must be a positive number of seconds, not {timeout}")
        self._model = model
        self._key_env = key_env or None
        effective_base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        if effective_base_url is not None:
            _check_base_url(effective_base_url)
            _refuse_credentials_in_url(effective_base_url)
        key = api_key or _choose_key(base_url, self._key_env)
        if key is None:
            if effective_base_url is None:
                raise ConfigError(
                    "no OpenAI API key: set OPENAI_API_KEY, or give the base URL of a local"
                    " server that needs none (openai:MODEL@http://127.0.0.1:8080/v1)"
                )
            key = NO_KEY_PLACEHOLDER
        self._key_is_placeholder = key == NO_KEY_PLACEHOLDER
        self._secret = "" if self._key_is_placeholder else key
        if http_client is None:
            # No keep-alive: a pooled connection is tied to the event loop that opened
            # it, and a backend may be used from several loops (one per run_debate).
            http_client = openai.DefaultAsyncHttpx2Client(
                limits=httpx2.Limits(max_connections=1000, max_keepalive_connections=0)
            )
        self._retry = retry if retry is not None else RetryPolicy()
        self._timeout = float(timeout)
        self._on_retry = on_retry
        self._retry_count = 0
        self._retries: deque[RetryEvent] = deque(maxlen=_RETRY_HISTORY)
        # max_retries=0: moot.llm.retry is the only retry layer.
        self._client = openai.AsyncOpenAI(
            api_key=key,
            base_url=effective_base_url or DEFAULT_BASE_URL,
            http_client=http_client,
            max_retries=0,
            timeout=self._timeout,
        )
        self._mode: StructuredMode | None = structured_mode
        # The best mode ever tried: the one given, else the first.
        self._first_mode = MODES.index(structured_mode) if structured_mode else 0
        # Modes the server has answered (for any schema), schemas each mode refused,
        # and what was learned per schema (keyed by the schema's content).
        self._accepted: set[StructuredMode] = {structured_mode} if structured_mode else set()
        self._refused: dict[StructuredMode, set[str]] = {mode: set() for mode in MODES}
        self._schema_modes: dict[str, _Learned] = {}
        self._probe_lock: asyncio.Lock | None = None
        self._probe_lock_loop: asyncio.AbstractEventLoop | None = None
        self._http = http_client
        self._served: ServedModel | None = None
        self._discovered = False

    @property
    def spec(self) -> str:
        """``openai:MODEL``, or ``openai:MODEL@BASE_URL`` whenever the endpoint is not
        OpenAI's (also when it came from ``OPENAI_BASE_URL``, so stored runs, the cache
        and resumes name the server really used), plus ``#KEY_ENV`` when a key variable
        was named. Never the key itself."""
        spec = f"openai:{self._model}"
        if self.base_url != DEFAULT_BASE_URL:
            spec += f"@{self.base_url}"
        if self._key_env:
            spec += f"#{self._key_env}"
        return spec

    @property
    def endpoint(self) -> str:
        """The server calls go to (``--concurrency`` is counted per endpoint)."""
        return self.base_url

    @property
    def model(self) -> str:
        return self._model

    @property
    def base_url(self) -> str:
        """The endpoint actually used (argument, else ``OPENAI_BASE_URL``, else OpenAI)."""
        return str(self._client.base_url).rstrip("/")

    @property
    def structured_mode(self) -> StructuredMode | None:
        """The server's structured-output mode (the best one it accepted); ``None``
        until a structured call found it. A schema the server refused in it is sent
        in a weaker mode (:meth:`mode_for`)."""
        return self._mode

    def mode_for(self, schema: OutputSpec) -> StructuredMode | None:
        """The mode this schema is sent in; ``None`` while it has not been sent."""
        learned = self._schema_modes.get(_schema_key(schema))
        return learned.mode if learned is not None else None

    @property
    def retry_policy(self) -> RetryPolicy:
        return self._retry

    @property
    def timeout(self) -> float:
        """Seconds one request may take before it counts as a (retryable) timeout."""
        return self._timeout

    @property
    def retry_count(self) -> int:
        """Retries taken by this backend so far, over all calls."""
        return self._retry_count

    @property
    def retries(self) -> tuple[RetryEvent, ...]:
        """The most recent retries (up to 256), oldest first."""
        return tuple(self._retries)

    async def discover(self) -> ServedModel | None:
        """What the server serves (:mod:`moot.llm.served`), asked once: llama.cpp's
        ``/props`` and ``/v1/models``, else Ollama's ``/api/show``. ``None`` when the
        server says nothing (OpenAI's own API is never asked)."""
        if self._discovered:
            return self._served
        self._discovered = True
        if self.base_url.rstrip("/") == DEFAULT_BASE_URL.rstrip("/"):
            return None
        base = self.base_url.rstrip("/")
        root = base.removesuffix("/v1")
        props = await self._get_json("GET", f"{root}/props")
        models = await self._get_json("GET", f"{base}/models")
        self._served = from_llama_cpp(props, models, self._model)
        if self._served is None:
            show = await self._get_json("POST", f"{root}/api/show", {"model": self._model})
            self._served = from_ollama(show)
        return self._served

    async def _get_json(self, method: str, url: str, body: dict[str, Any] | None = None) -> Any:
        """A JSON answer of the server, or ``None`` for any failure (discovery is optional)."""
        headers = {} if self._key_is_placeholder else {"Authorization": f"Bearer {self._secret}"}
        try:
            async with asyncio.timeout(min(self._timeout, DISCOVERY_TIMEOUT)):
                response = await self._http.request(method, url, json=body, headers=headers)
            if response.status_code != 200:
                return None
            return response.json()
        except Exception:  # discovery never fails a run: the facts stay unknown
            return None

    async def _fit_context(
        self, messages: Sequence[Message], settings: GenerationSettings
    ) -> GenerationSettings:
        """``settings`` with ``max_tokens`` trimmed to the server's context, if known;
        a ``BackendError`` when the prompt alone does not fit (never sent)."""
        served = self._served  # known once discover() ran (a debate runs it first)
        if served is None or served.n_ctx is None:
            return settings
        contents = [m.content for m in messages]
        if surely_fits(contents, settings.max_tokens, served.n_ctx):
            return settings
        counted = await self._count_tokens(messages) if served.source == "llama.cpp" else None
        prompt = counted if counted is not None else sum(len(c.encode()) for c in contents)
        try:
            fitted = fit_reply(prompt, settings.max_tokens, served.n_ctx)
        except ValueError as exc:
            # a small model already runs the compact profile unless told otherwise
            shorter = "" if served.small else ", or shorten the debate (--profile compact)"
            raise BackendError(
                f"not sent: {exc} ({served.describe()}). Start the server with a larger"
                f" context (llama-server -c N){shorter}",
                spec=self.spec,
            ) from None
        return settings if fitted == settings.max_tokens else replace(settings, max_tokens=fitted)

    async def _count_tokens(self, messages: Sequence[Message]) -> int | None:
        """The prompt's tokens as llama.cpp will see it: its chat template applied
        (``/apply-template``, which may add a system prompt of its own), then its
        tokenizer (``/tokenize``). ``None`` when the server cannot say."""
        root = self.base_url.rstrip("/").removesuffix("/v1")
        chat = [{"role": m.role, "content": m.content} for m in messages]
        applied = await self._get_json("POST", f"{root}/apply-template", {"messages": chat})
        prompt = applied.get("prompt") if isinstance(applied, dict) else None
        if not isinstance(prompt, str):
            return None
        body = {"content": prompt, "add_special": True, "parse_special": True}
        answer = await self._get_json("POST", f"{root}/tokenize", body)
        tokens = answer.get("tokens") if isinstance(answer, dict) else None
        return len(tokens) if isinstance(tokens, list) else None

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        lang = context.lang if context is not None else "en"
        if schema is None:
            return await self._call(messages, None, None, settings, lang)
        key = _schema_key(schema)
        if key not in self._schema_modes and self._mode is None:
            # Only the first structured calls wait here; after that the lock is skipped.
            async with self._lock():
                if key not in self._schema_modes:
                    return await self._negotiate(key, messages, schema, settings, lang)
        learned = self._schema_modes.get(key)
        if learned is None:
            return await self._negotiate(key, messages, schema, settings, lang)
        completion = await self._call(messages, schema, learned.mode, settings, lang)
        return replace(completion, structured_mode=learned.mode, fallback=learned.fallback)

    def _lock(self) -> asyncio.Lock:
        # An asyncio.Lock belongs to the loop it first waited on: keep one per loop.
        loop = asyncio.get_running_loop()
        if self._probe_lock is None or self._probe_lock_loop is not loop:
            self._probe_lock = asyncio.Lock()
            self._probe_lock_loop = loop
        return self._probe_lock

    def _candidate_modes(self) -> list[StructuredMode]:
        """The modes a new schema may be sent in, best first: from the given mode (if
        any) down, skipping modes the server has refused for several schemas and
        never accepted."""
        return [
            mode
            for mode in MODES[self._first_mode :]
            if mode == MODES[-1]
            or mode in self._accepted
            or len(self._refused[mode]) < _REFUSALS_TO_GIVE_UP
        ]

    async def _negotiate(
        self,
        key: str,
        messages: Sequence[Message],
        schema: OutputSpec,
        settings: GenerationSettings,
        lang: str,
    ) -> Completion:
        """A schema's first call: try the modes best first until one answers."""
        rejected: list[StructuredMode] = []
        reason = ""
        for mode in self._candidate_modes():
            if mode == MODES[-1]:
                # Nothing left to fall back to: an ordinary call.
                completion = await self._call(messages, schema, mode, settings, lang)
            else:
                try:
                    completion = await self._probe(messages, schema, mode, settings, lang)
                except _Refused as refusal:
                    _log.info(
                        "%s: %s refused the %s schema in mode %s (%s); trying the next mode",
                        self.spec,
                        self.base_url,
                        schema.name,
                        mode,
                        refusal,
                    )
                    self._refused[mode].add(key)
                    rejected.append(mode)
                    reason = str(refusal)
                    continue
            return self._learn(key, mode, rejected, reason, completion)
        raise AssertionError("unreachable")  # pragma: no cover

    def _learn(
        self,
        key: str,
        mode: StructuredMode,
        rejected: list[StructuredMode],
        reason: str,
        completion: Completion,
    ) -> Completion:
        self._accepted.add(mode)
        if self._mode is None or MODES.index(mode) < MODES.index(self._mode):
            self._mode = mode
            _log.debug("%s: structured output mode %s", self.spec, mode)
        # A refusal in a mode the server answers for other schemas is this schema's:
        # a fallback. Refusals only of modes it never answered found the server's mode.
        fallback = (
            ModeFallback(mode, tuple(rejected), reason)
            if any(m in self._accepted for m in rejected)
            else None
        )
        self._schema_modes[key] = _Learned(mode, fallback)
        return replace(completion, structured_mode=mode, fallback=fallback)

    async def _probe(
        self,
        messages: Sequence[Message],
        schema: OutputSpec,
        mode: StructuredMode,
        settings: GenerationSettings,
        lang: str,
    ) -> Completion:
        """One schema's request in one mode; ``_Refused`` when the server refuses it
        there. In a mode the server has not accepted yet a refusal costs one request;
        in one it has, a 500 is first retried like any server error."""
        known = mode in self._accepted
        settings = await self._fit_context(_as_sent(messages, schema, mode, lang), settings)
        try:
            reply = await self._send(messages, schema, mode, settings, lang, probing=not known)
        except openai.APIStatusError as exc:
            statuses = _SCHEMA_REJECTED_STATUSES - {500} if known else _REJECTED_STATUSES
            if exc.status_code in statuses and _rejects_mode(exc):
                raise _Refused(exc.status_code, _detail(exc)) from None
            raise self._error(exc) from None
        except RetryError as exc:
            cause = exc.__cause__
            if (
                known
                and isinstance(cause, openai.APIStatusError)
                and cause.status_code in _SCHEMA_REJECTED_STATUSES
            ):
                raise _Refused(cause.status_code, _detail(cause)) from None
            raise self._error(exc) from None
        except Exception as exc:
            raise self._error(exc) from None
        return self._completion(reply)

    async def _call(
        self,
        messages: Sequence[Message],
        schema: OutputSpec | None,
        mode: StructuredMode | None,
        settings: GenerationSettings,
        lang: str,
    ) -> Completion:
        # the guard measures the prompt as sent: with the schema instruction, if any
        settings = await self._fit_context(_as_sent(messages, schema, mode, lang), settings)
        try:
            reply = await self._send(messages, schema, mode, settings, lang, probing=False)
        except Exception as exc:
            # ``from None``: the SDK's error may quote the request's key; the message of
            # the BackendError says what failed without it.
            raise self._error(exc) from None
        return self._completion(reply)

    async def _send(
        self,
        messages: Sequence[Message],
        schema: OutputSpec | None,
        mode: StructuredMode | None,
        settings: GenerationSettings,
        lang: str,
        *,
        probing: bool,
    ) -> ChatCompletion:
        """One chat request, with retries. Raises the SDK's error for a failure that is
        not retried, :class:`RetryError` when the retries ran out."""
        extra_body: dict[str, Any] = {}
        messages = _as_sent(messages, schema, mode, lang)
        if schema is not None and mode == "json_schema":
            extra_body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": _schema_name(schema.name),
                    "schema": schema.json_schema,
                    "strict": False,
                },
            }
        elif schema is not None and mode == "json_object":
            # Not in the SDK's types: "schema" is llama.cpp's (and others') extension.
            extra_body["response_format"] = {"type": "json_object", "schema": schema.json_schema}
        params = [_message_param(m) for m in messages]

        async def attempt() -> ChatCompletion:
            # The SDK's timeout bounds each phase (connect, write, read); this bounds
            # the whole request, so a server that trickles its answer times out too.
            async with asyncio.timeout(self._timeout):
                return await self._client.chat.completions.create(
                    model=self._model,
                    messages=params,
                    temperature=settings.temperature,
                    max_tokens=settings.max_tokens,
                    seed=settings.seed if settings.seed is not None else openai.omit,
                    frequency_penalty=settings.frequency_penalty or openai.omit,
                    extra_body=extra_body or None,
                )

        return await call_with_retries(
            attempt,
            self._retry,
            classify=_classify_probe if probing else classify_error,
            on_retry=self._record_retry,
        )

    def _record_retry(self, event: RetryEvent) -> None:
        self._retry_count += 1
        self._retries.append(event)
        _log.info(
            "%s: attempt %d failed (%s); retrying in %.2f s",
            self.spec,
            event.attempt,
            event.reason,
            event.delay,
        )
        if self._on_retry is not None:
            self._on_retry(event)

    def _completion(self, reply: ChatCompletion) -> Completion:
        try:
            return self._read_completion(reply)
        except (AttributeError, TypeError, ValueError, IndexError, KeyError) as exc:
            # the SDK does not validate a reply's shape: a wrong one fails here
            raise BackendError(
                f"{self.base_url} did not answer with a chat completion ({exc}); is the base"
                " URL the API root of an OpenAI-compatible server (usually ending in /v1)?",
                spec=self.spec,
            ) from None

    def _read_completion(self, reply: ChatCompletion) -> Completion:
        choices = getattr(reply, "choices", None)
        if not choices or isinstance(choices, str | bytes | dict):
            sent = ""
            if isinstance(reply, str | bytes):
                body = " ".join(str(reply)[:_MAX_DETAIL].split())
                sent = f" (it sent {body!r})"
            raise BackendError(
                f"{self.base_url} did not answer with a chat completion{sent}; is the base URL"
                " the API root of an OpenAI-compatible server (usually ending in /v1)?",
                spec=self.spec,
            )
        choice = choices[0]
        finish: FinishReason = "other"
        if choice.finish_reason == "length":
            finish = "length"
        elif choice.finish_reason == "stop":
            finish = "stop"
        usage = reply.usage
        text = (choice.message.content if choice.message is not None else None) or ""
        refusal = getattr(choice.message, "refusal", None) if choice.message is not None else None
        if refusal:
            # A refusal is not a reply: never cached, and its words reach the error.
            finish, text = "refusal", str(refusal)
        return Completion(
            text=text,
            finish_reason=finish,
            usage=Usage(
                token_count(getattr(usage, "prompt_tokens", None), "usage.prompt_tokens"),
                token_count(getattr(usage, "completion_tokens", None), "usage.completion_tokens"),
            ),
            model=self.spec,
        )

    def _error(self, exc: Exception) -> BackendError:
        """The ``BackendError`` to raise for ``exc``: says what to fix; never the key."""
        if isinstance(exc, RetryError):
            cause = exc.__cause__
            what = self._describe(cause) if isinstance(cause, Exception) else str(exc)
            if isinstance(exc, RetryAfterTooLong):
                waited = format_seconds(exc.retry_after if exc.retry_after is not None else 0)
                why = (
                    f"the server asked to wait {waited} before retrying (Retry-After),"
                    f" longer than the {format_seconds(self._retry.retry_after_cap)} this"
                    " backend waits at most; gave up instead of waiting: try again later, or"
                    " raise RetryPolicy.retry_after_cap"
                )
            else:
                waited = format_seconds(sum(event.delay for event in exc.retries))
                why = (
                    f"gave up after {exc.attempts} attempts"
                    f" ({len(exc.retries)} retries, {waited} of waiting in all)"
                )
            return type(exc)(
                self._scrub(f"{what}; {why}"),
                spec=self.spec,
                attempts=exc.attempts,
                retries=exc.retries,
                reason=exc.reason,
                retry_after=exc.retry_after,
            )
        if isinstance(exc, BackendError):
            return exc
        return BackendError(self._scrub(self._describe(exc)), spec=self.spec)

    def _describe(self, exc: Exception) -> str:
        where = self.base_url
        if isinstance(exc, openai.APITimeoutError | TimeoutError):
            return (
                f"timed out waiting for {where}: no answer within the"
                f" {format_seconds(self._timeout)} timeout (is the server overloaded, or is"
                " the model still loading? a slow model needs a longer timeout)"
            )
        if isinstance(exc, openai.APIConnectionError):
            cause = f" ({exc.__cause__})" if exc.__cause__ is not None else ""
            return f"cannot reach {where}: is the server running, and is the base URL right?{cause}"
        if isinstance(exc, openai.AuthenticationError):
            # The server's own text is left out: OpenAI's quotes part of the key.
            variable = self._key_env or "OPENAI_API_KEY"
            if self._key_is_placeholder:
                return (
                    f"{where} needs an API key (HTTP 401) and none was sent: put it in an"
                    " environment variable and name it in the spec (openai:MODEL@URL#KEY_ENV);"
                    " OPENAI_API_KEY goes only to OpenAI and to OPENAI_BASE_URL"
                )
            return (
                f"{where} rejected the API key (HTTP 401): the key is wrong, revoked or"
                f" for another server; check {variable}"
            )
        if isinstance(exc, openai.PermissionDeniedError):
            return (
                f"{where} refused access (HTTP 403): the API key may not use model"
                f" {self._model!r}: {_detail(exc)}"
            )
        if isinstance(exc, openai.NotFoundError):
            return (
                f"{where} answered HTTP 404 for model {self._model!r}: check the model name"
                f" (GET {where}/models lists them) and that the base URL is the API root,"
                f" usually ending in /v1: {_detail(exc)}"
            )
        if isinstance(exc, openai.APIStatusError):
            return f"{where} answered HTTP {exc.status_code}: {_detail(exc)}"
        if isinstance(exc, json.JSONDecodeError):
            body = " ".join(exc.doc.split())
            shown = body if len(body) <= _MAX_DETAIL else body[:_MAX_DETAIL] + "..."
            return (
                f"{where} answered with a body that is not JSON, so not a chat completion"
                f" (is the base URL the API root, usually ending in /v1?): {shown!r}"
            )
        return f"the call to {where} failed: {exc}"

    def _scrub(self, message: str) -> str:
        return message.replace(self._secret, "***") if self._secret else message


def _rejects_mode(exc: openai.APIStatusError) -> bool:
    """Whether a status error answering a probe means "this response_format is not supported"."""
    return exc.status_code in _REJECTED_STATUSES and exc.code != "model_not_found"


def _classify_probe(exc: BaseException) -> Failure:
    """While probing, a mode's rejection is final (one request), even a 500."""
    if isinstance(exc, openai.APIStatusError) and _rejects_mode(exc):
        return Failure(False, f"HTTP {exc.status_code} (response_format rejected)", exc.status_code)
    return classify_error(exc)


def _detail(exc: openai.APIStatusError) -> str:
    """The server's error message, shortened."""
    body = exc.body
    text = exc.message
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        text = body["message"]
    elif isinstance(body, dict) and isinstance(body.get("detail"), str):
        text = body["detail"]
    text = " ".join(text.split())
    return text if len(text) <= _MAX_DETAIL else text[:_MAX_DETAIL] + "..."


def _schema_key(schema: OutputSpec) -> str:
    """A schema's identity: its name and content (ids pinned into it included)."""
    text = json.dumps([schema.name, schema.json_schema], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _schema_name(name: str) -> str:
    """A ``json_schema.name`` OpenAI accepts: ``[A-Za-z0-9_-]{1,64}``."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64]
    return cleaned or "reply"


def _as_sent(
    messages: Sequence[Message],
    schema: OutputSpec | None,
    mode: StructuredMode | None,
    lang: str,
) -> Sequence[Message]:
    """The messages as a request in ``mode`` sends them: with the schema instruction in
    the modes that carry the schema in the prompt (``json_object``, ``prompt``)."""
    if schema is not None and mode in ("json_object", "prompt"):
        return _with_schema_instruction(messages, schema, lang)
    return messages


def _with_schema_instruction(
    messages: Sequence[Message], schema: OutputSpec, lang: str
) -> list[Message]:
    instruction = render(
        "schema_instruction", lang, schema=json.dumps(schema.json_schema, ensure_ascii=False)
    )
    result = list(messages)
    if result and result[-1].role == "user":
        result[-1] = Message("user", f"{result[-1].content}\n\n{instruction}")
    else:
        result.append(Message("user", instruction))
    return result


def _message_param(message: Message) -> ChatCompletionMessageParam:
    if message.role == "system":
        return ChatCompletionSystemMessageParam(role="system", content=message.content)
    if message.role == "assistant":
        return ChatCompletionAssistantMessageParam(role="assistant", content=message.content)
    return ChatCompletionUserMessageParam(role="user", content=message.content)
