"""The evidence rule for citations that code could not verify (docs/citation-verification.md,
"Penalty"), the same rule the market format applies to unsupported numbers: each
unverified citation (``not_in_source``, ``number_mismatch``) takes ``per_citation``
points off an argument's evidence score (1-10); when every citation of an argument is
unverified, the score is at most ``cap_when_all_unverified``; never below ``floor``,
never above the judge's score. ``no_source`` (reasoning only, labelled as such) and
``verified`` cost nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from moot.sources.verify import CitationCheck

UNVERIFIED_PENALTY: Final = 2.0
ALL_UNVERIFIED_CAP: Final = 3.0
SCORE_FLOOR: Final = 1.0
PENALISED: Final = frozenset({"not_in_source", "number_mismatch"})


def penalised_evidence(
    score: float,
    checks: Sequence[CitationCheck],
    *,
    per_citation: float = UNVERIFIED_PENALTY,
    cap_when_all_unverified: float = ALL_UNVERIFIED_CAP,
    floor: float = SCORE_FLOOR,
) -> float:
    """An argument's evidence score after the unverified-citation rule."""
    unverified = sum(check.status in PENALISED for check in checks)
    if unverified == 0:
        return score
    adjusted = score - per_citation * unverified
    if unverified == len(checks):
        adjusted = min(adjusted, cap_when_all_unverified)
    return min(score, max(floor, adjusted))
