"""The decision briefing in Markdown, in the debate's language."""

from __future__ import annotations

from functools import cache

import jinja2

from moot import i18n
from moot.report.escape import markdown_environment
from moot.schema import DebateResult, QualityWarning


@cache
def _template() -> jinja2.Template:
    # every interpolated value is escaped: no text can restructure the briefing
    env = markdown_environment(jinja2.PackageLoader("moot", "report/templates"))
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
    text = _template().render(
        r=result,
        L=labels,
        scores=scores,
        usage_line=usage_line,
        warning_groups=_group_warnings(result.warnings, labels),
        lead_judge=_lead_judge(result),
        divergence_reasons=[
            labels[f"divergence.{reason}"]
            for reason in (result.panel.divergence.reasons if result.panel else [])
        ],
    )
    return text.strip() + "\n"


def _group_warnings(
    warnings: list[QualityWarning], labels: dict[str, str]
) -> list[tuple[str, str, list[str]]]:
    """One line per (round, side, rule): the heading, the rule's words and the fields."""
    groups: dict[tuple[str, str | None, str], list[str]] = {}
    for w in warnings:
        groups.setdefault((w.round, w.side, w.code), []).append(w.where)
    lines = []
    for (round_name, side, code), places in groups.items():
        heading = labels.get(f"round.{round_name}", round_name)
        if side:
            heading += ", " + labels[f"side.{side}"]
        lines.append((heading, labels.get(f"rule.{code}", code), [p for p in places if p]))
    return lines


def _lead_judge(result: DebateResult) -> str:
    """The panel judge whose first run is ``result.judgement`` (general, else the first)."""
    if result.panel is None:
        return ""
    names = [j.name for j in result.panel.judges]
    return "general" if "general" in names else names[0]
