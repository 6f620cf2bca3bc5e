"""Per-judge calibration of scores: z-score (default) or min-max over
the judge's own scores, so a lenient and a severe judge become comparable.

Degenerate cases are defined, not divided by zero: with one score, or when every
score is equal, the judge expressed no preference between arguments, so every
calibrated value is the scale's neutral point (0 for z-scores, 0.5 for min-max) and
the calibration carries a note that says so. "Equal" is judged on the scores
themselves (a spread under ``FLAT_SPREAD``), not on the computed scale: six scores of
5.85 have a float mean of 5.8500000000000005 and a standard deviation of about 1e-16,
which would otherwise turn "no preference" into a z-score of -1 for every argument.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from moot import i18n
from moot.schema import Calibration, CalibrationMethod

FLAT_SPREAD = 1e-9  # scores closer than this (on the 1-10 scale) are equal


def calibrate(
    scores: Mapping[str, float], method: CalibrationMethod = "zscore", lang: str = "en"
) -> tuple[dict[str, float], Calibration]:
    """Calibrated scores by key, and how they were calibrated."""
    values = list(scores.values())
    if not values:
        return {}, Calibration(method=method, center=0.0, scale=0.0, note="no scores")
    neutral = 0.0 if method == "zscore" else 0.5
    if method == "zscore":
        center = math.fsum(values) / len(values)
        scale = math.sqrt(math.fsum((v - center) ** 2 for v in values) / len(values))
    else:
        center = min(values)
        scale = max(values) - center
    if len(values) == 1 or max(values) - min(values) <= FLAT_SPREAD:
        note = i18n.message(
            lang, "calibration.one_score" if len(values) == 1 else "calibration.flat"
        )
        return (
            {k: neutral for k in scores},
            Calibration(method=method, center=round(center, 6), scale=0.0, note=note),
        )
    calibrated = {k: round((v - center) / scale, 6) for k, v in scores.items()}
    return calibrated, Calibration(method=method, center=round(center, 6), scale=round(scale, 6))
