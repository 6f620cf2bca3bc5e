"""Every benchmark under benchmarks/ says how it is run: ``--help`` prints its usage and
exits 0 at once, without measuring anything, loading a model or needing an optional
runtime (a benchmark once parsed ``--help`` as a size, another imported
llama-cpp-python, which the quick start does not install)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py"))


def test_there_are_benchmarks() -> None:
    assert "citations.py" in BENCHMARKS
    assert len(BENCHMARKS) >= 20


@pytest.mark.process
@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_benchmark_prints_its_usage(name: str) -> None:
    script = ROOT / "benchmarks" / name
    done = subprocess.run([sys.executable, script, "--help"], capture_output=True, timeout=120)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, err[-2000:]
    assert out.startswith("usage: "), out[:500]
    assert "--help" in out
