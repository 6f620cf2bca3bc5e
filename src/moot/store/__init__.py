"""The SQLite store: debates, the journal of every model call, the response cache and
the judge history.

One database file (``default_path()``: ``$MOOT_HOME/moot.db``, else ``moot.db`` in the
user's data directory) holds everything. The package's modules:

- ``connection``: the one connection (WAL, busy timeout, ``BEGIN IMMEDIATE`` writes
  retried while the database is locked, one lock shared by threads) and the
  ``StoreError`` a store that cannot be used raises;
- ``migrations``: the schema, as ordered migrations applied once each and recorded
  in the ``migrations`` table;
- ``runs``, ``journal``, ``inflight``, ``cache``, ``judge_history``: one table's
  operations each (``inflight``: the calls sent and not journaled yet);
- ``stores``: :class:`Store`, which has them all, and :class:`ReadOnlyStore`.

JSON values (configs, messages, cached replies) are stored as UTF-8 JSON text, never
pickled. Timestamps are ISO-8601 UTC strings.
"""

from __future__ import annotations

from moot.store.connection import default_path
from moot.store.journal import CALL_SOURCES, VALIDATIONS, CallRow
from moot.store.migrations import MIGRATIONS
from moot.store.runs import STATUSES, DebateRow, owner_alive, this_process
from moot.store.stores import ReadOnlyStore, Store

__all__ = [
    "CALL_SOURCES",
    "MIGRATIONS",
    "STATUSES",
    "VALIDATIONS",
    "CallRow",
    "DebateRow",
    "ReadOnlyStore",
    "Store",
    "default_path",
    "owner_alive",
    "this_process",
]
