"""The index of source documents (``--sources``): each document once by its SHA-256,
its passages in an FTS5 table with the trigram tokenizer, and passage vectors kept
once a reranking has computed them. A second run on the same documents finds them
here and indexes nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from moot.store.connection import Database, now


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

        def read(conn: sqlite3.Connection) -> StoredDocument | None:
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

        def write(conn: sqlite3.Connection) -> None:
            for sha256, kind, title, passages in documents:
                _add(conn, sha256, kind, title, passages)

        self._write(write)

    def source_search(
        self, shas: Sequence[str], match: str, limit: int
    ) -> list[tuple[str, int, float]]:
        """``(sha256, passage number, bm25 rank)`` of the passages of the documents
        ``shas`` that FTS5 query ``match`` finds, best first (lowest rank)."""
        if not shas or not match:
            return []
        marks = ",".join("?" for _ in shas)

        def read(conn: sqlite3.Connection) -> list[tuple[str, int, float]]:
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
                "INSERT OR IGNORE INTO source_vectors (sha256, number, model, vector)"
                " VALUES (?, ?, ?, ?)",
                [(sha256, n, model, v) for n, v in vectors.items()],
            )
        )


def _add(
    conn: sqlite3.Connection,
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
    conn.execute(
        "INSERT INTO source_fts (rowid, text) SELECT id, text FROM source_passages"
        " WHERE sha256 = ?",
        (sha256,),
    )
