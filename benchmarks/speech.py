"""Speaking time: how fast espeak-ng synthesises, and how many tries the duration
controller needs to fit a speech into [T - 15 s, T + 1 s].

Synthesis speed is seconds of audio per second of CPU (and of wall time) on the
English and Chinese speeches of tests/data/speech. The controller runs with three
deterministic writers standing in for a model asked for n words:

- ``exact``: writes exactly n words (the first n of the speech, repeated as needed);
- ``noisy``: writes n x U(0.8, 1.2) words, as a model that follows a length only
  roughly;
- ``terse``: writes n x U(0.7, 0.9) words, as a model that keeps writing too little.

    python benchmarks/speech.py [--runs 10] [--targets 240,120] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from moot.formats.competitive.speech import EspeakClock, control_duration, espeak

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "speech"
SOURCES = {lang: (DATA / f"{lang}.txt").read_text(encoding="utf-8") for lang in ("en", "zh")}
WRITERS = {"exact": (1.0, 1.0), "noisy": (0.8, 1.2), "terse": (0.7, 0.9)}


def writer(lang: str, low: float, high: float, seed: int) -> Callable[[int], str]:
    """Writes about n words of the language's speech: n x U(low, high)."""
    rng = random.Random(seed)  # noqa: S311 (a reproducible stand-in, not a secret)
    source = SOURCES[lang]
    units: list[str] = source.split() if lang == "en" else list(source)
    per_word = 1.0 if lang == "en" else 1.5  # a Chinese word is 1.5 characters

    def write(n: int) -> str:
        count = max(1, round(n * rng.uniform(low, high) * per_word))
        chosen = (units * (count // len(units) + 1))[:count]
        return (" " if lang == "en" else "").join(chosen)

    return write


def synthesis_speed(lang: str, repeats: int) -> dict[str, float]:
    text = SOURCES[lang]
    audio = cpu = wall = 0.0
    for _ in range(repeats):
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        audio += espeak().synthesise(text, lang).seconds
        cpu += time.process_time() - started_cpu
        wall += time.perf_counter() - started_wall
    return {
        "audio_seconds": audio / repeats,
        "audio_per_cpu_second": audio / cpu,
        "audio_per_wall_second": audio / wall,
    }


def controller(lang: str, target: float, name: str, runs: int) -> dict[str, object]:
    low, high = WRITERS[name]
    seeds = range(1) if name == "exact" else range(runs)
    results = [
        control_duration(writer(lang, low, high, seed), target, lang, clock=EspeakClock())
        for seed in seeds
    ]
    steps = [len(r.steps) for r in results]
    return {
        "lang": lang,
        "target": target,
        "writer": name,
        "runs": len(results),
        "steps_median": statistics.median(steps),
        "steps_max": max(steps),
        "within": sum(r.within for r in results) / len(results),
        "cut": sum(r.cut for r in results) / len(results),
        "seconds": [round(r.measured_seconds, 1) for r in results],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="seeds per noisy writer")
    parser.add_argument("--targets", default="240,120", help="target seconds, comma-separated")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    targets = [float(t) for t in args.targets.split(",") if t]
    engine = espeak()
    speed = {lang: synthesis_speed(lang, 3) for lang in SOURCES}
    rows = [
        controller(lang, target, name, args.runs)
        for lang in SOURCES
        for target in targets
        for name in WRITERS
    ]
    if args.json:
        summary = {
            "espeak_ng": engine.version,
            "library": str(engine.library),
            "speed": speed,
            "controller": rows,
        }
        json.dump(summary, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"espeak-ng {engine.version} from {engine.library}")
    for lang, figures in speed.items():
        print(
            f"  {lang}: {figures['audio_seconds']:.1f} s of audio;"
            f" {figures['audio_per_cpu_second']:.0f} s of audio per CPU second,"
            f" {figures['audio_per_wall_second']:.0f} per wall second"
        )
    print("controller: tries to fit [T - 15, T + 1] (at most 10)")
    for row in rows:
        print(
            f"  {row['lang']} T={row['target']:g} s {row['writer']:<5}: median"
            f" {row['steps_median']:g} tries, max {row['steps_max']}, within"
            f" {row['within']:.0%}, cut {row['cut']:.0%} over {row['runs']} runs"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
