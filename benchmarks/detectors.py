"""Precision, recall and F1 of the debate detectors on the labelled transcripts.

The labelled set (tests/data/detectors) has a train split, on which the detectors
were tuned, and two held-out splits: test, written before the detectors, and
holdout, written after them and before any evaluation on it (docs/detectors.md gives
each held-out split's first-evaluation figures and what changed after them). Each
turn is one decision per turn detector, each transcript one decision per
transcript-wide detector (see moot.detectors.evaluation).

    python benchmarks/detectors.py            # the table
    python benchmarks/detectors.py --misses   # and every false positive / negative
    python benchmarks/detectors.py --real     # the real transcripts, every split
                                              # (train / holdout / fresh ... fresh14)
    python benchmarks/detectors.py --real --split train   # one split only (for tuning)
    python benchmarks/detectors.py --lexical  # lexical rules only (no sentence encoder)
    python benchmarks/detectors.py --real --split holdout --review MODEL
        # the model-assisted mode: MODEL (local, openai:URL#NAME...) reviews each flag

The real set (tests/data/detectors/real, see its SOURCES.md) is debates moot did not
write, labelled by hand per docs/labelling.md; its holdout split is for reporting only.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from moot.detectors import DETECTOR_NAMES
from moot.detectors.core import PassChoice, run_detectors
from moot.detectors.evaluation import (
    Counts,
    LabelledCase,
    load_cases,
    load_real_cases,
    outcomes,
)
from moot.detectors.meaning import encoder
from moot.detectors.transcript import Flag
from moot.judging.flag_review import review_flags
from moot.llm.backend import resolve_backend
from moot.llm.meter import Meter

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "detectors"
REAL = DATA / "real"
SPLITS = ("train", "test", "holdout")
REAL_SPLITS = (
    "train",
    "holdout",
    "fresh",
    "fresh2",
    "fresh3",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
)
LANGS = ("en", "zh")


def _figure(value: float | None) -> str:
    return "   -" if value is None else f"{value:4.2f}"


def _row(split: str, detector: str, lang: str, counts: Counts) -> str:
    return (
        f"{split:7}  {detector:19}  {lang:3}  {counts.tp:3} {counts.fp:3} {counts.fn:3}"
        f"   {_figure(counts.precision)}  {_figure(counts.recall)}  {_figure(counts.f1)}"
    )


def _reviewed(case: LabelledCase, choice: PassChoice, spec: str) -> list[Flag]:
    """The flags of ``case`` after the model ``spec`` reviewed them."""
    flags = run_detectors(case.transcript, choice)
    done = asyncio.run(
        review_flags(case.transcript, flags, backend=resolve_backend(spec), meter=Meter())
    )
    print(
        f"  {case.id}: {done.calls} calls, {done.reviewed} reviewed,"
        f" {len(done.rejected)} rejected, {done.found} found, {done.unreviewed} unreviewed",
        flush=True,
    )
    return done.flags


def _flags(
    cases: list[LabelledCase], choice: PassChoice, review: str | None
) -> dict[str, list[Flag]]:
    """Each case's flags (reviewed by the model ``review`` when given)."""
    if review is None:
        return {c.id: run_detectors(c.transcript, choice) for c in cases}
    return {c.id: _reviewed(c, choice, review) for c in cases}


def _score(
    cases: list[LabelledCase], flags: dict[str, list[Flag]]
) -> dict[tuple[str, str], Counts]:
    totals: dict[tuple[str, str], Counts] = {}
    for case in cases:
        for outcome in outcomes(case, flags=flags[case.id]):
            key = (outcome.detector, case.transcript.lang)
            totals[key] = totals.get(key, Counts()) + outcome.counts
    return totals


def _misses(cases: list[LabelledCase], flags: dict[str, list[Flag]]) -> list[str]:
    lines = []
    for case in cases:
        for outcome in outcomes(case, flags=flags[case.id]):
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


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        epilog="Examples are in the script's docstring.",
    )
    parser.add_argument("--real", action="store_true", help="the real transcripts")
    parser.add_argument(
        "--split",
        choices=sorted({*SPLITS, *REAL_SPLITS}),
        help="one split only",
    )
    parser.add_argument("--lexical", action="store_true", help="lexical rules only")
    parser.add_argument("--misses", action="store_true", help="every false positive/negative")
    parser.add_argument("--review", metavar="MODEL", help="MODEL reviews every flag")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = _arguments(argv)
    real = args.real
    choice: PassChoice = "lexical" if args.lexical else "auto"
    print(f"pass: {'lexical' if choice == 'lexical' or encoder() is None else 'encoder'}")
    print("split    detector             lang  TP  FP  FN      P     R    F1")
    misses: list[str] = []
    summary: dict[tuple[str, str], Counts] = {}
    only: str | None = args.split
    review: str | None = args.review
    if review is not None:
        print(f"model-assisted: {review} reviews every flag")
    for split in REAL_SPLITS if real else SPLITS:
        if only is not None and split != only:
            continue
        cases = _load(split, real)
        flags = {lang: _flags(cases[lang], choice, review) for lang in LANGS}
        totals = {lang: _score(cases[lang], flags[lang]) for lang in LANGS}
        turns = sum(len(c.transcript.turns) for lang in LANGS for c in cases[lang])
        print(f"{split}: {sum(len(c) for c in cases.values())} transcripts, {turns} turns")
        for detector in DETECTOR_NAMES:
            both = Counts()
            for lang in LANGS:
                found = totals[lang].get((detector, lang), Counts())
                both = both + found
                print(_row(split, detector, lang, found))
            print(_row(split, detector, "all", both))
            summary[(split, detector)] = both
        if args.misses:
            misses.extend(
                f"{split}:{line}" for lang in LANGS for line in _misses(cases[lang], flags[lang])
            )
    for line in misses:
        print(line)
    print(_summary(summary))
    return 0


def _summary(summary: dict[tuple[str, str], Counts]) -> str:
    """One line per detector: precision / recall (TP/FP/FN) in each split, both
    languages pooled."""
    splits = list(dict.fromkeys(split for split, _ in summary))
    lines = [
        "per split, both languages: P / R (TP/FP/FN)",
        "detector".ljust(20) + "".join(s.ljust(26) for s in splits),
    ]
    for detector in DETECTOR_NAMES:
        cells = []
        for split in splits:
            c = summary[(split, detector)]
            cells.append(
                f"{_figure(c.precision).strip()} / {_figure(c.recall).strip()}"
                f" ({c.tp}/{c.fp}/{c.fn})".ljust(26)
            )
        lines.append(detector.ljust(20) + "".join(cells))
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
