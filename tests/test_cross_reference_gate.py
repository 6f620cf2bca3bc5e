"""The structured format's cross-reference search answers exactly as its regex: the
gate in front of it (ASCII text without an id prefix's dash or a lowercased cue word
has no match) hides no match."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.formats.structured.rules import cross_reference_pattern

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
