"""The toy format's HTML view: its rounds and calls for the viewer's live page; its
sections are its briefing's (the default)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moot.report.html import FormatView

ROUNDS = ("vote_before", "opening", "vote_after")


class ToyView(FormatView):
    name = "toy"
    unit = "speech"

    def rounds(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return ROUNDS

    def debater_calls(self, options: Mapping[str, Any], positions: int) -> int | None:
        return positions + 2  # an opening each, and the two votes
