"""The demo judge's words are each format's own: the default (``judging.demo.PHRASES``)
names no format's rounds, and every built-in format's scripted demo briefing speaks of
what that format does (cross-examination, speeches, analysts and their data, timed
stages and rebuttals) and of no other format's rounds."""

from __future__ import annotations

from dataclasses import astuple

import pytest

from moot.debate import run_debate
from moot.judging.demo import PHRASES
from moot.schema import DebateResult

TOPIC = "Should cities ban cars from their centres?"
TOPIC_ZH = "城市应该禁止汽车进入市中心吗？"
OPTIONS = {
    "structured": {},
    "freeform": {},
    "market": {"kb": "demo"},
    "competitive": {"embedder": "lexical", "claims": 2, "branching": 2, "depth": 2},
}
OWN = {
    # what the demo judge's key insight says of each format, by language
    "structured": {"en": "after cross-examination", "zh": "质询"},
    "freeform": {"en": "speeches held their ground", "zh": "发言"},
    "market": {"en": "analysts", "zh": "分析师"},
    "competitive": {"en": "timed stages (opening, rebuttal, closing)", "zh": "计时阶段"},
}
ROUNDS = {
    # words that belong to one format's rounds, and the formats they belong to
    "en": {
        "cross-examination": {"structured", "market"},
        "rebuttal": {"competitive", "structured"},  # structured: a rebuttal in cross-examination
        "rebutted": {"competitive"},
        "analyst": {"market"},
        "speech": {"freeform", "competitive"},
        "round": {"freeform"},
    },
    "zh": {
        "质询": {"structured", "market"},
        "分析师": {"market"},
        "发言": {"freeform", "competitive"},
    },
}


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple | list):
        return [t for v in value for t in _texts(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    return []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_default_words_name_no_formats_rounds(lang: str) -> None:
    text = " ".join(_texts(astuple(PHRASES[lang]))).lower()
    assert [w for w in ROUNDS[lang] if w in text] == []


def _judge_words(result: DebateResult) -> str:
    judgement = result.judgement
    rows = [row.reason for row in judgement.trace]
    return " ".join([judgement.key_insight, judgement.recommendation, *rows]).lower()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("fmt", list(OPTIONS))
def test_each_formats_demo_judge_speaks_of_its_own_rounds(fmt: str, lang: str) -> None:
    result = run_debate(
        TOPIC if lang == "en" else TOPIC_ZH,
        model="scripted:demo",
        seed=5,
        format=fmt,
        lang=lang,
        format_options=OPTIONS[fmt],
    )
    assert OWN[fmt][lang] in result.judgement.key_insight
    words = _judge_words(result)
    foreign = [w for w, owners in ROUNDS[lang].items() if fmt not in owners and w in words]
    assert foreign == []
