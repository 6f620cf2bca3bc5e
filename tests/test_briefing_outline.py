"""Outlines (indented trees) in the briefing: depths only go one level deeper at a
time (the competitive format's tests check how the Markdown and HTML briefings nest
them)."""

from __future__ import annotations

import pytest

from moot.briefing import Outline


@pytest.mark.parametrize("depths", [[1], [0, 2], [0, -1]])
def test_depths_go_one_level_at_a_time(depths: list[int]) -> None:
    with pytest.raises(ValueError, match="depth"):
        Outline(items=["x"] * len(depths), depths=depths)


def test_items_and_depths_pair_up() -> None:
    with pytest.raises(ValueError, match="one depth per item"):
        Outline(items=["a", "b"], depths=[0])
