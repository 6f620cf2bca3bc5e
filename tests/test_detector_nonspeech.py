"""The ninth round's forms (docs/detectors.md, "Ninth round"): a turn that is no speech
(a raw tool call, a bare number, a model serving a user outside the debate) is topic
drift unless it is about the motion; an insult used as a label of a debater or their
words, a parliamentary name for the member opposite, and mockery by idiom are ad
hominem, and the same words said of no debater are not."""

from __future__ import annotations

from typing import Any

import pytest

from moot.detectors import parse_transcript, run_detectors
from moot.detectors.topic_drift import non_speech

HOUSING_SIDES = {"正方": "明年房市会回温", "反方": "明年房市仍会低迷"}
HOUSING_TOPIC = "今年房市交易恐创9年新低，明年如何看待"
HOUSING_OPENING = "今年房市交易量下滑，但利率回落与刚性需求会让明年房市交易回温。"
EN_SIDES = {"Government": "The Government's record", "Opposition": "The Opposition's case"}
EN_TOPIC = "Prime Minister's Questions: the National Health Service"
EN_OPENING = "Waiting lists for the National Health Service have fallen in every region."


def _flags(
    text: str, *, lang: str = "zh", before: str | None = None
) -> set[tuple[str, int | None]]:
    """The lexical pass's (detector, turn) flags when ``text`` answers an opening (and,
    when given, ``before`` as a second turn of the opening side)."""
    if lang == "zh":
        sides, topic, opening = HOUSING_SIDES, HOUSING_TOPIC, HOUSING_OPENING
    else:
        sides, topic, opening = EN_SIDES, EN_TOPIC, EN_OPENING
    first, second = list(sides)
    turns = [{"side": first, "text": opening}]
    if before is not None:
        turns.append({"side": first, "text": before})
    turns.append({"side": second, "text": text})
    data: dict[str, Any] = {"topic": topic, "lang": lang, "sides": sides, "turns": turns}
    return {(f.detector, f.turn) for f in run_detectors(parse_transcript(data), "lexical")}


def _drift(text: str, *, lang: str = "zh", before: str | None = None) -> bool:
    last = 2 if before is not None else 1
    return ("topic_drift", last) in _flags(text, lang=lang, before=before)


def _attack(text: str, *, lang: str = "zh") -> bool:
    return ("ad_hominem", 1) in _flags(text, lang=lang)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"tool": "tej.stock_price", "params": {"coid": "2330"}}', "tej.stock_price 2330"),
        ('[{"symbol": "^GSPTSE"}]', "^GSPTSE"),
        ("search(query='TSMC revenue')", "query='TSMC revenue'"),
        ("2331", ""),
        ("  42 %  ", ""),
    ],
)
def test_a_tool_call_data_or_a_bare_number_is_no_speech(text: str, said: str) -> None:
    assert non_speech(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "Waiting lists (in every region) have fallen.",
        "{not json at all, a brace in prose}",
        "We agree with the opening (mostly).",
        "",
        "—",
        "...",
    ],
)
def test_prose_is_a_speech(text: str) -> None:
    assert non_speech(text) is None


@pytest.mark.parametrize(
    "text",
    [
        '{"tool": "tej.stock_price", "params": {"coid": "2330", "start_date": "2024-10-01"}}',
        '{"symbol":"2330.TW","info_type":"history"}',
        "2331",
        "为什么您想查询哪家公司或财务资料？请提供公司名称或代码。",
        "對不起，我無法進一步分析今年房市交易，因為缺少參數。若您能提供公司的代碼，我將能夠取得股價。",
    ],
)
def test_a_non_speech_or_a_user_served_drifts(text: str) -> None:
    assert _drift(text)


@pytest.mark.parametrize(
    ("text", "before"),
    [
        # a search for the motion itself is work on the motion
        ('{"tool": "duckduckgo.search", "params": {"query": "今年 房市 交易 9年新低"}}', None),
        # a bare number that answers a question
        ("2331", "今年全台的房市交易量是多少？"),
        # a debater asking the opponent for data addresses the debate
        ("请对方辩友提供明年房市交易回温的数据。", None),
    ],
)
def test_a_search_on_the_motion_an_answer_or_a_request_to_the_opponent_does_not(
    text: str, before: str | None
) -> None:
    assert not _drift(text, before=before)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("在场不断发表垃圾言论的议员，更不应雪上加霜。", "zh"),
        ("主席，身處於垃圾堆裏的人，不會知道自己是垃圾。", "zh"),
        ("沒有家教，沒有家教。", "zh"),
        ("很多同事以嬉皮笑臉、絕無廉恥的方式向主席說話。", "zh"),
        ("所以是梁美芬議員在會議廳內說謊和扭曲事實。", "zh"),
        ("It is just another example of his blatant opportunism.", "en"),
        ("Should he not be thoroughly ashamed of himself?", "en"),
        ("He is living on another planet.", "en"),
        ("On policy making, the right hon. Gentleman is simply in the kindergarten.", "en"),
        ("If he read the newspapers he might find out what his Chancellor thinks.", "en"),
    ],
)
def test_an_insult_as_a_label_or_mockery_of_a_debater_is_ad_hominem(text: str, lang: str) -> None:
    assert _attack(text, lang=lang)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        # the same words of no debater: waste, children, an industry, the speaker's own side
        ("垃圾分类没有处罚就很难坚持，谁来监督每一袋垃圾？", "zh"),
        ("没有家教的孩子更需要学校的关心。", "zh"),
        ("有两位都说过我是垃圾，但我还是要谈房市。", "zh"),
        ("Opportunism in the housing market drives prices up.", "en"),
        ("I would be ashamed of myself if we cut the budget.", "en"),
        ("The right hon. Gentleman asked about waiting lists; they have fallen.", "en"),
    ],
)
def test_the_same_words_of_no_debater_are_not(text: str, lang: str) -> None:
    assert not _attack(text, lang=lang)
