"""The HTML report, read as a parser reads it (the browser tests open it for real):
every argument is there once, nothing a model wrote becomes markup, the page loads
nothing and runs nothing, and its figures are the result's."""

from __future__ import annotations

import base64
import hashlib
import re
import statistics

import pytest

from html_support import (
    ID_PAYLOAD,
    PANEL,
    PAYLOAD,
    ZH_TOPIC,
    Elements,
    debate,
    hostile,
    item_ids,
    item_texts,
    live_markup,
)
from moot.errors import ConfigError
from moot.report.html import build_report, to_html
from moot.report.html.common import ScoresView, dimensions_of, item_scores
from moot.report.html.labels import CATALOG
from moot.report.html.structured import expected_calls
from moot.schema import DebateResult
from moot.store import Store


@pytest.fixture(scope="module")
def single() -> DebateResult:
    return debate(seed=1)


@pytest.fixture(scope="module")
def panel() -> DebateResult:
    return debate(panel=PANEL, swap_sides=True)


@pytest.fixture(scope="module")
def chinese() -> DebateResult:
    return debate(ZH_TOPIC, lang="zh", seed=2)


def _trace_rows(page: Elements) -> list[dict[str, str]]:
    """The rows of the trace table's body (the rows with an ``item-N`` id)."""
    return [a for a in page.tags("tr") if re.fullmatch(r"item-\d+", a.get("id", ""))]


@pytest.mark.parametrize("name", ["single", "panel", "chinese"])
def test_every_argument_has_one_trace_row(name: str, request: pytest.FixtureRequest) -> None:
    result: DebateResult = request.getfixturevalue(name)
    html = to_html(result)
    page = Elements(html)
    assert len(_trace_rows(page)) == len(item_ids(result))
    for ident, claim in item_texts(result).items():
        assert ident in page.all_text
        assert claim in page.all_text


def test_the_page_loads_nothing_and_runs_nothing(panel: DebateResult) -> None:
    page = Elements(to_html(panel))
    assert live_markup(page) == []
    links = [a["href"] for a in page.tags("a")]
    assert links
    assert all(href.startswith("#") for href in links), links
    assert not [a for _, a in page.elements if "src" in a or "style" in a]
    assert "url(" not in page.style
    assert "@import" not in page.style


def test_the_csp_allows_only_the_inline_stylesheet(single: DebateResult) -> None:
    page = Elements(to_html(single))
    metas = [m for m in page.tags("meta") if m.get("http-equiv") == "Content-Security-Policy"]
    assert len(metas) == 1
    policy = dict((part.split()[0], part.split()[1:]) for part in metas[0]["content"].split("; "))
    assert policy["default-src"] == ["'none'"]
    assert policy["img-src"] == ["'none'"]
    assert policy["form-action"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    digest = base64.b64encode(hashlib.sha256(page.style.encode("utf-8")).digest()).decode()
    assert policy["style-src"] == [f"'sha256-{digest}'"]
    assert "unsafe-inline" not in metas[0]["content"]
    assert "script-src" not in policy  # default-src 'none' covers scripts
    assert len(page.tags("style")) == 1


def test_hostile_text_is_only_ever_text(panel: DebateResult) -> None:
    evil = hostile(panel)
    page = Elements(to_html(evil))
    assert live_markup(page) == []
    assert [a["href"] for a in page.tags("a") if not a["href"].startswith("#")] == []
    # structure intact: the planted closing tags closed nothing
    assert len(_trace_rows(page)) == len(item_ids(evil))
    assert len(page.tags("section")) == len(build_report(evil).sections)
    assert page.all_text.count(PAYLOAD) >= 20
    for ident in item_ids(evil):
        assert ident.endswith(ID_PAYLOAD)
        assert ident in page.all_text
    for position in evil.positions:
        assert position.name.endswith(PAYLOAD)
        assert position.name in page.all_text
    # anchors and classes come from code, never from an id
    assert all(ID_PAYLOAD not in value for _, a in page.elements for value in a.values())


def test_a_hostile_topic_through_a_real_run_stays_text() -> None:
    result = debate(PAYLOAD, panel=["technical", "risk"])
    page = Elements(to_html(result))
    assert live_markup(page) == []
    assert PAYLOAD in page.all_text
    assert page.tags("title")
    assert "<img" not in str(page.tags("title"))


def test_chinese_report_speaks_chinese(chinese: DebateResult) -> None:
    html = to_html(chinese)
    page = Elements(html)
    assert page.tags("html")[0]["lang"] == "zh-Hans"
    for words in ("论据追溯表", "结论", "完整辩论记录", "模型与用量", "各维度得分"):
        assert words in page.all_text
    assert "Argument trace" not in page.all_text


def test_catalogs_have_the_same_keys() -> None:
    assert set(CATALOG["en"]) == set(CATALOG["zh"])
    assert all(CATALOG["zh"].values())


def test_a_format_without_a_view_is_refused(single: DebateResult) -> None:
    other = single.model_copy(update={"format": "nonesuch"})
    with pytest.raises(ConfigError, match="no HTML view for debate format 'nonesuch'"):
        to_html(other)


def test_rendering_is_deterministic(panel: DebateResult) -> None:
    assert to_html(panel) == to_html(panel)


def test_panel_item_scores_average_to_the_panel_totals(panel: DebateResult) -> None:
    assert panel.panel is not None
    scores = item_scores(panel)
    for side in ("pro", "con"):
        mine = [scores[s.argument_id] for s in panel.judgement.scores if s.side == side]
        assert statistics.fmean(mine) == pytest.approx(panel.panel.totals[side], abs=1e-3)


def test_dimension_chart_shows_each_sides_means(single: DebateResult) -> None:
    sections = {s.anchor: s for s in build_report(single).sections}
    view = sections["scores"].data
    assert isinstance(view, ScoresView)
    shown = [t.text for t in view.dimensions.texts if re.fullmatch(r"\d+\.\d\d", t.text)]
    raw = single.judgement.scores
    assert dimensions_of(single) == ("logic", "evidence", "responsiveness", "honesty")
    expected = [
        f"{statistics.fmean(s.scores[d] for s in raw if s.side == side):.2f}"
        for d in dimensions_of(single)
        for side in ("pro", "con")
    ]
    assert shown == expected


def test_every_detector_flag_is_shown(panel: DebateResult) -> None:
    from moot.debate import detect
    from moot.formats import get_format

    flags = panel.detectors
    assert flags, "the demo debate is expected to trip at least one detector"
    # the recorded flags are the detectors' on this debate
    assert flags == detect(get_format(panel.format), panel)
    text = Elements(to_html(panel)).all_text
    for flag in flags:
        assert flag.evidence in text


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"panel": PANEL, "swap_sides": True},
        {"panel": ["risk", "general"], "judge_runs": 2, "topic_type": "risk"},
    ],
    ids=["one-judge", "panel-swap", "panel-runs-topic"],
)
def test_expected_calls_match_a_real_run(options: dict[str, object]) -> None:
    store = Store()
    debate(store=store, debate_id="counted", **options)
    row = store.get_debate("counted")
    assert row is not None
    valid = [c for c in store.calls("counted") if c.validation == "ok"]
    assert expected_calls(row.config) == len(valid)
