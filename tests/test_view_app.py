"""The viewer's pages in process (Starlette's TestClient, no socket): stopped runs open
as partial reports with the resume line, a damaged row is listed as damaged and the
rest of the list works, 404 and 500 pages say what happened, the list sorts, pages and
offers downloads, compare reads standing codes, the call inspector shows a call as it
was sent and answered with every secret redacted, and the live page shows the calls in
flight and totals that add up."""

from __future__ import annotations

import json
import re
import socket
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from competitive_checks import SMALL
from html_support import MARKET_KB, MARKET_TOPIC, PAYLOAD, PLACES, Elements, debate, live_markup
from moot.debate import run_debate
from moot.errors import BackendError
from moot.llm.backend import Backend, register_provider, unregister_provider
from moot.llm.scripted import DemoBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.llm.wrapper import Wrapper
from moot.store import ReadOnlyStore, Store
from moot.trust import trust_of
from moot.view import create_app, pages
from moot.view.labels import VIEW_CATALOG
from moot.view.redact import REDACTED, Redactor

KEY_CANARY = "sk-canary-7Qx2Lm9Vb4Np8Rt3"
"""A key in a prompt header (the topic) and in a server's error."""
ENV_CANARY = "plain0canary0Zk4Wq7"
"""An API key's value in the environment: nothing but the environment says it is one."""
CONFIG_CANARY = "cfg-canary-Hy6Tr2Pq"
"""A key kept in a run's stored config."""
SECRET_TOPIC = f"Rotate the keys? Authorization: Bearer {KEY_CANARY} (code word {ENV_CANARY})"
CANARIES = (KEY_CANARY, ENV_CANARY, CONFIG_CANARY)


class FailingJudge(Wrapper):
    """The demo, until the judgement: that call fails the way a server that echoes the
    request's header would."""

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        if context is not None and context.round == "judgement":
            raise BackendError(f"HTTP 401 for header Authorization: Bearer {KEY_CANARY}")
        return await self._inner.generate(
            messages, schema=schema, settings=settings, context=context
        )


def _failing(rest: str, seed: int | None, timeout: float | None) -> Backend:
    return FailingJudge(DemoBackend.from_spec(rest, seed=seed, timeout=timeout))


def _interrupt_after(calls: int) -> Any:
    """A progress listener that presses Ctrl-C once ``calls`` calls have finished."""
    seen: list[str] = []

    def listen(event: object) -> None:
        seen.append(type(event).__name__)
        if seen.count("CallFinished") >= calls:
            raise KeyboardInterrupt

    return listen


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("view_app") / "moot.db"
    with Store(path) as store:
        debate("Rewrite billing in Rust?", store=store, debate_id="en-run", seed=3)
        debate("海南还是东北过冬？", store=store, debate_id="zh-run", seed=3, lang="zh")
        # six rounds: the demo's named positions come back to their first points in the
        # sixth, and repetition re-asks C-R6 (the re-ask tests below need one)
        debate("Where to spend the winter?", store=store, debate_id="ff-panel",
               format="freeform", sides=PLACES, panel=["technical", "risk"],
               format_options={"rounds": 6})  # fmt: skip
        debate(MARKET_TOPIC, store=store, debate_id="market-1", format="market",
               format_options=MARKET_KB, seed=1)  # fmt: skip
        debate(MARKET_TOPIC, store=store, debate_id="market-2", format="market",
               format_options=MARKET_KB, seed=2)  # fmt: skip
        debate("Should we go competitive?", store=store, debate_id="comp-run",
               format="competitive", format_options=SMALL, seed=1)  # fmt: skip
        with pytest.raises(Exception, match="budget"):
            debate("Stop at the budget?", store=store, debate_id="budget-run", seed=7,
                   max_tokens=5000)  # fmt: skip
        with pytest.raises(KeyboardInterrupt):
            debate("Interrupt me?", store=store, debate_id="interrupted-run", seed=1,
                   on_event=_interrupt_after(3))  # fmt: skip
        register_provider("failing", _failing)
        try:
            with pytest.raises(BackendError):
                run_debate(SECRET_TOPIC, store=store, debate_id="failed-run", seed=1,
                           model="failing:demo")  # fmt: skip
        finally:
            unregister_provider("failing")
        row = store.get_debate("failed-run")
        assert row is not None
        store.update_config("failed-run", {**row.config, "api_key": CONFIG_CANARY})
        store.create_debate("going", topic="A run that is going", format="structured",
                            config={"options": {}}, models={"pro": "scripted:demo"})  # fmt: skip
        store.start_call("going", role="pro", round="opening", side="pro", attempt=1,
                         model="scripted:demo")  # fmt: skip
        store.start_call("going", role="con", round="opening", side="con", attempt=1,
                         model=f"openai:x@https://me:{KEY_CANARY}@example.org/v1")  # fmt: skip
        store.create_debate("damaged-row", topic="A hand-edited row", format="structured",
                            config={}, models={})  # fmt: skip
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE debates SET config = '{not json' WHERE id = 'damaged-row'")
    return path


@pytest.fixture
def client(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_CANARY)
    app = create_app(store_path, host="127.0.0.1", port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


def _text(body: str) -> str:
    return " ".join(Elements(body).all_text.split())


def _get(client: TestClient, path: str, status: int = 200) -> str:
    response = client.get(path)
    assert response.status_code == status, (path, response.status_code)
    return response.text


def _listed(body: str) -> list[str]:
    return [a["href"].removeprefix("/runs/") for a in Elements(body).tags("a")
            if "run-link" in a.get("class", "")]  # fmt: skip


# ---- partial runs -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("run", "status", "completed"),
    [
        ("budget-run", "budget reached", ["PRO-1", "CON-1", "Opening arguments"]),
        ("failed-run", "failed", ["PRO-1", "Closing statements", "Cross-examinations"]),
        ("interrupted-run", "interrupted", ["PRO-1", "Opening arguments"]),
    ],
)
def test_a_stopped_run_opens_as_a_partial_report(
    client: TestClient, run: str, status: str, completed: list[str]
) -> None:
    body = _get(client, f"/runs/{run}")
    text = _text(body)
    assert "validation errors" not in text
    assert "cannot be read" not in text
    assert "Partial report" in text
    assert status in text
    resume = re.search(r'<code id="resume">(.*?)</code>', body)
    assert resume is not None
    assert resume.group(1) == f"moot resume {run}"
    for what in completed:
        assert what in text
    assert "Rounds with completed calls" in text
    assert "Opening" in text


def test_a_partial_report_shows_only_what_the_run_completed(
    client: TestClient, store_path: Path
) -> None:
    with ReadOnlyStore(store_path) as store:
        row = store.get_debate("budget-run")
        assert row is not None
        stored = json.loads(row.result_json or "{}")
    text = _text(_get(client, "/runs/budget-run"))
    ids = [a["id"] for a in stored["arguments"]]
    assert all(i in text for i in ids)
    assert f"Opening arguments ({len(ids)})" in text
    assert "Closing statements" not in text  # the budget stopped it before the closings


def test_the_live_page_of_a_stopped_run_says_how_to_resume(client: TestClient) -> None:
    body = _get(client, "/runs/interrupted-run/live")
    assert re.search(r'<code id="resume">moot resume interrupted-run</code>', body)
    assert "/runs/interrupted-run" in [a["href"] for a in Elements(body).tags("a")]


# ---- the list -----------------------------------------------------------------------


def test_a_damaged_row_is_listed_as_damaged_and_the_rest_still_shows(
    client: TestClient, store_path: Path
) -> None:
    body = _get(client, "/")
    with ReadOnlyStore(store_path) as store:
        stored = {row.id for row in store.list_debates(100)}
    assert set(_listed(body)) == stored
    text = _text(body)
    assert "This row of the store is damaged: its config is not JSON." in text
    assert _get(client, "/runs/damaged-row")  # its own page opens too


def test_a_row_that_cannot_be_shown_does_not_take_the_list_down(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = pages.run_line

    def fragile(row: Any, labels: dict[str, str], redactor: Any = None) -> pages.RunLine:
        if row.id == "zh-run":
            raise KeyError("positions")
        return shown(row, labels, redactor)

    monkeypatch.setattr(pages, "run_line", fragile)
    body = _get(client, "/")
    assert "zh-run" in _listed(body)
    assert "en-run" in _listed(body)
    assert "damaged: KeyError: 'positions'" in _text(body)


def test_the_list_sorts_by_a_column(client: TestClient, store_path: Path) -> None:
    with ReadOnlyStore(store_path) as store:
        rows = store.list_debates(100)
    by_tokens = sorted(rows, key=lambda r: r.prompt_tokens + r.completion_tokens)
    shown = _listed(_get(client, "/?sort=tokens&order=asc"))
    assert [r.prompt_tokens + r.completion_tokens for r in rows if r.id in shown] != []
    tokens = {r.id: r.prompt_tokens + r.completion_tokens for r in rows}
    assert [tokens[i] for i in shown] == sorted(tokens[r.id] for r in by_tokens)
    topics = {r.id: r.topic.casefold() for r in rows}
    shown = _listed(_get(client, "/?sort=topic&order=desc"))
    assert [topics[i] for i in shown] == sorted(topics.values(), reverse=True)
    assert _listed(_get(client, "/?sort=created&order=asc")) == [r.id for r in reversed(rows)]
    assert _listed(_get(client, "/?sort=%3Cb%3E&order=up")) == [r.id for r in rows]
    header = Elements(_get(client, "/?sort=cost&order=desc")).tags("th")
    assert [h.get("aria-sort") for h in header if h.get("aria-sort")] == ["descending"]


def test_the_list_is_cut_into_pages(store_path: Path) -> None:
    labels = VIEW_CATALOG["en"] | pages_labels()
    with ReadOnlyStore(store_path) as store:
        rows = store.list_debates(100)
    first = pages.run_list(rows, labels, page_size=4)
    assert [line.id for line in first.lines] == [r.id for r in rows[:4]]
    assert first.pages == -(-len(rows) // 4)
    assert first.previous == ""
    assert first.next == "/?sort=created&order=desc&page=2"
    last = pages.run_list(rows, labels, page_size=4, page=99)
    assert last.page == first.pages
    assert [line.id for line in last.lines] == [r.id for r in rows[(first.pages - 1) * 4 :]]
    assert last.next == ""
    seen = [line.id for p in range(1, first.pages + 1)
            for line in pages.run_list(rows, labels, page_size=4, page=p).lines]  # fmt: skip
    assert seen == [r.id for r in rows]


def pages_labels() -> dict[str, str]:
    from moot.view.labels import view_labels

    return view_labels("en")


def test_the_list_shows_cost_and_trust(
    client: TestClient, store_path: Path, tmp_path: Path
) -> None:
    header = _text(_get(client, "/"))
    assert "Cost (USD)" in header
    assert "Trust" in header
    # a stored result with a trust section shows its level; one stored before trust
    # existed is assessed on read (moot.trust.trust_of)
    copy = tmp_path / "moot.db"
    copy.write_bytes(store_path.read_bytes())
    with sqlite3.connect(copy) as conn:
        (stored,) = conn.execute("SELECT result_json FROM debates WHERE id = 'en-run'").fetchone()
        data = json.loads(stored)
        data["trust"] = {
            "level": "caution",
            "reasons": [{"code": "small_model", "level": "caution", "detail": ""}],
        }
        (older,) = conn.execute("SELECT result_json FROM debates WHERE id = 'zh-run'").fetchone()
        older_data = json.loads(older)
        older_data.pop("trust", None)
        conn.execute("UPDATE debates SET result_json = ? WHERE id = 'zh-run'",
                     (json.dumps(older_data),))  # fmt: skip
        conn.execute("UPDATE debates SET result_json = ?, cost_usd = 0.125 WHERE id = 'en-run'",
                     (json.dumps(data),))  # fmt: skip
    app = create_app(copy, host="127.0.0.1", port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as other:
        page = other.get("/").text
    row = next(r for r in re.findall(r"<tr.*?</tr>", page, re.S) if '/runs/en-run"' in r)
    cells = [_text(c) for c in re.findall(r"<td.*?</td>", row, re.S)]
    assert "caution" in cells
    assert "0.1250" in cells
    other_row = next(r for r in re.findall(r"<tr.*?</tr>", page, re.S) if '/runs/zh-run"' in r)
    assessed = trust_of(json.dumps(older_data))
    assert assessed is not None
    other_cells = [_text(c) for c in re.findall(r"<td.*?</td>", other_row, re.S)]
    assert VIEW_CATALOG["en"][f"view.trust.{assessed.level}"] in other_cells


def test_runs_offer_their_downloads(client: TestClient, store_path: Path) -> None:
    links = {a["href"] for a in Elements(_get(client, "/")).tags("a") if "download" in a}
    for kind in ("json", "md", "html"):
        assert f"/runs/en-run/download/{kind}" in links
    assert "/runs/budget-run/download/json" in links
    assert "/runs/budget-run/download/md" not in links
    with ReadOnlyStore(store_path) as store:
        row = store.get_debate("en-run")
        assert row is not None
    got = client.get("/runs/en-run/download/json")
    assert got.headers["content-type"].startswith("application/json")
    assert got.headers["content-disposition"] == 'attachment; filename="moot-en-run.json"'
    assert json.loads(got.text)["topic"] == row.topic
    markdown = client.get("/runs/en-run/download/md")
    assert markdown.headers["content-type"].startswith("text/markdown")
    assert row.topic in markdown.text
    html = client.get("/runs/en-run/download/html")
    assert html.text.startswith("<!DOCTYPE html>") or html.text.lstrip().startswith("<!doctype")
    partial = client.get("/runs/budget-run/download/json")
    assert json.loads(partial.text)["partial"] is True
    assert client.get("/runs/budget-run/download/md").status_code == 404
    assert client.get("/runs/en-run/download/exe").status_code == 404
    assert client.get("/runs/going/download/json").status_code == 404


# ---- error pages --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/no/such/page", "No such page."),
        ("/runs/nonesuch", "No debate with that id."),
        ("/runs/.hidden", "No debate with that id."),
        ("/runs/..%2Fetc", "No such page."),
        ("/runs/en-run/calls/999", "That debate has no call with that number."),
        ("/compare?a=en-run&b=budget-run", "Pick two debates that have a result to compare."),
        ("/runs/en-run/download/pdf", "That debate has no such download."),
    ],
)
def test_not_found_pages_say_what_was_not_found(
    client: TestClient, path: str, message: str
) -> None:
    body = _get(client, path, 404)
    page = Elements(body)
    assert [h for t, h in page.elements if t == "h1"]
    assert message in _text(body)
    assert page.style  # the viewer's stylesheet


def test_a_server_error_is_a_styled_page(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(store_path, host="127.0.0.1", port=8765)

    def broken(self: Any, limit: int = 50) -> list[Any]:
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(ReadOnlyStore, "list_debates", broken)
    with TestClient(app, base_url="http://127.0.0.1:8765", raise_server_exceptions=False) as c:
        response = c.get("/")
    assert response.status_code == 500
    page = Elements(response.text)
    assert [t for t, _ in page.elements if t == "h1"]
    assert page.style
    text = _text(response.text)
    assert "Something went wrong showing this page." in text
    assert "the disk went away" not in text  # the details go to the terminal
    assert "default-src 'none'" in response.headers["content-security-policy"]


# ---- compare ------------------------------------------------------------------------


def test_compare_reads_standing_codes_not_labels(client: TestClient, store_path: Path) -> None:
    with ReadOnlyStore(store_path) as store:
        one = pages.parse_result(store.get_debate("en-run"))[0]  # type: ignore[arg-type]
        two = pages.parse_result(store.get_debate("zh-run"))[0]  # type: ignore[arg-type]
    assert one is not None
    assert two is not None
    codes = pages.standing_codes(one), pages.standing_codes(two)
    body = _get(client, "/compare?a=en-run&b=zh-run")
    rows = re.findall(r"<tr( class=\"disputed\")?>\s*<td class=\"ref item-id\">(.*?)</td>", body)
    assert rows
    for disputed, item in rows:
        assert bool(disputed) == (codes[0].get(item) != codes[1].get(item)), item
    assert any(codes[0][i] == codes[1].get(i) for i in codes[0])  # some rows are unchanged


def test_compare_shows_full_ids_topics_and_score_differences(
    client: TestClient, store_path: Path
) -> None:
    body = _get(client, "/compare?a=market-1&b=market-2")
    text = _text(body)
    with ReadOnlyStore(store_path) as store:
        results = [pages.parse_result(store.get_debate(r))[0] for r in ("market-1", "market-2")]  # type: ignore[arg-type]
    first, second = results
    assert first is not None
    assert second is not None
    ids = [row.argument_id for row in first.judgement.trace]
    assert any(len(i) > 10 for i in ids)  # ACRO_BULL-1 and the like
    cells = re.findall(r'<td class="ref item-id">(.*?)</td>', body)
    assert set(ids) <= set(cells)
    assert MARKET_TOPIC in [h for h in re.findall(r"<h2>(.*?)</h2>", body)]
    a = {s.argument_id: s.weighted for s in first.judgement.scores}
    b = {s.argument_id: s.weighted for s in second.judgement.scores}
    shared = [i for i in ids if i in b]
    differences = re.findall(r'<td class="num difference">(.*?)</td>', body)
    assert f"{b[shared[0]] - a[shared[0]]:+.2f}" in differences
    assert "Total difference (B − A)" in text


def test_the_compare_form_offers_topics(client: TestClient) -> None:
    body = _get(client, "/")
    form = body[body.index('action="/compare"') :]
    options = Elements(form).tags("option")
    assert {o["value"] for o in options} >= {"en-run", "zh-run"}
    texts = Elements(form).all_text
    assert "Rewrite billing in Rust?" in texts
    assert "海南还是东北过冬？" in texts


# ---- the call inspector ----------------------------------------------------------------


def test_every_call_of_a_run_opens_in_the_inspector(client: TestClient, store_path: Path) -> None:
    with ReadOnlyStore(store_path) as store:
        calls = store.calls("ff-panel")
    live = Elements(_get(client, "/runs/ff-panel/live"))
    links = [a["href"] for a in live.tags("a") if "call-link" in a.get("class", "")]
    assert links == [f"/runs/ff-panel/calls/{c.seq}" for c in reversed(calls)]  # newest first
    for call in calls:
        body = _get(client, f"/runs/ff-panel/calls/{call.seq}")
        page = Elements(body)
        text = " ".join(page.all_text.split())
        assert page.style
        ids = {attrs.get("id") for _, attrs in page.elements}
        assert {"prompt", "schema", "reply", "problems", "attempts"} <= ids
        assert f">{call.prompt_tokens}<" in body
        assert f">{call.completion_tokens}<" in body
        assert f">{call.latency_ms:.0f}<" in body
        reply = json.loads(call.reply or "{}")
        for sentence in reply.get("speech", [])[:1]:
            assert " ".join(sentence.split()) in text


def test_the_inspector_lists_every_attempt_of_a_re_asked_call(
    client: TestClient, store_path: Path
) -> None:
    with ReadOnlyStore(store_path) as store:
        calls = store.calls("ff-panel")
    reasked = [c for c in calls if any(m.get("role") == "assistant" for m in c.messages)]
    assert reasked, "the demo's free-form run has a detector re-ask"
    again = reasked[0]
    body = _get(client, f"/runs/ff-panel/calls/{again.seq}")
    attempts = body[body.index('id="attempts"') : body.index('id="prompt"')]
    first = next(c for c in calls if c.round == again.round and c.role == again.role)
    assert f"/runs/ff-panel/calls/{first.seq}" in attempts
    assert f"Call {again.seq}" in _text(attempts)


def test_the_inspector_shows_the_schema_and_validation_problems(
    client: TestClient, store_path: Path, tmp_path: Path
) -> None:
    body = _get(client, "/runs/en-run/calls/1")
    schema = _text(body[body.index('id="schema"') : body.index('id="reply"')])
    assert "OpeningReply" in schema
    assert '"properties"' in schema
    copy = tmp_path / "moot.db"
    copy.write_bytes(store_path.read_bytes())
    with sqlite3.connect(copy) as conn:
        conn.execute(
            "UPDATE calls SET validation = 'invalid', problems = ? WHERE debate_id = 'en-run'"
            " AND seq = 1",
            (json.dumps(["arguments.0.claim: too short", PAYLOAD]),),
        )
    app = create_app(copy, host="127.0.0.1", port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as other:
        page = other.get("/runs/en-run/calls/1").text
    problems = page[page.index('id="problems"') :]
    assert "arguments.0.claim: too short" in _text(problems)
    assert live_markup(Elements(page)) == []
    assert "<script>" not in page


def test_keys_never_appear_on_any_page(client: TestClient, store_path: Path) -> None:
    with ReadOnlyStore(store_path) as store:
        calls = store.calls("failed-run")
        row = store.get_debate("failed-run")
    assert row is not None
    assert CONFIG_CANARY in json.dumps(row.config)  # planted where a page could read it
    assert any(KEY_CANARY in json.dumps(c.messages) for c in calls)  # in the prompt header
    assert any(KEY_CANARY in (c.error or "") for c in calls)  # echoed in an error
    assert any(ENV_CANARY in json.dumps(c.messages) for c in calls)
    paths = [
        "/",
        "/runs/failed-run",
        "/runs/failed-run/live",
        "/runs/failed-run/download/json",
        "/runs/going/live",
        *(f"/runs/failed-run/calls/{c.seq}" for c in calls),
    ]
    for path in paths:
        body = _get(client, path)
        for canary in CANARIES:
            assert canary not in body, (path, canary)
    inspected = _text(_get(client, f"/runs/failed-run/calls/{calls[0].seq}"))
    assert f"Authorization: Bearer {REDACTED}" in inspected or (
        f"Authorization: {REDACTED}" in inspected
    )
    assert f"code word {REDACTED}" in inspected


def test_the_redactor_replaces_what_looks_like_a_secret() -> None:
    redactor = Redactor.from_environment({"MY_TOKEN": "tok-1234567", "HOME": "/home/me"})
    assert redactor.text("home is /home/me, token tok-1234567") == (
        f"home is /home/me, token {REDACTED}"
    )
    for secret in (
        "Authorization: Bearer abc.def-ghi",
        "x-api-key: s3cr3tvalue",
        '{"api_key": "s3cr3tvalue"}',
        "https://me:hunter22@example.org/v1",
        "use sk-proj-ABCDEFGH12345678",
        "password=hunter22",
    ):
        cleaned = redactor.text(secret)
        assert REDACTED in cleaned, secret
        assert not re.search(r"abc\.def|s3cr3t|hunter22|ABCDEFGH", cleaned), cleaned
    for plain in ("max_tokens: 5000", "the token budget is 300", "a password is needed"):
        assert redactor.text(plain) == plain
    assert redactor.data({"headers": {"Authorization": "x"}, "max_tokens": 300}) == {
        "headers": {"Authorization": REDACTED},
        "max_tokens": 300,
    }


# ---- the live page --------------------------------------------------------------------


def test_the_live_page_shows_calls_in_flight_newest_first(client: TestClient) -> None:
    body = _get(client, "/runs/going/live")
    flight = body[
        body.index('id="in-flight"') : body.index("</section>", body.index('id="in-flight"'))
    ]
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td>", flight)
    assert rows == [("Opening", "Con"), ("Opening", "Pro")]
    elapsed = re.findall(r'<td class="num elapsed">(\d+) s</td>', flight)
    assert len(elapsed) == 2
    assert all(int(s) < 3600 for s in elapsed)
    assert Elements(body).tags("meta")  # it refreshes itself


def test_no_call_is_in_flight_once_a_run_has_ended(client: TestClient, store_path: Path) -> None:
    with sqlite3.connect(store_path) as conn:
        left = conn.execute("SELECT COUNT(*) FROM calls_in_flight WHERE debate_id != 'going'")
        assert left.fetchone() == (0,)  # every journaled, refused or cancelled call cleared
    assert 'id="in-flight"' not in _get(client, "/runs/interrupted-run/live")


@pytest.mark.parametrize("run", ["en-run", "ff-panel", "market-1", "budget-run"])
def test_live_totals_never_exceed_what_is_expected(
    client: TestClient, store_path: Path, run: str
) -> None:
    with ReadOnlyStore(store_path) as store:
        row = store.get_debate(run)
        calls = store.calls(run)
    assert row is not None
    body = _get(client, f"/runs/{run}/live")
    done = int(re.search(r'id="valid-calls">(\d+)<', body).group(1))  # type: ignore[union-attr]
    expected = int(re.search(r'id="expected-calls">(\d+)<', body).group(1))  # type: ignore[union-attr]
    valid = sum(1 for c in calls if c.validation == "ok")
    reasks = int(re.search(r'id="reasks">(\d+)<', body).group(1))  # type: ignore[union-attr]
    assert done + reasks == valid
    if row.status == "done":
        assert done == expected
    else:
        assert done < expected


def test_the_free_form_panel_run_counts_its_detector_re_asks_apart(client: TestClient) -> None:
    # 22 valid calls, one of them the re-ask of C-R6: 21 of the 21 expected
    text = _text(_get(client, "/runs/ff-panel/live"))
    assert "21 / 21" in text
    assert "22 / 21" not in text


@pytest.mark.parametrize(
    ("lang", "words", "codes"),
    [
        ("en", ["Opening · Pro", "Rebuttal · Con", "Audience vote before", "audience member 1"],
         ["opening_pro", "rebuttal_con", "vote_before", "audience:1"]),
        ("zh", ["开场陈述 · 正方", "反驳 · 反方", "赛前观众投票", "第 1 位观众"],
         ["opening_pro", "rebuttal_con", "vote_before", "audience:1"]),
    ],
)  # fmt: skip
def test_the_competitive_live_page_names_its_rounds_and_sides(
    store_path: Path, lang: str, words: list[str], codes: list[str]
) -> None:
    app = create_app(store_path, host="127.0.0.1", port=8765, lang=lang)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        body = c.get("/runs/comp-run/live").text
    table = _text(body[body.index('id="calls"') :])
    for word in words:
        assert word in table
    for code in codes:
        assert code not in table


def test_view_labels_have_the_same_keys_in_both_languages() -> None:
    assert set(VIEW_CATALOG["en"]) == set(VIEW_CATALOG["zh"])


def test_hostile_text_stays_text_in_partial_reports_and_the_inspector(
    store_path: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "moot.db"
    copy.write_bytes(store_path.read_bytes())
    with sqlite3.connect(copy) as conn:
        (stored,) = conn.execute(
            "SELECT result_json FROM debates WHERE id = 'budget-run'"
        ).fetchone()
        data = json.loads(stored)
        data["arguments"][0]["claim"] = PAYLOAD
        data["arguments"][0]["id"] = PAYLOAD
        conn.execute(
            "UPDATE debates SET result_json = ?, error = ?, topic = ? WHERE id = 'budget-run'",
            (json.dumps(data), PAYLOAD, PAYLOAD),
        )
        conn.execute(
            "UPDATE calls SET reply = ?, messages = ?, error = ?, role = ?, round = ?"
            " WHERE debate_id = 'budget-run' AND seq = 1",
            (PAYLOAD, json.dumps([{"role": "user", "content": PAYLOAD}]), PAYLOAD, PAYLOAD,
             PAYLOAD),
        )  # fmt: skip
    app = create_app(copy, host="127.0.0.1", port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        for path in ("/", "/runs/budget-run", "/runs/budget-run/live", "/runs/budget-run/calls/1"):
            body = c.get(path).text
            allowed = {"form", "input"} if path == "/" else set()  # the list's search form
            assert set(live_markup(Elements(body))) <= allowed, path
            assert PAYLOAD in Elements(body).all_text or path == "/", path


def test_calls_left_by_a_process_that_died_are_not_in_flight(
    store_path: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "moot.db"
    copy.write_bytes(store_path.read_bytes())
    gone = int(Path("/proc/sys/kernel/pid_max").read_text())  # pids stay below it
    with sqlite3.connect(copy) as conn:
        conn.execute(
            "UPDATE debates SET owner = ? WHERE id = 'going'", (f"{socket.gethostname()}:{gone}",)
        )
    app = create_app(copy, host="127.0.0.1", port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as other:
        body = other.get("/runs/going/live").text
    assert "No call is in flight." in _text(body)
