"""A run store on a read-only file system is reported as such, not as a file that is
not a moot store (SQLite cannot read a WAL database there: it must create its
shared-memory file beside it)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from moot.errors import ConfigError, StoreError
from moot.store import Store
from moot.store import connection as store_connection
from moot.store.migrations import check_known
from moot.store.stores import ReadOnlyStore


class _Unopenable:
    """What SQLite does on a read-only file system when the WAL index is missing."""

    def __init__(self, message: str) -> None:
        self.message = message

    def execute(self, *args: object) -> None:
        raise sqlite3.OperationalError(self.message)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    "message", ["unable to open database file", "attempt to write a readonly database"]
)
def test_a_store_on_a_read_only_file_system_says_so(
    message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Store(tmp_path / "moot.db").close()
    store = ReadOnlyStore(tmp_path / "moot.db")
    real = store._conn
    monkeypatch.setattr(store, "_conn", _Unopenable(message))
    monkeypatch.setattr(store_connection, "_on_read_only_fs", lambda path: True)
    with pytest.raises(StoreError, match="on a read-only file system"):
        check_known(store)
    real.close()


def test_another_programs_database_is_still_not_a_moot_store(tmp_path: Path) -> None:
    path = tmp_path / "moot.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.close()
    with pytest.raises(ConfigError, match="is not a moot run store"):
        ReadOnlyStore(path)


def test_a_writable_directory_is_not_a_read_only_file_system(tmp_path: Path) -> None:
    assert store_connection._on_read_only_fs(tmp_path / "missing" / "moot.db") is False
