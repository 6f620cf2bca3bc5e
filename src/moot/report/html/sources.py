"""The report's section on the documents a debate argued from: the documents, the
share of citations verified, every citation that did not check out, and each cited
passage in full, every verified quote linking to its passage and marked in it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from moot.report.html.parts import Section
from moot.report.sources import labels, rate, unverified, used_by
from moot.schema import DebateResult
from moot.sources.normalize import quote_spans


@dataclass(frozen=True)
class QuoteView:
    """A citation as the report shows it: its unit, passage id, status label and tone,
    note, quote, and the anchor of its passage (verified quotes link to it)."""

    unit: str
    passage: str
    status: str
    tone: str
    note: str
    quote: str
    href: str | None


@dataclass(frozen=True)
class PassageView:
    """A cited passage in full, as parts ``(text, marked)``: the words of every
    verified quote of it marked."""

    anchor: str
    id: str
    where: str
    parts: tuple[tuple[str, bool], ...]


@dataclass(frozen=True)
class SourcesView:
    documents: list[list[str]]
    headers: list[str]
    rate: str
    citations: list[QuoteView]
    unverified: list[QuoteView]
    passages: list[PassageView]
    rule: str
    text: Mapping[str, str]


TONES = {"verified": "good", "no_source": "neutral"}


def _marked(passage: str, quotes: list[str]) -> tuple[tuple[str, bool], ...]:
    """``passage`` cut into parts, those that a quote's words cover (as the verifier
    found them: other quotation marks, width, case and white space, an ellipsis)
    marked; overlapping quotes make one mark."""
    spans = sorted(span for quote in quotes for span in quote_spans(passage, quote))
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    parts: list[tuple[str, bool]] = []
    at = 0
    for start, end in merged:
        parts += [(passage[at:start], False), (passage[start:end], True)]
        at = end
    parts.append((passage[at:], False))
    return tuple((text, marked) for text, marked in parts if text)


def html_section(result: DebateResult) -> Section | None:
    """The report's section on the documents (None without ``--sources``)."""
    sources = result.sources
    if sources is None:
        return None
    text = labels(result.lang)
    anchors = {p.id: f"src-{n}" for n, p in enumerate(sources.passages)}
    verified = [c for c in sources.citations if c.status == "verified"]
    bad = unverified(sources)
    quotes = [
        QuoteView(
            unit=c.unit,
            passage=c.passage,
            status=text.get(f"status.{c.status}", c.status),
            tone=TONES.get(c.status, "bad"),
            note=c.note,
            quote=c.quote,
            href=anchors.get(c.passage) if c.status == "verified" else None,
        )
        for c in sources.citations
    ]
    passages = [
        PassageView(
            anchors[p.id],
            p.id,
            p.where,
            _marked(p.text, [c.quote for c in verified if c.passage == p.id]),
        )
        for p in sources.passages
    ]
    used = used_by(sources)
    view = SourcesView(
        documents=[
            [d.id, d.title, d.path, str(d.passages), ", ".join(used[d.id]) or "-"]
            for d in sources.documents
        ],
        headers=[
            text["sources.col.id"],
            text["sources.col.title"],
            text["sources.col.path"],
            text["sources.col.passages"],
            text["sources.col.used"],
        ],
        rate=rate(sources, text),
        citations=quotes,
        unverified=[q for q, c in zip(quotes, sources.citations, strict=True) if c in bad],
        passages=passages,
        rule=sources.rule,
        text=text,
    )
    return Section("sources", text["sources"], "sections/sources.html.j2", view)
