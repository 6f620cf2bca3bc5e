"""Which view renders which debate format: a registry keyed by the result's
``format``. A format's view supplies its judged items, its own sections (template
partials under ``templates/html/formats/<name>/``), its transcript in speaking order,
the detector flags placed on that transcript, and, for the viewer's live page, its
rounds and how many calls a run makes. Everything else on the page is shared."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from moot.errors import ConfigError
from moot.report.html import structured
from moot.report.html.parts import Context, FlagView, ItemRef, Section, SideView, TurnView
from moot.schema import DebateResult


@dataclass(frozen=True)
class FormatView:
    """How one debate format is shown."""

    name: str
    items: Callable[[DebateResult, tuple[SideView, ...]], list[ItemRef]]
    transcript: Callable[[Context], list[TurnView]]
    sections: Callable[[Context, list[TurnView]], list[Section]]
    """The format's own sections; shown after the verdict and the panel."""
    detector_flags: Callable[[Context, list[TurnView]], list[FlagView]]
    rounds: tuple[str, ...]
    expected_calls: Callable[[Mapping[str, Any]], int | None]


VIEWS: dict[str, FormatView] = {
    structured.NAME: FormatView(
        name=structured.NAME,
        items=structured.items,
        transcript=structured.transcript,
        sections=structured.sections,
        detector_flags=structured.detector_flags,
        rounds=structured.ROUNDS,
        expected_calls=structured.expected_calls,
    ),
}


def register(view: FormatView) -> None:
    """Add (or replace) the view of a format."""
    VIEWS[view.name] = view


def view_of(format_name: str) -> FormatView:
    """The view of a format; ``ConfigError`` for one this version cannot show."""
    try:
        return VIEWS[format_name]
    except KeyError:
        known = ", ".join(sorted(VIEWS))
        raise ConfigError(
            f"no HTML view for debate format {format_name!r} (known: {known})"
        ) from None
