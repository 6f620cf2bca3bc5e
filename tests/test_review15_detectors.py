"""Defects a review (review15, 2026-12-07) found in the eighth round of the detectors
(c8cd8eb..623e529) and in the seventh round's ad hominem forms it builds on.

Each test states the expected behaviour; every one failed on main at 623e529, before the
fixes in ad_hominem.py, stance_drift.py and hanzi.py.
"""

from __future__ import annotations

import pytest

from moot.detectors import run_detectors
from test_detectors import FAIRNESS, OSLO, fired, transcript

OPENING = {
    "en": "Cities should ban cars downtown: cleaner air and safer streets for children.",
    "zh": "应该禁止中学生带手机进校园：上课更专心，校园更安全。",
}


def _fired(turns: list[tuple[str, str]], lang: str, detector: str) -> list[int | None]:
    return fired(run_detectors(transcript(turns, lang=lang), "lexical"), detector)


def _ad_hominem(text: str) -> bool:
    """Whether ``text``, the second side's answer to an opening, is flagged as ad hominem."""
    lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
    first, second = ("pro", "con") if lang == "en" else ("正方", "反方")
    return _fired([(first, OPENING[lang]), (second, text)], lang, "ad_hominem") == [1]


# ---- ad hominem: the eighth round's "no standing" forms ---------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "你有什么资格对别人的生活指手画脚？",  # 对X指手画脚: the verb after an object
        "你有什么资格来这里教训我们？",  # 来这里, not 在这里
        "你没资格跟我谈公平。",  # 跟我谈
        "你有什么资格？",  # the bare retort
        "你没有资格对这个问题发表意见。",
        "你没有资格指手划脚。",  # 划, the dictionary variant of 画 (and 劃 reads as 划)
        "你們沒資格來這裡談。",  # traditional, 来这里
    ],
)
def test_a_denial_of_standing_with_words_between_is_still_an_attack(text: str) -> None:
    # all flagged at c8cd8eb; the eighth round's _ZH_STANDING needs the verb right after 资格
    assert _ad_hominem(text)


@pytest.mark.parametrize(
    "text",
    [
        "我们也没有资格评价别人的家庭。",
        "我们这些人没有资格说三道四。",
        "咱们有什么资格批评别人？",
        "本席有什么资格说话？",
    ],
)
def test_the_speakers_own_side_denied_standing_is_no_attack(text: str) -> None:
    # the comment of _ZH_PATTERNS: never "我们有什么资格说" (the speaker's own side)
    assert not _ad_hominem(text)


@pytest.mark.parametrize(
    "text",
    ["非会员没有资格发言。", "没有教师资格证的人没有资格教书。"],
)
def test_a_rule_of_eligibility_is_no_attack(text: str) -> None:
    # a procedural rule about who may speak, or a licence: nobody's standing is denied
    assert not _ad_hominem(text)


def test_asking_for_the_basis_of_a_claim_with_shuo_is_no_attack() -> None:
    # tests/test_detectors.py passes "那你凭什么认为..." as no attack; the same question
    # with 说 in place of 认为 is flagged
    assert not _ad_hominem("那你凭什么说两个同性之间没有办法完成家庭功能？")


# ---- ad hominem: the political label and "don't trust X and his Y" ----------------------


@pytest.mark.parametrize(
    "text",
    ["假如你是独裁者，你会怎么做？", "你是独裁政权的受害者，你最清楚。"],
)
def test_dictatorship_named_in_a_hypothetical_or_as_a_victim_is_no_attack(text: str) -> None:
    assert not _ad_hominem(text)


def test_the_political_label_in_traditional_characters() -> None:
    assert _ad_hominem("你简直是独裁！")  # holds
    assert _ad_hominem("你簡直是獨裁！")


def test_standing_denied_with_the_traditional_variant_shenme() -> None:
    assert _ad_hominem("你有什麼資格說話？")  # holds
    assert _ad_hominem("你有甚麼資格說話？")


@pytest.mark.parametrize(
    "text",
    [
        "Don't trust polls and their margins of error.",
        "Do not trust advertisers and their claims about fuel economy.",
    ],
)
def test_distrust_of_things_or_an_industry_is_no_attack(text: str) -> None:
    assert not _ad_hominem(text)


@pytest.mark.parametrize(
    "text",
    ["Don't trust Dan — and his statistics.", "Don't trust Dan, and his statistics."],
)
def test_distrust_of_a_person_and_his_work_in_other_punctuation(text: str) -> None:
    assert _ad_hominem("Don't trust Dan and -- and his statistics.")  # holds
    assert _ad_hominem(text)


# ---- ad hominem: the seventh round's forms ---------------------------------------------


def test_an_industrys_lies_after_a_parenthetical_you_are_no_attack() -> None:
    # c8cd8eb meant "a pack of lies" of an industry not to be an attack
    assert not _ad_hominem("As you know, the tobacco industry told a pack of lies for decades.")


def test_a_generic_description_that_happens_to_be_rich_is_no_attack() -> None:
    assert not _ad_hominem(
        "The average lottery winner happens to own two houses within five years."
    )


# ---- stance drift: the terms of questions other sides put ------------------------------

EN_PRO, EN_CON = OSLO, FAIRNESS
EN_CON_ASKED = (
    "Doesn't a ban punish the people with the fewest options: the disabled driver, the"
    " night-shift nurse, the tradesman with a van full of tools? Buses do not run often"
    " enough at night."
)
EN_VOICED = (
    "They are right. A ban really does punish the people with the fewest options: the"
    " disabled driver, the night-shift nurse and the tradesman with his tools. Buses at night"
    " are rare."
)
EN_CON_STATED_AND_ASKED = (
    EN_CON + " Who will speak for the disabled driver, the night-shift nurse and the tradesman"
    " with his tools at night?"
)
ZH_PRO = "手机严重分散学生的注意力，课间学生都在低头刷短视频，成绩明显下滑。"
ZH_CON = "手机是家长联系孩子的紧急通道，放学路上遇到危险，孩子需要第一时间联系家长。"
ZH_CON_ASKED = (
    "难道手机不是家长联系孩子的紧急通道吗？放学路上遇到危险，孩子不需要第一时间联系家长吗？"
)
ZH_VOICED = (
    "你说得对，手机是家长联系孩子的紧急通道，放学路上遇到危险，孩子需要第一时间联系家长报平安。"
)


@pytest.mark.parametrize(
    ("lang", "pro", "con", "asked", "voiced"),
    [
        ("en", EN_PRO, EN_CON, EN_CON_ASKED, EN_VOICED),
        ("zh", ZH_PRO, ZH_CON, ZH_CON_ASKED, ZH_VOICED),
        # the case stated, then pressed with a rhetorical question: the question erases it
        ("en", EN_PRO, EN_CON, EN_CON_STATED_AND_ASKED, EN_VOICED),
    ],
)
def test_voicing_a_case_the_opponent_put_as_a_rhetorical_question_is_drift(
    lang: str, pro: str, con: str, asked: str, voiced: str
) -> None:
    first, second = ("pro", "con") if lang == "en" else ("正方", "反方")
    # the opponent's case said as a statement: pro voicing it is drift (holds)
    assert _fired([(first, pro), (second, con), (first, voiced)], lang, "stance_drift") == [2]
    # the same case put as (or pressed with) a rhetorical question ("doesn't a ban
    # punish...?", "难道...吗？", "who will speak for the disabled driver...?"):
    # c8cd8eb flags pro's turn; the eighth round reads the question's terms as a
    # question being answered and the drift is gone for the next 16 turns
    assert _fired([(first, pro), (second, asked), (first, voiced)], lang, "stance_drift") == [2]
