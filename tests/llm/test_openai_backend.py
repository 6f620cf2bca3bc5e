"""OpenAIBackend against real OpenAI-compatible servers on loopback: llama.cpp's own
(the code of ``llama-server``, from xllamacpp's wheel), which enforces ``json_schema``;
and llama-cpp-python's, which answers it with HTTP 500 and enforces ``json_object``
(where that optional runtime is installed)."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable

import httpx2
import pytest

from conftest import ServedLlama
from moot.errors import BackendError, ConfigError
from moot.llm.backend import resolve_backend
from moot.llm.openai import NO_KEY_PLACEHOLDER, OpenAIBackend
from moot.llm.retry import RetryPolicy
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec

SECRET = "sk-test-do-not-leak-0123456789"  # noqa: S105 (a fake key, checked for leaks)
GREEDY = GenerationSettings(temperature=0.0, max_tokens=48, seed=7)

# A value a 135M model would never write unprompted, and an exact shape.
ZEBRA = OutputSpec(
    name="zebra",
    json_schema={
        "type": "object",
        "properties": {"animal": {"type": "string", "enum": ["zebra-42"]}},
        "required": ["animal"],
        "additionalProperties": False,
    },
)
ZEBRA_REPLY = {"animal": "zebra-42"}
ASK_ANIMAL = [Message("user", "Name one animal that lives in Africa.")]
CONTEXT = CallContext(role="pro", round="opening", lang="en")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


class RecordingTransport(httpx2.AsyncBaseTransport):
    """Sends for real and records (response_format type, HTTP status) per chat request."""

    def __init__(self) -> None:
        self._inner = httpx2.AsyncHTTPTransport()
        self.chat_calls: list[tuple[str | None, int]] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        if request.url.path.endswith("/chat/completions"):
            response_format = json.loads(request.content).get("response_format") or {}
            self.chat_calls.append((response_format.get("type"), response.status_code))
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


def closed_port_url() -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def generate(
    backend: OpenAIBackend,
    messages: list[Message],
    *,
    schema: OutputSpec | None,
    settings: GenerationSettings,
    context: CallContext | None = None,
) -> Completion:
    """One call in a fresh event loop (no pytest-asyncio here)."""
    return asyncio.run(
        backend.generate(messages, schema=schema, settings=settings, context=context)
    )


def test_plain_reply(llama_server: str) -> None:
    backend = OpenAIBackend(model="smollm2", base_url=llama_server)
    completion = generate(
        backend, [Message("user", "Say hello.")], schema=None, settings=GREEDY, context=CONTEXT
    )
    assert completion.text.strip()
    assert completion.finish_reason in ("stop", "length")
    assert completion.usage.prompt_tokens > 0
    assert completion.usage.completion_tokens > 0
    assert completion.model == f"openai:smollm2@{llama_server}"
    assert backend.structured_mode is None  # plain calls do not probe


def test_schema_is_enforced_by_the_server(llama_server: str) -> None:
    backend = OpenAIBackend(model="smollm2", base_url=llama_server)
    completion = generate(backend, ASK_ANIMAL, schema=ZEBRA, settings=GREEDY, context=CONTEXT)
    assert json.loads(completion.text) == ZEBRA_REPLY
    assert completion.finish_reason == "stop"
    assert backend.structured_mode == "json_schema"

    # Control: the same prompt (schema instruction included) with nothing enforcing
    # it. The model does not produce the reply on its own (it echoes the schema).
    prompt_only = OpenAIBackend(model="smollm2", base_url=llama_server, structured_mode="prompt")
    control = generate(prompt_only, ASK_ANIMAL, schema=ZEBRA, settings=GREEDY, context=CONTEXT)
    try:
        unconstrained = json.loads(control.text)
    except ValueError:
        unconstrained = None
    assert unconstrained != ZEBRA_REPLY, control.text


def test_mode_is_discovered_once_with_one_request_per_mode(llama_server: str) -> None:
    transport = RecordingTransport()

    async def scenario() -> list[Completion]:
        async with httpx2.AsyncClient(transport=transport) as http_client:
            backend = OpenAIBackend(model="smollm2", base_url=llama_server, http_client=http_client)
            first = await backend.generate(ASK_ANIMAL, schema=ZEBRA, settings=GREEDY)
            # llama.cpp's server enforces json_schema: the first mode tried is kept
            assert transport.chat_calls == [("json_schema", 200)]
            assert backend.structured_mode == "json_schema"
            second = await backend.generate(ASK_ANIMAL, schema=ZEBRA, settings=GREEDY)
            plain = await backend.generate(ASK_ANIMAL, schema=None, settings=GREEDY)
            return [first, second, plain]

    first, second, plain = asyncio.run(scenario())
    assert transport.chat_calls == [("json_schema", 200), ("json_schema", 200), (None, 200)]
    assert json.loads(first.text) == ZEBRA_REPLY
    assert json.loads(second.text) == ZEBRA_REPLY
    assert plain.text


def test_a_refused_mode_is_probed_once_then_the_next_is_kept(llama_cpp_python_server: str) -> None:
    transport = RecordingTransport()

    async def scenario() -> list[Completion]:
        async with httpx2.AsyncClient(transport=transport) as http_client:
            backend = OpenAIBackend(
                model="smollm2", base_url=llama_cpp_python_server, http_client=http_client
            )
            first = await backend.generate(ASK_ANIMAL, schema=ZEBRA, settings=GREEDY)
            # llama-cpp-python's server answers json_schema with HTTP 500; the probe is
            # not retried, json_object is tried next, and it is kept.
            assert transport.chat_calls == [("json_schema", 500), ("json_object", 200)]
            assert backend.structured_mode == "json_object"
            second = await backend.generate(ASK_ANIMAL, schema=ZEBRA, settings=GREEDY)
            plain = await backend.generate(ASK_ANIMAL, schema=None, settings=GREEDY)
            return [first, second, plain]

    first, second, plain = asyncio.run(scenario())
    assert transport.chat_calls == [
        ("json_schema", 500),
        ("json_object", 200),
        ("json_object", 200),
        (None, 200),
    ]
    assert json.loads(first.text) == ZEBRA_REPLY
    assert json.loads(second.text) == ZEBRA_REPLY
    assert plain.text


def test_concurrent_first_calls_probe_once(llama_cpp_python_server: str) -> None:
    # needs a server that refuses the first mode (llama-cpp-python's); the refusal
    # without a real server is tests/llm/test_retry.py's fault server
    transport = RecordingTransport()

    async def scenario() -> None:
        async with httpx2.AsyncClient(transport=transport) as http_client:
            backend = OpenAIBackend(
                model="smollm2", base_url=llama_cpp_python_server, http_client=http_client
            )
            replies = await asyncio.gather(
                *(backend.generate(ASK_ANIMAL, schema=ZEBRA, settings=GREEDY) for _ in range(3))
            )
            assert all(json.loads(r.text) == ZEBRA_REPLY for r in replies)

    asyncio.run(scenario())
    assert transport.chat_calls.count(("json_schema", 500)) == 1
    assert transport.chat_calls.count(("json_object", 200)) == 3


def test_concurrent_calls_on_llama_cpps_server_are_each_enforced(llama_server: str) -> None:
    transport = RecordingTransport()

    async def scenario() -> None:
        async with httpx2.AsyncClient(transport=transport) as http_client:
            backend = OpenAIBackend(model="smollm2", base_url=llama_server, http_client=http_client)
            replies = await asyncio.gather(
                *(backend.generate(ASK_ANIMAL, schema=ZEBRA, settings=GREEDY) for _ in range(3))
            )
            assert all(json.loads(r.text) == ZEBRA_REPLY for r in replies)

    asyncio.run(scenario())
    assert transport.chat_calls == [("json_schema", 200)] * 3


def test_backend_works_across_event_loops(llama_server: str) -> None:
    # run_debate calls asyncio.run each time; a backend may outlive one loop.
    backend = OpenAIBackend(model="smollm2", base_url=llama_server)
    for _ in range(2):
        reply = generate(backend, ASK_ANIMAL, schema=ZEBRA, settings=GREEDY)
        assert json.loads(reply.text) == ZEBRA_REPLY


def test_length_finish_reason(llama_server: str) -> None:
    backend = OpenAIBackend(model="smollm2", base_url=llama_server)
    settings = GenerationSettings(temperature=0.0, max_tokens=2, seed=1)
    completion = generate(
        backend,
        [Message("user", "Write a long story about the sea.")],
        schema=None,
        settings=settings,
    )
    assert completion.finish_reason == "length"
    assert completion.usage.completion_tokens == 2


@pytest.mark.timing
def test_dead_endpoint_is_a_helpful_backend_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    url = closed_port_url()
    backend = OpenAIBackend(model="smollm2", base_url=url, retry=RetryPolicy(base_delay=0.01))
    with pytest.raises(BackendError) as caught:
        generate(backend, ASK_ANIMAL, schema=ZEBRA, settings=GREEDY)
    message = str(caught.value)
    assert caught.value.__cause__ is None  # the SDK's error (which may quote the key) is cut off
    assert f"cannot reach {url}" in message
    assert "server running" in message
    assert SECRET not in message
    assert caught.value.spec == f"openai:smollm2@{url}"
    assert backend.structured_mode is None  # nothing was learned


def test_wrong_api_root_is_a_404_hint(llama_server: str) -> None:
    root = llama_server.removesuffix("/v1")
    backend = OpenAIBackend(model="smollm2", base_url=f"{root}/not-the-api")
    with pytest.raises(BackendError, match=r"HTTP 404 for model 'smollm2'.*ending in /v1"):
        generate(backend, ASK_ANIMAL, schema=None, settings=GREEDY)


def test_rejected_key_never_appears_in_the_error(
    llama_server_factory: Callable[..., ServedLlama], monkeypatch: pytest.MonkeyPatch
) -> None:
    keyed = llama_server_factory(api_key="the-right-key").base_url
    monkeypatch.setenv("MOOT_TEST_KEY", SECRET)
    backend = resolve_backend(f"openai:smollm2@{keyed}#MOOT_TEST_KEY")
    assert isinstance(backend, OpenAIBackend)
    with pytest.raises(BackendError, match="rejected the API key") as caught:
        generate(backend, ASK_ANIMAL, schema=ZEBRA, settings=GREEDY)
    assert SECRET not in str(caught.value)
    assert backend.structured_mode is None  # a 401 is not a response_format rejection

    keyless = OpenAIBackend(model="smollm2", base_url=keyed)
    with pytest.raises(BackendError, match="none was sent"):
        generate(keyless, ASK_ANIMAL, schema=None, settings=GREEDY)

    right = OpenAIBackend(model="smollm2", base_url=keyed, api_key="the-right-key")
    assert generate(right, ASK_ANIMAL, schema=None, settings=GREEDY).text


def test_no_key_and_no_base_url_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="set OPENAI_API_KEY"):
        OpenAIBackend(model="gpt-4o-mini")
    with pytest.raises(ConfigError, match="set OPENAI_API_KEY"):
        resolve_backend("openai:gpt-4o-mini")


def test_empty_model_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="model name"):
        OpenAIBackend(model=" ", base_url="http://127.0.0.1:1/v1")


def test_spec_base_url_and_key_resolution(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    cloud = OpenAIBackend(model="gpt-4o-mini")
    assert cloud.spec == "openai:gpt-4o-mini"
    assert cloud.base_url == "https://api.openai.com/v1"

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    from_env = OpenAIBackend(model="m")
    assert from_env.base_url == "http://127.0.0.1:9/v1"
    # the spec names the server really used, so the cache and resumes cannot mix servers
    assert from_env.spec == "openai:m@http://127.0.0.1:9/v1"
    assert from_env.endpoint == "http://127.0.0.1:9/v1"

    given = resolve_backend("openai:m@http://127.0.0.1:8/v1")
    assert isinstance(given, OpenAIBackend)
    assert given.base_url == "http://127.0.0.1:8/v1"  # the argument wins over the env
    assert given.spec == "openai:m@http://127.0.0.1:8/v1"
    assert all(SECRET not in b.spec for b in (cloud, from_env, given))


def test_openai_key_is_only_sent_where_it_belongs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert OpenAIBackend(model="m")._client.api_key == SECRET
    # another provider's server never receives the OpenAI key
    other = OpenAIBackend(model="m", base_url="https://api.deepseek.com/v1")
    assert other._client.api_key == NO_KEY_PLACEHOLDER
    # same host but plain http, or another port: not the same server
    assert OpenAIBackend(model="m", base_url="http://api.openai.com/v1")._client.api_key == (
        NO_KEY_PLACEHOLDER
    )
    assert OpenAIBackend(model="m", base_url="https://api.openai.com:8443/v1")._client.api_key == (
        NO_KEY_PLACEHOLDER
    )
    assert OpenAIBackend(model="m", base_url="https://api.openai.com/v1")._client.api_key == SECRET
    monkeypatch.setenv("DEEPSEEK_API_KEY", "ds-key")
    named = resolve_backend("openai:deepseek-chat@https://api.deepseek.com/v1#DEEPSEEK_API_KEY")
    assert isinstance(named, OpenAIBackend)
    assert named._client.api_key == "ds-key"
    assert named.spec == "openai:deepseek-chat@https://api.deepseek.com/v1#DEEPSEEK_API_KEY"
    # configured together, OPENAI_BASE_URL's server gets OPENAI_API_KEY
    monkeypatch.setenv("OPENAI_BASE_URL", "https://api.deepseek.com/v1")
    assert OpenAIBackend(model="m")._client.api_key == SECRET
    with pytest.raises(ConfigError, match="credentials"):
        OpenAIBackend(model="m", base_url="https://user:pw@example.com/v1")
    with pytest.raises(ConfigError, match="not set"):
        resolve_backend("openai:m@https://example.com/v1#NO_SUCH_KEY_VAR")


def test_local_server_needs_no_key() -> None:
    backend = OpenAIBackend(model="m", base_url="http://127.0.0.1:8/v1")
    assert backend.spec == "openai:m@http://127.0.0.1:8/v1"
    assert NO_KEY_PLACEHOLDER not in backend.spec
