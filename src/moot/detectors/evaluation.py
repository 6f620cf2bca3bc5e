"""Precision and recall of the detectors on labelled transcripts.

A labelled file is JSON: ``{"cases": [{"id": ..., "transcript": {...}, "labels":
[{"detector": ..., "turn": INDEX|null, "side": ...}]}]}``. The labels of a case are
complete: every (detector, turn) they do not list is a negative. A flag counts as a
true positive when a label has its detector and turn (``null`` for flags on the whole
transcript), so each turn, and each transcript for the transcript-wide detectors, is
one decision per detector.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from moot.detectors.core import PassChoice, run_detectors
from moot.detectors.transcript import (
    DETECTOR_NAMES,
    DetectorName,
    Flag,
    Transcript,
    parse_transcript,
)


class Label(BaseModel):
    """One flag a case should get."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    detector: DetectorName
    turn: int | None
    side: str | None


class LabelledCase(BaseModel):
    """A transcript with every flag it should get."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str
    note: str = ""
    transcript: Transcript
    labels: list[Label]


@dataclass(frozen=True)
class Counts:
    """True positives, false positives and false negatives of one detector."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def precision(self) -> float | None:
        """TP / (TP + FP), None when the detector never fired."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        """TP / (TP + FN), None when there was nothing to find."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        """The harmonic mean of precision and recall, None when either is undefined."""
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True)
class Outcome:
    """One detector's decisions on one case: what it flagged and what it missed."""

    case: str
    detector: DetectorName
    false_positives: tuple[int | None, ...]
    false_negatives: tuple[int | None, ...]
    counts: Counts


def load_cases(path: Path) -> list[LabelledCase]:
    """The labelled cases of one JSON file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [LabelledCase.model_validate(case) for case in data["cases"]]


def load_real_cases(root: Path, split: str) -> list[LabelledCase]:
    """The real transcripts of one split (``root/split/*.json``, each a ``moot lint``
    input) with their hand labels (``root/labels.json``: ``{"labels": {id: [{detector,
    turn, side, why}]}}``), as labelled cases whose id is the file's stem."""
    data = json.loads((root / "labels.json").read_text(encoding="utf-8"))
    labels: dict[str, list[dict[str, object]]] = data["labels"]
    cases = []
    for path in sorted((root / split).glob("*.json")):
        rows = labels[path.stem]
        cases.append(
            LabelledCase(
                id=path.stem,
                transcript=parse_transcript(json.loads(path.read_text(encoding="utf-8"))),
                labels=[
                    Label.model_validate({k: row[k] for k in ("detector", "turn", "side")})
                    for row in rows
                ],
            )
        )
    return cases


def outcomes(
    case: LabelledCase, flags: Iterable[Flag] | None = None, choice: PassChoice | None = "auto"
) -> list[Outcome]:
    """Each detector's decisions on ``case`` (running the detectors in the pass
    ``choice`` unless ``flags``)."""
    found = list(run_detectors(case.transcript, choice) if flags is None else flags)
    results: list[Outcome] = []
    for name in DETECTOR_NAMES:
        predicted = {f.turn for f in found if f.detector == name}
        gold = {label.turn for label in case.labels if label.detector == name}
        counts = Counts(len(predicted & gold), len(predicted - gold), len(gold - predicted))
        results.append(
            Outcome(
                case.id,
                name,
                tuple(sorted(predicted - gold, key=lambda t: -1 if t is None else t)),
                tuple(sorted(gold - predicted, key=lambda t: -1 if t is None else t)),
                counts,
            )
        )
    return results


def score(
    cases: Iterable[LabelledCase], choice: PassChoice | None = "auto"
) -> dict[tuple[DetectorName, str], Counts]:
    """Counts per detector and language over ``cases`` (detectors in pass ``choice``)."""
    totals: dict[tuple[DetectorName, str], Counts] = {}
    for case in cases:
        for outcome in outcomes(case, choice=choice):
            key = (outcome.detector, case.transcript.lang)
            totals[key] = totals.get(key, Counts()) + outcome.counts
    return totals
