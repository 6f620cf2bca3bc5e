"""``judge_zero_variance``: every judge score is the same.

Fires on the whole transcript (turn and side null) when it has at least
``MIN_SCORES`` judge scores and they are all equal (to within ``TOLERANCE``, so 7 and
7.0 are equal). A judge that gives every turn the same score did not discriminate
between them: a sign of bias or of a judge that did not read. One score has no
variance to speak of and is never flagged.
"""

from __future__ import annotations

from moot.detectors.finding import Finding
from moot.detectors.transcript import Transcript

MIN_SCORES = 2
"""Fewer scores than this are never flagged."""
TOLERANCE = 1e-9
"""Scores closer than this are equal."""


def detect(transcript: Transcript) -> list[Finding]:
    """A finding when every judge score is the same."""
    scores = [s.score for s in transcript.judge_scores]
    if len(scores) < MIN_SCORES or max(scores) - min(scores) > TOLERANCE:
        return []
    values = {"count": len(scores), "value": scores[0]}
    return [Finding("judge_zero_variance", None, None, "judge_zero_variance", values)]
