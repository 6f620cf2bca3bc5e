"""The gate in front of the detectors' long patterns and the usable-text rule's
(``moot.regex_gate``) never hides a match: every text a pattern matches contains one
of its required words, so a gated search answers exactly as the regex does."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moot import usable
from moot.detectors import ad_hominem, cues, false_consensus
from moot.regex_gate import Gated, GateSet, gated, required_words

GATED = {
    name: value
    for module in (cues, false_consensus, usable)
    for name, value in vars(module).items()
    if isinstance(value, Gated)
}
"""Every gated cue the detectors search, and the usable-text rule's patterns."""

PATTERNS: dict[str, re.Pattern[str]] = {
    **{name: cue.regex for name, cue in GATED.items()},
    **{f"ad_hominem.en.{n}": p for n, (_, p) in enumerate(ad_hominem.EN_ATTACKS)},
    **{f"ad_hominem.zh.{n}": p for n, (_, p) in enumerate(ad_hominem.ZH_ATTACKS)},
}
"""The cues, and the ad hominem forms as a harder test of the reading of patterns."""


def test_the_long_cues_are_gated() -> None:
    expected = {"SUBJECT_CHANGE", "EXPLICIT_AGREEMENT", "CONCESSION", "CLAIMS_NOTHING_STANDS"}
    assert expected | {"_MARKUP", "_JSON_EDGE"} <= set(GATED)
    assert all(cue.words for cue in GATED.values())


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_every_match_contains_a_required_word(name: str, data: st.DataObject) -> None:
    """Texts drawn from the pattern itself (hypothesis writes strings the regex
    matches): each one contains a required word. Checked by hand that it can fail:
    with the rule that only a repeat of at least once needs its item's words dropped
    (any repeat needing them), hypothesis finds such a text."""
    pattern = PATTERNS[name]
    text = data.draw(st.from_regex(pattern))
    if pattern.search(text) is None:  # hypothesis cannot honour every look-around
        return
    words = required_words(pattern)
    assert words is None or any(word in text for word in words), (text, words)
    assert Gated(pattern).may_match(text)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\bspeaking of\b", {"speaking of"}),
        # an optional part adds no requirement, and is spelled out when small
        (r"\bi (?:also )?agree\b", {"i agree", "i also agree"}),
        (r"abc|x?", None),  # one alternative matches the empty string
        (r"(?i)speaking of", None),  # case-insensitive: literals say nothing
        (r"[a-z]+ing\b", {"ing"}),
        (r"(?:so )*far", {"far"}),
        (r"但|然而", {"但", "然而"}),
    ],
)
def test_required_words_of_small_patterns(pattern: str, expected: set[str] | None) -> None:
    found = required_words(re.compile(pattern))
    assert (None if found is None else set(found)) == expected


def test_a_gated_pattern_answers_as_the_regex_does() -> None:
    cue = gated(r"\bby the way\b|顺便")
    texts = ["By the way", "by the way, costs", "顺便说一句", "the way by", ""]
    for text in texts:
        assert (cue.search(text) is None) == (cue.regex.search(text) is None)
        assert [m.span() for m in cue.finditer(text)] == [
            m.span() for m in cue.regex.finditer(text)
        ]
        assert cue.sub("-", text) == cue.regex.sub("-", text)
        assert cue.split(text) == cue.regex.split(text)
    assert not cue.may_match("nothing here")


SETS = {"en": ad_hominem._GATES[False], "zh": ad_hominem._GATES[True]}
"""The ad hominem forms, the gates tried together on every clause."""


@pytest.mark.parametrize("lang", sorted(SETS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_gate_set_keeps_every_pattern_that_may_match(lang: str, data: st.DataObject) -> None:
    """``GateSet.possible`` drops a pattern only where its own gate does: texts drawn
    from one of the forms (so that pattern's words are in them), with text around them
    and the forms' own words mixed in."""
    gates = SETS[lang].gates
    at = data.draw(st.integers(0, len(gates) - 1))
    words = sorted({w for gate in gates for w in gate.words or ()})
    parts = data.draw(
        st.lists(
            st.sampled_from(words) | st.text(max_size=6) | st.from_regex(gates[at].regex),
            max_size=6,
        )
    )
    text = "".join(parts)
    possible = SETS[lang].possible(text)
    assert all(kept or not gate.may_match(text) for kept, gate in zip(possible, gates, strict=True))


def test_a_gate_set_drops_what_cannot_match() -> None:
    """The set is not a pass-through: a text without the forms' words keeps none of them,
    and one word keeps the forms that need it (and not every form)."""
    gates = GateSet([gated(r"\bidiot\b"), gated(r"\bliar\b|\bfraud\b"), gated(r"[a-z]+")])
    assert gates.possible("costs fall") == [False, False, True]
    assert gates.possible("you fraud") == [False, True, True]
    assert gates.possible("an idiot") == [True, False, True]
    english = SETS["en"]
    kept = english.possible("the rollout costs fall in year two")
    assert not all(kept)
    kept = english.possible("you liar")
    assert all(kept[i] for i, gate in enumerate(english.gates) if gate.may_match("you liar"))
