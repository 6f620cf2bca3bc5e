"""Running the detectors: on a whole transcript after a debate, or on one new turn
during it. Each detector lives in its own module; this one only calls them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from moot.detectors import (
    ad_hominem,
    false_consensus,
    judge_zero_variance,
    repetition,
    score_inflation,
    stance_drift,
    topic_drift,
)
from moot.detectors.finding import Finding
from moot.detectors.history import TurnHistory
from moot.detectors.meaning import MAX_CHARS, Encoder, encoder, in_runs, why_lexical
from moot.detectors.transcript import (
    DETECTOR_NAMES,
    PER_TURN_DETECTORS,
    DetectorName,
    Flag,
    Mode,
    Transcript,
    Turn,
)

TurnCheck = Callable[[Transcript, int, TurnHistory], Finding | None]
TranscriptCheck = Callable[[Transcript], list[Finding]]


def _ad_hominem(transcript: Transcript, index: int, history: TurnHistory) -> Finding | None:
    return ad_hominem.check(transcript, index)


TURN_CHECKS: dict[DetectorName, TurnCheck] = {
    "repetition": repetition.check,
    "ad_hominem": _ad_hominem,
    "topic_drift": topic_drift.check,
    "stance_drift": stance_drift.check,
}
"""Detectors that judge one turn at a time (on the turns before it)."""
TRANSCRIPT_CHECKS: dict[DetectorName, TranscriptCheck] = {
    "judge_zero_variance": judge_zero_variance.detect,
    "score_inflation": score_inflation.detect,
    "false_consensus": false_consensus.detect,
}
"""Detectors that need the whole transcript."""


def _order(flag: Flag) -> tuple[int, int, int]:
    turn = -1 if flag.turn is None else flag.turn
    return (flag.turn is None, turn, DETECTOR_NAMES.index(flag.detector))


MAX_ENCODED_TURNS = 5000
"""Longer transcripts are judged lexically; the mode says so."""
MAX_ENCODED_CHARS = 150_000
"""So are transcripts with more text to encode than this (each turn counted up to the
encoder's ``MAX_CHARS``). Encoding costs about 0.1 ms of CPU a character (47 ms for a
371-character turn, measured 2026-12-07 on a loaded two-core machine), so 1,000
ordinary turns took 90-128 s in the encoder pass where 10,000 took 26 s in the lexical
one; this bound keeps the encoder pass near 15 s. The longest real transcript in the
project's labelled sets has 16,718 characters."""

PassChoice = Literal["auto", "lexical"]


@dataclass(frozen=True)
class Pass:
    """The pass the detectors run in on a transcript: ``encoder`` (the sentence encoder
    judges repetition and topic relevance by meaning, beside the lexical rules) or
    ``lexical``, and why it is lexical."""

    mode: Mode
    reason: str | None
    meaning: Encoder | None


def choose_pass(transcript: Transcript, choice: PassChoice | None = None) -> Pass:
    """The encoder pass when asked for (``auto``), installed and the transcript is not
    too long for it; else the lexical pass with the reason. ``None`` is a debate's
    default: lexical unless ``MOOT_DETECTORS=encoder`` (on moot's own debates the
    encoder's thresholds, calibrated on real transcripts, flag templated demo speeches,
    and encoding costs CPU on every debate; docs/detectors.md)."""
    if choice is None:
        if not in_runs():
            return Pass("lexical", "the default in debates", None)
        choice = "auto"
    if choice == "lexical":
        return Pass("lexical", "asked for", None)
    if len(transcript.turns) > MAX_ENCODED_TURNS:
        return Pass("lexical", f"more than {MAX_ENCODED_TURNS} turns", None)
    if sum(min(len(turn.text), MAX_CHARS) for turn in transcript.turns) > MAX_ENCODED_CHARS:
        return Pass("lexical", f"more than {MAX_ENCODED_CHARS:,} characters to encode", None)
    meaning = encoder()
    if meaning is None:
        return Pass("lexical", why_lexical(), None)
    return Pass("encoder", None, meaning)


def _history(transcript: Transcript, chosen: Pass, texts: Sequence[str]) -> TurnHistory:
    if chosen.meaning is not None:
        # one batch for every text the detectors will ask about
        chosen.meaning.prepare([*texts, transcript.topic, *transcript.sides.values()])
    return TurnHistory(transcript, chosen.meaning)


def run_detectors(transcript: Transcript, choice: PassChoice | None = None) -> list[Flag]:
    """Every flag of every detector on ``transcript``: turn flags in turn order, then
    flags on the whole transcript. Evidence is in the transcript's language. ``choice``:
    ``auto`` uses the sentence encoder when installed, ``lexical`` keeps to the lexical
    rules, None is a debate's default (see ``choose_pass``)."""
    return run_pass(transcript, choose_pass(transcript, choice))


def run_pass(transcript: Transcript, chosen: Pass) -> list[Flag]:
    """``run_detectors`` in the pass ``chosen``."""
    findings = turn_findings(transcript, chosen, tuple(TURN_CHECKS))
    return flags_of(transcript, findings + transcript_findings(transcript))


def turn_findings(
    transcript: Transcript, chosen: Pass, names: Sequence[DetectorName]
) -> list[Finding]:
    """What the per-turn detectors ``names`` find on every turn, read in order. Each
    judges a turn on the turns before it alone, so any grouping of the detectors finds
    the same (``moot lint`` runs two groups in two processes)."""
    checks = [TURN_CHECKS[name] for name in names]
    findings: list[Finding] = []
    history = _history(transcript, chosen, [t.text for t in transcript.turns])
    for index in range(len(transcript.turns)):
        history.advance(index)
        for check in checks:
            found = check(transcript, index, history)
            if found is not None:
                findings.append(found)
    return findings


def transcript_findings(transcript: Transcript) -> list[Finding]:
    """What the detectors of the whole transcript find."""
    return [found for detect in TRANSCRIPT_CHECKS.values() for found in detect(transcript)]


def flags_of(transcript: Transcript, findings: Sequence[Finding]) -> list[Flag]:
    """``findings`` as flags in the transcript's language: turn flags in turn order (and
    the detectors' order within a turn), then flags on the whole transcript."""
    return sorted((f.flag(transcript.lang) for f in findings), key=_order)


@dataclass(frozen=True)
class TurnIssue:
    """A per-turn detector firing on a new turn: the flag, and the reason to give the
    speaker (in the transcript's language) when the turn is asked for again."""

    flag: Flag
    reason: str


def check_turn(
    transcript: Transcript,
    turn: Turn,
    labels: Sequence[str] | None = None,
    choice: PassChoice | None = None,
) -> list[TurnIssue]:
    """Which of repetition, topic drift and stance drift fire on ``turn`` if it were
    added to ``transcript`` (the turns so far). The same turn gets the same flags
    from ``run_detectors`` later: these detectors only look back. ``labels`` names
    the turns so far as the speaker saw them (speech ids), for the reasons."""
    extended = transcript.with_turn(turn)
    index = len(extended.turns) - 1
    chosen = choose_pass(extended, choice)
    history = _history(extended, chosen, [t.text for t in extended.turns[-8:]])
    history.advance(index)
    issues: list[TurnIssue] = []
    for name in PER_TURN_DETECTORS:
        found = TURN_CHECKS[name](extended, index, history)
        if found is not None:
            lang = transcript.lang
            issues.append(TurnIssue(flag=found.flag(lang), reason=found.reason(lang, labels)))
    return issues
