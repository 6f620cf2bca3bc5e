"""The structured format's rule checks (SPEC section 1): opening, cross-examination, closing.

Per ``moot.formats.structured.rules``: wrong, missing, repeated or unknown ids and new arguments
in cross-examination are *hard* problems; the writing-quality rules (one-sentence
claim, causal reasoning, concrete evidence, no cross-references, no repeated claims,
question follow-ups, closing length, language) are *soft*.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from moot import i18n
from moot.formats.structured.labels import LABELS
from moot.formats.structured.payload import ResponseType
from moot.formats.structured.replies import (
    ArgumentDraft,
    ClosingReply,
    CrossExamItem,
    CrossExamReply,
    OpeningReply,
)
from moot.formats.structured.rules import check_closing, check_cross_exam, check_opening
from moot.llm.structured import Problem
from moot.text import sentences, word_count

# ---- helpers ----------------------------------------------------------------------------

EN_ARGS = [
    ArgumentDraft(
        claim="Congestion pricing cuts downtown car traffic by a tenth within two years.",
        reasoning="Driving into the centre costs more, which leads to fewer optional trips"
        " because some drivers switch to buses and trains.",
        evidence="According to Transport for London, traffic in the charging zone fell 18%"
        " in the first year after 2003.",
    ),
    ArgumentDraft(
        claim="Congestion pricing raises money that can fund better public transport.",
        reasoning="Every entry pays a fee, so the city gains a steady revenue stream that"
        " allows new bus routes to be paid for.",
        evidence="Stockholm's congestion tax raised about 1.3 billion kronor in 2019,"
        " according to the Swedish Transport Agency.",
    ),
    ArgumentDraft(
        claim="Congestion pricing lowers air pollution in the charged zone.",
        reasoning="Fewer cars idle in traffic jams, therefore less exhaust is emitted where"
        " people live and work.",
        evidence="A 2011 study in the journal Transport Policy measured NO2 levels 7% lower"
        " inside the Stockholm zone.",
    ),
]

ZH_ARGS = [
    ArgumentDraft(
        claim="征收拥堵费会在两年内使市中心的汽车流量下降一成。",
        reasoning="因为进入市中心的成本上升，所以司机会减少非必要出行，从而降低交通量。",
        evidence="据伦敦交通局统计，收费区交通量在2003年后的第一年下降了18%。",
    ),
    ArgumentDraft(
        claim="征收拥堵费可以为改善公共交通筹集稳定的资金。",
        reasoning="由于每次进入都要缴费，城市因此获得稳定收入，进而可以开通新的公交线路。",
        evidence="据瑞典交通局的报告，斯德哥尔摩拥堵税在2019年收入约13亿克朗。",
    ),
    ArgumentDraft(
        claim="征收拥堵费会降低收费区内的空气污染水平。",
        reasoning="因为堵车时怠速的汽车减少，所以居民区和办公区的尾气排放随之减少。",
        evidence="据2011年《交通政策》期刊的研究数据，斯德哥尔摩收费区内二氧化氮浓度下降7%。",
    ),
]


def _opening(*changes: dict[str, str], base: Sequence[ArgumentDraft] = EN_ARGS) -> OpeningReply:
    """The good opening, with ``changes[i]`` applied to argument i."""
    drafts = [
        arg.model_copy(update=changes[i]) if i < len(changes) else arg for i, arg in enumerate(base)
    ]
    return OpeningReply(arguments=drafts)


def _hard(problems: Sequence[Problem]) -> list[str]:
    return [p.message for p in problems if p.hard]


def _soft(problems: Sequence[Problem]) -> list[str]:
    return [p.message for p in problems if not p.hard]


def _one_soft(problems: Sequence[Problem], fragment: str) -> Problem:
    """Exactly one problem, soft, whose message contains ``fragment`` (the English
    wording; in a Chinese debate the message is Chinese, so the rule's code must be
    the one whose English wording contains it)."""
    assert len(problems) == 1, problems
    (problem,) = problems
    english = i18n.labels("en", LABELS["en"])
    codes = {
        key.removeprefix("reask.")
        for key, text in english.items()
        if key.startswith("reask.") and fragment in text
    }
    assert fragment in problem.message or problem.code in codes, problem
    assert problem.hard is False
    return problem


# ---- opening ----------------------------------------------------------------------------


def test_good_openings_pass() -> None:
    assert check_opening(_opening(), "en") == []
    assert check_opening(_opening(base=ZH_ARGS), "zh") == []


def test_claim_of_two_sentences_is_soft() -> None:
    claim = "Congestion pricing cuts traffic. It also raises money."
    problem = _one_soft(check_opening(_opening({"claim": claim}), "en"), "exactly one sentence")
    assert problem.message.startswith("arguments[1].claim")


def test_chinese_claim_of_two_sentences_is_soft() -> None:
    claim = "征收拥堵费会减少交通量。它还能筹集资金。"
    problems = check_opening(_opening({"claim": claim}, base=ZH_ARGS), "zh")
    _one_soft(problems, "exactly one sentence")


@pytest.mark.parametrize(
    ("lang", "claim"),
    [
        ("en", "Does congestion pricing cut downtown traffic?"),
        ("zh", "征收拥堵费真的能减少交通量吗？"),
    ],
)
def test_question_claim_is_soft(lang: str, claim: str) -> None:
    base = ZH_ARGS if lang == "zh" else EN_ARGS
    problems = check_opening(_opening({"claim": claim}, base=base), lang)
    _one_soft(problems, "not a question")


@pytest.mark.parametrize(
    ("lang", "reasoning"),
    [
        ("en", "Traffic in big cities is bad and drivers are unhappy about it every day."),
        ("zh", "大城市的交通很糟糕，司机们每天都对此非常不满意。"),
    ],
)
def test_reasoning_without_causal_chain_is_soft(lang: str, reasoning: str) -> None:
    base = ZH_ARGS if lang == "zh" else EN_ARGS
    problems = check_opening(_opening({"reasoning": reasoning}, base=base), lang)
    problem = _one_soft(problems, "causal chain")
    assert problem.message.startswith("arguments[1].reasoning")


@pytest.mark.parametrize(
    "reasoning",
    [
        "Driving costs more because of the fee, and fewer people drive.",
        "A higher price leads to fewer trips into the centre at peak hours.",
        "If entering costs more, then drivers choose other times or modes.",
        "The fee is visible at every trip; as a result drivers plan ahead.",
    ],
)
def test_causal_reasoning_passes(reasoning: str) -> None:
    assert check_opening(_opening({"reasoning": reasoning}), "en") == []


@pytest.mark.parametrize(
    ("lang", "evidence"),
    [
        ("en", "Many companies do it and everyone knows that it works."),
        # vague despite a figure
        ("en", "Experts agree: 9 out of 10 cities that tried it kept it."),
        ("en", "Traffic in London fell after the charge was introduced."),  # nothing checkable
        ("zh", "众所周知，很多城市都这样做，而且效果很好。"),
        ("zh", "伦敦在引入收费之后交通状况明显改善了。"),
    ],
)
def test_vague_evidence_is_soft(lang: str, evidence: str) -> None:
    base = ZH_ARGS if lang == "zh" else EN_ARGS
    problems = check_opening(_opening({"evidence": evidence}, base=base), lang)
    problem = _one_soft(problems, "concrete")
    assert problem.message.startswith("arguments[1].evidence")


@pytest.mark.parametrize(
    "evidence",
    [
        "Traffic in the London zone fell 18% in the first year.",
        'The city\'s "Annual Traffic Review" reports fewer cars at peak times.',
        "According to Transport for London, traffic in the zone fell sharply.",
    ],
)
def test_concrete_evidence_passes(evidence: str) -> None:
    assert check_opening(_opening({"evidence": evidence}), "en") == []


@pytest.mark.parametrize(
    ("lang", "field", "text"),
    [
        ("en", "reasoning", "See argument 2: the fee leads to fewer trips into the centre."),
        ("en", "reasoning", "As PRO-2 shows, the fee leads to fewer trips into the centre."),
        ("en", "evidence", "The figures given above in point #3 show an 18% fall since 2003."),
        ("en", "claim", "As argued above, congestion pricing cuts traffic."),
        ("zh", "reasoning", "见第二条，因为收费提高了成本，所以司机会减少出行。"),
        ("zh", "reasoning", "如上所述，因为收费提高了成本，所以司机会减少出行。"),
        ("zh", "evidence", "论据2中的数据显示交通量下降了18%。"),
    ],
)
def test_cross_reference_is_soft(lang: str, field: str, text: str) -> None:
    base = ZH_ARGS if lang == "zh" else EN_ARGS
    problems = check_opening(_opening({field: text}, base=base), lang)
    problem = _one_soft(problems, "stand alone")
    assert problem.message.startswith("arguments[1]:")


def test_repeated_claims_are_flagged_on_each_copy() -> None:
    first = EN_ARGS[0].claim
    # the same claim, differently cased and spaced, in argument 3
    copy = "  " + first.upper().replace(" ", "   ") + " "
    problems = check_opening(_opening({}, {}, {"claim": copy}), "en")
    messages = _soft(problems)
    assert len(problems) == 2
    assert all("repeats another claim" in m for m in messages)
    assert {m.split(".")[0] for m in messages} == {"arguments[1]", "arguments[3]"}


def test_english_opening_written_in_chinese_is_soft() -> None:
    problems = check_opening(_opening(base=ZH_ARGS), "en")
    assert problems
    assert _hard(problems) == []
    assert all("write in English" in m for m in _soft(problems))
    # claim and reasoning of every argument
    assert len(problems) == 2 * len(ZH_ARGS)


def test_chinese_opening_written_in_english_is_soft() -> None:
    problems = check_opening(_opening(), "zh")
    assert len(problems) == 2 * len(EN_ARGS)
    assert _hard(problems) == []
    assert all("write in Chinese" in m for m in _soft(problems))


def test_opening_rules_are_all_soft() -> None:
    bad = ArgumentDraft(
        claim="Is this good? Maybe.",
        reasoning="Traffic is bad, see argument 2 for more on it.",
        evidence="Everyone knows it works well.",
    )
    problems = check_opening(OpeningReply(arguments=[bad, bad, bad]), "en")
    assert len(problems) > 5
    assert _hard(problems) == []


@pytest.mark.parametrize(
    "reasoning",
    [
        "Prices are also higher in the cities we looked at, which is bad.",
        "The policy would strengthen local shops and that is good for all.",
        "The authentic data shows prices are higher in cities, which is bad.",
    ],
)
def test_causal_marker_inside_a_word_is_not_causal(reasoning: str) -> None:
    problems = check_opening(_opening({"reasoning": reasoning}), "en")
    _one_soft(problems, "causal chain")


# ---- cross-examination ------------------------------------------------------------------

ALL_IDS = ["PRO-1", "PRO-2", "PRO-3", "CON-1", "CON-2", "CON-3"]
CON_IDS = ["CON-1", "CON-2", "CON-3"]


def _item(
    target: str,
    response: ResponseType = "refute",
    reasoning: str = "The figure covers one large city only, so it does not carry over to"
    " smaller towns with weaker transit.",
    follow_up: str = "What data from smaller towns supports this claim?",
) -> CrossExamItem:
    return CrossExamItem(
        target_id=target, response=response, reasoning=reasoning, follow_up=follow_up
    )


def _cross(*items: CrossExamItem) -> CrossExamReply:
    return CrossExamReply(responses=list(items))


def _good_cross() -> CrossExamReply:
    return _cross(_item("CON-1"), _item("CON-2", "concede"), _item("CON-3", "partial"))


def test_good_cross_examination_passes() -> None:
    assert check_cross_exam(_good_cross(), CON_IDS, ALL_IDS, "en") == []


def test_target_ids_are_case_insensitive() -> None:
    reply = _cross(_item("con-1"), _item("Con-2"), _item("CON-3"))
    assert check_cross_exam(reply, CON_IDS, ALL_IDS, "en") == []


def test_missing_target_is_hard() -> None:
    reply = _cross(_item("CON-1"), _item("CON-2"))
    problems = check_cross_exam(reply, CON_IDS, ALL_IDS, "en")
    assert len(problems) == 1
    assert problems[0].hard
    assert "CON-3 is not answered" in problems[0].message


def test_duplicate_target_is_hard() -> None:
    reply = _cross(_item("CON-1"), _item("CON-1", "challenge"), _item("CON-2"), _item("CON-3"))
    problems = check_cross_exam(reply, CON_IDS, ALL_IDS, "en")
    assert len(problems) == 1
    assert problems[0].hard
    assert "CON-1 is answered 2 times" in problems[0].message


@pytest.mark.parametrize("stray", ["CON-7", "PRO-1", "X"])
def test_unknown_or_own_target_is_hard(stray: str) -> None:
    reply = _cross(_item("CON-1"), _item("CON-2"), _item("CON-3"), _item(stray))
    problems = check_cross_exam(reply, CON_IDS, ALL_IDS, "en")
    assert len(problems) == 1
    assert problems[0].hard
    assert f"{stray} is not an opposing argument" in problems[0].message
    assert "CON-1, CON-2, CON-3" in problems[0].message


@pytest.mark.parametrize("field", ["reasoning", "follow_up"])
def test_reference_to_a_nonexistent_argument_is_a_new_argument(field: str) -> None:
    text = {
        "reasoning": "This ignores PRO-9, because transit capacity is the real bottleneck.",
        "follow_up": "How do you answer pro-9 on transit capacity?",
    }[field]
    first = _item("CON-1").model_copy(update={field: text})
    reply = _cross(first, _item("CON-2"), _item("CON-3"))
    problems = check_cross_exam(reply, CON_IDS, ALL_IDS, "en")
    assert len(problems) == 1
    assert problems[0].hard
    assert problems[0].message.startswith("responses[1]: refers to PRO-9")


def test_reference_to_an_existing_argument_is_allowed() -> None:
    reasoning = "This does not answer PRO-2, because revenue still funds new buses every year."
    reply = _cross(_item("CON-1", reasoning=reasoning), _item("CON-2"), _item("CON-3"))
    assert check_cross_exam(reply, CON_IDS, ALL_IDS, "en") == []


@pytest.mark.parametrize(
    ("lang", "reasoning"),
    [
        ("en", "New argument: congestion pricing also hurts small shops in the centre."),
        ("en", "Fair enough. Another argument: shops lose customers because of the fee."),
        ("zh", "新论点：拥堵费会因为顾客减少而伤害市中心的小商店。"),
        ("zh", "另一个论据：收费导致小商店的顾客明显减少。"),
    ],
)
def test_new_argument_marker_is_hard(lang: str, reasoning: str) -> None:
    follow_up = "你同意这个数据吗？" if lang == "zh" else "Do you agree with this figure?"
    reply = _cross(
        _item("CON-1", reasoning=reasoning, follow_up=follow_up),
        _item("CON-2", reasoning=reasoning, follow_up=follow_up),
        _item("CON-3", reasoning=reasoning, follow_up=follow_up),
    )
    problems = check_cross_exam(reply, CON_IDS, ALL_IDS, lang)
    assert len(problems) == 3
    assert all(p.hard for p in problems)
    assert all("introduces a new argument" in p.message for p in problems)


@pytest.mark.parametrize(
    "follow_up",
    [
        "What data from smaller towns supports this claim?",  # question mark
        "Explain the figure for smaller towns, please?",  # question mark, no question word
        "Why would drivers in small towns switch to buses",  # question word, no mark
        "How large is the effect outside London",
        "Is the effect the same in smaller towns",
        "你同意这个数据吗",  # Chinese particle 吗
        "你们的数据来自哪里呢",  # particle 呢
        "为什么司机会改乘公交",  # Chinese question word
        "是否所有城市都适用这个数据",
        "这个数据适用于小城市？",  # full-width question mark
    ],
)
def test_follow_up_question_passes(follow_up: str) -> None:
    lang = "en" if follow_up.isascii() else "zh"
    reasoning = (
        _item("X").reasoning if lang == "en" else "这个数据只来自一个大城市，所以不能推广到小城市。"
    )
    reply = _cross(*(_item(t, reasoning=reasoning, follow_up=follow_up) for t in CON_IDS))
    assert check_cross_exam(reply, CON_IDS, ALL_IDS, lang) == []


@pytest.mark.parametrize(
    ("lang", "follow_up"),
    [
        ("en", "Drivers in small towns will not switch to buses."),
        ("zh", "小城市的司机不会改乘公交。"),
    ],
)
def test_follow_up_that_is_not_a_question_is_soft(lang: str, follow_up: str) -> None:
    reasoning = (
        _item("X").reasoning if lang == "en" else "这个数据只来自一个大城市，所以不能推广到小城市。"
    )
    reply = _cross(
        _item("CON-1", reasoning=reasoning),
        _item("CON-2", reasoning=reasoning, follow_up=follow_up),
        _item("CON-3", reasoning=reasoning),
    )
    problems = check_cross_exam(reply, CON_IDS, ALL_IDS, lang)
    problem = _one_soft(problems, "ask a pointed question")
    assert problem.message.startswith("responses[2].follow_up")


def test_chinese_particle_before_full_stop_is_a_question() -> None:
    reasoning = "这个数据只来自一个大城市，所以不能推广到小城市。"
    reply = _cross(
        *(_item(t, reasoning=reasoning, follow_up="你同意这个数据吗。") for t in CON_IDS)
    )
    assert check_cross_exam(reply, CON_IDS, ALL_IDS, "zh") == []


def test_cross_examination_language_rule() -> None:
    # English reasoning in a Chinese debate, and Chinese reasoning in an English one
    zh_problems = check_cross_exam(_good_cross(), CON_IDS, ALL_IDS, "zh")
    assert len(zh_problems) == 3
    assert all(not p.hard and "write in Chinese" in p.message for p in zh_problems)

    reasoning = "这个数据只来自一个大城市，所以不能推广到小城市。"
    reply = _cross(*(_item(t, reasoning=reasoning) for t in CON_IDS))
    en_problems = check_cross_exam(reply, CON_IDS, ALL_IDS, "en")
    assert len(en_problems) == 3
    assert all(not p.hard and "write in English" in p.message for p in en_problems)


# ---- closing ----------------------------------------------------------------------------

PRO_IDS = ["PRO-1", "PRO-2", "PRO-3"]
# short words, so that 200 words fit the schema's 1000-character limit on final_stance
EN_WORDS = (
    "We still back the fee on cars in the city core, as the data on jams and cash held up"
    " when we were asked hard questions, and the doubts they raised were on how big the"
    " gain is, not on its sign. "
) * 6
# ordinary English prose: about 6.5 characters per word, spaces included
EN_PROSE = (
    "We still support congestion pricing because the evidence on traffic and revenue held up"
    " under questioning while the doubts raised were about size rather than direction "
) * 20
ZH_TEXT = (
    "我方仍然支持征收拥堵费，因为关于交通量和财政收入的证据经受住了质询，"
    "对方的疑问只涉及幅度而非方向。"
) * 10


def _stance_en(words: int, source: str = EN_WORDS) -> str:
    """``words`` words as sentences of at most 21 words each."""
    chosen = [w.rstrip(".") for w in source.split()[:words]]
    text = " ".join(" ".join(chosen[i : i + 21]) + "." for i in range(0, len(chosen), 21))
    assert word_count(text) == words
    return text


def _stance_zh(chars: int) -> str:
    """``chars`` CJK characters as sentences of at most 50 characters each."""
    cjk = [c for c in ZH_TEXT if "\u4e00" <= c <= "\u9fff"][:chars]
    return "".join("".join(cjk[i : i + 50]) + "。" for i in range(0, len(cjk), 50))


def _closing(
    unrefuted: Mapping[str, bool] | None = None, final_stance: str | None = None
) -> ClosingReply:
    return ClosingReply(
        concessions=["The revenue estimate for small towns is uncertain."],
        unrefuted=dict(unrefuted)
        if unrefuted is not None
        else {"PRO-1": True, "PRO-2": False, "PRO-3": True},
        final_stance=sentences(final_stance if final_stance is not None else _stance_en(150)),
        stance_changed=False,
        stance_change_reason="No opposing argument forced a concession.",
    )


def test_good_closing_passes() -> None:
    assert check_closing(_closing(), PRO_IDS, "en") == []
    none_stood = dict.fromkeys(PRO_IDS, False)
    assert check_closing(_closing(unrefuted=none_stood), PRO_IDS, "en") == []
    lower = {"pro-1": True, "pro-2": True, "pro-3": False}
    assert check_closing(_closing(unrefuted=lower), PRO_IDS, "en") == []


@pytest.mark.parametrize("stray", ["CON-1", "PRO-9"])
def test_unrefuted_id_that_is_not_own_is_hard(stray: str) -> None:
    given = {**dict.fromkeys(PRO_IDS, True), stray: True}
    problems = check_closing(_closing(unrefuted=given), PRO_IDS, "en")
    assert len(problems) == 1
    assert problems[0].hard
    assert f"{stray} is not one of your arguments" in problems[0].message


def test_a_missing_unrefuted_id_is_hard() -> None:
    problems = check_closing(_closing(unrefuted={"PRO-1": True, "PRO-3": False}), PRO_IDS, "en")
    assert len(problems) == 1
    assert problems[0].hard
    assert "PRO-2 is missing" in problems[0].message


def test_an_unrefuted_id_given_twice_is_hard() -> None:
    given = {"PRO-1": True, "PRO-2": True, "pro-2": False, "PRO-3": True}
    problems = check_closing(_closing(unrefuted=given), PRO_IDS, "en")
    assert len(problems) == 1
    assert problems[0].hard
    assert "given twice" in problems[0].message


def test_the_stance_length_rule_follows_the_profile() -> None:
    short = _closing(final_stance=_stance_en(60))
    assert check_closing(short, PRO_IDS, "en", (40, 80)) == []
    problem = _one_soft(check_closing(short, PRO_IDS, "en"), "has about")
    assert "write 100-200" in problem.message


@pytest.mark.parametrize(("words", "ok"), [(99, False), (100, True), (200, True), (201, False)])
def test_english_final_stance_length(words: int, ok: bool) -> None:
    problems = check_closing(_closing(final_stance=_stance_en(words)), PRO_IDS, "en")
    if ok:
        assert problems == []
    else:
        problem = _one_soft(problems, "has about")
        assert f"about {words} words" in problem.message


@pytest.mark.parametrize(
    # a CJK character counts 1/1.5 of a word: 150 characters = 100 words, 300 = 200
    ("chars", "words", "ok"),
    [(149, 99, False), (150, 100, True), (300, 200, True), (302, 201, False)],
)
def test_chinese_final_stance_length(chars: int, words: int, ok: bool) -> None:
    stance = _stance_zh(chars)
    assert word_count(stance) == words
    problems = check_closing(_closing(final_stance=stance), PRO_IDS, "zh")
    if ok:
        assert problems == []
    else:
        problem = _one_soft(problems, "has about")
        assert f"约 {round(words * 1.5)} 字" in problem.message


def test_closing_language_rule() -> None:
    en_in_zh = check_closing(_closing(), PRO_IDS, "zh")
    _one_soft(en_in_zh, "write in Chinese")
    zh_in_en = check_closing(_closing(final_stance=_stance_zh(200)), PRO_IDS, "en")
    _one_soft(zh_in_en, "write in English")


def test_a_180_word_english_stance_fits_the_schema() -> None:
    words = _stance_en(180, EN_PROSE).replace(".", "").split()
    # nine sentences of twenty words: over 1000 characters in all, as real prose is
    stance = " ".join(" ".join(words[i : i + 20]) + "." for i in range(0, 180, 20))
    assert len(stance) > 1000
    assert word_count(stance) == 180
    assert check_closing(_closing(final_stance=stance), PRO_IDS, "en") == []


# ---- N positions ------------------------------------------------------------------------

ABC_IDS = ["A-1", "A-2", "A-3", "B-1", "B-2", "B-3", "C-1", "C-2", "C-3"]
ABC = ("A", "B", "C")


def test_three_positions_answer_every_other_positions_arguments() -> None:
    """Position A answers B's and C's arguments, each once; its own are no target."""
    targets = [i for i in ABC_IDS if not i.startswith("A-")]
    reply = _cross(*(_item(t) for t in targets))
    assert check_cross_exam(reply, targets, ABC_IDS, "en", ABC) == []
    missing = _cross(*(_item(t) for t in targets[:-1]))
    (problem,) = check_cross_exam(missing, targets, ABC_IDS, "en", ABC)
    assert problem.hard
    assert "C-3 is not answered" in problem.message
    own = _cross(*(_item(t) for t in targets), _item("A-2"))
    (problem,) = check_cross_exam(own, targets, ABC_IDS, "en", ABC)
    assert problem.hard
    assert "A-2 is not an opposing argument" in problem.message


def test_three_positions_ids_of_every_position_are_recognised() -> None:
    targets = [i for i in ABC_IDS if not i.startswith("B-")]
    first = _item("A-1", reasoning="This ignores C-9, because transit capacity is the limit.")
    reply = _cross(first, *(_item(t) for t in targets[1:]))
    (problem,) = check_cross_exam(reply, targets, ABC_IDS, "en", ABC)
    assert problem.hard
    assert problem.message.startswith("responses[1]: refers to C-9")
    existing = _item("A-1", reasoning="This does not answer C-2, because buses still run late.")
    assert (
        check_cross_exam(
            _cross(existing, *(_item(t) for t in targets[1:])), targets, ABC_IDS, "en", ABC
        )
        == []
    )


def test_three_positions_cross_reference_in_an_opening_is_soft() -> None:
    reasoning = "As B-2 shows, the fee leads to fewer trips into the centre."
    problems = check_opening(_opening({"reasoning": reasoning}), "en", ABC)
    _one_soft(problems, "stand alone")
    # with the default pro/con prefixes, "B-2" is no argument id
    assert check_opening(_opening({"reasoning": reasoning}), "en") == []
