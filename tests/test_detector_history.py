"""``moot.detectors.history``: judging every turn of a long transcript without comparing
every pair still finds an old turn repeated, and is exact on short transcripts."""

from __future__ import annotations

from moot.detectors import repetition, run_detectors
from moot.detectors.history import REPEAT_WINDOW, TurnHistory
from moot.detectors.transcript import Transcript, Turn

OPENING = (
    "Congestion pricing cuts traffic in the centre by a fifth within a year, as London"
    " and Stockholm both measured, and the revenue pays for better buses."
)


def _filler(i: int) -> str:
    words = ["tariff", "harbour", "orchard", "glacier", "lantern", "quarry", "meadow", "kiln"]
    return f"Point {i}: " + " ".join(f"{words[(i + k) % 8]}{i}x{k}" for k in range(8)) + "."


def _transcript(texts: list[str]) -> Transcript:
    return Transcript(
        topic="Should cities charge cars to enter the centre?",
        lang="en",
        sides={"pro": "Cities should charge", "con": "Cities should not charge"},
        turns=[Turn(side="pro" if i % 2 == 0 else "con", text=t) for i, t in enumerate(texts)],
    )


def test_an_old_turn_repeated_word_for_word_is_found_beyond_the_window() -> None:
    texts = [OPENING] + [_filler(i) for i in range(1, 4 * REPEAT_WINDOW)] + [OPENING]
    transcript = _transcript(texts)
    last = len(texts) - 1
    assert transcript.turns[last].side == "pro"
    found = [f for f in run_detectors(transcript) if f.detector == "repetition"]
    assert [(f.turn, f.evidence.split(" of ")[0]) for f in found] == [(last, "repeats turn 0")]


def test_within_the_window_the_history_compares_every_earlier_turn() -> None:
    texts = [OPENING] + [_filler(i) for i in range(1, 2 * REPEAT_WINDOW)]
    transcript = _transcript(texts)
    history = TurnHistory(transcript)
    history.advance(len(texts))
    pro_turns = [i for i, t in enumerate(transcript.turns) if t.side == "pro"]
    assert history.repeat_candidates("pro", ()) == pro_turns[-REPEAT_WINDOW:]
    # a new turn is checked against the same candidates repetition.check uses
    assert repetition.check(_transcript([*texts, OPENING]), len(texts)) is not None
