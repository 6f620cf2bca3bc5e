"""The JSON form of a result: the documented, versioned ``DebateResult`` model."""

from __future__ import annotations

from moot.safe_text import safe_json
from moot.schema import DebateResult


def to_json(result: DebateResult) -> str:
    """The full result as indented JSON (UTF-8 text, non-ASCII kept readable; control
    characters and direction overrides as ``\\u`` escapes, safe on a terminal)."""
    return safe_json(result.model_dump_json(indent=2)) + "\n"
