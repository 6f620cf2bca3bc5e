"""The response cache: JSON values under a key (model replies, and values a format
keeps between runs), with their hit counts."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from moot.store.connection import Connection, Database, dumps, now


class ResponseCache(Database):
    """The store's response cache."""

    def cache_get(self, key: str) -> dict[str, Any] | None:
        """The cached value for ``key`` (counting a hit), or ``None``. An entry that no
        longer parses as a JSON object is dropped and reported as a miss."""

        def lookup(conn: Connection) -> dict[str, Any] | None:
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
                "UPDATE cache SET hits = hits + 1, last_hit_at = ? WHERE key = ?", (now(), key)
            )
            return value

        return self._write(lookup)

    def cache_put(self, key: str, *, model: str, value: Mapping[str, Any]) -> None:
        """Store ``value`` (JSON) under ``key``, replacing any previous entry."""
        value_json = dumps(dict(value), "the cache value")
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO cache (key, model, value, hits, created_at) VALUES (?, ?, ?, 0, ?) "
                "ON CONFLICT (key) DO UPDATE SET model = excluded.model, "
                "value = excluded.value, hits = 0, created_at = excluded.created_at, "
                "last_hit_at = NULL",
                (key, model, value_json, now()),
            )
        )

    def cache_delete(self, key: str) -> None:
        """Remove one cache entry (no error if there is none)."""
        self._write(lambda conn: conn.execute("DELETE FROM cache WHERE key = ?", (key,)))

    def cache_stats(self) -> dict[str, int]:
        """``entries``, total ``hits`` and the ``bytes`` of the stored values."""
        size = "OCTET_LENGTH(value)" if self.postgres else "LENGTH(CAST(value AS BLOB))"
        row = self._read(
            lambda conn: conn.execute(
                f"SELECT COUNT(*), COALESCE(SUM(hits), 0), COALESCE(SUM({size}), 0)"  # noqa: S608
                " FROM cache"
            ).fetchone()
        )
        return {"entries": int(row[0]), "hits": int(row[1]), "bytes": int(row[2])}

    def cache_clear(self) -> int:
        """Remove every cache entry; returns how many there were."""
        return self._write(lambda conn: conn.execute("DELETE FROM cache").rowcount)
