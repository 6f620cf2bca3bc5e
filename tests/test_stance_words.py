"""The structured demo's final-stance length, summed from each sentence's counts in
English, is ``word_count`` of the joined stance in either language."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.formats.structured.demo import _stance_words
from moot.text import join_sentences, word_count

PIECES = st.sampled_from(
    ["word", "AI", "it's", "co-op", "’", "-", "7", " ", "\n", "中", "文。", ".", "x"]
)
SENTENCES = st.lists(st.lists(PIECES, max_size=8).map("".join), max_size=6)


@settings(max_examples=500, deadline=None)
@given(SENTENCES, st.sampled_from(["en", "zh"]))
def test_the_stance_length_is_the_joined_word_count(parts: list[str], lang: str) -> None:
    assert _stance_words(parts, lang) == word_count(join_sentences(parts, lang))
