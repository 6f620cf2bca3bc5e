"""Waves, calls and duration-controller tries of one competitive debate.

Runs a competitive debate and reports, from the calls' own start and end events:

- **waves**: sequential steps of model calls (a call sent after every call sent
  before it has come back begins a new wave; the calls of one wave are sent
  together), the depth a slow model makes users wait through. The demo answers
  after a fixed latency so that concurrent calls overlap;
- **calls** by kind: rehearsal claims and rebuttals, writers, simulated audience,
  rewrites (the duration controller's tries), votes, judge; and the re-asks;
- **tries** of the duration controller per speech, each speech's measured and
  target seconds and the timing error (measured - target; the window allows -15 s
  to +1 s), whether it fits its window, and where the seconds came from;
- the wall time.

    python benchmarks/competitive.py [--model scripted:demo?latency_ms=20] [--lang en] [--seed 1]
        [--stage-seconds 240,240,120] [--depth 3] [--branching 3] [--claims 3]
        [--voters 5] [--embedder auto|lexical] [--timeout S] [--out result.json] [--json]

On the embedded model a debate takes long (its speeches are hundreds of tokens each);
try ``--model local --depth 1 --branching 2 --claims 2 --voters 3``, with a longer
``--timeout`` on a busy machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from moot import run_debate
from moot.events import CallFinished, CallStarted, Event
from moot.formats.competitive.options import stage_seconds
from moot.formats.competitive.rehearsal import ClaimsCall, ExpandCall
from moot.formats.competitive.rounds import VoteCall
from moot.formats.competitive.speeches import AudienceCall, RewriteCall, WriteCall

TOPIC = "Should cities ban cars from their centres?"
KINDS: tuple[tuple[type, str], ...] = (
    (ClaimsCall, "rehearsal claims"),
    (ExpandCall, "rehearsal rebuttals"),
    (WriteCall, "writer"),
    (AudienceCall, "audience"),
    (RewriteCall, "rewrite"),
    (VoteCall, "vote"),
)


class Timeline:
    """Every call's kind, start and end (from the run's events)."""

    def __init__(self) -> None:
        self.started: dict[int, tuple[float, str]] = {}
        self.finished: dict[int, float] = {}

    def __call__(self, event: Event) -> None:
        if isinstance(event, CallStarted):
            data = event.context.data
            kind = next((name for t, name in KINDS if isinstance(data, t)), event.context.round)
            self.started[event.call_id] = (time.perf_counter(), kind)
        elif isinstance(event, CallFinished):
            self.finished[event.call_id] = time.perf_counter()

    def waves(self) -> int:
        count, horizon = 0, float("-inf")
        for call_id, (start, _) in sorted(self.started.items(), key=lambda item: item[1][0]):
            if start >= horizon:
                count += 1
            horizon = max(horizon, self.finished.get(call_id, start))
        return count

    def kinds(self) -> dict[str, int]:
        return dict(Counter(kind for _, kind in self.started.values()))


def measure(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {
        "stage_seconds": stage_seconds(args.stage_seconds),
        "depth": args.depth,
        "branching": args.branching,
        "claims": args.claims,
        "voters": args.voters,
        "embedder": args.embedder,
    }
    timeline = Timeline()
    started = time.perf_counter()
    result = run_debate(
        TOPIC,
        model=args.model,
        lang=args.lang,
        seed=args.seed,
        format="competitive",
        format_options=options,
        on_event=timeline,
        **({"timeout": args.timeout} if args.timeout else {}),
    )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(result.model_dump_json(indent=2))
    wall = time.perf_counter() - started
    body = result.payload["competitive"]
    return {
        "model": args.model,
        "wall_seconds": round(wall, 1),
        "waves": timeline.waves(),
        "calls": result.usage.calls,
        "reasks": result.usage.reasks,
        "calls_by_kind": timeline.kinds(),
        "similarity": body["similarity"]["method"],
        "speeches": [
            {
                "id": s["id"],
                "tries": len(s["budget_steps"]),
                "seconds": s["measured_seconds"],
                "target": s["target_seconds"],
                "error": round(s["measured_seconds"] - s["target_seconds"], 1),
                "within": s["within"],
                "cut": s["cut"],
                "source": s["duration_source"],
                "refused_plans": len(s["refused_plans"]),
            }
            for s in body["speeches"]
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="scripted:demo?latency_ms=20")
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stage-seconds", default="240,240,120")
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--branching", type=int, default=3)
    parser.add_argument("--claims", type=int, default=3)
    parser.add_argument("--voters", type=int, default=5)
    parser.add_argument("--embedder", choices=("auto", "lexical"), default="auto")
    parser.add_argument("--timeout", type=float, help="seconds a model request may take")
    parser.add_argument("--out", help="also write the debate's result JSON to this file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    report = measure(args)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    print(f"{report['model']}: {report['waves']} waves, {report['calls']} calls")
    print(f"  ({report['reasks']} re-asks), {report['wall_seconds']} s; {report['similarity']}")
    for kind, count in report["calls_by_kind"].items():
        print(f"  {kind:20} {count}")
    for s in report["speeches"]:
        where = "inside" if s["within"] else "OUTSIDE"
        print(
            f"  {s['id']:13} {s['tries']} tries  {s['seconds']:7.1f} / {s['target']:g} s"
            f" ({s['error']:+.1f} s)"
            f"  {where}{' (cut)' if s['cut'] else ''}  {s['source']}"
            f"  refused plans: {s['refused_plans']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
