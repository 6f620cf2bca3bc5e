"""The usable-text rule's shortcuts answer exactly as its patterns do: the markup and
JSON-edge test (``debris_syntax``) against ``_MARKUP`` and ``_JSON_EDGE`` searched in
full, and the label-line gate against ``LABEL_LINE`` and ``_LABEL``."""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from moot import usable

SPACES = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
"""Every character Python calls whitespace (``\\s`` in a str pattern)."""

PIECES = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        "）",
        ",",
        ";",
        "，",
        "；",
        ":",
        "：",
        "%",
        "<",
        ">",
        "/",
        '"',
        "'",
        "-",
        "debate",
        "key_1",
        "PRO-1",
        "CON-12",
        "a",
        "Z",
        "7",
        "word",
        "论点",
        *SPACES,
    ]
)
TEXTS = st.one_of(
    st.lists(PIECES, max_size=12).map("".join),
    st.text(max_size=40),
    st.from_regex(usable._MARKUP.regex),
    st.from_regex(usable._JSON_EDGE.regex),
    st.from_regex(usable.LABEL_LINE),
)


@settings(max_examples=1000, deadline=None)
@given(TEXTS)
def test_debris_syntax_answers_as_the_two_patterns(text: str) -> None:
    full = bool(usable._MARKUP.regex.search(text) or usable._JSON_EDGE.regex.search(text))
    assert usable.debris_syntax(text) is full, text


@settings(max_examples=500, deadline=None)
@given(TEXTS)
def test_the_label_gate_hides_no_label(text: str) -> None:
    if usable.LABEL_LINE.search(text) or usable._LABEL.search(text):
        assert "-" in text, text
        assert usable._ID_DASH.search(text), text


def test_every_whitespace_character_is_stripped_as_the_patterns_see_it() -> None:
    """``_opens_at_end`` relies on ``str.rstrip`` and ``\\s`` agreeing on whitespace."""
    for c in SPACES:
        assert usable.debris_syntax("[" + c)
        assert usable._JSON_EDGE.regex.search("[" + c)
    assert all(c.strip() == "" for c in SPACES)
