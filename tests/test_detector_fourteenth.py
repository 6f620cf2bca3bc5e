"""The fourteenth round (docs/detectors.md, "Fourteenth round"): the calibrated repetition
model reads a turn's cosine with the mean of its side's earlier turns (``pooled``), which a
summary restating several of the side's speeches at once scores high on although none of
them alone is its match; and stance drift no longer takes agreement with a side of the
same stance (both for, both against the motion) for taking up an opponent's position,
with "I support this position" read as a side's stance for the motion. Each with the
cases it must leave alone."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from moot.detectors import parse_transcript, repetition, stance_drift
from moot.detectors.evaluation import load_real_cases
from moot.detectors.history import TurnHistory
from moot.detectors.learned import FEATURE_NAMES, model
from moot.detectors.meaning import Encoder
from moot.detectors.transcript import Transcript

REAL = Path(__file__).resolve().parent / "data" / "detectors" / "real"

CONSTRUCTIVE = "constructive: cars poison the air children breathe on the way to school."
REBUTTAL = "rebuttal: buses and bicycles carry the nurses the other side worries about."
SUMMARY = "summary: clean air for children, and transport that still reaches every worker."
NEW = "a levy on lorries would pay for night buses across the whole region."
OTHER = "con: shops lose custom to suburban malls when drivers cannot park downtown."

# vectors a fake encoder gives: the summary lies between the constructive and the
# rebuttal (the mean of the two), the new argument apart from both
VECTORS = {
    CONSTRUCTIVE: (1.0, 0.0, 0.0),
    REBUTTAL: (0.0, 1.0, 0.0),
    SUMMARY: (1.0, 1.0, 0.0),
    NEW: (0.0, 0.0, 1.0),
    OTHER.removeprefix("con: "): (0.0, 0.0, 1.0),
}


class _Fixed:
    """A stand-in for the sentence encoder: fixed vectors, so the features' arithmetic is
    checked without the model."""

    def encode(self, texts: Sequence[str]) -> list[tuple[float, float, float]]:
        return [VECTORS[t] for t in texts]


def test_the_pooled_cosine_is_with_the_mean_of_the_earlier_turns() -> None:
    meaning = Encoder(_Fixed())
    # alone, each earlier speech is 45 degrees from the summary; together they are its match
    assert meaning.best(SUMMARY, [CONSTRUCTIVE, REBUTTAL])[0] == pytest.approx(0.5**0.5)
    assert meaning.pooled(SUMMARY, [CONSTRUCTIVE, REBUTTAL]) == pytest.approx(1.0)
    # a new argument is no closer to the pool than to each speech
    assert meaning.pooled(NEW, [CONSTRUCTIVE, REBUTTAL]) == pytest.approx(0.0)
    # one earlier turn: the pooled cosine is the plain one
    assert meaning.pooled(SUMMARY, [CONSTRUCTIVE]) == pytest.approx(0.5**0.5)
    assert meaning.pooled(SUMMARY, []) == -1.0


def _debate(last: str) -> Transcript:
    turns = [CONSTRUCTIVE, OTHER, REBUTTAL, OTHER, last]
    return parse_transcript(
        {
            "topic": "Should cities ban cars from their centres?",
            "sides": {"pro": "for the ban", "con": "against the ban"},
            "turns": [
                {"side": "con" if t.startswith("con: ") else "pro", "text": t.removeprefix("con: ")}
                for t in turns
            ],
        }
    )


def _features(transcript: Transcript, index: int) -> dict[str, float]:
    history = TurnHistory(transcript, Encoder(_Fixed()))
    history.advance(index)
    found = repetition.meaning_features(transcript, index, history)
    assert found is not None
    return found.values


def test_the_repetition_model_reads_the_pooled_cosine() -> None:
    assert "pooled" in FEATURE_NAMES["repetition"]
    summary = _features(_debate(SUMMARY), 4)
    assert summary["pooled"] == pytest.approx(1.0)
    new = _features(_debate(NEW), 4)
    assert new["pooled"] == pytest.approx(0.0)
    # the shipped model weighs it up: the closer to the side's speeches together, the
    # likelier a restatement, all else equal
    fitted = model("repetition")
    assert fitted is not None
    assert fitted.probability({**new, "pooled": 1.0}) > fitted.probability(new)


def _citizens(name: str) -> Transcript:
    found = [c for c in load_real_cases(REAL, "fresh13") if c.id == name]
    assert len(found) == 1
    return found[0].transcript


@pytest.mark.parametrize("name", ["en-llm-citizens-d10", "en-llm-citizens-d11"])
def test_agreeing_with_a_side_of_the_same_stance_is_not_drift(name: str) -> None:
    # "You're absolutely right about ..." said to an agent whose assigned stance is the
    # speaker's own (both oppose the motion in d10, both support it in d11)
    transcript = _citizens(name)
    assert "absolutely right" in transcript.turns[2].text
    assert stance_drift.check(transcript, 2) is None


def test_agreeing_with_a_side_of_the_other_stance_still_is() -> None:
    transcript = _citizens("en-llm-citizens-d10")
    speaker, other = transcript.turns[2].side, transcript.turns[1].side
    sides = dict(transcript.sides)
    sides[other] = sides[other].replace("I still oppose", "I support")
    opposed = parse_transcript(
        {
            "topic": transcript.topic,
            "sides": sides,
            "turns": [{"side": t.side, "text": t.text} for t in transcript.turns[:3]],
        }
    )
    assert opposed.turns[2].side == speaker
    found = stance_drift.check(opposed, 2)
    assert found is not None
    assert found.evidence == "stance_drift.agrees"


@pytest.mark.parametrize(
    ("stance", "direction"),
    [
        ("user_002 (I still support this position: renewables first.)", "for"),
        ("I now support the motion.", "for"),
        ("I oppose this position: reliability first.", "against"),
        # "support" in an argument is no declared stance
        ("Subsidies support this position's critics.", None),
        ("We support workers whatever the motion says.", None),
        # a negated support is no stance for the motion
        ("I cannot support this position: the grid is not ready.", None),
        ("I never support the motion as written.", None),
    ],
)
def test_a_declared_stance_gives_the_side_its_direction(stance: str, direction: str) -> None:
    assert stance_drift._direction("a side", stance) == direction


def test_sides_without_a_direction_are_all_opponents() -> None:
    transcript = parse_transcript(
        {
            "topic": "Should cities ban cars?",
            "sides": {"Alice": "a commuter", "Bob": "a shop owner", "Carol": "for the ban"},
            "turns": [{"side": "Alice", "text": "Cars should stay."}],
        }
    )
    assert stance_drift._opponents(transcript, "Alice") == ["Bob", "Carol"]
    # a side for the motion has no ally in a side of unknown stance
    assert stance_drift._opponents(transcript, "Carol") == ["Alice", "Bob"]


def test_a_stance_with_words_both_ways_makes_no_ally() -> None:
    # "against" in a stance that also argues "for" something need not be the side's
    # direction: two rivals who each argue for their own plan and against others' are
    # not allies, nor a side for a law against something and the side against the law
    vegas = [c for c in load_real_cases(REAL, "fresh5") if c.id == "en-human-2020-vegas-a"]
    assert len(vegas) == 1
    assert "Warren" in stance_drift._opponents(vegas[0].transcript, "Sanders")
    transcript = parse_transcript(
        {
            "topic": "Should hate speech be a crime?",
            "sides": {
                "pro": "For: we should legislate against hate speech.",
                "con": "Against: free speech comes first.",
            },
            "turns": [{"side": "con", "text": "Speech should stay free."}],
        }
    )
    assert stance_drift._opponents(transcript, "con") == ["pro"]
    # a declared support whose argument opposes something is no ally of an opposer
    assert (
        stance_drift._ally_direction("x", "I still support this position: we must oppose coal.")
        is None
    )
    # the round's allies stay allies
    assert stance_drift._opponents(_citizens("en-llm-citizens-d10"), "user_010") == []
