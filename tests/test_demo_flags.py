"""moot's own demo debates raise no detector flag, in every format and both languages,
and a flag names a side as the debate names it ("Bull", "多头"), never by its key."""

from __future__ import annotations

from typing import Any

import pytest

import moot
from moot.detectors import check_concessions, run_detectors
from moot.detectors.false_consensus import Concession
from moot.detectors.transcript import Transcript, TranscriptError

TOPICS = {
    "en": "Should a 10-person startup adopt microservices from day one?",
    "zh": "小型创业公司是否应该从第一天就采用微服务架构？",
}
OPTIONS: dict[str, dict[str, Any]] = {
    "structured": {},
    "freeform": {},
    "competitive": {},
    "market": {"kb": "demo"},
}


CASES = [
    (fmt, lang, seed)
    for fmt in sorted(OPTIONS)
    for lang in ("en", "zh")
    # the competitive demo takes seconds (rehearsals, flow trees): one seed
    for seed in ((1,) if fmt == "competitive" else (1, 2))
]


@pytest.mark.parametrize(("fmt", "lang", "seed"), CASES)
def test_every_formats_demo_raises_no_flag(fmt: str, lang: str, seed: int) -> None:
    # the market demo's Chinese closing said "对方说得对的地方，我已如实认可并列出"
    # ("where the other side is right, I have acknowledged it"), read as agreeing
    result = moot.run_debate(
        TOPICS[lang],
        model="scripted:demo",
        seed=seed,
        lang=lang,
        format=fmt,
        format_options=OPTIONS[fmt],
    )
    assert [(f.detector, f.turn, f.evidence) for f in result.detectors] == []


def _read(
    topic: str,
    lang: str,
    sides: dict[str, str],
    turns: list[tuple[str, str]],
    names: dict[str, str] | None = None,
) -> Transcript:
    return Transcript.model_validate(
        {
            "topic": topic,
            "lang": lang,
            "sides": sides,
            "names": names or {},
            "turns": [{"side": side, "text": text} for side, text in turns],
        }
    )


def _drifts(read: Transcript) -> list[int | None]:
    return [f.turn for f in run_detectors(read, "lexical") if f.detector == "stance_drift"]


@pytest.mark.parametrize(
    ("lang", "text", "agrees"),
    [
        ("zh", "对方说得对的地方，我已如实认可并列出。", False),
        ("zh", "对方说得对之处，我都承认了。", False),
        ("zh", "对方说得对，我完全同意。私家车让市中心的空气更差。", True),
        ("en", "Where you are right, I have said so and listed it.", False),
        ("en", "You are right, and I agree with you entirely.", True),
    ],
)
def test_granting_the_points_where_the_other_side_is_right_is_not_agreeing(
    lang: str, text: str, agrees: bool
) -> None:
    opening = {
        "en": "Cities should ban cars downtown: cleaner air and safer streets for children.",
        "zh": "城市中心应该禁止私家车：空气更干净，街道对孩子更安全。",
    }[lang]
    sides = {"pro": "For the ban", "con": "Against the ban"}
    read = _read("Should cities ban cars downtown?", lang, sides, [("pro", opening), ("con", text)])
    assert _drifts(read) == ([1] if agrees else [])


def _agreeing(lang: str, names: dict[str, str]) -> str:
    text = {
        "en": "You are right, I agree with you: earnings will keep falling next quarter.",
        "zh": "对方说得对，我完全同意。下个季度企业盈利还会继续下滑。",
    }[lang]
    sides = {"bull": "The market will rise.", "bear": "The market will fall."}
    turns = [("bear", "Earnings fell two quarters in a row."), ("bull", text)]
    read = _read("Will the index rise next month?", lang, sides, turns, names)
    (flag,) = [f for f in run_detectors(read, "lexical") if f.detector == "stance_drift"]
    return flag.evidence


@pytest.mark.parametrize(("lang", "name"), [("en", "Bear"), ("zh", "空头")])
def test_a_flag_names_the_other_side_by_its_display_name(lang: str, name: str) -> None:
    evidence = _agreeing(lang, {"bull": "Bull" if lang == "en" else "多头", "bear": name})
    assert name in evidence
    assert "bear" not in evidence
    # without display names a non-standard side is named by its key
    assert "bear" in _agreeing(lang, {})


def test_the_market_demo_names_its_sides_in_the_detectors_transcript() -> None:
    result = moot.run_debate(
        TOPICS["zh"], model="scripted:demo", seed=1, lang="zh", format="market",
        format_options={"kb": "demo"},
    )  # fmt: skip
    read, _ = moot.formats.get_format("market").transcript(result)
    assert read.names == {p.key: p.name for p in result.positions}
    assert set(read.names.values()) == {"多头", "空头"}


def test_a_name_for_an_unknown_side_is_refused() -> None:
    with pytest.raises((ValueError, TranscriptError), match="unknown side 'bear'"):
        Transcript.model_validate(
            {"topic": "t", "lang": "en", "sides": {"pro": "p"}, "names": {"bear": "Bear"},
             "turns": []}
        )  # fmt: skip


def test_one_of_several_opponents_conceding_is_not_a_consensus_the_judge_must_follow() -> None:
    # the three-position demo: B granted A-2, the judge ruled it refuted (as C argued)
    by_b = Concession(side="B", target="A-2", text="A-2 holds as stated.")
    by_c = Concession(side="C", target="A-2", text="A-2 is the most plausible reading.")
    common: dict[str, Any] = {
        "closing_concessions": {},
        "standings": {"A-2": "REFUTED"},
        "owners": {"A-2": "A"},
        "sides": ["A", "B", "C"],
    }
    assert check_concessions([by_b], **common) == []
    both = check_concessions([by_b, by_c], **common)
    assert [(f.detector, f.side) for f in both] == [
        ("false_consensus", "B"),
        ("false_consensus", "C"),
    ]
    # two sides: the one opponent's concession is the consensus
    two = {**common, "sides": ["A", "B"]}
    assert [f.side for f in check_concessions([by_b], **two)] == ["B"]
