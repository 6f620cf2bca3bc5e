"""The echo check's longest-run search gives exactly what ``difflib`` gave: the same
run, at the same place, for every text and description that share a run long enough
to look at (the check used ``SequenceMatcher.find_longest_match`` before it was made
cheaper)."""

from __future__ import annotations

from difflib import SequenceMatcher

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.llm.echo import SHINGLE, echoes, longest_shared


def _difflib(text: str, description: str) -> tuple[int, int, int]:
    match = SequenceMatcher(None, text, description, autojunk=False).find_longest_match(
        0, len(text), 0, len(description)
    )
    return match.a, match.b, match.size


# few letters, so that long shared runs, repeats and ties are common
_TEXT = st.text(alphabet="ab c", max_size=90)
_SPLICED = st.builds(
    lambda head, shared, tail, other_head, other_tail: (
        head + shared + tail,
        other_head + shared + other_tail,
    ),
    _TEXT,
    st.text(alphabet="ab c中文", min_size=SHINGLE, max_size=60),
    _TEXT,
    _TEXT,
    _TEXT,
)


@settings(max_examples=600, deadline=None)
@given(st.one_of(_SPLICED, st.tuples(_TEXT, _TEXT)))
def test_the_longest_run_is_the_one_difflib_finds(pair: tuple[str, str]) -> None:
    """Same run (and the same tie-break: earliest in the text, then in the description)
    whenever the longest shared run is at least ``SHINGLE`` characters; nothing when it
    is shorter. Checked by hand that it can fail: with ``>=`` instead of ``>`` (the
    last of the longest runs instead of the first), hypothesis finds a pair."""
    text, description = pair
    expected = _difflib(text, description)
    if expected[2] >= SHINGLE:
        assert longest_shared(text, description) == expected
    else:
        assert longest_shared(text, description) == (0, 0, 0)


def test_a_copied_description_is_found_and_a_real_answer_is_not() -> None:
    description = "the bull side's case as it stood at the end of the debate, in two sentences"
    reply = {
        "bull_case": "The bull side's case as it stood at the end of the debate, in two sentences.",
        "bear_case": "Margins fall as the bull side's case ignores rising input costs.",
    }
    found = echoes(reply, [description])
    assert [path for path, _ in found] == ["bull_case"]
    assert found[0][1].startswith("the bull side's case as it stood")
