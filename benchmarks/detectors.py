"""Precision, recall and F1 of the debate detectors on the labelled transcripts.

The labelled set (tests/data/detectors) has a train split, on which the detectors
were tuned, and two held-out splits: test, written before the detectors, and
holdout, written after them and before any evaluation on it (docs/detectors.md gives
each held-out split's first-evaluation figures and what changed after them). Each
turn is one decision per turn detector, each transcript one decision per
transcript-wide detector (see moot.detectors.evaluation).

    python benchmarks/detectors.py            # the table
    python benchmarks/detectors.py --misses   # and every false positive / negative
    python benchmarks/detectors.py --real     # the real transcripts (train / holdout)
    python benchmarks/detectors.py --real --split train   # one split only (for tuning)
    python benchmarks/detectors.py --lexical  # lexical rules only (no sentence encoder)

The real set (tests/data/detectors/real, see its SOURCES.md) is debates moot did not
write, labelled by hand per docs/labelling.md; its holdout split is for reporting only.
"""

from __future__ import annotations

import sys
from pathlib import Path

from moot.detectors import DETECTOR_NAMES
from moot.detectors.core import PassChoice
from moot.detectors.evaluation import (
    Counts,
    LabelledCase,
    load_cases,
    load_real_cases,
    outcomes,
    score,
)
from moot.detectors.meaning import encoder

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "detectors"
REAL = DATA / "real"
SPLITS = ("train", "test", "holdout")
REAL_SPLITS = ("train", "holdout")
LANGS = ("en", "zh")


def _figure(value: float | None) -> str:
    return "   -" if value is None else f"{value:4.2f}"


def _row(split: str, detector: str, lang: str, counts: Counts) -> str:
    return (
        f"{split:7}  {detector:19}  {lang:3}  {counts.tp:3} {counts.fp:3} {counts.fn:3}"
        f"   {_figure(counts.precision)}  {_figure(counts.recall)}  {_figure(counts.f1)}"
    )


def _misses(cases: list[LabelledCase], choice: PassChoice) -> list[str]:
    lines = []
    for case in cases:
        for outcome in outcomes(case, choice=choice):
            for turn in outcome.false_positives:
                lines.append(f"  false positive  {outcome.detector:19} {case.id} turn {turn}")
            for turn in outcome.false_negatives:
                lines.append(f"  false negative  {outcome.detector:19} {case.id} turn {turn}")
    return lines


def _load(split: str, real: bool) -> dict[str, list[LabelledCase]]:
    if not real:
        return {lang: load_cases(DATA / split / f"{lang}.json") for lang in LANGS}
    every = load_real_cases(REAL, split)
    return {lang: [c for c in every if c.transcript.lang == lang] for lang in LANGS}


def main(argv: list[str]) -> int:
    real = "--real" in argv
    choice: PassChoice = "lexical" if "--lexical" in argv else "auto"
    print(f"pass: {'lexical' if choice == 'lexical' or encoder() is None else 'encoder'}")
    print("split    detector             lang  TP  FP  FN      P     R    F1")
    misses: list[str] = []
    only = argv[argv.index("--split") + 1] if "--split" in argv else None
    for split in REAL_SPLITS if real else SPLITS:
        if only is not None and split != only:
            continue
        cases = _load(split, real)
        totals = {lang: score(cases[lang], choice) for lang in LANGS}
        turns = sum(len(c.transcript.turns) for lang in LANGS for c in cases[lang])
        print(f"{split}: {sum(len(c) for c in cases.values())} transcripts, {turns} turns")
        for detector in DETECTOR_NAMES:
            both = Counts()
            for lang in LANGS:
                found = totals[lang][(detector, lang)]
                both = both + found
                print(_row(split, detector, lang, found))
            print(_row(split, detector, "all", both))
        if "--misses" in argv:
            misses.extend(
                f"{split}:{line}" for lang in LANGS for line in _misses(cases[lang], choice)
            )
    for line in misses:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
