"""What a server reports is range-checked before moot counts, stores or shows it.

The server runs in process (``fake_transport``): the real SDK parses its replies.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from fake_transport import InProcessServer, fake_provider
from hostile import SERVER_USAGE
from moot.debate import resume_debate, run_debate
from moot.errors import BackendError
from moot.llm.checked import CheckedBackend
from moot.llm.counts import MAX_REPORTED_TOKENS, token_count
from moot.llm.types import Completion, GenerationSettings, Message, Usage
from moot.store import Store


@pytest.mark.parametrize("name", list(SERVER_USAGE))
def test_an_impossible_token_count_fails_the_call_cleanly(name: str, tmp_path: Path) -> None:
    """10**30 used to overflow SQLite (``OverflowError``, an internal error); now the
    call fails with a BackendError naming the value, the run is stored as failed and
    nothing impossible is counted."""
    server = InProcessServer(usage=SERVER_USAGE[name])
    store = Store(tmp_path / "moot.db")
    with fake_provider(server) as spec, pytest.raises(BackendError) as caught:
        run_debate("Should we adopt x?", model=spec, store=store, debate_id="d1")
    assert "not a token count" in str(caught.value)
    row = store.get_debate("d1")
    assert row is not None
    assert row.status == "failed"
    for call in store.calls("d1"):
        assert 0 <= call.prompt_tokens <= MAX_REPORTED_TOKENS
        assert 0 <= call.completion_tokens <= MAX_REPORTED_TOKENS


def test_a_run_failed_on_an_impossible_count_resumes_with_a_sane_server(tmp_path: Path) -> None:
    server = InProcessServer(usage=SERVER_USAGE["huge"])
    store = Store(tmp_path / "moot.db")
    with fake_provider(server) as spec:
        with pytest.raises(BackendError):
            run_debate("Should we adopt x?", model=spec, store=store, debate_id="d1")
        server.usage = None
        result = resume_debate("d1", store=store)
    assert result.usage.prompt_tokens > 0
    row = store.get_debate("d1")
    assert row is not None
    assert row.status == "done"


def test_a_missing_usage_counts_zero_and_an_integral_float_counts() -> None:
    assert token_count(None, "x") == 0
    assert token_count(12.0, "x") == 12
    assert token_count(MAX_REPORTED_TOKENS, "x") == MAX_REPORTED_TOKENS
    with pytest.raises(ValueError, match="nan"):
        token_count(float("nan"), "x")
    with pytest.raises(ValueError, match="inf"):
        token_count(float("inf"), "x")


def test_a_non_finite_count_in_the_json_body_is_refused(tmp_path: Path) -> None:
    """Python's JSON parser reads ``NaN`` and ``Infinity``; the SDK passes them on."""
    server = InProcessServer(usage={"prompt_tokens": float("inf"), "completion_tokens": 1})
    with fake_provider(server) as spec, pytest.raises(BackendError, match="not a token count"):
        run_debate("Should we adopt x?", model=spec)


class _Plugin:
    """A plugin backend reporting whatever it was given."""

    spec = "plugin:x"

    def __init__(self, text: Any, usage: Usage) -> None:
        self._text, self._usage = text, usage

    async def generate(self, messages: Any, **_: Any) -> Completion:
        return Completion(text=self._text, finish_reason="stop", usage=self._usage, model="x")


def _ask(backend: _Plugin) -> Completion:
    checked = CheckedBackend(backend)
    settings = GenerationSettings(temperature=0.0, max_tokens=8)
    return asyncio.run(checked.generate([Message("user", "hi")], schema=None, settings=settings))


def test_every_backend_is_checked_not_only_openai() -> None:
    with pytest.raises(BackendError, match="prompt_tokens"):
        _ask(_Plugin("ok", Usage(-1, 0)))
    with pytest.raises(BackendError, match="completion_tokens"):
        _ask(_Plugin("ok", Usage(0, 10**30)))
    with pytest.raises(BackendError, match="where text belongs"):
        _ask(_Plugin({"text": 1}, Usage(1, 1)))


def test_lone_surrogates_in_a_reply_become_replacement_characters() -> None:
    reply = _ask(_Plugin("a\ud800b\udfffc", Usage(1, 1)))
    assert reply.text == "a\ufffdb\ufffdc"
    reply.text.encode("utf-8")  # storable


def test_a_reply_with_lone_surrogates_is_stored(tmp_path: Path) -> None:
    """A JSON body may escape a lone surrogate (``\\ud800``): the journal used to fail
    with UnicodeEncodeError."""

    def reply(n: int, body: dict[str, Any]) -> Any:
        return None if n > 1 else _plain_reply(body, "bad \ud800 text")

    server = InProcessServer(reply=reply)
    store = Store(tmp_path / "moot.db")
    with fake_provider(server) as spec:
        run_debate("Should we adopt x?", model=spec, store=store, debate_id="d1")
    texts = [call.reply or "" for call in store.calls("d1")]
    assert any("\ufffd" in text for text in texts)


def _plain_reply(body: dict[str, Any], content: str) -> dict[str, Any]:
    from fake_openai import completion

    return completion(str(body.get("model")), content)


@pytest.mark.parametrize(
    "content",
    ["[" * 100_000 + "]" * 100_000, '{"arguments": ' + "9" * 5000 + "}"],
    ids=["deep", "huge-integer"],
)
def test_a_reply_nested_too_deep_is_re_asked_not_a_crash(content: str) -> None:
    """A reply nested 100,000 deep raised RecursionError out of the JSON parser."""

    def reply(n: int, body: dict[str, Any]) -> Any:
        return _plain_reply(body, content) if n == 1 else None

    server = InProcessServer(reply=reply)
    with fake_provider(server) as spec:
        result = run_debate("Should we adopt x?", model=spec)
    assert result.usage.reasks >= 1
