"""Retrieval of prepared material from the rehearsal tree: the lexical fallback, an
embedder, the threshold and the strengths that come back."""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Sequence

import pytest

from moot.detectors.lexical import char_ngrams, cosine
from moot.formats.competitive.trees import LEXICAL_METHOD, RehearsalIndex, RehearsalTree
from moot.formats.competitive.trees.retrieval import LexicalSimilarity


def tree(lang: str = "en") -> RehearsalTree:
    return RehearsalTree.model_validate(
        {
            "motion": "Cities should ban cars from their centres",
            "lang": lang,
            "depth": 2,
            "claims": [
                {
                    "side": "pro",
                    "root": {
                        "claim": "A car-free city centre saves the lives of pedestrians.",
                        "support": 3,
                        "children": [
                            {
                                "claim": "Traffic deaths simply move to the ring roads.",
                                "attack": 3,
                                "children": [
                                    {
                                        "claim": "Traffic evaporates: fewer trips are made.",
                                        "attack": 2,
                                        "support": 3,
                                    }
                                ],
                            },
                            {"claim": "Ambulances reach patients more slowly.", "attack": 2},
                        ],
                    },
                },
                {
                    "side": "con",
                    "root": {
                        "claim": "Shops in the centre lose the customers who drive.",
                        "support": 2,
                        "children": [
                            {"claim": "Walkers spend more per month than drivers.", "attack": 3},
                            {"claim": "Parking takes space shops could use.", "attack": 1},
                        ],
                    },
                },
                {
                    "side": "con",
                    "root": {"claim": "禁止私家车会让市中心的商店失去顾客。", "support": 2},
                },
            ],
        }
    )


def test_the_fallback_is_labelled() -> None:
    assert RehearsalIndex(tree()).method == LEXICAL_METHOD
    assert "fallback" in LEXICAL_METHOD


def test_a_restatement_is_found_and_an_unrelated_claim_is_not() -> None:
    index = RehearsalIndex(tree())
    (match,) = index.find("a car free city centre saves the lives of pedestrians")
    assert match.located.node.claim == "A car-free city centre saves the lives of pedestrians."
    assert match.similarity > 0.95
    assert index.find("Electric buses are cheaper to run than diesel ones.") == []


def test_chinese_claims_are_found() -> None:
    index = RehearsalIndex(tree("zh"))
    (match,) = index.find("禁止私家车会让市中心商店失去顾客")
    assert match.located.claim == 2
    assert index.find("公共交通应该免费") == []


def test_the_owner_filter() -> None:
    index = RehearsalIndex(tree())
    claim = "Traffic deaths simply move to the ring roads."
    assert [m.located.owner for m in index.find(claim)] == ["con"]
    assert index.find(claim, owner="pro") == []


def test_a_lower_threshold_finds_a_looser_restatement() -> None:
    loose = "Banning cars from the city centre saves pedestrians' lives."
    assert RehearsalIndex(tree()).find(loose) == []
    (match,) = RehearsalIndex(tree(), threshold=0.4).find(loose, owner="pro")
    assert match.located.path == ()
    assert 0.4 <= match.similarity < 0.8


def test_prepared_material_for_your_own_claim() -> None:
    index = RehearsalIndex(tree())
    prepared = index.prepared("A car-free city centre saves the lives of pedestrians.", "pro", k=2)
    assert prepared is not None
    assert prepared.k == 2
    root = tree().claims[0].root
    assert prepared.strength == pytest.approx(root.strength(2))
    # the other side's expected rebuttals, strongest (at k - 1) first
    assert [r.node.claim for r in prepared.replies] == [
        "Ambulances reach patients more slowly.",  # f1 = 2 (unanswered)
        "Traffic deaths simply move to the ring roads.",  # f1 = 3 - 0.8 * 2.5 = 1
    ]
    assert [round(r.strength, 6) for r in prepared.replies] == [2.0, 1.0]
    assert prepared.replies[1].node.children[0].claim.startswith("Traffic evaporates")


def test_prepared_attacks_on_the_other_sides_claim() -> None:
    index = RehearsalIndex(tree())
    prepared = index.prepared("Shops in the centre lose the customers who drive.", "con", k=0)
    assert prepared is not None
    assert prepared.strength == 2.0
    assert [r.node.claim for r in prepared.replies] == [
        "Walkers spend more per month than drivers.",  # attack 3
        "Parking takes space shops could use.",  # attack 1
    ]
    assert index.prepared("Shops in the centre lose the customers who drive.", "pro", k=0) is None


def test_tf_idf_weighs_words_every_claim_shares_less() -> None:
    shared = "the motion on city cars says that "
    documents = [shared + "deaths fall", shared + "shops close", shared + "air clears"]
    query = shared + "deaths fall sharply"
    weighted = LexicalSimilarity(documents).scores(query)
    plain = [cosine(char_ngrams(query), char_ngrams(d)) for d in documents]
    assert weighted[0] == max(weighted)
    # the distinctive words decide more under TF-IDF than under plain counts
    assert weighted[0] - weighted[1] > plain[0] - plain[1]


class HashingEmbedder:
    """A real (if simple) embedder: hashed bag of lower-case words, for the protocol."""

    name = "hashing-bow-64"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        vectors = []
        for text in texts:
            vector = [0.0] * 64
            for word, count in Counter(re.findall(r"[a-z]+", text.lower())).items():
                vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % 64] += count
            vectors.append(vector)
        return vectors


def test_an_embedder_replaces_the_fallback() -> None:
    embedder = HashingEmbedder()
    index = RehearsalIndex(tree(), embedder=embedder)
    assert index.method == "embedding: hashing-bow-64"
    assert embedder.calls == [8]  # every node embedded once
    reordered = "pedestrians of the city centre: car-free saves lives"
    (match,) = index.find(reordered, owner="pro")
    assert match.located.path == ()
    assert match.similarity > 0.9  # the same words; only "a" is missing
    assert RehearsalIndex(tree()).find(reordered) == []  # too reordered for the fallback
    assert embedder.calls == [8, 1]


def test_an_embedder_that_loses_texts_is_an_error() -> None:
    class Short(HashingEmbedder):
        def embed(self, texts: Sequence[str]) -> list[list[float]]:
            return super().embed(texts)[:-1]

    with pytest.raises(ValueError, match="returned 7 vectors for 8 texts"):
        RehearsalIndex(tree(), embedder=Short())


def test_a_zero_vector_matches_nothing() -> None:
    index = RehearsalIndex(tree(), embedder=HashingEmbedder(), threshold=0.01)
    assert index.find("123 456") == []
    assert not math.isnan(LexicalSimilarity(["abc"]).scores("")[0])


@pytest.mark.parametrize("threshold", [0.0, -0.5, 1.5, math.nan])
def test_the_threshold_is_checked(threshold: float) -> None:
    with pytest.raises(ValueError, match="threshold must be in"):
        RehearsalIndex(tree(), threshold=threshold)
