"""The market backtest's HTML report (``moot backtest --html``) in a real headless
chromium: the stylesheet applies under the page's CSP, both SVG charts draw their
lines and points with a size, no console message or CSP complaint is logged, nothing
is fetched, and the snapshot links resolve to the viewer's run pages beside the file.
A screenshot is kept as the test's artefact (printed; copied to
``MOOT_SCREENSHOT_DIR`` when set)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from html_support import chromium, screenshot
from moot.formats.market.backtest import run_backtest
from moot.formats.market.backtest_html import backtest_html
from moot.formats.market.data import demo_snapshots, write_snapshots
from moot.options import RunOptions
from moot.store import Store

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_backtest_report_renders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    snapshots = write_snapshots(demo_snapshots()[:12], tmp_path / "snapshots")
    report = run_backtest(
        snapshots,
        RunOptions(model="scripted:demo", seed=5, lang=lang),
        store=Store(tmp_path / "moot.db"),
        backtest_id="bt-browser",
    )
    path = tmp_path / "backtest.html"
    path.write_text(backtest_html(report, lang), encoding="utf-8")
    with chromium(tmp_path / "profile") as context:
        requests: list[str] = []
        console: list[str] = []

        def gate(route: Any) -> None:
            requests.append(route.request.url)
            if route.request.url.startswith("file://"):
                route.continue_()
            else:
                route.abort()

        context.route("**/*", gate)
        page = context.new_page()
        page.on("console", lambda message: console.append(message.text))
        page.on("pageerror", lambda error: console.append(str(error)))
        page.goto(path.as_uri())
        # the stylesheet applied: its hash matched the policy
        radius = page.evaluate("getComputedStyle(document.querySelector('.card')).borderRadius")
        assert radius == "12px"
        charts = page.locator("svg.chart")
        assert charts.count() == 2
        for n in range(2):
            box = charts.nth(n).bounding_box()
            assert box is not None
            assert box["width"] > 300
            assert box["height"] > 100
        n = len(report.rows)
        equity = charts.nth(0)
        assert equity.locator("line.trend").count() == 5 * n
        assert equity.locator("circle.point").count() == 5 * (n + 1)
        # a drawn line has a stroke from the stylesheet (not the default none)
        stroke = equity.locator("line.trend").first.evaluate("l => getComputedStyle(l).stroke")
        assert stroke not in ("", "none")
        assert charts.nth(1).locator("circle.point").count() >= 3
        links = page.locator("a.run")
        assert links.count() == n
        href = links.first.evaluate("a => a.href")
        assert href == (tmp_path / "runs" / report.debates[0].run_id).as_uri()
        assert console == []
        assert [url for url in requests if not url.startswith("file://")] == []
        screenshot(page, tmp_path / f"backtest-{lang}.png", capsys)
        page.close()
