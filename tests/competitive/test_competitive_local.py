"""A competitive debate on the real embedded model (SmolLM2-135M via llama.cpp), through
the ``moot`` command line, with the shortest stage times (30 s each, the least the
format allows) and a small rehearsal tree: 7.5 minutes on one llama.cpp thread, on a
shared core (about ten on 2 cores with 45/45/30 s; the default 240/240/120 s speeches
take several times longer and are measured by ``benchmarks/competitive.py --model local``).

The 135M model argues badly; what is checked is what the format promises whatever the
model: every speech synthesised with espeak-ng and inside [T - 15 s, T + 1 s], only
legal moves (replayed through a fresh flow tree), every figure recomputable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from competitive_checks import check_competitive
from moot.schema import DebateResult

TOPIC = "Should cities ban cars from their centres?"


@pytest.mark.process
@pytest.mark.slow(minutes=10)
def test_a_competitive_debate_on_the_embedded_model(tmp_path: Path) -> None:
    out, audio = tmp_path / "result.json", tmp_path / "audio"
    command = [
        *(sys.executable, "-m", "moot", "run", TOPIC, "--format", "competitive"),
        *("--model", "local", "--seed", "7", "--stage-seconds", "30,30,30"),
        *("--depth", "1", "--branching", "2"),
        *("--format-option", "claims=2", "--format-option", "voters=3"),
        *("--audio", str(audio), "--json", str(out)),
    ]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=3600,
        env={**os.environ, "MOOT_HOME": str(tmp_path)},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = DebateResult.model_validate_json(out.read_text(encoding="utf-8"))
    assert result.models == {"pro": "local", "con": "local", "judge": "local"}
    body = check_competitive(result)  # inside every window, legal moves only
    assert body["stage_seconds"] == {"opening": 30.0, "rebuttal": 30.0, "closing": 30.0}
    assert body["clock"]["source"] == "espeak-ng"
    assert {s["duration_source"] for s in body["speeches"]} == {"espeak-ng"}
    assert sorted(p.name for p in audio.iterdir()) == sorted(s["audio"] for s in body["speeches"])
    assert "## " in done.stdout
