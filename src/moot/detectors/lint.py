"""``moot lint``'s work, apart from printing: read a transcript file, run the
detectors, and make the flags safe to show (JSON payload, control characters out)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from moot.cores import usable_cores
from moot.detectors.core import (
    TURN_CHECKS,
    Pass,
    PassChoice,
    choose_pass,
    flags_of,
    run_pass,
    transcript_findings,
    turn_findings,
)
from moot.detectors.messages import message
from moot.detectors.transcript import (
    DetectorName,
    Flag,
    Transcript,
    TranscriptError,
    read_transcript,
)
from moot.safe_json import read_bytes

MAX_FILE_BYTES = 128 * 1024 * 1024
"""Largest transcript file ``moot lint`` reads, in bytes (see also the limits on turns
in ``moot.detectors.transcript``)."""

PARALLEL_TURNS = 2000
"""Transcripts of at least this many turns, judged in the lexical pass on a machine with
two cores or more, are judged by two processes: a second one runs the repetition
detector (about half the work on long transcripts) while this one runs the others.
Below this, starting a process costs more than it saves."""
APART: tuple[DetectorName, ...] = ("repetition",)
"""The detectors the second process runs."""

_BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def lint_file(path: Path, choice: PassChoice = "auto") -> tuple[Transcript, list[Flag]]:
    """The transcript in ``path`` and its flags (``TranscriptError`` if unreadable, too
    large, or not a transcript)."""
    transcript, _, flags = lint_pass(path, choice)
    return transcript, flags


def lint_pass(path: Path, choice: PassChoice = "auto") -> tuple[Transcript, Pass, list[Flag]]:
    """``lint_file`` with the pass the detectors ran in."""
    raw = read_bytes(path, "transcript", MAX_FILE_BYTES, TranscriptError)
    transcript = read_transcript(raw, source=str(path))
    chosen = choose_pass(transcript, choice)
    return transcript, chosen, _run(transcript, chosen)


def _run(transcript: Transcript, chosen: Pass) -> list[Flag]:
    """``run_pass``, on two cores when the transcript is long (``PARALLEL_TURNS``). The
    encoder pass stays in one process: it holds the encoder, and it only runs on
    transcripts short enough for it."""
    if chosen.mode != "lexical" or len(transcript.turns) < PARALLEL_TURNS or usable_cores() < 2:
        return run_pass(transcript, chosen)
    here = tuple(name for name in TURN_CHECKS if name not in APART)
    with ProcessPoolExecutor(max_workers=1) as pool:
        apart = pool.submit(turn_findings, transcript, chosen, APART)
        findings = turn_findings(transcript, chosen, here) + transcript_findings(transcript)
        findings += apart.result()
    return flags_of(transcript, findings)


def payload(
    flags: list[Flag], chosen: Pass | None = None, review: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``--json`` document: ``{"mode", "lexical_reason", "flags": [{detector, turn,
    side, evidence, mode}, ...]}`` (``mode`` and ``lexical_reason`` when the pass is
    given); after a model's review each flag also has ``review`` and
    ``review_reason``, and ``review`` is ``{"model", "calls", "reviewed",
    "unreviewed", "found", "rejected": [flags]}``."""
    head: dict[str, Any] = {}
    if chosen is not None:
        head = {"mode": chosen.mode, "lexical_reason": chosen.reason}
    if review is None:  # the review's fields only when a model reviewed the flags
        unreviewed = {"review", "review_reason"}
        return {**head, "flags": [flag.model_dump(exclude=unreviewed) for flag in flags]}
    rejected = [flag.model_dump() for flag in review["rejected"]]
    return {
        **head,
        "flags": [flag.model_dump() for flag in flags],
        "review": {**review, "rejected": rejected},
    }


def pass_line(chosen: Pass, lang: str) -> str:
    """The line ``moot lint`` prints about the pass, in ``lang``."""
    if chosen.meaning is not None:
        return message(lang, "lint.encoder")
    return message(lang, "lint.lexical", reason=chosen.reason or "")


def printable(text: str) -> str:
    """``text`` safe for a terminal: line breaks and tabs become spaces, and control
    and bidirectional-override characters are removed."""
    text = _BIDI_CONTROLS.sub("", text)
    return "".join(
        " " if ch in "\n\r\t" else ch
        for ch in text
        if ch in "\n\r\t" or unicodedata.category(ch) != "Cc"
    )
