"""Does a verified quote support what it is cited for? A lexical check
(docs/citation-verification.md, "Support").

A quote can occur word for word in its passage and still say nothing about the claim
it is offered for ("Its figures are illustrative." as evidence that billing latency
fell). The verifier cannot see that; this check measures it roughly: the share of
the smaller side's content terms (stemmed English content words and numbers,
Chinese character bigrams without function characters: the detectors' measure,
``moot.detectors.lexical.content_terms``) that the other side shares — the overlap
coefficient of the claim's and the quote's terms. A verified citation whose quote
scores under :data:`SUPPORT_THRESHOLD` is reported as weakly supported: the briefing
lists it; its status stays ``verified`` and it costs no points, since a lexical
measure misses paraphrase.

The threshold was set on the train sets of tests/data/citations (each fact's claim
with its own quote, as supported; with another fact's quote, as not) before the
held-out set was scored (``python benchmarks/citations.py --support``).
"""

from __future__ import annotations

from typing import Final

from moot.detectors.lexical import content_terms

SUPPORT_THRESHOLD: Final = 0.2
"""A verified quote sharing less than this share of content terms with its claim is
reported as weakly supported (calibrated on the train sets, see the module)."""


def support_score(claim: str, quote: str) -> float:
    """The overlap coefficient of the claim's and the quote's content terms: shared
    terms over the terms of the smaller side, 0-1 (0 when either has none)."""
    ours, theirs = set(content_terms(claim)), set(content_terms(quote))
    if not ours or not theirs:
        return 0.0
    return round(len(ours & theirs) / min(len(ours), len(theirs)), 3)


def supports(claim: str, quote: str, threshold: float = SUPPORT_THRESHOLD) -> bool:
    """Whether the quote shares enough content with the claim to count as support."""
    return support_score(claim, quote) >= threshold
