"""Debates (runs): their status, config, result, owner and usage totals."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moot.errors import ConfigError
from moot.store.connection import Connection, Database, dumps, now

STATUSES = ("running", "done", "failed", "interrupted", "budget_exceeded")


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
    damaged: str | None = None
    """What of the stored row could not be read (its config or models are then
    empty); ``None`` for a sound row."""


_DEBATE_COLUMNS = (
    "d.id, d.topic, d.format, d.status, d.config, d.models, d.result_json, d.error, "
    "d.created_at, d.updated_at, d.prompt_tokens, d.completion_tokens, d.cost_usd, "
    "(SELECT COUNT(*) FROM calls c WHERE c.debate_id = d.id"
    # budget refusals were journaled by older versions: they were never sent
    " AND COALESCE(c.error, '') NOT LIKE 'BudgetExceeded%'), d.owner"
)


def _json_object(value: Any, what: str, damage: list[str]) -> dict[str, Any]:
    """A stored JSON object; ``{}`` with the damage noted when it is not one."""
    try:
        found = json.loads(value)
    except (TypeError, ValueError):
        damage.append(f"its {what} is not JSON")
        return {}
    if not isinstance(found, dict):
        damage.append(f"its {what} is not a JSON object")
        return {}
    return found


def _number(value: Any, kind: type[int] | type[float], what: str, damage: list[str]) -> Any:
    try:
        return kind(value)
    except (TypeError, ValueError):
        damage.append(f"its {what} is not a number")
        return kind(0)


def _debate_row(row: Sequence[Any]) -> DebateRow:
    """A stored debate; a row damaged outside moot (hand edits, a broken disk) reads
    back with what could be read and ``damaged`` saying what could not."""
    damage: list[str] = []
    return DebateRow(
        id=str(row[0]),
        topic=str(row[1]),
        format=str(row[2]),
        status=str(row[3]),
        config=_json_object(row[4], "config", damage),
        models=_json_object(row[5], "models", damage),
        result_json=row[6] if row[6] is None else str(row[6]),
        error=row[7],
        created_at=str(row[8]),
        updated_at=str(row[9]),
        prompt_tokens=_number(row[10], int, "prompt token count", damage),
        completion_tokens=_number(row[11], int, "completion token count", damage),
        cost_usd=_number(row[12], float, "cost", damage),
        calls=int(row[13]),
        owner=row[14],
        damaged="; ".join(damage) or None,
    )


def require_debate(conn: Connection, debate_id: str, lock: str = "") -> None:
    """``ConfigError`` unless there is a debate with this id (``lock``: `` FOR UPDATE``
    on PostgreSQL, to hold its row until the transaction ends)."""
    sql = f"SELECT 1 FROM debates WHERE id = ?{lock}"  # noqa: S608 (lock is a constant)
    if conn.execute(sql, (debate_id,)).fetchone() is None:
        raise ConfigError(f"no debate with id {debate_id!r}")


def add_to_usage(
    conn: Connection,
    debate_id: str,
    prompt_tokens: int,
    completion_tokens: int,
    cost_usd: float,
) -> int:
    """Add to a debate's totals inside the caller's transaction; the rows changed."""
    cursor = conn.execute(
        "UPDATE debates SET prompt_tokens = prompt_tokens + ?, "
        "completion_tokens = completion_tokens + ?, cost_usd = cost_usd + ?, "
        "updated_at = ? WHERE id = ?",
        (int(prompt_tokens), int(completion_tokens), float(cost_usd), now(), debate_id),
    )
    return cursor.rowcount


class Runs(Database):
    """The store's debates."""

    @property
    def _rowid(self) -> str:
        """The column that orders rows made at the same instant (PostgreSQL has no rowid)."""
        return "id" if self.postgres else "rowid"

    def debate_ids(self) -> list[str]:
        """Every stored debate's id, oldest first."""
        return self._read(
            lambda conn: [
                str(row[0])
                for row in conn.execute(
                    f"SELECT id FROM debates ORDER BY created_at, {self._rowid}"  # noqa: S608
                ).fetchall()
            ]
        )

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
        config_json = dumps(dict(config), "the debate config")
        models_json = dumps(dict(models), "the debate models")

        def insert(conn: Connection) -> None:
            if conn.execute("SELECT 1 FROM debates WHERE id = ?", (debate_id,)).fetchone():
                raise ConfigError(
                    f"a debate with id {debate_id!r} already exists; "
                    "choose another --id, or resume or delete it"
                )
            stamp = now()
            conn.execute(
                "INSERT INTO debates (id, topic, format, status, config, models, "
                "created_at, updated_at, owner) VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)",
                (debate_id, topic, format, config_json, models_json, stamp, stamp, this_process()),
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

        def update(conn: Connection) -> None:
            cursor = conn.execute(
                "UPDATE debates SET status = ?, result_json = ?, error = ?, updated_at = ? "
                "WHERE id = ?",
                (status, result_json, error, now(), debate_id),
            )
            if cursor.rowcount == 0:
                raise ConfigError(f"no debate with id {debate_id!r}")

        self._write(update)

    def claim(self, debate_id: str, *, force: bool = False) -> None:
        """Mark a run ``running`` in this process before resuming it. A run still marked
        ``running`` by a live process (or by another host, which cannot be checked) is
        refused unless ``force``: two processes resuming one run would send the same
        calls twice. The check and the claim are one transaction holding the run's
        row (SQLite: the database's write lock; PostgreSQL: ``FOR UPDATE``)."""
        lock = " FOR UPDATE" if self.postgres else ""

        def update(conn: Connection) -> None:
            # on PostgreSQL the row stays locked until this claim commits, so of two
            # processes claiming one run the second sees the first's claim
            row = conn.execute(
                f"SELECT status, owner FROM debates WHERE id = ?{lock}",  # noqa: S608
                (debate_id,),
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
                (this_process(), now(), debate_id),
            )

        self._write(update)

    def add_usage(
        self, debate_id: str, *, prompt_tokens: int, completion_tokens: int, cost_usd: float
    ) -> None:
        """Add to the debate's token and cost totals."""

        def update(conn: Connection) -> None:
            if add_to_usage(conn, debate_id, prompt_tokens, completion_tokens, cost_usd) == 0:
                raise ConfigError(f"no debate with id {debate_id!r}")

        self._write(update)

    def update_config(self, debate_id: str, config: Mapping[str, Any]) -> None:
        """Replace the debate's config (e.g. a resume with a higher budget)."""
        config_json = dumps(dict(config), "the debate config")

        def update(conn: Connection) -> None:
            cursor = conn.execute(
                "UPDATE debates SET config = ?, updated_at = ? WHERE id = ?",
                (config_json, now(), debate_id),
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
                f"ORDER BY d.created_at DESC, d.{self._rowid} DESC LIMIT ?",
                (max(0, int(limit)),),
            ).fetchall()
        )
        return [_debate_row(row) for row in rows]

    def finished_results(self, format_name: str, limit: int = 200) -> list[tuple[str, str]]:
        """``(id, result JSON)`` of the most recent finished runs of a format, newest
        first (a format reads its earlier debates this way)."""
        rows = self._read(
            lambda conn: conn.execute(
                "SELECT id, result_json FROM debates WHERE format = ? AND status = 'done'"  # noqa: S608
                " AND result_json IS NOT NULL"
                f" ORDER BY created_at DESC, {self._rowid} DESC LIMIT ?",
                (format_name, max(0, int(limit))),
            ).fetchall()
        )
        return [(str(row[0]), str(row[1])) for row in rows]

    def delete_debate(self, debate_id: str) -> bool:
        """Delete the debate and its journaled calls; ``False`` if there was none."""
        return self._write(
            lambda conn: conn.execute("DELETE FROM debates WHERE id = ?", (debate_id,)).rowcount > 0
        )
