"""The SQLite store: migrations, debates, the call journal, the cache, and many writers."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from moot import store as store_module
from moot.errors import ConfigError
from moot.store import STATUSES, Store, default_path
from moot.store import migrations as migrations_module

ROOT = Path(__file__).resolve().parent.parent


def open_store(tmp_path: Path) -> Store:
    return Store(tmp_path / "moot.db")


def record(store: Store, debate_id: str, **overrides: Any) -> int:
    fields: dict[str, Any] = {
        "role": "pro",
        "round": "opening",
        "side": "pro",
        "attempt": 1,
        "model": "scripted:demo",
        "request_hash": "h",
        "messages": [{"role": "user", "content": "論點 please"}],
        "schema_name": "Opening",
        "reply": '{"ok": true}',
        "finish_reason": "stop",
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "latency_ms": 1.5,
        "error": None,
    }
    fields.update(overrides)
    return store.record_call(debate_id, **fields)


def raw_rows(path: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.execute(sql, params).fetchall())
    finally:
        conn.close()


# -- location and migrations ------------------------------------------------------


def test_default_path_honours_moot_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MOOT_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / "moot.db"
    with Store() as store:
        assert store.path == tmp_path / "home" / "moot.db"
    assert (tmp_path / "home" / "moot.db").is_file()


def test_default_path_without_moot_home_is_the_user_data_dir(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MOOT_HOME", raising=False)
    path = default_path()
    assert path.name == "moot.db"
    assert path.parent.name == "moot"


def test_open_creates_parent_directories_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "moot.db"
    with Store(path) as store:
        assert store.path == path
    assert raw_rows(path, "PRAGMA journal_mode") == [("wal",)]


def test_migrations_are_recorded_in_order_and_applied_once(tmp_path: Path) -> None:
    names = [name for name, _ in store_module.MIGRATIONS]
    assert names == [
        "0001_initial",
        "0002_judge_history",
        "0003_run_owner",
        "0004_call_structured_mode",
        "0005_calls_in_flight",
        "0006_source_index",
        "0007_call_key",
    ]
    with open_store(tmp_path) as store:
        first = store.migrations()
    assert [name for name, _ in first] == names
    tables = {row[0] for row in raw_rows(tmp_path / "moot.db", "SELECT name FROM sqlite_master")}
    assert {"migrations", "debates", "calls", "cache", "judge_history"} <= tables
    with open_store(tmp_path) as store:
        assert store.migrations() == first  # same rows, same applied_at: nothing re-applied


def test_reopening_applies_only_new_migrations(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with open_store(tmp_path) as store:
        before = store.migrations()
    applied: list[str] = []

    def add_column(conn: sqlite3.Connection) -> None:
        applied.append("0003")
        conn.execute("ALTER TABLE judge_history ADD COLUMN note TEXT")

    extra = [("0099_note", add_column)]
    monkeypatch.setattr(migrations_module, "MIGRATIONS", [*store_module.MIGRATIONS, *extra])
    with open_store(tmp_path) as store:
        after = store.migrations()
    with open_store(tmp_path) as store:
        assert store.migrations() == after
    assert applied == ["0003"]
    assert after[:-1] == before
    assert [name for name, _ in after] == [
        "0001_initial",
        "0002_judge_history",
        "0003_run_owner",
        "0004_call_structured_mode",
        "0005_calls_in_flight",
        "0006_source_index",
        "0007_call_key",
        "0099_note",
    ]


def test_a_failing_migration_leaves_nothing_behind(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with open_store(tmp_path):
        pass

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half (x INTEGER)")
        conn.execute("THIS IS NOT SQL")

    monkeypatch.setattr(
        migrations_module, "MIGRATIONS", [*store_module.MIGRATIONS, ("0003_broken", broken)]
    )
    with pytest.raises(sqlite3.OperationalError):
        open_store(tmp_path)
    tables = {row[0] for row in raw_rows(tmp_path / "moot.db", "SELECT name FROM sqlite_master")}
    assert "half" not in tables
    names = [row[0] for row in raw_rows(tmp_path / "moot.db", "SELECT name FROM migrations")]
    assert "0003_broken" not in names


def test_a_database_from_a_newer_moot_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def future(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE future (x INTEGER)")

    monkeypatch.setattr(
        migrations_module, "MIGRATIONS", [*store_module.MIGRATIONS, ("0099_future", future)]
    )
    with open_store(tmp_path):
        pass
    monkeypatch.undo()
    with pytest.raises(ConfigError, match="newer moot"):
        open_store(tmp_path)


# -- debates ----------------------------------------------------------------------


def test_debate_lifecycle(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.create_debate(
            "d1",
            topic="远程办公是否提高效率？",
            format="structured",
            config={"lang": "zh", "max_cost": 1.5},
            models={"pro": "scripted:demo", "con": "scripted:demo"},
        )
        row = store.get_debate("d1")
        assert row is not None
        assert row.status == "running"
        assert row.topic == "远程办公是否提高效率？"
        assert row.config == {"lang": "zh", "max_cost": 1.5}
        assert row.models == {"pro": "scripted:demo", "con": "scripted:demo"}
        assert (row.result_json, row.error) == (None, None)
        assert (row.prompt_tokens, row.completion_tokens, row.cost_usd, row.calls) == (0, 0, 0, 0)
        assert row.created_at.endswith("+00:00")
        assert row.created_at == row.updated_at

        store.add_usage("d1", prompt_tokens=100, completion_tokens=20, cost_usd=0.25)
        store.add_usage("d1", prompt_tokens=1, completion_tokens=2, cost_usd=0.5)
        record(store, "d1")
        store.set_status("d1", "failed", error="boom")
        row = store.get_debate("d1")
        assert row is not None
        assert (row.status, row.error) == ("failed", "boom")
        assert (row.prompt_tokens, row.completion_tokens) == (101, 22)
        assert row.cost_usd == pytest.approx(0.75)
        assert row.calls == 1
        assert row.updated_at > row.created_at

        store.update_config("d1", {"lang": "zh", "max_cost": 5.0})
        store.set_status("d1", "running")
        store.set_status("d1", "done", result_json='{"winner": "pro"}')
        row = store.get_debate("d1")
        assert row is not None
        assert row.config == {"lang": "zh", "max_cost": 5.0}
        assert (row.status, row.result_json, row.error) == ("done", '{"winner": "pro"}', None)

        assert store.get_debate("missing") is None


def test_create_debate_refuses_an_existing_id(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.create_debate("d1", topic="t", format="f", config={}, models={})
        with pytest.raises(ConfigError, match="already exists"):
            store.create_debate("d1", topic="other", format="f", config={}, models={})
        row = store.get_debate("d1")
        assert row is not None
        assert row.topic == "t"


def test_statuses_are_validated(tmp_path: Path) -> None:
    assert STATUSES == ("running", "done", "failed", "interrupted", "budget_exceeded")
    with open_store(tmp_path) as store:
        store.create_debate("d1", topic="t", format="f", config={}, models={})
        for status in STATUSES:
            store.set_status("d1", status)
            row = store.get_debate("d1")
            assert row is not None
            assert row.status == status
        with pytest.raises(ConfigError, match="unknown debate status"):
            store.set_status("d1", "finished")
        with pytest.raises(ConfigError, match="no debate"):
            store.set_status("nope", "done")
        with pytest.raises(ConfigError, match="no debate"):
            store.add_usage("nope", prompt_tokens=1, completion_tokens=1, cost_usd=0.0)
        with pytest.raises(ConfigError, match="no debate"):
            store.update_config("nope", {})
        with pytest.raises(ConfigError, match="no debate"):
            record(store, "nope")


def test_list_debates_newest_first_with_limit(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        for index in range(5):
            store.create_debate(f"d{index}", topic=f"t{index}", format="f", config={}, models={})
        assert [row.id for row in store.list_debates()] == ["d4", "d3", "d2", "d1", "d0"]
        assert [row.id for row in store.list_debates(limit=2)] == ["d4", "d3"]
        assert store.list_debates(limit=0) == []


def test_delete_debate_cascades_to_its_calls(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        for debate_id in ("keep", "drop"):
            store.create_debate(debate_id, topic="t", format="f", config={}, models={})
            for _ in range(3):
                record(store, debate_id)
        assert store.delete_debate("drop") is True
        assert store.delete_debate("drop") is False
        assert store.get_debate("drop") is None
        assert store.calls("drop") == []
        assert len(store.calls("keep")) == 3
    counts = raw_rows(
        tmp_path / "moot.db", "SELECT debate_id, COUNT(*) FROM calls GROUP BY debate_id"
    )
    assert counts == [("keep", 3)]


# -- journal ----------------------------------------------------------------------


def test_journal_seq_order_completed_calls_and_validation(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.create_debate("a", topic="t", format="f", config={}, models={})
        store.create_debate("b", topic="t", format="f", config={}, models={})
        first = record(store, "a", request_hash="h1")
        record(store, "b")  # another debate's calls do not disturb a's numbering
        failed = record(store, "a", request_hash="h2", reply=None, error="HTTP 503")
        retried = record(store, "a", request_hash="h2", attempt=2, source="cache")
        record(store, "a", request_hash="h3", reply=None, finish_reason=None)

        calls = store.calls("a")
        assert [call.seq for call in calls] == [1, 2, 3, 4]
        assert [call.id for call in calls[:3]] == [first, failed, retried]
        assert [call.seq for call in store.calls("b")] == [1]
        call = calls[0]
        assert call.debate_id == "a"
        assert call.messages == [{"role": "user", "content": "論點 please"}]
        assert (call.role, call.round, call.side, call.attempt) == ("pro", "opening", "pro", 1)
        assert (call.model, call.schema_name, call.finish_reason) == (
            "scripted:demo",
            "Opening",
            "stop",
        )
        assert (call.prompt_tokens, call.completion_tokens, call.latency_ms) == (10, 5, 1.5)
        assert (call.validation, call.problems, call.source) == (None, [], "live")
        assert calls[2].source == "cache"

        completed = store.completed_calls("a")
        assert [c.id for c in completed] == [first, retried]

        store.set_validation(first, "invalid", ["missing field: claim", "缺少证据"])
        store.set_validation(retried, "ok", [])
        by_id = {c.id: c for c in store.calls("a")}
        assert (by_id[first].validation, by_id[first].problems) == (
            "invalid",
            ["missing field: claim", "缺少证据"],
        )
        assert (by_id[retried].validation, by_id[retried].problems) == ("ok", [])

        with pytest.raises(ConfigError):
            store.set_validation(first, "maybe", [])
        with pytest.raises(ConfigError):
            store.set_validation(10_000, "ok", [])
        with pytest.raises(ConfigError):
            record(store, "a", source="replay")

    raw = raw_rows(tmp_path / "moot.db", "SELECT messages FROM calls WHERE id = ?", first)
    assert raw == [('[{"role": "user", "content": "論點 please"}]',)]


def test_threads_sharing_one_store_get_distinct_seqs(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.create_debate("d", topic="t", format="f", config={}, models={})
        errors: list[BaseException] = []

        def work() -> None:
            try:
                for _ in range(25):
                    record(store, "d")
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert [call.seq for call in store.calls("d")] == list(range(1, 101))


# -- cache ------------------------------------------------------------------------


def test_cache_get_put_hits_stats_clear(tmp_path: Path) -> None:
    value = {"content": "支持 — yes", "usage": {"prompt_tokens": 3}, "finish_reason": "stop"}
    with open_store(tmp_path) as store:
        assert store.cache_stats() == {"entries": 0, "hits": 0, "bytes": 0}
        assert store.cache_get("k1") is None
        store.cache_put("k1", model="scripted:demo", value=value)
        store.cache_put("k2", model="scripted:demo", value={"content": "x"})
        assert store.cache_get("k1") == value
        assert store.cache_get("k1") == value
        assert store.cache_get("k2") == {"content": "x"}
        assert store.cache_get("missing") is None
        stats = store.cache_stats()
        assert (stats["entries"], stats["hits"]) == (2, 3)
        raw = raw_rows(tmp_path / "moot.db", "SELECT key, model, value, hits FROM cache")
        by_key = {row[0]: row for row in raw}
        assert by_key["k1"][1] == "scripted:demo"
        assert isinstance(by_key["k1"][2], str)  # JSON text, not a pickle blob
        assert json.loads(by_key["k1"][2]) == value
        assert "支持" in by_key["k1"][2]  # ensure_ascii=False
        assert by_key["k1"][3] == 2
        expected_bytes = sum(len(row[2].encode("utf-8")) for row in raw)
        assert stats["bytes"] == expected_bytes

        store.cache_put("k1", model="other", value={"content": "replaced"})
        assert store.cache_get("k1") == {"content": "replaced"}
        assert store.cache_stats()["entries"] == 2

        assert store.cache_clear() == 2
        assert store.cache_stats() == {"entries": 0, "hits": 0, "bytes": 0}
        assert store.cache_get("k1") is None
        assert store.cache_clear() == 0


def test_cache_values_must_be_json(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        with pytest.raises(ConfigError, match="JSON"):
            store.cache_put("k", model="m", value={"bad": object()})
        assert store.cache_stats()["entries"] == 0


# -- many processes, one database (issue 3, item 8) --------------------------------

PROCESSES = 20
CALLS_PER_DEBATE = 30

CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from moot.store import Store

    db, go, name, calls = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    print("ready", flush=True)
    deadline = time.monotonic() + 120
    while not go.exists():
        if time.monotonic() > deadline:
            raise SystemExit("never told to go")
        time.sleep(0.005)
    with Store(db) as store:  # concurrent first opens: migrations race here
        store.create_debate(name, topic="t " + name, format="structured",
                            config={"n": calls}, models={"pro": "scripted:demo"})
        for i in range(calls):
            call_id = store.record_call(
                name, role="pro", round="opening", side="pro", attempt=1,
                model="scripted:demo", request_hash=f"{name}-{i}",
                messages=[{"role": "user", "content": str(i)}], schema_name=None,
                reply="r" + str(i), finish_reason="stop", prompt_tokens=2,
                completion_tokens=1, latency_ms=0.1, error=None)
            store.set_validation(call_id, "ok", [])
            store.add_usage(name, prompt_tokens=2, completion_tokens=1, cost_usd=0.001)
            if i % 10 == 0:
                store.cache_put(f"{name}-{i}", model="scripted:demo", value={"i": i})
                assert store.cache_get(f"{name}-{i}") == {"i": i}
        store.set_status(name, "done", result_json='{"ok": true}')
    print("done", flush=True)
    """
)


@pytest.mark.process
def test_twenty_processes_write_one_database_at_once(tmp_path: Path) -> None:
    db = tmp_path / "shared" / "moot.db"
    go = tmp_path / "go"
    env_path = str(ROOT / "src")
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db), str(go), f"p{n:02d}", str(CALLS_PER_DEBATE)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": env_path},
        )
        for n in range(PROCESSES)
    ]
    try:
        for child in children:  # every child imported moot and waits at the barrier
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready"
        started = time.monotonic()
        go.touch()
        outputs = [child.communicate(timeout=120) for child in children]
    finally:
        for child in children:
            if child.poll() is None:  # pragma: no cover - only on a timeout
                child.kill()
                child.communicate()
    elapsed = time.monotonic() - started
    for child, (out, err) in zip(children, outputs, strict=True):
        assert "locked" not in err, err
        assert child.returncode == 0, err
        assert out.strip() == "done", out + err

    path = db
    assert raw_rows(path, "SELECT COUNT(*) FROM debates") == [(PROCESSES,)]
    assert raw_rows(path, "SELECT COUNT(*) FROM calls") == [(PROCESSES * CALLS_PER_DEBATE,)]
    assert raw_rows(path, "SELECT COUNT(*) FROM migrations") == [(len(store_module.MIGRATIONS),)]
    with Store(path) as store:
        debates = store.list_debates(limit=100)
        assert len(debates) == PROCESSES
        for debate in debates:
            assert debate.status == "done"
            assert debate.calls == CALLS_PER_DEBATE
            assert debate.prompt_tokens == 2 * CALLS_PER_DEBATE
            assert debate.completion_tokens == CALLS_PER_DEBATE
            calls = store.calls(debate.id)
            assert [call.seq for call in calls] == list(range(1, CALLS_PER_DEBATE + 1))
            assert [call.request_hash for call in calls] == [
                f"{debate.id}-{i}" for i in range(CALLS_PER_DEBATE)
            ]
            assert all(call.validation == "ok" for call in calls)
        stats = store.cache_stats()
        assert stats["entries"] == PROCESSES * 3
        assert stats["hits"] == PROCESSES * 3
    assert elapsed < 60, f"the 20 writers took {elapsed:.1f} s"


def test_a_database_from_an_older_version_gets_only_the_new_migrations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(migrations_module, "MIGRATIONS", store_module.MIGRATIONS[:2])
    with open_store(tmp_path) as store:
        before = store.migrations()
    with sqlite3.connect(tmp_path / "moot.db") as conn:  # a row written by that version
        conn.execute(
            "INSERT INTO debates (id, topic, format, status, config, models, created_at,"
            " updated_at) VALUES ('old', 't', 'structured', 'done', '{}', '{}', 'x', 'x')"
        )
    monkeypatch.undo()
    with open_store(tmp_path) as store:
        after = store.migrations()
        assert after[:2] == before
        assert [name for name, _ in after][2:] == [
            "0003_run_owner",
            "0004_call_structured_mode",
            "0005_calls_in_flight",
            "0006_source_index",
            "0007_call_key",
        ]
        row = store.get_debate("old")
        assert row is not None
        assert row.owner is None  # the new column exists; old rows have no owner


@pytest.mark.process
def test_claim_refuses_a_run_alive_in_another_process(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.create_debate("r", topic="t", format="structured", config={}, models={})
        row = store.get_debate("r")
        assert row is not None
        assert row.owner == store_module.this_process()
        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            alive = f"{socket.gethostname()}:{sleeper.pid}"
            with store._lock:
                store._conn.execute("UPDATE debates SET owner = ? WHERE id = 'r'", (alive,))
            with pytest.raises(ConfigError, match="still running"):
                store.claim("r")
            store.claim("r", force=True)
        finally:
            sleeper.kill()
            sleeper.wait()
        dead = f"{socket.gethostname()}:{sleeper.pid}"
        with store._lock:
            store._conn.execute("UPDATE debates SET owner = ? WHERE id = 'r'", (dead,))
        store.claim("r")  # its owner is gone: resumable
        row = store.get_debate("r")
        assert row is not None
        assert row.owner == store_module.this_process()


# -- databases written by earlier versions ------------------------------------------

OLD_DB = ROOT / "tests" / "data" / "store_d7f6093.db"
"""A store written by ``moot.store`` as it was at commit d7f6093 (one module, before
it became a package): every migration through 0004, a finished debate with one
journaled call (its usage, validation and structured-mode fallback), a cache entry
and a judge-history row. Made with that commit's ``src/moot/store.py``
(``git show d7f6093:src/moot/store.py``), then checkpointed and vacuumed."""


def _schema(path: Path) -> list[tuple[Any, ...]]:
    return raw_rows(path, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")


AFTER_THE_SINGLE_MODULE = ("0005_calls_in_flight", "0006_source_index", "0007_call_key")
"""Migrations added since the single module wrote ``OLD_DB``."""
ADDED_OBJECTS = frozenset({"calls_in_flight", "calls_in_flight_debate", "calls_key"})
"""The tables and indexes of ``0005_calls_in_flight`` and ``0007_call_key``; those of
``0006_source_index`` (its tables, their FTS5 shadow tables and indexes) are all named
``source_...``."""
ADDED_COLUMN = ", call_key TEXT)"
"""What ``0007_call_key`` appends to the ``calls`` table's SQL (ALTER TABLE ADD COLUMN)."""


def _added(row: tuple[Any, ...]) -> bool:
    return row[1] in ADDED_OBJECTS or str(row[2]).startswith("source_")


def _old_schema(path: Path) -> list[tuple[Any, ...]]:
    """The schema without what migrations added since the single module (the calls
    table's SQL without the column added to it)."""
    rows = []
    for row in _schema(path):
        if _added(row):
            continue
        if row[1] == "calls" and str(row[3]).endswith(ADDED_COLUMN):
            row = (*row[:3], str(row[3])[: -len(ADDED_COLUMN)] + ")")
        rows.append(row)
    return rows


def test_a_store_written_by_the_single_module_opens_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "moot.db"
    path.write_bytes(OLD_DB.read_bytes())
    schema = _schema(path)
    migrations = raw_rows(path, "SELECT name, applied_at FROM migrations ORDER BY rowid")
    with Store(path) as store:
        applied = store.migrations()
        assert applied[: len(migrations)] == migrations  # nothing re-applied
        assert [name for name, _ in applied[len(migrations) :]] == list(AFTER_THE_SINGLE_MODULE)
        row = store.get_debate("old-run")
        assert row is not None
        assert (row.status, row.topic, row.calls) == ("done", "Should tea be free?", 1)
        assert row.config == {"options": {"seed": 3}}
        assert (row.prompt_tokens, row.completion_tokens, row.cost_usd) == (10, 5, 0.25)
        [call] = store.calls("old-run")
        assert (call.role, call.validation, call.structured_mode) == ("pro", "ok", "prompt")
        assert call.messages == [{"role": "user", "content": "論點 please"}]
        assert call.structured_fallback == {"rejected": ["json_schema"], "reason": "HTTP 400"}
        assert store.cache_get("k1") == {"text": "cached"}
        assert store.judge_accuracy("general@scripted:demo") == (1, 1)
        record(store, "old-run", request_hash="h2")  # and it takes new writes
        assert [c.seq for c in store.calls("old-run")] == [1, 2]
    assert _old_schema(path) == schema
    added = [row for row in _schema(path) if row[1] not in {r[1] for r in schema}]
    assert all(_added(row) for row in added)
    assert {row[1] for row in added} >= ADDED_OBJECTS
    with store_module.ReadOnlyStore(path) as viewer:
        assert [d.id for d in viewer.list_debates()] == ["old-run"]


def test_a_new_store_has_the_schema_the_single_module_wrote(tmp_path: Path) -> None:
    """Same tables, columns, indexes and SQL text as a store the old module created."""
    with open_store(tmp_path):
        pass
    assert _old_schema(tmp_path / "moot.db") == _schema(OLD_DB)
