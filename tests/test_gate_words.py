"""A gate (``moot.regex_gate.Gated``) looks only for the required words that hold no
other of them, and in an ASCII text only for the ASCII ones: it passes exactly the
texts that hold one of its required words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from moot.detectors import cues
from moot.regex_gate import Gated, looked_for

CUES = [cue for cue in vars(cues).values() if isinstance(cue, Gated) and cue.words]
PARTS = sorted({w for cue in CUES for w in cue.words or ()} | {" ", "x", "。", "é"})


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(CUES), st.lists(st.sampled_from(PARTS), max_size=6).map("".join))
def test_a_gate_passes_the_texts_holding_a_required_word(cue: Gated, text: str) -> None:
    words = cue.words or ()
    assert cue.may_match(text) == any(w in text for w in words)


def test_words_holding_another_are_not_looked_for() -> None:
    ascii_words, every_word = looked_for(("fail", "fails to", "但", "但是", "wrong"))
    assert every_word == ("fail", "但", "wrong")
    assert ascii_words == ("fail", "wrong")
