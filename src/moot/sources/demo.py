"""What ``scripted:demo`` cites in a debate over documents: a sentence copied exactly
from a passage it was given, so the offline demo's citations check out."""

from __future__ import annotations

import re

from moot.sources.citations import EvidenceDraft
from moot.sources.library import Passage
from moot.sources.numbers import read_numbers

_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")


def demo_citation(passage: Passage, limit: int) -> EvidenceDraft:
    """A citation of ``passage``: of its first three sentences that fit in ``limit``
    characters (else its opening words), the longest with a figure, quoted exactly,
    with that figure as the data point."""
    parts = [s.strip() for s in _SENTENCE.split(passage.text) if s.strip()]
    fitting = [s for s in parts if len(s) <= limit] or [passage.text[:limit].strip()]
    quote = max(fitting[:3], key=lambda s: (bool(read_numbers(s)), len(s)))
    figures = read_numbers(quote)  # the verifier's reader: no digits of an identifier
    point = figures[0].text.strip().rstrip(",.") if figures else ""
    return EvidenceDraft(passage=passage.id, quote=quote, data_point=point[:20])
