"""The JSON form of a result: the documented, versioned ``DebateResult`` model."""

from __future__ import annotations

from moot.schema import DebateResult


def to_json(result: DebateResult) -> str:
    """The full result as indented JSON (UTF-8 text, non-ASCII kept readable)."""
    return result.model_dump_json(indent=2) + "\n"
