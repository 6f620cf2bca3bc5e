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

from moot.debate import run_debate
from moot.schema import DebateResult
from moot.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

TOPIC = "Should a 10-person startup adopt microservices from day one?"
ZH_TOPIC = "海南还是东北过冬？"
PANEL = ["technical", "business", "risk", "general"]

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
"""Appended to every argument id: ids are used in links and attributes."""

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
            elif key == "positions" and isinstance(item, list):
                # a position's name is what the user typed (``--sides``)
                planted[key] = [{**p, "name": p["name"] + PAYLOAD} for p in item]
            else:
                planted[key] = _plant(item)
        return planted
    if isinstance(value, list):
        return [_plant(item) for item in value]
    return value


def hostile(result: DebateResult) -> DebateResult:
    """``result`` with the payload in every free text a model or a user wrote (and in
    model specs and position names), an id payload on every judged item's id (an
    argument, a speech), and a planted fallacy and protocol warning carrying the
    payload too."""
    data = _plant(json.loads(result.model_dump_json()))
    ids = item_ids(result)
    data["judgement"]["fallacies"].append(
        {"argument_id": ids[0], "type": "straw_man", "quote": PAYLOAD, "verified": False}
    )
    data["warnings"].append(
        {"round": "opening", "side": result.positions[0].key, "code": "evidence_vague",
         "where": PAYLOAD, "message": PAYLOAD}
    )  # fmt: skip
    text = json.dumps(data)
    for ident in ids:
        text = text.replace(json.dumps(ident), json.dumps(ident + ID_PAYLOAD))
    return DebateResult.model_validate_json(text)


def item_ids(result: DebateResult) -> list[str]:
    """The judged items' ids (arguments, speeches) in the order they were made."""
    return [s.argument_id for s in result.judgement.scores]


def item_texts(result: DebateResult) -> dict[str, str]:
    """Each judged item's text as its trace row shows it (an argument's claim, a
    speech's first sentence)."""
    return {row.argument_id: row.claim for row in result.judgement.trace}


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


def live_markup(page: Elements) -> list[str]:
    """What in a page could run script, fetch something or navigate away."""
    found = []
    for tag, attrs in page.elements:
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


def screenshot(
    page: Any, path: Path, capsys: pytest.CaptureFixture[str], *, full_page: bool = True
) -> Path:
    """Keep a screenshot (of the whole page, or of the window) as a test artefact and
    say where it is."""
    page.screenshot(path=str(path), full_page=full_page)
    with capsys.disabled():
        print(f"\nscreenshot: {path}")
    return path
