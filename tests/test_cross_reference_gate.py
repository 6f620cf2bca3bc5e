"""The structured format's cross-reference search answers exactly as its regex: the
gate in front of it (ASCII text without an id prefix's dash or a lowercased cue word
has no match) hides no match; nor does ``Needing``'s (a text without a dash has no
argument id, one without a colon no new-argument marker)."""

from __future__ import annotations

import re
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.formats.structured.rules import (
    NEW_ARGUMENT_MARKER,
    Needing,
    argument_id_pattern,
    cross_reference_pattern,
)

PREFIXES = [("PRO", "CON"), ("A", "B", "C")]
PIECES = st.sampled_from(
    [
        "PRO-1",
        "pro-2",
        "CON-",
        "B-7",
        "-3",
        "Argument 2",
        "POINT #4",
        "See Above",
        "see below",
        "As argued before",
        "as STATED earlier",
        "as mentioned above",
        "论点3",
        "如上所述",
        " ",
        "#",
        "x",
        "9",
        "\u212a",  # the Kelvin sign, which the case-insensitive regex reads as k
        "\u017f",  # the long s
        *string.ascii_letters,
    ]
)
TEXTS = st.one_of(
    st.lists(PIECES, max_size=10).map("".join),
    st.text(alphabet=string.printable, max_size=40),
    st.from_regex(cross_reference_pattern(PREFIXES[0]).regex),
    st.from_regex(cross_reference_pattern(PREFIXES[1]).regex),
)


@settings(max_examples=400, deadline=None)
@given(prefixes=st.sampled_from(PREFIXES), text=TEXTS)
def test_the_gated_search_finds_what_the_regex_finds(prefixes: tuple[str, ...], text: str) -> None:
    pattern = cross_reference_pattern(prefixes)
    gated, full = pattern.search(text), pattern.regex.search(text)
    assert (gated is None) == (full is None), text
    if gated is not None and full is not None:
        assert gated.span() == full.span()


def test_the_gate_skips_plain_prose() -> None:
    pattern = cross_reference_pattern(PREFIXES[0])
    assert pattern.search("Small teams ship faster with one deployable unit.") is None
    assert pattern.search("As argued above, small teams ship faster.") is not None
    assert pattern.search("PRO-2 ignores the migration cost.") is not None


NEEDING = [
    (argument_id_pattern(PREFIXES[0]), ("-",)),
    (argument_id_pattern(PREFIXES[1]), ("-",)),
    (NEW_ARGUMENT_MARKER, (":", "：")),
]
MARKER_TEXTS = st.one_of(
    TEXTS,
    st.from_regex(NEW_ARGUMENT_MARKER),
    st.from_regex(argument_id_pattern(PREFIXES[1])),
    st.lists(st.sampled_from(["New argument", " ", ":", "：", "新论点", "x"]), max_size=6).map(
        "".join
    ),
)


@settings(max_examples=400, deadline=None)
@given(which=st.sampled_from(NEEDING), text=MARKER_TEXTS)
def test_a_needing_search_finds_what_its_regex_finds(
    which: tuple[re.Pattern[str], tuple[str, ...]], text: str
) -> None:
    regex, chars = which
    found, full = Needing(regex, chars).search(text), regex.search(text)
    assert (found and found.span()) == (full and full.span())
