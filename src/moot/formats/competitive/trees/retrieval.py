"""Finding prepared material in the rehearsal tree for a claim made in the debate.

Two claims are taken to be the same when their similarity reaches a threshold (0.8
by default). Similarity is the cosine of embeddings from an :class:`Embedder` when
one is given. Without one, the **lexical fallback** is used: the cosine of TF-IDF
weighted character n-grams (3- to 5-grams of English, 1- to 3-grams of Chinese),
with the rehearsal tree's claims as the document collection. The fallback measures
wording, not meaning: at 0.8 it matches restatements that keep most of the words,
not paraphrases. ``RehearsalIndex.method`` says which one a result came from.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from moot.detectors.lexical import char_ngrams
from moot.formats.competitive.trees.rehearsal import Located, RehearsalNode, RehearsalTree
from moot.formats.competitive.trees.sides import Side
from moot.formats.competitive.trees.strength import DEFAULT_GAMMA

DEFAULT_THRESHOLD = 0.8
LEXICAL_METHOD = "lexical-fallback: character n-gram TF-IDF cosine"


class Embedder(Protocol):
    """Turns texts into vectors whose cosine measures how alike their meanings are."""

    @property
    def name(self) -> str:
        """What made the vectors (a model name), recorded with every result."""
        ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, all of the same length."""
        ...


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / norm if norm else 0.0


class LexicalSimilarity:
    """The fallback: TF-IDF weighted character n-gram cosine against a fixed collection.

    An n-gram's weight is its count times ``ln((1 + N) / (1 + df)) + 1`` (N documents,
    df of them containing it), so n-grams shared by every claim of a debate (the
    motion's own words) count for less than the distinctive ones.
    """

    method = LEXICAL_METHOD

    def __init__(self, documents: Sequence[str]) -> None:
        grams = [char_ngrams(text) for text in documents]
        frequency: Counter[str] = Counter()
        for counts in grams:
            frequency.update(counts.keys())
        size = len(documents)
        self._idf = {g: math.log((1 + size) / (1 + df)) + 1 for g, df in frequency.items()}
        self._unseen = math.log(1 + size) + 1
        self._documents = [self._weigh(counts) for counts in grams]

    def _weigh(self, counts: Counter[str]) -> dict[str, float]:
        return {g: n * self._idf.get(g, self._unseen) for g, n in counts.items()}

    def scores(self, query: str) -> list[float]:
        """The similarity of ``query`` to each document, in order."""
        weights = self._weigh(char_ngrams(query))
        query_norm = math.sqrt(sum(w * w for w in weights.values()))
        result: list[float] = []
        for document in self._documents:
            norm = query_norm * math.sqrt(sum(w * w for w in document.values()))
            dot = sum(w * document[g] for g, w in weights.items() if g in document)
            result.append(dot / norm if norm else 0.0)
        return result


class EmbeddingSimilarity:
    """Embedding cosine against a fixed collection, embedded once."""

    def __init__(self, embedder: Embedder, documents: Sequence[str]) -> None:
        self._embedder = embedder
        self._documents = embedder.embed(list(documents)) if documents else []
        if len(self._documents) != len(documents):
            raise ValueError(
                f"embedder {embedder.name!r} returned {len(self._documents)} vectors"
                f" for {len(documents)} texts"
            )
        self.method = f"embedding: {embedder.name}"

    def scores(self, query: str) -> list[float]:
        """The similarity of ``query`` to each document, in order."""
        (vector,) = self._embedder.embed([query])
        return [_cosine(vector, document) for document in self._documents]


@dataclass(frozen=True)
class Match:
    """A rehearsal node whose claim is the same as the one looked up."""

    located: Located
    similarity: float


@dataclass(frozen=True)
class Reply:
    """A prepared reply to a matched node, with its strength ``f_{k-1}``."""

    node: RehearsalNode
    strength: float


@dataclass(frozen=True)
class Prepared:
    """What the rehearsal prepared for a claim: the matched node, its strength ``f_k``
    and its replies, strongest first. For a claim of your own the replies are the
    other side's expected rebuttals (each with your prepared answers as its
    children); for the other side's claim they are your prepared attacks."""

    match: Match
    k: int
    strength: float
    replies: list[Reply]


class RehearsalIndex:
    """Looks claims up in a rehearsal tree by similarity."""

    def __init__(
        self,
        tree: RehearsalTree,
        embedder: Embedder | None = None,
        threshold: float = DEFAULT_THRESHOLD,
    ) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], got {threshold!r}")
        self.threshold = threshold
        self._nodes = list(tree.walk())
        claims = [located.node.claim for located in self._nodes]
        self._similarity: LexicalSimilarity | EmbeddingSimilarity = (
            LexicalSimilarity(claims) if embedder is None else EmbeddingSimilarity(embedder, claims)
        )

    @property
    def method(self) -> str:
        """How similarity is measured: an embedding model, or the lexical fallback."""
        return self._similarity.method

    def find(self, claim: str, owner: Side | None = None) -> list[Match]:
        """The nodes (argued by ``owner``, when given) at least ``threshold`` similar to
        ``claim``, most similar first (ties in tree order)."""
        scored = [
            Match(located, score)
            for located, score in zip(self._nodes, self._similarity.scores(claim), strict=True)
            if score >= self.threshold and (owner is None or located.owner == owner)
        ]
        return sorted(scored, key=lambda match: -match.similarity)

    def prepared(
        self, claim: str, owner: Side, k: int, gamma: float = DEFAULT_GAMMA
    ) -> Prepared | None:
        """The prepared material for ``claim`` argued by ``owner``, from its most similar
        node, or None when no node reaches the threshold. ``k`` is the exchanges left
        (``moot.formats.competitive.trees.strength_steps``); replies are rated with
        ``k - 1`` (at least 0).

        Propose or reinforce a claim: ``prepared(claim, you, k)``. Attack or rebut the
        other side's claim: ``prepared(their_claim, them, k)``, whose replies are your
        prepared attacks."""
        matches = self.find(claim, owner)
        if not matches:
            return None
        best = matches[0]
        node = best.located.node
        reply_steps = max(k - 1, 0)
        replies = sorted(
            (Reply(child, child.strength(reply_steps, gamma)) for child in node.children),
            key=lambda reply: -reply.strength,
        )
        return Prepared(match=best, k=k, strength=node.strength(k, gamma), replies=replies)
