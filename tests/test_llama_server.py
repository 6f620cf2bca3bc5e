"""moot against llama.cpp's own HTTP server, the code of ``llama-server`` that Ollama,
LM Studio and many self-hosters build on (from xllamacpp's prebuilt wheel, served on
loopback by tools/xllamacpp_server.py): every schema moot sends is accepted and
enforced by its converter, a schema it refuses falls back instead of ending the run,
and a whole seeded debate of every format runs."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from conftest import ServedLlama
from invariants import check_result_json
from moot.llm.openai import OpenAIBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from schema_registry import every_registered_schema

pytestmark = pytest.mark.slow

TOPIC = "Should a 10-person startup adopt microservices from day one?"
ONE_TOKEN = GenerationSettings(temperature=0.0, max_tokens=1, seed=1)
GREEDY = GenerationSettings(temperature=0.0, max_tokens=120, seed=7)
ASK = [Message("user", "Answer in JSON.")]

#: What llama.cpp's server logs or answers when its converter fails on a schema.
SCHEMA_ERRORS = re.compile(
    r"JSON schema error|Unable to generate parser|failed to parse grammar|"
    r"json_schema_to_grammar|Unrecognized schema",
    re.IGNORECASE,
)


def generate(
    backend: OpenAIBackend, schema: OutputSpec, settings: GenerationSettings = ONE_TOKEN
) -> Completion:
    context = CallContext(role="pro", round="opening")
    return asyncio.run(backend.generate(ASK, schema=schema, settings=settings, context=context))


def test_the_servers_converter_accepts_every_schema_moot_sends(
    served_llama: ServedLlama,
) -> None:
    schemas = every_registered_schema()
    assert len(schemas) >= 5
    backend = OpenAIBackend("smollm", base_url=served_llama.base_url)
    for schema in schemas:
        completion = generate(backend, schema)
        # accepted in the standard mode: no fallback to a weaker one
        assert (completion.structured_mode, completion.fallback) == ("json_schema", None), (
            schema.name
        )
    assert not SCHEMA_ERRORS.search(served_llama.log())


def test_the_servers_converter_accepts_every_schema_as_json_object(
    served_llama: ServedLlama,
) -> None:
    # the fallback mode goes through the same converter; asked directly, with a short
    # prompt (moot would add the schema to it: minutes of prompt on a loaded CPU)
    for schema in every_registered_schema():
        body = {
            "model": "smollm",
            "messages": [{"role": "user", "content": "Answer in JSON."}],
            "max_tokens": 1,
            "response_format": {"type": "json_object", "schema": schema.json_schema},
        }
        request = urllib.request.Request(  # noqa: S310 (loopback http)
            f"{served_llama.base_url}/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=600) as response:  # noqa: S310
            assert response.status == 200, schema.name
    assert not SCHEMA_ERRORS.search(served_llama.log())


PINNED_IDS = ["ZQ-7", "ZQ-9"]


def tuple_schema(**extra: Any) -> OutputSpec:
    """Two slots whose ids a 135M model would never write unprompted."""
    slot: dict[str, Any] = {
        "type": "object",
        "properties": {"id": {"type": "string", "enum": ["?"]}, "ok": {"type": "boolean"}},
        "required": ["id", "ok"],
        "additionalProperties": False,
    }
    prefix = [
        {**slot, "properties": {**slot["properties"], "id": {"type": "string", "enum": [i]}}}
        for i in PINNED_IDS
    ]
    array = {"type": "array", "prefixItems": prefix, "minItems": 2, "maxItems": 2, **extra}
    return OutputSpec(
        "pinned",
        {
            "type": "object",
            "properties": {"responses": array},
            "required": ["responses"],
            "additionalProperties": False,
        },
    )


def reply_ids(completion: Completion) -> list[str] | None:
    try:
        return [r["id"] for r in json.loads(completion.text)["responses"]]
    except (ValueError, KeyError, TypeError):
        return None


def test_pinned_ids_are_enforced_without_items(served_llama: ServedLlama) -> None:
    backend = OpenAIBackend("smollm", base_url=served_llama.base_url)
    completion = generate(backend, tuple_schema(), GREEDY)
    assert completion.structured_mode == "json_schema"
    assert reply_ids(completion) == PINNED_IDS


def test_items_beside_prefix_items_silently_drops_the_pinning(
    served_llama: ServedLlama,
) -> None:
    # Why the portable subset forbids it: accepted, but the tuple is not enforced.
    backend = OpenAIBackend("smollm", base_url=served_llama.base_url)
    completion = generate(backend, tuple_schema(items={"type": "object"}), GREEDY)
    assert completion.structured_mode == "json_schema"
    assert reply_ids(completion) != PINNED_IDS


def test_a_refused_schema_falls_back_instead_of_failing(served_llama: ServedLlama) -> None:
    # items: false is valid JSON Schema that llama.cpp's converter refuses (HTTP 400)
    backend = OpenAIBackend("smollm", base_url=served_llama.base_url)
    accepted = generate(backend, tuple_schema())
    refused = generate(backend, tuple_schema(items=False))
    assert (accepted.structured_mode, accepted.fallback) == ("json_schema", None)
    assert refused.structured_mode == "prompt"
    assert refused.fallback is not None
    assert refused.fallback.rejected == ("json_schema", "json_object")
    assert "HTTP 400" in refused.fallback.reason
    assert "schema must be an object" in refused.fallback.reason
    assert backend.structured_mode == "json_schema"  # the other schemas keep it


ONE_LENS = Path(__file__).parent / "data" / "market" / "one_lens.toml"
MARKET_TOPIC = "Will ExampleIndex close higher a month from now?"

FORMAT_ARGS = {
    "structured": [],
    "freeform": ["--format", "freeform", "--rounds", "2"],
    # a bull and a bear on one lens, not the default eight analysts: every round in 8
    # calls instead of 26 (four analysts on two lenses, 14 calls, took about 18 minutes on
    # a one-thread server; the eight about 40, mostly a judge reply that looped)
    "market": ["--format", "market", "--kb", "demo", "--analysts", str(ONE_LENS)],
    # the shortest speeches and one claim, branch and voter: every stage, the rehearsal
    # and flow trees and a ballot (on the scripted model 31 calls and 11k tokens, against
    # 37 and 14k for 45,45,30 with two claims, two branches and three voters, which took
    # 12-16 minutes here); tests/competitive/test_competitive_local.py runs the larger
    # tree on the embedded model
    "competitive": [
        *("--format", "competitive", "--stage-seconds", "30,30,30", "--depth", "1"),
        *("--branching", "1", "--format-option", "claims=1", "--format-option", "voters=1"),
    ],
}
"""Every format's seeded debate against llama.cpp's server (a new format is one more line)."""

MINUTES = {"market": 10, "competitive": 12}
"""The longer debates' minutes on a one-thread server (the others take about two): the
slow tier starts the longest first (tests/tier_plugin.py)."""


@pytest.mark.parametrize(
    "fmt", [pytest.param(f, marks=pytest.mark.slow(minutes=MINUTES.get(f, 2))) for f in FORMAT_ARGS]
)
def test_seeded_debate_of_each_format_runs_against_llama_server(
    served_llama: ServedLlama, tmp_path: Path, fmt: str
) -> None:
    out = tmp_path / "result.json"
    log_before = len(served_llama.log())
    started = time.monotonic()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "moot",
            "run",
            MARKET_TOPIC if fmt == "market" else TOPIC,
            "--model",
            f"openai:smollm@{served_llama.base_url}",
            "--seed",
            "7",
            *FORMAT_ARGS[fmt],
            # the server serves the embedded 135M model: give it the profile the embedded
            # backend picks for it (shorter schemas, no re-asks of quality rules), as a
            # user serving a small model would
            *("--profile", "compact"),
            # a one-thread server on a busy shared CPU can take minutes for one reply:
            # this test is about schemas and a finished run, not speed
            "--timeout",
            "900",
            "--json",
            str(out),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
        timeout=3600,
    )
    seconds = time.monotonic() - started
    server_log = served_llama.log()[log_before:]
    print(f"{fmt} debate against llama.cpp's server: exit {result.returncode} in {seconds:.0f} s")
    assert result.returncode == 0, result.stderr[-4000:]
    assert not SCHEMA_ERRORS.search(server_log), SCHEMA_ERRORS.findall(server_log)
    doc = check_result_json(out.read_text(encoding="utf-8"))
    assert doc["format"] == fmt
    assert set(doc["models"].values()) == {f"openai:smollm@{served_llama.base_url}"}
    # every schema was accepted in the server's own mode
    assert doc["usage"]["structured_fallbacks"] == []
