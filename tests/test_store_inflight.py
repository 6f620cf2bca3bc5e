"""Calls in flight: noted when sent, gone once journaled, refused or cancelled, cleared
when a run is resumed, and read as none from a store written before they were kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from moot.store import ReadOnlyStore, Store

OLD_DB = Path(__file__).parent / "data" / "store_d7f6093.db"


def _record(store: Store, flight: int | None) -> int:
    return store.record_call(
        "run", role="pro", round="opening", side="pro", attempt=1, model="m",
        request_hash="h", messages=[], schema_name=None, reply="{}", finish_reason="stop",
        prompt_tokens=1, completion_tokens=1, latency_ms=1.0, error=None, in_flight=flight,
    )  # fmt: skip


def test_a_call_is_in_flight_until_it_is_journaled(tmp_path: Path) -> None:
    with Store(tmp_path / "moot.db") as store:
        store.create_debate("run", topic="t", format="structured", config={}, models={})
        first = store.start_call("run", role="pro", round="opening", side="pro", attempt=1,
                                 model="m")  # fmt: skip
        second = store.start_call("run", role="con", round="opening", side="con", attempt=1,
                                  model="m")  # fmt: skip
        assert [f.id for f in store.calls_in_flight("run")] == [second, first]  # newest first
        _record(store, first)
        assert [f.role for f in store.calls_in_flight("run")] == ["con"]
        store.end_call(second)
        assert store.calls_in_flight("run") == []
        store.start_call("run", role="pro", round="closing", side="pro", attempt=1, model="m")
        store.clear_in_flight("run")
        assert store.calls_in_flight("run") == []
        assert len(store.calls("run")) == 1


def test_a_store_without_the_table_has_no_calls_in_flight(tmp_path: Path) -> None:
    path = tmp_path / "moot.db"
    path.write_bytes(OLD_DB.read_bytes())
    with sqlite3.connect(path) as conn:
        assert (
            conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'calls_in_flight'").fetchone()
            is None
        )
    with ReadOnlyStore(path) as viewer:  # the viewer never migrates
        assert viewer.calls_in_flight("old-run") == []
