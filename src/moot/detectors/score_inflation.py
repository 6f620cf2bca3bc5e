"""``score_inflation``: the judge's scores sit at 9-10.

Definition, on the whole transcript (turn and side null): at least ``MIN_SCORES``
scores, of which at least ``MIN_SHARE`` (80%) are ``HIGH_SCORE`` (9) or more, with a
mean of at least ``MIN_MEAN`` (9.0). So 9, 10, 9, 10 is inflated; 9, 10, 9, 10, 8 is
too (80% at 9-10, mean 9.2); 8, 9, 8, 9 is not (mean 8.5); 10, 10, 10, 10, 1 is not
(mean 8.2). Scores are read on a 1-10 scale; when any score is above 10 the scale is
taken to be 0-100 and both thresholds are multiplied by ten.
"""

from __future__ import annotations

from moot.detectors.finding import Finding
from moot.detectors.transcript import Transcript

HIGH_SCORE = 9.0
"""A score at least this high (on 1-10) is a 9-10 score."""
MIN_SHARE = 0.8
"""Share of scores that must be 9-10."""
MIN_MEAN = 9.0
"""The mean score must be at least this (on 1-10)."""
MIN_SCORES = 2
"""Fewer scores than this are never flagged."""


def detect(transcript: Transcript) -> list[Finding]:
    """A finding when the judge's scores sit at 9-10."""
    scores = [s.score for s in transcript.judge_scores]
    if len(scores) < MIN_SCORES:
        return []
    scale = 10.0 if max(scores) > 10 else 1.0
    share = sum(1 for s in scores if s >= HIGH_SCORE * scale) / len(scores)
    mean = sum(scores) / len(scores)
    if share < MIN_SHARE or mean < MIN_MEAN * scale:
        return []
    values = {
        "count": len(scores),
        "share": share,
        "mean": mean,
        "min_share": MIN_SHARE,
        "min_mean": MIN_MEAN * scale,
    }
    return [Finding("score_inflation", None, None, "score_inflation", values)]
