"""``moot lint`` on a long transcript: the repetition detector in a second process,
the other detectors in this one, and the same flags as one process finds."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from moot.detectors import lint
from moot.detectors.core import choose_pass, run_pass
from moot.detectors.transcript import read_transcript

REAL = Path(__file__).parent / "data" / "detectors" / "real"


def long_transcript(tmp_path: Path, turns: int) -> Path:
    """The first 50 turns of real debates, then the same again, so that the second
    time round every turn repeats one said before, as far as ``turns`` (their sides
    made pro and con in turn)."""
    said: list[str] = []
    for path in sorted(REAL.glob("holdout/en-*.json")):
        said += [turn["text"] for turn in json.loads(path.read_text(encoding="utf-8"))["turns"]]
    said = said[:50]
    texts = (said * (turns // len(said) + 1))[:turns]
    sides = {"pro": "Cities should ban cars", "con": "Cities should not ban cars"}
    data = {
        "topic": "Should cities ban cars from their centres?",
        "lang": "en",
        "sides": sides,
        "turns": [{"side": ("pro", "con")[i % 2], "text": text} for i, text in enumerate(texts)],
    }
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """A machine of two cores on which 100 turns are a long transcript."""
    monkeypatch.setattr(lint, "PARALLEL_TURNS", 100)
    monkeypatch.setattr(lint, "usable_cores", lambda: 2)
    return monkeypatch


@pytest.mark.process
def test_two_processes_find_what_one_finds(tmp_path: Path, two_cores: pytest.MonkeyPatch) -> None:
    path = long_transcript(tmp_path, 120)
    started: list[int] = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)
            super().__init__(max_workers=max_workers)

    two_cores.setattr(lint, "ProcessPoolExecutor", Counted)
    transcript, chosen, flags = lint.lint_pass(path, "lexical")
    assert started == [1]
    alone = run_pass(read_transcript(path.read_bytes(), source=str(path)), chosen)
    assert [f.model_dump() for f in flags] == [f.model_dump() for f in alone]
    detectors = {f.detector for f in flags}
    assert "repetition" in detectors  # from the second process
    assert detectors - {"repetition"}  # from this one
    assert len(transcript.turns) == 120


def test_a_short_transcript_or_one_core_stays_in_this_process(
    tmp_path: Path, two_cores: pytest.MonkeyPatch
) -> None:
    # the fast tier fails a test that starts a process: none is started here
    path = long_transcript(tmp_path, 120)
    two_cores.setattr(lint, "PARALLEL_TURNS", 121)
    _, chosen, flags = lint.lint_pass(path, "lexical")
    assert flags
    two_cores.setattr(lint, "PARALLEL_TURNS", 100)
    two_cores.setattr(lint, "usable_cores", lambda: 1)
    _, _, again = lint.lint_pass(path, "lexical")
    assert again == flags
    assert chosen.mode == "lexical"


def test_the_encoder_pass_stays_in_this_process(
    tmp_path: Path, two_cores: pytest.MonkeyPatch
) -> None:
    path = long_transcript(tmp_path, 120)
    transcript = read_transcript(path.read_bytes(), source=str(path))
    chosen = choose_pass(transcript, "auto")
    if chosen.mode != "encoder":
        pytest.skip(f"the encoder pass does not run here: {chosen.reason}")
    assert lint._run(transcript, chosen) == run_pass(transcript, chosen)
