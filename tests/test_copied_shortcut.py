"""The copied-reason rule's shortcut answers exactly as ``SequenceMatcher`` does: two
word sequences are near-copies by ``_alike`` when and only when their ratio reaches
``COPY_RATIO``, and ``copied_texts`` finds the groups the full comparison of every
pair finds."""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

from hypothesis import given, settings
from hypothesis import strategies as st

from moot import usable

WORDS = st.sampled_from(["the", "evidence", "pro", "con", "is", "not", "supported", "论", "点"])
BASE = st.lists(WORDS, max_size=14)


@st.composite
def pairs(draw: st.DrawFn) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A word sequence and a copy of it with a few words changed, dropped or added."""
    a = draw(BASE)
    b = list(a)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(b)))
        edit = draw(st.sampled_from(["add", "drop", "swap"]))
        if edit == "add" or not b:
            b.insert(at, draw(WORDS))
        elif edit == "drop":
            del b[min(at, len(b) - 1)]
        else:
            b[min(at, len(b) - 1)] = draw(WORDS)
    return tuple(a), tuple(b)


@settings(max_examples=2000, deadline=None)
@given(pairs())
def test_alike_is_the_ratio(pair: tuple[tuple[str, ...], tuple[str, ...]]) -> None:
    a, b = pair
    full = SequenceMatcher(None, a, b).ratio() >= usable.COPY_RATIO
    assert usable._alike(a, b, Counter(a), Counter(b)) is full


def reference(texts: list[str]) -> list[int]:
    """``copied_texts`` comparing every pair with ``SequenceMatcher``."""
    keys = {
        n: usable._copy_key(t)
        for n, t in enumerate(texts)
        if t.strip() and not usable.is_marker(t) and usable.unusable_reason(t) is None
    }
    group = {n: n for n in keys}

    def root(n: int) -> int:
        while group[n] != n:
            n = group[n]
        return n

    for a in keys:
        for b in keys:
            if a < b and SequenceMatcher(None, keys[a], keys[b]).ratio() >= usable.COPY_RATIO:
                group[root(b)] = root(a)
    sizes = Counter(root(n) for n in keys)
    least = max(usable.COPY_MIN, usable.COPY_SHARE * len(texts))
    return sorted(n for n in keys if sizes[root(n)] >= least)


@settings(max_examples=300, deadline=None)
@given(st.lists(pairs(), min_size=1, max_size=4), st.lists(st.integers(0, 7), max_size=8))
def test_copied_texts_finds_the_full_groups(
    groups: list[tuple[tuple[str, ...], tuple[str, ...]]], picks: list[int]
) -> None:
    pool = [" ".join(seq) + "." for pair in groups for seq in pair]
    texts = [pool[p % len(pool)] for p in picks] + pool
    assert usable.copied_texts(texts) == reference(texts)
