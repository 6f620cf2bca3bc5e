"""Each detector on small transcripts: what fires, what must not, and the per-turn check.

How well the detectors do on the labelled set is measured in test_detector_quality.py;
these tests pin the behaviour each rule promises, including its hard negatives.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import moot
from moot.debate import detect
from moot.detectors import (
    DETECTOR_NAMES,
    Concession,
    Flag,
    Transcript,
    TranscriptError,
    Turn,
    check_concessions,
    check_turn,
    parse_transcript,
    run_detectors,
)
from moot.detectors.evaluation import load_cases
from moot.detectors.lexical import shorten
from moot.formats import get_format
from moot.formats.freeform.payload import FreeformPayload
from moot.formats.structured.payload import Closing, StructuredPayload

DATA = Path(__file__).parent / "data" / "detectors"

EN_SIDES = {"pro": "Cities should ban cars downtown", "con": "Cities should not ban cars downtown"}
EN_TOPIC = "Should cities ban private cars from downtown areas?"
ZH_SIDES = {"正方": "应该禁止中学生带手机进校园", "反方": "不应该禁止中学生带手机进校园"}
ZH_TOPIC = "中学生是否应该被禁止带手机进校园"

OSLO = (
    "Car-free centres are safer, quieter and better for business. When Oslo removed most"
    " parking spaces from its centre, pedestrian traffic rose and no pedestrians were killed"
    " in 2019. Shops worried about losing customers, but footfall increased."
)
FAIRNESS = (
    "A ban punishes the people with the fewest options: the disabled driver, the night-shift"
    " nurse, the tradesman with a van full of tools. Buses do not run often enough at night."
)


def transcript(
    turns: list[tuple[str, str]],
    *,
    lang: str = "en",
    scores: list[float] | None = None,
) -> Transcript:
    sides, topic = (EN_SIDES, EN_TOPIC) if lang == "en" else (ZH_SIDES, ZH_TOPIC)
    data: dict[str, Any] = {
        "topic": topic,
        "lang": lang,
        "sides": sides,
        "turns": [{"side": side, "text": text} for side, text in turns],
    }
    if scores is not None:
        data["judge_scores"] = [{"turn": i, "score": s} for i, s in enumerate(scores)]
    return parse_transcript(data)


def fired(flags: list[Flag], detector: str) -> list[int | None]:
    return [f.turn for f in flags if f.detector == detector]


# ---- repetition ---------------------------------------------------------------------------


def test_a_turn_repeating_its_own_side_is_flagged_on_the_later_turn() -> None:
    edited = OSLO.replace("safer, quieter", "quieter, safer").replace("increased", "went up")
    flags = run_detectors(transcript([("pro", OSLO), ("con", FAIRNESS), ("pro", edited)]))
    assert fired(flags, "repetition") == [2]
    flag = next(f for f in flags if f.detector == "repetition")
    assert flag.side == "pro"
    assert "turn 0" in flag.evidence
    assert ">= 0.80" in flag.evidence


def test_copying_the_other_side_is_not_repetition() -> None:
    flags = run_detectors(transcript([("pro", OSLO), ("con", OSLO)]))
    assert fired(flags, "repetition") == []


def test_a_paraphrase_in_new_words_is_not_repetition() -> None:
    paraphrase = (
        "Put plainly: once you take the vehicles out of the middle of town, fewer people get"
        " hurt and the streets get calmer. Norway's capital tried it and walkers came back,"
        " and so did the retailers' takings."
    )
    flags = run_detectors(transcript([("pro", OSLO), ("con", FAIRNESS), ("pro", paraphrase)]))
    assert fired(flags, "repetition") == []


def test_chinese_repetition_with_small_edits() -> None:
    first = "手机严重分散学生的注意力。不少学校反映，课间学生不再打球聊天，而是低头刷短视频。"
    again = "手机严重分散了学生的注意力。很多学校反映，课间学生不再打球聊天，而是低头刷视频。"
    other = "一禁了之并不能解决问题。学生可以偷偷带备用机，很多住校生需要用手机和父母联系。"
    flags = run_detectors(
        transcript([("正方", first), ("反方", other), ("正方", again)], lang="zh")
    )
    assert fired(flags, "repetition") == [2]
    assert "第 0 轮" in next(f for f in flags if f.detector == "repetition").evidence


# ---- ad hominem ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "You clearly don't understand how cities work.",
        "My opponent is a hypocrite who drives everywhere.",
        "Of course he would say that: he sells cars for a living.",
        "Spoken like someone who has never taken a bus in his life.",
        "Who are you to lecture shop owners?",
        "对方辩友根本不懂城市规划。",
        "你这种人有什么资格谈公共交通？",
        "对方辩友一看就是天天开车的人，当然反对。",
        "You're clearly too emotional to discuss this rationally.",
        "Your arrogance is only matched by your ignorance.",
        "Let's not pretend my opponent is an impartial observer; his firm profits from this.",
        "Typical academic: all theory and no common sense.",
        "Maybe if you had ever set foot in a hospital you would know better.",
        "你这么情绪化，根本没法理性讨论。",
        "对方辩友的水平还停留在小学。",
        "对方辩友衣食无忧，当然是站着说话不腰疼。",
        "你现在是不是独裁啊？",
        "First of all, don't trust Dan and -- and his statistics.",
    ],
)
def test_attacks_on_the_speaker_are_ad_hominem(text: str) -> None:
    lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
    side = "正方" if lang == "zh" else "pro"
    other = "反方" if lang == "zh" else "con"
    flags = run_detectors(transcript([(other, FAIRNESS), (side, text)], lang=lang))
    assert fired(flags, "ad_hominem") == [1]


@pytest.mark.parametrize(
    "text",
    [
        "This argument is naive: it ignores delivery vans entirely.",
        "The claim that shops lose customers is simply false, and the Oslo data show it.",
        "I am not calling my opponent ignorant; the figure he used is from 2009.",
        "The study was funded by the motoring lobby, so its conclusions deserve scrutiny.",
        "If you work nights, the last bus has gone before your shift ends.",
        "这个说法太天真了，它忽略了送货车辆。",
        "对方引用的数据已经过时了。",
        "我不是说对方辩友无知，而是这个数据有问题。",
        "把问题说成“外行话”并不能让公交车凭空出现。",
        "You are entitled to a refund if the tram is late.",
        "If you have never used a food bank, the numbers can seem abstract.",
        "She said the minister was out of touch with rural voters.",
        "The emotional cost to you and your family of a long commute is real.",
        "这份报告的作者明显有立场，结论需要谨慎对待。",
        "你如果住在老小区，就知道停车有多难。",
        # eligibility, the speaker's own side, a request for a reason: not standing to speak
        "照这个逻辑，没有生育能力的人就没有资格结婚了。",
        "他们都认为这些人没有资格结婚，是吗？",
        "请问次长，我们有什么资格在这里说不？",
        "那你凭什么认为两个同性之间没有办法完成家庭功能？",
        "Don't trust the data and its sources blindly.",
    ],
)
def test_sharp_criticism_of_an_argument_is_not_ad_hominem(text: str) -> None:
    lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
    side = "正方" if lang == "zh" else "pro"
    other = "反方" if lang == "zh" else "con"
    flags = run_detectors(transcript([(other, FAIRNESS), (side, text)], lang=lang))
    assert fired(flags, "ad_hominem") == []


# ---- topic drift --------------------------------------------------------------------------

FOOTBALL = (
    "Speaking of which, did anyone watch the cup final on Saturday? Our striker scored twice"
    " in extra time and the whole pub went wild. The club deserves a new stadium."
)
GUITAR = (
    "I have been learning to play the guitar for six months now, and my teacher says my"
    " chord changes are finally getting smoother and my rhythm is steadier."
)
BAKERY = (
    "Think about the corner bakery. Its flour arrives by van at five in the morning, before"
    " any ban would apply, and its customers arrive on foot from the pedestrian streets."
)


@pytest.mark.parametrize("text", [FOOTBALL, GUITAR])
def test_a_turn_about_something_else_drifts(text: str) -> None:
    flags = run_detectors(transcript([("pro", OSLO), ("con", FAIRNESS), ("pro", text)]))
    assert fired(flags, "topic_drift") == [2]


def test_an_on_topic_tangent_does_not_drift() -> None:
    flags = run_detectors(transcript([("pro", OSLO), ("con", FAIRNESS), ("pro", BAKERY)]))
    assert fired(flags, "topic_drift") == []


def test_chinese_drift_with_a_change_of_subject() -> None:
    drift = "顺便说一下，我最近在追一部古装剧，剧情拖沓，演员的演技也很尴尬，编剧应该好好反思。"
    opening = "手机严重分散学生的注意力。教育部已经发文，要求中小学生原则上不得将手机带入校园。"
    flags = run_detectors(transcript([("正方", opening), ("反方", drift)], lang="zh"))
    assert fired(flags, "topic_drift") == [1]
    assert "顺便" in next(f for f in flags if f.detector == "topic_drift").evidence


def test_an_opening_with_no_earlier_turn_is_judged_lexically_only_on_a_change_of_subject() -> None:
    guitar = transcript([("pro", GUITAR)])
    assert fired(run_detectors(guitar, "lexical"), "topic_drift") == []
    assert fired(run_detectors(transcript([("pro", FOOTBALL)]), "lexical"), "topic_drift") == [0]


# ---- stance drift -------------------------------------------------------------------------


def test_voicing_the_opponents_case_is_stance_drift_only_when_the_side_agrees() -> None:
    voiced = (
        "A ban really does punish the people with the fewest options: the disabled driver,"
        " the night-shift nurse and the tradesman with his tools. Buses at night are rare."
    )
    # the opponent's words alone are no flag: on the real transcripts that signal was
    # never once right (docs/detectors.md "The echo signal goes")
    flags = run_detectors(transcript([("pro", OSLO), ("con", FAIRNESS), ("pro", voiced)]))
    assert fired(flags, "stance_drift") == []
    agreeing = "They are right. " + voiced
    flags = run_detectors(transcript([("pro", OSLO), ("con", FAIRNESS), ("pro", agreeing)]))
    assert fired(flags, "stance_drift") == [2]


def test_quoting_the_opponent_to_rebut_is_not_stance_drift() -> None:
    quoted = (
        "My opponent says a ban punishes the disabled driver and the night-shift nurse. But"
        " every car-free scheme exempts blue-badge holders and emergency workers, as Ghent does."
    )
    flags = run_detectors(transcript([("pro", OSLO), ("con", FAIRNESS), ("pro", quoted)]))
    assert fired(flags, "stance_drift") == []


def test_stating_the_opposing_stance_is_stance_drift() -> None:
    flags = run_detectors(
        transcript([("pro", OSLO), ("pro", "Cities should not ban cars downtown.")])
    )
    assert fired(flags, "stance_drift") == [1]


# ---- judge scores -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "zero_variance", "inflation"),
    [
        ([7, 7, 7, 7], True, False),
        ([7, 7.0, 7], True, False),
        ([7, 7, 8, 7], False, True),  # a compressed band: all 7-9, spread 0.43
        ([7, 9, 7, 9, 8], False, False),  # all 7-9 but spread 0.89
        ([6, 8, 8, 8], False, False),  # a 6 is out of the band
        ([7, 8, 8], False, False),  # too few for a band
        ([9, 10, 9, 10], False, True),
        ([10, 10, 10], True, True),
        ([9, 10, 9, 10, 8], False, True),  # 80% at 9-10, mean 9.2
        ([8, 9, 8, 9], False, True),  # mean 8.5, but a compressed band (spread 0.5)
        ([80, 90, 80, 90], False, True),  # the band on a 0-100 scale
        ([10, 10, 10, 10, 1], False, False),  # 80% at 9-10 but mean 8.2
        ([9], False, False),  # one score: nothing to compare
        ([], False, False),
        ([95, 90, 92], False, True),  # a 0-100 scale
    ],
)
def test_judge_score_detectors_follow_their_definitions(
    scores: list[float], zero_variance: bool, inflation: bool
) -> None:
    turns = [
        ("pro" if i % 2 == 0 else "con", f"Turn {i} text.") for i in range(max(len(scores), 1))
    ]
    flags = run_detectors(transcript(turns, scores=scores))
    assert fired(flags, "judge_zero_variance") == ([None] if zero_variance else [])
    assert fired(flags, "score_inflation") == ([None] if inflation else [])
    for flag in flags:
        if flag.detector in ("judge_zero_variance", "score_inflation"):
            assert flag.side is None


# ---- false consensus ----------------------------------------------------------------------

CONCEDE = (
    "I concede that a ban helps pedestrians; the Oslo figures are real. But night workers lose out."
)


def test_a_closing_that_denies_a_concession_is_false_consensus() -> None:
    closing = "In closing: the pro side has not shown a single benefit. We concede nothing."
    flags = run_detectors(
        transcript(
            [
                ("pro", OSLO),
                ("con", FAIRNESS),
                ("pro", BAKERY),
                ("con", CONCEDE),
                ("pro", OSLO),
                ("con", closing),
            ]
        )
    )
    assert fired(flags, "false_consensus") == [5]
    flag = next(f for f in flags if f.detector == "false_consensus")
    assert flag.side == "con"
    assert "turn 3" in flag.evidence


def test_a_closing_that_says_the_opposite_of_the_concession_is_false_consensus() -> None:
    conceded = "I accept that a finished lane can move more people per hour than a car lane."
    closing = "Remember: cycle lanes do not move more people per hour than car lanes, sadly."
    flags = run_detectors(
        transcript([("pro", OSLO), ("con", conceded), ("pro", BAKERY), ("con", closing)])
    )
    assert fired(flags, "false_consensus") == [3]
    assert "opposite" in next(f for f in flags if f.detector == "false_consensus").evidence


def test_a_closing_that_keeps_the_concession_is_not_false_consensus() -> None:
    closing = (
        "As we conceded, a ban helps pedestrians; but a charge does so without shutting anyone out."
    )
    flags = run_detectors(
        transcript([("pro", OSLO), ("con", CONCEDE), ("pro", BAKERY), ("con", closing)])
    )
    assert fired(flags, "false_consensus") == []


def test_structured_concessions_not_listed_or_ruled_refuted() -> None:
    conceded = Concession(side="con", target="PRO-1", text="PRO-1 holds as stated.")
    flags = check_concessions(
        [conceded],
        closing_concessions={"con": ["CON-2's cost figure was too high"]},
        standings={"PRO-1": "REFUTED"},
        target_texts={"PRO-1": "Car-free centres are safer"},
    )
    assert [(f.detector, f.side) for f in flags] == [("false_consensus", "con")] * 2
    assert "PRO-1" in flags[0].evidence
    assert "REFUTED" in flags[1].evidence
    listed = check_concessions(
        [conceded],
        closing_concessions={"con": ["We accept PRO-1: car-free centres are safer."]},
        standings={"PRO-1": "UPHELD"},
        lang="zh",
    )
    assert listed == []


@pytest.mark.parametrize("said", ["(no usable text)", "（无可用文本）", ""])
def test_a_concession_shown_as_unusable_is_quoted_by_what_it_conceded(said: str) -> None:
    """A concession whose own words were marked unusable is no quote: the flag quotes
    the conceded argument instead of "(no usable text)"."""
    conceded = Concession(side="con", target="PRO-3", text=said)
    flags = check_concessions(
        [conceded],
        closing_concessions={"con": ["CON-2's cost figure was too high"]},
        standings={"PRO-3": "UPHELD"},
        target_texts={"PRO-3": "Car-free centres are safer"},
    )
    assert len(flags) == 1
    assert "“Car-free centres are safer”" in flags[0].evidence


# ---- the engine's two entry points --------------------------------------------------------


def test_check_turn_gives_the_flags_run_detectors_gives_later_with_reasons() -> None:
    so_far = transcript([("pro", OSLO), ("con", FAIRNESS)])
    issues = check_turn(so_far, Turn(side="pro", text=FOOTBALL))
    assert [i.flag.detector for i in issues] == ["topic_drift"]
    assert "motion" in issues[0].reason
    whole = run_detectors(so_far.with_turn(Turn(side="pro", text=FOOTBALL)))
    assert issues[0].flag in whole
    zh = transcript([("正方", "手机严重分散学生的注意力，课间学生都在低头刷短视频。")], lang="zh")
    again = check_turn(
        zh, Turn(side="正方", text="手机严重分散学生的注意力，课间学生都在低头刷短视频。")
    )
    assert [i.flag.detector for i in again] == ["repetition"]
    assert "第 0 轮" in again[0].reason


def test_check_turn_refuses_a_side_that_is_not_in_the_debate() -> None:
    with pytest.raises(TranscriptError, match="unknown side 'judge'"):
        check_turn(transcript([("pro", OSLO)]), Turn(side="judge", text=FOOTBALL))


def test_check_turn_only_runs_the_per_turn_detectors() -> None:
    so_far = transcript([("pro", OSLO)])
    issues = check_turn(so_far, Turn(side="con", text="You clearly don't understand cities."))
    assert issues == []


def test_every_flag_uses_one_of_the_seven_names_in_turn_order() -> None:
    case = load_cases(DATA / "test" / "en.json")[1]
    flags = run_detectors(case.transcript)
    assert {f.detector for f in flags} <= set(DETECTOR_NAMES)
    turns = [f.turn for f in flags if f.turn is not None]
    assert turns == sorted(turns)


# ---- input ---------------------------------------------------------------------------------


def base() -> dict[str, Any]:
    return {
        "topic": "t",
        "lang": "en",
        "sides": {"a": "x", "b": "y"},
        "turns": [{"side": "a", "text": "hi"}],
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"turns": [{"side": "c", "text": "hi"}]}, "unknown side 'c'"),
        ({"judge_scores": [{"turn": 3, "score": 7}]}, "points at turn 3"),
        ({"judge_scores": [{"turn": 0, "score": True}]}, "a score is a number"),
        ({"judge_scores": [{"turn": -1, "score": 7}]}, "judge_scores"),
        ({"lang": "fr"}, "lang must be 'en' or 'zh'"),
        ({"sides": {}}, "sides is empty"),
        ({"turns": "not a list"}, "turns"),
    ],
)
def test_bad_transcripts_are_refused_with_the_reason(change: dict[str, Any], message: str) -> None:
    with pytest.raises(TranscriptError, match=message):
        parse_transcript({**base(), **change})


def test_transcripts_from_other_systems_are_read_liberally() -> None:
    data = base() | {"lang": "en-US", "model": "x", "judge_scores": None}
    data["turns"] = [{"side": "a", "text": "hi", "round": 1, "speaker": "gpt"}]
    read = parse_transcript(data)
    assert read.lang == "en"
    assert read.judge_scores == []
    assert parse_transcript(base() | {"lang": "zh-Hans"}).lang == "zh"
    inferred = {k: v for k, v in base().items() if k != "lang"}
    inferred["turns"] = [{"side": "a", "text": "我认为应该禁止。"}]
    assert parse_transcript(inferred).lang == "zh"


# ---- the formats' results -----------------------------------------------------------------


def _flags(flags: list[Flag]) -> list[tuple[str, int | None, str | None, str]]:
    return [(f.detector, f.turn, f.side, f.evidence) for f in flags]


def test_a_structured_result_becomes_a_transcript_with_its_scores() -> None:
    result = moot.run_debate(EN_TOPIC, model="scripted:demo", seed=3)
    body = StructuredPayload.model_validate(result.body)
    fmt = get_format("structured")
    read, units = fmt.transcript(result)
    count = len(body.arguments) + len(body.cross_examinations) + len(body.closings)
    assert len(read.turns) == len(units) == count
    # the arguments, then every cross-examination answer, then the closings
    assert units == [a.id for a in body.arguments] + [None] * (count - len(body.arguments))
    assert read.turns[0].side == body.arguments[0].side
    assert body.arguments[0].claim in read.turns[0].text
    first_cross = read.turns[len(body.arguments)]
    assert first_cross.side == body.cross_examinations[0].by
    assert body.cross_examinations[0].reasoning in first_cross.text
    assert read.turns[-1].text == body.closings[-1].final_stance
    assert read.sides == {"pro": f"For: {EN_TOPIC}", "con": f"Against: {EN_TOPIC}"}
    # the judge's weighted score of each argument is the score of its turn
    assert [s.score for s in read.judge_scores] == [s.weighted for s in result.judgement.scores]
    assert [s.turn for s in read.judge_scores] == list(range(len(body.arguments)))
    # the result's flags are the detectors' on this transcript, tied to their units
    recorded = [(d.detector, d.turn, d.side, d.evidence) for d in result.detectors]
    assert recorded == _flags(run_detectors(read) + fmt.extra_flags(result, read))
    for flag in result.detectors:
        assert flag.unit == (units[flag.turn] if flag.turn is not None else None)
    json.dumps([f.model_dump() for f in result.detectors])


def test_a_concession_the_closing_drops_is_false_consensus() -> None:
    """The structured format's own record: a cross-examination answered ``concede``
    whose concession the conceding position's closing no longer lists."""
    result = moot.run_debate(EN_TOPIC, model="scripted:demo", seed=3)
    body = StructuredPayload.model_validate(result.body)
    conceded = [c for c in body.cross_examinations if c.response == "concede"]
    assert conceded, "the demo concedes at least one argument on this seed"
    by = conceded[0].by
    fmt = get_format("structured")
    assert [f for f in fmt.extra_flags(result, fmt.transcript(result)[0])] == []
    dropped = [
        Closing.model_validate(c.model_dump() | {"concessions": []}) if c.side == by else c
        for c in body.closings
    ]
    changed = body.model_copy(update={"closings": dropped})
    disowned = result.model_copy(update={"payload": {"structured": changed.model_dump()}})
    flags = [f for f in detect(fmt, disowned) if f.detector == "false_consensus"]
    assert flags
    cross_turns = {len(body.arguments) + n: c for n, c in enumerate(body.cross_examinations)}
    for flag in flags:
        assert flag.side == by
        assert flag.unit is None
        assert flag.turn in cross_turns
        assert cross_turns[flag.turn].response == "concede"
        assert cross_turns[flag.turn].by == by


def test_a_freeform_result_becomes_a_transcript_of_its_speeches() -> None:
    result = moot.run_debate(
        EN_TOPIC, model="scripted:demo", seed=3, format="freeform", format_options={"rounds": 2}
    )
    body = FreeformPayload.model_validate(result.body)
    fmt = get_format("freeform")
    read, units = fmt.transcript(result)
    assert [t.text for t in read.turns] == [s.text for s in body.speeches]
    assert [t.side for t in read.turns] == [s.side for s in body.speeches]
    assert units == [s.id for s in body.speeches]
    assert [s.score for s in read.judge_scores] == [s.weighted for s in result.judgement.scores]
    recorded = [(d.detector, d.turn, d.side, d.evidence) for d in result.detectors]
    assert recorded == _flags(run_detectors(read))


# ---- stance drift: what answers the opponent, and what sides with them -------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_structured_demo_raises_no_flag(lang: str) -> None:
    # its con speeches reuse the pro speeches' sentence templates: shared framing,
    # quoted claims judged, questions asked, a closing that keeps its side
    result = moot.run_debate(
        "Should a city ban cars from its centre?", model="scripted:demo", seed=7, lang=lang
    )
    assert [(f.detector, f.turn) for f in result.detectors] == []


def test_quoting_a_claim_to_judge_it_or_asking_a_question_is_not_drift() -> None:
    pro = (
        "Car bans cut pollution, free the streets for buses and raise footfall for local"
        " shops, as the pilot districts show."
    )
    con = (
        "The claim “car bans cut pollution, free the streets for buses and raise footfall for"
        " local shops” rests on pilot districts that chose themselves. Which pilot districts"
        " cut pollution and raised footfall for local shops without new buses?"
    )
    assert (
        fired(run_detectors(transcript([("pro", pro), ("con", con)]), "lexical"), "stance_drift")
        == []
    )


def test_a_side_declaring_its_own_position_is_not_voicing_the_other() -> None:
    pro = "Pollution falls, buses run on time and shops gain footfall when the centre is car-free."
    # the agreement signal is the one that reads the opponents' words: the declaration
    # must stop it, or this test would pass without the exemption
    con = (
        "They are right. We remain opposed to the motion. Pollution falls, buses run on time"
        " and shops gain footfall in a few districts only when the centre is car-free for"
        " tourists."
    )
    flags = run_detectors(transcript([("pro", pro), ("con", con)]), "lexical")
    assert fired(flags, "stance_drift") == []
    # without the declaration the same words, said in agreement, are drift
    agreeing = con.replace("We remain opposed to the motion. ", "")
    assert fired(
        run_detectors(transcript([("pro", pro), ("con", agreeing)]), "lexical"), "stance_drift"
    ) == [1]


def test_agreeing_in_the_opponents_set_framing_is_not_voicing_their_case() -> None:
    # words pro says in every turn are its framing (history.framing), not a point con
    # can take up: agreeing in them is no drift, agreeing in a point pro made once is
    sign = " Every figure here comes from the council's published ledger, quoted in full."
    pro = (
        "Cars choke the centre and slow every bus.",
        "Children breathe fumes on the walk to school.",
        "Delivery vans can use the ring road at night.",
    )
    con = (
        "Shops need drivers who park near the market square.",
        "Parking fees fund the market hall and its repairs.",
    )
    before = [("pro", pro[0] + sign), ("con", con[0]), ("pro", pro[1] + sign)]
    before += [("con", con[1]), ("pro", pro[2] + sign)]
    framed = "They are right: every figure here comes from the council's published ledger."
    point = "They are right: children breathe fumes on the walk to school, and buses slow."
    for text, drifts in ((framed, []), (point, [5])):
        flags = run_detectors(transcript([*before, ("con", text)]), "lexical")
        assert fired(flags, "stance_drift") == drifts


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "You rightly pointed out that drivers from the suburbs matter. So shops lose."),
        ("en", "I know I'm supposed to argue for the ban. Drivers pay for the shops."),
        ("zh", "正如您所指出的，郊区的司机很重要。商店需要他们。"),
        ("zh", "基于您提出的几点建议，我们应该兼顾各方。"),
    ],
)
def test_explicit_agreement_with_the_other_side_is_drift(lang: str, text: str) -> None:
    opening = {
        "en": "Cities should ban cars downtown: cleaner air and safer streets for children.",
        "zh": "城市中心应该禁止私家车：空气更干净，街道对孩子更安全。",
    }[lang]
    first, second = ("pro", "con") if lang == "en" else ("正方", "反方")
    flags = run_detectors(transcript([(first, opening), (second, text)], lang=lang), "lexical")
    assert fired(flags, "stance_drift") == [1]


def _answering_an_opening(lang: str, text: str) -> list[Flag]:
    """The lexical flags of ``text`` said by the second side in answer to an opening."""
    opening = {
        "en": "Cities should ban cars downtown: cleaner air and safer streets for children.",
        "zh": "应该禁止中学生带手机进校园：上课更专心，校园更安全。",
    }[lang]
    first, second = ("pro", "con") if lang == "en" else ("正方", "反方")
    return run_detectors(transcript([(first, opening), (second, text)], lang=lang), "lexical")


@pytest.mark.parametrize(
    ("lang", "text", "attack"),
    [
        ("en", "You don't know what's on the ballot in Ohio this year.", False),
        ("en", "You don't know how many buses run after midnight: forty-two.", False),
        ("en", "Have you even read the transport plan? Page four answers you.", True),
        ("en", "You clearly never read the study you keep quoting.", True),
        ("en", "You're one to talk about congestion, with your fleet of limousines.", True),
        ("zh", "建议对方辩友先去读一下交通规划，第四页就有答案。", True),
        ("zh", "你说的公交班次不对，夜间实际有四十二班。", False),
    ],
)
def test_disputing_a_fact_is_not_an_attack_but_sarcasm_and_tu_quoque_are(
    lang: str, text: str, attack: bool
) -> None:
    assert fired(_answering_an_opening(lang, text), "ad_hominem") == ([1] if attack else [])


@pytest.mark.parametrize(
    ("lang", "text", "attack"),
    [
        ("en", "You should be ashamed of yourself for saying that to these families.", True),
        ("en", "I will not be lectured by the senator on how to fund buses.", True),
        ("en", "The only reason you're raising this now is that your donors told you to.", True),
        ("en", "Think of all the lies he has told about this scheme.", True),
        ("en", "You live in your own reality, where buses run every minute.", True),
        ("en", "She has no idea whether the depot closes in May or June.", False),
        ("en", "He has no idea what a night shift feels like.", True),
        ("zh", "你不曉得公共交通是什麼意思嗎？", True),
        ("zh", "從一開始就說謊，現在又改口。", True),
        ("zh", "人命對你們來講不值錢。", True),
        ("zh", "這是他潛意識在作怪，沒辦法。", True),
        ("zh", "你說的公車班次不對，夜間實際有四十二班。", False),
        # descriptive invective (the sixth round)
        ("en", "He is the worst transport minister in the history of this city.", True),
        ("en", "Everyone saw how incompetent she and her deputy are on buses.", True),
        ("en", "She is grossly incompetent, and the depot shows it.", True),
        ("en", "The worst bus route in the city's history was cut in May.", False),
        ("zh", "如果謊話連篇，大家怎麼會尊重你？", True),
        ("zh", "這是頭殼壞去了，照程序走就好。", True),
        ("zh", "講交通你不會比我清楚啦，不要亂掰。", True),
        ("zh", "我能写出有说服力的胡说八道，这是模型的局限。", False),
        # sarcasm and insinuation (the seventh round)
        ("en", "Has she ever run a business? Then spare us the lecture on depots.", True),
        ("en", "I wish we were all as pure as you, Senator, but buses cost money.", True),
        ("en", "The loudest critic of cars happens to own a yacht and two mansions.", True),
        ("en", "He wants this for nothing other than his own advancement.", True),
        ("en", "You can't tell us the first thing about how a depot is run.", True),
        ("en", "Did the city ever win a transport award? Twice, in 2019 and 2021.", False),
        ("en", "A late bus does not show that you do not understand the timetable.", False),
        ("en", "It was said that I was in the pocket of the bus lobby; I was not.", False),
    ],
)
def test_attacks_seen_in_real_debates_in_both_scripts(lang: str, text: str, attack: bool) -> None:
    assert fired(_answering_an_opening(lang, text), "ad_hominem") == ([1] if attack else [])


def test_words_several_other_sides_share_are_not_one_opponents_case() -> None:
    # a committee, one side per speaker: words the chair and a member both used are
    # common ground, so the official agreeing in them is not taking up either's case
    turns = [
        ("chair", "提案人數跟連署人數的門檻應該降低，公民投票的提案門檻太高了。"),
        ("member", "你说得对，公民投票的提案人數跟連署人數門檻太高，應該降低。"),
        ("official", "你说得对，提案人數跟連署人數門檻是不一樣的，公民投票要分開處理。"),
    ]
    data = {
        "topic": "公民投票法修正草案",
        "lang": "zh",
        "sides": {"chair": "主席", "member": "委員", "official": "中選會"},
        "turns": [{"side": side, "text": text} for side, text in turns],
    }
    flags = fired(run_detectors(parse_transcript(data), "lexical"), "stance_drift")
    # the member, the first to answer the chair, agrees in one other side's words
    assert flags == [1]


def _answer_after(opening: str) -> list[int | None]:
    answer = "你说得对，委員提到的婚姻權、家庭權及財產繼承權都是屬於基本人權之一。"
    data = {
        "topic": "民法修正草案：同性婚姻",
        "lang": "zh",
        "sides": {"member": "委員", "official": "法務部"},
        "turns": [{"side": "member", "text": opening}, {"side": "official", "text": answer}],
    }
    return fired(run_detectors(parse_transcript(data), "lexical"), "stance_drift")


def test_an_answer_in_the_words_of_the_question_is_not_stance_drift() -> None:
    # an interpellation: the official answers the member's question in its words
    asked = "請教次長，我們所謂的基本人權中包不包括婚姻權、家庭權或是財產繼承權？"
    assert _answer_after(asked) == []
    # the same words said as the member's statement are the member's case
    stated = "本席認為，我們所謂的基本人權中包括婚姻權、家庭權與財產繼承權。"
    assert _answer_after(stated) == [1]


def test_a_speaker_answering_in_the_first_person_is_not_echoing_the_opponent() -> None:
    answer = (
        "I think a ban really does punish the people with the fewest options: the disabled"
        " driver, the night-shift nurse and the tradesman with his tools. Buses at night are rare."
    )
    flags = run_detectors(transcript([("pro", OSLO), ("con", FAIRNESS), ("pro", answer)]))
    assert fired(flags, "stance_drift") == []


@pytest.mark.parametrize(
    ("lang", "text", "drift"),
    [
        ("en", "A key weakness in the PRO case is that it ignores delivery vans.", True),
        ("en", "The PRO side's plan lacks any answer for night-shift workers.", True),
        ("en", "The CON side's plan lacks any answer for the children on these streets.", False),
        ("zh", "正方的论证缺乏数据支持，这一点必须承认。", True),
        ("zh", "反方的论证缺乏数据支持，这一点必须承认。", False),
        # a side's own heading names it without finding fault with it
        ("zh", "正方论点：该禁令忽视了家长联系孩子的需要。论据：多数家长每天联系孩子。", False),
        ("en", "PRO rebuttal: the ban ignores delivery vans and fails night-shift workers.", False),
    ],
)
def test_a_side_finding_fault_with_itself_in_the_third_person_drifts(
    lang: str, text: str, drift: bool
) -> None:
    opening = {
        "en": FAIRNESS,
        "zh": "禁止中学生带手机会让家长联系不上孩子，也剥夺了学生自我管理的机会。",
    }[lang]
    first, second = ("con", "pro") if lang == "en" else ("反方", "正方")
    flags = run_detectors(transcript([(first, opening), (second, text)], lang=lang), "lexical")
    assert fired(flags, "stance_drift") == ([1] if drift else [])


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        # cut after the last whole word, not inside "comprehensive"
        ("The plan is comprehensive and covers everything", 20, "The plan is…"),
        # a word that ends at the cut is whole
        ("The plan is good, and more", 13, "The plan is…"),
        # no space in the second half (Chinese, one long token): cut at the limit
        ("独立部署让每个团队按自己的节奏发布从而降低协调成本", 10, "独立部署让每个团队…"),
        ("a " + "x" * 40, 12, "a xxxxxxxxx…"),
        ("short enough", 20, "short enough"),
    ],
)
def test_shorten_ends_on_a_whole_word(text: str, limit: int, expected: str) -> None:
    assert shorten(text, limit) == expected
    assert len(shorten(text, limit)) <= limit
