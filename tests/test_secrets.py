"""API keys never reach an artefact: the store, the JSON, the Markdown, logs, tracebacks.

A run uses a canary key against real OpenAI-compatible servers on loopback: one that
accepts any key (the debate runs, one side on the embedded model through the
server) and one that rejects it (HTTP 401, the run fails). Then every file and every
byte of output is searched for the canary.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import ServedLlama

TOPIC = "Should a 10-person startup adopt microservices from day one?"


def moot(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "moot", *args],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
        check=False,
    )


def test_canary_key_appears_in_no_artefact(
    llama_server: str,
    llama_server_factory: Callable[..., ServedLlama],
    tmp_path: Path,
) -> None:
    canary = "sk-canary-" + secrets.token_hex(12)
    home = Path(os.environ["MOOT_HOME"])
    # the canary is both OPENAI_API_KEY and a key named in the specs, so it really is
    # sent to the servers (moot sends OPENAI_API_KEY to OpenAI's own hosts only)
    env = {
        **os.environ,
        "OPENAI_API_KEY": canary,
        "MOOT_CANARY_KEY": canary,
        "PYTHONFAULTHANDLER": "1",
    }
    locked = llama_server_factory(api_key="server-secret-" + secrets.token_hex(4)).base_url
    outputs: list[str] = []

    ran = moot(
        "run",
        TOPIC,
        "--id",
        "canary-ok",
        "--seed",
        "1",
        "--max-reasks",
        "0",
        "--pro-model",
        f"openai:smollm2@{llama_server}#MOOT_CANARY_KEY",
        "--con-model",
        "scripted:demo",
        "--judge-model",
        "scripted:demo",
        "--json",
        str(tmp_path / "ok.json"),
        env=env,
    )
    outputs += [ran.stdout, ran.stderr]
    assert ran.returncode in (0, 3), ran.stderr  # done, or the 135M model's reply failed

    refused = moot(
        "run",
        TOPIC,
        "--id",
        "canary-401",
        "--model",
        f"openai:smollm2@{locked}#MOOT_CANARY_KEY",
        "--json",
        str(tmp_path / "refused.json"),
        env=env,
    )
    outputs += [refused.stdout, refused.stderr]
    assert refused.returncode == 1
    assert "API key" in refused.stderr or "401" in refused.stderr

    for command in (
        ["list", "--json"],
        ["show", "canary-ok", "--json"],
        ["show", "canary-401", "--json"],
        ["export", "canary-ok", "--format", "md"],
    ):
        shown = moot(*command, env=env)
        outputs += [shown.stdout, shown.stderr]

    # the failed run is recorded, with its error
    listed = json.loads(moot("list", "--json", env=env).stdout)
    statuses = {row["id"]: row["status"] for row in listed}
    assert statuses["canary-401"] == "failed"
    assert statuses["canary-ok"] in ("done", "failed")

    files = [p for p in [*home.rglob("*"), *tmp_path.rglob("*")] if p.is_file()]
    assert any(p.name.startswith("moot.db") for p in files)
    for path in files:
        assert canary.encode() not in path.read_bytes(), f"canary key found in {path}"
    for text in outputs:
        assert canary not in text


def test_spec_and_errors_never_carry_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from moot.llm.openai import OpenAIBackend

    canary = "sk-canary-" + secrets.token_hex(12)
    monkeypatch.setenv("OPENAI_API_KEY", canary)
    backend = OpenAIBackend(model="gpt-x", base_url="http://127.0.0.1:9/v1")
    assert canary not in backend.spec
    assert canary not in repr(backend)
