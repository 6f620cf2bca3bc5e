"""The database schema, built by migrations applied in order, once each.

A migration is a function given the connection, registered under its name with the
:func:`migration` decorator; :data:`MIGRATIONS` lists them in the order they are
defined, which is the order they are applied. Each one runs in its own transaction
(so it may not use ``executescript``, which commits) and is recorded in the
``migrations`` table with the time it was applied. Opening the store applies the
ones not recorded yet; concurrent first opens never apply one twice (the check and
the apply happen under one write lock). A database that records a migration this
version does not know was written by a newer moot and is refused.

One list serves both engines. On PostgreSQL each statement's SQLite column types are
written as PostgreSQL's (:func:`moot.store.postgres.ddl`: ``INTEGER PRIMARY KEY`` as an
identity column, ``REAL`` as ``DOUBLE PRECISION``, ``BLOB`` as ``BYTEA``); a migration
that needs what one engine lacks (SQLite's FTS5) says what the other does instead.

The names are the schema's versions, as stored in existing databases: never rename
one, never change what one does; a change of schema is a new migration at the end.
The SQL text is kept as first written, so every database holds the same schema text.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from moot.errors import ConfigError, StoreError
from moot.store.connection import Connection, Database, is_postgres, now, table_names

Migration = Callable[[Connection], None]
"""A schema change: given the connection, inside the migration's transaction."""

MIGRATIONS: list[tuple[str, Migration]] = []
"""``(name, migration)`` in the order they are applied."""


def migration(name: str) -> Callable[[Migration], Migration]:
    """Register the decorated function as the next migration, under ``name``."""

    def register(fn: Migration) -> Migration:
        if any(known == name for known, _ in MIGRATIONS):
            raise ValueError(f"migration {name!r} is registered twice")
        MIGRATIONS.append((name, fn))
        return fn

    return register


def _execute(conn: Connection, *statements: str) -> None:
    if is_postgres(conn):
        from moot.store.postgres import ddl

        statements = tuple(ddl(statement) for statement in statements)
    for statement in statements:
        conn.execute(statement)


@migration("0001_initial")
def _initial(conn: Connection) -> None:
    _execute(
        conn,
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
    )


@migration("0002_judge_history")
def _judge_history(conn: Connection) -> None:
    _execute(
        conn,
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
    )


@migration("0003_run_owner")
def _run_owner(conn: Connection) -> None:
    _execute(conn, "ALTER TABLE debates ADD COLUMN owner TEXT")


@migration("0004_call_structured_mode")
def _call_structured_mode(conn: Connection) -> None:
    """How the server was asked for the schema, and the modes it refused it in."""
    _execute(
        conn,
        "ALTER TABLE calls ADD COLUMN structured_mode TEXT",
        "ALTER TABLE calls ADD COLUMN structured_fallback TEXT",
    )


@migration("0005_calls_in_flight")
def _calls_in_flight(conn: Connection) -> None:
    """A row per call sent and not yet journaled (the viewer's live page shows them)."""
    _execute(
        conn,
        """
            CREATE TABLE calls_in_flight (
                id         INTEGER PRIMARY KEY AUTOINCREMENT,
                debate_id  TEXT NOT NULL REFERENCES debates (id) ON DELETE CASCADE,
                role       TEXT NOT NULL,
                round      TEXT NOT NULL,
                side       TEXT,
                attempt    INTEGER NOT NULL,
                model      TEXT NOT NULL,
                started_at TEXT NOT NULL
            )
            """,
        "CREATE INDEX calls_in_flight_debate ON calls_in_flight (debate_id)",
    )


@migration("0006_source_index")
def _source_index(conn: Connection) -> None:
    """The index of the documents debates argue from (``--sources``), by content hash:
    each document once, its passages (looked up by hash and number), an FTS5 index of
    their text (trigram tokens, so Chinese is found too; external content, so the text
    is stored once), and the sentence vectors of passages once a reranking computed
    them."""
    _execute(
        conn,
        """
            CREATE TABLE source_documents (
                sha256      TEXT PRIMARY KEY,
                kind        TEXT NOT NULL,
                title       TEXT NOT NULL,
                passages    INTEGER NOT NULL,
                indexed_at  TEXT NOT NULL
            )
        """,
        """
            CREATE TABLE source_passages (
                id          INTEGER PRIMARY KEY,
                sha256      TEXT NOT NULL REFERENCES source_documents (sha256),
                number      INTEGER NOT NULL,
                text        TEXT NOT NULL,
                page        INTEGER,
                line_start  INTEGER,
                line_end    INTEGER,
                UNIQUE (sha256, number)
            )
        """,
    )
    if not is_postgres(conn):
        _execute(
            conn,
            """
            CREATE VIRTUAL TABLE source_fts USING fts5(
                text, content = 'source_passages', content_rowid = 'id', tokenize = 'trigram'
            )
        """,
        )
    _execute(
        conn,
        """
            CREATE TABLE source_vectors (
                sha256  TEXT NOT NULL,
                number  INTEGER NOT NULL,
                model   TEXT NOT NULL,
                vector  BLOB NOT NULL,
                PRIMARY KEY (sha256, number, model)
            )
        """,
    )
    if is_postgres(conn):
        _trigram_index(conn)


def _trigram_index(conn: Connection) -> None:
    """PostgreSQL's stand-in for the FTS5 table: FTS5 is SQLite's. PostgreSQL finds the
    same passages (each term as a substring, as the trigram tokenizer does) with
    ``ILIKE``, which pg_trgm's GIN index serves; without the extension (not installed,
    or not allowed) the search reads the passages of the documents asked for, and
    finds the same ones, slower."""
    conn.execute("SAVEPOINT trigram")
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        conn.execute(
            "CREATE INDEX source_passages_trigram ON source_passages USING gin (text gin_trgm_ops)"
        )
    except Exception:
        conn.execute("ROLLBACK TO SAVEPOINT trigram")
    conn.execute("RELEASE SAVEPOINT trigram")


@migration("0007_call_key")
def _call_key(conn: Connection) -> None:
    """Each journaled call's key, chosen by the writer before it writes: a write
    retried after a lost connection (that had committed) finds its row instead of
    journaling the call twice."""
    _execute(
        conn,
        "ALTER TABLE calls ADD COLUMN call_key TEXT",
        "CREATE UNIQUE INDEX calls_key ON calls (debate_id, call_key)",
    )


# -- applying them ----------------------------------------------------------------


def migrate(db: Database) -> None:
    """Apply every migration the database has not recorded yet, each in its own
    transaction (``StoreError`` for another program's database, ``ConfigError`` for a
    newer moot's)."""
    known = [name for name, _ in MIGRATIONS]
    while db._write(lambda conn: _apply_next(db, conn, known)):
        pass


def _apply_next(db: Database, conn: Connection, known: list[str]) -> bool:
    if is_postgres(conn):
        # one migrator at a time, however many machines open the store at once
        conn.execute("SELECT pg_advisory_xact_lock(7274414)")
    tables = table_names(conn)
    if tables and "migrations" not in tables:
        if is_postgres(conn):
            raise StoreError(
                f"cannot use the run store {db.location}: its schema holds another"
                " program's tables (no moot tables); use another database or schema"
            )
        raise StoreError(
            f"cannot use the run store {db.path}: it is an SQLite database of another"
            " program (no moot tables); move it away, or set MOOT_HOME to another directory"
        )
    conn.execute(
        "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    applied = {row[0] for row in conn.execute("SELECT name FROM migrations").fetchall()}
    unknown = sorted(applied - set(known))
    if unknown:
        raise ConfigError(
            f"the database {db.location} was written by a newer moot "
            f"(unknown migrations: {', '.join(unknown)}); upgrade moot or set MOOT_HOME"
        )
    for name, step in MIGRATIONS:
        if name in applied:
            continue
        step(conn)
        conn.execute("INSERT INTO migrations (name, applied_at) VALUES (?, ?)", (name, now()))
        return True
    return False


def check_known(db: Database) -> None:
    """For a read-only store: ``ConfigError`` unless the database is a moot run store
    that holds no migration this version does not know (nothing is applied)."""
    known = {name for name, _ in MIGRATIONS}
    if db.postgres and "migrations" not in db._read(table_names):
        raise ConfigError(f"{db.location} is not a moot run store (no migrations table)")
    try:
        applied = {row[0] for row in db._conn.execute("SELECT name FROM migrations").fetchall()}
    except sqlite3.DatabaseError as exc:
        failure = db.failure(exc)
        if isinstance(failure, StoreError) and "not a moot database" not in str(failure):
            raise failure from exc  # read-only file system, unreadable, locked...
        raise ConfigError(f"{db.location} is not a moot run store ({exc})") from exc
    unknown = sorted(applied - known)
    if unknown:
        raise ConfigError(
            f"the database {db.location} was written by a newer moot "
            f"(unknown migrations: {', '.join(unknown)}); upgrade moot"
        )


def applied(db: Database) -> list[tuple[str, str]]:
    """The applied migrations as ``(name, applied_at)``, in the order applied."""
    order = "applied_at, name" if db.postgres else "rowid"
    return db._read(
        lambda conn: [
            (str(row[0]), str(row[1]))
            for row in conn.execute(
                f"SELECT name, applied_at FROM migrations ORDER BY {order}"  # noqa: S608
            ).fetchall()
        ]
    )
