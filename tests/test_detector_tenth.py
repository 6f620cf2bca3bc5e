"""The tenth round's ad hominem exceptions (docs/detectors.md, "Tenth round"): a
pejorative that describes how a belief is held ("天真地以为"), one aimed at the quoted
words a side holds, a motive the speaker denies, and the generic "you" of "like having
your own bank account" are not attacks; the same words said of the person still are."""

from __future__ import annotations

import pytest

from moot.detectors.ad_hominem import _sentence_attack


@pytest.mark.parametrize(
    ("sentence", "lang_zh"),
    [
        ("第三，正方天真地以為，合法化能「迫使」國家提升安寧照護。", True),
        ("对方幼稚地认为，只要立法就能解决问题。", True),
        ('这岂不证明您方的"可控"只是纸上谈兵？', True),
        ("因此，反方不是替企業說話，而是反對用單一高壓政策承載太多期待。", True),
        ("It's like having your own bank account without the hefty fees.", False),
    ],
)
def test_a_claim_dismissed_or_a_motive_denied_is_no_attack(sentence: str, lang_zh: bool) -> None:
    assert _sentence_attack(sentence, lang_zh) is None


@pytest.mark.parametrize(
    ("sentence", "lang_zh"),
    [
        ("对方真是天真。", True),
        ("您方只是纸上谈兵。", True),
        ("你们就是替资本家说话。", True),
        ("Your own bank account is why you oppose the tax.", False),
    ],
)
def test_the_same_words_of_the_person_are_an_attack(sentence: str, lang_zh: bool) -> None:
    assert _sentence_attack(sentence, lang_zh) is not None
