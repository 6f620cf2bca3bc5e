"""``moot.text.normalise`` folds white space with a split and a join: the same text as
the regex ``\\s+`` and a strip gave, on any white space of any code point."""

from __future__ import annotations

import re
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.text import normalise

SPACES = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
TEXTS = st.one_of(
    st.lists(st.one_of(st.sampled_from(["Word", "中文", "É", "ß"]), st.sampled_from(SPACES))).map(
        "".join
    ),
    st.text(max_size=40),
)


@settings(max_examples=1000, deadline=None)
@given(TEXTS)
def test_normalise_folds_white_space_as_the_regex(text: str) -> None:
    assert normalise(text) == re.sub(r"\s+", " ", text).strip().lower()


def test_normalise_folds_runs_and_ends() -> None:
    assert normalise("  Two\u3000 words\n\tHERE \u00a0") == "two words here"
