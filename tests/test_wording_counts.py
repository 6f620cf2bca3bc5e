"""``moot.detectors.lexical.wording_counts``, which the repetition detector's n-gram
cosine reads, builds its English n-grams from cached word pieces: the same counts as
``char_ngrams`` (all 3- to 5-grams of the text), so the same cosines, on any text."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moot.detectors import lexical
from moot.detectors.lexical import char_ngrams, similarity, wording_counts

WORDS = ["a", "I", "to", "the", "cost", "costs", "2026", "x1", "中文", "É", "ß", "İ", "Ⅻ"]
MARKS = [" ", "  ", ". ", ", ", "-", "'", "’", "\n", "。", "！", "\u3000", "(", ")"]
TEXTS = st.one_of(
    st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(MARKS)), max_size=40).map("".join),
    st.text(max_size=60),
)


@settings(max_examples=1500, deadline=None)
@given(TEXTS)
def test_wording_counts_are_char_ngrams(text: str) -> None:
    lexical.wording_counts.cache_clear()
    assert wording_counts(text) == char_ngrams.__wrapped__(text)


@settings(max_examples=300, deadline=None)
@given(TEXTS, TEXTS)
def test_similarity_is_the_char_ngram_cosine(a: str, b: str) -> None:
    expected = lexical.cosine(char_ngrams.__wrapped__(a), char_ngrams.__wrapped__(b))
    assert similarity(a, b) == expected


def test_every_ngram_starts_in_one_piece() -> None:
    text = "a to be or not, to be: 2026 x"
    counts = wording_counts(text)
    padded = " a to be or not to be 2026 x "
    every = Counter(padded[i : i + n] for n in (3, 4, 5) for i in range(len(padded) - n + 1))
    assert counts == every
    assert counts["to be"] == 2
    assert counts[" x "] == 1
    assert counts[" a to"] == 1


def test_a_full_piece_table_is_emptied(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexical, "PIECE_TABLE", 2)
    table = lexical._PieceTable()
    for piece in (" ab cd", " cd ef", " ef"):
        assert table[piece] == tuple(
            piece[i : i + n] for i in range(3) for n in (3, 4, 5) if i + n <= len(piece)
        )
    assert list(table) == [" ef"]
