"""The report and the viewer in a real headless chromium (Debian's, driven by
Playwright), for debates of every format: pages render with their stylesheet under
the CSP, the trace table has one row per judged unit (argument or speech), a
detector flag's link opens the transcript at its turn, planted XSS payloads never
run nor become elements, nothing is fetched from anywhere else, and the viewer shows
what the store holds, compares two debates and follows a run of each format while it
goes. Screenshots are kept under the test's temporary directory (each test prints
their paths) and, when ``MOOT_SCREENSHOT_DIR`` is set, copied there."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from html_support import (
    CASES,
    PANEL,
    PAYLOAD,
    PLACES,
    TOPIC,
    ZH_TOPIC,
    axe_script,
    case,
    chromium,
    debate,
    hostile,
    screenshot,
    section_screenshot,
    unit_ids,
    with_flag,
)
from moot.report.html import to_html
from moot.report.html.formats import BriefingView, view_of
from moot.schema import DebateResult
from moot.store import ReadOnlyStore, Store, default_path
from moot.view import Served, serve_in_thread

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

pytestmark = pytest.mark.browser

ACTIVE_MARKUP = """() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (el.matches('input#print-transcript[type=checkbox]') && el.attributes.length === 2) continue;
    if (['script', 'img', 'iframe', 'object', 'embed', 'form', 'input', 'link'].includes(tag))
      found.push(tag);
    for (const attr of el.attributes) {
      if (attr.name.startsWith('on')) found.push(tag + '[' + attr.name + ']');
      if (/^\\s*javascript:/i.test(attr.value)) found.push(tag + '[' + attr.name + ']');
    }
    if (tag === 'meta' && (el.getAttribute('http-equiv') || '').toLowerCase() === 'refresh')
      found.push('meta refresh');
  }
  return found;
}"""


class Watched:
    """A page and what it asked the network for, and any console complaint."""

    def __init__(self, page: Page, origin: str) -> None:
        self.page = page
        self.requests: list[str] = []
        self.console: list[str] = []
        self.origin = origin
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("console", lambda message: self.console.append(message.text))

    def foreign_requests(self) -> list[str]:
        return [url for url in self.requests if not url.startswith(self.origin)]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as context:
        # nothing may leave this machine: anything but a file or the viewer is aborted
        def gate(route: Any) -> None:
            url = route.request.url
            if url.startswith(("file://", "http://127.0.0.1:", "http://localhost:")):
                route.continue_()
            else:
                route.abort()

        context.route("**/*", gate)
        yield context


@pytest.fixture(scope="module")
def results() -> dict[str, DebateResult]:
    found = {name: case(name) for name in CASES}
    # a competitive debate at its default length (240 s openings): what a reader prints
    found["competitive-full"] = debate(
        TOPIC, format="competitive", seed=1, format_options={"embedder": "lexical"}
    )
    found["hostile-structured"] = hostile(found["structured-panel-swap"])
    found["hostile-freeform"] = hostile(found["freeform-3-panel"])
    return found


UNIT_ROWS = "tr[id^='item-']"
"""The rows of the trace table (structured) or the speeches table (free-form)."""

SECTION_SHOTS = {
    "structured-panel-swap": [("verdict", "#verdict", "#panel"), ("trace", "#trace", "#trace")],
    "structured-3": [("trace", "#trace", "#trace")],
    "structured-zh": [("verdict", "#verdict", "#verdict"), ("scores", "#scores", "#scores")],
    "freeform-3-panel": [
        ("verdict", "#verdict", "#verdict"),
        ("speeches", "#speeches", "#speeches"),
    ],
    "freeform-zh-3": [("speeches", "#speeches", "#speeches")],
}
"""The parts of some reports kept as screenshots of their own (docs/screenshots/)."""


def _open_report(browser: BrowserContext, result: DebateResult, path: Path) -> tuple[Watched, Page]:
    path.write_text(to_html(result), encoding="utf-8")
    page = browser.new_page()
    watched = Watched(page, path.as_uri())
    page.goto(path.as_uri())
    return watched, page


@pytest.mark.parametrize("name", list(CASES))
def test_report_renders(
    browser: BrowserContext,
    results: dict[str, DebateResult],
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = results[name]
    watched, page = _open_report(browser, result, tmp_path / f"{name}.html")
    # the stylesheet applied: its hash matched the policy
    assert page.evaluate("getComputedStyle(document.querySelector('.card')).borderRadius") == (
        "12px"
    )
    rows = page.locator(UNIT_ROWS)
    assert rows.count() == len(result.judgement.trace)
    if isinstance(view_of(result.format), BriefingView):  # the briefing's own tables
        shown = page.locator(f"{UNIT_ROWS} td.id").all_inner_texts()
        table = ".briefing-table"
    else:
        shown = page.locator(f"{UNIT_ROWS} td.id a.ref").all_inner_texts()
        table = {
            "structured": "#trace-table",
            "freeform": "#speech-table",
            "market": "#trace-table",
            "competitive": "#speech-table",
        }[result.format]
    assert sorted(shown) == sorted(unit_ids(result))
    assert page.locator(f"{table} {UNIT_ROWS}").count() == rows.count()
    assert page.locator("svg.chart").count() >= 3
    policy = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    assert policy is not None
    assert policy.startswith("default-src 'none'")
    assert page.title().endswith(result.topic)
    # the transcript is collapsed until opened
    assert not page.locator("details.transcript").evaluate("d => d.open")
    assert not page.locator("article.turn").first.is_visible()
    for shot, first, last in SECTION_SHOTS.get(name, []):
        section_screenshot(page, first, last, tmp_path / f"report-{name}-{shot}.png", capsys)
    page.locator("details.transcript > summary").click()
    assert page.locator("article.turn").first.is_visible()
    assert watched.foreign_requests() == []
    assert not [m for m in watched.console if "Content Security Policy" in m]
    screenshot(page, tmp_path / f"report-{name}.png", capsys)
    page.close()


@pytest.mark.parametrize("name", ["structured-3", "freeform-3-panel"])
def test_a_detector_flag_leads_to_its_turn(
    browser: BrowserContext, results: dict[str, DebateResult], name: str, tmp_path: Path
) -> None:
    result = with_flag(results[name])  # the demo debates raise no flag of their own
    flagged = [flag for flag in result.detectors if flag.turn is not None]
    assert flagged
    _, page = _open_report(browser, result, tmp_path / f"{name}.html")
    links = page.locator("#detector-flags td.where a.ref")
    assert links.count() == len(flagged)
    links.first.click()
    assert page.url.endswith(f"#turn-{flagged[0].turn}")
    # the fragment opened the collapsed transcript at the flagged turn
    turn = page.locator(f"#turn-{flagged[0].turn}")
    assert turn.is_visible()
    assert flagged[0].evidence not in turn.inner_text()  # the flag is about it, not in it
    page.close()


@pytest.mark.parametrize("name", ["hostile-structured", "hostile-freeform"])
def test_xss_payloads_do_not_run(
    browser: BrowserContext,
    results: dict[str, DebateResult],
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    evil = results[name]
    watched, page = _open_report(browser, evil, tmp_path / "hostile.html")
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    for link in page.locator("a").all()[:40]:
        link.click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None
    assert page.title() != "pwned"
    assert page.title().endswith(evil.topic)
    assert page.evaluate(ACTIVE_MARKUP) == []
    assert page.locator("#evil").count() == 0
    assert page.locator("body").is_visible()  # the planted <style> hid nothing
    # the planted closing tags closed nothing
    assert page.locator(UNIT_ROWS).count() == len(evil.judgement.trace)
    assert page.locator("main > section.card").count() == page.locator(".toc a").count()
    # and every payload is there, as text: topic, position names, model output
    assert PAYLOAD in page.locator("h1.topic").inner_text()
    for position in evil.positions:
        assert page.locator(".total-side").get_by_text(position.name, exact=True).count() == 1
    assert page.locator("body").inner_text().count("<script>window.__pwned=2") >= 20
    assert watched.foreign_requests() == []
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, tmp_path / f"report-{name}.png", capsys, full_page=False)
    page.close()


# ---- print, accessibility, the competitive and market views ---------------------------

PRINT_PAGES = {
    "structured": 6,
    "structured-panel-swap": 6,
    "market": 13,
    "competitive-full": 6,
}
"""The most A4 pages each report may print to (without the transcript). Measured on
2026-12-02: 5, 5, 12 and 5 pages; before the print stylesheet: 6, 8, 16 and 22,
with the argument trace's last columns cut off."""
A4_WIDTH = 718
"""A4's width less the page margins, in CSS pixels (210 mm - 2 x 11 mm)."""
OVERFLOW = """() => {
  const right = document.querySelector('main').getBoundingClientRect().right + 1;
  return [...document.querySelectorAll('main table, main svg, main pre')]
    .filter(el => el.getClientRects().length && el.getBoundingClientRect().right > right)
    .map(el => (el.id || el.className.baseVal || el.className) + ' ends at '
         + Math.round(el.getBoundingClientRect().right));
}"""


def _pdf(page: Page) -> tuple[int, str]:
    """The page printed to A4 (DevTools' printToPDF, print media): its page count and
    its text without whitespace (lines break anywhere, "cross-" then "examination")
    and with ligatures (ﬁ) undone."""
    import io
    import unicodedata

    import pypdf  # a dev requirement, like Playwright

    reader = pypdf.PdfReader(io.BytesIO(page.pdf(format="A4")))
    text = " ".join(p.extract_text() for p in reader.pages)
    return len(reader.pages), _squeezed(unicodedata.normalize("NFKC", text))


def _squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("name", list(PRINT_PAGES))
def test_print_keeps_the_whole_report_in_few_pages(
    browser: BrowserContext,
    results: dict[str, DebateResult],
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = results[name]
    _, page = _open_report(browser, result, tmp_path / f"{name}.html")
    page.set_viewport_size({"width": A4_WIDTH, "height": 1000})
    page.emulate_media(media="print")
    # every column of every table fits the paper (the trace kept its standing and score)
    assert page.evaluate(OVERFLOW) == []
    # collapsed reasons are open on paper, the transcript is left out
    assert page.locator("details.more dl").first.is_visible()
    assert not page.locator("#transcript").is_visible()
    pages, text = _pdf(page)
    assert pages <= PRINT_PAGES[name], f"{name} prints to {pages} pages"
    for row in result.judgement.trace:  # each unit's judge's reason, on paper
        assert _squeezed(row.reason)[:50] in text
    for side in result.positions:
        assert _squeezed(side.name) in text
    # ticked, the box prints the transcript too
    page.emulate_media(media="screen")
    page.check("#print-transcript")
    page.emulate_media(media="print")
    assert page.locator("#transcript article.turn").first.is_visible()
    with_transcript, _ = _pdf(page)
    assert with_transcript > pages
    if name == "structured-panel-swap":
        page.emulate_media(media="screen")
        page.uncheck("#print-transcript")
        page.emulate_media(media="print")
        section_screenshot(
            page, ".hero", "#verdict", tmp_path / "report-print-structured.png", capsys
        )
        section_screenshot(
            page, "#trace", "#trace tr#item-1", tmp_path / "report-print-trace.png", capsys
        )
    page.close()


AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_RUN = """async (tags) => {
  const found = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                         resultTypes: ['violations']});
  return found.violations.map(v => v.id + ': ' + v.nodes.slice(0, 3)
    .map(n => n.target.join(' ') + ' (' + n.failureSummary.split('\\n')[1] + ')').join('; '));
}"""
CHART_TEXT = """() => [...document.querySelectorAll('svg.chart')].map(svg => {
  const table = svg.nextElementSibling;
  return table && table.matches('table.sr-only') ? table.innerText : '';
})"""


@pytest.mark.parametrize("name", ["structured-panel-swap", "competitive-zh-panel", "market"])
def test_axe_finds_no_wcag_aa_problem_in_either_theme(
    browser: BrowserContext, results: dict[str, DebateResult], name: str, tmp_path: Path
) -> None:
    """axe-core (pinned in tests/axe/, installed from npm) checks WCAG 2.1 A and AA,
    contrast included, in the light and the dark theme, with every collapsed part
    open; every chart repeats its numbers as text for screen readers."""
    script = axe_script()
    _, page = _open_report(browser, results[name], tmp_path / f"{name}.html")
    page.evaluate(script)  # DevTools evaluates it: the page's CSP refuses every script
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(AXE_RUN, AXE_TAGS) == [], scheme
    texts = page.evaluate(CHART_TEXT)
    assert len(texts) >= 3
    assert all(any(c.isdigit() for c in text) for text in texts), texts
    scores = page.locator("#scores table.sr-only").last.inner_text()
    for row in results[name].judgement.trace:
        assert row.argument_id in scores
    page.close()


def test_the_competitive_view(
    browser: BrowserContext,
    results: dict[str, DebateResult],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Stages and audience first, moves as translated badges, speeches collapsed, one
    timing row per speech, columns wide enough in Chinese."""
    for name in ("competitive-full", "competitive-zh-panel"):
        result = results[name]
        body = result.payload["competitive"]
        _, page = _open_report(browser, result, tmp_path / f"{name}.html")
        anchors = page.evaluate("[...document.querySelectorAll('main > section')].map(s => s.id)")
        assert anchors[:2] == ["verdict", "results"]
        assert page.locator("#stage-table tbody tr").count() == len(body["head_to_head"])
        moves = sum(len(s["actions"]) for s in body["speeches"])
        assert page.locator("#speech-table ul.moves .badge").count() == moves
        shown = page.locator("#speech-table").inner_text()
        assert "->" not in shown
        speech = page.locator("#speech-table details.print-on-request").first
        assert not speech.evaluate("d => d.open")
        assert not page.get_by_text(body["speeches"][0]["text"][:40]).first.is_visible()
        assert page.locator("#timing svg.chart rect.window").count() == len(body["speeches"])
        assert page.locator("#trees details.tree").count() == 1 + len(body["rehearsal"])
        link = page.locator("#speech-table ul.moves a.ref").first
        link.click()  # a move leads to its node of the flow tree, opening the tree
        assert page.locator(link.get_attribute("href") or "-").is_visible()
        if result.lang == "zh":
            for action in ("propose", "attack", "rebut", "reinforce"):
                assert action not in shown
            widths = page.evaluate(
                "[...document.querySelectorAll('#speech-table th, #stage-table th')]"
                ".map(th => th.getBoundingClientRect().width)"
            )
            assert min(widths) >= 40, widths
        else:
            page.evaluate("window.scrollTo(0, 0)")
            section_screenshot(page, "#results", "#results",
                               tmp_path / "report-competitive-results.png", capsys)  # fmt: skip
            section_screenshot(page, "#speeches", "#speech-table tr#item-2",
                               tmp_path / "report-competitive-speeches.png", capsys)  # fmt: skip
            section_screenshot(page, "#timing", "#timing",
                               tmp_path / "report-competitive-timing.png", capsys)  # fmt: skip
        page.close()


def test_the_market_trace_is_grouped_by_lens(
    browser: BrowserContext,
    results: dict[str, DebateResult],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = results["market"]
    arguments = result.payload["market"]["arguments"]
    lenses = list(dict.fromkeys(a["lens"] for a in arguments))
    _, page = _open_report(browser, result, tmp_path / "market.html")
    assert page.locator("#trace-table tbody").count() == len(lenses)
    assert page.locator("#trace figure.lens svg.chart").count() == len(lenses)
    for index, lens in enumerate(lenses):
        ids = [a["id"] for a in arguments if a["lens"] == lens]
        rows = page.locator("#trace-table tbody").nth(index).locator("tr[id^='item-'] td.id a.ref")
        assert rows.all_inner_texts() == ids
        chart = page.locator("#trace figure.lens table.sr-only").nth(index).inner_text()
        assert all(i in chart for i in ids)
    section_screenshot(page, "#trace", "#trace .lens-charts",
                       tmp_path / "report-market-lenses.png", capsys)  # fmt: skip
    page.close()


# ---- the viewer ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("browser_store") / "moot.db"
    with Store(path) as store:
        debate(store=store, debate_id="original", panel=PANEL, swap_sides=True)
        debate(store=store, debate_id="rerun", panel=PANEL, seed=4)
        debate(ZH_TOPIC, store=store, debate_id="winter", lang="zh", seed=2)
        debate(PAYLOAD, store=store, debate_id="hostile-topic", seed=1)
        debate("Where to spend the winter?", store=store, debate_id="winter-3", format="freeform",
               sides=PLACES, panel=["technical", "risk"])  # fmt: skip
        store.create_debate("stalled", topic="A run that is going", format="freeform",
                            config={"options": {"format": "freeform", "sides": PLACES,
                                                "format_options": {"rounds": 2}, "panel": []},
                                    "models": {"A": "x"}, "judge_accuracy": {}},
                            models={"A": "x"})  # fmt: skip
    return path


@pytest.fixture(scope="module")
def viewer(store_path: Path) -> Iterator[Served]:
    served = serve_in_thread(store_path)
    yield served
    served.stop()


def test_viewer_lists_what_the_store_holds(
    browser: BrowserContext,
    viewer: Served,
    store_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = browser.new_page()
    watched = Watched(page, viewer.url.rstrip("/"))
    response = page.goto(viewer.url)
    assert response is not None
    assert "default-src 'none'" in response.headers["content-security-policy"]
    with ReadOnlyStore(store_path) as store:
        stored = [row.id for row in store.list_debates(100)]
    shown = page.locator("#runs a.run-link").all_inner_texts()
    assert shown == stored
    screenshot(page, tmp_path / "viewer-list.png", capsys)
    page.fill("input[name=q]", "海南")
    page.click("form.filters button")
    assert page.locator("#runs a.run-link").all_inner_texts() == ["winter"]
    page.fill("input[name=q]", "")
    page.select_option("select[name=format]", "freeform")
    page.click("form.filters button")
    assert sorted(page.locator("#runs a.run-link").all_inner_texts()) == ["stalled", "winter-3"]
    page.select_option("select[name=format]", "")
    page.select_option("select[name=status]", "running")
    page.fill("input[name=q]", "")
    page.click("form.filters button")
    assert page.locator("#runs a.run-link").all_inner_texts() == ["stalled"]
    assert page.evaluate("window.__pwned") is None
    assert watched.foreign_requests() == []
    page.close()


def test_viewer_debate_page_is_the_report(
    browser: BrowserContext,
    viewer: Served,
    store_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with ReadOnlyStore(store_path) as store:
        row = store.get_debate("original")
    assert row is not None
    assert row.result_json is not None
    result = DebateResult.model_validate_json(row.result_json)
    page = browser.new_page()
    page.goto(viewer.url)
    page.click("#runs a.run-link >> text=original")
    assert page.url.endswith("/runs/original")
    assert page.locator(f"#trace-table {UNIT_ROWS}").count() == len(result.judgement.trace)
    assert page.locator("nav.topbar a").count() == 3  # all runs, progress, calls
    screenshot(page, tmp_path / "viewer-debate.png", capsys)
    page.goto(f"{viewer.url}runs/winter-3")
    assert page.locator(f"#speech-table {UNIT_ROWS}").count() == 9
    page.goto(f"{viewer.url}runs/hostile-topic")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("h1.topic").inner_text() == PAYLOAD
    page.close()


def test_viewer_compares_two_debates(
    browser: BrowserContext, viewer: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = browser.new_page()
    page.goto(viewer.url)
    page.select_option("select[name=a]", "original")
    page.select_option("select[name=b]", "rerun")
    page.click("form[action='/compare'] button")
    assert "/compare?a=original&b=rerun" in page.url
    assert page.locator("section.compared").count() == 2
    assert page.locator("section.compared .run-ref a").all_inner_texts() == ["original", "rerun"]
    assert page.locator("#compare-items tbody tr").count() >= 6
    screenshot(page, tmp_path / "viewer-compare.png", capsys)
    page.close()


LIVE_RUNS = {
    "structured": ((), 6),
    "freeform": (("--format", "freeform", "--sides", ";".join(PLACES), "--rounds", "2"), 6),
}
"""Extra ``moot run`` arguments, and the judged units the finished report shows."""


@pytest.mark.parametrize("fmt", list(LIVE_RUNS))
def test_live_page_follows_a_run(
    browser: BrowserContext,
    fmt: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    extra, units = LIVE_RUNS[fmt]
    Store().close()  # the run's store, in this test's MOOT_HOME
    served = serve_in_thread(default_path())
    run = subprocess.Popen(
        [sys.executable, "-m", "moot", "run", TOPIC, "--model", "scripted:demo?latency_ms=400",
         "--seed", "5", "--id", "going", "-q", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )  # fmt: skip
    page = browser.new_page()
    try:
        deadline = time.monotonic() + 60
        seen_running = False
        while time.monotonic() < deadline:
            response = page.goto(f"{served.url}runs/going/live")
            assert response is not None
            if response.status == 200 and page.locator("meta[http-equiv=refresh]").count():
                calls = int(page.locator("#valid-calls").inner_text())
                if calls >= 2:
                    seen_running = True
                    assert page.locator("#calls tbody tr").count() >= calls
                    assert page.locator("#progress svg.chart").count() == 1  # calls expected
                    assert page.locator("#in-flight").count() == 1  # what it waits for
                    screenshot(page, tmp_path / f"viewer-live-{fmt}.png", capsys)
                    break
            time.sleep(0.2)
        assert seen_running, "the live page never showed the run in progress"
        assert run.wait(timeout=120) == 0, run.stderr.read() if run.stderr else ""
        page.wait_for_selector("#report-link", timeout=10_000)  # the page refreshes itself
        assert page.locator("meta[http-equiv=refresh]").count() == 0
        page.click("#report-link")
        assert page.locator(UNIT_ROWS).count() >= units
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        if run.stderr:
            run.stderr.close()
        page.close()
        served.stop()
