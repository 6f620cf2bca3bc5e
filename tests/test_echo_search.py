"""The echo check's longest-run search gives exactly what ``difflib`` gave: the same
run, at the same place, for every text and description that share a run long enough
to look at (the check used ``SequenceMatcher.find_longest_match`` before it was made
cheaper)."""

from __future__ import annotations

from difflib import SequenceMatcher

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.llm.echo import SHINGLE, _copied_run, _strings, _texts, echoes, fold, longest_shared


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
    found = echoes(reply, [fold(description)])
    assert [path for path, _ in found] == ["bull_case"]
    assert found[0][1].startswith("the bull side s case as it stood")


def test_a_copy_without_the_descriptions_punctuation_is_found() -> None:
    # Gemma 3 270M's stance change reason (README topic, seed 7): the commas left out
    description = fold("why it changed, or why it did not.")
    reason = "Why it changed or why it did not (i.e., why it did not change in the first place)?"
    assert [path for path, _ in echoes({"reason": reason}, [description])] == ["reason"]


def test_a_short_sentence_that_is_mostly_the_fields_length_rule_is_an_echo() -> None:
    # the README's quick start, seed 7: a closing's final stance opened with the rule
    description = fold(
        "your final stance AGAINST the topic as a list of short sentences, 40 to 80 words in all."
    )
    stance = [
        "./40 to 80 words in all.",
        "A startup of ten people cannot staff 80 services in all.",
        "Four words in all.",
    ]
    assert [path for path, _ in echoes(stance, [description])] == ["[1]"]


def test_a_choice_copied_from_its_fields_list_is_not_an_echo() -> None:
    description = fold("one of straw_man, appeal_to_authority or false_dilemma")
    assert echoes({"type": "appeal_to_authority"}, [description]) == []


def _every_description(value: dict[str, str], descriptions: list[str]) -> list[tuple[str, str]]:
    """``echoes`` as it searched before: every description in turn, for every string."""
    found = []
    for path, text in value.items():
        normal = fold(text)
        for description in descriptions:
            run = _copied_run(normal, description)
            if run:
                found.append((path, run))
                break
    return found


@st.composite
def _replies(draw: st.DrawFn) -> tuple[dict[str, str], list[str]]:
    """Descriptions, and a reply whose strings copy runs of some of them."""
    pieces = st.sampled_from(
        ["the bull side's case as it stood ", "in two or three sentences ", "中文的描述文字很长 "]
    )
    description = st.tuples(_TEXT, st.lists(pieces, max_size=3), _TEXT).map(
        lambda t: t[0] + "".join(t[1]) + t[2]
    )
    descriptions = draw(st.lists(description, max_size=5))
    value: dict[str, str] = {}
    for key in draw(st.lists(st.sampled_from("abcd"), unique=True)):
        text, copies = draw(_TEXT), draw(st.booleans())
        if descriptions and copies:
            source = draw(st.sampled_from(descriptions))
            start = draw(st.integers(0, len(source)))
            text += source[start : start + draw(st.integers(0, 60))] + draw(_TEXT)
        value[key] = text
    return value, descriptions


@settings(max_examples=300, deadline=None)
@given(_replies())
def test_only_the_descriptions_sharing_a_run_are_searched(
    reply: tuple[dict[str, str], list[str]],
) -> None:
    value, descriptions = reply
    normal = [fold(d) for d in descriptions]
    assert echoes(value, normal) == _every_description(value, normal)


_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), _TEXT),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_JSON)
def test_the_strings_are_walked_to_with_and_without_paths_alike(value: object) -> None:
    """``echoes`` first asks whether any string copies (walked without paths) and only
    then walks again for the paths: both walks reach the same strings in order."""
    assert _texts(value, []) == [text for _, text in _strings(value, "")]
