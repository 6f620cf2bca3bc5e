"""The backtest's progress bar on a terminal: its line is text, never Rich markup, so a
snapshot id from the user's file and the contradiction tag show as written."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

from rich.console import Console

from moot.formats.market.commands import BacktestProgress

if TYPE_CHECKING:
    from moot.formats.market.backtest import SnapshotDebate


def _debate(row_id: str) -> SnapshotDebate:
    row = SimpleNamespace(
        id=row_id,
        confidence_up=0.4,
        predicted="up",
        baseline_predicted="down",
        actual="up",
        baseline_contradicts=True,
    )
    return cast("SnapshotDebate", SimpleNamespace(row=row, reused=False))


def test_the_bar_shows_a_hostile_snapshot_id_and_the_tag_as_text() -> None:
    out = io.StringIO()
    terminal = Console(file=out, force_terminal=True, width=300, color_system=None)
    with BacktestProgress(terminal) as progress:
        progress.started("bt-1", 1)
        progress.snapshot(1, 1, _debate("[/red]X[bold]_2024-01-31"))
        assert progress._bar is not None
        progress._bar.refresh()
    shown = out.getvalue()
    assert "[/red]X[bold]_2024-01-31" in shown
    assert "[baseline contradicts its P(up): not scored]" in shown
