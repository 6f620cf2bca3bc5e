"""What an OpenAI-compatible server serves: discovery (llama.cpp's /props and
/v1/models, Ollama's /api/show), the compact profile picked by itself for a small
model, and the context guard (a prompt longer than the server's context is never
sent; a reply that would overrun it is trimmed). The server tests run llama.cpp's own
server (the code of ``llama-server``, from xllamacpp's wheel) on loopback with a small
context."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx2
import pytest

import fake_transport  # noqa: F401  (asks Python's platform module once, at import)
from conftest import ServedLlama
from moot.errors import BackendError
from moot.llm.openai import OpenAIBackend
from moot.llm.served import (
    MIN_REPLY_TOKENS,
    ServedModel,
    discover_small_models,
    fit_reply,
    from_llama_cpp,
    from_ollama,
)
from moot.llm.types import GenerationSettings, Message
from moot.profiles import COMPACT, STANDARD, profile_for

SMOL = ServedModel(source="llama.cpp", n_params=134_515_008, n_ctx=8192, n_ctx_train=8192)
BIG = ServedModel(source="ollama", n_params=70_000_000_000, n_ctx=4096)


def test_llama_cpp_props_and_models_are_read() -> None:
    props = {"default_generation_settings": {"n_ctx": 4096}, "chat_template": "{{ x }}"}
    models = {"data": [{"id": "smollm2", "meta": {"n_params": 134515008, "n_ctx_train": 8192}}]}
    served = from_llama_cpp(props, models, "smollm2")
    assert served == ServedModel("llama.cpp", 134515008, 4096, 8192, "{{ x }}")
    assert served.small
    assert from_llama_cpp(None, {"data": [{"id": "gpt-4o"}]}, "gpt-4o") is None
    assert from_llama_cpp({"detail": "not found"}, None, "m") is None


def test_ollama_show_is_read() -> None:
    show = {
        "template": "{{ .Prompt }}",
        "parameters": 'stop "<|im_end|>"\nnum_ctx 2048',
        "model_info": {
            "general.architecture": "llama",
            "general.parameter_count": 134515008,
            "llama.context_length": 8192,
        },
    }
    served = from_ollama(show)
    assert served == ServedModel("ollama", 134515008, 2048, 8192, "{{ .Prompt }}")
    assert from_ollama({"error": "model not found"}) is None


def test_the_reply_is_trimmed_to_the_context_and_a_prompt_that_fills_it_is_refused() -> None:
    assert fit_reply(1000, 500, 4096) == 500
    assert fit_reply(3800, 500, 4096) == 296
    with pytest.raises(ValueError, match="context of 4096"):
        fit_reply(4096 - MIN_REPLY_TOKENS + 1, 500, 4096)


class _Served:
    def __init__(self, spec: str, served: ServedModel | None) -> None:
        self.spec = spec
        self._served = served
        self.asked = 0

    async def discover(self) -> ServedModel | None:
        self.asked += 1
        return self._served


def test_a_small_served_model_gets_the_compact_profile_by_itself_and_says_so() -> None:
    small = _Served("openai:smollm@http://127.0.0.1:8080/v1", SMOL)
    big = _Served("openai:llama-70b@http://127.0.0.1:11434/v1", BIG)
    backends: dict[str, Any] = {"pro": small, "con": small, "judge": big}
    roles, notes = asyncio.run(discover_small_models(backends, None, "en"))
    assert roles == {"pro", "con"}
    assert len(notes) == 1
    assert "compact profile" in notes[0]
    assert "135M parameters" in notes[0]
    _, notes_zh = asyncio.run(discover_small_models(backends, None, "zh"))
    assert "小模型" in notes_zh[0]
    assert profile_for(small.spec, small="pro" in roles) is COMPACT
    assert profile_for(big.spec, small="judge" in roles) is STANDARD
    # a profile given by the user wins, and nothing is asked
    asked = small.asked
    assert asyncio.run(discover_small_models(backends, "standard", "en")) == (set(), [])
    assert small.asked == asked


class _Recording(httpx2.AsyncBaseTransport):
    """Sends for real and records each request's path and JSON body."""

    def __init__(self) -> None:
        self._inner = httpx2.AsyncHTTPTransport()
        self.sent: list[tuple[str, Any]] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content) if request.content else None
        self.sent.append((request.url.path, body))
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


def test_discovery_and_the_context_guard_on_a_real_llama_server(
    llama_server_factory: Callable[..., ServedLlama],
) -> None:
    transport = _Recording()
    base_url = llama_server_factory(ctx_size=1024).base_url

    async def scenario() -> tuple[ServedModel | None, str, int]:
        async with httpx2.AsyncClient(transport=transport) as http_client:
            backend = OpenAIBackend(model="smollm2", base_url=base_url, http_client=http_client)
            served = await backend.discover()
            # about 1,800 tokens: more than the whole context; never sent
            too_long = [Message("user", "cats and dogs " * 600)]
            settings = GenerationSettings(temperature=0.0, max_tokens=16, seed=1)
            with pytest.raises(BackendError, match="context of") as refused:
                await backend.generate(too_long, schema=None, settings=settings)
            # about 600 tokens: fits, but not with 2,000 more for the reply
            fits = [Message("user", "Say something about cats and dogs. " * 60)]
            long_reply = GenerationSettings(temperature=0.0, max_tokens=2000, seed=1)
            reply = await backend.generate(fits, schema=None, settings=long_reply)
            return served, str(refused.value), reply.usage.prompt_tokens

    served, refused, prompt_tokens = asyncio.run(scenario())
    assert served is not None
    assert served.source == "llama.cpp"
    assert served.n_params is not None
    assert 100_000_000 < served.n_params < 200_000_000
    assert served.small
    assert served.n_ctx is not None
    assert 0 < served.n_ctx <= 1024
    assert served.n_ctx_train == 8192
    assert served.chat_template is not None
    assert "im_start" in served.chat_template
    assert "llama-server -c" in refused
    chats = [body for path, body in transport.sent if path.endswith("/chat/completions")]
    assert len(chats) == 1  # the prompt that did not fit was never sent
    assert "cats and dogs cats" not in json.dumps(chats)
    sent_max = chats[0]["max_tokens"]
    assert sent_max < 2000  # trimmed
    assert prompt_tokens + sent_max <= served.n_ctx


N_CTX = 1024


def _tokens(text: str) -> int:
    """The stand-in server's tokenizer: a token per word."""
    return len(text.split())


def _small_llama_server(sent: list[dict[str, Any]]) -> httpx2.MockTransport:
    """A llama.cpp server of a 135M model with a context of ``N_CTX`` that answers in
    process: discovery, ``/apply-template``, ``/tokenize``, and chat completions that
    refuse a prompt and reply longer than the context, as llama.cpp does (HTTP 400)."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        path = request.url.path
        body = json.loads(request.content) if request.content else {}
        if path == "/props":
            return httpx2.Response(200, json={"default_generation_settings": {"n_ctx": N_CTX}})
        if path == "/v1/models":
            meta = {"n_params": 134_515_008, "n_ctx_train": 8192}
            return httpx2.Response(200, json={"data": [{"id": "smollm", "meta": meta}]})
        if path == "/apply-template":
            text = "\n".join(m["content"] for m in body["messages"])
            return httpx2.Response(200, json={"prompt": text})
        if path == "/tokenize":
            return httpx2.Response(200, json={"tokens": [0] * _tokens(body["content"])})
        assert path == "/v1/chat/completions"
        sent.append(body)
        prompt = sum(_tokens(m["content"]) for m in body["messages"])
        if prompt + body["max_tokens"] > N_CTX:
            message = (
                f"request ({prompt} tokens) exceeds the available context size ({N_CTX} tokens)"
            )
            error = {"code": 400, "message": message, "type": "exceed_context_size_error"}
            return httpx2.Response(400, json={"error": error})
        choice = {
            "index": 0,
            "finish_reason": "stop",
            "message": {"role": "assistant", "content": "{}"},
        }
        usage = {"prompt_tokens": prompt, "completion_tokens": 1, "total_tokens": prompt + 1}
        return httpx2.Response(
            200,
            json={
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "smollm",
                "choices": [choice],
                "usage": usage,
            },
        )

    return httpx2.MockTransport(handle)


@pytest.mark.parametrize("mode", ["json_object", "prompt"])
def test_the_context_guard_measures_the_prompt_with_its_schema_as_sent(mode: str) -> None:
    """Found running a debate against llama.cpp's server with a context of 1,024 tokens:
    a cross-examination prompt of 557 tokens was fitted with a reply of 467, then sent
    with the schema instruction added (1,149 tokens): HTTP 400, the run failed."""
    from moot.formats.structured.replies import CrossExamReply
    from moot.llm.schemas import output_spec

    sent: list[dict[str, Any]] = []
    schema = output_spec(CrossExamReply)

    async def scenario() -> None:
        async with httpx2.AsyncClient(transport=_small_llama_server(sent)) as http_client:
            backend = OpenAIBackend(
                model="smollm",
                base_url="http://127.0.0.1:9/v1",
                http_client=http_client,
                structured_mode=mode,  # type: ignore[arg-type]
            )
            served = await backend.discover()
            assert served is not None
            assert served.n_ctx == N_CTX
            prompt = [Message("user", "Answer the other side's arguments. " * 80)]
            settings = GenerationSettings(temperature=0.0, max_tokens=600, seed=1)
            await backend.generate(prompt, schema=schema, settings=settings)

    asyncio.run(scenario())
    (body,) = sent
    prompt = sum(_tokens(m["content"]) for m in body["messages"])
    assert prompt + body["max_tokens"] <= N_CTX


def test_a_prompt_past_a_small_models_context_is_not_sent_and_the_advice_fits() -> None:
    """The refusal names the context and a larger one; it does not suggest the compact
    profile, which a small model already runs."""
    sent: list[dict[str, Any]] = []

    async def scenario() -> str:
        async with httpx2.AsyncClient(transport=_small_llama_server(sent)) as http_client:
            backend = OpenAIBackend(
                model="smollm", base_url="http://127.0.0.1:9/v1", http_client=http_client
            )
            await backend.discover()
            too_long = [Message("user", "cats and dogs " * 400)]
            settings = GenerationSettings(temperature=0.0, max_tokens=16, seed=1)
            with pytest.raises(BackendError) as refused:
                await backend.generate(too_long, schema=None, settings=settings)
            return str(refused.value)

    message = asyncio.run(scenario())
    assert sent == []
    assert "server's context of 1024" in message
    assert "llama-server -c N" in message
    assert "--profile compact" not in message
