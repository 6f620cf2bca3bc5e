"""``moot.detectors.lexical.wording``, which the repetition detector's n-gram cosine
reads, codes a text's character n-grams as numbers: one code per n-gram of
``char_ngrams`` (all 3- to 5-grams of the English, 1- to 3-grams of each Chinese run),
with its count, so ``similarity`` is exactly the cosine of the n-gram counts."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.detectors import lexical
from moot.detectors.lexical import char_ngrams, similarity, wording

WORDS = ["a", "I", "to", "the", "cost", "costs", "2026", "x1", "中文", "É", "ß", "İ", "Ⅻ", "𠀋"]
MARKS = [" ", "  ", ". ", ", ", "-", "'", "’", "\n", "。", "！", "\u3000", "(", ")"]
TEXTS = st.one_of(
    st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(MARKS)), max_size=40).map("".join),
    st.text(max_size=60),
)


@settings(max_examples=1500, deadline=None)
@given(TEXTS)
def test_one_code_per_ngram_with_its_count(text: str) -> None:
    lexical.wording.cache_clear()
    coded = wording(text)
    counts = char_ngrams.__wrapped__(text)
    assert len(coded.codes) == len(counts)
    assert sorted(coded.counts.tolist()) == sorted(counts.values())
    assert coded.codes.tolist() == sorted(set(coded.codes.tolist()))
    assert coded.norm == lexical.norm(counts)


@settings(max_examples=600, deadline=None)
@given(TEXTS, TEXTS)
def test_similarity_is_the_char_ngram_cosine(a: str, b: str) -> None:
    expected = lexical.cosine(char_ngrams.__wrapped__(a), char_ngrams.__wrapped__(b))
    assert similarity(a, b) == expected


def test_codes_tell_ngrams_apart() -> None:
    # the same letters in another order, another length, or another script
    assert similarity("abc", "cba") == 0.0
    assert similarity("ab", "ab ab") > 0.0
    assert similarity("中", "文") == 0.0
    assert similarity("中文", "中文字") > 0.0
    assert similarity("abc", "中文字") == 0.0
    assert math.isclose(similarity("the cost of it", "the cost of it"), 1.0)


def test_nothing_to_compare_is_zero() -> None:
    assert similarity("", "the cost") == 0.0
    assert similarity("...", "...") == 0.0
    assert similarity("the cost", "!!!") == 0.0
