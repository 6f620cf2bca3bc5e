"""Retries: the policy in isolation, then OpenAIBackend against a real fault-injecting
HTTP server on loopback that counts the requests it receives."""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx2
import openai
import pytest

from moot.errors import BackendError, ConfigError
from moot.llm.openai import OpenAIBackend, StructuredMode
from moot.llm.retry import (
    Failure,
    RetriesExhausted,
    RetryAfterTooLong,
    RetryEvent,
    RetryPolicy,
    call_with_retries,
    classify_error,
    format_seconds,
    parse_retry_after,
    retryable_status,
)
from moot.llm.types import Completion, GenerationSettings, Message, ModeFallback, OutputSpec

SECRET = "sk-retry-canary-do-not-leak-9876543210"  # noqa: S105 (a fake key, checked for leaks)
SETTINGS = GenerationSettings(temperature=0.0, max_tokens=16, seed=3)
ASK = [Message("user", "Say hello.")]
SHAPE = OutputSpec(
    name="shape",
    json_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


# --- the fault-injecting server ------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """What the server does with one request: wait ``hang`` seconds (cut short when
    the server closes), then answer ``status`` with ``headers`` and ``body`` (for a
    200 without a body: a valid chat completion; otherwise an OpenAI-style error)."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | None = None
    hang: float = 0.0


OK = Reply()


def error_reply(
    status: int, message: str = "injected fault", *, code: str | None = None, **headers: str
) -> Reply:
    body = {"error": {"message": message, "type": "injected", "code": code, "param": None}}
    return Reply(status, {k.replace("_", "-"): v for k, v in headers.items()}, body)


def chat_completion(model: str, content: str) -> dict[str, Any]:
    """The fields the SDK reads from a ``chat.completion`` object."""
    return {
        "id": "chatcmpl-fault-1",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
    }


@dataclass(frozen=True)
class Seen:
    """One request as it arrived on the wire."""

    path: str
    body: dict[str, Any]
    headers: dict[str, str]

    @property
    def mode(self) -> str | None:
        response_format = self.body.get("response_format") or {}
        kind = response_format.get("type")
        return kind if isinstance(kind, str) else None


class FaultServer:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 that plays a script of replies
    (then ``then`` forever) and records every request it receives."""

    def __init__(self, script: Sequence[Reply], then: Reply) -> None:
        self._script = deque(script)
        self._then = then
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self.requests: list[Seen] = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        assert host == "127.0.0.1"
        return f"http://127.0.0.1:{port!s}/v1"

    @property
    def chat_requests(self) -> list[Seen]:
        with self._lock:
            return [r for r in self.requests if r.path == "/v1/chat/completions"]

    def close(self) -> None:
        self._closing.set()  # wakes hanging handlers at once
        self._httpd.shutdown()
        self._httpd.server_close()  # joins the handler threads
        self._thread.join(timeout=10)

    def _next(self, seen: Seen) -> Reply:
        with self._lock:
            self.requests.append(seen)
            return self._script.popleft() if self._script else self._then

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                body = json.loads(raw or b"{}")
                seen = Seen(self.path, body, {k.lower(): v for k, v in self.headers.items()})
                if self.path != "/v1/chat/completions":
                    self._send(404, {}, {"error": {"message": f"no route {self.path}"}})
                    return
                reply = server._next(seen)
                if reply.hang:
                    server._closing.wait(reply.hang)
                payload = reply.body
                if payload is None:
                    payload = chat_completion(str(body.get("model")), '{"ok": true}')
                self._send(reply.status, reply.headers, payload)

            def _send(self, status: int, headers: dict[str, str], payload: object) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up on a hung request

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


@pytest.fixture
def fault_server() -> Iterator[Callable[..., FaultServer]]:
    """``fault_server(reply, ..., then=OK)`` starts a server; all are closed afterwards."""
    started: list[FaultServer] = []

    def start(*script: Reply, then: Reply = OK) -> FaultServer:
        server = FaultServer(script, then)
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()


class Sleeper:
    """An injected ``sleep`` that records the delays and does not wait."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        await asyncio.sleep(0)


def seeded(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 (jitter, not cryptography)


def backend_for(
    server: FaultServer,
    sleeper: Sleeper,
    *,
    max_attempts: int = 5,
    timeout: float = 10.0,
    api_key: str | None = SECRET,
    structured_mode: StructuredMode | None = None,
    on_retry: Callable[[RetryEvent], None] | None = None,
) -> OpenAIBackend:
    policy = RetryPolicy(
        max_attempts=max_attempts,
        base_delay=0.01,
        max_delay=0.05,
        retry_after_cap=60.0,
        sleep=sleeper,
        rand=seeded(0).random,
    )
    return OpenAIBackend(
        "fault-model",
        base_url=server.url,
        api_key=api_key,
        retry=policy,
        timeout=timeout,
        structured_mode=structured_mode,
        on_retry=on_retry,
    )


def run(backend: OpenAIBackend, schema: OutputSpec | None = None) -> str:
    completion = asyncio.run(backend.generate(ASK, schema=schema, settings=SETTINGS))
    return completion.text


def assert_sdk_did_not_retry(server: FaultServer) -> None:
    # The SDK numbers its own retries in this header: every request is a first try.
    assert all(r.headers.get("x-stainless-retry-count") == "0" for r in server.chat_requests)


# --- on the wire ---------------------------------------------------------------------


def test_429_with_retry_after_is_honoured(fault_server: Callable[..., FaultServer]) -> None:
    server = fault_server(error_reply(429, "slow down", retry_after="1"))
    sleeper = Sleeper()
    seen: list[RetryEvent] = []
    backend = backend_for(server, sleeper, on_retry=seen.append)
    assert run(backend) == '{"ok": true}'
    assert len(server.chat_requests) == 2
    assert_sdk_did_not_retry(server)
    assert sleeper.delays == [1.0]  # the server's value, not the 0.01 s backoff
    assert backend.retries == (
        RetryEvent(
            attempt=1, reason="HTTP 429 (rate limited)", delay=1.0, status=429, retry_after=1.0
        ),
    )
    assert seen == list(backend.retries)
    assert backend.retry_count == 1


def test_500_then_success(fault_server: Callable[..., FaultServer]) -> None:
    server = fault_server(error_reply(500))
    sleeper = Sleeper()
    backend = backend_for(server, sleeper)
    assert run(backend)
    assert len(server.chat_requests) == 2
    assert [e.reason for e in backend.retries] == ["HTTP 500 (server error)"]
    assert 0.005 < sleeper.delays[0] <= 0.01  # base_delay, half of it jittered


def test_503_twice_then_success_backs_off(fault_server: Callable[..., FaultServer]) -> None:
    server = fault_server(error_reply(503), error_reply(503))
    sleeper = Sleeper()
    backend = backend_for(server, sleeper)
    assert run(backend)
    assert len(server.chat_requests) == 3
    assert_sdk_did_not_retry(server)
    assert [e.attempt for e in backend.retries] == [1, 2]
    assert [e.status for e in backend.retries] == [503, 503]
    assert 0.005 < sleeper.delays[0] <= 0.01
    assert 0.01 < sleeper.delays[1] <= 0.02  # doubled


def test_a_hang_times_out_and_is_retried(fault_server: Callable[..., FaultServer]) -> None:
    server = fault_server(Reply(hang=30.0))
    sleeper = Sleeper()
    backend = backend_for(server, sleeper, timeout=0.5)
    started = time.monotonic()
    assert run(backend)
    assert time.monotonic() - started < 10  # bounded by the timeout, not the 30 s hang
    assert len(server.chat_requests) == 2
    assert [e.reason for e in backend.retries] == ["timeout"]


def test_a_hang_on_every_attempt_gives_up_with_a_timeout_message(
    fault_server: Callable[..., FaultServer],
) -> None:
    server = fault_server(then=Reply(hang=30.0))
    backend = backend_for(server, Sleeper(), timeout=0.3, max_attempts=2)
    with pytest.raises(RetriesExhausted) as caught:
        run(backend)
    message = str(caught.value)
    assert message.startswith(f"timed out waiting for {server.url}: no answer within the 0.3 s")
    assert "gave up after 2 attempts" in message
    assert len(server.chat_requests) == 2


def test_401_fails_at_once_and_names_the_key(fault_server: Callable[..., FaultServer]) -> None:
    # OpenAI's 401 text quotes part of the key; it must not reach the message.
    server = fault_server(then=error_reply(401, f"Incorrect API key provided: {SECRET}"))
    sleeper = Sleeper()
    backend = backend_for(server, sleeper)
    with pytest.raises(BackendError, match="rejected the API key") as caught:
        run(backend)
    assert not isinstance(caught.value, RetriesExhausted)
    assert "check OPENAI_API_KEY" in str(caught.value)
    assert SECRET not in str(caught.value)
    assert len(server.chat_requests) == 1
    assert sleeper.delays == []
    assert backend.retry_count == 0

    # A structured first call (probing) is no different: a 401 rejects no mode.
    with pytest.raises(BackendError, match="rejected the API key"):
        run(backend, SHAPE)
    assert len(server.chat_requests) == 2
    assert backend.structured_mode is None


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (error_reply(404, "The model does not exist", code="model_not_found"), "check the model"),
        (error_reply(400, "max_tokens is too large"), "HTTP 400: max_tokens is too large"),
        (error_reply(403, "not allowed"), "refused access"),
        (error_reply(422, "bad field"), "HTTP 422: bad field"),
    ],
)
def test_client_errors_fail_at_once(
    fault_server: Callable[..., FaultServer], reply: Reply, expected: str
) -> None:
    server = fault_server(then=reply)
    backend = backend_for(server, Sleeper())
    with pytest.raises(BackendError, match=expected):
        run(backend)
    assert len(server.chat_requests) == 1


def test_429_forever_gives_up_after_max_attempts(
    fault_server: Callable[..., FaultServer],
) -> None:
    server = fault_server(then=error_reply(429, f"rate limited for key {SECRET}"))
    sleeper = Sleeper()
    backend = backend_for(server, sleeper, max_attempts=4)
    with pytest.raises(RetriesExhausted) as caught:
        run(backend)
    assert len(server.chat_requests) == 4
    assert_sdk_did_not_retry(server)
    assert len(sleeper.delays) == 3
    error = caught.value
    assert error.attempts == 4
    assert len(error.retries) == 3
    assert error.spec == backend.spec
    assert error.__cause__ is None  # the SDK error may quote the key: not chained
    message = str(error)
    assert f"{server.url} answered HTTP 429" in message
    assert "gave up after 4 attempts (3 retries" in message
    assert SECRET not in message


def test_retry_after_over_the_cap_gives_up_at_once(
    fault_server: Callable[..., FaultServer],
) -> None:
    server = fault_server(then=error_reply(429, "quota", retry_after="3600"))
    sleeper = Sleeper()
    backend = backend_for(server, sleeper)
    with pytest.raises(RetryAfterTooLong) as caught:
        run(backend)
    assert len(server.chat_requests) == 1
    assert sleeper.delays == []
    assert caught.value.retry_after == 3600.0
    message = str(caught.value)
    assert "asked to wait 3600 s before retrying (Retry-After)" in message
    assert "60 s this backend waits at most" in message


def test_retry_after_as_an_http_date(fault_server: Callable[..., FaultServer]) -> None:
    in_two_hours = email.utils.formatdate(time.time() + 7200, usegmt=True)
    server = fault_server(then=error_reply(503, "maintenance", retry_after=in_two_hours))
    backend = backend_for(server, Sleeper())
    with pytest.raises(RetryAfterTooLong, match=r"asked to wait 7[12]\d\d s"):
        run(backend)
    assert len(server.chat_requests) == 1


def test_a_rejected_mode_costs_one_request_while_probing(
    fault_server: Callable[..., FaultServer],
) -> None:
    # A 500 to json_schema is "not supported" while probing: no retry, next mode.
    server = fault_server(error_reply(500, "unsupported response_format"))
    backend = backend_for(server, Sleeper())
    assert json.loads(run(backend, SHAPE)) == {"ok": True}
    assert [r.mode for r in server.chat_requests] == ["json_schema", "json_object"]
    assert backend.structured_mode == "json_object"
    assert backend.retry_count == 0

    # Once the mode is known, a 500 is an ordinary server error and is retried.
    server_2 = fault_server(error_reply(500))
    known = backend_for(server_2, Sleeper(), structured_mode="json_object")
    assert run(known, SHAPE)
    assert [r.mode for r in server_2.chat_requests] == ["json_object", "json_object"]
    assert known.retry_count == 1


def test_a_transient_failure_while_probing_is_retried_in_the_same_mode(
    fault_server: Callable[..., FaultServer],
) -> None:
    server = fault_server(error_reply(503), error_reply(429, retry_after="2"))
    sleeper = Sleeper()
    backend = backend_for(server, sleeper)
    assert run(backend, SHAPE)
    assert [r.mode for r in server.chat_requests] == ["json_schema"] * 3
    assert backend.structured_mode == "json_schema"
    assert sleeper.delays[1] == 2.0


def test_probing_that_runs_out_of_retries_learns_nothing(
    fault_server: Callable[..., FaultServer],
) -> None:
    server = fault_server(then=error_reply(503))
    backend = backend_for(server, Sleeper(), max_attempts=3)
    with pytest.raises(RetriesExhausted, match="HTTP 503"):
        run(backend, SHAPE)
    assert [r.mode for r in server.chat_requests] == ["json_schema"] * 3
    assert backend.structured_mode is None


@pytest.mark.timing
def test_dead_endpoint_is_retried_then_reported() -> None:
    with ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler) as closed:
        port = closed.server_address[1]
    url = f"http://127.0.0.1:{port!s}/v1"
    sleeper = Sleeper()
    policy = RetryPolicy(max_attempts=3, base_delay=0.01, sleep=sleeper)
    backend = OpenAIBackend("m", base_url=url, api_key=SECRET, retry=policy)
    with pytest.raises(RetriesExhausted) as caught:
        run(backend)
    assert str(caught.value).startswith(f"cannot reach {url}: is the server running")
    assert [e.reason for e in backend.retries] == ["connection error"] * 2
    assert SECRET not in str(caught.value)


def test_backend_rejects_a_bad_timeout() -> None:
    with pytest.raises(ConfigError, match="timeout"):
        OpenAIBackend("m", base_url="http://127.0.0.1:9/v1", timeout=0)


def test_backend_defaults() -> None:
    backend = OpenAIBackend("m", base_url="http://127.0.0.1:9/v1")
    assert backend.retry_policy == RetryPolicy()
    assert backend.timeout == 120.0
    assert backend._client.max_retries == 0


# --- the policy in isolation ---------------------------------------------------------


def status_error(status: int, headers: dict[str, str] | None = None) -> openai.APIStatusError:
    request = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx2.Response(status, headers=headers or {}, request=request)
    return openai.APIStatusError(f"HTTP {status}", response=response, body=None)


def connection_error(cause: Exception) -> openai.APIConnectionError:
    request = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    try:
        raise openai.APIConnectionError(request=request) from cause
    except openai.APIConnectionError as exc:
        return exc


@pytest.mark.parametrize(
    ("status", "retryable"),
    [
        (408, True),
        (409, True),
        (429, True),
        (500, True),
        (501, True),
        (502, True),
        (503, True),
        (504, True),
        (599, True),
        (400, False),
        (401, False),
        (403, False),
        (404, False),
        (422, False),
        (200, False),
    ],
)
def test_retryable_status(status: int, retryable: bool) -> None:
    assert retryable_status(status) is retryable
    assert classify_error(status_error(status)).retryable is retryable


def test_classify_error() -> None:
    request = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    assert classify_error(status_error(429, {"Retry-After": "2"})) == Failure(
        True, "HTTP 429 (rate limited)", status=429, retry_after=2.0
    )
    assert classify_error(status_error(401, {"Retry-After": "2"})) == Failure(
        False, "HTTP 401", status=401
    )
    assert classify_error(openai.APITimeoutError(request)) == Failure(True, "timeout")
    assert classify_error(TimeoutError()) == Failure(True, "timeout")
    assert classify_error(httpx2.ReadTimeout("slow")) == Failure(True, "timeout")
    refused = connection_error(httpx2.ConnectError("refused"))
    assert classify_error(refused) == Failure(True, "connection error")
    assert classify_error(ConnectionResetError()) == Failure(True, "connection error")
    bad_scheme = connection_error(httpx2.UnsupportedProtocol("ftp"))
    assert classify_error(bad_scheme) == Failure(False, "invalid URL")
    assert classify_error(ValueError("bug")) == Failure(False, "ValueError")


def test_parse_retry_after() -> None:
    assert parse_retry_after({"Retry-After": "2"}) == 2.0
    assert parse_retry_after({"retry-after": " 1.5 "}) == 1.5
    assert parse_retry_after({"retry-after": "-3"}) == 0.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after-ms": "soon", "retry-after": "9"}) == 9.0
    assert parse_retry_after({"retry-after": "1e999"}) == float("inf")
    assert parse_retry_after({"retry-after": "nan"}) is None
    assert parse_retry_after({"retry-after": "whenever"}) is None
    assert parse_retry_after({}) is None
    now = 1_700_000_000.0
    in_90_s = email.utils.formatdate(now + 90, usegmt=True)
    assert parse_retry_after({"Retry-After": in_90_s}, now=lambda: now) == 90.0
    long_ago = email.utils.formatdate(now - 90, usegmt=True)
    assert parse_retry_after({"Retry-After": long_ago}, now=lambda: now) == 0.0
    assert parse_retry_after(httpx2.Headers({"RETRY-AFTER": "4"})) == 4.0


def test_backoff_without_jitter_doubles_up_to_the_cap() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=3.0, jitter=0.0)
    assert [policy.backoff(n) for n in range(1, 6)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert policy.backoff(10_000) == 3.0  # no overflow


def test_backoff_jitter_is_seeded_and_bounded() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=30.0, jitter=0.5, rand=seeded(42).random)
    draws = seeded(42)
    expected = [min(2.0 ** (n - 1), 30.0) * (1 - 0.5 * draws.random()) for n in range(1, 8)]
    delays = [policy.backoff(n) for n in range(1, 8)]
    assert delays == expected
    for n, delay in enumerate(delays, start=1):
        ceiling = min(2.0 ** (n - 1), 30.0)
        assert ceiling * 0.5 < delay <= ceiling

    full = RetryPolicy(base_delay=1.0, jitter=1.0, rand=lambda: 0.999)
    assert full.backoff(1) == pytest.approx(0.001)


def test_retry_after_replaces_the_backoff() -> None:
    policy = RetryPolicy(base_delay=0.5, jitter=0.5, rand=seeded(1).random)
    assert policy.delay(1, retry_after=7.0) == 7.0
    assert policy.delay(3, retry_after=0.0) == 0.0
    assert 1.0 < policy.delay(3) <= 2.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_attempts": 0},
        {"base_delay": -1.0},
        {"max_delay": float("inf")},
        {"retry_after_cap": float("nan")},
        {"jitter": 1.5},
    ],
)
def test_policy_validation(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        RetryPolicy(**kwargs)


def test_format_seconds() -> None:
    assert format_seconds(3600) == "3600 s"
    assert format_seconds(1.5) == "1.5 s"
    assert format_seconds(0.3) == "0.3 s"
    assert format_seconds(float("inf")) == "an unbounded time"


class Flaky:
    """An attempt function that raises the given errors in turn, then returns "done"."""

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "done"


def fast_policy(sleeper: Sleeper, **kwargs: Any) -> RetryPolicy:
    return RetryPolicy(base_delay=0.01, jitter=0.0, sleep=sleeper, **kwargs)


def test_call_with_retries_reports_every_retry() -> None:
    sleeper = Sleeper()
    events: list[RetryEvent] = []
    attempt = Flaky(status_error(503), TimeoutError(), status_error(429, {"retry-after": "3"}))
    result = asyncio.run(call_with_retries(attempt, fast_policy(sleeper), on_retry=events.append))
    assert result == "done"
    assert attempt.calls == 4
    assert events == [
        RetryEvent(1, "HTTP 503 (server error)", 0.01, status=503),
        RetryEvent(2, "timeout", 0.02),
        RetryEvent(3, "HTTP 429 (rate limited)", 3.0, status=429, retry_after=3.0),
    ]
    assert sleeper.delays == [0.01, 0.02, 3.0]


def test_call_with_retries_raises_a_permanent_failure_unchanged() -> None:
    sleeper = Sleeper()
    error = status_error(401)
    attempt = Flaky(status_error(500), error)
    with pytest.raises(openai.APIStatusError) as caught:
        asyncio.run(call_with_retries(attempt, fast_policy(sleeper)))
    assert caught.value is error
    assert attempt.calls == 2
    assert len(sleeper.delays) == 1


def test_call_with_retries_gives_up_after_max_attempts() -> None:
    sleeper = Sleeper()
    errors = [status_error(502) for _ in range(10)]
    attempt = Flaky(*errors)
    with pytest.raises(RetriesExhausted) as caught:
        asyncio.run(call_with_retries(attempt, fast_policy(sleeper, max_attempts=3)))
    assert attempt.calls == 3
    assert caught.value.attempts == 3
    assert caught.value.__cause__ is errors[2]
    assert [e.attempt for e in caught.value.retries] == [1, 2]
    assert (
        str(caught.value)
        == "gave up after 3 attempts; the last failed with HTTP 502 (server error)"
    )


def test_one_attempt_means_no_retries() -> None:
    attempt = Flaky(TimeoutError())
    with pytest.raises(RetriesExhausted, match="gave up after 1 attempt;"):
        asyncio.run(call_with_retries(attempt, fast_policy(Sleeper(), max_attempts=1)))
    assert attempt.calls == 1


def test_retry_after_over_the_cap_is_not_slept() -> None:
    sleeper = Sleeper()
    attempt = Flaky(status_error(429, {"retry-after": "61"}))
    with pytest.raises(RetryAfterTooLong) as caught:
        asyncio.run(call_with_retries(attempt, fast_policy(sleeper, retry_after_cap=60.0)))
    assert attempt.calls == 1
    assert sleeper.delays == []
    assert "asked to wait 61 s before retrying (Retry-After), more than the 60 s cap" in str(
        caught.value
    )
    # Exactly at the cap is honoured.
    at_cap = Flaky(status_error(429, {"retry-after": "60"}))
    assert asyncio.run(call_with_retries(at_cap, fast_policy(sleeper, retry_after_cap=60.0)))
    assert sleeper.delays == [60.0]


def test_cancellation_is_never_retried() -> None:
    class Cancelled:
        calls = 0

        async def __call__(self) -> str:
            self.calls += 1
            raise asyncio.CancelledError

    attempt = Cancelled()

    async def scenario() -> None:
        with pytest.raises(asyncio.CancelledError):
            await call_with_retries(attempt, fast_policy(Sleeper()))

    asyncio.run(scenario())
    assert attempt.calls == 1


# --- a refused schema falls back, for that schema only -------------------------------

PINNED = OutputSpec(
    name="pinned",
    json_schema={
        "type": "object",
        "properties": {"ok": {"type": "array", "prefixItems": [{"type": "boolean"}]}},
        "required": ["ok"],
    },
)
REFUSAL = "JSON schema error at #/properties/ok/items: schema must be an object"


def generate_all(backend: OpenAIBackend, *schemas: OutputSpec) -> list[Completion]:
    async def scenario() -> list[Completion]:
        return [await backend.generate(ASK, schema=s, settings=SETTINGS) for s in schemas]

    return asyncio.run(scenario())


def test_a_refused_schema_falls_back_for_that_schema_only(
    fault_server: Callable[..., FaultServer],
) -> None:
    server = fault_server(OK, error_reply(400, REFUSAL))
    backend = backend_for(server, Sleeper())
    shape, pinned, pinned_again, shape_again = generate_all(backend, SHAPE, PINNED, PINNED, SHAPE)
    assert [r.mode for r in server.chat_requests] == [
        "json_schema",  # SHAPE: the server's mode
        "json_schema",  # PINNED: refused with 400 ...
        "json_object",  # ... and sent as json_object instead
        "json_object",  # PINNED again: straight to its own mode
        "json_schema",  # SHAPE is not affected
    ]
    assert backend.structured_mode == "json_schema"
    assert backend.mode_for(PINNED) == "json_object"
    assert backend.retry_count == 0
    assert (shape.structured_mode, shape.fallback) == ("json_schema", None)
    assert shape_again.fallback is None
    fallback = ModeFallback("json_object", ("json_schema",), f"HTTP 400: {REFUSAL}")
    assert (pinned.structured_mode, pinned.fallback) == ("json_object", fallback)
    assert pinned_again.fallback == fallback
    # json_object carries the schema in the prompt as well
    assert "pinned" not in json.dumps(server.chat_requests[0].body["messages"])
    assert '"prefixItems"' in server.chat_requests[2].body["messages"][-1]["content"]


def test_a_schema_refused_in_every_mode_is_described_in_the_prompt(
    fault_server: Callable[..., FaultServer],
) -> None:
    server = fault_server(OK, error_reply(400, REFUSAL), error_reply(422, "bad schema"))
    backend = backend_for(server, Sleeper())
    _, pinned = generate_all(backend, SHAPE, PINNED)
    assert [r.mode for r in server.chat_requests] == [
        "json_schema",
        "json_schema",
        "json_object",
        None,
    ]
    assert pinned.structured_mode == "prompt"
    assert pinned.fallback == ModeFallback(
        "prompt", ("json_schema", "json_object"), "HTTP 422: bad schema"
    )
    assert '"prefixItems"' in server.chat_requests[3].body["messages"][-1]["content"]


def test_a_500_for_a_new_schema_is_retried_before_it_counts_as_a_refusal(
    fault_server: Callable[..., FaultServer],
) -> None:
    server = fault_server(OK, *[error_reply(500, "grammar failed")] * 3)
    backend = backend_for(server, Sleeper(), max_attempts=3)
    _, pinned = generate_all(backend, SHAPE, PINNED)
    assert [r.mode for r in server.chat_requests] == ["json_schema"] * 4 + ["json_object"]
    assert backend.retry_count == 2
    assert pinned.fallback == ModeFallback(
        "json_object", ("json_schema",), "HTTP 500: grammar failed"
    )


@pytest.mark.parametrize(
    "transient", [error_reply(500), error_reply(503), error_reply(429, retry_after="1")]
)
def test_a_transient_error_for_a_new_schema_is_only_retried(
    fault_server: Callable[..., FaultServer], transient: Reply
) -> None:
    server = fault_server(OK, transient)
    backend = backend_for(server, Sleeper())
    _, pinned = generate_all(backend, SHAPE, PINNED)
    assert [r.mode for r in server.chat_requests] == ["json_schema"] * 3
    assert (pinned.structured_mode, pinned.fallback) == ("json_schema", None)
    assert backend.retry_count == 1


def test_a_mode_refused_for_two_schemas_and_never_accepted_is_dropped(
    fault_server: Callable[..., FaultServer],
) -> None:
    # llama-cpp-python's server: json_schema is answered with 500 whatever the schema
    unsupported = error_reply(500, "unsupported response_format")
    server = fault_server(unsupported, OK, unsupported, OK)
    backend = backend_for(server, Sleeper())
    third = OutputSpec("third", {**SHAPE.json_schema, "title": "third"})
    replies = generate_all(backend, SHAPE, PINNED, third)
    assert [r.mode for r in server.chat_requests] == [
        "json_schema",
        "json_object",
        "json_schema",
        "json_object",
        "json_object",  # json_schema is not tried a third time
    ]
    # the server's mode was found, nothing fell back: no fallback is reported
    assert backend.structured_mode == "json_object"
    assert [(c.structured_mode, c.fallback) for c in replies] == [("json_object", None)] * 3
    assert backend.retry_count == 0


def test_a_schema_answered_once_is_past_negotiation(
    fault_server: Callable[..., FaultServer],
) -> None:
    server = fault_server(OK, error_reply(400, "max_tokens is too large"))
    backend = backend_for(server, Sleeper())
    generate_all(backend, SHAPE)
    with pytest.raises(BackendError, match="HTTP 400: max_tokens is too large"):
        generate_all(backend, SHAPE)
    assert [r.mode for r in server.chat_requests] == ["json_schema", "json_schema"]
