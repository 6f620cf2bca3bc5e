"""Small text measurements shared by the rule checks and the judge."""

from __future__ import annotations

import re

CJK_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""The CJK ideograph ranges (extension A, the unified block, compatibility ideographs),
for a regex character class: the one definition the text rules share."""
_CJK = re.compile(f"[{CJK_RANGES}]")
_LATIN = re.compile(r"[A-Za-z]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[。！？])(?=\S)")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")


def cjk_share(text: str) -> float:
    """Share of CJK characters among CJK and Latin letters (0.0 when there are none)."""
    if text.isascii():
        return 0.0  # no CJK character: the share is 0 whatever the Latin count
    cjk = len(_CJK.findall(text))
    if not cjk:
        return 0.0
    latin = len(_LATIN.findall(text))
    return cjk / (cjk + latin) if cjk + latin else 0.0


_SENTENCE_STOP = re.compile(r"[.!?](\s+)(?=\S)|[。！？](?=\S)")
"""``_SENTENCE_END`` found from its punctuation: the regex engine skips in C to the
characters a match can open with, where the look-behind is tried at every position."""


def sentences(text: str) -> list[str]:
    """Split text into sentences at ., !, ? (followed by space) and 。！？."""
    return [s for s in (part.strip() for part in split_sentence_ends(text.strip())) if s]


def split_sentence_ends(text: str) -> list[str]:
    """``_SENTENCE_END.split(text)``: the text cut at each run of white space after
    ., ! or ? (the run removed) and after each 。, ！ or ？, when more text follows."""
    parts: list[str] = []
    start = 0
    for match in _SENTENCE_STOP.finditer(text):
        cut, start_next = match.span(1) if match.group(1) is not None else (match.end(),) * 2
        parts.append(text[start:cut])
        start = start_next
    parts.append(text[start:])
    return parts


def sentence_ends(text: str) -> list[int]:
    """The offsets where each sentence of ``text`` ends (as :func:`sentences` splits
    them): ``text[:end]`` is the text up to and including that sentence."""
    if not text.strip():
        return []
    ends = [m.start() for m in _SENTENCE_END.finditer(text) if text[: m.start()].strip()]
    return [*ends, len(text.rstrip())]


def word_count(text: str) -> int:
    """Words in English text; for Chinese, CJK characters count 1/1.5 of a word each."""
    return words_of(word_parts(text))


def word_parts(text: str) -> tuple[int, int]:
    """``(Latin words, CJK characters)`` of ``text``: texts joined with a space (that no
    word crosses) hold the sums of theirs."""
    return len(_WORD.findall(text)), len(_CJK.findall(text))


def words_of(parts: tuple[int, int]) -> int:
    """:func:`word_count` of a text with these :func:`word_parts`."""
    return parts[0] + round(parts[1] / 1.5)


def normalise(text: str) -> str:
    """Lower-case with runs of white space folded, for quote matching."""
    # str.split's white space is the regex's \s for every code point (and strip's):
    # the runs folded by a split and a join, as by the regex (tests/test_token_estimate.py)
    return " ".join(text.split()).lower()


def join_sentences(parts: list[str], lang: str) -> str:
    """Join sentences into one text: with spaces in English, directly in Chinese."""
    return ("" if lang == "zh" else " ").join(p.strip() for p in parts if p.strip())


ELLIPSIS = "…"


def whole_words(quote: str, source: str) -> str:
    """``quote`` as it occurs in ``source`` (already :func:`normalise`-d), shortened to
    its last whole word with an ellipsis when every occurrence ends inside a word of
    ``source`` (a quote cut at its length bound: "personal dat" of "personal data").
    Unchanged when it is not found, ends at a word's end somewhere, ends in a CJK
    character (no word boundaries to keep) or is a single cut word."""
    found = normalise(quote)
    if not found or not found[-1].isalnum() or _CJK.match(found[-1]):
        return quote
    start = source.find(found)
    if start < 0:
        return quote
    while start >= 0:
        end = start + len(found)
        if end >= len(source) or not source[end].isalnum():
            return quote  # ends at a word's end here
        start = source.find(found, start + 1)
    kept = quote.rstrip()
    cut = kept.rfind(" ")
    head = kept[:cut].rstrip(" ,;:") if cut > 0 else ""
    return head + ELLIPSIS if head else quote
