"""Sequential model waves, calls and tokens of one structured debate.

Runs a debate on ``scripted:demo`` with a fixed per-call latency L. Calls that run
concurrently overlap, so wall time / L counts the *sequential waves* of model
calls: the depth of the debate's call graph, which is what a slow or remote model
makes users wait for. A two-sided structured debate needs 4 (openings,
cross-examinations, closings, judge); the reference code needs 7. A judge panel
keeps it at 4: its topic classification joins the first wave and every judge and
judge run goes in the last.

    python benchmarks/waves.py [--latency-ms 200] [--runs 3] [--lang en] [--json]
                               [--panel technical,business,risk,general]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from moot import run_debate

TOPIC = "Should a 10-person startup adopt microservices from day one?"


def measure(latency_ms: float, lang: str, seed: int, panel: list[str]) -> dict[str, float]:
    started = time.perf_counter()
    result = run_debate(
        TOPIC,
        model=f"scripted:demo?latency_ms={latency_ms:g}",
        lang=lang,
        seed=seed,
        panel=panel,
    )
    wall = time.perf_counter() - started
    return {
        "wall_seconds": wall,
        "waves": wall / (latency_ms / 1000),
        "calls": result.usage.calls,
        "reasks": result.usage.reasks,
        "prompt_tokens": result.usage.prompt_tokens,
        "completion_tokens": result.usage.completion_tokens,
        "arguments": len(result.body.get("arguments", [])),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--panel", default="", help="judge panel, e.g. technical,business,risk,general"
    )
    args = parser.parse_args(argv)
    panel = [name for name in args.panel.split(",") if name]
    runs = [measure(args.latency_ms, args.lang, seed, panel) for seed in range(1, args.runs + 1)]
    summary = {
        "latency_ms": args.latency_ms,
        "runs": args.runs,
        "waves_median": statistics.median(r["waves"] for r in runs),
        "waves_max": max(r["waves"] for r in runs),
        "calls_median": statistics.median(r["calls"] for r in runs),
        "prompt_tokens_median": statistics.median(r["prompt_tokens"] for r in runs),
        "completion_tokens_median": statistics.median(r["completion_tokens"] for r in runs),
        "per_run": runs,
    }
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        judges = f", panel {','.join(panel)}" if panel else ""
        print(f"latency per call: {args.latency_ms:g} ms, {args.runs} runs ({args.lang}{judges})")
        for n, r in enumerate(runs, start=1):
            print(
                f"  run {n}: {r['wall_seconds']:.3f} s = {r['waves']:.2f} waves,"
                f" {r['calls']:.0f} calls, {r['prompt_tokens']:.0f} prompt +"
                f" {r['completion_tokens']:.0f} completion tokens,"
                f" {r['arguments']:.0f} arguments"
            )
        print(
            f"median: {summary['waves_median']:.2f} waves, {summary['calls_median']:.0f} calls,"
            f" {summary['prompt_tokens_median']:.0f} prompt tokens"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
