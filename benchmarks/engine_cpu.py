"""The engine's own CPU per model call: N concurrent scripted debates in one process
(``scripted:demo`` with a fixed latency, so the model costs no CPU), with and without
the detectors run after each debate and the echo check run on each reply.

    python benchmarks/engine_cpu.py                 # 200 debates, 200 ms latency
    python benchmarks/engine_cpu.py --debates 1000  # the issue's measurement
    python benchmarks/engine_cpu.py --debates 1000 --processes 2  # one process a core
    python benchmarks/engine_cpu.py --debates 300 --per-detector  # each detector's share

Prints wall seconds, model calls, calls per second and engine CPU per call for each
configuration. With ``--processes N`` the debates are split between N worker
processes (forked, warmed up before the clock starts), each with its own event loop;
the wall time is the parent's, from the first debate started to the last finished, and
the CPU is every worker's. "without" replaces ``moot.debate.run_detectors`` and
``moot.llm.structured.echoes`` by functions that find nothing. ``--per-detector`` keeps
the transcripts the debates' detectors read and times each per-turn detector on them
alone (with the turn history it needs), the transcript-wide detectors, the history, and
all of them together: once with moot's caches emptied first (a debate's new texts) and
once with them full, in CPU ms a debate.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

import moot.debate
import moot.detectors.core as core
import moot.llm.structured
from moot.debate import arun_debate
from moot.detectors.core import TurnCheck
from moot.detectors.history import TurnHistory
from moot.detectors.transcript import Transcript
from moot.llm.scripted import DemoBackend

TOPIC = "Should a 10-person startup adopt microservices from day one?"


CHECKS = ((moot.debate, "run_detectors"), (moot.llm.structured, "echoes"))
"""Where the engine calls the detectors and the echo check."""


@contextmanager
def without_checks() -> Iterator[None]:
    """The detectors and the echo check replaced by no-ops for the duration."""
    saved = [getattr(module, name) for module, name in CHECKS]

    def none(*args: Any, **kwargs: Any) -> list[Any]:
        return []

    for module, name in CHECKS:
        setattr(module, name, none)
    try:
        yield
    finally:
        for (module, name), original in zip(CHECKS, saved, strict=True):
            setattr(module, name, original)


async def _debates(count: int, latency_ms: float) -> int:
    results = await asyncio.gather(
        *(
            arun_debate(TOPIC, model=DemoBackend(latency_ms=latency_ms), seed=i)
            for i in range(count)
        )
    )
    return sum(result.usage.calls for result in results)


def measure(count: int, latency_ms: float) -> tuple[float, float, int]:
    """Wall seconds, process CPU seconds and model calls of ``count`` debates."""
    wall, cpu = time.perf_counter(), time.process_time()
    calls = asyncio.run(_debates(count, latency_ms))
    return time.perf_counter() - wall, time.process_time() - cpu, calls


def _worker(count: int, latency_ms: float, checks: bool) -> tuple[float, float, int]:
    if checks:
        return measure(count, latency_ms)
    with without_checks():
        return measure(count, latency_ms)


def measure_processes(
    count: int, latency_ms: float, processes: int, *, checks: bool
) -> tuple[float, float, int]:
    """``measure`` with the debates split between ``processes`` worker processes."""
    shares = [count // processes + (n < count % processes) for n in range(processes)]
    with ProcessPoolExecutor(processes) as pool:
        list(pool.map(measure, [2] * processes, [latency_ms] * processes))  # warm up
        wall = time.perf_counter()
        parts = list(pool.map(_worker, shares, [latency_ms] * processes, [checks] * processes))
        wall = time.perf_counter() - wall
    return wall, sum(p[1] for p in parts), sum(p[2] for p in parts)


def _transcripts(count: int) -> list[Transcript]:
    """The transcripts the detectors read after ``count`` demo debates."""
    kept: list[Transcript] = []
    module, name = CHECKS[0]
    run = getattr(module, name)

    def keep(transcript: Transcript, *args: Any, **kwargs: Any) -> Any:
        kept.append(transcript)
        return run(transcript, *args, **kwargs)

    setattr(module, name, keep)
    try:
        asyncio.run(_debates(count, 0.0))
    finally:
        setattr(module, name, run)
    return kept


def _empty_caches() -> None:
    """Every ``functools`` cache of moot's loaded modules emptied."""
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("moot."):
            for value in list(vars(module).values()):
                if hasattr(value, "cache_info") and hasattr(value, "cache_clear"):
                    value.cache_clear()


def _turns_ms(transcripts: list[Transcript], check: TurnCheck | None) -> float:
    """CPU ms a transcript of the turn history, with ``check`` on every turn (None: the
    history alone)."""
    start = time.process_time()
    for transcript in transcripts:
        history = TurnHistory(transcript, None)
        for index in range(len(transcript.turns)):
            history.advance(index)
            if check is not None:
                check(transcript, index, history)
    return 1000 * (time.process_time() - start) / len(transcripts)


def _whole_ms(transcripts: list[Transcript], run: Callable[[Transcript], object]) -> float:
    start = time.process_time()
    for transcript in transcripts:
        run(transcript)
    return 1000 * (time.process_time() - start) / len(transcripts)


def per_detector(count: int) -> None:
    """Print each detector's CPU ms a debate on ``count`` demo debates' transcripts."""
    transcripts = _transcripts(count)
    turns = sum(len(t.turns) for t in transcripts) / len(transcripts)
    print(f"{len(transcripts)} transcripts, {turns:.1f} turns each; CPU ms a debate")
    parts: list[tuple[str, Callable[[], float]]] = [
        *(
            (name, lambda check=check: _turns_ms(transcripts, check))
            for name, check in core.TURN_CHECKS.items()
        ),
        ("transcript", lambda: _whole_ms(transcripts, core.transcript_findings)),
        ("history", lambda: _turns_ms(transcripts, None)),
        ("all", lambda: _whole_ms(transcripts, core.run_detectors)),
    ]
    print("caches  " + "".join(f"{name:>14}" for name, _ in parts))
    for label in ("empty", "full"):
        row = []
        for _, measured in parts:
            if label == "empty":
                _empty_caches()
            row.append(measured())
        print(f"{label:8}" + "".join(f"{ms:14.2f}" for ms in row))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debates", type=int, default=200)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--per-detector",
        action="store_true",
        help="each detector's CPU on the debates' transcripts",
    )
    args = parser.parse_args(argv)
    if args.per_detector:
        per_detector(args.debates)
        return 0
    if args.processes > 1:
        print("checks    debates   wall s   calls   calls/s   CPU ms/call   processes")
        for checks in (True, False):
            wall, cpu, calls = measure_processes(
                args.debates, args.latency_ms, args.processes, checks=checks
            )
            print(
                f"{'with' if checks else 'without':8} {args.debates:8} {wall:8.1f} {calls:7}"
                f" {calls / wall:9.0f} {1000 * cpu / calls:12.2f} {args.processes:11}"
            )
        return 0
    measure(2, args.latency_ms)  # warm up: imports, caches
    print("checks    debates   wall s   calls   calls/s   CPU ms/call")
    for label in ("with", "without"):
        if label == "with":
            wall, cpu, calls = measure(args.debates, args.latency_ms)
        else:
            with without_checks():
                wall, cpu, calls = measure(args.debates, args.latency_ms)
        print(
            f"{label:8} {args.debates:8} {wall:8.1f} {calls:7} {calls / wall:9.0f}"
            f" {1000 * cpu / calls:12.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
