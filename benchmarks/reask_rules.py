"""Does re-asking fix protocol-rule problems on a given model? Per rule, how often the
next attempt no longer breaks it.

Runs debates with rule re-asks on (the standard profile: up to ``--max-reasks`` re-asks
for every problem) and follows each call's attempts: whenever an attempt breaks a
rule and the model is asked again, the rule counts as *fixed* if the next attempt no
longer breaks it. Hard problems (schema, ids) are reported the same way. The compact
profile's "no rule re-asks" default for the embedded model comes from this table.

    python benchmarks/reask_rules.py [--model local] [--lang en,zh] [--seeds 1,2,3] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import defaultdict
from typing import Any

from moot import ModelOutputError, run_debate
from moot.events import Event, Validated

TOPICS = {
    "en": [
        "Should a 10-person startup adopt microservices from day one?",
        "Should cities charge cars a fee to enter the centre?",
    ],
    "zh": [
        "小型创业公司是否应该从第一天就采用微服务架构？",
        "冬季旅行应该去海南还是去东北？",
    ],
}


def attempts_of(events: list[Validated]) -> dict[tuple[str, str], list[set[str]]]:
    """Each call's problem codes per attempt, in order (key: role and round)."""
    chains: dict[tuple[str, str], list[set[str]]] = defaultdict(list)
    for event in events:
        chains[(event.context.role, event.context.round)].append(set(event.codes))
    return chains


def tally(chains: dict[tuple[str, str], list[set[str]]]) -> dict[str, list[int]]:
    """Per problem code: [re-asks while it was broken, next attempts that fixed it]."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for attempts in chains.values():
        for now, after in itertools.pairwise(attempts):
            for code in now:
                counts[code][0] += 1
                counts[code][1] += code not in after
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--lang", default="en,zh")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--max-reasks", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    debates = failed = 0
    for lang in args.lang.split(","):
        for topic in TOPICS[lang]:
            for seed in (int(s) for s in args.seeds.split(",")):
                events: list[Validated] = []

                def listen(event: Event, into: list[Validated] = events) -> None:
                    if isinstance(event, Validated):
                        into.append(event)

                try:
                    run_debate(
                        topic,
                        model=args.model,
                        lang=lang,
                        seed=seed,
                        profile="standard",
                        max_reasks=args.max_reasks,
                        on_event=listen,
                    )
                except ModelOutputError:
                    failed += 1
                debates += 1
                for code, (asked, fixed) in tally(attempts_of(events)).items():
                    totals[code][0] += asked
                    totals[code][1] += fixed
                print(f"done: {lang}, seed {seed}: {topic}", file=sys.stderr)
    rows = sorted(totals.items(), key=lambda item: -item[1][0])
    if args.json:
        report: dict[str, Any] = {
            "model": args.model,
            "debates": debates,
            "failed": failed,
            "rules": {
                code: {"reasks": a, "fixed": f, "rate": round(f / a, 3) if a else None}
                for code, (a, f) in rows
            },
        }
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"{args.model}: {debates} debates ({failed} stopped on a reply that never validated)")
    print(f"{'problem':24} {'re-asks':>8} {'fixed':>6} {'rate':>6}")
    for code, (asked, fixed) in rows:
        print(f"{code:24} {asked:>8} {fixed:>6} {fixed / asked:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
