"""The decision briefing in Markdown, in the debate's language."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import jinja2

from moot import i18n
from moot.report.escape import markdown_environment
from moot.report.sources import briefing_sections as sources_sections
from moot.report.verdict import RunInfo, header_items, verdict_text
from moot.schema import DebateResult, QualityWarning


@cache
def _template() -> jinja2.Template:
    # every interpolated value is escaped: no text can restructure the briefing
    env = markdown_environment(jinja2.PackageLoader("moot", "report/templates"))
    return env.get_template("briefing.md.j2")


def role_names(result: DebateResult, labels: dict[str, str]) -> dict[str, str]:
    """How the briefing names each role of ``result.models``: a position's name, a
    panel judge's profile, a format's further role (a position's member, such as the
    market format's ``bull:tech_bull``, or a role of its own such as ``baseline``), or
    the judge."""
    names = {p.key: p.name for p in result.positions}

    def name(role: str) -> str:
        if role in names:
            return names[role]
        if role.startswith("judge:"):
            return labels.get("judge." + role[6:], role[6:])
        position, _, member = role.partition(":")
        if member and position in names:
            return f"{names[position]} ({member})"
        return labels.get(f"round.{role}") or labels["role.judge"]

    return {role: name(role) for role in result.models}


def to_markdown(result: DebateResult, run: RunInfo | None = None) -> str:
    """Render the briefing: totals and gap, the panel, the format's own sections (the
    structured format's argument trace and closings, the free-form format's
    speeches), fallacies, detector flags, key insight, unresolved questions,
    recommendation, unmet rules and usage. The first lines state the trust verdict,
    the verdict and where the run comes from (``run``: its id and date, when stored)."""
    from moot.formats import format_labels, get_format

    labels = i18n.labels(result.lang, format_labels(result.lang, result.format))
    usage = result.usage
    usage_line = labels["usage.line"].format(
        calls=usage.calls,
        reasks=usage.reasks,
        prompt=usage.prompt_tokens,
        completion=usage.completion_tokens,
        seconds=usage.wall_seconds,
    )
    names = {p.key: p.name for p in result.positions}
    text = _template().render(
        r=result,
        L=labels,
        v=verdict_text(result, labels),
        header=header_items(result, labels, run),
        names=names,
        role_names=role_names(result, labels),
        sections=[*get_format(result.format).briefing(result, labels), *sources_sections(result)],
        usage_line=usage_line,
        warning_groups=group_warnings(result.warnings, labels, names),
        lead_judge=lead_judge(result),
        notes=fallback_notes(result, labels),
    )
    return text.strip() + "\n"


def fallback_notes(result: DebateResult, labels: Mapping[str, str]) -> list[str]:
    """One sentence per schema a server refused in its usual structured-output mode."""
    notes = []
    for f in result.usage.structured_fallbacks:
        notes.append(
            labels["note.fallback"].format(
                model=f.model,
                schema=f.schema_name,
                rejected=labels["note.sep"].join(labels["mode." + m] for m in f.rejected),
                reason=f.reason,
                calls=f.calls,
                mode=labels["mode." + f.mode],
            )
        )
    return notes


def group_warnings(
    warnings: list[QualityWarning],
    labels: dict[str, str],
    names: Mapping[str, str] | None = None,
) -> list[tuple[str, str, list[str]]]:
    """One line per (round, position, rule): the heading, the rule's words and the
    fields. A warning on the run's setup has no field: its message says which option
    and why. ``names`` names the positions (default: pro and con)."""
    names = names or {"pro": labels["side.pro"], "con": labels["side.con"]}
    groups: dict[tuple[str, str | None, str], list[str]] = {}
    for w in warnings:
        place = w.where or (w.message if w.round == "setup" else "")
        groups.setdefault((w.round, w.side, w.code), []).append(place)
    lines = []
    for (round_name, side, code), places in groups.items():
        heading = labels.get(f"round.{round_name}", round_name)
        if side:
            heading += ", " + names.get(side, side)
        lines.append((heading, labels.get(f"rule.{code}", code), [p for p in places if p]))
    return lines


def lead_judge(result: DebateResult) -> str:
    """The panel judge whose first run is ``result.judgement`` (general, else the first)."""
    if result.panel is None:
        return ""
    names = [j.name for j in result.panel.judges]
    return "general" if "general" in names else names[0]
