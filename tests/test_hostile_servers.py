"""Servers that misbehave, for real: a debate-aware OpenAI-compatible server on
127.0.0.1 (tests/fake_openai.py) that hangs, is slow, answers garbage, error bodies
full of markup and control sequences, or replies that never validate.

Each case checks the exit code, that no traceback is printed and nothing raw reaches
the terminal, the run's stored status, and that a run promised to be resumable is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from fake_openai import NORMAL, Behave, Behaviour, FakeOpenAI
from hostile import CONTROL, MARKDOWN, MARKUP, PAYLOADS, headings, raw_controls, structure
from moot.cli import app
from moot.store import Store

pytestmark = pytest.mark.server

TOPIC = "Should we adopt x?"


@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.fixture
def serve() -> Iterator[Callable[[Behave | Behaviour], FakeOpenAI]]:
    started: list[FakeOpenAI] = []

    def start(behave: Behave | Behaviour = NORMAL) -> FakeOpenAI:
        server = FakeOpenAI(behave)
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()


def moot(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def clean(result: Result) -> str:
    printed = result.stdout + result.stderr
    assert "Traceback" not in printed, printed
    assert raw_controls(printed) == [], printed
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return " ".join(printed.split())


def status(run_id: str) -> str:
    row = Store().get_debate(run_id)
    assert row is not None
    return row.status


def _cross_exam(body: dict[str, Any]) -> bool:
    schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema") or {}
    return "responses" in schema.get("properties", {})


# -- text from the model and the server ----------------------------------------------


@pytest.mark.parametrize("name", [*MARKUP, *CONTROL, *MARKDOWN])
def test_hostile_model_text_is_shown_never_interpreted(
    name: str, serve: Callable[..., FakeOpenAI]
) -> None:
    payload = PAYLOADS.get(f"markup:{name}") or PAYLOADS.get(f"control:{name}") or MARKDOWN[name]
    server = serve(Behaviour(payload=payload))
    baseline = moot("run", TOPIC, "--model", serve().spec(), "--max-reasks", "0", "-q")
    ran = moot("run", TOPIC, "--model", server.spec(), "--max-reasks", "0", "--id", "m")
    assert ran.exit_code == 0, ran.output
    clean(ran)
    known = set(headings(baseline.stdout)) | {"Protocol rules not met after rewrites"}
    assert set(headings(ran.stdout)) <= known
    shape = structure(ran.stdout)
    for made_by_text in ("html_inline", "html_block:", "link_open", "image", "fence:code"):
        assert not any(part.startswith(made_by_text) for part in shape)
    for command in (("show", "m"), ("list",), ("export", "m", "--format", "md")):
        clean(moot(*command))


@pytest.mark.parametrize("name", [*MARKUP, *CONTROL])
def test_a_hostile_error_body_is_a_clean_error(name: str, serve: Callable[..., FakeOpenAI]) -> None:
    payload = PAYLOADS.get(f"markup:{name}") or PAYLOADS[f"control:{name}"]
    server = serve(Behaviour(status=401, body={"error": {"message": "denied " + payload}}))
    result = moot("run", TOPIC, "--model", server.spec(), "--id", "e", "-q")
    assert result.exit_code == 1, result.output
    assert "needs an API key (HTTP 401)" in clean(result)
    assert status("e") == "failed"
    server403 = serve(Behaviour(status=403, body={"error": {"message": "denied " + payload}}))
    result = moot("run", TOPIC, "--model", server403.spec(), "-q")
    assert result.exit_code == 1
    printed = clean(result)
    assert "refused access (HTTP 403)" in printed
    if name in MARKUP:
        assert payload in printed


def test_a_markup_target_id_is_re_asked_and_shown(serve: Callable[..., FakeOpenAI]) -> None:
    """The reproduction that killed the progress display mid-run: a cross-examination
    answering "[/x]" is a hard error, re-asked; the re-ask is shown as text."""
    seen: list[int] = []

    def behave(number: int, body: dict[str, Any]) -> Behaviour:
        if _cross_exam(body) and not seen:
            seen.append(number)
            return Behaviour(fields={"target_id": "[/x]"})
        return NORMAL

    server = serve(behave)
    result = moot("run", TOPIC, "--model", server.spec(), "--id", "t")
    assert result.exit_code == 0, result.output
    printed = clean(result)
    assert "re-ask pro/cross_examination" in printed or "re-ask con/cross_examination" in printed
    assert status("t") == "done"
    problems = [p for call in Store().calls("t") for p in call.problems]
    assert any("[/X] is not an opposing argument" in p for p in problems)


# -- garbage ----------------------------------------------------------------------

GARBAGE: dict[str, Behaviour] = {
    "html-as-json": Behaviour(body=b"<html>502 Bad Gateway</html>"),
    "html": Behaviour(body=b"<html>hello</html>", content_type="text/html"),
    "empty": Behaviour(body=b""),
    "truncated": Behaviour(body=b'{"id": "x", "choi'),
    "wrong-shape": Behaviour(body={"choices": "nope"}),
    "no-choices": Behaviour(body={"id": "x", "object": "chat.completion", "choices": []}),
    "null": Behaviour(body=b"null"),
    "list": Behaviour(body=b"[1, 2]"),
    "markup-body": Behaviour(body=b"<b>[/red] \x1b[2J</b>", content_type="text/plain"),
}


@pytest.mark.parametrize("name", list(GARBAGE))
def test_a_garbage_answer_says_what_the_server_sent(
    name: str, serve: Callable[..., FakeOpenAI]
) -> None:
    server = serve(GARBAGE[name])
    result = moot("run", TOPIC, "--model", server.spec(), "--id", "g", "-q")
    assert result.exit_code == 1, result.output
    printed = clean(result)
    assert server.url in printed
    assert "not JSON" in printed or "did not answer with a chat completion" in printed
    assert "continue it with moot resume g" in printed
    assert status("g") == "failed"
    assert Store().cache_stats()["entries"] == 0
    server.behave = lambda _n, _b: NORMAL
    resumed = moot("resume", "g", "-q")
    assert resumed.exit_code == 0, resumed.output
    assert status("g") == "done"


# -- replies that never validate, then a fixed server ---------------------------------


@pytest.mark.parametrize("temperature", ["0.3", "0"])
def test_resume_asks_again_after_replies_that_never_validated(
    temperature: str, serve: Callable[..., FakeOpenAI]
) -> None:
    server = serve(Behaviour(content="this is not JSON [/red]"))
    args = ("--model", server.spec(), "--temperature", temperature)
    failed = moot("run", TOPIC, *args, "--id", "v", "-q")
    assert failed.exit_code == 3, failed.output
    assert "never validated" in clean(failed)
    assert status("v") == "failed"
    exhausted = [c for c in Store().calls("v") if c.validation == "exhausted"]
    assert len(exhausted) == 3  # the first attempt and both re-asks of one call
    assert not any(c.validation == "exhausted" for c in Store().completed_calls("v"))
    server.behave = lambda _n, _b: NORMAL
    before = len(server.requests)
    resumed = moot("resume", "v", "-q")
    assert resumed.exit_code == 0, resumed.output
    assert len(server.requests) - before >= 7  # asked again, not replayed
    assert status("v") == "done"


# -- slow, hanging, flaky ------------------------------------------------------------


def test_a_slow_server_within_the_timeout_is_fine(serve: Callable[..., FakeOpenAI]) -> None:
    server = serve(Behaviour(hang=0.3))
    result = moot("run", TOPIC, "--model", server.spec(), "--timeout", "10", "-q")
    assert result.exit_code == 0, result.output
    clean(result)


def test_retries_and_waits_are_shown(serve: Callable[..., FakeOpenAI]) -> None:
    server = serve(
        lambda n, _b: (
            Behaviour(status=503, body={"error": {"message": "busy"}}) if n == 1 else NORMAL
        )
    )
    result = moot("run", TOPIC, "--model", server.spec())
    assert result.exit_code == 0, result.output
    printed = clean(result)
    assert "attempt 1 failed (HTTP 503 (server error)); retrying in" in printed


def _side(body: dict[str, Any]) -> str:
    system = str((body.get("messages") or [{}])[0].get("content", ""))
    return "pro" if "PRO side" in system else "con"


def test_a_call_that_fails_for_good_cancels_the_other_sides_hanging_call(
    serve: Callable[..., FakeOpenAI],
) -> None:
    """Pro's server refuses (401) once con's call has arrived, con's hangs for an
    hour: the run ends at once, con's call cancelled rather than waited for. (Pro's
    refusal waits for con's request so that a loaded machine cannot end the run
    before con's call is even sent.)"""
    con_sent = threading.Event()

    def behave(_n: int, body: dict[str, Any]) -> Behaviour:
        if _side(body) == "pro":
            con_sent.wait(20)
            return Behaviour(status=401, body={"error": {"message": "no"}})
        con_sent.set()
        return Behaviour(hang=3600)

    server = serve(behave)
    started = time.monotonic()
    sides = ("--pro-model", server.spec("a"), "--con-model", server.spec("b"))
    result = moot("run", TOPIC, *sides, "--judge-model", "scripted:demo", "--id", "c")
    assert result.exit_code == 1, result.output
    assert time.monotonic() - started < 30
    printed = clean(result)
    assert "HTTP 401" in printed
    assert "call con/opening" not in printed  # neither done nor failed: cancelled
    assert any(_side(body) == "con" for body in server.requests)
    assert status("c") == "failed"


@pytest.mark.timing
def test_a_hanging_server_fails_within_its_timeout_and_resumes(
    serve: Callable[..., FakeOpenAI],
) -> None:
    """Every request hangs; with --timeout 0.5 the run gives up after its retries
    (seconds, not 20 minutes), shows every retry, and resumes once the server answers."""
    server = serve(Behaviour(hang=3600))
    started = time.monotonic()
    result = moot("run", TOPIC, "--model", server.spec(), "--timeout", "0.5", "--id", "h")
    assert result.exit_code == 1, result.output
    assert time.monotonic() - started < 60
    printed = clean(result)
    assert "no answer within the 0.5 s timeout" in printed
    assert "attempt 1 failed (timeout); retrying in" in printed
    assert status("h") == "failed"
    server.behave = lambda _n, _b: NORMAL
    resumed = moot("resume", "h", "-q")
    assert resumed.exit_code == 0, resumed.output
    assert status("h") == "done"


def test_a_reply_that_loops_is_reasked_hotter_with_a_frequency_penalty(
    serve: Callable[..., FakeOpenAI],
) -> None:
    """A small model served without a repeat penalty loops ("1.1.1.1..."): the loop is
    refused, and only its re-ask is sent hotter and with OpenAI's frequency penalty."""
    looped: list[int] = []

    def behave(number: int, body: dict[str, Any]) -> Behaviour:
        if not looped and _cross_exam(body):
            looped.append(number)
            return Behaviour(payload=" " + "1." * 20)
        return NORMAL

    server = serve(behave)
    ran = moot("run", TOPIC, "--model", server.spec(), "--seed", "3", "--id", "loop", "-q")
    assert ran.exit_code == 0, clean(ran)
    assert status("loop") == "done"
    (number,) = looped
    first = server.requests[number - 1]
    reasks = [
        body
        for body in server.requests[number:]
        if _cross_exam(body) and "repeats itself in a loop" in body["messages"][-1]["content"]
    ]
    assert len(reasks) == 1
    assert "frequency_penalty" not in first
    assert reasks[0]["frequency_penalty"] == 0.5
    assert reasks[0]["temperature"] > first["temperature"]
    assert all("frequency_penalty" not in body for body in server.requests[: number - 1])
