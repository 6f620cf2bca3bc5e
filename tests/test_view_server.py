"""The viewer over real HTTP on loopback: it answers only to localhost names (DNS
rebinding), only to GET and HEAD, with the security headers on every answer; run ids
are matched in full; the store is opened read-only and never changes."""

from __future__ import annotations

import hashlib
import http.client
from collections.abc import Iterator
from pathlib import Path

import pytest

from html_support import PANEL, PLACES, ZH_TOPIC, Elements, debate
from moot.errors import ConfigError
from moot.report.html.formats import expected_calls
from moot.store import ReadOnlyStore, Store
from moot.view import Served, serve_in_thread
from moot.view.pages import planned_calls

pytestmark = pytest.mark.server

RUNS = ("panel-run", "zh-run", "plain-run", "ff-run", "damaged-run")


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("view_store") / "moot.db"
    with Store(path) as store:
        debate(store=store, debate_id="panel-run", panel=PANEL, swap_sides=True)
        debate(ZH_TOPIC, store=store, debate_id="zh-run", lang="zh")
        debate("Rewrite billing in Rust?", store=store, debate_id="plain-run", seed=1)
        debate("Where to spend the winter?", store=store, debate_id="ff-run", format="freeform",
               sides=PLACES, panel=["technical", "risk"])  # fmt: skip
        damaged = debate(store=store, debate_id="damaged-run", format="freeform", seed=2)
        store.set_status(
            "damaged-run",
            "done",
            result_json=damaged.model_copy(update={"payload": {"freeform": {}}}).model_dump_json(),
        )
    return path


@pytest.fixture(scope="module")
def viewer(store_path: Path) -> Iterator[Served]:
    served = serve_in_thread(store_path)
    yield served
    served.stop()


def _get(
    viewer: Served, path: str, host: str | None = None, method: str = "GET"
) -> tuple[int, dict[str, str], str]:
    port = viewer.server.servers[0].sockets[0].getsockname()[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        body = response.read().decode("utf-8")
        headers = {k.lower(): v for k, v in response.getheaders()}
        return response.status, headers, body
    finally:
        connection.close()


def _port(viewer: Served) -> int:
    port: int = viewer.server.servers[0].sockets[0].getsockname()[1]
    return port


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
def test_localhost_names_are_answered(viewer: Served, name: str) -> None:
    status, _, body = _get(viewer, "/", host=f"{name}:{_port(viewer)}")
    assert status == 200
    assert all(run in body for run in RUNS)


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",
        "localhost.evil.example:{port}",
        "127.0.0.1.nip.io:{port}",
        "localhost:{other}",
        "127.0.0.1",
        "",
        None,
    ],
)
def test_other_host_headers_are_refused(viewer: Served, host: str | None) -> None:
    port = _port(viewer)
    value = None if host is None else host.format(port=port, other=port + 1)
    status, headers, body = _get(viewer, "/", host=value)
    assert status == 400
    assert "panel-run" not in body
    if value is not None:  # without any Host, HTTP/1.1 itself is refused by the server
        assert "answers only to localhost" in body
        assert "default-src 'none'" in headers["content-security-policy"]


def test_two_host_headers_are_refused(viewer: Served) -> None:
    port = _port(viewer)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest("GET", "/", skip_host=True)
    connection.putheader("Host", f"127.0.0.1:{port}")
    connection.putheader("Host", "evil.example")
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 400
    connection.close()


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_reads_are_allowed(viewer: Served, store_path: Path, method: str) -> None:
    before = hashlib.sha256(store_path.read_bytes()).hexdigest()
    status, headers, _ = _get(viewer, "/runs/panel-run", f"127.0.0.1:{_port(viewer)}", method)
    assert status == 405
    assert headers["allow"] == "GET, HEAD"
    assert hashlib.sha256(store_path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/runs/panel-run",
        "/runs/zh-run/live",
        "/compare?a=panel-run&b=plain-run",
        "/runs/ff-run",
        "/runs/ff-run/live",
        "/compare?a=ff-run&b=panel-run",
        "/runs/nonesuch",
        "/no/such/page",
    ],
)
def test_every_answer_carries_the_security_headers(viewer: Served, path: str) -> None:
    status, headers, body = _get(viewer, path, f"localhost:{_port(viewer)}")
    assert status in (200, 404)
    policy = headers["content-security-policy"]
    assert policy.startswith("default-src 'none'; style-src 'sha256-")
    assert "frame-ancestors 'none'" in policy
    assert "form-action 'self'" in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cache-control"] == "no-store"
    assert "server" not in headers
    if status == 200:
        assert headers["content-type"].startswith("text/html")
        assert not [t for t, _ in Elements(body).elements if t == "script"]


@pytest.mark.parametrize(
    "path",
    [
        "/runs/..%2F..%2Fetc%2Fpasswd",
        "/runs/panel-run%0A",
        "/runs/.hidden",
        "/runs/" + "a" * 65,
        "/runs/panel-run%00",
        "/runs/%3Cscript%3E/live",
        "/compare?a=panel-run&b=..%2Fx",
        "/compare?a=panel-run",
        "/compare?a=panel-run&b=nonesuch",
    ],
)
def test_bad_run_ids_are_not_found(viewer: Served, path: str) -> None:
    status, _, body = _get(viewer, path, f"127.0.0.1:{_port(viewer)}")
    assert status == 404
    assert "<script>" not in body


def test_the_list_holds_what_the_store_holds(viewer: Served, store_path: Path) -> None:
    with ReadOnlyStore(store_path) as store:
        stored = {row.id for row in store.list_debates(100)}
    _, _, body = _get(viewer, "/", f"127.0.0.1:{_port(viewer)}")
    assert _listed(body) == stored == set(RUNS)


def _listed(body: str) -> set[str]:
    """The runs the list shows (not the ones the comparison form offers)."""
    return {
        a["href"].removeprefix("/runs/")
        for a in Elements(body).tags("a")
        if "run-link" in a.get("class", "")
    }


def test_search_and_filters_narrow_the_list(viewer: Served) -> None:
    host = f"127.0.0.1:{_port(viewer)}"
    assert _listed(_get(viewer, "/?q=rust", host)[2]) == {"plain-run"}
    assert _listed(_get(viewer, "/?q=%E6%B5%B7%E5%8D%97", host)[2]) == {"zh-run"}  # 海南
    assert _listed(_get(viewer, "/?q=scripted%3Ademo", host)[2]) == set(RUNS)  # a model
    assert _listed(_get(viewer, "/?status=failed", host)[2]) == set()
    structured = set(RUNS) - {"ff-run", "damaged-run"}
    assert _listed(_get(viewer, "/?status=done&format=structured", host)[2]) == structured
    assert _listed(_get(viewer, "/?format=freeform", host)[2]) == {"ff-run", "damaged-run"}
    assert _listed(_get(viewer, "/?q=winter", host)[2]) == {"ff-run"}
    ignored = _get(viewer, "/?status=%3Cb%3E&format=nonesuch", host)[2]
    assert _listed(ignored) == set(RUNS)


def test_the_read_only_store_refuses_writes(store_path: Path, tmp_path: Path) -> None:
    with ReadOnlyStore(store_path) as store:
        with pytest.raises(ConfigError, match="read-only"):
            store.set_status("plain-run", "failed")
        with pytest.raises(ConfigError, match="read-only"):
            store.delete_debate("plain-run")
        row = store.get_debate("plain-run")
        assert row is not None
        assert row.status == "done"
    with pytest.raises(ConfigError, match="no run store at"):
        ReadOnlyStore(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()


def test_head_is_answered_without_a_body(viewer: Served) -> None:
    status, headers, body = _get(viewer, "/runs/panel-run", f"127.0.0.1:{_port(viewer)}", "HEAD")
    assert status == 200
    assert body == ""
    assert headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in headers["content-security-policy"]


def test_the_list_reads_v2_runs(viewer: Served) -> None:
    """Each run's language (stored in its options) and its verdict line, every position
    with its total."""
    _, _, body = _get(viewer, "/", f"127.0.0.1:{_port(viewer)}")
    text = Elements(body).all_text
    assert "Chinese" in text
    for place in PLACES:
        assert place in text


def test_the_live_page_counts_the_calls_of_each_format(viewer: Served, store_path: Path) -> None:
    host = f"127.0.0.1:{_port(viewer)}"
    with ReadOnlyStore(store_path) as store:
        for run in ("ff-run", "panel-run", "plain-run"):
            row = store.get_debate(run)
            assert row is not None
            calls = store.calls(run)
            valid = [c for c in calls if c.validation == "ok"]
            expected = expected_calls(row.format, row.config)
            assert expected is not None
            assert expected <= len(valid)  # a detector's re-ask of a speech is one more
            assert planned_calls(calls) == expected  # ... which is not counted as progress
            status, _, body = _get(viewer, f"/runs/{run}/live", host)
            assert status == 200
            text = " ".join(Elements(body).all_text.split())
            assert f"{expected} / {expected}" in text
    _, _, body = _get(viewer, "/runs/ff-run/live", host)
    text = Elements(body).all_text
    for step in ("Round 1", "Round 2", "Round 3", "Judgement", "Topic classification"):
        assert step in text


def test_a_damaged_stored_result_is_shown_as_unreadable(viewer: Served) -> None:
    status, _, body = _get(viewer, "/runs/damaged-run", f"127.0.0.1:{_port(viewer)}")
    assert status == 200
    text = " ".join(Elements(body).all_text.split())
    assert "cannot be read by this version of moot" in text
    assert "the freeform payload of this result cannot be read" in text
