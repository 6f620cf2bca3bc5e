"""The lexical detectors give exactly the flags and re-ask reasons they gave before
their speed-ups: on the labelled sets (written and real) and on moot's demo debates of
every format in both languages (``data/detectors/demo_transcripts.json``), the flags of
``run_detectors`` and, on every turn, the issues of ``check_turn`` (flag and reason) in
the lexical pass match ``data/detectors/lexical_golden.json``, recorded at b0452c4
before the detectors were changed for speed (evidence texts included, so a similarity
that moves by a rounding step is caught).

    python tests/test_detector_golden.py   # rewrite the golden file (only when a
                                           # change of the flags is intended)
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from moot.detectors import Transcript, check_turn, parse_transcript, run_detectors
from moot.detectors.evaluation import load_cases, load_real_cases

DATA = Path(__file__).parent / "data" / "detectors"
GOLDEN = DATA / "lexical_golden.json"
DEMOS = DATA / "demo_transcripts.json"


@cache
def transcripts() -> dict[str, Transcript]:
    """Every transcript the golden file covers, by a stable key."""
    found: dict[str, Transcript] = {}
    for split in ("train", "test", "holdout"):
        for lang in ("en", "zh"):
            for case in load_cases(DATA / split / f"{lang}.json"):
                found[f"written/{split}/{lang}/{case.id}"] = case.transcript
    for split in ("train", "holdout", "fresh", "fresh2"):
        for case in load_real_cases(DATA / "real", split):
            found[f"real/{split}/{case.id}"] = case.transcript
    for demo in json.loads(DEMOS.read_text(encoding="utf-8")):
        found[demo["id"]] = parse_transcript(demo["transcript"])
    return found


def outcome(transcript: Transcript) -> dict[str, Any]:
    """The lexical pass's flags, and each turn's ``check_turn`` issues, as JSON."""
    issues: dict[str, list[list[str]]] = {}
    for index, turn in enumerate(transcript.turns):
        before = transcript.model_copy(update={"turns": transcript.turns[:index]})
        found = check_turn(before, turn, choice="lexical")
        if found:
            issues[str(index)] = [[i.flag.detector, i.flag.evidence, i.reason] for i in found]
    flags = [f.model_dump() for f in run_detectors(transcript, "lexical")]
    return {"flags": flags, "check_turn": issues}


@cache
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_the_golden_file_covers_every_transcript() -> None:
    assert set(golden()) == set(transcripts())
    # not a file of empty outcomes: it holds flags and re-ask reasons to compare
    assert sum(len(v["flags"]) for v in golden().values()) > 150
    assert sum(len(v["check_turn"]) for v in golden().values()) > 60


@pytest.mark.parametrize("group", ["written", "real", "demo"])
def test_the_lexical_detectors_give_the_recorded_flags(group: str) -> None:
    keys = [k for k in transcripts() if k.startswith(group)]
    assert keys
    for key in keys:
        assert outcome(transcripts()[key]) == golden()[key], key


if __name__ == "__main__":
    everything = {key: outcome(t) for key, t in transcripts().items()}
    GOLDEN.write_text(json.dumps(everything, ensure_ascii=False, indent=0) + "\n", "utf-8")
    print(f"{len(everything)} transcripts written to {GOLDEN}", file=sys.stderr)
