"""A document's blocks cut into passages: the units debaters cite (``S2:p14``).

A passage is a paragraph (lines up to a blank line) of at most
:data:`MAX_PASSAGE_CHARS` characters; a longer paragraph is cut at sentence ends
(or, for a sentence longer than that, at the limit). A PDF page starts a new
passage, so every passage lies on one page; a CSV table is cut every
:data:`CSV_ROWS` rows, each passage repeating the header line. Passage numbers
follow the document's order, so the same document always gives the same ids.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from moot.sources.readers import Block

MAX_PASSAGE_CHARS = 700
CSV_ROWS = 8
_SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s*")


@dataclass(frozen=True)
class Piece:
    """A passage before it belongs to a document: its text and where it lies."""

    text: str
    page: int | None
    line_start: int | None
    line_end: int | None


def _cut(text: str, limit: int) -> Iterator[str]:
    """``text`` in pieces of at most ``limit`` characters, cut after sentence ends."""
    current = ""
    for sentence in (s for s in _SENTENCE_END.split(text) if s):
        while len(sentence) > limit:
            if current:
                yield current
                current = ""
            yield sentence[:limit]
            sentence = sentence[limit:]
        joined = f"{current} {sentence}".strip() if current else sentence
        if len(joined) > limit:
            yield current
            current = sentence
        else:
            current = joined
    if current:
        yield current


def _paragraphs(blocks: Sequence[Block]) -> Iterator[tuple[list[Block], int | None]]:
    """Runs of non-blank blocks, a blank block or a new page ending each."""
    run: list[Block] = []
    page: int | None = None
    for block in blocks:
        if block.page is not None:
            if run:
                yield run, page
                run = []
            page = block.page
            for line in block.text.splitlines():
                if line.strip():
                    run.append(Block(line.strip(), page=block.page))
                elif run:
                    yield run, page
                    run = []
            if run:
                yield run, page
                run = []
            continue
        if block.text.strip():
            run.append(block)
        elif run:
            yield run, page
            run = []
    if run:
        yield run, page


def split_text(blocks: Sequence[Block], limit: int = MAX_PASSAGE_CHARS) -> list[Piece]:
    """Paragraph passages of a text, Markdown, HTML or PDF document."""
    pieces: list[Piece] = []
    for run, page in _paragraphs(blocks):
        lines = [b.line for b in run if b.line is not None]
        start, end = (lines[0], lines[-1]) if lines else (None, None)
        text = " ".join(" ".join(b.text.split()) for b in run)
        if len(text) <= limit:
            pieces.append(Piece(text, page, start, end))
            continue
        # a paragraph longer than a passage: cut where its lines end when they are
        # short enough, else within them at sentence ends
        current: list[Block] = []
        for block in run:
            line = " ".join(block.text.split())
            size = sum(len(b.text) + 1 for b in current)
            if current and size + len(line) > limit:
                pieces.append(_piece(current, page))
                current = []
            if len(line) > limit:
                for part in _cut(line, limit):
                    pieces.append(Piece(part, page, block.line, block.line))
                continue
            current.append(Block(line, page=block.page, line=block.line))
        if current:
            pieces.append(_piece(current, page))
    return pieces


def _piece(run: Sequence[Block], page: int | None) -> Piece:
    lines = [b.line for b in run if b.line is not None]
    return Piece(
        " ".join(b.text for b in run),
        page,
        lines[0] if lines else None,
        lines[-1] if lines else None,
    )


def split_table(blocks: Sequence[Block], rows: int = CSV_ROWS) -> list[Piece]:
    """Passages of a CSV table: ``rows`` rows each, every one after the header line."""
    header, body = blocks[0], list(blocks[1:])
    if not body:
        return [Piece(header.text, None, header.line, header.line)]
    pieces = []
    for n in range(0, len(body), rows):
        chunk = body[n : n + rows]
        text = "\n".join([header.text, *(b.text for b in chunk)])
        pieces.append(Piece(text, None, chunk[0].line, chunk[-1].line))
    return pieces


def split(blocks: Sequence[Block], kind: str) -> list[Piece]:
    """A document's passages, in order."""
    return split_table(blocks) if kind == "csv" else split_text(blocks)
