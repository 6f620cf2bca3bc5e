"""The twelfth round's ad hominem forms (docs/detectors.md, "Twelfth round"): an insult of
worth ("you are useless"), tu quoque ("particularly absurd coming from him", "you have
milked it dry and now you want to...", "when he was in power, he increased..."), a person
told to shut up, competence as a record ("never gets anything done", "has done
virtually nothing", "you have not read"), a basic distinction unknown, a pejorative before
a person named by office, fitness and temperament, a cozy relationship, in English;
sarcasm about understanding, a motive put on what is said and a deceit charged, in
Chinese. Each with the words it must leave alone."""

from __future__ import annotations

import pytest

from moot.detectors.ad_hominem import _sentence_attack


@pytest.mark.parametrize(
    ("sentence", "lang_zh", "kind"),
    [
        ("I do not want to talk to you, you are useless.", False, "insult"),
        ("Everything was too slow because you are probably blind.", False, "insult"),
        ("That allegation is particularly absurd coming from him.", False, "speaker"),
        ("I love getting a lecture in consistency from a Prime Minister.", False, "speaker"),
        ("You have milked the system dry and now you want to reduce it.", False, "speaker"),
        ("When the Honourable Member was in power, he increased the allowances.", False, "speaker"),
        ("Those who have not read the report should shut up.", False, "disqualify"),
        ("You're not going to be able to shut him up.", False, "disqualify"),
        ("The problem is, you talk, but you don't get anything done.", False, "competence"),
        ("Now, she never gets anything done.", False, "competence"),
        ("This man's done virtually nothing.", False, "competence"),
        ("I think you have not read the Bill.", False, "competence"),
        ("He actually did not understand what the Commission was.", False, "competence"),
        (
            "They do not understand the difference between rule by law and rule of law.",
            False,
            "competence",
        ),
        ("I cannot believe how dense the Minister of Education is.", False, "insult"),
        ("There is no need to be a drama queen.", False, "insult"),
        ("The Chief Whip is shouting like a child.", False, "insult"),
        ("You can't even say the word law enforcement.", False, "competence"),
        ("His former adviser has said he is dangerous and unfit.", False, "insult"),
        (
            "It is good that someone with the temperament of that man is not in charge.",
            False,
            "competence",
        ),
        ("You defend your cozy relationship with Wall Street.", False, "motive"),
        ("你瞭解不瞭解？", True, "competence"),
        ("你不清楚，你還回答我？", True, "competence"),
        ("這些都是只是為了繼續歧視才講的話而已。", True, "motive"),
        ("那天的事都是在騙我們。", True, "lying"),
    ],
)
def test_the_twelfth_round_forms_find_the_attack(sentence: str, lang_zh: bool, kind: str) -> None:
    assert _sentence_attack(sentence, lang_zh) == kind


@pytest.mark.parametrize(
    ("sentence", "lang_zh"),
    [
        # a fact someone does not see, not a person called blind
        ("You are blind to the costs of this policy.", False),
        # generic "you": anyone's deal, anyone's majority
        ("You sign the contract and then you want to back out.", False),
        ("You can't get anything done in this chamber without a majority.", False),
        # an inconsistency in what the opponent said, which is an argument
        ("You have conceded that costs rise, and now you ask us to ignore them.", False),
        # a person cleared, not mocked
        ("He has done nothing wrong and he has done nothing to deserve this.", False),
        # a sound, not a charge; research the speaker's own side will do
        ("There was a funny sound coming from the engine.", False),
        ("We need to do some research on what the Commission used to do.", False),
        # a fitness that is no person's; a temperament described, not denied
        ("The water is unfit for drinking.", False),
        ("The committee has the temperament to decide.", False),
        # shut as a verb of closing
        ("The government shut down the mine last year.", False),
        # an interpellation's ordinary question; a person deceived, not a deceiver
        ("你知不知道他们的实力很强？", True),
        ("很多老人被骗我们要加强宣导。", True),
        # the speaker's own side's motive, not one charged
        ("我们就是为了保护消费者才提出这个方案。", True),
    ],
)
def test_the_twelfth_round_forms_leave_these_alone(sentence: str, lang_zh: bool) -> None:
    assert _sentence_attack(sentence, lang_zh) is None
