"""``moot lint``'s work, apart from printing: read a transcript file, run the
detectors, and make the flags safe to show (JSON payload, control characters out)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

from moot.detectors.core import run_detectors
from moot.detectors.transcript import Flag, Transcript, TranscriptError, read_transcript
from moot.safe_json import read_bytes

MAX_FILE_BYTES = 128 * 1024 * 1024
"""Largest transcript file ``moot lint`` reads, in bytes (see also the limits on turns
in ``moot.detectors.transcript``)."""

_BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def lint_file(path: Path) -> tuple[Transcript, list[Flag]]:
    """The transcript in ``path`` and its flags (``TranscriptError`` if unreadable, too
    large, or not a transcript)."""
    raw = read_bytes(path, "transcript", MAX_FILE_BYTES, TranscriptError)
    transcript = read_transcript(raw, source=str(path))
    return transcript, run_detectors(transcript)


def payload(flags: list[Flag]) -> dict[str, Any]:
    """The ``--json`` document: ``{"flags": [{detector, turn, side, evidence}, ...]}``."""
    return {"flags": [flag.model_dump() for flag in flags]}


def printable(text: str) -> str:
    """``text`` safe for a terminal: line breaks and tabs become spaces, and control
    and bidirectional-override characters are removed."""
    text = _BIDI_CONTROLS.sub("", text)
    return "".join(
        " " if ch in "\n\r\t" else ch
        for ch in text
        if ch in "\n\r\t" or unicodedata.category(ch) != "Cc"
    )
