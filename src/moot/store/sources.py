"""The index of source documents (``--sources``): each document once by its SHA-256,
its passages in an FTS5 table with the trigram tokenizer, and passage vectors kept
once a reranking has computed them. A second run on the same documents finds them
here and indexes nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from moot.store.connection import Connection, Database, is_postgres, now


@dataclass(frozen=True)
class StoredPassage:
    """One passage of an indexed document, as the index keeps it."""

    number: int
    text: str
    page: int | None
    line_start: int | None
    line_end: int | None


@dataclass(frozen=True)
class StoredDocument:
    """An indexed document: its kind, title and passages."""

    kind: str
    title: str
    passages: tuple[StoredPassage, ...]


def _passage(row: Sequence[object]) -> StoredPassage:
    number, text, page, start, end = row
    return StoredPassage(
        int(str(number)),
        str(text),
        None if page is None else int(str(page)),
        None if start is None else int(str(start)),
        None if end is None else int(str(end)),
    )


class SourceIndex(Database):
    """The store's source index."""

    def source_document(self, sha256: str) -> StoredDocument | None:
        """The indexed document with this hash, or None when it was never indexed."""

        def read(conn: Connection) -> StoredDocument | None:
            row = conn.execute(
                "SELECT kind, title FROM source_documents WHERE sha256 = ?", (sha256,)
            ).fetchone()
            if row is None:
                return None
            rows = conn.execute(
                "SELECT number, text, page, line_start, line_end FROM source_passages"
                " WHERE sha256 = ? ORDER BY number",
                (sha256,),
            ).fetchall()
            return StoredDocument(str(row[0]), str(row[1]), tuple(_passage(r) for r in rows))

        return self._read(read)

    def source_add(
        self, sha256: str, kind: str, title: str, passages: Sequence[StoredPassage]
    ) -> None:
        """Index a document's passages under its hash (nothing when it is already)."""
        self.source_add_all([(sha256, kind, title, passages)])

    def source_add_all(
        self, documents: Sequence[tuple[str, str, str, Sequence[StoredPassage]]]
    ) -> None:
        """Index ``(sha256, kind, title, passages)`` documents in one transaction (a
        document already indexed is left as it is)."""

        def write(conn: Connection) -> None:
            for sha256, kind, title, passages in documents:
                _add(conn, sha256, kind, title, passages)

        self._write(write)

    def source_search(
        self, shas: Sequence[str], match: str, limit: int
    ) -> list[tuple[str, int, float]]:
        """``(sha256, passage number, bm25 rank)`` of the passages of the documents
        ``shas`` that FTS5 query ``match`` finds, best first (lowest rank). On
        PostgreSQL (no FTS5) see :func:`_search_pg`."""
        if not shas or not match:
            return []
        if self.postgres:
            return self._read(lambda conn: _search_pg(conn, shas, match, limit))
        marks = ",".join("?" for _ in shas)

        def read(conn: Connection) -> list[tuple[str, int, float]]:
            rows = conn.execute(
                "SELECT p.sha256, p.number, source_fts.rank FROM source_fts"  # noqa: S608
                " JOIN source_passages AS p ON p.id = source_fts.rowid"
                f" WHERE source_fts MATCH ? AND p.sha256 IN ({marks})"
                " ORDER BY source_fts.rank LIMIT ?",
                (match, *shas, limit),
            ).fetchall()
            return [(str(r[0]), int(str(r[1])), float(r[2])) for r in rows]

        return self._read(read)

    def source_vectors(self, sha256: str, model: str) -> dict[int, bytes]:
        """The kept vectors of a document's passages under ``model``, by passage number."""
        rows = self._read(
            lambda conn: conn.execute(
                "SELECT number, vector FROM source_vectors WHERE sha256 = ? AND model = ?",
                (sha256, model),
            ).fetchall()
        )
        return {int(r[0]): bytes(r[1]) for r in rows}

    def source_keep_vectors(self, sha256: str, model: str, vectors: dict[int, bytes]) -> None:
        """Keep passage vectors computed under ``model`` (a kept one is left alone)."""
        self._write(
            lambda conn: conn.executemany(
                "INSERT INTO source_vectors (sha256, number, model, vector)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(sha256, n, model, v) for n, v in vectors.items()],
            )
        )


def _add(
    conn: Connection,
    sha256: str,
    kind: str,
    title: str,
    passages: Sequence[StoredPassage],
) -> None:
    known = conn.execute("SELECT 1 FROM source_documents WHERE sha256 = ?", (sha256,)).fetchone()
    if known is not None:
        return
    conn.execute(
        "INSERT INTO source_documents (sha256, kind, title, passages, indexed_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (sha256, kind, title, len(passages), now()),
    )
    conn.executemany(
        "INSERT INTO source_passages (sha256, number, text, page, line_start, line_end)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(sha256, p.number, p.text, p.page, p.line_start, p.line_end) for p in passages],
    )
    if is_postgres(conn):
        return  # the passages' own trigram index (migration 0006) covers them
    conn.execute(
        "INSERT INTO source_fts (rowid, text) SELECT id, text FROM source_passages"
        " WHERE sha256 = ?",
        (sha256,),
    )


_PHRASE = re.compile(r'"([^"]*)"')
#: FTS5's trigram tokenizer finds no term shorter than a trigram
_TRIGRAM = 3


def _like(term: str) -> str:
    """``term`` as an ``ILIKE`` pattern that finds it anywhere (its own ``%``, ``_``
    and ``\\`` taken literally)."""
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _search_pg(
    conn: Connection, shas: Sequence[str], match: str, limit: int
) -> list[tuple[str, int, float]]:
    """The FTS5 search on PostgreSQL: the FTS5 query ``match`` (quoted terms joined
    by OR, as ``moot.sources.retrieval.fts_query`` writes it) finds the passages that
    hold any term as a substring, case-insensitively, as FTS5's trigram tokenizer
    does (served by pg_trgm's index when it exists). BM25 is FTS5's: here the rank is
    minus the number of distinct terms a passage holds (lower is better, as BM25's),
    ties in passage order. The same passages are found; their order may differ."""
    terms = [t for t in dict.fromkeys(_PHRASE.findall(match)) if len(t) >= _TRIGRAM]
    if not terms:
        return []
    hits = " + ".join("(CASE WHEN text ILIKE ? THEN 1 ELSE 0 END)" for _ in terms)
    found = " OR ".join("text ILIKE ?" for _ in terms)
    marks = ",".join("?" for _ in shas)
    patterns = [_like(t) for t in terms]
    rows = conn.execute(
        f"SELECT sha256, number, -({hits}) AS rank FROM source_passages"  # noqa: S608
        f" WHERE sha256 IN ({marks}) AND ({found}) ORDER BY rank, id LIMIT ?",
        (*patterns, *shas, *patterns, limit),
    ).fetchall()
    return [(str(r[0]), int(str(r[1])), float(r[2])) for r in rows]
