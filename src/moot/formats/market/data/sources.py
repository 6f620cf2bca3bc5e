"""Where a knowledge base comes from: a JSON file, or ``demo`` for the synthetic one.

It sits above both ``kb`` (the model and the file reader) and ``demo`` (which builds
a KB), so neither of those imports the other."""

from __future__ import annotations

from pathlib import Path

from moot.formats.market.data.demo import demo_kb
from moot.formats.market.data.kb import KnowledgeBase, read_kb


def load_kb(source: str | Path) -> KnowledgeBase:
    """The KB in a JSON file, or the synthetic demo KB for ``"demo"``."""
    if str(source) == "demo":
        return demo_kb()
    return read_kb(Path(source))
