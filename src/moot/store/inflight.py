"""Calls in flight: a row per model call that has been sent and not yet journaled,
so a reader of the store (the viewer's live page) can show what a running debate is
waiting for and since when. ``record_call`` deletes the row in the transaction that
journals the call; a row left by a process that died is cleared when the run is
resumed (``clear_in_flight``) and is ignored by readers of a run that is not running.
"""

from __future__ import annotations

from dataclasses import dataclass

from moot.store.connection import Connection, Database, now, table_names
from moot.store.runs import require_debate

TABLE = "calls_in_flight"


@dataclass(frozen=True)
class FlightRow:
    """One call sent and not answered yet."""

    id: int
    debate_id: str
    role: str
    round: str
    side: str | None
    attempt: int
    model: str
    started_at: str


class CallsInFlight(Database):
    """The store's calls in flight."""

    def start_call(
        self,
        debate_id: str,
        *,
        role: str,
        round: str,
        side: str | None,
        attempt: int,
        model: str,
    ) -> int:
        """Note a call that is being sent; returns the id ``record_call`` or
        ``end_call`` takes to remove it."""

        def insert(conn: Connection) -> int:
            require_debate(conn, debate_id)
            rows = conn.execute(
                "INSERT INTO calls_in_flight"
                " (debate_id, role, round, side, attempt, model, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (debate_id, role, round, side, int(attempt), model, now()),
            ).fetchall()
            return int(rows[0][0])

        return self._write(insert)

    def end_call(self, flight: int) -> None:
        """Forget a call in flight that will not be journaled (refused, cancelled)."""
        self._write(
            lambda conn: conn.execute("DELETE FROM calls_in_flight WHERE id = ?", (int(flight),))
        )

    def clear_in_flight(self, debate_id: str) -> None:
        """Forget every call in flight of a run (left by a process that ended)."""
        self._write(
            lambda conn: conn.execute(
                "DELETE FROM calls_in_flight WHERE debate_id = ?", (debate_id,)
            )
        )

    def calls_in_flight(self, debate_id: str) -> list[FlightRow]:
        """The run's calls in flight, newest first (none in a store written before
        they were kept)."""

        def select(conn: Connection) -> list[FlightRow]:
            if TABLE not in table_names(conn):
                return []
            rows = conn.execute(
                "SELECT id, debate_id, role, round, side, attempt, model, started_at"
                " FROM calls_in_flight WHERE debate_id = ? ORDER BY started_at DESC, id DESC",
                (debate_id,),
            ).fetchall()
            return [
                FlightRow(
                    id=int(r[0]),
                    debate_id=r[1],
                    role=r[2],
                    round=r[3],
                    side=r[4],
                    attempt=int(r[5]),
                    model=r[6],
                    started_at=r[7],
                )
                for r in rows
            ]

        return self._read(select)
