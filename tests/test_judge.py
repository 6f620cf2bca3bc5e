"""The judge: code-computed scores and totals, the trace, fallacy checks, the gap
(leader against runner-up, for any number of positions), the rubric."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from pydantic import BaseModel

from moot.errors import ConfigError
from moot.formats.structured.payload import (
    STANDINGS as STRUCTURED_STANDINGS,
)
from moot.formats.structured.payload import (
    Argument,
    Closing,
    CrossExamination,
    ResponseType,
    StanceChange,
)
from moot.judging.judge import (
    JudgedUnit,
    bias_signals,
    build_judgement,
    check_judge_reply,
    judge_spec,
    read_gap,
)
from moot.judging.replies import judge_reply_type
from moot.judging.rubric import DIMENSIONS, GENERAL, Rubric
from moot.prompts import render
from moot.schema import GapReading, Judgement
from moot.text import normalise

# ---- a small debate ---------------------------------------------------------------------

ARGUMENTS = [
    Argument(
        id="PRO-1",
        side="pro",
        claim="Congestion pricing cuts downtown traffic within two years.",
        reasoning="A fee on each trip leads to fewer optional trips.",
        evidence="Traffic in the London zone fell 18% in 2003.",
    ),
    Argument(
        id="PRO-2",
        side="pro",
        claim="The fee raises money for public transport.",
        reasoning="Every entry pays, so the city gains steady revenue.",
        evidence="Stockholm raised 1.3 billion kronor in 2019.",
    ),
    Argument(
        id="CON-1",
        side="con",
        claim="The fee hurts small shops in the centre.",
        reasoning="Fewer visitors because of the fee means fewer customers.",
        evidence="A 2005 survey of 500 London shops reported lower sales.",
    ),
    Argument(
        id="CON-2",
        side="con",
        claim="The fee is regressive for low-income commuters.",
        reasoning="The same fee is a larger share of a small income, so it hurts them most.",
        evidence="Low-income drivers spend 4% of income on the fee in one model.",
    ),
]
IDS = [a.id for a in ARGUMENTS]
NAMES = {"pro": "Pro", "con": "Con"}


def _cx(by: str, target: str, response: ResponseType) -> CrossExamination:
    return CrossExamination(
        by=by,
        target_id=target,
        response=response,
        reasoning=f"The answer to {target} is that the data covers one city only.",
        follow_up="What about smaller cities?",
    )


CROSS = [
    _cx("pro", "CON-1", "partial"),
    _cx("pro", "CON-2", "challenge"),
    _cx("con", "PRO-1", "refute"),
    _cx("con", "PRO-2", "concede"),
]
CLOSINGS = [
    Closing(
        side=side,
        concessions=[f"We accept one point of the {side} case's opponents."],
        unrefuted=[],
        final_stance=f"Our final stance as {side} is unchanged after the debate.",
        stance_change=StanceChange(changed=False, reason="Nothing forced a change."),
    )
    for side in ("pro", "con")
]
# the debate as the structured format gives it to the judge
TRANSCRIPT = render(
    "judge_transcript",
    "en",
    package="moot.formats.structured",
    names=NAMES,
    arguments=ARGUMENTS,
    cross=CROSS,
    closings=CLOSINGS,
)
DEBATE_TEXT = normalise(TRANSCRIPT)


def _units(cross: Sequence[CrossExamination] = CROSS) -> list[JudgedUnit]:
    """Every argument as the structured format hands it to the judge: with what the
    other positions answered to it in cross-examination."""
    return [
        JudgedUnit(
            id=a.id,
            side=a.side,
            claim=a.claim,
            responses={c.by: c.response for c in cross if c.target_id == a.id},
        )
        for a in ARGUMENTS
    ]


UNITS = _units()
REPLY = judge_reply_type(GENERAL.dimensions, STRUCTURED_STANDINGS)

# (logic, evidence, responsiveness, honesty) per argument
SCORES: dict[str, tuple[int, int, int, int]] = {
    "PRO-1": (7, 5, 8, 6),  # 2.1 + 1.5 + 2.0 + 0.9 = 6.5
    "PRO-2": (9, 8, 7, 10),  # 2.7 + 2.4 + 1.75 + 1.5 = 8.35
    "CON-1": (4, 3, 5, 2),  # 1.2 + 0.9 + 1.25 + 0.3 = 3.65
    "CON-2": (6, 6, 6, 6),  # 6.0
}
STANDINGS: dict[str, str] = {
    "PRO-1": "REFUTED",
    "PRO-2": "UPHELD",
    "CON-1": "PARTIALLY_UPHELD",
    "CON-2": "UNCERTAIN",
}


REASONS: dict[str, str] = {
    # each about its own argument: the same reason for most of them is a copy
    "PRO-1": "The fee's effect on optional trips was refuted with the city's own counts.",
    "PRO-2": "Steady revenue stood: nobody disputed that every entry pays.",
    "CON-1": "Fewer visitors is likely, but fewer customers was not shown.",
    "CON-2": "The share of a small income is argued, with no income figures.",
}


def _assessment(ident: str, scores: Sequence[int] | None = None) -> dict[str, Any]:
    logic, evidence, responsiveness, honesty = scores or SCORES.get(ident.upper(), (5, 5, 5, 5))
    return {
        "argument_id": ident,
        "reason": REASONS.get(ident.upper(), f"The reason for {ident.upper()}'s standing."),
        "standing": STANDINGS.get(ident.upper(), "UNCERTAIN"),
        "logic": logic,
        "evidence": evidence,
        "responsiveness": responsiveness,
        "honesty": honesty,
    }


def _flag(argument_id: str, type_: str, quote: str) -> dict[str, str]:
    return {"argument_id": argument_id, "type": type_, "quote": quote}


def _reply(
    assessments: Sequence[dict[str, Any]] | None = None,
    fallacies: Sequence[dict[str, str]] = (),
    *,
    key_insight: str = "The debate turned on whether one city's data carries over.",
    recommendation: str = "Run a pilot in one district and measure traffic and sales.",
    reply_type: type[BaseModel] = REPLY,
) -> Any:
    return reply_type.model_validate(
        {
            "assessments": list(assessments if assessments is not None else map(_assessment, IDS)),
            "fallacies": list(fallacies),
            "key_insight": key_insight,
            "unresolved_questions": ["Does the effect hold in smaller cities?"],
            "recommendation": recommendation,
        }
    )


def _judge(
    reply: Any,
    lang: str = "en",
    rubric: Rubric = GENERAL,
    units: Sequence[JudgedUnit] = UNITS,
) -> Judgement:
    return build_judgement(
        reply,
        judge_model="scripted",
        rubric=rubric,
        units=units,
        debate_text=DEBATE_TEXT,
        lang=lang,
        names=NAMES if lang == "en" else {"pro": "正方", "con": "反方"},
    )


def _expected_weighted(scores: Sequence[int]) -> float:
    logic, evidence, responsiveness, honesty = scores
    return 0.30 * logic + 0.30 * evidence + 0.25 * responsiveness + 0.15 * honesty


# ---- build_judgement --------------------------------------------------------------------


def test_weighted_scores_are_computed_by_code() -> None:
    judgement = _judge(_reply())
    assert [s.argument_id for s in judgement.scores] == IDS
    for score in judgement.scores:
        dims = SCORES[score.argument_id]
        assert score.scores == dict(zip(DIMENSIONS, dims, strict=True))
        assert all(isinstance(v, int) for v in score.scores.values())
        assert score.weighted == pytest.approx(_expected_weighted(dims))
    by_id = {s.argument_id: s.weighted for s in judgement.scores}
    assert by_id == pytest.approx({"PRO-1": 6.5, "PRO-2": 8.35, "CON-1": 3.65, "CON-2": 6.0})
    assert judgement.weights == {
        "logic": 0.30,
        "evidence": 0.30,
        "responsiveness": 0.25,
        "honesty": 0.15,
    }


def test_side_totals_are_the_mean_of_the_sides_weighted_scores() -> None:
    judgement = _judge(_reply())
    weighted = {s.argument_id: s.weighted for s in judgement.scores}
    assert list(judgement.totals) == ["pro", "con"]
    assert judgement.totals["pro"] == pytest.approx((weighted["PRO-1"] + weighted["PRO-2"]) / 2)
    assert judgement.totals["con"] == pytest.approx((weighted["CON-1"] + weighted["CON-2"]) / 2)
    assert judgement.totals["pro"] == pytest.approx(7.425)
    assert judgement.totals["con"] == pytest.approx(4.825)
    assert judgement.gap.value == pytest.approx(2.6)
    assert judgement.gap.reading == "moderate_difference"
    assert judgement.gap.leader == "pro"
    assert judgement.gap.runner_up == "con"


def test_assessment_order_and_id_case_do_not_matter() -> None:
    shuffled = [_assessment(i.lower()) for i in reversed(IDS)]
    assert _judge(_reply(shuffled)) == _judge(_reply())


def test_custom_rubric_weights_are_applied() -> None:
    logic_only = Rubric(
        "logic-only", {"logic": 1.0, "evidence": 0.0, "responsiveness": 0.0, "honesty": 0.0}
    )
    judgement = _judge(_reply(), rubric=logic_only)
    assert {s.argument_id: s.weighted for s in judgement.scores} == {
        ident: float(dims[0]) for ident, dims in SCORES.items()
    }
    assert judgement.totals == {"pro": 8.0, "con": 5.0}


def test_a_rubric_of_other_dimensions_is_scored_on_them() -> None:
    """A format may weigh its own dimensions (the market format: clarity and
    persuasiveness): the reply type asks for them and the weighted score uses them."""
    rubric = Rubric("other", {"clarity": 0.25, "logic": 0.75})
    reply_type = judge_reply_type(rubric.dimensions, STRUCTURED_STANDINGS)
    assessments = []
    for n, ident in enumerate(IDS, start=1):
        row = _assessment(ident)
        for dim in ("evidence", "responsiveness", "honesty"):
            del row[dim]
        row["clarity"] = n
        assessments.append(row)
    judgement = _judge(_reply(assessments, reply_type=reply_type), rubric=rubric)
    assert judgement.weights == {"clarity": 0.25, "logic": 0.75}
    expected = {ident: 0.25 * n + 0.75 * SCORES[ident][0] for n, ident in enumerate(IDS, start=1)}
    assert {s.argument_id: s.weighted for s in judgement.scores} == pytest.approx(expected)
    assert all(set(s.scores) == {"clarity", "logic"} for s in judgement.scores)
    assert judgement.totals["pro"] == pytest.approx((expected["PRO-1"] + expected["PRO-2"]) / 2)


def test_trace_rows_carry_the_opposing_cross_examination() -> None:
    judgement = _judge(_reply())
    rows = {row.argument_id: row for row in judgement.trace}
    assert list(rows) == IDS
    # each argument's row shows what the *other* side did to it in round 2
    assert {i: r.responses for i, r in rows.items()} == {
        "PRO-1": {"con": "refute"},
        "PRO-2": {"con": "concede"},
        "CON-1": {"pro": "partial"},
        "CON-2": {"pro": "challenge"},
    }
    for arg in ARGUMENTS:
        row = rows[arg.id]
        assert row.side == arg.side
        assert row.claim == arg.claim
        assert row.standing == STANDINGS[arg.id]
        assert row.reason == REASONS[arg.id]


def test_trace_row_without_cross_examination_has_no_responses() -> None:
    # only pro's answers to CON-1 and CON-2
    judgement = _judge(_reply(), units=_units(CROSS[:2]))
    rows = {row.argument_id: row.responses for row in judgement.trace}
    assert rows == {
        "PRO-1": {},
        "PRO-2": {},
        "CON-1": {"pro": "partial"},
        "CON-2": {"pro": "challenge"},
    }


def test_three_positions_total_and_gap_between_leader_and_runner_up() -> None:
    """With three positions each total is its own units' mean, and the gap is read
    between the two best totals, whoever reads first."""
    units = [
        JudgedUnit(id="A-1", side="A", claim="a", responses={"B": "refute", "C": "concede"}),
        JudgedUnit(id="B-1", side="B", claim="b", responses={"A": "partial", "C": "refute"}),
        JudgedUnit(id="C-1", side="C", claim="c", responses={"A": "concede", "B": "challenge"}),
        JudgedUnit(id="C-2", side="C", claim="c2", responses={"A": "refute", "B": "refute"}),
    ]
    scores = {"A-1": (5, 5, 5, 5), "B-1": (9, 9, 9, 9), "C-1": (8, 8, 8, 8), "C-2": (4, 4, 4, 4)}
    reply = _reply([_assessment(i, dims) for i, dims in scores.items()])
    judgement = build_judgement(
        reply,
        judge_model="scripted",
        rubric=GENERAL,
        units=units,
        debate_text="",
        lang="en",
        names={"A": "Hainan", "B": "the North-East", "C": "Yunnan"},
    )
    assert judgement.totals == {"A": 5.0, "B": 9.0, "C": 6.0}
    assert (judgement.gap.leader, judgement.gap.runner_up) == ("B", "C")
    assert judgement.gap.value == pytest.approx(3.0)
    assert judgement.gap.reading == "moderate_difference"
    assert judgement.gap.text == "Moderate difference: the North-East leads Yunnan by 3.00 points."
    assert {row.argument_id: row.responses for row in judgement.trace}["C-1"] == {
        "A": "concede",
        "B": "challenge",
    }


@pytest.mark.parametrize(
    ("quote", "verified"),
    [
        ("Congestion pricing cuts downtown traffic", True),  # verbatim from PRO-1's claim
        ("  CONGESTION   pricing\n cuts  DOWNTOWN traffic ", True),  # case and spacing differ
        ("fell 18% in 2003", True),  # from evidence
        ("data covers one city only", True),  # from cross-examination reasoning
        ("unchanged after the debate", True),  # from a closing
        ("congestion pricing doubles traffic", False),
        ("every economist agrees", False),
    ],
)
def test_fallacy_verified_only_when_quote_occurs_in_the_debate(quote: str, verified: bool) -> None:
    flag = _flag("pro-1", "straw_man", quote)
    judgement = _judge(_reply(fallacies=[flag]))
    (fallacy,) = judgement.fallacies
    assert fallacy.verified is verified
    assert fallacy.argument_id == "PRO-1"
    assert fallacy.quote == quote
    assert fallacy.type == "straw_man"


@pytest.mark.parametrize(
    ("quote", "shown"),
    [
        ("Congestion pricing cuts downtown traf", "Congestion pricing cuts downtown…"),
        ("Congestion pricing cuts downtown traffic", "Congestion pricing cuts downtown traffic"),
        ("Congestion pricing cuts downtown t", "Congestion pricing cuts downtown…"),
        ("Congest", "Congest"),  # a single cut word: nothing whole to keep
        ("congestion pricing doubles traf", "congestion pricing doubles traf"),  # not a quote
    ],
)
def test_a_fallacy_quote_cut_inside_a_word_is_shown_to_its_last_whole_word(
    quote: str, shown: str
) -> None:
    judgement = _judge(_reply(fallacies=[_flag("pro-1", "straw_man", quote)]))
    (fallacy,) = judgement.fallacies
    assert fallacy.quote == shown
    assert fallacy.verified is (normalise(quote) in DEBATE_TEXT)


def test_qualitative_fields_are_copied() -> None:
    judgement = _judge(_reply())
    assert judgement.judge_model == "scripted"
    assert judgement.key_insight.startswith("The debate turned")
    assert judgement.unresolved_questions == ["Does the effect hold in smaller cities?"]
    assert judgement.recommendation.startswith("Run a pilot")


# ---- read_gap ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pro", "con", "value", "reading", "leader"),
    [
        (5.0, 5.0, 0.0, "evenly_matched", None),
        (5.5, 5.0, 0.5, "evenly_matched", "pro"),
        (5.0, 5.9999, 0.9999, "evenly_matched", "con"),
        # exactly 1 is not "under 1": a moderate difference
        (6.0, 5.0, 1.0, "moderate_difference", "pro"),
        # 7.3 - 6.3 is 0.9999999999999991 in floating point: the gap is rounded first
        (7.3, 6.3, 1.0, "moderate_difference", "pro"),
        (4.0, 6.5, 2.5, "moderate_difference", "con"),
        # exactly 3 is not "over 3": still moderate
        (8.0, 5.0, 3.0, "moderate_difference", "pro"),
        (8.0, 4.9999, 3.0001, "clear_difference", "pro"),
        (2.5, 9.0, 6.5, "clear_difference", "con"),
    ],
)
def test_read_gap_thresholds(
    pro: float, con: float, value: float, reading: GapReading, leader: str | None
) -> None:
    gap = read_gap({"pro": pro, "con": con}, "en", NAMES)
    assert gap.value == pytest.approx(value)
    assert gap.reading == reading
    assert gap.leader == leader
    runner_up = None if leader is None else {"pro": "con", "con": "pro"}[leader]
    assert gap.runner_up == runner_up


@pytest.mark.parametrize(
    ("totals", "leader", "runner_up", "value"),
    [
        ({"A": 6.0, "B": 8.5, "C": 7.0}, "B", "C", 1.5),
        ({"A": 9.0, "B": 2.0, "C": 8.5, "D": 8.9}, "A", "D", 0.1),
        # the last position can lead; the runner-up is the second best, not the first read
        ({"A": 3.0, "B": 5.0, "C": 4.0, "D": 6.0, "E": 1.0, "F": 9.5}, "F", "D", 3.5),
        # a tie at the top has no leader, whatever comes below
        ({"A": 7.0, "B": 7.0, "C": 2.0}, None, None, 0.0),
    ],
)
def test_read_gap_is_between_the_two_best_of_n_positions(
    totals: dict[str, float], leader: str | None, runner_up: str | None, value: float
) -> None:
    gap = read_gap(totals, "en", {k: f"Option {k}" for k in totals})
    assert (gap.leader, gap.runner_up) == (leader, runner_up)
    assert gap.value == pytest.approx(value)
    if leader is not None and gap.reading != "evenly_matched":
        assert f"Option {leader} leads Option {runner_up}" in gap.text


def test_read_gap_english_text() -> None:
    assert read_gap({"pro": 5.5, "con": 5.0}, "en", NAMES).text == (
        "Evenly matched: the top totals differ by 0.50 points (under 1)."
    )
    assert read_gap({"pro": 4.0, "con": 6.5}, "en", NAMES).text == (
        "Moderate difference: Con leads Pro by 2.50 points."
    )
    assert read_gap({"pro": 9.0, "con": 2.5}, "en", NAMES).text == (
        "Clear difference: Pro leads Con by 6.50 points (over 3)."
    )


def test_read_gap_chinese_text() -> None:
    names = {"pro": "正方", "con": "反方"}
    assert read_gap({"pro": 5.5, "con": 5.0}, "zh", names).text == (
        "势均力敌：最高的两个总分相差 0.50 分（小于 1 分）。"
    )
    assert read_gap({"pro": 4.0, "con": 6.5}, "zh", names).text == (
        "有一定差距：反方领先正方 2.50 分。"
    )
    assert read_gap({"pro": 9.0, "con": 2.5}, "zh", names).text == (
        "差距明显：正方领先反方 6.50 分（超过 3 分）。"
    )


def test_judgement_gap_uses_the_debate_language() -> None:
    assert _judge(_reply(), lang="zh").gap.text == "有一定差距：正方领先反方 2.60 分。"


# ---- check_judge_reply ------------------------------------------------------------------


def _check(reply: Any, lang: str = "en") -> list[tuple[bool, str]]:
    return [(p.hard, p.message) for p in check_judge_reply(reply, IDS, DEBATE_TEXT, lang)]


def test_good_judge_reply_passes() -> None:
    flag = _flag("CON-2", "false_dilemma", "a larger share")
    assert _check(_reply(fallacies=[flag])) == []
    assert _check(_reply([_assessment(i.lower()) for i in IDS])) == []


def test_missing_assessment_is_hard() -> None:
    problems = _check(_reply([_assessment(i) for i in IDS if i != "CON-1"]))
    assert problems == [(True, "assessments: CON-1 must be assessed exactly once (found 0)")]


def test_duplicate_assessment_is_hard() -> None:
    problems = _check(_reply([*map(_assessment, IDS), _assessment("pro-2")]))
    assert problems == [(True, "assessments: PRO-2 must be assessed exactly once (found 2)")]


def test_unknown_assessment_is_hard() -> None:
    problems = _check(_reply([*map(_assessment, IDS), _assessment("PRO-7")]))
    assert problems == [(True, "assessments: PRO-7 is not judged in this debate")]


def test_fallacy_with_unknown_argument_id_is_hard() -> None:
    flag = _flag("CON-9", "ad_hominem", "a larger share")
    problems = _check(_reply(fallacies=[flag]))
    assert len(problems) == 1
    hard, message = problems[0]
    assert hard
    assert message.startswith("fallacies[1].argument_id: CON-9")


def test_unverifiable_fallacy_quote_is_soft() -> None:
    flags = [
        _flag("PRO-1", "slippery_slope", "Cuts DOWNTOWN traffic"),
        _flag("PRO-2", "straw_man", "words nobody wrote"),
    ]
    problems = _check(_reply(fallacies=flags))
    assert problems == [
        (False, "fallacies[2].quote: quote words that actually occur in the debate")
    ]


def test_judge_prose_language_is_soft() -> None:
    problems = _check(_reply(), lang="zh")
    assert [hard for hard, _ in problems] == [False, False]
    assert [m.split(":")[0] for _, m in problems] == ["key_insight", "recommendation"]
    zh_reply = _reply(
        key_insight="辩论的关键在于一个城市的数据能否推广到其他城市。",
        recommendation="先在一个区试点，再测量交通量和商店销售额。",
    )
    assert _check(zh_reply, lang="zh") == []
    assert len(_check(zh_reply, lang="en")) == 2


# ---- bias_signals -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_identical_scores_everywhere_are_a_bias_signal(lang: str) -> None:
    same = [_assessment(i, (7, 7, 6, 8)) for i in IDS]
    (warning,) = bias_signals(_judge(_reply(same)), lang)
    assert warning.code == "judge_zero_variance"
    assert warning.round == "judgement"
    assert warning.side is None
    assert ("identical scores" in warning.message) == (lang == "en")
    assert ("完全相同" in warning.message) == (lang == "zh")


def test_varied_scores_are_no_bias_signal() -> None:
    assert bias_signals(_judge(_reply()), "en") == []
    # same weighted score from different dimension scores is not "identical scores"
    rows = [_assessment(i, (6, 6, 6, 6) if n % 2 else (6, 6, 7, 5)) for n, i in enumerate(IDS)]
    judgement = _judge(_reply(rows))
    assert len({s.weighted for s in judgement.scores}) == 2
    assert bias_signals(judgement, "en") == []


# ---- Rubric -----------------------------------------------------------------------------


def test_general_rubric_weights() -> None:
    assert dict(GENERAL.weights) == {
        "logic": 0.30,
        "evidence": 0.30,
        "responsiveness": 0.25,
        "honesty": 0.15,
    }
    assert set(DIMENSIONS) == set(GENERAL.weights)
    assert GENERAL.weighted(
        {"logic": 10, "evidence": 10, "responsiveness": 10, "honesty": 10}
    ) == pytest.approx(10.0)
    assert GENERAL.weighted(
        {"logic": 1, "evidence": 2, "responsiveness": 3, "honesty": 4}
    ) == pytest.approx(0.3 + 0.6 + 0.75 + 0.6)


@pytest.mark.parametrize(
    ("weights", "fragment"),
    [
        ({"logic": 0.3, "evidence": 0.3, "responsiveness": 0.25, "honesty": 0.1}, "sum to 1"),
        ({"logic": 0.4, "evidence": 0.4, "responsiveness": 0.25, "honesty": 0.15}, "sum to 1"),
        ({"logic": 0.35, "evidence": 0.35, "responsiveness": 0.2}, "sum to 1"),
        ({}, "weighs no dimension"),
        ({"logic": 0.5, "Evidence": 0.5}, "bad dimension name 'Evidence'"),
        ({"logic": 0.5, "two words": 0.5}, "bad dimension name 'two words'"),
        ({"logic": 0.7, "evidence": 0.3, "responsiveness": 0.25, "honesty": -0.25}, "negative"),
        ({"logic": float("nan"), "evidence": 1.0}, "non-finite"),
        ({"logic": float("inf"), "evidence": 1.0}, "non-finite"),
    ],
)
def test_rubric_rejects_bad_weights(weights: Mapping[str, float], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        Rubric("bad", weights)


def test_a_judge_profile_weighs_a_formats_dimensions_only_when_it_knows_them() -> None:
    technical = Rubric(
        "technical", {"honesty": 0.10, "logic": 0.40, "evidence": 0.35, "responsiveness": 0.15}
    )
    applied = technical.applied_to(GENERAL)
    # its own weights, in the format's order
    assert list(applied.weights.items()) == [
        ("logic", 0.40),
        ("evidence", 0.35),
        ("responsiveness", 0.15),
        ("honesty", 0.10),
    ]
    market = Rubric(
        "market", {"logic": 0.3, "evidence": 0.3, "clarity": 0.2, "persuasiveness": 0.2}
    )
    # a profile made for the standard dimensions cannot weigh others: the format's
    assert dict(technical.applied_to(market).weights) == dict(market.weights)
    assert technical.applied_to(market).name == "technical"


def test_the_judge_schema_pins_one_assessment_per_unit_in_order() -> None:
    ids = ["A-1", "B-1", "C-1"]
    spec = judge_spec(GENERAL, STRUCTURED_STANDINGS, ids)
    items = spec.json_schema["properties"]["assessments"]
    assert (items["minItems"], items["maxItems"]) == (3, 3)
    slots = items["prefixItems"]
    assert [slot["properties"]["argument_id"]["enum"] for slot in slots] == [[i] for i in ids]
    for slot in slots:
        assert slot["properties"]["standing"]["enum"] == list(STRUCTURED_STANDINGS)
        assert set(GENERAL.dimensions) <= set(slot["required"])


def test_a_synthesis_cut_at_its_length_bound_is_not_a_sentence() -> None:
    """SmolLM2 fills the judge's synthesis to its bound and the grammar then ends it
    ("... a roof and a home at the!"): a text as long as its bound was cut, so it is
    asked again, else shown as unusable text."""
    cut = "The truth is that you cannot have both a roof and a home at the!"
    limits = {"key_insight": len(cut), "recommendation": 500, "unresolved_questions": 200}
    problems = check_judge_reply(_reply(key_insight=cut), IDS, DEBATE_TEXT, "en", limits=limits)
    assert [(p.code, p.where, p.hard) for p in problems] == [
        ("unusable_text", "key_insight", False)
    ]
    # under its bound the same text is a sentence
    roomy = {**limits, "key_insight": len(cut) + 1}
    assert check_judge_reply(_reply(key_insight=cut), IDS, DEBATE_TEXT, "en", limits=roomy) == []


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Slippery_slope argument.", True),  # an enum value of the schema and one word
        ("Cost_benefit analysis of the pilot.", False),  # four words, one of them joined
        ("Does the effect hold in smaller cities?", False),
    ],
)
def test_a_schema_label_in_the_synthesis_is_one_word(text: str, fragment: bool) -> None:
    """SmolLM2 wrote the fallacy type ``slippery_slope`` as an unresolved question (a
    new English topic, seed 3): words joined by an underscore are one label, not two
    words of a sentence."""
    reply = _reply().model_copy(update={"unresolved_questions": [text]})
    problems = check_judge_reply(reply, IDS, DEBATE_TEXT, "en")
    found = [(p.code, p.where) for p in problems]
    assert found == ([("unusable_text", "unresolved_questions[1]")] if fragment else [])


def test_the_same_reason_for_most_arguments_is_no_reason() -> None:
    """The README's quick start (seed 7): SmolLM2 gave every argument "Pro-2 is not
    supported by the evidence provided." with some id, whatever its cross-examination:
    no reason about that argument. Each copy is asked again, else shown as unusable
    text, and the trust verdict counts it (a judge field)."""
    copied = [
        {**_assessment(ident), "reason": f"{other} is not supported by the evidence provided."}
        for ident, other in zip(IDS, ["Pro-2", "Pro-1", "Con-2", "Con-1"], strict=True)
    ]
    problems = check_judge_reply(_reply(copied), IDS, DEBATE_TEXT, "en")
    assert [(p.code, p.where, p.hard) for p in problems] == [
        ("copied_reason", f"assessments[{n}].reason", False) for n in range(1, 5)
    ]
    assert "3 other" in problems[0].message
    zh = check_judge_reply(_reply(copied), IDS, DEBATE_TEXT, "zh")
    assert "3 个" in next(p.message for p in zh if p.code == "copied_reason")
