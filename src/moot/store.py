"""The SQLite store: debates, the journal of every model call, and the response cache.

One database file (``default_path()``: ``$MOOT_HOME/moot.db``, else ``moot.db`` in the
user's data directory) holds everything. It is opened in WAL mode with a busy timeout,
and every write runs in a ``BEGIN IMMEDIATE`` transaction, so several processes can
write to one database at once; a write that still meets "database is locked" is retried
a bounded number of times. Each ``Store`` keeps one connection, guarded by a lock so the
event loop thread and worker threads may share it.

The schema is built by ``MIGRATIONS``, applied in order, each in its own transaction,
and recorded in the ``migrations`` table; reopening applies only the new ones, and
concurrent first opens never apply one twice (the check and the apply happen under one
write lock).

JSON values (configs, messages, cached replies) are stored as UTF-8 JSON text, never
pickled. Timestamps are ISO-8601 UTC strings.

A store that cannot be used (``MOOT_HOME`` is not a directory, ``moot.db`` is not
SQLite or belongs to another program, the disk is full or read-only) raises
``StoreError``, whose message names the file and what to do about it.
"""

from __future__ import annotations

import json
import os
import random
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn, TypeVar

import platformdirs

from moot.errors import ConfigError, StoreError

__all__ = [
    "CALL_SOURCES",
    "MIGRATIONS",
    "STATUSES",
    "VALIDATIONS",
    "CallRow",
    "DebateRow",
    "Store",
    "default_path",
]

STATUSES = ("running", "done", "failed", "interrupted", "budget_exceeded")
VALIDATIONS = ("ok", "invalid", "exhausted")
"""``exhausted``: invalid, and the last re-ask of its call was spent; never replayed."""
CALL_SOURCES = ("live", "cache")

DB_FILENAME = "moot.db"
BUSY_TIMEOUT_S = 30.0
LOCK_RETRIES = 20
LOCK_RETRY_SLEEP_S = 0.05
LOCK_RETRY_SLEEP_MAX_S = 1.0

_T = TypeVar("_T")

MigrationStep = Sequence[str] | Callable[[sqlite3.Connection], None]
"""SQL statements executed one by one, or a callable given the connection. Either runs
inside the migration's transaction (so no ``executescript``, which commits)."""

MIGRATIONS: tuple[tuple[str, MigrationStep], ...] = (
    (
        "0001_initial",
        (
            """
            CREATE TABLE debates (
                id                TEXT PRIMARY KEY,
                topic             TEXT NOT NULL,
                format            TEXT NOT NULL,
                status            TEXT NOT NULL,
                config            TEXT NOT NULL,
                models            TEXT NOT NULL,
                result_json       TEXT,
                error             TEXT,
                created_at        TEXT NOT NULL,
                updated_at        TEXT NOT NULL,
                prompt_tokens     INTEGER NOT NULL DEFAULT 0,
                completion_tokens INTEGER NOT NULL DEFAULT 0,
                cost_usd          REAL NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX debates_created ON debates (created_at)",
            """
            CREATE TABLE calls (
                id                INTEGER PRIMARY KEY AUTOINCREMENT,
                debate_id         TEXT NOT NULL REFERENCES debates (id) ON DELETE CASCADE,
                seq               INTEGER NOT NULL,
                role              TEXT NOT NULL,
                round             TEXT NOT NULL,
                side              TEXT,
                attempt           INTEGER NOT NULL,
                model             TEXT NOT NULL,
                request_hash      TEXT NOT NULL,
                messages          TEXT NOT NULL,
                schema_name       TEXT,
                reply             TEXT,
                finish_reason     TEXT,
                validation        TEXT,
                problems          TEXT NOT NULL DEFAULT '[]',
                prompt_tokens     INTEGER NOT NULL DEFAULT 0,
                completion_tokens INTEGER NOT NULL DEFAULT 0,
                latency_ms        REAL NOT NULL DEFAULT 0,
                error             TEXT,
                source            TEXT NOT NULL DEFAULT 'live',
                created_at        TEXT NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX calls_debate_seq ON calls (debate_id, seq)",
            "CREATE INDEX calls_request_hash ON calls (request_hash)",
            """
            CREATE TABLE cache (
                key         TEXT PRIMARY KEY,
                model       TEXT NOT NULL,
                value       TEXT NOT NULL,
                hits        INTEGER NOT NULL DEFAULT 0,
                created_at  TEXT NOT NULL,
                last_hit_at TEXT
            )
            """,
        ),
    ),
    (
        "0002_judge_history",
        (
            """
            CREATE TABLE judge_history (
                id          INTEGER PRIMARY KEY AUTOINCREMENT,
                judge_name  TEXT NOT NULL,
                debate_id   TEXT NOT NULL,
                correct     INTEGER NOT NULL,
                recorded_at TEXT NOT NULL
            )
            """,
            "CREATE INDEX judge_history_judge ON judge_history (judge_name, recorded_at)",
        ),
    ),
    (
        "0003_run_owner",
        ("ALTER TABLE debates ADD COLUMN owner TEXT",),
    ),
    (
        # how the server was asked for the schema, and the modes it refused it in
        "0004_call_structured_mode",
        (
            "ALTER TABLE calls ADD COLUMN structured_mode TEXT",
            "ALTER TABLE calls ADD COLUMN structured_fallback TEXT",
        ),
    ),
)


def this_process() -> str:
    """``host:pid`` of this process, as recorded in a running debate's ``owner``."""
    return f"{socket.gethostname()}:{os.getpid()}"


def owner_alive(owner: str) -> bool:
    """Whether the process ``host:pid`` may still be running (another host: assume so)."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True
    if int(pid) == os.getpid():
        return False  # this very process: whatever ran before in it has ended
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def default_path() -> Path:
    """``$MOOT_HOME/moot.db`` when ``MOOT_HOME`` is set, else ``moot.db`` in the user's
    data directory (e.g. ``~/.local/share/moot`` on Linux)."""
    home = os.environ.get("MOOT_HOME", "").strip()
    base = Path(home).expanduser() if home else Path(platformdirs.user_data_dir("moot"))
    return base / DB_FILENAME


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _dumps(value: Any, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"cannot store {what}: not JSON-serialisable ({exc})") from exc


def _is_lock_error(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return True
    message = str(exc).lower()
    return "database is locked" in message or "database table is locked" in message


@dataclass(frozen=True)
class DebateRow:
    """One debate. ``calls`` is the number of journaled model calls (every attempt,
    live or from the cache; never a call the budget refused); the token and cost
    totals are what ``add_usage`` added."""

    id: str
    topic: str
    format: str
    status: str
    config: dict[str, Any]
    models: dict[str, Any]
    result_json: str | None
    error: str | None
    created_at: str
    updated_at: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    calls: int
    owner: str | None = None
    """``host:pid`` of the process running it (set while ``running``)."""


@dataclass(frozen=True)
class CallRow:
    """One journaled model call; ``seq`` is its 1-based order within the debate."""

    id: int
    debate_id: str
    seq: int
    role: str
    round: str
    side: str | None
    attempt: int
    model: str
    request_hash: str
    messages: list[dict[str, Any]]
    schema_name: str | None
    reply: str | None
    finish_reason: str | None
    validation: str | None
    problems: list[str]
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    error: str | None
    source: str
    created_at: str
    structured_mode: str | None = None
    """How the server was asked for the schema (``json_schema``, ``json_object``,
    ``prompt``); ``None`` for backends without modes and for plain calls."""
    structured_fallback: dict[str, Any] | None = None
    """``{"rejected": [modes], "reason": text}`` when the server refused this schema in
    its usual mode and the call fell back to ``structured_mode``."""


_DEBATE_COLUMNS = (
    "d.id, d.topic, d.format, d.status, d.config, d.models, d.result_json, d.error, "
    "d.created_at, d.updated_at, d.prompt_tokens, d.completion_tokens, d.cost_usd, "
    "(SELECT COUNT(*) FROM calls c WHERE c.debate_id = d.id"
    # budget refusals were journaled by older versions: they were never sent
    " AND COALESCE(c.error, '') NOT LIKE 'BudgetExceeded%'), d.owner"
)

_CALL_COLUMNS = (
    "id, debate_id, seq, role, round, side, attempt, model, request_hash, messages, "
    "schema_name, reply, finish_reason, validation, problems, prompt_tokens, "
    "completion_tokens, latency_ms, error, source, created_at, structured_mode, "
    "structured_fallback"
)


def _debate_row(row: Sequence[Any]) -> DebateRow:
    return DebateRow(
        id=row[0],
        topic=row[1],
        format=row[2],
        status=row[3],
        config=json.loads(row[4]),
        models=json.loads(row[5]),
        result_json=row[6],
        error=row[7],
        created_at=row[8],
        updated_at=row[9],
        prompt_tokens=int(row[10]),
        completion_tokens=int(row[11]),
        cost_usd=float(row[12]),
        calls=int(row[13]),
        owner=row[14],
    )


def _call_row(row: Sequence[Any]) -> CallRow:
    return CallRow(
        id=int(row[0]),
        debate_id=row[1],
        seq=int(row[2]),
        role=row[3],
        round=row[4],
        side=row[5],
        attempt=int(row[6]),
        model=row[7],
        request_hash=row[8],
        messages=json.loads(row[9]),
        schema_name=row[10],
        reply=row[11],
        finish_reason=row[12],
        validation=row[13],
        problems=json.loads(row[14]),
        prompt_tokens=int(row[15]),
        completion_tokens=int(row[16]),
        latency_ms=float(row[17]),
        error=row[18],
        source=row[19],
        created_at=row[20],
        structured_mode=row[21],
        structured_fallback=json.loads(row[22]) if row[22] is not None else None,
    )


class Store:
    """A connection to the moot database; opens (and creates or migrates) it at once.

    Thread-safe: one connection, one lock. Use as a context manager or call ``close``.
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_path()
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
        self._lock = threading.Lock()
        try:
            # isolation_level=None: no implicit transactions; writes use BEGIN IMMEDIATE.
            self._conn: sqlite3.Connection = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            self._reraise(exc)
        try:
            self._configure()
            self._migrate()
        except BaseException:
            self._conn.close()
            raise

    # -- plumbing -------------------------------------------------------------

    def _configure(self) -> None:
        conn = self._conn
        self._retry(lambda: conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}"))
        # Switching to WAL takes a lock of its own: retry like any write.
        self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
        # NORMAL is durable across a crash or kill of the process in WAL mode; only a
        # power loss may roll back the last transactions.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")

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

    def _retry(self, fn: Callable[[], _T]) -> _T:
        """Run ``fn``; on "database is locked" roll back and run it again (bounded).
        A failure that comes from the store's state is a ``StoreError``."""
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

    def _write(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``fn`` in one ``BEGIN IMMEDIATE`` transaction, committed before returning."""

        def transaction() -> _T:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
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

    def _read(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        with self._lock:
            return self._retry(lambda: fn(self._conn))

    def _migrate(self) -> None:
        known = [name for name, _ in MIGRATIONS]
        while True:
            applied_one = self._write(lambda conn: self._apply_next_migration(conn, known))
            if not applied_one:
                return

    def _apply_next_migration(self, conn: sqlite3.Connection, known: list[str]) -> bool:
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        if tables and "migrations" not in tables:
            raise StoreError(
                f"cannot use the run store {self.path}: it is an SQLite database of another"
                " program (no moot tables); move it away, or set MOOT_HOME to another directory"
            )
        conn.execute(
            "CREATE TABLE IF NOT EXISTS migrations ("
            "name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        applied = {row[0] for row in conn.execute("SELECT name FROM migrations")}
        unknown = sorted(applied - set(known))
        if unknown:
            raise ConfigError(
                f"the database {self.path} was written by a newer moot "
                f"(unknown migrations: {', '.join(unknown)}); upgrade moot or set MOOT_HOME"
            )
        for name, step in MIGRATIONS:
            if name in applied:
                continue
            if callable(step):
                step(conn)
            else:
                for statement in step:
                    conn.execute(statement)
            conn.execute("INSERT INTO migrations (name, applied_at) VALUES (?, ?)", (name, _now()))
            return True
        return False

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def migrations(self) -> list[tuple[str, str]]:
        """The applied migrations as ``(name, applied_at)``, in the order applied."""
        return self._read(
            lambda conn: [
                (str(row[0]), str(row[1]))
                for row in conn.execute("SELECT name, applied_at FROM migrations ORDER BY rowid")
            ]
        )

    # -- debates --------------------------------------------------------------

    @staticmethod
    def _require_debate(conn: sqlite3.Connection, debate_id: str) -> None:
        if conn.execute("SELECT 1 FROM debates WHERE id = ?", (debate_id,)).fetchone() is None:
            raise ConfigError(f"no debate with id {debate_id!r}")

    def create_debate(
        self,
        debate_id: str,
        *,
        topic: str,
        format: str,
        config: Mapping[str, Any],
        models: Mapping[str, Any],
    ) -> None:
        """Record a new debate with status ``running``; ``ConfigError`` if the id exists."""
        if not debate_id:
            raise ConfigError("a debate id must not be empty")
        config_json = _dumps(dict(config), "the debate config")
        models_json = _dumps(dict(models), "the debate models")

        def insert(conn: sqlite3.Connection) -> None:
            if conn.execute("SELECT 1 FROM debates WHERE id = ?", (debate_id,)).fetchone():
                raise ConfigError(
                    f"a debate with id {debate_id!r} already exists; "
                    "choose another --id, or resume or delete it"
                )
            now = _now()
            conn.execute(
                "INSERT INTO debates (id, topic, format, status, config, models, "
                "created_at, updated_at, owner) VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)",
                (debate_id, topic, format, config_json, models_json, now, now, this_process()),
            )

        self._write(insert)

    def set_status(
        self,
        debate_id: str,
        status: str,
        *,
        result_json: str | None = None,
        error: str | None = None,
    ) -> None:
        """Set the status and, as given, the result JSON and error (``None`` clears them)."""
        if status not in STATUSES:
            raise ConfigError(f"unknown debate status {status!r}; expected one of {STATUSES}")

        def update(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE debates SET status = ?, result_json = ?, error = ?, updated_at = ? "
                "WHERE id = ?",
                (status, result_json, error, _now(), debate_id),
            )
            if cursor.rowcount == 0:
                raise ConfigError(f"no debate with id {debate_id!r}")

        self._write(update)

    def claim(self, debate_id: str, *, force: bool = False) -> None:
        """Mark a run ``running`` in this process before resuming it. A run still marked
        ``running`` by a live process (or by another host, which cannot be checked) is
        refused unless ``force``: two processes resuming one run would send the same
        calls twice."""

        def update(conn: sqlite3.Connection) -> None:
            row = conn.execute(
                "SELECT status, owner FROM debates WHERE id = ?", (debate_id,)
            ).fetchone()
            if row is None:
                raise ConfigError(f"no debate with id {debate_id!r}")
            status, owner = row
            if status == "running" and owner and not force and owner_alive(owner):
                raise ConfigError(
                    f"run {debate_id!r} is still running in {owner}; wait for it, or pass"
                    " --force if that process is gone"
                )
            conn.execute(
                "UPDATE debates SET status = 'running', owner = ?, error = NULL,"
                " updated_at = ? WHERE id = ?",
                (this_process(), _now(), debate_id),
            )

        self._write(update)

    def add_usage(
        self, debate_id: str, *, prompt_tokens: int, completion_tokens: int, cost_usd: float
    ) -> None:
        """Add to the debate's token and cost totals."""

        def update(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE debates SET prompt_tokens = prompt_tokens + ?, "
                "completion_tokens = completion_tokens + ?, cost_usd = cost_usd + ?, "
                "updated_at = ? WHERE id = ?",
                (int(prompt_tokens), int(completion_tokens), float(cost_usd), _now(), debate_id),
            )
            if cursor.rowcount == 0:
                raise ConfigError(f"no debate with id {debate_id!r}")

        self._write(update)

    def update_config(self, debate_id: str, config: Mapping[str, Any]) -> None:
        """Replace the debate's config (e.g. a resume with a higher budget)."""
        config_json = _dumps(dict(config), "the debate config")

        def update(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE debates SET config = ?, updated_at = ? WHERE id = ?",
                (config_json, _now(), debate_id),
            )
            if cursor.rowcount == 0:
                raise ConfigError(f"no debate with id {debate_id!r}")

        self._write(update)

    def get_debate(self, debate_id: str) -> DebateRow | None:
        """The debate, or ``None`` if there is none with this id."""
        row = self._read(
            lambda conn: conn.execute(
                f"SELECT {_DEBATE_COLUMNS} FROM debates d WHERE d.id = ?",  # noqa: S608
                (debate_id,),
            ).fetchone()
        )
        return None if row is None else _debate_row(row)

    def list_debates(self, limit: int = 50) -> list[DebateRow]:
        """The most recent debates, newest first."""
        rows = self._read(
            lambda conn: conn.execute(
                f"SELECT {_DEBATE_COLUMNS} FROM debates d "  # noqa: S608
                "ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?",
                (max(0, int(limit)),),
            ).fetchall()
        )
        return [_debate_row(row) for row in rows]

    def finished_results(self, format_name: str, limit: int = 200) -> list[tuple[str, str]]:
        """``(id, result JSON)`` of the most recent finished runs of a format, newest
        first (a format reads its earlier debates this way)."""
        rows = self._read(
            lambda conn: conn.execute(
                "SELECT id, result_json FROM debates WHERE format = ? AND status = 'done'"
                " AND result_json IS NOT NULL ORDER BY created_at DESC, rowid DESC LIMIT ?",
                (format_name, max(0, int(limit))),
            ).fetchall()
        )
        return [(str(row[0]), str(row[1])) for row in rows]

    def delete_debate(self, debate_id: str) -> bool:
        """Delete the debate and its journaled calls; ``False`` if there was none."""
        return self._write(
            lambda conn: conn.execute("DELETE FROM debates WHERE id = ?", (debate_id,)).rowcount > 0
        )

    # -- journal of model calls -----------------------------------------------

    def record_call(
        self,
        debate_id: str,
        *,
        role: str,
        round: str,
        side: str | None,
        attempt: int,
        model: str,
        request_hash: str,
        messages: Sequence[Mapping[str, Any]],
        schema_name: str | None,
        reply: str | None,
        finish_reason: str | None,
        prompt_tokens: int,
        completion_tokens: int,
        latency_ms: float,
        error: str | None,
        source: str = "live",
        cost_usd: float | None = None,
        structured_mode: str | None = None,
        structured_fallback: Mapping[str, Any] | None = None,
    ) -> int:
        """Journal one model call, committed before returning; returns its id.

        ``seq`` is the next number within the debate, assigned under the database's write
        lock, so it is gap-free and unique even with several processes writing. With
        ``cost_usd`` the call's tokens and cost are added to the debate's totals in the
        same transaction, so a crash can never keep the call and lose its usage."""
        if source not in CALL_SOURCES:
            raise ConfigError(f"unknown call source {source!r}; expected one of {CALL_SOURCES}")
        messages_json = _dumps([dict(message) for message in messages], "the call messages")
        fallback_json = (
            _dumps(dict(structured_fallback), "the structured-mode fallback")
            if structured_fallback is not None
            else None
        )

        def insert(conn: sqlite3.Connection) -> int:
            self._require_debate(conn, debate_id)
            cursor = conn.execute(
                "INSERT INTO calls (debate_id, seq, role, round, side, attempt, model, "
                "request_hash, messages, schema_name, reply, finish_reason, prompt_tokens, "
                "completion_tokens, latency_ms, error, source, created_at, structured_mode, "
                "structured_fallback) VALUES "
                "(?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE debate_id = ?), "
                "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    debate_id,
                    debate_id,
                    role,
                    round,
                    side,
                    int(attempt),
                    model,
                    request_hash,
                    messages_json,
                    schema_name,
                    reply,
                    finish_reason,
                    int(prompt_tokens),
                    int(completion_tokens),
                    float(latency_ms),
                    error,
                    source,
                    _now(),
                    structured_mode,
                    fallback_json,
                ),
            )
            call_id = cursor.lastrowid
            assert call_id is not None  # noqa: S101 (an INSERT always sets it)
            if cost_usd is not None:
                conn.execute(
                    "UPDATE debates SET prompt_tokens = prompt_tokens + ?, "
                    "completion_tokens = completion_tokens + ?, cost_usd = cost_usd + ?, "
                    "updated_at = ? WHERE id = ?",
                    (
                        int(prompt_tokens),
                        int(completion_tokens),
                        float(cost_usd),
                        _now(),
                        debate_id,
                    ),
                )
            return call_id

        return self._write(insert)

    def set_validation(self, call_id: int, validation: str, problems: Sequence[str]) -> None:
        """Record whether the call's reply validated (``ok`` or ``invalid``) and why not."""
        if validation not in VALIDATIONS:
            raise ConfigError(
                f"unknown validation outcome {validation!r}; expected one of {VALIDATIONS}"
            )
        problems_json = _dumps([str(problem) for problem in problems], "the problems")

        def update(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE calls SET validation = ?, problems = ? WHERE id = ?",
                (validation, problems_json, int(call_id)),
            )
            if cursor.rowcount == 0:
                raise ConfigError(f"no journaled call with id {call_id}")

        self._write(update)

    def mark_exhausted(self, call_ids: Sequence[int]) -> None:
        """Mark calls whose re-asks ran out without a valid reply: a resume never
        replays them (it asks the model again)."""

        def update(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "UPDATE calls SET validation = 'exhausted' WHERE id = ?",
                [(int(call_id),) for call_id in call_ids],
            )

        self._write(update)

    def calls(self, debate_id: str) -> list[CallRow]:
        """Every journaled call of the debate, in ``seq`` order."""
        rows = self._read(
            lambda conn: conn.execute(
                f"SELECT {_CALL_COLUMNS} FROM calls WHERE debate_id = ? ORDER BY seq",  # noqa: S608
                (debate_id,),
            ).fetchall()
        )
        return [_call_row(row) for row in rows]

    def completed_calls(self, debate_id: str) -> list[CallRow]:
        """The calls a resume may replay, in ``seq`` order: those with a reply and no
        error, unless marked ``exhausted``."""
        rows = self._read(
            lambda conn: conn.execute(
                f"SELECT {_CALL_COLUMNS} FROM calls "  # noqa: S608
                "WHERE debate_id = ? AND reply IS NOT NULL AND error IS NULL"
                " AND COALESCE(validation, '') != 'exhausted' ORDER BY seq",
                (debate_id,),
            ).fetchall()
        )
        return [_call_row(row) for row in rows]

    # -- response cache -------------------------------------------------------

    def cache_get(self, key: str) -> dict[str, Any] | None:
        """The cached value for ``key`` (counting a hit), or ``None``. An entry that no
        longer parses as a JSON object is dropped and reported as a miss."""

        def lookup(conn: sqlite3.Connection) -> dict[str, Any] | None:
            row = conn.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            try:
                value = json.loads(row[0])
            except (TypeError, ValueError):
                value = None
            if not isinstance(value, dict):
                conn.execute("DELETE FROM cache WHERE key = ?", (key,))
                return None
            conn.execute(
                "UPDATE cache SET hits = hits + 1, last_hit_at = ? WHERE key = ?", (_now(), key)
            )
            return value

        return self._write(lookup)

    def cache_put(self, key: str, *, model: str, value: Mapping[str, Any]) -> None:
        """Store ``value`` (JSON) under ``key``, replacing any previous entry."""
        value_json = _dumps(dict(value), "the cache value")
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO cache (key, model, value, hits, created_at) VALUES (?, ?, ?, 0, ?) "
                "ON CONFLICT (key) DO UPDATE SET model = excluded.model, "
                "value = excluded.value, hits = 0, created_at = excluded.created_at, "
                "last_hit_at = NULL",
                (key, model, value_json, _now()),
            )
        )

    def cache_delete(self, key: str) -> None:
        """Remove one cache entry (no error if there is none)."""
        self._write(lambda conn: conn.execute("DELETE FROM cache WHERE key = ?", (key,)))

    def cache_stats(self) -> dict[str, int]:
        """``entries``, total ``hits`` and the ``bytes`` of the stored values."""
        row = self._read(
            lambda conn: conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(hits), 0), "
                "COALESCE(SUM(LENGTH(CAST(value AS BLOB))), 0) FROM cache"
            ).fetchone()
        )
        return {"entries": int(row[0]), "hits": int(row[1]), "bytes": int(row[2])}

    def cache_clear(self) -> int:
        """Remove every cache entry; returns how many there were."""
        return self._write(lambda conn: conn.execute("DELETE FROM cache").rowcount)

    # ---- judge history (the panel's historical accuracy) ---------------------------

    def record_judge_outcome(self, judge_name: str, debate_id: str, correct: bool) -> None:
        """Record whether a judge favoured the side known to be right in a debate."""
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO judge_history (judge_name, debate_id, correct, recorded_at)"
                " VALUES (?, ?, ?, ?)",
                (judge_name, debate_id, int(correct), _now()),
            )
        )

    def judge_accuracy(self, judge_name: str) -> tuple[int, int]:
        """(hits, debates) recorded for a judge."""

        def query(conn: sqlite3.Connection) -> tuple[int, int]:
            row = conn.execute(
                "SELECT COALESCE(SUM(correct), 0), COUNT(*) FROM judge_history"
                " WHERE judge_name = ?",
                (judge_name,),
            ).fetchone()
            return int(row[0]), int(row[1])

        return self._read(query)


class ReadOnlyStore(Store):
    """The store opened for reading only (``moot view``): SQLite's read-only mode
    (``mode=ro``) plus ``query_only``, so no statement can change it. It never
    creates or migrates a database: the file must exist and hold no migration this
    version does not know. Every writing method raises ``ConfigError``."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_path()
        if not self.path.is_file():
            raise ConfigError(f"no run store at {self.path} (run a debate first, or set MOOT_HOME)")
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(
            f"{self.path.resolve().as_uri()}?mode=ro",
            uri=True,
            timeout=BUSY_TIMEOUT_S,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            self._conn.execute("PRAGMA query_only = ON")
            self._check_migrations()
        except BaseException:
            self._conn.close()
            raise

    def _check_migrations(self) -> None:
        known = {name for name, _ in MIGRATIONS}
        try:
            applied = {row[0] for row in self._conn.execute("SELECT name FROM migrations")}
        except sqlite3.DatabaseError as exc:
            raise ConfigError(f"{self.path} is not a moot run store ({exc})") from exc
        unknown = sorted(applied - known)
        if unknown:
            raise ConfigError(
                f"the database {self.path} was written by a newer moot "
                f"(unknown migrations: {', '.join(unknown)}); upgrade moot"
            )

    def _write(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        raise ConfigError(f"the run store {self.path} is open read-only")
