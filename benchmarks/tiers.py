"""The time of each test tier, against the budget (fast <= 3 min, all <= 40 min on two
cores).

    python benchmarks/tiers.py                     # runs each tier in turn, -n auto
    python benchmarks/tiers.py fast server         # only these tiers
    python benchmarks/tiers.py --junit run.xml     # reads a run's JUnit XML instead

Running, each tier is its own pytest session (``-m`` selects it, as tests/tier_plugin.py
defines the tiers), so its wall time includes starting the workers and collecting.
Reading a JUnit XML (``python -m pytest --junitxml run.xml``), the time of a tier is
its tests' time summed (each test's report says its tier).
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from tier_plugin import FAST, TIER_MARKERS, TIERS  # noqa: E402 (tests/ is not a package)

BUDGET = {FAST: 3 * 60.0}
TOTAL_BUDGET = 40 * 60.0


def expression(tier: str) -> str:
    """The ``-m`` expression of one tier: its marker and none of the later ones."""
    if tier == FAST:
        return FAST
    later = list(TIER_MARKERS)[list(TIER_MARKERS).index(tier) + 1 :]
    return " and ".join([tier, *(f"not {m}" for m in later)])


@dataclass
class Timed:
    tier: str
    seconds: float
    tests: int
    outcome: str


def run_tier(tier: str, workers: str, extra: Sequence[str]) -> Timed:
    command = [sys.executable, "-m", "pytest", "-m", expression(tier), "-q", "-n", workers]
    command += ["-p", "no:cacheprovider", *extra]
    print(f"$ {' '.join(command)}", flush=True)
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)  # noqa: S603
    seconds = time.monotonic() - started
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    closing = lines[-1].strip("= ") if lines else f"exit {done.returncode}"
    print(f"  {closing}", flush=True)
    words = closing.replace(",", "").split()
    ran = sum(
        int(n) for n, kind in itertools.pairwise(words) if n.isdigit() and kind != "deselected"
    )
    return Timed(tier, seconds, ran, "ok" if done.returncode in (0, 5) else "failed")


def read_junit(path: Path) -> list[Timed]:
    seconds: dict[str, float] = {}
    tests: dict[str, int] = {}
    for case in ET.parse(path).iter("testcase"):  # noqa: S314 (our own pytest's report)
        tier = FAST
        for prop in case.iter("property"):
            if prop.get("name") == "tier":
                tier = prop.get("value") or FAST
        seconds[tier] = seconds.get(tier, 0.0) + float(case.get("time") or 0.0)
        tests[tier] = tests.get(tier, 0) + 1
    return [Timed(t, seconds[t], tests[t], "read") for t in TIERS if t in seconds]


def report(timed: list[Timed]) -> bool:
    total = sum(t.seconds for t in timed) or 1.0
    print(f"\n{'tier':<8} {'tests':>6} {'seconds':>9} {'share':>6}  budget")
    within = True
    for t in timed:
        budget = BUDGET.get(t.tier)
        verdict = ""
        if budget is not None:
            ok = t.seconds <= budget
            within &= ok
            verdict = f"<= {budget:.0f} s: {'within' if ok else 'OVER'}"
        print(f"{t.tier:<8} {t.tests:>6} {t.seconds:>9.1f} {t.seconds / total:>6.0%}  {verdict}")
    ok = total <= TOTAL_BUDGET
    within &= ok
    print(
        f"{'all':<8} {sum(t.tests for t in timed):>6} {total:>9.1f} {'':>6}  "
        f"<= {TOTAL_BUDGET:.0f} s: {'within' if ok else 'OVER'}"
    )
    return within


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tiers", nargs="*", help=f"of {', '.join(TIERS)} (default: all)")
    parser.add_argument("--junit", type=Path, help="read this JUnit XML instead of running")
    parser.add_argument("-n", "--workers", default="auto", help="pytest-xdist workers")
    args, extra = parser.parse_known_args()
    unknown = set(args.tiers) - set(TIERS)
    if unknown:
        parser.error(f"unknown tier(s) {', '.join(sorted(unknown))}; tiers: {', '.join(TIERS)}")
    if args.junit:
        timed = read_junit(args.junit)
    else:
        timed = [run_tier(tier, args.workers, extra) for tier in args.tiers or TIERS]
    sys.exit(0 if report(timed) else 1)


if __name__ == "__main__":
    main()
