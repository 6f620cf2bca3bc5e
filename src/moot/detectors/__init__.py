"""Detectors for the ways debates go wrong, on any transcript, in English and Chinese.

Seven detectors, each in its own module, all lexical or statistical (no model, no
network): ``repetition``, ``ad_hominem``, ``topic_drift``, ``stance_drift``,
``judge_zero_variance``, ``score_inflation`` and ``false_consensus``. They read a
``Transcript`` (topic, language, sides with stances, turns, optional judge scores)
and return ``Flag`` objects (detector, turn, side, evidence). ``run_detectors`` runs
them all after a debate; ``check_turn`` runs the three that a debate can act on
while it runs (repetition, topic drift, stance drift) on a new turn, with the reason
to give the speaker. docs/detectors.md describes each one, its thresholds and its
measured precision and recall.
"""

from moot.detectors.core import TurnIssue, check_turn, run_detectors
from moot.detectors.false_consensus import Concession, check_concessions
from moot.detectors.transcript import (
    DETECTOR_NAMES,
    PER_TURN_DETECTORS,
    DetectorName,
    Flag,
    JudgeScore,
    Transcript,
    TranscriptError,
    Turn,
    parse_transcript,
    read_transcript,
)

__all__ = [
    "DETECTOR_NAMES",
    "PER_TURN_DETECTORS",
    "Concession",
    "DetectorName",
    "Flag",
    "JudgeScore",
    "Transcript",
    "TranscriptError",
    "Turn",
    "TurnIssue",
    "check_concessions",
    "check_turn",
    "parse_transcript",
    "read_transcript",
    "run_detectors",
]
