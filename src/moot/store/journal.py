"""The journal of model calls: every call of a stored run, in order, with its reply,
usage and validation (``moot.llm.journal`` writes it and replays it on resume)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moot.errors import ConfigError
from moot.store.connection import Connection, Database, dumps, now
from moot.store.runs import add_to_usage, require_debate

VALIDATIONS = ("ok", "invalid", "exhausted")
"""``exhausted``: invalid, and the last re-ask of its call was spent; never replayed."""
CALL_SOURCES = ("live", "cache")


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


_CALL_COLUMNS = (
    "id, debate_id, seq, role, round, side, attempt, model, request_hash, messages, "
    "schema_name, reply, finish_reason, validation, problems, prompt_tokens, "
    "completion_tokens, latency_ms, error, source, created_at, structured_mode, "
    "structured_fallback"
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


class CallJournal(Database):
    """The store's journal of model calls."""

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
        in_flight: int | None = None,
        call_key: str | None = None,
    ) -> int:
        """Journal one model call, committed before returning; returns its id.

        The write is idempotent: ``call_key`` (a fresh one when not given) names the
        call, and a write retried after its commit was lost with the connection finds
        the call journaled and changes nothing.

        ``seq`` is the next number within the debate, assigned under the database's write
        lock, so it is gap-free and unique even with several processes writing. With
        ``cost_usd`` the call's tokens and cost are added to the debate's totals in the
        same transaction, so a crash can never keep the call and lose its usage.
        ``in_flight`` (from ``start_call``) is forgotten in that transaction too."""
        if source not in CALL_SOURCES:
            raise ConfigError(f"unknown call source {source!r}; expected one of {CALL_SOURCES}")
        messages_json = dumps([dict(message) for message in messages], "the call messages")
        fallback_json = (
            dumps(dict(structured_fallback), "the structured-mode fallback")
            if structured_fallback is not None
            else None
        )

        key = call_key or uuid.uuid4().hex
        lock = " FOR UPDATE" if self.postgres else ""

        def insert(conn: Connection) -> int:
            # the debate's row locked (PostgreSQL; SQLite locks the database): the
            # next seq is this writer's alone
            require_debate(conn, debate_id, lock)
            done = conn.execute(
                "SELECT id FROM calls WHERE debate_id = ? AND call_key = ?", (debate_id, key)
            ).fetchone()
            if done is not None:
                return int(done[0])
            rows = conn.execute(
                "INSERT INTO calls (debate_id, seq, role, round, side, attempt, model, "
                "request_hash, messages, schema_name, reply, finish_reason, prompt_tokens, "
                "completion_tokens, latency_ms, error, source, created_at, structured_mode, "
                "structured_fallback, call_key) VALUES "
                "(?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE debate_id = ?), "
                "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
                    now(),
                    structured_mode,
                    fallback_json,
                    key,
                ),
            ).fetchall()
            call_id = int(rows[0][0])
            if in_flight is not None:
                conn.execute("DELETE FROM calls_in_flight WHERE id = ?", (int(in_flight),))
            if cost_usd is not None:
                add_to_usage(conn, debate_id, prompt_tokens, completion_tokens, cost_usd)
            return call_id

        return self._write(insert)

    def set_validation(self, call_id: int, validation: str, problems: Sequence[str]) -> None:
        """Record whether the call's reply validated (``ok`` or ``invalid``) and why not."""
        if validation not in VALIDATIONS:
            raise ConfigError(
                f"unknown validation outcome {validation!r}; expected one of {VALIDATIONS}"
            )
        problems_json = dumps([str(problem) for problem in problems], "the problems")

        def update(conn: Connection) -> None:
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

        def update(conn: Connection) -> None:
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
