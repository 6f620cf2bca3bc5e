"""Renderers: turn a ``DebateResult`` into Markdown or JSON. They never call a model."""

from moot.report.json import to_json
from moot.report.markdown import to_markdown

__all__ = ["to_json", "to_markdown"]
