"""The browser tests skip, with the reason, only where chromium is missing and CI
does not require it; under ``CI_REQUIRE_BROWSER=1`` (``.ci/run``) they fail instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.process]

ROOT = Path(__file__).resolve().parent.parent
ONE_BROWSER_TEST = "tests/test_html_browser.py::test_report_renders[structured]"


def _pytest(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", ONE_BROWSER_TEST],
        cwd=ROOT,
        env={**os.environ, "MOOT_CHROMIUM": "/nonexistent/chromium", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_without_chromium_browser_tests_skip_with_the_reason() -> None:
    run = _pytest(CI_REQUIRE_BROWSER="0")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 skipped" in run.stdout
    assert "chromium is not installed" in run.stdout


def test_ci_makes_a_missing_chromium_a_failure() -> None:
    run = _pytest(CI_REQUIRE_BROWSER="1")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "CI_REQUIRE_BROWSER=1 but chromium is not installed" in run.stdout
