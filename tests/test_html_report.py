"""The HTML report, read as a parser reads it (the browser tests open it for real), for
real demo debates of every format: every judged unit has its row, each argument's
path and each speech's answers are the result's, detector flags sit on the turns the
detectors named, nothing a model or a user wrote becomes markup, the page loads
nothing and runs nothing, and its figures are the result's."""

from __future__ import annotations

import base64
import hashlib
import re
import statistics

import jinja2
import pytest

from html_support import (
    CASES,
    ID_PAYLOAD,
    NAME_PAYLOAD,
    PANEL,
    PAYLOAD,
    PLACES,
    Elements,
    case,
    debate,
    hostile,
    live_markup,
    unit_ids,
    with_flag,
)
from moot.errors import ConfigError
from moot.formats import formats as registered_formats
from moot.formats import get_format
from moot.formats.freeform.html import SpeechesView
from moot.formats.freeform.payload import FreeformPayload
from moot.formats.structured.html import TraceView
from moot.formats.structured.payload import StructuredPayload
from moot.report.html import build_report, formats, to_html
from moot.report.html.common import FlagsView, ScoresView, UsageView, VerdictView, item_scores
from moot.report.html.formats import BriefingView, FormatView, view_of
from moot.report.html.labels import CATALOG
from moot.report.html.page import environment
from moot.report.html.parts import Context, Section, TurnView
from moot.report.markdown import fallback_notes
from moot.schema import DebateResult, StructuredFallback
from moot.store import Store
from moot.trust import verdict_of

NAMES = list(CASES)


@pytest.fixture(scope="module")
def results() -> dict[str, DebateResult]:
    return {name: case(name) for name in NAMES}


def _sections(result: DebateResult) -> dict[str, Section]:
    return {s.anchor: s for s in build_report(result).sections}


def _unit_rows(page: Elements) -> list[dict[str, str]]:
    """The rows that carry a judged unit's anchor (``item-N``)."""
    return [a for a in page.tags("tr") if re.fullmatch(r"item-\d+", a.get("id", ""))]


def test_every_registered_format_has_report_cases() -> None:
    """A format added to the registry gets rendered by these tests (and, through the
    same cases, in the browser tests), or this fails."""
    covered = {options.get("format", "structured") for _, options in CASES.values()}
    assert covered == {fmt.name for fmt in registered_formats()}


@pytest.mark.parametrize("name", NAMES)
def test_every_judged_unit_has_one_row(name: str, results: dict[str, DebateResult]) -> None:
    result = results[name]
    page = Elements(to_html(result))
    rows = _unit_rows(page)
    assert [r["id"] for r in rows] == [f"item-{n}" for n in range(len(result.judgement.trace))]
    for row in result.judgement.trace:
        assert row.argument_id in page.all_text
        assert row.claim in page.all_text


@pytest.mark.parametrize("name", ["structured", "structured-3", "structured-panel-swap"])
def test_each_argument_is_traced_through_every_other_position(
    name: str, results: dict[str, DebateResult]
) -> None:
    result = results[name]
    body = StructuredPayload.model_validate(result.body)
    trace = _sections(result)["trace"].data
    assert isinstance(trace, TraceView)
    names = {p.key: p.name for p in result.positions}
    assert [line.item.id for line in trace.lines] == [a.id for a in body.arguments]
    for line, argument in zip(trace.lines, body.arguments, strict=True):
        others = [p.key for p in result.positions if p.key != argument.side]
        answers = {c.by: c for c in body.cross_examinations if c.target_id == argument.id}
        assert sorted(a.by.key for a in line.answers) == sorted(others) == sorted(answers)
        # the path: opening, one step per answering position (by name), closing, standing
        assert len(line.path) == len(others) + 3
        for step, answer in zip(line.path[1:-2], line.answers, strict=True):
            assert step.text.startswith(names[answer.by.key] + ": ")


@pytest.mark.parametrize("name", ["freeform", "freeform-3-panel", "freeform-zh-3"])
def test_each_speech_shows_what_it_answered_and_what_answered_it(
    name: str, results: dict[str, DebateResult]
) -> None:
    result = results[name]
    body = FreeformPayload.model_validate(result.body)
    view = _sections(result)["speeches"].data
    assert isinstance(view, SpeechesView)
    lines = [line for group in view.rounds for line in group.lines]
    assert [line.item.id for line in lines] == [s.id for s in body.speeches]
    anchor = {line.item.id: line.item.anchor for line in lines}
    assert len(view.rounds) == body.rounds
    for line, speech in zip(lines, body.speeches, strict=True):
        assert [x.label for x in line.answers] == speech.responds_to
        answered_by = [s.id for s in body.speeches if speech.id in s.responds_to]
        assert [x.label for x in line.answered_by] == answered_by
        assert [x.anchor for x in line.answered_by] == [anchor[i] for i in answered_by]
    assert any(line.answered_by for line in lines)


@pytest.mark.parametrize("name", NAMES)
def test_the_transcript_follows_the_formats_turns(
    name: str, results: dict[str, DebateResult]
) -> None:
    """Detector flags name turns of ``Format.transcript``: the page's transcript (the
    format's own view and the briefing fallback alike) has exactly those turns."""
    result = results[name]
    expected, _ = get_format(result.format).transcript(result)
    for view in (view_of(result.format), BriefingView(result.format)):
        report = build_report(result)
        turns = view.transcript(report.context)
        assert [t.side.key for t in turns] == [t.side for t in expected.turns]
        assert [t.anchor for t in turns] == [f"turn-{n}" for n in range(len(expected.turns))]


def test_detector_flags_sit_on_the_turns_they_name(results: dict[str, DebateResult]) -> None:
    flagged = 0
    for result in map(with_flag, results.values()):
        report = build_report(result)
        flags = {s.anchor: s for s in report.sections}["flags"].data
        assert isinstance(flags, FlagsView)
        assert len(flags.detectors) == len(result.detectors)
        text = Elements(to_html(result)).all_text
        for recorded, shown in zip(result.detectors, flags.detectors, strict=True):
            assert recorded.evidence in text
            if recorded.turn is not None:
                assert shown.where.anchor == f"turn-{recorded.turn}"
                assert shown.where.label.startswith(
                    report.context.labels["html.turn"].format(n=recorded.turn)
                )
            if recorded.side is not None:
                assert shown.side is not None
                assert shown.side.key == recorded.side
            flagged += 1
    assert flagged >= len(results)


def test_the_page_loads_nothing_and_runs_nothing(results: dict[str, DebateResult]) -> None:
    for result in results.values():
        page = Elements(to_html(result))
        assert live_markup(page) == []
        links = [a["href"] for a in page.tags("a")]
        assert links
        assert all(href.startswith("#") for href in links), links
        assert not [a for _, a in page.elements if "src" in a or "style" in a]
        assert "url(" not in page.style
        assert "@import" not in page.style
        # every in-page link leads somewhere on the page
        anchors = {a["id"] for _, a in page.elements if "id" in a}
        assert {href[1:] for href in links} <= anchors


@pytest.mark.parametrize("name", ["structured", "competitive", "market"])
def test_the_csp_allows_only_the_inline_stylesheet(
    name: str, results: dict[str, DebateResult]
) -> None:
    """One inline stylesheet, whose hash is the policy's: moot's, followed by the
    report view's own where its format ships one (competitive, market)."""
    page = Elements(to_html(results[name]))
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
    # a format's own rules only on its own report
    assert ("ul.tree" in page.style) is (name == "competitive")
    assert (".lens-charts" in page.style) is (name == "market")


@pytest.mark.parametrize(
    "name", ["structured-panel-swap", "freeform-3-panel", "freeform-zh-3", "competitive"]
)
def test_hostile_text_is_only_ever_text(name: str, results: dict[str, DebateResult]) -> None:
    evil = hostile(results[name])
    page = Elements(to_html(evil))
    assert live_markup(page) == []
    assert [a["href"] for a in page.tags("a") if not a["href"].startswith("#")] == []
    # structure intact: the planted closing tags closed nothing
    assert len(_unit_rows(page)) == len(evil.judgement.trace)
    assert len(page.tags("section")) == len(build_report(evil).sections)
    assert page.all_text.count(PAYLOAD) >= 20
    for unit in unit_ids(evil):
        assert unit.endswith(ID_PAYLOAD)
        assert unit in page.all_text
    for position in evil.positions:
        assert position.name.endswith(PAYLOAD)
        assert position.name in page.all_text
    # anchors and classes come from code, never from an id or a name
    assert all(ID_PAYLOAD not in value for _, a in page.elements for value in a.values())
    assert all(PAYLOAD not in value for _, a in page.elements for value in a.values())


@pytest.mark.parametrize("fmt", ["structured", "freeform"])
def test_a_hostile_topic_and_position_names_through_a_real_run_stay_text(fmt: str) -> None:
    sides = [f"{NAME_PAYLOAD} {place}" for place in PLACES]
    result = debate(PAYLOAD, format=fmt, sides=sides, panel=["technical", "risk"])
    page = Elements(to_html(result))
    assert live_markup(page) == []
    assert PAYLOAD in page.all_text
    for side in sides:
        assert side in page.all_text
    assert page.tags("title")
    assert "<img" not in str(page.tags("title"))
    assert all(NAME_PAYLOAD not in value for _, a in page.elements for value in a.values())


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("structured-zh", ("论据追溯表", "结论", "完整辩论记录", "模型与用量", "各维度得分")),
        ("freeform-zh-3", ("发言", "第 1 回合", "被回应于", "各发言的得分", "自由辩论")),
        ("competitive-zh-panel", ("辩论流程树", "演练树", "开篇", "结辩")),
    ],
)
def test_chinese_report_speaks_chinese(
    name: str, words: tuple[str, ...], results: dict[str, DebateResult]
) -> None:
    page = Elements(to_html(results[name]))
    assert page.tags("html")[0]["lang"] == "zh-Hans"
    for word in words:
        assert word in page.all_text
    for english in ("Argument trace", "Speeches", "Verdict", "Round 1"):
        assert english not in page.all_text


def test_catalogs_have_the_same_keys() -> None:
    assert set(CATALOG["en"]) == set(CATALOG["zh"])
    assert all(CATALOG["zh"].values())
    for fmt in registered_formats():
        assert set(fmt.labels("en")) == set(fmt.labels("zh")), fmt.name
        assert all(fmt.labels("zh").values()), fmt.name


class PlainView(FormatView):
    """A view declared outside moot: the structured format without its own sections."""

    name = "structured"

    def sections(self, ctx: Context, turns: list[TurnView]) -> list[Section]:
        return []


def test_a_format_names_its_view_and_the_report_loads_it(
    results: dict[str, DebateResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The view is the one ``Format.html_view`` names (an import path), not one
    registered by name in the report."""
    result = results["structured"]
    assert "trace" in {s.anchor for s in build_report(result).sections}
    monkeypatch.delitem(formats.VIEWS, "structured", raising=False)
    monkeypatch.setattr(type(get_format("structured")), "html_view", f"{__name__}:PlainView")
    assert isinstance(view_of("structured"), PlainView)
    anchors = {s.anchor for s in build_report(result).sections}
    assert "trace" not in anchors
    assert "verdict" in anchors


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("moot.nonesuch:View", "cannot load the HTML view 'moot.nonesuch:View'"),
        ("moot.report.html.formats:Missing", "cannot load the HTML view"),
        ("moot.report.html.formats:DEFAULT_POSITIONS", "is not a FormatView"),
    ],
)
def test_a_view_that_cannot_be_loaded_is_a_clear_error(
    path: str, message: str, results: dict[str, DebateResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(formats.VIEWS, "structured", raising=False)
    monkeypatch.setattr(type(get_format("structured")), "html_view", path)
    with pytest.raises(ConfigError, match=message):
        to_html(results["structured"])


def test_a_format_template_is_read_beside_its_format() -> None:
    env = environment()
    found = env.get_template("formats/market/trace.html.j2").filename
    assert found is not None
    assert found.replace("\\", "/").endswith("/moot/formats/market/templates/trace.html.j2")
    for missing in ("formats/nonesuch/trace.html.j2", "formats/competitive/trace.html.j2"):
        with pytest.raises(jinja2.TemplateNotFound):
            env.get_template(missing)


def test_an_unknown_format_is_refused(results: dict[str, DebateResult]) -> None:
    other = results["structured"].model_copy(update={"format": "nonesuch"})
    with pytest.raises(ConfigError, match="no HTML view for debate format 'nonesuch'"):
        to_html(other)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"freeform": {"rounds": 3}}, "the freeform payload of this result cannot be read"),
        ({"structured": {}}, "the stored result is missing 'freeform'"),
    ],
)
def test_a_damaged_payload_is_a_clear_error(
    payload: dict[str, object], message: str, results: dict[str, DebateResult]
) -> None:
    damaged = results["freeform"].model_copy(update={"payload": payload})
    with pytest.raises(ConfigError, match=message):
        to_html(damaged)


@pytest.mark.parametrize("name", ["structured-3", "freeform-3-panel", "competitive"])
def test_a_format_without_a_view_renders_its_briefing(
    name: str, results: dict[str, DebateResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = results[name]
    # a format that names no view (competitive names none)
    monkeypatch.setattr(type(get_format(result.format)), "html_view", None)
    monkeypatch.delitem(formats.VIEWS, result.format, raising=False)
    assert isinstance(view_of(result.format), BriefingView)
    sections = _sections(result)
    briefing = get_format(result.format).briefing(result, build_report(result).context.labels)
    assert [s.title for s in sections.values() if s.anchor.startswith("format-")] == [
        s.title for s in briefing
    ]
    page = Elements(to_html(result))
    assert live_markup(page) == []
    # the briefing's table rows carry the judged units' anchors, once each
    assert sorted(r["id"] for r in _unit_rows(page)) == sorted(
        f"item-{n}" for n in range(len(result.judgement.trace))
    )
    flags = sections["flags"].data
    assert isinstance(flags, FlagsView)
    for recorded, shown in zip(result.detectors, flags.detectors, strict=True):
        if recorded.turn is not None:
            assert shown.where.anchor == f"turn-{recorded.turn}"


def test_rendering_is_deterministic(results: dict[str, DebateResult]) -> None:
    for result in results.values():
        assert to_html(result) == to_html(result)


@pytest.mark.parametrize(
    "name", ["structured-panel-swap", "freeform-3-panel", "structured-zh", "competitive-zh-panel"]
)
def test_panel_item_scores_average_to_the_panel_totals(
    name: str, results: dict[str, DebateResult]
) -> None:
    result = results[name]
    assert result.panel is not None
    scores = item_scores(result)
    for position in result.positions:
        mine = [scores[r.argument_id] for r in result.judgement.trace if r.side == position.key]
        assert statistics.fmean(mine) == pytest.approx(result.panel.totals[position.key], abs=1e-3)


@pytest.mark.parametrize("name", ["structured", "structured-3", "freeform", "competitive"])
def test_dimension_chart_shows_each_positions_means(
    name: str, results: dict[str, DebateResult]
) -> None:
    result = results[name]
    view = _sections(result)["scores"].data
    assert isinstance(view, ScoresView)
    shown = [t.text for t in view.dimensions.texts if re.fullmatch(r"\d+\.\d\d", t.text)]
    dimensions = list(result.judgement.weights)
    assert dimensions == list(get_format(result.format).rubric.weights)
    raw = result.judgement.scores
    expected = [
        f"{statistics.fmean(s.scores[d] for s in raw if s.side == p.key):.2f}"
        for d in dimensions
        for p in result.positions
    ]
    assert shown == expected


@pytest.mark.parametrize("name", NAMES)
def test_the_verdict_names_the_leader_and_the_runner_up(
    name: str, results: dict[str, DebateResult]
) -> None:
    result = results[name]
    verdict = _sections(result)["verdict"].data
    assert isinstance(verdict, VerdictView)
    gap = result.panel.gap if result.panel else result.judgement.gap
    assert verdict.gap.value == gap.value
    assert verdict.gap.leader is not None
    assert verdict.gap.runner_up is not None
    assert (verdict.gap.leader.key, verdict.gap.runner_up.key) == (gap.leader, gap.runner_up)
    totals = result.panel.totals if result.panel else result.judgement.totals
    # in rank order (the one verdict rule's): the named winner first, then by total
    ranking = verdict_of(result).ranking
    assert [(t.side.key, t.rank) for t in verdict.totals] == list(ranking)
    assert [t.total for t in verdict.totals] == [totals[key] for key, _ in ranking]
    assert sorted(t.side.key for t in verdict.totals) == sorted(p.key for p in result.positions)
    assert [t.side.key for t in verdict.totals if t.leads] == (
        [verdict_of(result).leader] if verdict_of(result).leader else []
    )
    assert (verdict.swap is not None) == (result.swap is not None)
    labels = build_report(result).context.labels
    assert f"{labels['gap']} {gap.value:.2f}" in Elements(to_html(result)).all_text


def test_structured_output_fallbacks_are_noted(results: dict[str, DebateResult]) -> None:
    result = results["freeform"]
    fallback = StructuredFallback(
        model="openai:some-model@http://127.0.0.1:9/v1",
        schema_name="speech",
        mode="json_object",
        rejected=["json_schema"],
        reason="unsupported keyword",
        calls=3,
    )
    noted = result.model_copy(
        update={"usage": result.usage.model_copy(update={"structured_fallbacks": [fallback]})}
    )
    usage = _sections(noted)["usage"].data
    assert isinstance(usage, UsageView)
    labels = build_report(noted).context.labels
    assert usage.fallbacks == tuple(fallback_notes(noted, labels))
    assert usage.fallbacks[0] in Elements(to_html(noted)).all_text
    assert _sections(result)["usage"].data.fallbacks == ()


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"panel": PANEL, "swap_sides": True},
        {"panel": ["risk", "general"], "judge_runs": 2, "topic_type": "risk"},
        {"sides": PLACES},
        {"format": "freeform"},
        {"format": "freeform", "sides": PLACES, "format_options": {"rounds": 2}, "panel": PANEL},
    ],
    ids=["one-judge", "panel-swap", "panel-runs-topic", "three", "freeform", "freeform-panel"],
)
def test_expected_calls_match_a_real_run(options: dict[str, object]) -> None:
    store = Store()
    result = debate(store=store, debate_id="counted", **options)
    row = store.get_debate("counted")
    assert row is not None
    valid = [c for c in store.calls("counted") if c.validation == "ok"]
    # a speech a detector fired on is asked for once more: one more validated call
    reasks = len(result.body.get("detector_reasks", []))
    assert formats.expected_calls(row.format, row.config) == len(valid) - reasks
    rounds = formats.rounds(row.format, row.config)
    assert {c.round for c in valid} <= set(rounds)
