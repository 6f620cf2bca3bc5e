"""Shared by the HTML report and viewer tests: debates to render (real runs on the
offline ``scripted:demo`` model), hostile payloads planted in them, an HTML reader
that lists what a page would make live, and the headless chromium the browser tests
drive (Debian's, through Playwright; never a downloaded browser)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from competitive_checks import SMALL
from moot.debate import run_debate
from moot.formats import get_format
from moot.schema import DebateResult
from moot.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

TOPIC = "Should a 10-person startup adopt microservices from day one?"
ZH_TOPIC = "海南还是东北过冬？"
PANEL = ["technical", "business", "risk", "general"]
PLACES = ["Hainan", "Yunnan", "the North-East"]
ZH_PLACES = ["海南", "云南", "东北"]

PAYLOAD = (
    "<img src=x onerror=\"window.__pwned=1;document.title='pwned'\">"
    "<script>window.__pwned=2;document.title='pwned'</script>"
    '<a href="javascript:window.__pwned=3" id="evil">click me</a>'
    "</details></td></tr></table></section></main>"
    '<svg onload="window.__pwned=4"><circle r="5"/></svg>'
    '<iframe srcdoc="<script>parent.__pwned=5</script>"></iframe>'
    "<style>body{display:none}</style>"
    '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=6">'
    '<form action="https://evil.example/"><input name=x></form>'
    "{{ 7*7 }}"
)
"""Markup that would run script, leave its container, restyle or navigate the page
if it were ever rendered as HTML. It must only ever appear as text."""

ID_PAYLOAD = '"><img src=x onerror="window.__pwned=7">'
"""Appended to every judged unit's id: ids are used in links and attributes."""

NAME_PAYLOAD = "<img src=x onerror=window.__pwned=8>"
"""Short enough for a position's name (``--sides``, at most 80 characters)."""

TEXT_KEYS = frozenset(
    {
        "topic",
        "claim",
        "reasoning",
        "evidence",
        "follow_up",
        "final_stance",
        "reason",
        "quote",
        "key_insight",
        "recommendation",
        "message",
        "where",
        "note",
        "text",
        "judge_model",
        "model",
    }
)
LIST_KEYS = frozenset({"concessions", "unresolved_questions", "settle"})

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def debate(
    topic: str = TOPIC,
    /,
    *,
    store: Store | None = None,
    debate_id: str | None = None,
    **options: Any,
) -> DebateResult:
    """A real debate on the offline demo model, run in a thread of its own (Playwright's
    synchronous API keeps an event loop running in the test's thread)."""
    options.setdefault("seed", 3)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(
            run_debate, topic, model="scripted:demo", store=store, debate_id=debate_id, **options
        ).result()


def _plant(value: Any) -> Any:
    if isinstance(value, dict):
        planted: dict[str, Any] = {}
        for key, item in value.items():
            if key in TEXT_KEYS and isinstance(item, str):
                planted[key] = item + PAYLOAD
            elif key in LIST_KEYS and isinstance(item, list):
                planted[key] = [str(x) + PAYLOAD for x in item]
            elif key == "models" and isinstance(item, dict):
                planted[key] = {role: str(spec) + PAYLOAD for role, spec in item.items()}
            else:
                planted[key] = _plant(item)
        return planted
    if isinstance(value, list):
        return [_plant(item) for item in value]
    return value


MARKET_TOPIC = "Will ExampleIndex close higher a month from now?"
MARKET_ZH_TOPIC = "ExampleIndex 一个月后的收盘价会更高吗？"
MARKET_KB = {"kb": "demo", "baseline": True}

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "structured": (TOPIC, {"seed": 1}),
    "structured-panel-swap": (TOPIC, {"panel": PANEL, "swap_sides": True}),
    "structured-3": ("Where to spend the winter?", {"sides": PLACES, "seed": 2}),
    "structured-zh": (ZH_TOPIC, {"lang": "zh", "seed": 2, "panel": ["technical", "risk"]}),
    "freeform": (TOPIC, {"format": "freeform", "seed": 1, "swap_sides": True}),
    "freeform-3-panel": (
        "Where to spend the winter?",
        {"format": "freeform", "sides": PLACES, "panel": ["technical", "risk", "general"]},
    ),
    "freeform-zh-3": (ZH_TOPIC, {"format": "freeform", "lang": "zh", "sides": ZH_PLACES}),
    "market": (MARKET_TOPIC, {"format": "market", "format_options": MARKET_KB, "seed": 1}),
    "market-zh-panel": (
        MARKET_ZH_TOPIC,
        {"format": "market", "format_options": MARKET_KB, "lang": "zh", "panel": PANEL},
    ),
    "competitive": (
        TOPIC,
        {"format": "competitive", "seed": 1, "swap_sides": True, "format_options": SMALL},
    ),
    "competitive-zh-panel": (
        ZH_TOPIC,
        {"format": "competitive", "lang": "zh", "panel": PANEL, "format_options": SMALL},
    ),
}
"""The debates every report test renders: every format, two and three positions, with
and without a panel, with the swap-sides rerun, in English and in Chinese."""


def case(name: str, **extra: Any) -> DebateResult:
    """One of ``CASES``, run for real on the demo model."""
    topic, options = CASES[name]
    return debate(topic, **{**options, **extra})


def with_flag(result: DebateResult) -> DebateResult:
    """``result`` with a stance-drift flag on its last turn (the demo debates raise no
    detector flag of their own since the three-sided ones stopped echoing)."""
    expected, _ = get_format(result.format).transcript(result)
    turn = len(expected.turns) - 1
    flag = {
        "detector": "stance_drift",
        "turn": turn,
        "unit": None,
        "side": expected.turns[turn].side,
        "evidence": "planted evidence for the report test",
    }
    data = result.model_dump(mode="json")
    data["detectors"] = [*data["detectors"], flag]
    return DebateResult.model_validate(data)


def unit_ids(result: DebateResult) -> list[str]:
    """The ids of the debate's judged units (arguments, speeches), in the judge's order."""
    return [row.argument_id for row in result.judgement.trace]


def hostile(result: DebateResult) -> DebateResult:
    """``result`` with the payload in every free text a model or a user wrote (position
    names, model specs, detector evidence), an id payload on every judged unit's id,
    and a planted fallacy, protocol warning, detector flag and structured-output
    fallback carrying the payload too."""
    data = _plant(json.loads(result.model_dump_json()))
    for position in data["positions"]:
        position["name"] += PAYLOAD
    first = result.judgement.trace[0]
    data["judgement"]["fallacies"].append(
        {"argument_id": first.argument_id, "type": "straw_man", "quote": PAYLOAD,
         "verified": False}
    )  # fmt: skip
    data["warnings"].append(
        {"round": "opening", "side": first.side, "code": "evidence_vague", "where": PAYLOAD,
         "message": PAYLOAD}
    )  # fmt: skip
    data["detectors"].append(
        {"detector": "repetition", "turn": 1, "unit": None, "side": first.side,
         "evidence": PAYLOAD}
    )  # fmt: skip
    data["usage"]["structured_fallbacks"].append(
        {"model": PAYLOAD, "schema_name": PAYLOAD, "mode": "prompt", "rejected": ["json_schema"],
         "reason": PAYLOAD, "calls": 2}
    )  # fmt: skip
    text = json.dumps(data)
    for unit in unit_ids(result):
        text = text.replace(json.dumps(unit), json.dumps(unit + ID_PAYLOAD))
    return DebateResult.model_validate_json(text)


class Elements(HTMLParser):
    """Every element of a page with its attributes, and the text a reader sees."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self._style = False
        self.style = ""
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {name: value or "" for name, value in attrs}))
        self._style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._style = False

    def handle_data(self, data: str) -> None:
        if self._style:
            self.style += data
        else:
            self.text.append(data)

    def tags(self, name: str) -> list[dict[str, str]]:
        return [attrs for tag, attrs in self.elements if tag == name]

    @property
    def all_text(self) -> str:
        return "".join(self.text)


PRINT_TOGGLE = {"type": "checkbox", "id": "print-transcript"}
"""The one input a report has: ticked, the transcript is printed too (CSS only)."""


def live_markup(page: Elements) -> list[str]:
    """What in a page could run script, fetch something or navigate away."""
    found = []
    for tag, attrs in page.elements:
        if tag == "input" and attrs == PRINT_TOGGLE:
            continue  # the report's own "print the transcript" box
        if tag in ("script", "img", "iframe", "object", "embed", "form", "input", "link"):
            found.append(tag)
        if tag == "meta" and attrs.get("http-equiv", "").lower() == "refresh":
            found.append("meta refresh")
        for name, value in attrs.items():
            if name.startswith("on"):
                found.append(f"{tag}[{name}]")
            if name in ("href", "src", "action") and "javascript:" in value.lower():
                found.append(f"{tag}[{name}=javascript:]")
    return found


# ---- the browser ------------------------------------------------------------------


def chromium_path() -> Path | None:
    """Debian's chromium (or the binary ``MOOT_CHROMIUM`` names), if installed."""
    found = os.environ.get("MOOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return Path(found) if Path(found).is_file() else None


def require_browser() -> Path:
    """Chromium's path; skip with the reason when it or Playwright is missing, except
    under ``CI_REQUIRE_BROWSER=1`` (set by ``.ci/run``), where that is a failure."""
    missing = []
    path = chromium_path()
    if path is None:
        missing.append("chromium is not installed (apt-get install chromium chromium-driver)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("playwright is not installed (pip install -r requirements/dev.txt)")
    if missing:
        reason = "; ".join(missing)
        if os.environ.get("CI_REQUIRE_BROWSER") == "1":
            pytest.fail(f"CI_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(f"browser tests need a headless chromium: {reason}")
    assert path is not None
    return path


@contextmanager
def chromium(profile: Path) -> Iterator[BrowserContext]:
    """Headless chromium with a fresh profile, launched by Playwright from Debian's
    binary, with no background networking."""
    from playwright.sync_api import sync_playwright

    path = require_browser()
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(path),
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()


AXE_DIR = Path(__file__).parent / "axe"
"""axe-core, pinned in ``package.json`` and ``package-lock.json`` there and installed
from the npm registry by :func:`axe_script` (``npm ci``) into its ``node_modules``,
which git ignores."""


def _missing(reason: str) -> None:
    if os.environ.get("CI_REQUIRE_BROWSER") == "1":
        pytest.fail(f"CI_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def axe_script() -> str:
    """axe-core's script (the version ``tests/axe/package.json`` pins), installed with
    ``npm ci`` the first time (under a lock: several test workers may ask at once).
    Skips without npm or the registry, except under ``CI_REQUIRE_BROWSER=1``."""
    import fcntl
    import subprocess

    wanted = json.loads((AXE_DIR / "package.json").read_text())["devDependencies"]["axe-core"]
    package = AXE_DIR / "node_modules" / "axe-core"
    with (AXE_DIR / "node_modules.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        installed = package / "package.json"
        if not installed.is_file() or json.loads(installed.read_text())["version"] != wanted:
            npm = shutil.which("npm")
            if npm is None:
                _missing("the accessibility checks need npm to install axe-core")
            assert npm is not None
            done = subprocess.run(
                [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                cwd=AXE_DIR,
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            if done.returncode != 0:
                _missing(f"npm ci could not install axe-core {wanted}: {done.stderr[-500:]}")
    return (package / "axe.min.js").read_text(encoding="utf-8")


SCREENSHOT_DIR = "MOOT_SCREENSHOT_DIR"
"""When set, every screenshot is also copied into this directory (CI keeps it as an
artefact; ``docs/screenshots/`` is refreshed from it)."""


def _keep(path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    kept = os.environ.get(SCREENSHOT_DIR)
    if kept:
        Path(kept).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(kept) / path.name)
    with capsys.disabled():
        print(f"\nscreenshot: {path}")
    return path


def screenshot(
    page: Any, path: Path, capsys: pytest.CaptureFixture[str], *, full_page: bool = True
) -> Path:
    """Keep a screenshot (of the whole page, or of the window) as a test artefact and
    say where it is."""
    page.screenshot(path=str(path), full_page=full_page)
    return _keep(path, capsys)


def section_screenshot(
    page: Any, first: str, last: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> Path:
    """Keep a screenshot of the page from the top of element ``first`` to the bottom of
    element ``last`` (CSS selectors), with a margin."""
    top = page.locator(first).bounding_box()
    bottom = page.locator(last).bounding_box()
    assert top is not None
    assert bottom is not None
    scroll = page.evaluate("[window.scrollX, window.scrollY]")
    y = top["y"] + scroll[1] - 16
    height = bottom["y"] + bottom["height"] + scroll[1] + 16 - y
    width = page.evaluate("document.documentElement.clientWidth")
    page.screenshot(
        path=str(path), full_page=True, clip={"x": 0, "y": y, "width": width, "height": height}
    )
    return _keep(path, capsys)
