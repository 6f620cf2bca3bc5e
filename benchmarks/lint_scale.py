"""How ``moot lint`` scales: wall time and peak memory at 1k, 10k and 100k turns, and
its exit code on hostile files (nested 100,000 deep, a 5,000-digit number, a device).

Each size is a transcript of real debate turns (tests/data/detectors/real, cycled,
each tagged with its index so no two are identical), linted by ``python -m moot lint
FILE --json`` in a fresh process, so the figures include start-up.

    python benchmarks/lint_scale.py                # 1000 10000 100000
    python benchmarks/lint_scale.py 2000 5000      # other sizes
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REAL = Path(__file__).resolve().parent.parent / "tests" / "data" / "detectors" / "real"
SIZES = (1_000, 10_000, 100_000)


def transcript(turns: int) -> dict[str, object]:
    """``turns`` English turns from the real set, alternating two sides."""
    texts = [
        turn["text"]
        for path in sorted(REAL.glob("*/en-*.json"))
        for turn in json.loads(path.read_text(encoding="utf-8"))["turns"]
    ]
    return {
        "topic": "Should cities ban cars from their centres?",
        "lang": "en",
        "sides": {"pro": "Cities should ban cars", "con": "Cities should not ban cars"},
        "turns": [
            {"side": ("pro", "con")[i % 2], "text": f"{texts[i % len(texts)]} ({i})"}
            for i in range(turns)
        ],
    }


def lint(path: Path) -> tuple[int, float, float, float]:
    """Exit code, wall seconds, CPU seconds and peak resident MiB of ``moot lint path
    --json`` (the CPU time is the process's own, so it changes less than the wall time
    on a loaded machine)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before, cpu_before = usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    start = time.perf_counter()
    done = subprocess.run(  # noqa: S603 (our own command)
        [sys.executable, "-m", "moot", "lint", str(path), "--json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime - cpu_before
    # ru_maxrss of children is the largest so far: sizes run in increasing order
    return done.returncode, seconds, cpu, max(usage.ru_maxrss, before) / 1024


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "sizes",
        nargs="*",
        type=int,
        default=list(SIZES),
        help="transcript sizes in turns (default: 1000 10000 100000)",
    )
    sizes = parser.parse_args(argv).sizes
    with tempfile.TemporaryDirectory() as tmp:
        print("turns      MB   exit   seconds   CPU s   peak MiB")
        for size in sorted(sizes):
            path = Path(tmp) / f"t{size}.json"
            path.write_text(json.dumps(transcript(size)), encoding="utf-8")
            code, seconds, cpu, peak = lint(path)
            megabytes = path.stat().st_size / 1e6
            print(
                f"{size:>7} {megabytes:7.1f}   {code:>4}   {seconds:7.1f}  {cpu:6.1f}   {peak:8.0f}"
            )
        hostile = {
            "nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
            "5,000-digit number": '{"topic": ' + "9" * 5000 + "}",
        }
        for name, text in hostile.items():
            path = Path(tmp) / "hostile.json"
            path.write_text(text, encoding="utf-8")
            print(f"{name}: exit {lint(path)[0]}")
        print(f"/dev/zero: exit {lint(Path('/dev/zero'))[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
