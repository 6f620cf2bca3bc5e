"""The documents a debate argued from, in the briefing: each document with the
arguments that cited it, the share of citations that checked out, and every
citation that did not (the HTML report's section: ``moot.report.html.sources``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from moot.briefing import Bullets, Paragraph, Section, Table
from moot.i18n import in_language
from moot.schema import DebateResult, SourceCitation, SourcesSection
from moot.sources.support import SUPPORT_THRESHOLD

LABELS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "sources": "Sources",
        "sources.col.id": "ID",
        "sources.col.title": "Title",
        "sources.col.path": "File",
        "sources.col.passages": "Passages",
        "sources.col.used": "Cited by",
        "sources.rate": "{verified} of {named} citations of a passage were verified by code"
        " ({share}); {none} evidence item(s) gave reasoning with no source.",
        "sources.rate.none": "No evidence item cited a passage; {none} gave reasoning"
        " with no source.",
        "sources.uncited": "No statement of this format cites passages: the documents fed"
        " the debaters' preparation.",
        "sources.unverified": "Citations that do not check out",
        "sources.all_verified": "Every citation of a passage checked out.",
        "sources.passages": "Cited passages, in context",
        "sources.rule": "Rule",
        "sources.reranker": "Passages ranked by SQLite FTS5{reranker}.",
        "sources.reranked": " and reranked by {name}",
        "status.verified": "verified",
        "status.not_in_source": "not in the source",
        "status.number_mismatch": "number does not match",
        "status.no_source": "no source: reasoning only",
        "sources.none": "-",
        "sources.citations": "Every citation",
        "sources.weak": "Verified quotes that may not support what they are cited for"
        " (they share under {threshold:.0%} of their content words with it; a lexical"
        " check, which misses paraphrase)",
        "sources.support": "support {score:.0%}",
    },
    "zh": {
        "sources": "资料来源",
        "sources.col.id": "编号",
        "sources.col.title": "标题",
        "sources.col.path": "文件",
        "sources.col.passages": "段落数",
        "sources.col.used": "引用它的论点",
        "sources.rate": "引用段落的 {named} 条引用中有 {verified} 条经代码核验通过（{share}）；"
        "{none} 条为无来源的推理。",
        "sources.rate.none": "没有论点引用段落；{none} 条为无来源的推理。",
        "sources.uncited": "本赛制的发言不逐段引用：文档用于辩手的准备材料。",
        "sources.unverified": "未通过核验的引用",
        "sources.all_verified": "所有段落引用均通过核验。",
        "sources.passages": "被引用的段落（原文）",
        "sources.rule": "规则",
        "sources.reranker": "段落由 SQLite FTS5 检索{reranker}。",
        "sources.reranked": "，并由 {name} 重排",
        "status.verified": "已核验",
        "status.not_in_source": "原文中没有",
        "status.number_mismatch": "数字不符",
        "status.no_source": "无来源：仅为推理",
        "sources.none": "-",
        "sources.citations": "全部引用",
        "sources.weak": "已核验但可能不支持其论点的引文（与论点共有的实词不足 {threshold:.0%}；"
        "这是词面检查，会漏掉换一种说法的支持）",
        "sources.support": "支持度 {score:.0%}",
    },
}


def labels(lang: str) -> Mapping[str, str]:
    return in_language(LABELS, lang)


def rate(sources: SourcesSection, text: Mapping[str, str]) -> str:
    if not sources.citations:
        return text["sources.uncited"]
    named = [c for c in sources.citations if c.status != "no_source"]
    verified = sum(c.status == "verified" for c in named)
    none = len(sources.citations) - len(named)
    if not named:
        return text["sources.rate.none"].format(none=none)
    share = f"{verified / len(named):.0%}"
    return text["sources.rate"].format(verified=verified, named=len(named), share=share, none=none)


def used_by(sources: SourcesSection) -> dict[str, list[str]]:
    used: dict[str, list[str]] = {d.id: [] for d in sources.documents}
    for c in sources.citations:
        if c.source in used and c.unit not in used[c.source]:
            used[c.source].append(c.unit)
    return used


def unverified(sources: SourcesSection) -> list[SourceCitation]:
    return [c for c in sources.citations if c.status in ("not_in_source", "number_mismatch")]


def weakly_supported(sources: SourcesSection) -> list[SourceCitation]:
    """The verified citations whose quote shares too little with what it is cited
    for (``moot.sources.support``)."""
    return [
        c
        for c in sources.citations
        if c.status == "verified" and c.support is not None and c.support < SUPPORT_THRESHOLD
    ]


def _citation_line(c: SourceCitation, text: Mapping[str, str]) -> str:
    status = text.get(f"status.{c.status}", c.status)
    note = f" ({c.note})" if c.note else ""
    return f"{c.passage or '?'}: {status}{note}: “{c.quote}”"


def briefing_sections(result: DebateResult) -> list[Section]:
    """The briefing's section on the documents (none without ``--sources``)."""
    sources = result.sources
    if sources is None:
        return []
    text = labels(result.lang)
    used = used_by(sources)
    table = Table(
        headers=[
            text["sources.col.id"],
            text["sources.col.title"],
            text["sources.col.path"],
            text["sources.col.passages"],
            text["sources.col.used"],
        ],
        rows=[
            [d.id, d.title, d.path, str(d.passages), ", ".join(used[d.id]) or text["sources.none"]]
            for d in sources.documents
        ],
    )
    bad = unverified(sources)
    blocks: list[Table | Bullets | Paragraph] = [table, Paragraph(rate(sources, text))]
    if bad:
        blocks.append(Paragraph(text["sources.unverified"] + ":"))
        blocks.append(
            Bullets(labels=[c.unit for c in bad], items=[_citation_line(c, text) for c in bad])
        )
    else:
        blocks.append(Paragraph(text["sources.all_verified"]))
    weak = weakly_supported(sources)
    if weak:
        blocks.append(Paragraph(text["sources.weak"].format(threshold=SUPPORT_THRESHOLD) + ":"))
        lines = [
            f"{c.passage}: {text['sources.support'].format(score=c.support or 0.0)}: “{c.quote}”"
            for c in weak
        ]
        blocks.append(Bullets(labels=[c.unit for c in weak], items=lines))
    blocks.append(Paragraph(f"{text['sources.rule']}: {sources.rule}"))
    reranked = text["sources.reranked"].format(name=sources.reranker) if sources.reranker else ""
    blocks.append(Paragraph(text["sources.reranker"].format(reranker=reranked)))
    return [Section(text["sources"], list(blocks))]
