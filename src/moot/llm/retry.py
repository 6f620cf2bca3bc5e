"""One layer of retries for model calls: what to retry, how long to wait, when to stop.

A model call is retried here and nowhere else: backends turn their SDK's own retries
off (the OpenAI SDK's ``max_retries=0``), so a rate-limited call is never retried
5 x 3 times by two stacked layers, and every request on the wire is accounted for.

**What is retried** (:func:`classify_error`): connection errors, timeouts, and the
HTTP statuses 408 (request timeout), 409 (conflict/lock), 429 (rate limit) and every
5xx. Everything else (400, 401, 403, 404, 422, a bad URL...) fails at once: asking
again cannot fix a wrong key, model name or request. Cancellation and
``KeyboardInterrupt`` are never caught.

**How long to wait** before retry ``n`` (1 for the first retry):

* if the failed response carries ``Retry-After`` (seconds or an HTTP date; OpenAI's
  ``retry-after-ms`` is read first), exactly that long, at most
  :attr:`RetryPolicy.retry_after_cap`. The server knows when it will have room;
  neither backoff nor jitter is added. A past date or a negative value means 0.
* otherwise exponential backoff with jitter: ``base_delay * 2 ** (n - 1)``, at most
  ``max_delay``, of which the fraction ``jitter`` is random: the delay is uniform in
  ``(d * (1 - jitter), d]``. ``jitter=0`` is deterministic; ``jitter=1`` is "full
  jitter". Jitter keeps many clients that failed together from retrying together.

**When to stop**: after ``max_attempts`` attempts in all (the first one included),
with :class:`RetriesExhausted`. A ``Retry-After`` above ``retry_after_cap`` stops at
once with :class:`RetryAfterTooLong`, whose message says how long the server asked
to wait: a debate that silently sleeps for an hour looks hung, and a caller that
wants to wait that long can raise the cap. Both are :class:`~moot.errors.BackendError`
subclasses and carry the failure that ended the attempts as ``__cause__``.

Every retry is reported, before its sleep, as a :class:`RetryEvent` (attempt number,
reason, delay) to the ``on_retry`` callback, so callers can count and log them, and
to the listener of the task it happens in (:func:`retry_listener`): the layer that
starts a call (the meter) learns of every retry and wait inside it, whichever
backend retries, without the backend knowing who listens.
Sleeping goes through :attr:`RetryPolicy.sleep` and randomness through
:attr:`RetryPolicy.rand`, so tests neither wait nor depend on chance.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import math
import random
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, TypeVar, cast

from moot.errors import BackendError, ConfigError

T = TypeVar("T")

#: Statuses below 500 that are worth asking again: request timeout, conflict (a lock
#: or a concurrent update), rate limit. Every 5xx is retried as well.
RETRYABLE_STATUSES = frozenset({408, 409, 429})

Sleep = Callable[[float], Awaitable[None]]


async def _asyncio_sleep(delay: float) -> None:
    await asyncio.sleep(delay)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a call is retried (see the module documentation).

    ``max_attempts`` counts every request, the first included (1 disables retries);
    ``base_delay`` is the wait before the first retry, doubled for each further one
    up to ``max_delay``; ``jitter`` (0 to 1) is the random fraction of that wait;
    ``retry_after_cap`` is the longest ``Retry-After`` honoured (above it: give up).
    ``sleep`` and ``rand`` (uniform in [0, 1)) are injectable for tests.
    """

    max_attempts: int = 5
    base_delay: float = 0.5
    max_delay: float = 30.0
    jitter: float = 0.5
    retry_after_cap: float = 60.0
    sleep: Sleep = field(default=_asyncio_sleep, compare=False, repr=False)
    rand: Callable[[], float] = field(default=random.random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ConfigError(f"max_attempts must be at least 1, not {self.max_attempts}")
        for name in ("base_delay", "max_delay", "retry_after_cap"):
            value = getattr(self, name)
            if not (value >= 0 and math.isfinite(value)):
                raise ConfigError(f"{name} must be a finite number of seconds >= 0, not {value}")
        if not 0 <= self.jitter <= 1:
            raise ConfigError(f"jitter must be between 0 and 1, not {self.jitter}")

    def backoff(self, retry: int) -> float:
        """The jittered backoff before retry number ``retry`` (1 for the first retry)."""
        exponent = min(max(retry - 1, 0), 64)  # 2**64 * anything >= max_delay: no overflow
        ceiling = min(self.base_delay * 2.0**exponent, self.max_delay)
        return ceiling * (1.0 - self.jitter * self.rand())

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """The wait before retry ``retry``: the server's ``Retry-After`` if it sent one
        (the caller has checked it against the cap), else :meth:`backoff`."""
        if retry_after is not None:
            return max(retry_after, 0.0)
        return self.backoff(retry)


@dataclass(frozen=True)
class Failure:
    """What a classifier makes of an exception."""

    retryable: bool
    reason: str
    status: int | None = None
    retry_after: float | None = None


@dataclass(frozen=True)
class RetryEvent:
    """One retry: attempt ``attempt`` (1-based) failed for ``reason``; the next one is
    sent after ``delay`` seconds. ``retry_after`` is the server's value, if it sent one."""

    attempt: int
    reason: str
    delay: float
    status: int | None = None
    retry_after: float | None = None


_LISTENER: ContextVar[Callable[[RetryEvent], None] | None] = ContextVar(
    "moot_retry_listener", default=None
)


@contextlib.contextmanager
def retry_listener(listener: Callable[[RetryEvent], None] | None) -> Iterator[None]:
    """Report every retry made in this task (and the tasks it starts) to ``listener``
    while the block runs; ``None``: to no one (an outer block's listener included)."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


class RetryError(BackendError):
    """The retries ended without a reply; ``__cause__`` is the last failure.

    ``attempts`` is the number of requests made, ``retries`` the retries taken,
    ``reason`` the last failure's reason and ``retry_after`` the last ``Retry-After``.
    """

    def __init__(
        self,
        message: str,
        *,
        spec: str | None = None,
        attempts: int,
        retries: Sequence[RetryEvent] = (),
        reason: str = "",
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, spec=spec)
        self.attempts = attempts
        self.retries = tuple(retries)
        self.reason = reason
        self.retry_after = retry_after


class RetriesExhausted(RetryError):
    """Every one of ``RetryPolicy.max_attempts`` attempts failed with a retryable error."""


class RetryAfterTooLong(RetryError):
    """The server asked, with ``Retry-After``, to wait longer than the policy's cap."""


def retryable_status(status: int) -> bool:
    """Whether an HTTP status is worth retrying: 408, 409, 429 and 5xx."""
    return status in RETRYABLE_STATUSES or 500 <= status <= 599


def parse_retry_after(
    headers: Mapping[str, str], *, now: Callable[[], float] = time.time
) -> float | None:
    """Seconds to wait according to ``retry-after-ms`` or ``Retry-After`` (delay in
    seconds or HTTP date), or ``None`` when neither is present or readable.

    A date in the past and a negative delay give 0; an overflowing number gives
    ``inf`` (longer than any cap)."""
    lowered = {key.lower(): value for key, value in headers.items()}
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        raw = lowered.get(name)
        if raw is None:
            continue
        try:
            seconds = float(raw.strip())
        except ValueError:
            continue
        if math.isnan(seconds):
            continue
        return max(seconds / divisor, 0.0)
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    try:
        when = email.utils.parsedate_to_datetime(raw.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # "-0000": RFC 5322 for "UTC, origin unknown"
        when = when.replace(tzinfo=UTC)
    return max(when.timestamp() - now(), 0.0)


def _loaded(*names: str) -> tuple[type[BaseException], ...]:
    """The exception classes named ``"module.Class"`` whose module this process has loaded.

    The SDKs (openai, httpx2) are imported by the backends that use them, never here:
    an exception of an SDK's class can only exist once its module is loaded, so a
    class whose module is not loaded needs no check, and ``import moot`` stays cheap."""
    found: list[type[BaseException]] = []
    for name in names:
        module, _, attribute = name.rpartition(".")
        loaded = sys.modules.get(module)
        if loaded is not None:
            found.append(getattr(loaded, attribute))
    return tuple(found)


def classify_error(exc: BaseException) -> Failure:
    """Retryable or not, and why, for the errors of the OpenAI SDK, httpx2 and asyncio."""
    if isinstance(exc, _loaded("openai.APIStatusError", "httpx2.HTTPStatusError")):
        response = cast(Any, exc).response
        status: int = response.status_code
        if not retryable_status(status):
            return Failure(False, f"HTTP {status}", status=status)
        label = {408: "request timeout", 409: "conflict", 429: "rate limited"}.get(
            status, "server error"
        )
        return Failure(
            True,
            f"HTTP {status} ({label})",
            status=status,
            retry_after=parse_retry_after(response.headers),
        )
    if isinstance(
        exc, (TimeoutError, *_loaded("openai.APITimeoutError", "httpx2.TimeoutException"))
    ):
        return Failure(True, "timeout")
    # connection failures that no retry can fix: the URL itself is wrong
    permanent = _loaded("httpx2.UnsupportedProtocol", "httpx2.InvalidURL")
    if isinstance(exc, _loaded("openai.APIConnectionError")):
        if isinstance(exc.__cause__, permanent):
            return Failure(False, "invalid URL")
        return Failure(True, "connection error")
    if isinstance(exc, permanent):
        return Failure(False, "invalid URL")
    if isinstance(exc, (ConnectionError, *_loaded("httpx2.TransportError"))):
        return Failure(True, "connection error")
    return Failure(False, type(exc).__name__)


def format_seconds(seconds: float) -> str:
    """``"1.5 s"``, ``"3600 s"``; ``"an unbounded time"`` for infinity."""
    if not math.isfinite(seconds):
        return "an unbounded time"
    return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.3g} s"


async def call_with_retries(
    attempt: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    classify: Callable[[BaseException], Failure] = classify_error,
    on_retry: Callable[[RetryEvent], None] | None = None,
) -> T:
    """Await ``attempt()`` until it returns, retrying as ``policy`` says.

    A failure ``classify`` calls not retryable is re-raised unchanged, at once. A
    retryable one is reported to ``on_retry`` and retried after :meth:`RetryPolicy.delay`,
    up to ``policy.max_attempts`` attempts; then :class:`RetriesExhausted` is raised.
    A ``Retry-After`` above ``policy.retry_after_cap`` raises :class:`RetryAfterTooLong`
    at once. Only ``Exception`` is caught: cancellation passes straight through.
    """
    retries: list[RetryEvent] = []
    for number in range(1, policy.max_attempts + 1):
        try:
            return await attempt()
        except Exception as exc:
            failure = classify(exc)
            if not failure.retryable:
                raise
            if failure.retry_after is not None and failure.retry_after > policy.retry_after_cap:
                raise RetryAfterTooLong(
                    f"{failure.reason}: the server asked to wait"
                    f" {format_seconds(failure.retry_after)} before retrying (Retry-After),"
                    f" more than the {format_seconds(policy.retry_after_cap)} cap;"
                    f" gave up after attempt {number} instead of waiting",
                    attempts=number,
                    retries=retries,
                    reason=failure.reason,
                    retry_after=failure.retry_after,
                ) from exc
            if number == policy.max_attempts:
                raise RetriesExhausted(
                    f"gave up after {number} attempt{'s' if number > 1 else ''};"
                    f" the last failed with {failure.reason}",
                    attempts=number,
                    retries=retries,
                    reason=failure.reason,
                    retry_after=failure.retry_after,
                ) from exc
            event = RetryEvent(
                attempt=number,
                reason=failure.reason,
                delay=policy.delay(number, failure.retry_after),
                status=failure.status,
                retry_after=failure.retry_after,
            )
            retries.append(event)
            if on_retry is not None:
                on_retry(event)
            listener = _LISTENER.get()
            if listener is not None:
                listener(event)
        await policy.sleep(event.delay)
    raise AssertionError("unreachable")  # pragma: no cover
