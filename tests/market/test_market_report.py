"""The market format in the HTML report: the page shows its sections with the data
labelled synthetic, its argument trace with the code's evidence check, and the
viewer's live page knows its rounds and how many calls a run makes (checked against
the journal of real stored runs)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from test_market_analysts import RATES_PANEL

from moot import i18n, run_debate
from moot.formats import get_format
from moot.formats.market import demo
from moot.llm.scripted import DemoBackend, DemoRequest, ScriptedBackend
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.report.html import formats, to_html
from moot.store import Store


def labels(lang: str) -> dict[str, str]:
    """The shared labels and the market format's own, as a market briefing shows them."""
    return {**i18n.labels(lang), **get_format("market").labels(lang)}


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


def test_the_trace_shows_each_argument_its_checked_numbers_and_the_penalty() -> None:
    """A wrong number planted in every argument: the page's trace has one row per
    argument, links it to its turn, lists the planted number as not in the data and
    shows the judge's evidence score lowered by code."""
    planted: dict[str, list[str]] = {}
    demo_backend = DemoBackend()

    def reply(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> BaseModel | str:
        assert context is not None
        request = DemoRequest(context, messages, schema, settings.seed or 0)
        if context.round == "opening" and context.attempt == 1:
            answer, texts = demo.planted_opening(request)
            planted[context.role] = texts
            return answer
        return demo_backend.reply(context, messages, schema=schema, seed=settings.seed or 0)

    result = run_debate(
        TOPIC,
        format="market",
        format_options={"kb": "demo"},
        model=ScriptedBackend(reply, name="scripted:planted"),
        seed=3,
    )
    page = html.unescape(to_html(result))
    table = page[page.index('id="trace-table"') : page.index("</table>", page.index("trace-table"))]
    arguments = result.body["arguments"]
    assert table.count('<tr id="item-') == len(arguments)
    for n, argument in enumerate(arguments):
        assert f'<a class="ref" href="#turn-{n}">{argument["id"]}</a>' in table
    for texts in planted.values():
        for text in texts:
            assert f"<li>{text} (" in table
    lowered = [e for e in result.body["evidence_scores"] if e["penalised"] < e["raw"]]
    assert lowered
    for e in lowered:
        assert f"{e['raw']} → {e['penalised']}" in table
