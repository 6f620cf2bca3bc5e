"""The store on a real PostgreSQL (Debian's, started by tests/pg_server.py on
127.0.0.1): the same store API as SQLite, migrations from one list, row-locked claims,
idempotent journal writes, the source search, ``moot store copy`` both ways for every
format, the viewer, and the bad-input paths (a password in the URL, an unreachable
server, a newer schema)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from itertools import count
from pathlib import Path
from typing import Any

import psycopg
import pytest

from competitive_checks import SMALL
from moot.debate import run_debate
from moot.errors import ConfigError
from moot.sources.retrieval import fts_query
from moot.store import MIGRATIONS, Store
from moot.store import connection as store_connection
from moot.store import runs as store_runs
from moot.store.connection import Connection
from moot.store.copy import CALL_COLUMNS, DEBATE_COLUMNS, JUDGE_COLUMNS, WHOLE_TABLES
from moot.store.sources import StoredPassage
from pg_server import PgServer, pg_server

pytestmark = [pytest.mark.server, pytest.mark.process]

ROOT = Path(__file__).resolve().parent.parent
CHILD = Path(__file__).with_name("durable_child.py")
TOPIC = "Should a 10-person startup adopt microservices from day one?"
_names = count()


@pytest.fixture(scope="module")
def server() -> Iterator[PgServer]:
    with pg_server() as running:
        yield running


@pytest.fixture
def url(server: PgServer) -> str:
    """A fresh database of the test's own."""
    return server.create_database(f"t{os.getpid()}_{next(_names)}")


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **extra}
    env.pop("MOOT_DEBUG", None)
    return env


def _moot(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "moot", *args],
        capture_output=True,
        text=True,
        env=_env(**env),
        timeout=600,
        check=False,
    )


def _record(store: Store, debate_id: str, key: str | None = None, **extra: Any) -> int:
    return store.record_call(
        debate_id,
        role="pro",
        round="opening",
        side="pro",
        attempt=1,
        model="scripted:demo",
        request_hash="h",
        messages=[{"role": "user", "content": "100% sure? 论点"}],
        schema_name=None,
        reply="reply",
        finish_reason="stop",
        prompt_tokens=3,
        completion_tokens=4,
        latency_ms=1.5,
        error=None,
        cost_usd=0.5,
        call_key=key,
        **extra,
    )


def test_the_store_api_works_on_postgres(url: str) -> None:
    with Store(url) as store:
        assert [name for name, _ in store.migrations()] == [name for name, _ in MIGRATIONS]
        store.create_debate("d", topic="t", format="structured", config={"a": 1}, models={})
        flight = store.start_call(
            "d", role="pro", round="opening", side="pro", attempt=1, model="m"
        )
        assert [f.id for f in store.calls_in_flight("d")] == [flight]
        first = _record(store, "d", in_flight=flight)
        second = _record(store, "d")
        assert store.calls_in_flight("d") == []
        assert [c.seq for c in store.calls("d")] == [1, 2]
        assert [c.id for c in store.calls("d")] == [first, second]
        assert store.calls("d")[0].messages == [{"role": "user", "content": "100% sure? 论点"}]
        row = store.get_debate("d")
        assert row is not None
        assert (row.calls, row.prompt_tokens, row.completion_tokens, row.cost_usd) == (2, 6, 8, 1.0)
        store.set_status("d", "done", result_json="{}")
        assert store.finished_results("structured") == [("d", "{}")]
        store.cache_put("k", model="m", value={"v": "值"})
        assert store.cache_get("k") == {"v": "值"}
        assert store.cache_stats() == {
            "entries": 1,
            "hits": 1,
            "bytes": len('{"v": "值"}'.encode()),
        }
        store.record_judge_outcome("j", "d", True)
        store.record_judge_outcome("j", "d", False)
        assert store.judge_accuracy("j") == (1, 2)
        assert store.delete_debate("d")
        assert store.calls("d") == []


def test_a_journal_write_retried_after_its_commit_was_lost_is_not_written_twice(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store(url) as store:
        store.create_debate("d", topic="t", format="structured", config={}, models={})
        conn = store._conn
        real = conn.execute
        lost: list[str] = []

        def execute(sql: str, parameters: Any = (), /) -> Any:
            cursor = real(sql, parameters)
            if sql == "COMMIT" and not lost:
                lost.append(sql)  # committed, then the connection drops before the answer
                conn._pg.close()  # type: ignore[attr-defined]
                raise psycopg.OperationalError("server closed the connection unexpectedly")
            return cursor

        monkeypatch.setattr(conn, "execute", execute)
        call_id = _record(store, "d", key="k1")
        assert lost == ["COMMIT"]
        monkeypatch.undo()
        calls = store.calls("d")
        assert [(c.id, c.seq) for c in calls] == [(call_id, 1)]
        row = store.get_debate("d")
        assert row is not None
        assert row.cost_usd == 0.5  # the usage was added once


def test_two_claims_of_one_run_at_once_one_is_refused(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The claim reads and sets the run's owner under a row lock: the second claim waits
    for the first and sees it. Without ``FOR UPDATE`` both read the run as resumable
    and both would resume it."""
    alive = f"{socket.gethostname()}:1"  # pid 1 is alive, and is not this process
    monkeypatch.setattr(store_runs, "this_process", lambda: alive)
    real_now = store_connection.now
    slow = threading.get_ident

    with Store(url) as first, Store(url) as second:
        first.create_debate("r", topic="t", format="structured", config={}, models={})
        first.set_status("r", "interrupted")
        claimer = {"thread": -1}

        def now() -> str:
            if slow() == claimer["thread"]:
                time.sleep(0.6)  # the first claim holds its transaction open a while
            return real_now()

        monkeypatch.setattr(store_runs, "now", now)
        outcome: list[str] = []

        def claim_first() -> None:
            claimer["thread"] = threading.get_ident()
            first.claim("r")
            outcome.append("first")

        thread = threading.Thread(target=claim_first)
        thread.start()
        time.sleep(0.2)
        with pytest.raises(ConfigError, match="still running"):
            second.claim("r")
        thread.join()
        assert outcome == ["first"]


def test_two_moot_resume_of_one_run_exactly_one_runs(url: str) -> None:
    env = {"MOOT_STORE": url, "MOOT_CHILD_MODEL": "scripted:demo?latency_ms=1500"}
    killed = subprocess.run(
        [sys.executable, str(CHILD), "run", "twice", "3", "KILL"],
        env=_env(**env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert killed.returncode == -9
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "moot", "resume", "twice", "--quiet"],
            env=_env(**env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    done = [(p.wait(timeout=600), p.communicate()[1]) for p in procs]
    codes = sorted(code for code, _ in done)
    assert codes == [0, 2], done
    loser = next(err for code, err in done if code == 2)
    assert "still running" in loser
    with Store(url) as store:
        row = store.get_debate("twice")
        assert row is not None
        assert row.status == "done"
        seqs = [c.seq for c in store.calls("twice")]
        assert seqs == list(range(1, len(seqs) + 1))


def test_migrations_come_from_one_list_and_a_newer_schema_is_refused(url: str) -> None:
    with Store(url) as store:
        store._write(
            lambda conn: conn.execute(
                "INSERT INTO migrations (name, applied_at) VALUES ('9999_future', 'x')"
            )
        )
    with pytest.raises(ConfigError, match=r"newer moot.*9999_future"):
        Store(url)
    result = _moot("--store", url, "store", "migrate")
    assert result.returncode == 2
    assert "9999_future" in result.stderr


def test_moot_store_migrate_lists_every_migration(url: str) -> None:
    result = _moot("--store", url, "store", "migrate")
    assert result.returncode == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()[:-1]] == [
        name for name, _ in MIGRATIONS
    ]


def test_an_unreachable_server_is_exit_2_naming_the_host_never_the_password() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once we leave: nothing listens there
    secret = "s3cret-pw-x"  # noqa: S105 (the test checks it is never shown)
    result = _moot("--store", f"postgresql://moot@127.0.0.1:{port}/db", "list", PGPASSWORD=secret)
    assert result.returncode == 2
    assert f"127.0.0.1:{port}" in result.stderr
    assert secret not in result.stderr + result.stdout
    with_password = _moot("--store", f"postgresql://moot:{secret}@127.0.0.1:{port}/db", "list")
    assert with_password.returncode == 2
    assert "PGPASSWORD" in with_password.stderr
    assert secret not in with_password.stderr + with_password.stdout


def test_moot_doctor_checks_a_postgres_store(server: PgServer, url: str) -> None:
    """``moot doctor`` on a PostgreSQL store: the server (named without a password), its
    version, the schema, the time a read takes; a warning without pg_trgm; a failure
    with the fix when the server cannot be reached, the password never shown."""
    secret = "s3cret-doctor"  # noqa: S105 (the test checks it is never shown)
    done = _moot("--store", url, "doctor", "--model", "scripted:demo", PGPASSWORD=secret)
    assert done.returncode == 0, done.stdout + done.stderr
    latest = MIGRATIONS[-1][0]
    line = next(x for x in done.stdout.splitlines() if "run store" in x)
    assert line.startswith(f"[ok  ] run store: {url} (PostgreSQL {server.bin_dir.parent.name}.")
    assert f"schema {latest}, {len(MIGRATIONS)} migrations, a read " in line
    assert "source search" not in done.stdout
    server.psql("DROP EXTENSION pg_trgm CASCADE", database=url.rpartition("/")[2])
    without = _moot("--store", url, "doctor", "--model", "scripted:demo")
    assert without.returncode == 0, without.stdout + without.stderr
    assert "[warn] source search: " in without.stdout
    assert "CREATE EXTENSION pg_trgm" in without.stdout
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once we leave: nothing listens there
    gone = f"postgresql://moot@127.0.0.1:{port}/db"
    failed = _moot("--store", gone, "doctor", "--model", "scripted:demo", PGPASSWORD=secret)
    assert failed.returncode == 1
    assert f"[fail] run store: {gone}: " in failed.stdout
    assert "PGPASSWORD or ~/.pgpass" in failed.stdout
    assert secret not in failed.stdout + failed.stderr


def _docs(store: Store) -> list[str]:
    english = [
        "The billing service retries a failed charge three times before it gives up.",
        "Invoices are emailed on the first day of each month; refunds take ten days.",
        "Microservices add operational cost: deployment, tracing and on-call rotation.",
        "Clearance: 100% off_sale items only.",
        "A decoy: offXsale and 1000 items (a LIKE wildcard left unescaped finds it).",
    ]
    chinese = ["会议纪要：下季度预算增加百分之十。", "产品路线图在会议上获得批准。"]
    store.source_add(
        "en", "text", "billing", [StoredPassage(n, t, None, n, n) for n, t in enumerate(english)]
    )
    store.source_add(
        "zh", "text", "会议", [StoredPassage(n, t, None, n, n) for n, t in enumerate(chinese)]
    )
    return ["en", "zh"]


@pytest.mark.parametrize(
    "query",
    [
        "How many times are failed charges retried?",
        "What does the on-call rotation of microservices cost?",
        "会议纪要 预算",
        "路线图批准",
        "nothing matches zzzq",
        "100% off_sale",
    ],
)
def test_the_source_search_finds_on_postgres_what_fts5_finds(
    url: str, tmp_path: Path, query: str
) -> None:
    with Store(url) as pg, Store(tmp_path / "moot.db") as lite:
        shas = _docs(pg)
        _docs(lite)
        match = fts_query(query)
        on_pg = pg.source_search(shas, match, 20)
        on_lite = lite.source_search(shas, match, 20)
    assert {(s, n) for s, n, _ in on_pg} == {(s, n) for s, n, _ in on_lite}
    if "zzzq" not in query:
        assert on_pg  # the queries above do find passages


@pytest.mark.parametrize(
    ("match", "finds"), [('"off_sale"', True), ('"100%"', True), ('"of" OR "纪要"', False)]
)
def test_like_wildcards_in_a_term_are_taken_literally(
    url: str, tmp_path: Path, match: str, finds: bool
) -> None:
    """Terms with LIKE's wildcards find what FTS5 finds; terms shorter than a trigram
    find nothing on either engine."""
    with Store(url) as pg, Store(tmp_path / "moot.db") as lite:
        shas = _docs(pg)
        _docs(lite)
        on_pg = {(s, n) for s, n, _ in pg.source_search(shas, match, 20)}
        on_lite = {(s, n) for s, n, _ in lite.source_search(shas, match, 20)}
    assert on_pg == on_lite
    assert bool(on_pg) == finds  # the passage that holds it, and no decoy


FORMATS: dict[str, dict[str, Any]] = {
    "structured": {},
    "freeform": {},
    "competitive": {"format_options": SMALL},
    "market": {"format_options": {"kb": "demo"}},
}


def _dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every copied column of every run, call, judge outcome and whole table."""
    # the store's own constant column lists
    queries = {
        "debates": f"SELECT {DEBATE_COLUMNS} FROM debates ORDER BY id",  # noqa: S608
        "calls": f"SELECT {CALL_COLUMNS} FROM calls ORDER BY debate_id, seq",  # noqa: S608
        "judge_history": f"SELECT {JUDGE_COLUMNS} FROM judge_history"  # noqa: S608
        " ORDER BY judge_name, debate_id, recorded_at",
        **{
            table: f"SELECT {columns} FROM {table} ORDER BY {columns}"  # noqa: S608
            for table, columns in WHOLE_TABLES
        },
    }
    return {name: store._read(partial(_all_rows, sql=sql)) for name, sql in queries.items()}


def _all_rows(conn: Connection, sql: str) -> list[tuple[Any, ...]]:
    return [
        tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)
        for row in conn.execute(sql).fetchall()
    ]


def test_store_copy_round_trips_every_format(url: str, tmp_path: Path) -> None:
    from moot.formats import formats

    assert set(FORMATS) == {f.name for f in formats()}  # a new format joins this test
    source = tmp_path / "source.db"
    with Store(source) as store:
        for name, options in FORMATS.items():
            run_debate(
                TOPIC,
                model="scripted:demo",
                seed=3,
                format=name,
                store=store,
                debate_id=f"run-{name}",
                **options,
            )
        store.record_judge_outcome("general@scripted:demo", "run-structured", True)
        store.cache_put("extra", model="m", value={"x": [1, 2.5, None]})
        _docs(store)
        store.source_keep_vectors("en", "use", {0: b"\x00\x01\xff"})
        before = _dump(store)
    assert len(before["debates"]) == len(FORMATS)
    assert before["calls"]
    there = _moot("store", "copy", str(source), url)
    assert there.returncode == 0, there.stderr
    assert f"copied {len(FORMATS)} runs" in there.stdout
    back_path = tmp_path / "back.db"
    back = _moot("store", "copy", url, str(back_path))
    assert back.returncode == 0, back.stderr
    with Store(url) as pg, Store(back_path) as lite:
        assert _dump(pg) == before
        assert _dump(lite) == before
        assert lite.source_search(["en", "zh"], fts_query("会议纪要"), 5)  # FTS5 re-indexed
    again = _moot("store", "copy", str(source), url)
    assert "copied 0 runs" in again.stdout  # a second copy skips what is there
    for name in FORMATS:
        exported = _moot("--store", url, "export", f"run-{name}", "--format", "json")
        assert exported.returncode == 0, exported.stderr
        original = _moot("--store", str(source), "export", f"run-{name}", "--format", "json")
        assert json.loads(exported.stdout) == json.loads(original.stdout)


def test_the_viewer_serves_the_postgres_store(url: str) -> None:
    from starlette.testclient import TestClient

    from moot.view import create_app

    with Store(url) as store:
        run_debate(TOPIC, model="scripted:demo", seed=3, store=store, debate_id="viewed")
    app = create_app(url, host="127.0.0.1", port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        listing = client.get("/")
        assert listing.status_code == 200
        assert "viewed" in listing.text
        page = client.get("/runs/viewed")
        assert page.status_code == 200
        assert "microservices" in page.text
