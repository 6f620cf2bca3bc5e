"""``score_inflation``: the judge's scores sit at 9-10, or in a compressed high band.

Definition, on the whole transcript (turn and side null), either of:

- at 9-10: at least ``MIN_SCORES`` scores, of which at least ``MIN_SHARE`` (80%) are
  ``HIGH_SCORE`` (9) or more, with a mean of at least ``MIN_MEAN`` (9.0). So 9, 10, 9,
  10 is inflated; 9, 10, 9, 10, 8 is too (80% at 9-10, mean 9.2); 10, 10, 10, 10, 1
  is not (mean 8.2);
- a compressed high band: at least ``BAND_MIN_SCORES`` scores, every one between
  ``BAND_LOW`` (7) and ``BAND_HIGH`` (9), not all equal (that is zero variance), with
  a population standard deviation of at most ``BAND_MAX_SPREAD`` (0.75). So 8, 9, 8, 9
  and 7, 7, 8, 7 are inflated; 7, 9, 7, 9, 8 is not (spread 0.89); 6, 8, 8, 8 is not.

Scores are read on a 1-10 scale; when any score is above 10 the scale is taken to be
0-100 and every threshold is multiplied by ten (the spread is compared after dividing
by ten).
"""

from __future__ import annotations

import statistics

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
BAND_LOW = 7.0
"""The compressed band's lowest score (on 1-10)."""
BAND_HIGH = 9.0
"""The compressed band's highest score (on 1-10)."""
BAND_MAX_SPREAD = 0.75
"""Largest population standard deviation (on 1-10) of a compressed band."""
BAND_MIN_SCORES = 4
"""Fewer scores than this are never called a compressed band."""


def detect(transcript: Transcript) -> list[Finding]:
    """A finding when the judge's scores sit at 9-10."""
    scores = [s.score for s in transcript.judge_scores]
    if len(scores) < MIN_SCORES:
        return []
    scale = 10.0 if max(scores) > 10 else 1.0
    share = sum(1 for s in scores if s >= HIGH_SCORE * scale) / len(scores)
    mean = sum(scores) / len(scores)
    if share < MIN_SHARE or mean < MIN_MEAN * scale:
        spread = statistics.pstdev(scores) / scale
        in_band = all(BAND_LOW * scale <= s <= BAND_HIGH * scale for s in scores)
        if len(scores) >= BAND_MIN_SCORES and in_band and 0 < spread <= BAND_MAX_SPREAD:
            band = {
                "count": len(scores),
                "low": BAND_LOW * scale,
                "high": BAND_HIGH * scale,
                "spread": spread,
                "max_spread": BAND_MAX_SPREAD,
            }
            return [Finding("score_inflation", None, None, "score_inflation.band", band)]
        return []
    values = {
        "count": len(scores),
        "share": share,
        "mean": mean,
        "min_share": MIN_SHARE,
        "min_mean": MIN_MEAN * scale,
    }
    return [Finding("score_inflation", None, None, "score_inflation", values)]
