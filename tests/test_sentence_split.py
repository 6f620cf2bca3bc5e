"""``moot.text.sentences`` cuts a text where ``_SENTENCE_END`` does (white space after
., ! or ?; after 。！？), finding the cuts from the punctuation: the same parts as the
look-behind regex's ``split`` on any text. ``to_sentence_mark`` reads up to the next
sentence mark without splitting the rest of the text."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.detectors.lexical import to_sentence_mark
from moot.text import _SENTENCE_END, sentences, split_sentence_ends

PARTS = [".", "!", "?", "。", "！", "？", " ", "  ", "\n", "\u3000", "\t", "x", "ab", "中", "…"]
TEXTS = st.one_of(st.lists(st.sampled_from(PARTS), max_size=30).map("".join), st.text(max_size=50))


@settings(max_examples=3000, deadline=None)
@given(TEXTS)
def test_the_cuts_are_the_regex_split(text: str) -> None:
    assert split_sentence_ends(text) == _SENTENCE_END.split(text)


def test_sentences_are_cut_after_their_punctuation() -> None:
    assert sentences(" One. Two!  Three?\nFour。五！六 ") == [
        "One.",
        "Two!",
        "Three?",
        "Four。",
        "五！",
        "六",
    ]
    assert sentences("3.5 is a number. . x") == ["3.5 is a number.", ".", "x"]


@settings(max_examples=2000, deadline=None)
@given(TEXTS, st.integers(min_value=0, max_value=60))
def test_to_sentence_mark_is_the_first_part_of_the_rest(text: str, start: int) -> None:
    start = min(start, len(text))
    expected = re.split(r"[.!?。！？]", text[start:], maxsplit=1)[0]
    assert to_sentence_mark(text, start) == expected
