"""The one connection every part of the store goes through.

:class:`Database` holds one SQLite connection, guarded by a lock so the event loop
thread and worker threads may share it. Opened for writing, it runs in WAL mode with
a busy timeout, and every write is one ``BEGIN IMMEDIATE`` transaction, so several
processes can write to one database at once; a write that still meets "database is
locked" is retried a bounded number of times. Opened read-only, it uses SQLite's
``mode=ro`` plus ``query_only`` and refuses every write.

A failure that comes from the store's state (``MOOT_HOME`` is not a directory, the
file is not SQLite, the disk is full or read-only) is a ``StoreError`` whose message
names the file and what to do about it; any other failure (a bug) is raised as it is.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn, Protocol, Self, TypeVar

import platformdirs

from moot.errors import ConfigError, StoreError

DB_FILENAME = "moot.db"
STORE_ENV = "MOOT_STORE"
URL_SCHEMES = ("postgresql://", "postgres://")
BUSY_TIMEOUT_S = 30.0
LOCK_RETRIES = 20
LOCK_RETRY_SLEEP_S = 0.05
LOCK_RETRY_SLEEP_MAX_S = 1.0

T = TypeVar("T")


def default_path() -> Path:
    """``$MOOT_HOME/moot.db`` when ``MOOT_HOME`` is set, else ``moot.db`` in the user's
    data directory (e.g. ``~/.local/share/moot`` on Linux)."""
    home = os.environ.get("MOOT_HOME", "").strip()
    base = Path(home).expanduser() if home else Path(platformdirs.user_data_dir("moot"))
    return base / DB_FILENAME


def default_location() -> Path | str:
    """Where the store is: ``$MOOT_STORE`` (a ``postgresql://`` URL or a file path)
    when set (``moot --store`` sets it), else :func:`default_path`."""
    chosen = os.environ.get(STORE_ENV, "").strip()
    if not chosen:
        return default_path()
    return chosen if is_url(chosen) else Path(chosen).expanduser()


def is_url(location: object) -> bool:
    """Whether ``location`` names a PostgreSQL store (``postgresql://...``)."""
    return isinstance(location, str) and location.startswith(URL_SCHEMES)


class Cursor(Protocol):
    """What the store reads from a statement's result, on either engine."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """The connection the store's modules write SQL to: ``sqlite3.Connection``, or the
    PostgreSQL one (:mod:`moot.store.postgres`), which takes the same ``?`` marks."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Cursor: ...

    @property
    def in_transaction(self) -> bool: ...

    def rollback(self) -> None: ...

    def close(self) -> None: ...


def is_postgres(conn: Connection) -> bool:
    """Whether ``conn`` is a PostgreSQL connection (else SQLite)."""
    return not isinstance(conn, sqlite3.Connection)


def table_names(conn: Connection) -> set[str]:
    """The tables of the store's database (its schema, on PostgreSQL)."""
    if is_postgres(conn):
        sql = (
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {str(row[0]) for row in conn.execute(sql).fetchall()}


def now() -> str:
    """The current time as stored: ISO-8601 UTC with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def dumps(value: Any, what: str) -> str:
    """``value`` as the JSON text a column holds (``ConfigError`` if it is not JSON)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"cannot store {what}: not JSON-serialisable ({exc})") from exc


def _on_read_only_fs(path: Path) -> bool:
    """Whether the nearest existing directory of ``path`` is on a read-only file system."""
    directory = path.parent
    while not directory.exists() and directory != directory.parent:
        directory = directory.parent
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _is_lock_error(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return True
    message = str(exc).lower()
    return "database is locked" in message or "database table is locked" in message


class Database:
    """A connection to the moot database file (see the module).

    Thread-safe: one connection, one lock. Use as a context manager or call ``close``.
    """

    _conn: Connection

    def __init__(self, path: Path | str | None = None, *, read_only: bool = False) -> None:
        where = path if path is not None else default_location()
        self.read_only = read_only
        self._lock = threading.Lock()
        self.postgres = is_url(where)
        """Whether the store is on PostgreSQL (else SQLite)."""
        if self.postgres:
            from moot.store.postgres import PgConnection, public_url

            # a URL has no file: ``path`` names it (without a password) in messages
            self.location = public_url(str(where))
            self.path = Path(DB_FILENAME)
            self._conn = PgConnection(str(where), read_only=read_only)
            return
        self.path = Path(where).expanduser()
        self.location = str(self.path)
        self._conn = self._open_read_only() if read_only else self._open()

    # -- opening ----------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        fix = "or set MOOT_HOME to a writable directory"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = exc.strerror or str(exc)
            if isinstance(exc, FileExistsError | NotADirectoryError):
                why = "something in that path is a file, not a directory"
            raise StoreError(
                f"cannot use the run store {self.path}: cannot create the directory"
                f" {self.path.parent} ({why}); free that path, {fix}"
            ) from exc
        if self.path.is_dir():
            raise StoreError(
                f"cannot use the run store {self.path}: it is a directory; move it away, {fix}"
            )
        try:
            # isolation_level=None: no implicit transactions; writes use BEGIN IMMEDIATE.
            conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            self._reraise(exc)
        try:
            self._configure(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _configure(self, conn: sqlite3.Connection) -> None:
        self._retry(lambda: conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}"))
        # Switching to WAL takes a lock of its own: retry like any write.
        self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
        # NORMAL is durable across a crash or kill of the process in WAL mode; only a
        # power loss may roll back the last transactions.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")

    def _open_read_only(self) -> sqlite3.Connection:
        if not self.path.is_file():
            raise ConfigError(f"no run store at {self.path} (run a debate first, or set MOOT_HOME)")
        conn = sqlite3.connect(
            f"{self.path.resolve().as_uri()}?mode=ro",
            uri=True,
            timeout=BUSY_TIMEOUT_S,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            conn.execute("PRAGMA query_only = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    # -- failures ---------------------------------------------------------------

    def _reraise(self, exc: sqlite3.Error) -> NoReturn:
        """Raise the ``StoreError`` for ``exc`` when it comes from the store's state, else
        ``exc`` itself (integrity and programming errors are bugs, not the store's state)."""
        failure = self._failure(exc)
        if failure is exc or isinstance(exc, sqlite3.IntegrityError | sqlite3.ProgrammingError):
            raise exc
        raise failure from exc

    def _failure(self, exc: sqlite3.Error) -> BaseException:
        """The ``StoreError`` for a database failure that comes from the store's state
        (what is wrong and what to do); any other failure (a bug) is returned as it is."""
        message = str(exc).lower()
        fix = "or set MOOT_HOME to another directory"
        if "not a database" in message or "malformed" in message or "no such table" in message:
            why = f"it is not a moot database (not SQLite, or damaged); move it away, {fix}"
        elif _on_read_only_fs(self.path) and (
            "unable to open" in message or "readonly" in message or "read-only" in message
        ):
            why = (
                f"it is on a read-only file system ({exc}); SQLite needs to write beside"
                f" it even to read it; copy it to a writable place, {fix}"
            )
        elif "unable to open" in message:
            why = f"it cannot be opened; check that {self.path.parent} is writable, {fix}"
        elif "readonly" in message or "read-only" in message:
            why = f"it is read-only; make it writable, {fix}"
        elif "full" in message or "disk i/o" in message:
            why = f"the disk failed or is full ({exc}); free some space, {fix}"
        elif _is_lock_error(exc):
            why = f"another process keeps it locked ({exc}); try again, {fix}"
        else:
            return exc
        return StoreError(f"cannot use the run store {self.path}: {why}")

    def failure(self, exc: Exception) -> BaseException:
        """The ``StoreError`` saying what is wrong with the store for ``exc``, or
        ``exc`` itself when it does not come from the store's state."""
        if not isinstance(exc, sqlite3.Error):
            return exc
        return self._failure(exc)

    # -- reading and writing ----------------------------------------------------

    def _retry(self, fn: Callable[[], T]) -> T:
        """Run ``fn``; on "database is locked" roll back and run it again (bounded).
        A failure that comes from the store's state is a ``StoreError``. PostgreSQL
        has its own rules (:meth:`moot.store.postgres.PgConnection.retry`)."""
        if self.postgres:
            return self._conn.retry(fn)  # type: ignore[attr-defined,no-any-return]
        for attempt in range(LOCK_RETRIES + 1):
            try:
                return fn()
            except sqlite3.OperationalError as exc:
                if self._conn.in_transaction:
                    self._conn.rollback()
                if not _is_lock_error(exc) or attempt == LOCK_RETRIES:
                    self._reraise(exc)
                delay = min(LOCK_RETRY_SLEEP_S * 2**attempt, LOCK_RETRY_SLEEP_MAX_S)
                time.sleep(delay * (0.5 + random.random()))  # noqa: S311 (jitter only)
            except sqlite3.DatabaseError as exc:
                self._reraise(exc)
        raise AssertionError("unreachable")  # pragma: no cover

    def _write(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` in one ``BEGIN IMMEDIATE`` transaction (PostgreSQL: ``BEGIN``; a
        write that must see the rows it changes locks them ``FOR UPDATE``), committed
        before returning."""
        if self.read_only:
            raise ConfigError(f"the run store {self.location} is open read-only")
        begin = "BEGIN" if self.postgres else "BEGIN IMMEDIATE"

        def transaction() -> T:
            conn = self._conn
            conn.execute(begin)
            try:
                result = fn(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.rollback()
                raise
            return result

        with self._lock:
            return self._retry(transaction)

    def _read(self, fn: Callable[[Connection], T]) -> T:
        with self._lock:
            return self._retry(lambda: fn(self._conn))

    # -- what it runs on ---------------------------------------------------------

    def server(self) -> str:
        """The database engine and its version (``SQLite 3.45.1``, ``PostgreSQL 15.14``)."""
        if not self.postgres:
            return f"SQLite {sqlite3.sqlite_version}"
        version = self._read(lambda conn: conn.execute("SHOW server_version").fetchone()[0])
        return f"PostgreSQL {version}"

    def trigram_search(self) -> bool:
        """Whether the source search has its index: always on SQLite (FTS5); on
        PostgreSQL when the ``pg_trgm`` extension is installed in the database."""
        if not self.postgres:
            return True
        sql = "SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'"
        return bool(self._read(lambda conn: conn.execute(sql).fetchone() is not None))

    # -- closing ----------------------------------------------------------------

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
