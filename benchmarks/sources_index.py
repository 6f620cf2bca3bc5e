"""Indexing documents for ``--sources``: wall time of reading, cutting into passages
and indexing (SQLite FTS5, trigram tokens) a 1,000-page PDF and a folder of 5,000
small text files, the second run that finds every document by its hash, and one
passage selection with the encoder's reranking.

    python benchmarks/sources_index.py            # 1,000 pages, 5,000 files
    python benchmarks/sources_index.py --pages 200 --files 500
    python benchmarks/sources_index.py --folder-mb 200   # a mixed 200 MB folder only

``--folder-mb N`` generates a folder of about N MB of mixed documents (a third of the
bytes PDFs of 300 pages, a third HTML pages, a third plain text) and reports the two
runs over it with the process's peak resident memory (``ru_maxrss``).

The documents are generated in a temporary folder (sentences of a few invented
billing and incident topics, so the terms repeat as in real notes); the index is a
fresh run store there. Times are wall-clock seconds on this machine; the load
average is printed beside them, since a loaded machine inflates them.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import tempfile
import time
from pathlib import Path

from moot.sources.library import open_library
from moot.sources.retrieval import reranker_name, select
from moot.store import Store

WORDS = (
    *("billing", "invoice", "renderer", "latency", "memory", "migration", "Rust", "Go"),
    *("worker", "cache", "tax", "rules", "quarter", "incident", "restart", "alarm"),
    *("engineer", "prototype", "service", "instance", "throughput", "customer"),
    *("profile", "eviction", "review", "plan", "estimate", "risk", "test", "case"),
)


def sentence(rng: random.Random) -> str:
    words = rng.sample(WORDS, 9)
    return f"The {' '.join(words)} figure was {rng.randint(2, 9000)} in week {rng.randint(1, 52)}."


def pdf(pages: int, rng: random.Random) -> bytes:
    """A PDF of ``pages`` pages, each about 30 lines of text (about 2,000 characters)."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    font = 3 + 2 * pages
    kids = []
    for n in range(pages):
        page, content = 3 + 2 * n, 4 + 2 * n
        kids.append(f"{page} 0 R")
        lines = " T* ".join(f"({sentence(rng)}) Tj" for _ in range(30))
        stream = f"BT /F1 9 Tf 12 TL 36 760 Td {lines} ET".encode()
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {content} 0 R"
            f" /Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>".encode()
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (n, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    trailer = b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n"
    out.write(trailer % (len(objects) + 1, xref))
    return out.getvalue()


def html(rng: random.Random, paragraphs: int) -> str:
    """An HTML page of ``paragraphs`` paragraphs, with the markup a real page has."""
    body = "\n".join(
        f"<p class='note'>{' '.join(sentence(rng) for _ in range(4))}</p>"
        for _ in range(paragraphs)
    )
    return (
        "<!doctype html><html><head><title>Billing notes</title>"
        "<style>p { margin: 0 }</style><script>var x = 1;</script></head>"
        f"<body><h1>Billing notes</h1><nav><a href='#'>home</a></nav>{body}</body></html>"
    )


def mixed_folder(root: Path, megabytes: int, rng: random.Random) -> tuple[int, int]:
    """About ``megabytes`` MB of PDFs, HTML pages and text files under ``root``, a third
    of the bytes each; (files, bytes) written."""
    share = megabytes * 1_000_000 // 3
    files = written = 0
    for kind in ("pdf", "html", "txt"):
        done = 0
        while done < share:
            path = root / kind / f"doc-{files:05d}.{kind}"
            path.parent.mkdir(exist_ok=True)
            if kind == "pdf":
                data = pdf(300, rng)
            elif kind == "html":
                data = html(rng, 400).encode()
            else:
                data = "\n\n".join(
                    " ".join(sentence(rng) for _ in range(3)) for _ in range(300)
                ).encode()
            path.write_bytes(data)
            done += len(data)
            files += 1
        written += done
    return files, written


def peak_mb() -> float:
    """The process's peak resident memory so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def folder_run(megabytes: int, rng: random.Random) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        docs = root / "docs"
        docs.mkdir()
        started = time.perf_counter()
        files, size = mixed_folder(docs, megabytes, rng)
        print(
            f"generated {files} files, {size:,} bytes in {time.perf_counter() - started:.1f} s;"
            f" peak memory {peak_mb():.0f} MB"
        )
        store = Store(root / "moot.db")
        for label in ("first run", "second run"):
            print(f"load average before the {label}: {os.getloadavg()}")
            timed(f"{megabytes} MB folder, {label}", [docs], store)
            print(f"peak memory after the {label}: {peak_mb():.0f} MB")
        print(f"index size: {(root / 'moot.db').stat().st_size:,} bytes")


def timed(label: str, paths: list[Path], store: Store) -> None:
    started = time.perf_counter()
    library = open_library(paths, store)
    seconds = time.perf_counter() - started
    passages = sum(len(d.passages) for d in library.documents)
    print(
        f"{label}: {len(library.documents)} documents, {passages} passages,"
        f" {library.indexed} indexed, {library.reused} found by hash: {seconds:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--folder-mb", type=int, default=0, help="only a mixed folder of N MB")
    args = parser.parse_args()
    rng = random.Random(7)  # noqa: S311 (invented text, not secrets)
    print(f"load average before: {os.getloadavg()}")
    if args.folder_mb:
        folder_run(args.folder_mb, rng)
        print(f"load average after: {os.getloadavg()}")
        return
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        store = Store(root / "moot.db")
        book = root / "book.pdf"
        book.write_bytes(pdf(args.pages, rng))
        print(f"{args.pages}-page PDF: {book.stat().st_size:,} bytes")
        timed(f"{args.pages} pages, first run", [book], store)
        timed(f"{args.pages} pages, second run", [book], store)
        notes = root / "notes"
        notes.mkdir()
        for n in range(args.files):
            text = "\n\n".join(sentence(rng) for _ in range(rng.randint(2, 6)))
            (notes / f"note-{n:05d}.txt").write_text(text + "\n", encoding="utf-8")
        timed(f"{args.files} text files, first run", [notes], store)
        timed(f"{args.files} text files, second run", [notes], store)
        library = open_library([book, notes], store)
        started = time.perf_counter()
        chosen = select(library, ["memory of the billing worker after the migration"], 1200)
        print(
            f"one selection ({len(chosen)} passages, reranker: {reranker_name() or 'none'}):"
            f" {time.perf_counter() - started:.2f} s"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
