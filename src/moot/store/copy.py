"""``moot store copy SRC DST``: runs moved between stores (SQLite and PostgreSQL, either
way), as stored: every column's value as it is, so a run copied there and back reads
the same (its result, its journal, its totals, its owner).

Each run is copied in one transaction of the destination with its journaled calls
and its judge history; a run whose id the destination already holds is skipped, so a
copy that was interrupted is simply run again. The response cache and the source
index are copied whole (an entry already there is kept). What is not copied: the
calls in flight (they belong to a process running on the source) and the surrogate
row ids, which the destination assigns (nothing refers to them across runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from moot.store.connection import Connection, is_postgres
from moot.store.stores import Store

DEBATE_COLUMNS = (
    "id, topic, format, status, config, models, result_json, error, created_at,"
    " updated_at, prompt_tokens, completion_tokens, cost_usd, owner"
)
CALL_COLUMNS = (
    "debate_id, seq, role, round, side, attempt, model, request_hash, messages,"
    " schema_name, reply, finish_reason, validation, problems, prompt_tokens,"
    " completion_tokens, latency_ms, error, source, created_at, structured_mode,"
    " structured_fallback, call_key"
)
JUDGE_COLUMNS = "judge_name, debate_id, correct, recorded_at"
SELECT_DEBATE = f"SELECT {DEBATE_COLUMNS} FROM debates WHERE id = ?"  # noqa: S608
SELECT_CALLS = f"SELECT {CALL_COLUMNS} FROM calls WHERE debate_id = ? ORDER BY seq"  # noqa: S608
SELECT_JUDGED = f"SELECT {JUDGE_COLUMNS} FROM judge_history WHERE debate_id = ?"  # noqa: S608
#: the tables copied whole, with their columns and the key that says "already there"
WHOLE_TABLES = (
    ("cache", "key, model, value, hits, created_at, last_hit_at"),
    ("source_documents", "sha256, kind, title, passages, indexed_at"),
    ("source_passages", "sha256, number, text, page, line_start, line_end"),
    ("source_vectors", "sha256, number, model, vector"),
)


@dataclass(frozen=True)
class CopyReport:
    """What a copy did."""

    copied: int
    calls: int
    skipped: tuple[str, ...]


def _marks(columns: str) -> str:
    return ", ".join("?" for _ in columns.split(","))


def _select(store: Store, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """The rows of a query of the store's own (constant) SQL."""
    return store._read(lambda conn: [_plain(r) for r in conn.execute(sql, params).fetchall()])


def _plain(row: Sequence[Any]) -> tuple[Any, ...]:
    """A row with each value as both engines take it (PostgreSQL's bytes come back as
    memoryview on some paths)."""
    return tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)


def copy_store(source: Store, target: Store, ids: Sequence[str] | None = None) -> CopyReport:
    """Copy the runs ``ids`` (every run when ``None``) from ``source`` to ``target``,
    then the cache and the source index (see the module)."""
    wanted = list(ids) if ids is not None else source.debate_ids()
    copied = calls = 0
    skipped: list[str] = []
    for debate_id in wanted:
        debate = _select(source, SELECT_DEBATE, debate_id)
        if not debate:
            skipped.append(debate_id)
            continue
        journal = _select(source, SELECT_CALLS, debate_id)
        judged = _select(source, SELECT_JUDGED, debate_id)
        if target._write(partial(_put, debate=debate[0], journal=journal, judged=judged)):
            copied += 1
            calls += len(journal)
        else:
            skipped.append(debate_id)
    for table, columns in WHOLE_TABLES:
        rows = _select(source, f"SELECT {columns} FROM {table}")  # noqa: S608 (constants)
        target._write(partial(_put_all, table=table, columns=columns, rows=rows))
    return CopyReport(copied, calls, tuple(skipped))


def _put(
    conn: Connection,
    debate: tuple[Any, ...],
    journal: list[tuple[Any, ...]],
    judged: list[tuple[Any, ...]],
) -> bool:
    """Insert one run with its calls and judge history; ``False`` when it is there."""
    if conn.execute("SELECT 1 FROM debates WHERE id = ?", (debate[0],)).fetchone():
        return False
    conn.execute(
        f"INSERT INTO debates ({DEBATE_COLUMNS}) VALUES ({_marks(DEBATE_COLUMNS)})",  # noqa: S608
        debate,
    )
    if journal:
        conn.executemany(
            f"INSERT INTO calls ({CALL_COLUMNS}) VALUES ({_marks(CALL_COLUMNS)})",  # noqa: S608
            journal,
        )
    for row in judged:
        known = conn.execute(
            "SELECT 1 FROM judge_history WHERE judge_name = ? AND debate_id = ?"
            " AND correct = ? AND recorded_at = ?",
            row,
        ).fetchone()
        if known is None:
            conn.execute(
                f"INSERT INTO judge_history ({JUDGE_COLUMNS}) VALUES (?, ?, ?, ?)",  # noqa: S608
                row,
            )
    return True


def _put_all(conn: Connection, table: str, columns: str, rows: list[tuple[Any, ...]]) -> None:
    """Insert the rows a whole table's copy brings; those already there are kept (and
    SQLite's FTS5 index learns the passages it did not have)."""
    if not rows:
        return
    fresh_passages = table == "source_passages" and not is_postgres(conn)
    before = (
        {int(r[0]) for r in conn.execute("SELECT id FROM source_passages").fetchall()}
        if fresh_passages
        else set()
    )
    conn.executemany(
        f"INSERT INTO {table} ({columns}) VALUES ({_marks(columns)})"  # noqa: S608
        " ON CONFLICT DO NOTHING",
        rows,
    )
    if fresh_passages:
        added = [
            (int(r[0]), str(r[1]))
            for r in conn.execute("SELECT id, text FROM source_passages").fetchall()
            if int(r[0]) not in before
        ]
        conn.executemany("INSERT INTO source_fts (rowid, text) VALUES (?, ?)", added)
