"""Citations: the evidence items debaters give, checked by code against the passages
they name before the judge reads the debate, and the published rule that lowers the
evidence score of an argument whose citations do not check out.

An evidence item names a passage (``S1:p14``) and quotes it, or says ``none``: an
argument from reasoning alone, which is allowed and labelled ``no_source``. The
quote and the numbers of the argument are checked by ``moot.sources.verify`` (the
citation verifier); a passage id that the documents do not have is
``not_in_source``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from moot.judging.judge import ScoreAdjuster
from moot.llm.structured import Problem
from moot.llm.types import OutputSpec
from moot.schema import (
    CitationStatus,
    QualityWarning,
    SourceCitation,
    SourceDocument,
    SourcePassage,
    SourcesSection,
)
from moot.sources.library import Library, Passage
from moot.sources.retrieval import reranker_name

NO_SOURCE = "none"
"""What a debater writes as the passage of reasoning with no source."""
UNVERIFIED_PENALTY = 2
ALL_UNVERIFIED_CAP = 3
SCORE_FLOOR = 1
"""The numbers of the verifier's penalty rule (``moot.sources.penalty``), as
:data:`RULE` states it in the result."""
UNVERIFIED = ("not_in_source", "number_mismatch")
"""The statuses of a citation that names a passage and does not check out."""

RULE = {
    "en": (
        f"Each citation that does not check out (not_in_source, number_mismatch) takes"
        f" {UNVERIFIED_PENALTY} points off the argument's evidence score; when every"
        f" citation of an argument is unverified, its evidence score is at most"
        f" {ALL_UNVERIFIED_CAP}; never below {SCORE_FLOOR}, never above the judge's."
        f" Reasoning with no source (no_source) is labelled, not penalised."
    ),
    "zh": (
        f"每条未通过核验的引用（not_in_source、number_mismatch）从该论点的证据分中扣"
        f" {UNVERIFIED_PENALTY} 分；一个论点的引用全部未通过时，"
        f"证据分最多 {ALL_UNVERIFIED_CAP} 分；"
        f"最低 {SCORE_FLOOR} 分，且不高于裁判所给分数。无来源的纯推理（no_source）只标注，不扣分。"
    ),
}

REASK = {
    "en": (
        "the quote of {passage} does not check out ({status}: {note}). Copy the words"
        " exactly as the passage has them, with its numbers, cite another passage, or"
        ' write "none" as the passage for reasoning with no source'
    ),
    "zh": (
        "对 {passage} 的引用未通过核验（{status}：{note}）。请按原文逐字摘录（含数字），"
        '或改引其他段落，或将 passage 写为 "none" 表示无来源的推理'
    ),
}


MAX_CITATIONS = 3
"""The most evidence items one argument or speech cites."""
QUOTE_CHARS = 300
"""The longest quote of a standard reply (a model profile may ask for shorter)."""
DATA_POINT_CHARS = 39
"""The longest figure an evidence item takes from its quote ("4,200 invoices per
second"): under ``moot.usable.SENTENCE_FIELD``, so a bare figure ("90%") is not asked
to be a sentence."""


class EvidenceDraft(BaseModel):
    """One evidence item as a debater writes it in a debate over documents: the
    passage cited (``S1:p3``, or ``none`` for reasoning with no source), the words
    quoted from it, and the figure taken from them (empty when none)."""

    model_config = ConfigDict(extra="forbid")

    passage: str = Field(min_length=1, max_length=16)
    quote: str = Field(min_length=1, max_length=QUOTE_CHARS)
    data_point: str = Field(max_length=DATA_POINT_CHARS)


_EVIDENCE_KEYS = frozenset(EvidenceDraft.model_fields)


def offer_passages(
    spec: OutputSpec, passages: Sequence[Passage], *, choices: bool = False
) -> OutputSpec:
    """``spec`` with the ``passage`` of every evidence item limited to the ids of the
    ``passages`` offered and ``none``: a grammar-constrained model (the embedded one)
    cannot name a passage it was not given, and a model that honours ``enum`` is told
    which ids exist. With ``choices`` (a profile's ``quote_choices``) an evidence item
    is one of a choice of objects (``anyOf``), one per passage offered: its id, one of
    its sentences as the quote (:func:`quote_choices`) and one of its figures or
    nothing as the data point, so the quote chosen belongs to the passage named; or
    ``none`` with a quote of the model's own. The quotes are ``verbatim``
    (``OutputSpec.verbatim``): copied from a document, they are not checked as prose,
    since markup, code or JSON in a document is the document's (the verifier checks
    them against the passage). Without passages the spec is returned as it is."""
    if not passages:
        return spec
    ids = list(dict.fromkeys(p.id for p in passages))
    allowed = {"type": "string", "enum": [*ids, NO_SOURCE]}

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: walk(value) for key, value in node.items()}
        props = out.get("properties")
        if isinstance(props, dict) and props.keys() >= _EVIDENCE_KEYS:
            if choices:
                return {"anyOf": _choices(out, props, passages)}
            out["properties"] = {**props, "passage": dict(allowed)}
        return out

    verbatim = spec.verbatim if "quote" in spec.verbatim else (*spec.verbatim, "quote")
    return replace(spec, json_schema=walk(spec.json_schema), verbatim=verbatim)


def _choices(item: dict[str, Any], props: dict[str, Any], passages: Sequence[Passage]) -> list[Any]:
    """The evidence item as one object per passage offered (its id, a sentence of its
    as the quote, one of its figures or nothing), then ``none`` with a free quote."""
    limit = int(props["quote"].get("maxLength", QUOTE_CHARS))
    point = int(props["data_point"].get("maxLength", DATA_POINT_CHARS))
    variants: list[Any] = []
    for passage in dict((p.id, p) for p in passages).values():
        quotes = quote_choices([passage], limit)
        if not quotes:
            continue
        figures = [f for f in figure_choices([passage]) if len(f) <= point]
        fields = {
            **props,
            "passage": {"type": "string", "enum": [passage.id]},
            "quote": {"type": "string", "enum": quotes},
            "data_point": {"type": "string", "enum": ["", *figures]},
        }
        variants.append({**item, "properties": fields})
    reasoning = {**props, "passage": {"type": "string", "enum": [NO_SOURCE]}}
    reasoning["data_point"] = {"type": "string", "enum": [""]}
    return [*variants, {**item, "properties": reasoning}]


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])")


def quote_choices(passages: Sequence[Passage], limit: int) -> list[str]:
    """Each sentence of the passages, in order, once, as it stands in its passage;
    one longer than ``limit`` characters cut at the last space (or character, in
    Chinese) that keeps it within the limit, never inside a number."""
    found: list[str] = []
    for passage in passages:
        for sentence in _SENTENCE_END.split(passage.text):
            text = " ".join(sentence.split())
            if len(text) > limit:
                cut = text[:limit]
                space = cut.rfind(" ")
                text = cut[:space] if space > limit // 2 else cut.rstrip("0123456789.,")
            if len(text) >= 2:
                found.append(text)
    return list(dict.fromkeys(found))


def figure_choices(passages: Sequence[Passage]) -> list[str]:
    """The figures of the passages as the verifier reads them, in order, once."""
    from moot.sources.numbers import read_numbers

    return list(
        dict.fromkeys(n.text.strip() for p in passages for n in read_numbers(p.text) if n.text)
    )


NO_SOURCE_LABEL = {"en": "no source: reasoning only", "zh": "无来源：仅为推理"}


class Cited(BaseModel):
    """One evidence item of an argument: the document and passage it cites (empty
    for reasoning with no source), the quoted words, and the figure it takes from
    them, if any."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    passage: str
    quote: str
    data_point: str | None = None


def cited(library: Library, passage: str, quote: str, data_point: str = "") -> Cited:
    """An evidence item as a debater wrote it, with the passage id made canonical
    (``s1:P3`` -> ``S1:p3``) and ``none`` as no source."""
    ident = passage.strip()
    if not ident or ident.casefold() == NO_SOURCE:
        return Cited(source="", passage="", quote=quote.strip(), data_point=data_point or None)
    found = library.passage(ident)
    if found is not None:
        ident = found.id
    return Cited(
        source=ident.partition(":")[0].upper(),
        passage=ident,
        quote=quote.strip(),
        data_point=data_point.strip() or None,
    )


def items_of(library: Library, drafts: Sequence[EvidenceDraft]) -> list[Cited]:
    """The evidence items of a reply, each passage id made canonical."""
    return [cited(library, d.passage, d.quote, d.data_point) for d in drafts]


def evidence_text(items: Sequence[Cited], lang: str) -> str:
    """Evidence items as text: each quote with the passage it cites, or labelled as
    reasoning with no source (what the detectors and the other side read)."""
    label = NO_SOURCE_LABEL["zh" if lang == "zh" else "en"]
    return "; ".join(
        f"“{i.quote}” [{i.passage}]" if i.passage else f"({label}) {i.quote}" for i in items
    )


def check(
    library: Library, unit: str, item: Cited, claim: str, lang: str, *, about: str = ""
) -> SourceCitation:
    """One evidence item checked against its passage; a verified quote is also scored
    for support against ``about`` (what it is cited for: the argument or speech; the
    claim when not given; ``moot.sources.support``)."""
    status: CitationStatus
    quote = item.quote
    if not item.passage:
        status, note = "no_source", "reasoning only" if lang == "en" else "仅为推理"
    else:
        passage = library.passage(item.passage)
        if passage is None:
            status = "not_in_source"
            note = f"no passage {item.passage} in the documents"
        else:
            from moot.sources.verify import verify_citation

            text = claim if item.data_point is None else f"{claim} {item.data_point}"
            cited_id = passage.id
            elsewhere = ((p.id, p.text) for p in library.passages() if p.id != cited_id)
            result = verify_citation(passage.text, item.quote, text, lang, elsewhere)
            status, note = result.status, result.note
            quote = result.quote or quote
    cited_for = about or claim
    support = None
    if status == "verified" and cited_for.strip():
        from moot.sources.support import support_score

        support = support_score(cited_for, quote)
    return SourceCitation(
        unit=unit,
        source=item.source,
        passage=item.passage,
        quote=quote,
        status=status,
        note=note,
        support=support,
    )


def unverified(citations: Sequence[SourceCitation]) -> list[SourceCitation]:
    """The citations that name a passage and do not check out."""
    return [c for c in citations if c.status in UNVERIFIED]


def reask_problems(checks: Sequence[tuple[str, SourceCitation]], lang: str) -> list[Problem]:
    """A soft rule problem (re-asked where rules are) per citation that does not
    check out; ``checks`` pairs each with where it sits in the reply."""
    return [
        Problem(
            f"{where}: "
            + REASK[lang].format(passage=c.passage or "?", status=c.status, note=c.note),
            hard=False,
            code="citation_unverified",
            where=where,
        )
        for where, c in checks
        if c.status in UNVERIFIED
    ]


class ReaskOnce:
    """The citation problems of one call's replies: those of its first checked reply
    only, and only when the call re-asks rule problems at all (``reasks``), so a
    citation that does not check out is sent back once and then kept (and penalised,
    and listed by :func:`kept_warnings`), never re-asked again or stopping the run."""

    def __init__(self, reasks: bool) -> None:
        self.reasks = reasks
        self.checked = 0

    def __call__(self, checks: Sequence[tuple[str, SourceCitation]], lang: str) -> list[Problem]:
        self.checked += 1
        if not self.reasks or self.checked > 1:
            return []
        return reask_problems(checks, lang)


def kept_warnings(
    round_name: str, sides: Mapping[str, str], citations: Sequence[SourceCitation]
) -> list[QualityWarning]:
    """A warning per citation kept although it does not check out (``sides``: each
    unit's position)."""
    return [
        QualityWarning(
            round=round_name,
            side=sides.get(c.unit),
            code="citation_unverified",
            where=f"{c.unit} {c.passage}".strip(),
            message=f"{c.status}: {c.note}" if c.note else c.status,
        )
        for c in unverified(citations)
    ]


def penalised_evidence(score: int, citations: Sequence[SourceCitation]) -> int:
    """An argument's evidence score after the unverified-citation rule of the citation
    verifier (``moot.sources.penalty``; :data:`RULE` words it)."""
    from moot.sources.penalty import penalised_evidence as rule
    from moot.sources.verify import CitationCheck

    checks = [CitationCheck(status=c.status, note=c.note) for c in citations]
    return round(rule(score, checks))


def penalise(by_unit: Mapping[str, Sequence[SourceCitation]]) -> ScoreAdjuster:
    """The judge's score adjuster (``moot.judging.judge.ScoreAdjuster``) of the rule."""

    def adjust(judge: str, unit: str, scores: Mapping[str, int]) -> dict[str, int]:
        citations = by_unit.get(unit, ())
        if "evidence" not in scores or not citations:
            return dict(scores)
        return {**scores, "evidence": penalised_evidence(scores["evidence"], citations)}

    return adjust


def section(library: Library, citations: Sequence[SourceCitation], lang: str) -> SourcesSection:
    """The result's ``sources`` section: every document, every citation, and the text
    of each cited passage (a report shows a quote in its context)."""
    cited_ids = list(dict.fromkeys(c.passage for c in citations if c.passage))
    passages = []
    for ident in cited_ids:
        found = library.passage(ident)
        if found is not None:
            passages.append(SourcePassage(id=found.id, where=found.where, text=found.text))
    return SourcesSection(
        documents=[
            SourceDocument(
                id=d.id, path=d.path, title=d.title, sha256=d.sha256, passages=len(d.passages)
            )
            for d in library.documents
        ],
        citations=list(citations),
        passages=passages,
        rule=RULE["zh" if lang == "zh" else "en"],
        reranker=reranker_name(),
    )
