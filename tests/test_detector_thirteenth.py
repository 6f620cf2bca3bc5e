"""The thirteenth round's forms (docs/detectors.md, "Thirteenth round"): a debate
framework's turn prompt echoed as a turn ("Topic: <motion>", "Round 3, your turn:
Ethicist") is scaffolding, not a speech; in Chinese, swearing at the addressee ("你他媽的"),
the insult "王八蛋"/"王八烏龜", a person called gullible ("你太好騙") and sarcasm about how
little the person read ("連自己提的資料都只看一半", "只讀到 157 頁"). Each with the words it
must leave alone."""

from __future__ import annotations

import pytest

from moot.detectors import parse_transcript, topic_drift
from moot.detectors.ad_hominem import _sentence_attack
from moot.detectors.history import TurnHistory

SIDES = {"TechAdvocate": "for the motion", "Ethicist": "against the motion"}


@pytest.mark.parametrize(
    "text",
    [
        "Topic: Is AI capable of replacing full human jobs?\n\nRound 3, your turn: Ethicist",
        "Round 4, your turn: TechAdvocate",
        "Debate topic: Should cities ban cars?\n\nRound 2 - it's your turn.",
    ],
)
def test_a_turn_prompt_echoed_is_scaffolding(text: str) -> None:
    assert topic_drift.scaffolding(text, SIDES) is not None


@pytest.mark.parametrize(
    "text",
    [
        # a speech with a heading is judged on its argument
        "Topic: Is AI capable of replacing full human jobs?\n\nI argue it is not: employers"
        " need judgement that no system offers, and three decades of automation show that"
        " new tasks appear as old ones go, so whole jobs rarely vanish.",
        # a moderator or a chair giving the floor, without a round number
        "It is your turn, Senator.",
        "Your turn to answer the question on the topic of the economy.",
        # a round named inside an argument
        "In round 3 the other side conceded the costs; your turn to explain them, I said.",
        "In round 2, your turn came and you said nothing.",
        "In round 2 it's your turn to prove it.",
    ],
)
def test_a_speech_or_a_chair_is_not_a_turn_prompt(text: str) -> None:
    assert topic_drift.scaffolding(text, SIDES) is None


def test_the_echoed_prompt_is_flagged_in_a_debate() -> None:
    motion = "Is AI capable of replacing full human jobs?"
    transcript = parse_transcript(
        {
            "topic": motion,
            "sides": SIDES,
            "turns": [
                {
                    "side": "TechAdvocate",
                    "text": "AI already drafts contracts, reads scans and answers customers,"
                    " and each year it takes over more of the tasks that make up a job.",
                },
                {"side": "Ethicist", "text": f"Topic: {motion}\n\nRound 3, your turn: Ethicist"},
            ],
        }
    )
    history = TurnHistory(transcript)
    history.advance(1)
    found = topic_drift.lexical_check(transcript, 1, history)
    assert found is not None
    assert found.evidence == topic_drift.SCAFFOLDING_KEY
    # the encoder pass lets it stand (the model does not judge what is no speech)
    assert found.evidence in topic_drift.STANDING


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("你他媽的不要再跟林北跳針說一輩子都碰不到核廢啦。", "insult"),
        ("所以我現在要一網打盡這些困在甕中的王八烏龜。", "insult"),
        ("你这个王八蛋。", "insult"),
        ("到底是給你那份資料的人想要騙你，還是你太好騙？", "insult"),
        ("當然士修可能不看新的報告，連自己提的資料都只看一半。", "competence"),
        ("這份報告結果呢黃先生只讀到 157 頁，後面的 30 頁他沒有讀。", "competence"),
        ("你們只讀到第 5 頁就下結論。", "competence"),
    ],
)
def test_the_thirteenth_round_forms_find_the_attack(sentence: str, kind: str) -> None:
    assert _sentence_attack(sentence, True) == kind


@pytest.mark.parametrize(
    "sentence",
    [
        # an expletive at no one, a mother
        "他妈的，今天的天气真热。",
        "我的妈妈说核电很安全。",
        # a tortoise, not an insult
        "乌龟跑得很慢，但是很稳。",
        # a question easy to score on, not a person called gullible
        "这个题目太好骗分了。",
        # the speaker's own reading; half a report read in a neutral report of the speaker's
        "我们只读到第 5 页，后面还没有读。",
        "我只看了一半，剩下的明天再看。",
        # a page where something is seen, not how far someone read
        "我们在报告中只看到第 12 页提到这个问题。",
        # the addressee's mother, not an expletive
        "你妈的养老金谁来付？",
        # the victims of a fraud called easy to fool, and the citizens, not the addressee
        "他们觉得老人家好骗，所以专门针对他们。",
        "你以为市民好骗吗？",
    ],
)
def test_the_thirteenth_round_forms_leave_these_alone(sentence: str) -> None:
    assert _sentence_attack(sentence, True) is None
