"""Calibrated models for the encoder pass: a logistic regression per detector over
features the detectors already compute, in place of hand-set thresholds.

For repetition the encoder pass keeps the wording rule's flags (a near-verbatim
repeat) and judges the turns it leaves alone by meaning; for topic drift the model has
the last word on every turn long enough to judge, with the lexical rules' verdict as
one of its features (it keeps, overrules or adds a flag; the flag of a non-speech or of
scaffolding stands). A turn's features (below) go
through the fitted model, and the turn is flagged when the model's probability reaches
the threshold stored with it (topic drift still leaves alone a short turn close in
meaning to the turns just before it). That threshold is the one that gives the whole
detector, the verdicts the model does not judge included, its best F0.5 out of source:
a model whose flags are less precise than the detector's own adds few or none
(``tools/fit_detector_weights.py``). The topic drift features include the turn's length
in distinct content terms, alone and times its cosines, so that decision is length-aware.

The weights live in ``learned_weights.json`` beside this module. They are fitted on the
real transcripts' train-side splits and the written ``train`` split only, by
``python tools/fit_detector_weights.py`` (numpy, no other dependency), which writes the
file again from the labelled data. Only earlier turns are read, so a turn gets the same
verdict during a debate (``check_turn``) as after it.

Features of a turn of side S (cosines are of the sentence encoder's vectors):

repetition
    ``pooled``: the cosine with the mean of S's earlier turns' vectors (the candidates
    of the lexical rule), which a summary restating several of S's speeches at once
    scores high on though none of them alone is its match (since the fourteenth round;
    it replaced ``own``, the highest cosine with one of them, which out of source did
    worse with or beside it); ``wording``: the wording similarity (the lexical rule's)
    with the earlier turn closest in meaning (the one a flag cites);
    ``novel_specific``: the share of the turn's own distinct content terms (not the
    motion's, not used by any other side: a debate's shared scaffolding is not the
    claim) S never used before;
    ``question``: the share of its sentences that are questions (pressing a question is
    not restating). Ten more features (the opponents' cosine, length, restatement cues,
    new figures and names...) were dropped in the sixth round: with one source of
    transcripts left out at a time they made the model worse (docs/detectors.md); in
    the seventh round the share of new terms was narrowed to the turn's own terms, and
    sentence-level novelty and meaning, a residual cosine (the recent turns' mean
    removed) and the opponents' cosine were tried and dropped for the same reason.
topic_drift
    ``motion``: the highest cosine with the topic and the stances; ``answers``: the
    highest with the opponents' last 4 turns; ``own_last``: with S's own last turn;
    ``shared``: the share of its distinctive terms said earlier in the debate;
    ``motion_terms``: the share of its terms that are the motion's; ``addresses``: it
    addresses the debate (the opponent, a side by name, "you"); ``length``;
    ``motion_x_length``; ``lexical``: the lexical rules flag it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from moot.detectors.transcript import DetectorName

WEIGHTS = Path(__file__).with_name("learned_weights.json")
"""The fitted models (``tools/fit_detector_weights.py`` writes it)."""


@dataclass(frozen=True)
class Model:
    """One detector's fitted logistic regression: ``features`` in order, the mean and
    scale each is standardised with, the weights, the bias and the probability at or
    above which a turn is flagged."""

    detector: DetectorName
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float

    def probability(self, values: Mapping[str, float]) -> float:
        """The model's probability for a turn with these feature ``values``."""
        z = self.bias
        for name, mean, scale, weight in zip(
            self.features, self.mean, self.scale, self.weights, strict=True
        ):
            z += weight * (values[name] - mean) / scale
        if z < -60:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))


def parse_models(data: Mapping[str, object]) -> dict[DetectorName, Model]:
    """The models of a weights document (``learned_weights.json``); a clear error when
    it is malformed."""
    found: dict[DetectorName, Model] = {}
    models = data.get("models")
    if not isinstance(models, dict):
        raise ValueError("learned weights: no 'models' object")
    for detector, raw in models.items():
        if detector not in FEATURE_NAMES:
            raise ValueError(f"learned weights: no features are known for {detector!r}")
        names = tuple(raw["features"])
        if names != FEATURE_NAMES[detector]:
            raise ValueError(f"learned weights: {detector} has features {names}")
        columns = [tuple(float(v) for v in raw[key]) for key in ("mean", "scale", "weights")]
        if any(len(c) != len(names) for c in columns) or any(s <= 0 for s in columns[1]):
            raise ValueError(f"learned weights: {detector} has malformed columns")
        found[detector] = Model(
            detector,
            names,
            columns[0],
            columns[1],
            columns[2],
            float(raw["bias"]),
            float(raw["threshold"]),
        )
    return found


@cache
def models() -> dict[DetectorName, Model]:
    """The shipped models, by detector (none when the weights file is absent)."""
    if not WEIGHTS.exists():
        return {}
    return parse_models(json.loads(WEIGHTS.read_text(encoding="utf-8")))


def model(detector: DetectorName) -> Model | None:
    """The shipped model of ``detector``, if one was fitted."""
    return models().get(detector)


FEATURE_NAMES: dict[str, tuple[str, ...]] = {
    "repetition": ("pooled", "wording", "novel_specific", "question"),
    "topic_drift": (
        "motion",
        "answers",
        "own_last",
        "shared",
        "motion_terms",
        "addresses",
        "length",
        "motion_x_length",
        "lexical",
    ),
}


@dataclass(frozen=True)
class Features:
    """A turn's feature values and what a flag would cite: the earlier turn closest in
    meaning (repetition) and the cosine it is cited with."""

    values: dict[str, float]
    earlier: int | None
    similarity: float


def log_length(terms: int) -> float:
    """The length feature: ln of a turn's distinct content terms."""
    return math.log(max(terms, 1))
