"""Readers: a document file as blocks of text, each with where it came from.

One reader per kind, chosen by the file's extension: plain text and Markdown (read
as UTF-8, line by line), HTML (parsed by Beautiful Soup with Python's own
``html.parser``: scripts, styles and markup are dropped, text kept), PDF (pypdf,
page by page) and CSV (the standard library's reader; each row shown as a line of a
table, ``column: value | column: value``). PDF and HTML need the ``sources`` extra
(``pip install 'moot[sources]'``).

A file that cannot be a document is refused with a ``DataError`` naming it: not
UTF-8 or holding NUL bytes (binary), an encrypted PDF, a PDF or HTML with no text.
Control characters other than line breaks and tabs are removed from the text: they
are never evidence and could hide text from a reader of the report.
"""

from __future__ import annotations

import csv
import importlib
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moot.errors import ConfigError, DataError

INSTALL_HINT = "pip install 'moot[sources]'"
_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]"
)


@dataclass(frozen=True)
class Block:
    """A run of text from a document: a line of a text file, a page of a PDF, a row
    of a CSV table. ``page`` (PDF) or ``line`` (the others, 1-based) says where."""

    text: str
    page: int | None = None
    line: int | None = None


KINDS: dict[str, str] = {
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".htm": "html",
    ".html": "html",
    ".pdf": "pdf",
    ".csv": "csv",
}
"""The extensions read, and the kind of document each is."""


def kind_of(path: Path) -> str | None:
    """The kind of document ``path`` is by its extension, or None when none is read."""
    return KINDS.get(path.suffix.lower())


def clean(text: str) -> str:
    """``text`` without control and invisible direction characters (line breaks and
    tabs kept)."""
    return _CONTROL.sub("", text)


def _text(data: bytes, path: Path) -> str:
    if b"\x00" in data:
        raise DataError(f"document {path} is binary (it holds NUL bytes), not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(
            f"document {path} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset"
            f" {exc.start}); save it as UTF-8"
        ) from exc
    return clean(text)


def _lines(data: bytes, path: Path) -> list[Block]:
    return [Block(line, line=n) for n, line in enumerate(_text(data, path).splitlines(), 1)]


def _module(name: str, path: Path) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ConfigError(
            f"reading {path} needs the {name} package, which is not installed ({INSTALL_HINT})"
        ) from exc


def _html(data: bytes, path: Path) -> list[Block]:
    bs4 = _module("bs4", path)
    soup = bs4.BeautifulSoup(_text(data, path), "html.parser")
    for tag in soup(["script", "style", "noscript", "template", "head"]):
        tag.decompose()
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    text = soup.get_text("\n")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    blocks = [Block(line, line=n) for n, line in enumerate(lines, 1)]
    if title and not any(b.text for b in blocks):
        blocks = [Block(title, line=1)]
    return blocks


def _pdf(data: bytes, path: Path) -> list[Block]:
    pypdf = _module("pypdf", path)
    errors = (ValueError, OSError, KeyError, TypeError, pypdf.errors.PyPdfError)
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise DataError(f"document {path} is an encrypted PDF; give a decrypted copy")
        pages = [page.extract_text() or "" for page in reader.pages]
    except DataError:
        raise
    except errors as exc:
        raise DataError(f"document {path} is not a readable PDF ({exc})") from exc
    return [Block(clean(text), page=n) for n, text in enumerate(pages, 1)]


def _csv(data: bytes, path: Path) -> list[Block]:
    text = _text(data, path)
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as exc:
        raise DataError(f"document {path} is not a readable CSV table ({exc})") from exc
    if not rows:
        return []
    header = [h.strip() or f"column {n}" for n, h in enumerate(rows[0], 1)]
    blocks = [Block(" | ".join(header), line=1)]
    for n, row in enumerate(rows[1:], 2):
        cells = [
            f"{header[i] if i < len(header) else f'column {i + 1}'}: {value.strip()}"
            for i, value in enumerate(row)
            if value.strip()
        ]
        if cells:
            blocks.append(Block(" | ".join(cells), line=n))
    return blocks


READERS: dict[str, Callable[[bytes, Path], list[Block]]] = {
    "text": _lines,
    "markdown": _lines,
    "html": _html,
    "pdf": _pdf,
    "csv": _csv,
}


def read_blocks(data: bytes, path: Path, kind: str) -> list[Block]:
    """The blocks of the document ``path`` (its bytes ``data``) of ``kind``;
    ``DataError`` naming the file when it is binary, encrypted or has no text."""
    blocks = READERS[kind](data, path)
    if not any(b.text.strip() for b in blocks):
        raise DataError(f"document {path} has no text to argue from (it is empty)")
    return blocks


_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(\S.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def _first_line(blocks: list[Block]) -> str:
    """The first non-blank line of the blocks, stripped (a PDF block is a page of
    lines), or ``""``; read no further than that line."""
    for block in blocks:
        for line in block.text.splitlines():
            if line.strip():
                return line.strip()
    return ""


def _first_heading(blocks: list[Block]) -> str | None:
    """The text of the first ATX heading (``## Title``) outside a fenced code block."""
    fenced = False
    for block in blocks:
        for line in block.text.splitlines():
            if _FENCE.match(line):
                fenced = not fenced
            elif not fenced and (heading := _HEADING.match(line)):
                return heading.group(1)
    return None


def title_of(blocks: list[Block], path: Path, kind: str) -> str:
    """A document's title: its first Markdown heading, else its first line of text
    (at most 80 characters; a PDF's page or an HTML block may hold many), else the
    file's name (a CSV table's is its file name)."""
    if kind == "csv":
        return path.name
    heading = _first_heading(blocks) if kind == "markdown" else None
    first = _first_line(blocks)
    if heading is None and first and kind == "markdown":
        heading = first.lstrip("#").strip()
    title = heading if heading is not None else first
    return title[:80] or path.name
