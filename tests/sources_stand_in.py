"""A stand-in for ``moot.sources.verify`` and ``moot.sources.penalty`` (the citation
verifier another change adds), installed only while the verifier is missing, so the
sources tests run on a tree without it; once it is present they use the real one.

The stand-in is deliberately plain: a quote is found when its whitespace- and
case-normalised text occurs in the passage's, and every number of the claim must
occur in the passage."""

from __future__ import annotations

import importlib
import re
import sys
import types
from dataclasses import dataclass
from typing import Literal

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


@dataclass(frozen=True)
class CitationCheck:
    status: Literal["verified", "not_in_source", "number_mismatch", "no_source"]
    note: str


def _norm(text: str) -> str:
    return " ".join(text.casefold().replace("“", '"').replace("”", '"').split())


def verify_citation(passage_text: str, quote: str, claim_text: str, lang: str) -> CitationCheck:
    if not quote.strip() or _norm(quote) not in _norm(passage_text):
        return CitationCheck("not_in_source", "the quote is not in the passage")
    numbers = set(_NUMBER.findall(passage_text.replace(",", "")))
    for number in _NUMBER.findall(claim_text.replace(",", "")):
        if number not in numbers:
            return CitationCheck("number_mismatch", f"{number} is not in the passage")
    return CitationCheck("verified", "")


def penalised_evidence(score: float, checks: list[CitationCheck]) -> float:
    """The verifier's penalty rule (2 points per unverified citation, at most 3 when
    every citation is unverified, never below 1 nor above the score)."""
    bad = sum(c.status in ("not_in_source", "number_mismatch") for c in checks)
    if bad == 0:
        return score
    adjusted = score - 2 * bad
    if bad == len(checks):
        adjusted = min(adjusted, 3)
    return min(score, max(1, adjusted))


def install() -> bool:
    """Register the stand-ins when the real verifier is missing; True if it did."""
    try:
        importlib.import_module("moot.sources.verify")
    except ModuleNotFoundError:
        module = types.ModuleType("moot.sources.verify")
        module.CitationCheck = CitationCheck  # type: ignore[attr-defined]
        module.verify_citation = verify_citation  # type: ignore[attr-defined]
        sys.modules["moot.sources.verify"] = module
        penalty = types.ModuleType("moot.sources.penalty")
        penalty.penalised_evidence = penalised_evidence  # type: ignore[attr-defined]
        sys.modules["moot.sources.penalty"] = penalty
        return True
    return False
