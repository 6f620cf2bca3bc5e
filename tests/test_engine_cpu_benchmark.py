"""``benchmarks/engine_cpu.py --per-detector``: it times every detector on the transcripts
the demo debates' detectors read, and leaves the engine as it found it."""

from __future__ import annotations

import pytest

import moot.debate
from moot.detectors.core import TURN_CHECKS, run_detectors
from script_loader import load_script


def test_each_detector_is_timed_on_the_debates_transcripts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_script("benchmarks/engine_cpu.py", "engine_cpu_bench")
    bench.per_detector(2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 transcripts, ")
    assert lines[1].split() == ["caches", *TURN_CHECKS, "transcript", "history", "all"]
    for line, label in zip(lines[2:], ("empty", "full"), strict=True):
        name, *figures = line.split()
        assert name == label
        assert len([float(ms) for ms in figures]) == len(TURN_CHECKS) + 3  # each a number
    # the recording wrapper is gone: later debates call the detectors themselves
    module, name = bench.CHECKS[0]
    assert (module, getattr(module, name)) == (moot.debate, run_detectors)
