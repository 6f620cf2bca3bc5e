"""The market format in the HTML report. The page shows the format's briefing
sections (the data and the analysts, the synthesis, the argument trace with the
evidence penalty, the evidence check, the cross-examination, the closings, the
baseline) through the defaults of :class:`FormatView`; this view tells the viewer's
live page the market debate's rounds and how many calls its analysts make."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moot.errors import MootError
from moot.formats.market.inputs import analysts_of
from moot.report.html.formats import FormatView

NAME = "market"
ANALYST_ROUNDS = ("opening", "cross_examination", "closing")


class MarketView(FormatView):
    name = NAME
    unit = "argument"

    def rounds(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The analysts' rounds, the baseline's call beside the openings when asked
        for, and the synthesis beside the judgement."""
        first = ("baseline",) if _format_options(options).get("baseline") else ()
        return (*first, *ANALYST_ROUNDS, "synthesis")

    def debater_calls(self, options: Mapping[str, Any], positions: int) -> int | None:
        """Every analyst's opening, cross-examination and closing, the synthesis, and
        the baseline when asked for. None when the stored analysts file cannot be read
        any more (a run stored before the file was kept in its options)."""
        format_options = _format_options(options)
        try:
            panel = analysts_of(format_options)
        except MootError:
            return None
        baseline = 1 if format_options.get("baseline") else 0
        return len(panel.agents) * len(ANALYST_ROUNDS) + 1 + baseline


def _format_options(options: Mapping[str, Any]) -> Mapping[str, Any]:
    value = options.get("format_options") or {}
    return value if isinstance(value, Mapping) else {}
