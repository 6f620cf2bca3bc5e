"""Inputs the labelled sets do not cover, where a rule once gave a wrong answer (each
found by a review and fixed): an attack on no debater flagged as ad hominem, a real
attack hidden by a verb inside it, a side's self-criticism written as its own heading,
an answer in the opponent's words read as repetition, ``shorten`` at its smallest limit,
and the ad hominem gates' memory on a clause of a megabyte.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest

from moot.detectors import ad_hominem, parse_transcript, run_detectors
from moot.detectors.lexical import shorten
from test_detector_meaning import PARAPHRASE_THRESHOLD, paraphrase_threshold

__all__ = ["paraphrase_threshold"]  # the fixture, imported for a test below

WEALTH_SIDES = {
    "pro": "Billionaires should pay an annual wealth tax",
    "con": "Billionaires should not pay an annual wealth tax",
}
WEALTH_TOPIC = "Should billionaires pay an annual wealth tax?"
WEALTH_OPENING = (
    "A wealth tax of two percent on fortunes above a billion would fund schools and"
    " hospitals without touching ordinary savers."
)
EN_SIDES = {"pro": "Cities should ban cars downtown", "con": "Cities should not ban cars downtown"}
EN_TOPIC = "Should cities ban private cars from downtown areas?"
ZH_SIDES = {"正方": "应该禁止中学生带手机进校园", "反方": "不应该禁止中学生带手机进校园"}
ZH_TOPIC = "中学生是否应该被禁止带手机进校园"


def _flagged(
    detector: str, text: str, *, lang: str = "en", sides: dict[str, str] | None = None
) -> bool:
    """Whether ``detector`` flags ``text``, said by the second side after an opening."""
    if lang == "zh":
        first, second, topic = "正方", "反方", ZH_TOPIC
        opening = "应该禁止中学生带手机进校园：上课更专心，校园更安全。"
        sides = ZH_SIDES
    elif sides is None:
        first, second, topic, sides = "pro", "con", EN_TOPIC, EN_SIDES
        opening = "Cities should ban cars downtown: cleaner air and safer streets for children."
    else:
        first, second, topic, opening = "pro", "con", WEALTH_TOPIC, WEALTH_OPENING
    data: dict[str, Any] = {
        "topic": topic,
        "lang": lang,
        "sides": sides,
        "turns": [{"side": first, "text": opening}, {"side": second, "text": text}],
    }
    flags = run_detectors(parse_transcript(data), "lexical")
    return any(f.detector == detector and f.turn == 1 for f in flags)


@pytest.mark.parametrize(
    "text",
    [
        # ad_hominem.py "background": a fact about anyone, in a debate about wealth
        "If someone happens to be a billionaire, the wealth tax applies to them.",
        "A tax that hits anyone who happens to own three houses is fair.",
        # ad_hominem.py "motive": a claim about firms or CEOs, not about a debater
        "Corporations act only for their own benefit, so regulation is needed.",
        "Many CEOs care only about their own careers and not the workers.",
        # ad_hominem.py "lying": a historical fact about an industry
        "The tobacco industry told a pack of lies for decades.",
        # ad_hominem.py "insult": voters and politicians in general
        "Voters rarely elect a smug politician twice.",
        # ad_hominem.py "competence": "they" is a government
        "Did they ever pass a bill on climate in the last decade?",
        # ad_hominem.py "competence": schools, not the opponent
        "They don't teach children the first thing about budgeting.",
        # ad_hominem.py "speaker": "as you think", "as you describe"
        "Not everyone is as smart as you think, so the forms must be simple.",
        "I wish the plan were as clever as you describe, but it is not.",
        # ad_hominem.py "motive": a call to the common good
        "Citizens must look beyond their own interests to the common good.",
        # ad_hominem.py "lying": the press, not the opponent
        "The constant lying of propaganda outlets erodes trust in the press.",
    ],
)
def test_attack_forms_do_not_flag_claims_about_third_parties(text: str) -> None:
    assert not _flagged("ad_hominem", text, sides=WEALTH_SIDES)


@pytest.mark.parametrize(
    "text",
    [
        # a negated "show" once disowned the whole clause
        "My opponent is a coward who would not show his tax returns.",
        "You are a liar who will never show up to a single hearing.",
        # "you said I was" once read as a reported charge, though the clause attacks
        "You said I was wrong because you are a pathological liar.",
    ],
)
def test_a_clause_that_attacks_is_not_disowned_by_a_verb_inside_it(text: str) -> None:
    # all three are insults; a rule for disowned attacks once hid them
    assert _flagged("ad_hominem", text)


@pytest.mark.parametrize(
    "text",
    [
        # the whole self-criticism sits in the label before the colon
        "反方的论证缺乏数据支持：这一点必须承认。",
        "反方论证缺乏数据支持：这一点必须承认。",
    ],
)
def test_a_heading_that_finds_fault_with_the_own_side_still_drifts(text: str) -> None:
    # the same sentence with a comma is flagged (tests/test_detectors.py); a rule that
    # read past headings once dropped these
    assert _flagged("stance_drift", text, lang="zh")


def test_an_english_heading_that_finds_fault_with_the_own_side_still_drifts() -> None:
    # a label of at most three words was once read past, whatever it said
    assert _flagged("stance_drift", "CON case fails: nothing for night-shift workers.")


def test_shorten_keeps_its_smallest_limit() -> None:
    # an empty head (limit 1) once raised IndexError
    assert shorten("abc def", 1) == "…"


PRO_OPENING = (
    "Banning private cars downtown cuts air pollution and makes the streets safer for"
    " children walking to school."
)
CON_ANSWER = (
    "A ban punishes night-shift nurses, disabled drivers and tradesmen who carry heavy tools,"
    " because buses rarely run at night, and the pollution and danger simply move to the"
    " suburbs where children also walk to school."
)


@pytest.mark.parametrize(
    "text",
    [
        # every term is the opponents' or the motion's, and new to PRO (cosine 0.29)
        "Night-shift nurses, disabled drivers and tradesmen who carry heavy tools: buses run"
        " at night.",
        # a question back at the opponent, in its words (cosine 0.53, no flag before 46c6984)
        "Do pollution and danger simply move to the suburbs? Buses run at night for nurses,"
        " disabled drivers and tradesmen.",
    ],
)
@pytest.mark.usefixtures("paraphrase_threshold")
def test_answering_the_opponent_in_its_words_is_not_repetition(text: str) -> None:
    # a turn with no terms of its own (all the motion's or another side's) once got
    # novel_specific 0.0, the value of a turn restating everything, and the model
    # flagged it (p 0.21 and 0.45 against a threshold of 0.14). With the fourteenth
    # round's weights that value gives p 0.26 and 0.52, both over PARAPHRASE_THRESHOLD, at
    # which the test runs so that it can fail, and the second over the shipped threshold
    # (0.51) as well (now p 0.005, 0.02)
    assert PARAPHRASE_THRESHOLD < 0.2
    data: dict[str, Any] = {
        "topic": EN_TOPIC,
        "lang": "en",
        "sides": EN_SIDES,
        "turns": [
            {"side": side, "text": said}
            for side, said in [("pro", PRO_OPENING), ("con", CON_ANSWER), ("pro", text)]
        ],
    }
    flags = run_detectors(parse_transcript(data), "auto")
    assert [f.turn for f in flags if f.detector == "repetition"] == []


def test_a_long_clause_is_searched_without_a_copy_of_every_slice() -> None:
    # GateSet.possible builds every 1- to 4-character slice of a clause as its own
    # string, about 185 bytes of memory a character; over a whole 1 MB transcript without
    # punctuation (speech recognition, one clause) that took 216 MB more peak RSS, so it
    # builds them a window at a time (regex_gate.SLICE_WINDOW)
    words = ("the", "plan", "would", "cut", "costs", "for", "riders", "and", "council", "buses")
    text = " ".join(words[(i * 7) % 10] for i in range(60_000))
    tracemalloc.start()
    try:
        ad_hominem._sentence_attack(text, False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * len(text)
