"""The decision briefing in Markdown, in the debate's language."""

from __future__ import annotations

from functools import cache

import jinja2

from moot import i18n
from moot.schema import DebateResult


def _cell(text: object) -> str:
    """Make text safe inside a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


@cache
def _template() -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("moot", "report/templates"),
        # Markdown output, not HTML; table cells are escaped by the ``cell`` filter.
        autoescape=False,  # noqa: S701
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["cell"] = _cell
    return env.get_template("briefing.md.j2")


def to_markdown(result: DebateResult) -> str:
    """Render the briefing: totals and gap, trace table, fallacies, closings, key
    insight, unresolved questions, recommendation, unmet rules and usage."""
    labels = i18n.labels(result.lang)
    scores = {s.argument_id: s for s in result.judgement.scores}
    usage = result.usage
    usage_line = labels["usage.line"].format(
        calls=usage.calls,
        reasks=usage.reasks,
        prompt=usage.prompt_tokens,
        completion=usage.completion_tokens,
        seconds=usage.wall_seconds,
    )
    return (
        _template().render(r=result, L=labels, scores=scores, usage_line=usage_line).strip() + "\n"
    )
