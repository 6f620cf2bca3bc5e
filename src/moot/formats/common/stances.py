"""Each position's stance as the detectors read it: pro's and con's from the topic,
a named position's its name."""

from __future__ import annotations

from collections.abc import Iterable

from moot.formats.base import STANCES
from moot.schema import Position


def stances(positions: Iterable[Position], topic: str, lang: str) -> dict[str, str]:
    """The stance of each position, by its key."""
    table = STANCES[lang]
    return {
        p.key: table[p.key].format(topic=topic) if p.key in table else p.name for p in positions
    }
