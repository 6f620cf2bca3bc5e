"""The engine's own CPU per model call: N concurrent scripted debates in one process
(``scripted:demo`` with a fixed latency, so the model costs no CPU), with and without
the detectors run after each debate and the echo check run on each reply.

    python benchmarks/engine_cpu.py                 # 200 debates, 200 ms latency
    python benchmarks/engine_cpu.py --debates 1000  # the issue's measurement

Prints wall seconds, model calls, calls per second and engine CPU per call for each
configuration. "without" replaces ``moot.debate.run_detectors`` and
``moot.llm.structured.echoes`` by functions that find nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import moot.debate
import moot.llm.structured
from moot.debate import arun_debate
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debates", type=int, default=200)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    args = parser.parse_args(argv)
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
