"""The writer's and the rewrite's schemas: a move is one label the schema can list, and
a rewrite for a word budget asks for paragraphs whose characters add up to the
budget's, within 10% either way."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from moot.formats.competitive.replies import (
    CHARS_PER_WORD,
    LENGTH_SLACK,
    MAX_PARAGRAPHS,
    MoveItem,
    chars_per_word,
    draft_spec,
    move_label,
    parse_move,
    rewrite_spec,
    well_formed,
)
from moot.formats.competitive.trees import Candidate
from moot.llm.schemas import portability_problems
from moot.profiles import COMPACT, STANDARD, ModelProfile


def speech(spec_schema: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = spec_schema["properties"]["speech"]
    return node


def test_a_move_label_round_trips() -> None:
    assert move_label("attack", "CON-2") == "attack CON-2"
    assert move_label("propose", None) == "propose -"
    assert parse_move("attack CON-2") == ("attack", "CON-2")
    assert parse_move("propose -") == ("propose", None)
    item = MoveItem(move="rebut CON-3", claim="They miss the point.", argument="")
    assert (item.action, item.target) == ("rebut", "CON-3")


@pytest.mark.parametrize("label", ["attack", "defend PRO-1", "attack PRO-1 PRO-2", ""])
def test_a_malformed_move_is_refused(label: str) -> None:
    with pytest.raises(ValueError, match="an action"):
        parse_move(label)
    with pytest.raises(ValidationError):
        MoveItem(move=label, claim="A claim of some length.", argument="")


def test_the_writer_schema_lists_exactly_the_legal_moves() -> None:
    legal = [Candidate("propose", None), Candidate("attack", "PRO-1")]
    spec = draft_spec(COMPACT, "zh", legal)
    move = spec.json_schema["properties"]["moves"]["items"]["properties"]["move"]
    assert (move["type"], move["enum"], "maxLength" in move) == (
        "string",
        ["propose -", "attack PRO-1"],
        False,
    )
    assert portability_problems(spec.json_schema) == []
    with pytest.raises(ValueError, match="no legal move"):
        draft_spec(STANDARD, "en", [])
    # the registered (widest) schema: every action but propose on every id
    widest = [move_label(c.action, c.target) for c in well_formed("rebuttal", False)]
    assert len(widest) == 3 * 40  # attack, rebut, reinforce x PRO-1..20, CON-1..20
    assert well_formed("opening", True) == (Candidate("propose", None),)


@pytest.mark.parametrize("profile", [STANDARD, COMPACT], ids=lambda p: p.name)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("words", [5, 40, 261, 522, 800, 2000])
def test_a_rewrite_asks_for_the_budgets_characters(
    profile: ModelProfile, lang: str, words: int
) -> None:
    loose = speech(rewrite_spec(profile, lang).json_schema)
    longest = loose["items"]["maxLength"]
    spec = rewrite_spec(profile, lang, words)
    node = speech(spec.json_schema)
    count, low, high = node["minItems"], node["items"]["minLength"], node["items"]["maxLength"]
    assert node["maxItems"] == count
    assert 1 <= count <= MAX_PARAGRAPHS
    assert 2 <= low <= high <= longest
    chars = words * CHARS_PER_WORD[lang]
    if chars * (1 + LENGTH_SLACK) <= MAX_PARAGRAPHS * longest:
        # any reply the schema allows is within the slack of the budget's characters
        assert count * high <= chars * (1 + LENGTH_SLACK)
        assert count * low >= chars * (1 - LENGTH_SLACK) - count
        assert count == 1 or (count - 1) * longest < chars * (1 + LENGTH_SLACK)
    else:  # longer than the schema holds: as long as it can be
        assert (count, high) == (MAX_PARAGRAPHS, longest)
        assert low >= longest * 0.9 - 1
    assert portability_problems(spec.json_schema) == []


def test_characters_per_word_come_from_the_speakers_text() -> None:
    assert chars_per_word("Too short.", "en") == CHARS_PER_WORD["en"]
    text = " ".join(["Congestion charges fund trams."] * 10)  # 40 words, 7.75 characters each
    assert chars_per_word(text, "en") == pytest.approx(len(text) / 40)
    garbage = " ".join(["a"] * 30)
    assert chars_per_word(garbage, "en") == pytest.approx(CHARS_PER_WORD["en"] / 1.5)
    assert rewrite_spec(STANDARD, "en", 100, 8.0) != rewrite_spec(STANDARD, "en", 100)
