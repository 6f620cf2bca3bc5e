"""The scripted backends: the programmable test double, and ``scripted:demo`` as the
model layer knows it (demo writers registered per format and round, dispatched on the
call's context). What each format's demo writes is tested with the format
(tests/formats/)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence

import pytest
from pydantic import BaseModel

from moot.errors import BackendError, ConfigError
from moot.llm.backend import Backend, resolve_backend
from moot.llm.meter import Meter
from moot.llm.scripted import (
    ANY_FORMAT,
    ANY_ROUND,
    DemoBackend,
    DemoRequest,
    ScriptedBackend,
    demo_seed,
    estimate_tokens,
    register_demo_writer,
)
from moot.llm.structured import generate_structured
from moot.llm.types import (
    CallContext,
    Completion,
    GenerationSettings,
    Message,
    OutputSpec,
    Usage,
)

SETTINGS = GenerationSettings()
MESSAGES = [Message("system", "You are a test."), Message("user", "Say something please")]


class Pair(BaseModel):
    a: int
    b: str


def _run(
    backend: Backend, context: CallContext | None = None, messages: Sequence[Message] = MESSAGES
) -> Completion:
    return asyncio.run(backend.generate(messages, schema=None, settings=SETTINGS, context=context))


# ---- ScriptedBackend ------------------------------------------------------------------


def test_scripted_replies_are_consumed_in_order() -> None:
    backend = ScriptedBackend(["first", {"k": "值"}, Pair(a=1, b="x")])
    assert isinstance(backend, Backend)
    assert backend.spec == "scripted"
    assert backend.remaining == 3
    texts = [_run(backend).text for _ in range(3)]
    assert texts[0] == "first"
    assert json.loads(texts[1]) == {"k": "值"}
    assert Pair.model_validate_json(texts[2]) == Pair(a=1, b="x")
    assert backend.remaining == 0


def test_scripted_completion_fields_and_usage_estimate() -> None:
    completion = _run(ScriptedBackend(["one two three"], name="fake-model"))
    assert completion.finish_reason == "stop"
    assert completion.model == "fake-model"
    assert completion.usage == Usage(prompt_tokens=7, completion_tokens=3)
    assert estimate_tokens("hello world, 你好") == 4


def test_scripted_completion_passes_through_unchanged() -> None:
    cut = Completion(text='{"a": 1', finish_reason="length", usage=Usage(5, 9), model="m")
    assert _run(ScriptedBackend([cut])) is cut


def test_scripted_single_reply_is_a_one_reply_script() -> None:
    backend = ScriptedBackend("only")
    assert _run(backend).text == "only"
    with pytest.raises(BackendError):
        _run(backend)


def test_scripted_rejects_items_it_cannot_send() -> None:
    with pytest.raises(ConfigError, match="script item 1"):
        ScriptedBackend(["ok", 42])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="latency_ms"):
        ScriptedBackend(["ok"], latency_ms=-1)


def test_scripted_records_every_call() -> None:
    backend = ScriptedBackend(["a", "b"])
    spec = OutputSpec(name="X", json_schema={"type": "object"})
    context = CallContext(role="pro", round="opening", side="pro", topic="t")
    asyncio.run(backend.generate(MESSAGES, schema=spec, settings=SETTINGS, context=context))
    _run(backend)
    first, second = backend.calls
    assert first.messages == tuple(MESSAGES)
    assert first.schema == spec
    assert first.settings == SETTINGS
    assert first.context == context
    assert second.schema is None
    assert second.context is None


def test_scripted_exhaustion_is_a_clear_backend_error() -> None:
    backend = ScriptedBackend(["a", "b"])
    _run(backend)
    _run(backend)
    with pytest.raises(BackendError, match="script exhausted after 2 calls") as info:
        _run(backend, CallContext(role="judge", round="judgement"))
    assert info.value.spec == "scripted"
    assert "judge" in str(info.value)
    assert len(backend.calls) == 3


def test_scripted_function_form_sync_and_async() -> None:
    seen: list[tuple[int, str | None]] = []

    def reply(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> str:
        seen.append((len(messages), context.role if context else None))
        return f"echo: {messages[-1].content}"

    async def areply(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> Completion:
        await asyncio.sleep(0)
        return Completion(text="async", finish_reason="length", usage=Usage(), model="m")

    sync_backend = ScriptedBackend(reply)
    assert sync_backend.remaining is None
    assert _run(sync_backend, CallContext(role="con", round="closing")).text == (
        "echo: Say something please"
    )
    assert seen == [(2, "con")]
    assert _run(ScriptedBackend(areply)).finish_reason == "length"


def test_scripted_drives_the_reask_loop() -> None:
    good = {"a": 2, "b": "ok"}
    backend = ScriptedBackend(["not json", good])
    outcome = asyncio.run(
        generate_structured(
            backend,
            MESSAGES,
            Pair,
            settings=SETTINGS,
            context=CallContext(role="pro", round="opening"),
            meter=Meter(),
        )
    )
    assert outcome.value == Pair(a=2, b="ok")
    assert outcome.attempts == 2
    assert backend.calls[1].messages[-2] == Message("assistant", "not json")


# ---- DemoBackend: specs -----------------------------------------------------------------


def test_demo_from_spec() -> None:
    plain = DemoBackend.from_spec("demo", seed=4)
    assert plain.spec == "scripted:demo"
    assert plain.latency_ms == 0
    assert plain.seed == 4
    slow = DemoBackend.from_spec("demo?latency_ms=200")
    assert slow.latency_ms == 200
    assert slow.spec == "scripted:demo?latency_ms=200"
    assert DemoBackend.from_spec("demo?latency_ms=12.5").spec == "scripted:demo?latency_ms=12.5"
    resolved = resolve_backend("scripted:demo?latency_ms=200", seed=9)
    assert isinstance(resolved, DemoBackend)
    assert (resolved.seed, resolved.latency_ms) == (9, 200)


@pytest.mark.parametrize(
    ("rest", "message"),
    [
        ("", "unknown scripted model"),
        ("demo2", "unknown scripted model"),
        ("other?latency_ms=1", "unknown scripted model"),
        ("demo?latency=5", "unknown parameter 'latency'"),
        ("demo?latency_ms=5&speed=1", "unknown parameter 'speed'"),
        ("demo?latency_ms=abc", "non-negative number"),
        ("demo?latency_ms=-1", "non-negative number"),
        ("demo?latency_ms=inf", "non-negative number"),
        ("demo?latency_ms=nan", "non-negative number"),
        ("demo?latency_ms=", "non-negative number"),
        ("demo?latency_ms=1&latency_ms=2", "given twice"),
        ("demo?latency_ms", "bad query"),
    ],
)
def test_demo_from_spec_rejects_bad_specs(rest: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        DemoBackend.from_spec(rest)


# ---- DemoBackend: dispatch to the demo writers ------------------------------------------
#
# A format of its own, registered here, so these tests depend on no debate format.

FORMAT = "test-echo"


class Echo(BaseModel):
    """What the test writers answer: who wrote it, for which call, with which seed."""

    writer: str
    role: str
    round: str
    data: str
    draw: int


def _writer(name: str) -> Callable[[DemoRequest], Echo]:
    def write(request: DemoRequest) -> Echo:
        context = request.context
        return Echo(
            writer=name,
            role=context.role,
            round=context.round,
            data=repr(context.data),
            draw=request.rng().randint(0, 10**9),
        )

    return write


register_demo_writer(FORMAT, "speak", _writer("exact"))
register_demo_writer(FORMAT, ANY_ROUND, _writer("any-round"))
register_demo_writer(ANY_FORMAT, "test-shared-round", _writer("any-format"))


def _echo(
    backend: DemoBackend, round_name: str = "speak", role: str = "A", data: object = None
) -> Echo:
    context = CallContext(role=role, round=round_name, side=role, format=FORMAT, data=data)
    return Echo.model_validate_json(_run(backend, context).text)


def test_demo_dispatches_exact_then_any_format_then_any_round() -> None:
    backend = DemoBackend(1)
    assert _echo(backend, "speak").writer == "exact"
    assert _echo(backend, "test-shared-round").writer == "any-format"
    assert _echo(backend, "rebuttal").writer == "any-round"
    # the writer gets the call's typed data as the format put it there
    assert _echo(backend, data=("typed", 3)).data == "('typed', 3)"


def test_demo_without_a_writer_is_a_clear_backend_error() -> None:
    backend = DemoBackend(1)
    with pytest.raises(BackendError, match="CallContext"):
        _run(backend, None)
    with pytest.raises(BackendError, match="no writer for round 'rebuttal' of format 'nonesuch'"):
        _run(backend, CallContext(role="A", round="rebuttal", format="nonesuch"))
    with pytest.raises(BackendError, match="of format '\\(none\\)'"):
        _run(backend, CallContext(role="A", round="rebuttal"))


def test_demo_is_deterministic_and_seed_sensitive() -> None:
    first = _echo(DemoBackend(seed=7))
    assert _echo(DemoBackend(seed=7)) == first
    draws = {_echo(DemoBackend(seed=seed)).draw for seed in range(12)}
    assert len(draws) == 12
    # the stream depends on the seed, role, round and side, never on the order of calls
    backend = DemoBackend(seed=7)
    _echo(backend, role="B")
    assert _echo(backend) == first
    assert _echo(DemoBackend(seed=7), role="B").draw != first.draw


def test_demo_request_rng_is_the_documented_seed() -> None:
    import random

    context = CallContext(role="A", round="speak", side="A", format=FORMAT)
    request = DemoRequest(context, (), None, 7)
    expected = random.Random(demo_seed(7, "A", "speak", "A")).randint(0, 10**9)  # noqa: S311
    assert request.rng().randint(0, 10**9) == expected
    assert demo_seed(7, "A") != demo_seed(8, "A")


def test_demo_seed_falls_back_to_the_call_settings() -> None:
    context = CallContext(role="A", round="speak", side="A", format=FORMAT)
    backend = DemoBackend()

    def text(seed: int | None) -> str:
        settings = GenerationSettings(seed=seed)
        completion = asyncio.run(
            backend.generate(MESSAGES, schema=None, settings=settings, context=context)
        )
        return completion.text

    assert text(1) == text(1)
    assert text(1) != text(2)
    assert text(None) == text(0)


def test_demo_reports_usage_estimates() -> None:
    context = CallContext(role="A", round="speak", side="A", format=FORMAT)
    completion = _run(DemoBackend(1), context)
    assert completion.usage.prompt_tokens == sum(estimate_tokens(m.content) for m in MESSAGES)
    assert completion.usage.completion_tokens == estimate_tokens(completion.text)
    assert completion.model == "scripted:demo"


@pytest.mark.timing
def test_demo_calls_overlap_when_concurrent() -> None:
    backend = DemoBackend(1, latency_ms=50)

    async def both() -> None:
        await asyncio.gather(
            *(
                backend.generate(
                    MESSAGES,
                    schema=None,
                    settings=SETTINGS,
                    context=CallContext(role=role, round="speak", side=role, format=FORMAT),
                )
                for role in ("A", "B")
            )
        )

    asyncio.run(both())
    first, second = backend.calls
    assert first.started < second.finished
    assert second.started < first.finished


@pytest.mark.timing
def test_demo_latency_over_the_timeout_fails_as_a_timeout() -> None:
    backend = DemoBackend(1, latency_ms=200, timeout=0.05)
    with pytest.raises(BackendError, match="timed out"):
        _run(backend, CallContext(role="A", round="speak", side="A", format=FORMAT))
    assert backend.calls == []
