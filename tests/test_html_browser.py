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
    case,
    chromium,
    debate,
    hostile,
    screenshot,
    section_screenshot,
    unit_ids,
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
    result = results[name]
    flagged = [flag for flag in result.detectors if flag.turn is not None]
    assert flagged, "the demo debate is expected to trip a detector on a turn"
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
    assert page.locator("nav.topbar a").count() == 2
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
