"""A large price CSV through ``moot snapshots``: time and peak memory.

Generates a long OHLCV file (``symbol,date,open,high,low,close,volume``, sorted by
date, every ticker on every session: the order of a real multi-ticker export, and
the worst for streaming, since every ticker runs through the whole file) of about
``--size`` bytes, deterministic from ``--seed`` (a random walk per ticker; synthetic
data). Then runs, each in its own process so its peak resident memory is its own:

- ``kept``: ``moot snapshots FILE --ticker T0000 --ticker T0001 --every 20
  --horizon 20`` (the other tickers' rows stream by unparsed);
- ``all``: the same with every ticker, which stops at the streaming
  limit (``csvload.MAX_BARS``) with exit 2 naming the line, nothing written.

Prints, for each, the exit code, wall seconds, CPU seconds, peak resident memory
(ru_maxrss of the child) and the load average before and after (the machine may be
shared: read the times with it).

    python benchmarks/market_big_csv.py --size 1e9 [--tickers 2000] [--dir /tmp/big]
        [--keep-file] [--json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HEADER = "symbol,date,open,high,low,close,volume\n"


def generate(path: Path, size: int, tickers: int, seed: int) -> dict[str, Any]:
    """Write the file: a session (every ticker's row) at a time until ``size`` bytes."""
    rng = random.Random(seed)  # noqa: S311  synthetic prices, not a secret
    names = [f"T{n:04d}" for n in range(tickers)]
    closes = [rng.uniform(20, 200) for _ in names]
    day = dt.date(1980, 1, 1)
    rows = sessions = 0
    written = 0
    started = time.perf_counter()
    with path.open("w", encoding="utf-8", newline="") as handle:
        handle.write(HEADER)
        written += len(HEADER)
        while written < size:
            day += dt.timedelta(days=1)
            if day.weekday() >= 5:
                continue
            stamp = day.isoformat()
            lines = []
            for i, name in enumerate(names):
                o = max(1.0, closes[i] * (1 + rng.gauss(0, 0.005)))
                c = max(1.0, o * (1 + rng.gauss(0, 0.01)))
                h = max(o, c) * (1 + abs(rng.gauss(0, 0.004)))
                lo = min(o, c) * (1 - abs(rng.gauss(0, 0.004)))
                closes[i] = c
                o, c, h, lo = round(o, 2), round(c, 2), round(h, 2), round(lo, 2)
                h, lo = max(h, o, c), min(lo, o, c)
                lines.append(f"{name},{stamp},{o},{h},{lo},{c},{rng.randrange(10**5, 10**7)}\n")
            block = "".join(lines)
            handle.write(block)
            written += len(block)
            rows += tickers
            sessions += 1
    return {
        "path": str(path),
        "bytes": path.stat().st_size,
        "rows": rows,
        "tickers": tickers,
        "sessions": sessions,
        "first": "1980-01-01",
        "last": day.isoformat(),
        "seconds": round(time.perf_counter() - started, 1),
    }


def run(args: list[str]) -> dict[str, Any]:
    """One ``moot`` command in a child process: exit code, wall and CPU seconds, the
    child's peak resident memory, the load average before and after, its last line."""
    before = os.getloadavg()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(  # noqa: S603  our own interpreter and arguments
        [sys.executable, "-m", "moot", *args], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = (done.stdout + done.stderr).strip().splitlines()
    return {
        "args": args,
        "exit": done.returncode,
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime, 1),
        "peak_rss_mib": round(after.ru_maxrss / 1024, 1),
        "load_before": [round(x, 1) for x in before],
        "load_after": [round(x, 1) for x in os.getloadavg()],
        "last_line": lines[-1] if lines else "",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=float, default=1e9, help="bytes to write (1e9)")
    parser.add_argument("--tickers", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None, help="where to write (a temp dir)")
    parser.add_argument("--keep-file", action="store_true", help="leave the CSV behind")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args(argv)
    root = options.dir or Path(tempfile.mkdtemp(prefix="moot-big-"))
    root.mkdir(parents=True, exist_ok=True)
    path = root / "big.csv"
    made = generate(path, int(options.size), options.tickers, options.seed)
    figures: dict[str, Any] = {"file": made}
    try:
        # the ru_maxrss of children is the largest child so far: the smaller run first
        kept = ["snapshots", str(path), "--out", str(root / "kept"), "--synthetic"]
        kept += ["--ticker", "T0000", "--ticker", "T0001", "--every", "20", "--horizon", "20"]
        figures["kept"] = run(kept)
        every = ["--every", "20", "--horizon", "20"]
        figures["all"] = run(
            ["snapshots", str(path), "--out", str(root / "all"), "--synthetic", *every]
        )
        figures["all"]["wrote_nothing"] = not (root / "all").exists()
    finally:
        if not options.keep_file:
            path.unlink(missing_ok=True)
        shutil.rmtree(root / "kept", ignore_errors=True)
    if options.json:
        print(json.dumps(figures, indent=2))
    else:
        f = figures["file"]
        print(
            f"file: {f['bytes']:,} bytes, {f['rows']:,} rows, {f['tickers']} tickers x"
            f" {f['sessions']} sessions ({f['first']} .. {f['last']}), written in {f['seconds']} s"
        )
        for name in ("kept", "all"):
            r = figures[name]
            print(
                f"{name}: exit {r['exit']}, {r['wall_seconds']} s wall, {r['cpu_seconds']} s CPU,"
                f" peak RSS {r['peak_rss_mib']} MiB, load {r['load_before']} -> {r['load_after']}"
            )
            print(f"  {r['last_line']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
