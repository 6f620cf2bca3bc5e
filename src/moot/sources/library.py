"""The documents a debate argues from (``--sources``): found, checked, read, cut into
passages and indexed, before any model call.

:func:`open_library` takes the paths the user gave (files or folders; a folder is
read recursively, its hidden entries and files of kinds no reader takes skipped) and
refuses, with a ``DataError`` naming the file, what cannot be a document: a missing
or unreadable path, an empty, binary, encrypted-PDF or oversized file, or more files
or bytes than the limits below. Each document is hashed (SHA-256 of its bytes); one
already in the index (the run store's ``source_passages``) is not read again, so a
second run on the same documents indexes nothing.

Documents are numbered ``S1``, ``S2``... in the order found (the paths in the order
given, a folder's files sorted by path), their passages ``S1:p1``, ``S1:p2``...
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from moot.errors import DataError
from moot.sources.passages import split
from moot.sources.readers import kind_of, read_blocks, title_of
from moot.store.sources import SourceIndex, StoredPassage

MAX_FILES = 10_000
"""The most documents one debate takes (a folder of 5,000 files is well inside)."""
MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest single document, in bytes."""
MAX_TOTAL_BYTES = 512 * 1024 * 1024
"""The most bytes all the documents of one debate may hold together."""

Progress = Callable[[int, int, int], None]
"""``(documents done, documents in all, documents indexed so far)`` while indexing."""


@dataclass(frozen=True)
class Passage:
    """One passage of a document, the unit a citation names."""

    id: str
    """``S2:p14``: the document's id and the passage's number in it."""
    source: str
    number: int
    text: str
    page: int | None
    line_start: int | None
    line_end: int | None

    @property
    def where(self) -> str:
        """Where the passage lies: ``p. 3``, ``lines 4-9`` or ``line 4``."""
        if self.page is not None:
            return f"p. {self.page}"
        if self.line_start is None:
            return ""
        if self.line_end is None or self.line_end == self.line_start:
            return f"line {self.line_start}"
        return f"lines {self.line_start}-{self.line_end}"


@dataclass(frozen=True)
class Document:
    """A document given with ``--sources``."""

    id: str
    path: str
    title: str
    sha256: str
    kind: str
    passages: tuple[Passage, ...]


@dataclass
class Library:
    """A debate's documents and the index that finds their passages."""

    documents: list[Document]
    index: SourceIndex
    indexed: int = 0
    """Documents read and indexed by this run (0 when every one was indexed before)."""
    reused: int = 0
    """Documents found in the index by their hash, not read again."""
    _by_id: dict[str, Passage] = field(default_factory=dict)
    _by_sha: dict[tuple[str, int], Passage] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for doc in self.documents:
            for p in doc.passages:
                self._by_id[p.id] = p
                self._by_sha[(doc.sha256, p.number)] = p

    def passage(self, ident: str) -> Passage | None:
        """The passage with this id (``S1:p3``, in any case, with a full-width colon or
        in brackets as a model may write it), or None."""
        bare = ident.strip().strip("[]()【】（） ").replace("：", ":").replace(" ", "")
        return self._by_id.get(bare.upper().replace(":P", ":p"))

    def document(self, ident: str) -> Document | None:
        return next((d for d in self.documents if d.id == ident), None)

    def sha_of(self, source: str) -> str:
        """The hash of the document ``source`` (``S1``) of this library."""
        return next(d.sha256 for d in self.documents if d.id == source)

    def passages(self) -> Iterator[Passage]:
        for doc in self.documents:
            yield from doc.passages

    def hashes(self) -> list[dict[str, str]]:
        """Each document's path and hash, as a stored run keeps them."""
        return [{"path": d.path, "sha256": d.sha256} for d in self.documents]

    def found(self, sha256: str, number: int) -> Passage | None:
        return self._by_sha.get((sha256, number))


def _walk(root: Path) -> Iterator[Path]:
    """The files under ``root`` a reader takes, sorted, hidden entries skipped;
    ``DataError`` naming an entry of a document kind that is not a regular file (a
    device, a pipe, a broken link), as for one named directly: never read, since a
    device or a pipe may never end, and never dropped unsaid."""
    entries: list[Path] = []
    for directory, dirs, files in os.walk(root, onerror=_unreadable_folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        entries += [Path(directory, f) for f in files if not f.startswith(".")]
    for path in sorted(entries):
        if kind_of(path) is None:
            continue
        if not path.exists():
            raise DataError(f"--sources: {path} does not exist (a broken link)")
        if not path.is_file():
            raise DataError(f"--sources: {path} is not a regular file or folder")
        yield path


def _unreadable_folder(exc: OSError) -> None:
    raise DataError(f"--sources: cannot read the folder {exc.filename} ({exc.strerror})")


def collect(paths: Sequence[str | Path]) -> list[Path]:
    """Every document file the paths name, in order, each once; ``DataError`` naming
    the path for one that is missing, not a file or folder, or of a kind no reader
    takes, and when the files are more or larger than the limits."""
    found: list[Path] = []
    seen: set[Path] = set()
    total = 0
    for given in paths:
        path = Path(given).expanduser()
        if not path.exists():
            raise DataError(f"--sources: {path} does not exist")
        if path.is_dir():
            files = list(_walk(path))
            if not files:
                raise DataError(
                    f"--sources: the folder {path} holds no document moot reads"
                    " (.txt, .md, .html, .pdf, .csv)"
                )
        elif path.is_file():
            if kind_of(path) is None:
                raise DataError(
                    f"--sources: {path} is not a document moot reads (.txt, .md, .html, .pdf, .csv)"
                )
            files = [path]
        else:
            raise DataError(f"--sources: {path} is not a regular file or folder")
        for file in files:
            key = file.resolve()
            if key in seen:
                continue
            seen.add(key)
            size = file.stat().st_size
            if size > MAX_FILE_BYTES:
                raise DataError(
                    f"document {file} is too large ({size:,} bytes; the limit is"
                    f" {MAX_FILE_BYTES:,})"
                )
            if size == 0:
                raise DataError(f"document {file} is empty")
            total += size
            found.append(file)
            if len(found) > MAX_FILES:
                raise DataError(
                    f"--sources: the paths name more than {MAX_FILES:,} documents (at {file})"
                )
            if total > MAX_TOTAL_BYTES:
                raise DataError(
                    f"--sources: the documents hold more than {MAX_TOTAL_BYTES:,} bytes (at {file})"
                )
    return found


def _bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise DataError(f"document {path} cannot be read ({exc.strerror or exc})") from exc


def sha256_of(path: Path) -> str:
    """The SHA-256 of a document's bytes (``DataError`` naming it if unreadable)."""
    return hashlib.sha256(_bytes(path)).hexdigest()


def open_library(
    paths: Sequence[str | Path], index: SourceIndex, on_progress: Progress | None = None
) -> Library:
    """Find, check, read and index the documents ``paths`` name (see the module)."""
    files = collect(paths)
    documents: list[Document] = []
    pending: list[tuple[str, str, str, list[StoredPassage]]] = []
    reused = 0
    # every new document is read and checked before anything is written, so a bad
    # one leaves the index as it was
    for n, path in enumerate(files, start=1):
        data = _bytes(path)
        sha = hashlib.sha256(data).hexdigest()
        kind = kind_of(path) or "text"
        stored = index.source_document(sha)
        if stored is None:
            blocks = read_blocks(data, path, kind)
            passages = [
                StoredPassage(k, p.text, p.page, p.line_start, p.line_end)
                for k, p in enumerate(split(blocks, kind), start=1)
            ]
            title = title_of(blocks, path, kind)
            if all(sha != other for other, _, _, _ in pending):  # the same bytes twice
                pending.append((sha, kind, title, passages))
        else:
            passages, title, kind = list(stored.passages), stored.title, stored.kind
            reused += 1
        documents.append(_document(f"S{n}", path, title, sha, kind, passages))
        if on_progress is not None:
            on_progress(n, len(files), len(pending))
    index.source_add_all(pending)  # one transaction
    return Library(documents, index, indexed=len(pending), reused=reused)


def _document(
    ident: str, path: Path, title: str, sha: str, kind: str, passages: Sequence[StoredPassage]
) -> Document:
    return Document(
        id=ident,
        path=str(path.resolve()),
        title=title,
        sha256=sha,
        kind=kind,
        passages=tuple(
            Passage(
                id=f"{ident}:p{p.number}",
                source=ident,
                number=p.number,
                text=p.text,
                page=p.page,
                line_start=p.line_start,
                line_end=p.line_end,
            )
            for p in passages
        ),
    )


def changed_documents(stored: Sequence[dict[str, str]]) -> list[str]:
    """What changed among a stored run's documents (``{path, sha256}`` each): one line
    per document that is missing, unreadable or whose bytes differ."""
    changes = []
    for entry in stored:
        path = Path(entry["path"])
        try:
            now = sha256_of(path)
        except DataError as exc:
            changes.append(str(exc))
            continue
        if now != entry["sha256"]:
            changes.append(
                f"document {path} changed since the run started (SHA-256 {entry['sha256'][:12]}"
                f"... then, {now[:12]}... now)"
            )
    return changes
