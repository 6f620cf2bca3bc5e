"""The two ways to open the store: :class:`Store` (reads and writes; creates and
migrates the database) and :class:`ReadOnlyStore` (``moot view``)."""

from __future__ import annotations

from pathlib import Path

from moot.store.cache import ResponseCache
from moot.store.connection import Database
from moot.store.inflight import CallsInFlight
from moot.store.journal import CallJournal
from moot.store.judge_history import JudgeHistory
from moot.store.migrations import applied, check_known, migrate
from moot.store.runs import Runs
from moot.store.sources import SourceIndex


class Store(Runs, CallJournal, CallsInFlight, ResponseCache, JudgeHistory, SourceIndex):
    """A connection to the moot database; opens (and creates or migrates) it at once.

    Thread-safe: one connection, one lock. Use as a context manager or call ``close``.
    """

    def __init__(self, path: Path | str | None = None) -> None:
        super().__init__(path)
        try:
            migrate(self)
        except BaseException:
            self._conn.close()
            raise

    def migrations(self) -> list[tuple[str, str]]:
        """The applied migrations as ``(name, applied_at)``, in the order applied."""
        return applied(self)


class ReadOnlyStore(Store):
    """The store opened for reading only (``moot view``): SQLite's read-only mode
    (``mode=ro``) plus ``query_only``, so no statement can change it. It never
    creates or migrates a database: the file must exist and hold no migration this
    version does not know. Every writing method raises ``ConfigError``."""

    def __init__(self, path: Path | str | None = None) -> None:
        Database.__init__(self, path, read_only=True)  # not Store's: it would migrate
        try:
            check_known(self)
        except BaseException:
            self._conn.close()
            raise
