"""The market format in the HTML report: the page shows its sections with the data
labelled synthetic, and the viewer's live page knows its rounds and how many calls a
run makes (checked against the journal of real stored runs)."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest
from test_market_analysts import RATES_PANEL

from moot import run_debate
from moot.i18n import labels
from moot.report.html import formats, to_html
from moot.store import Store

TOPIC = "Will ExampleIndex close higher a month from now?"


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"format_options": {"kb": "demo", "baseline": True}},
        {"panel": ("risk", "general"), "swap_sides": True},
        {"format_options": {"kb": "demo", "analysts": "TWO"}, "judge_runs": 2, "panel": ("risk",)},
    ],
    ids=["one-judge", "baseline", "panel-swap", "two-analysts-runs"],
)
def test_expected_calls_and_rounds_match_a_real_run(
    options: dict[str, Any], tmp_path: Path
) -> None:
    changes: dict[str, Any] = {"format_options": {"kb": "demo"}, **options}
    if changes["format_options"].get("analysts") == "TWO":
        path = tmp_path / "analysts.toml"
        path.write_text(RATES_PANEL, encoding="utf-8")
        changes["format_options"] = {**changes["format_options"], "analysts": str(path)}
    store = Store()
    run_debate(
        TOPIC, format="market", model="scripted:demo", seed=3, store=store, debate_id="m", **changes
    )
    row = store.get_debate("m")
    assert row is not None
    valid = [c for c in store.calls("m") if c.validation == "ok"]
    assert formats.expected_calls(row.format, row.config) == len(valid)
    rounds = formats.rounds(row.format, row.config)
    assert {c.round for c in valid} <= set(rounds)
    analysts = [r for r in rounds if r in ("opening", "cross_examination", "closing")]
    assert analysts == ["opening", "cross_examination", "closing"]
    assert rounds[-2:] == ("synthesis", "judgement")


def test_an_unreadable_analysts_file_leaves_the_count_unknown(tmp_path: Path) -> None:
    config = {"options": {"format_options": {"kb": "demo", "analysts": str(tmp_path / "gone")}}}
    assert formats.expected_calls("market", config) is None
    assert formats.expected_calls("market", {"options": {"format_options": {"kb": "demo"}}}) == 26


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_shows_the_market_sections_and_says_synthetic(lang: str) -> None:
    result = run_debate(
        TOPIC,
        format="market",
        format_options={"kb": "demo", "baseline": True},
        model="scripted:demo",
        seed=3,
        lang=lang,
    )
    page = html.unescape(to_html(result))
    words = labels(lang)
    for key in (
        "market.data",
        "market.synthesis",
        "market.evidence",
        "market.baseline",
    ):
        assert words[key] in page, key
    assert "(synthetic)" in page
    for argument in result.body["arguments"]:
        assert argument["claim"] in page
