"""The fake OpenAI-compatible server of ``fake_openai`` without a socket: an httpx
transport answering in process, behind a model provider of its own.

``with fake_provider(server) as spec:`` makes ``spec`` (``fakeai:NAME``) resolve to an
``OpenAIBackend`` whose HTTP client talks to ``server``; every request goes through
the real SDK and moot's reply parsing, so a test of what a server may send runs in
the fast tier. ``server.usage`` replaces the ``usage`` object of every reply, and
``server.reply`` can replace the whole body for a request.
"""

from __future__ import annotations

import itertools
import json
import platform
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx2

from fake_openai import Behaviour, completion, reply_content
from moot.llm.backend import Backend, register_provider, unregister_provider
from moot.llm.openai import OpenAIBackend
from moot.llm.retry import RetryPolicy
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.llm.wrapper import Wrapper

_names = itertools.count(1)

# The SDK names the platform in its headers; Python's platform module asks ``uname -p``
# (a subprocess) once per process. Asked here, at import, the answer is cached before
# any fast-tier test runs.
platform.platform()


@dataclass
class InProcessServer:
    """Answers chat requests like ``fake_openai.FakeOpenAI``, in process."""

    behaviour: Behaviour = field(default_factory=Behaviour)
    usage: Any = None
    """When set, every reply's ``usage`` (any JSON value, sent as is)."""
    reply: Callable[[int, dict[str, Any]], Any] | None = None
    """When set, the whole JSON body of reply ``n`` (``None``: the normal reply)."""
    requests: list[dict[str, Any]] = field(default_factory=list)

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content or b"{}")
        if not request.url.path.endswith("/chat/completions"):
            return httpx2.Response(404, json={"error": {"message": "no such route"}})
        self.requests.append(body)
        custom = self.reply(len(self.requests), body) if self.reply is not None else None
        if custom is None:
            custom = completion(str(body.get("model")), reply_content(body, self.behaviour))
            if self.usage is not None:
                custom["usage"] = self.usage
        data = json.dumps(custom, allow_nan=True).encode()
        return httpx2.Response(200, content=data, headers={"Content-Type": "application/json"})

    def backend(self, model: str = "fake") -> OpenAIBackend:
        client = httpx2.AsyncClient(transport=httpx2.MockTransport(self.handle))
        return OpenAIBackend(
            model,
            base_url="http://fake.invalid/v1",
            http_client=client,
            structured_mode="json_schema",
            retry=RetryPolicy(max_attempts=1),
        )


class _Named(Wrapper):
    """``inner`` under the spec it was resolved from (a stored run resolves it again)."""

    def __init__(self, inner: Backend, spec: str) -> None:
        super().__init__(inner)
        self._spec = spec

    @property
    def spec(self) -> str:
        return self._spec

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        return await self._inner.generate(
            messages, schema=schema, settings=settings, context=context
        )


@contextmanager
def fake_provider(server: InProcessServer) -> Iterator[str]:
    """A model spec that resolves to ``server`` while the block runs."""
    name = f"fakeai{next(_names)}"

    def make(rest: str, seed: int | None, timeout: float | None) -> Backend:
        return _Named(server.backend(rest or "fake"), f"{name}:{rest}")

    register_provider(name, make)
    try:
        yield f"{name}:fake"
    finally:
        unregister_provider(name)
