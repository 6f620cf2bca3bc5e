"""Sequential model waves, calls and tokens of one debate.

Runs a debate on ``scripted:demo`` with a fixed per-call latency L. Calls that run
concurrently overlap, so wall time / L counts the *sequential waves* of model
calls: the depth of the debate's call graph, which is what a slow or remote model
makes users wait for. A two-sided structured debate needs 4 (openings,
cross-examinations, closings, judge); the reference code needs 7. A judge panel
keeps it at 4: its topic classification joins the first wave and every judge and
judge run goes in the last. The market format (``--format market``, on the demo
KB) needs 4 too with eight analysts: all openings, every cross-examination of every
pair in both directions, all closings, then the judge with its synthesis (the
reference design runs each pair's two cross-examinations one after the other: 5
waves before its judge, 6 in all).

    python benchmarks/waves.py [--latency-ms 200] [--runs 3] [--lang en] [--json]
                               [--panel technical,business,risk,general]
                               [--format structured|freeform|market] [--concurrency N]
                               [--profile compact]

``--profile compact`` measures the embedded model's protocol: each opening argument is
its own call (three per side, all in the first wave), so the structured debate makes
11 calls in the same 4 waves (7 under the standard profile).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from moot import run_debate
from moot.llm.scripted import DemoBackend, DemoCall

TOPIC = "Should a 10-person startup adopt microservices from day one?"


FORMAT_OPTIONS = {"market": {"kb": "demo"}}
MARKET_TOPIC = "Will ExampleIndex close higher a month from now?"


def call_waves(calls: list[DemoCall]) -> int:
    """Sequential waves read from the calls' own start and end stamps: the longest chain
    of calls each of which started after the one before it had finished (the depth
    of the call graph as it ran). Unlike wall time / latency, it does not count the
    time moot spends between waves (checking replies, rendering prompts, the
    detectors), which a loaded machine stretches; a concurrency cap that splits a
    round in two shows as two waves."""
    depth: list[int] = []
    ordered = sorted(calls, key=lambda c: c.started)
    for n, call in enumerate(ordered):
        before = [depth[k] for k in range(n) if ordered[k].finished <= call.started]
        depth.append(1 + max(before, default=0))
    return max(depth, default=0)


def measure(
    latency_ms: float,
    lang: str,
    seed: int,
    panel: list[str],
    fmt: str = "structured",
    concurrency: int | None = None,
    profile: str | None = None,
) -> dict[str, float]:
    demo = DemoBackend(latency_ms=latency_ms)
    started = time.perf_counter()
    result = run_debate(
        MARKET_TOPIC if fmt == "market" else TOPIC,
        model=demo,
        lang=lang,
        seed=seed,
        panel=panel,
        format=fmt,
        format_options=FORMAT_OPTIONS.get(fmt, {}),
        concurrency=concurrency,
        profile=profile,
    )
    wall = time.perf_counter() - started
    return {
        "wall_seconds": wall,
        "waves": wall / (latency_ms / 1000),
        "call_waves": call_waves(demo.calls),
        "calls": result.usage.calls,
        "reasks": result.usage.reasks,
        "prompt_tokens": result.usage.prompt_tokens,
        "completion_tokens": result.usage.completion_tokens,
        "arguments": len(result.judgement.scores),
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
    parser.add_argument("--format", default="structured", help="structured, freeform or market")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="calls in flight per endpoint (default: moot run's, the format's widest round)",
    )
    parser.add_argument("--profile", default=None, help="a model profile, e.g. compact")
    args = parser.parse_args(argv)
    panel = [name for name in args.panel.split(",") if name]
    runs = [
        measure(
            args.latency_ms, args.lang, seed, panel, args.format, args.concurrency, args.profile
        )
        for seed in range(1, args.runs + 1)
    ]
    summary = {
        "latency_ms": args.latency_ms,
        "runs": args.runs,
        "waves_median": statistics.median(r["waves"] for r in runs),
        "waves_max": max(r["waves"] for r in runs),
        "call_waves_median": statistics.median(r["call_waves"] for r in runs),
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
        print(
            f"{args.format} debate, latency per call: {args.latency_ms:g} ms, {args.runs} runs"
            f" ({args.lang}{judges})"
        )
        for n, r in enumerate(runs, start=1):
            print(
                f"  run {n}: {r['wall_seconds']:.3f} s = {r['waves']:.2f} waves"
                f" ({r['call_waves']:.0f} from the calls' stamps),"
                f" {r['calls']:.0f} calls, {r['prompt_tokens']:.0f} prompt +"
                f" {r['completion_tokens']:.0f} completion tokens,"
                f" {r['arguments']:.0f} judged units"
            )
        print(
            f"median: {summary['waves_median']:.2f} waves"
            f" ({summary['call_waves_median']:.0f} from the calls' stamps),"
            f" {summary['calls_median']:.0f} calls,"
            f" {summary['prompt_tokens_median']:.0f} prompt tokens"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
