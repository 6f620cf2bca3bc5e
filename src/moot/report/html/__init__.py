"""The decision briefing as one self-contained HTML page.

``to_html(result)`` returns a complete document that needs no network: inline CSS
(allowed by its hash in a strict Content-Security-Policy), charts as inline SVG,
collapsing with ``<details>``, and no script. The page is assembled from sections:
the ones every format shares (``common``) and the format's own, from the view its
``Format`` names (``formats``). Every template autoescapes: whatever a model
wrote is shown as text, never interpreted as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from moot.errors import ConfigError
from moot.report.html import common, generic
from moot.report.html.formats import FormatView, register, view_of
from moot.report.html.labels import label, labels
from moot.report.html.page import render
from moot.report.html.parts import Context, Section
from moot.report.html.sources import html_section as sources_html
from moot.report.markdown import role_names
from moot.report.verdict import RunInfo, header_items
from moot.schema import DebateResult

__all__ = [
    "FormatView",
    "Link",
    "ReportPage",
    "RunInfo",
    "build_report",
    "register",
    "render_report",
    "to_html",
]


@dataclass(frozen=True)
class Link:
    """A navigation link a hosting page (the viewer) adds above the report. ``href`` is
    built by that page from validated values only."""

    text: str
    href: str


@dataclass(frozen=True)
class ReportPage:
    """Everything the report template shows: the heading and the sections in order."""

    title: str
    topic: str
    eyebrow: str
    sections: tuple[Section, ...]
    context: Context
    provenance: tuple[tuple[str, str], ...] = ()
    """Where the run comes from: run id, date, moot version, seed, format, models."""


def build_report(result: DebateResult, run: RunInfo | None = None) -> ReportPage:
    """The report's sections for a result: verdict, panel, the format's own sections,
    scores, flags, unresolved questions, transcript, models and usage. ``ConfigError``
    when the result's format is unknown or its payload cannot be read (a damaged or
    hand-edited stored result)."""
    view: FormatView = view_of(result.format)
    try:
        return _build(result, view, run)
    except ValidationError as exc:
        raise ConfigError(
            f"the {result.format} payload of this result cannot be read"
            f" ({exc.error_count()} validation errors)"
        ) from exc
    except KeyError as exc:
        raise ConfigError(
            f"the stored result is missing {exc}, which its {result.format} view reads"
        ) from exc


def _build(result: DebateResult, view: FormatView, run: RunInfo | None) -> ReportPage:
    text = labels(result.lang, result.format)
    sides = common.sides_of(result)
    ctx = Context(
        result=result,
        labels=text,
        sides=sides,
        items=tuple(view.items(result, sides)),
        unit=label(text, f"unit.{view.unit}", view.unit),
        standing_tones=generic.standing_tones(result.format),
    )
    turns = view.transcript(ctx)
    # the detectors number the turns of Format.transcript: flags go on the page's
    # turns only when the view's transcript follows that order
    aligned = generic.turn_count(result) in (None, len(turns))
    parts: list[Section | None] = [
        common.verdict_section(ctx),
        *view.leading_sections(ctx),
        common.panel_section(ctx),
        *view.sections(ctx, turns),
        sources_html(result),
        common.scores_section(ctx),
        common.flags_section(ctx, turns if aligned else None),
        common.questions_section(ctx),
        common.transcript_section(ctx, turns),
        common.usage_section(ctx),
    ]
    eyebrow = " · ".join(
        (
            text["title"],
            label(text, f"format.{result.format}", result.format),
            label(text, f"lang.{result.lang}", result.lang),
        )
    )
    names = role_names(result, text)
    models = "; ".join(f"{names[role]}: {spec}" for role, spec in result.models.items())
    return ReportPage(
        title=f"{text['title']}: {result.topic}",
        topic=result.topic,
        eyebrow=eyebrow,
        sections=tuple(s for s in parts if s is not None),
        context=ctx,
        provenance=(*header_items(result, text, run), (text["models"], models)),
    )


def render_report(
    result: DebateResult,
    *,
    nav: Sequence[Link] = (),
    extra: tuple[tuple[str, str], ...] = (),
    forms: bool = False,
    run: RunInfo | None = None,
) -> str:
    """The report page, with navigation links above it when a host page gives some;
    ``run`` (the stored run's id and date) goes in its header."""
    report = build_report(result, run)
    return render(
        "report.html.j2",
        lang=result.lang,
        extra=extra,
        forms=forms,
        format_name=result.format,
        report=report,
        L=report.context.labels,
        title=report.title,
        nav=tuple(nav),
    )


def to_html(result: DebateResult, run: RunInfo | None = None) -> str:
    """The decision briefing as one self-contained HTML document (no network needed);
    ``run`` (the stored run's id and date) goes in its header."""
    return render_report(result, run=run)
