"""The judge history: whether each panel judge favoured the side known to be right,
from which the panel weighs a judge by its historical accuracy."""

from __future__ import annotations

from moot.store.connection import Connection, Database, now


class JudgeHistory(Database):
    """The store's judge history."""

    def record_judge_outcome(self, judge_name: str, debate_id: str, correct: bool) -> None:
        """Record whether a judge favoured the side known to be right in a debate."""
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO judge_history (judge_name, debate_id, correct, recorded_at)"
                " VALUES (?, ?, ?, ?)",
                (judge_name, debate_id, int(correct), now()),
            )
        )

    def judge_accuracy(self, judge_name: str) -> tuple[int, int]:
        """(hits, debates) recorded for a judge."""

        def query(conn: Connection) -> tuple[int, int]:
            row = conn.execute(
                "SELECT COALESCE(SUM(correct), 0), COUNT(*) FROM judge_history"
                " WHERE judge_name = ?",
                (judge_name,),
            ).fetchone()
            return int(row[0]), int(row[1])

        return self._read(query)
