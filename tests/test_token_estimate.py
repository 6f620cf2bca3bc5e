"""The scripted backend's token estimate counts as its regex does: text with no
character from U+3400 up is counted by ``str.split`` (the same white space as
``\\s``), any other by the regex."""

from __future__ import annotations

import re
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.llm import scripted

SPACES = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
PIECES = st.sampled_from(
    ["word", "—", "\x85", "\xa0x", "“quoted”", "‹debate›", "é", "中", "文", "\u33ff", "\u3400"]
)
TEXTS = st.one_of(
    st.lists(st.one_of(PIECES, st.sampled_from(SPACES)), max_size=20).map("".join),
    st.text(max_size=40),
    st.text(alphabet=st.characters(max_codepoint=0x3500), max_size=40),
    st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=40),
    st.lists(st.sampled_from(["a", "bc", *(c for c in SPACES if c.isascii())]), max_size=20).map(
        "".join
    ),
)


@settings(max_examples=1000, deadline=None)
@given(TEXTS)
def test_the_estimate_counts_as_the_regex(text: str) -> None:
    assert scripted.estimate_tokens.__wrapped__(text) == len(scripted._TOKEN.findall(text))


def test_the_spaces_above_ascii_are_every_one() -> None:
    above = "".join(c for c in SPACES if not c.isascii())
    assert re.fullmatch(f"[{scripted.NON_ASCII_SPACE}]+", above)
    named = "".join(
        c for c in map(chr, range(128, 0x3400)) if re.match(f"[{scripted.NON_ASCII_SPACE}]", c)
    )
    assert named == above
