"""A resumed competitive run replays its rehearsal tree from the journal, as every
other call, and ends with the calls and tokens of the same run uninterrupted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from moot.debate import resume_debate, run_debate
from moot.errors import BudgetExceeded
from moot.store import Store

TOPIC = "Should we adopt x?"
OPTIONS: dict[str, Any] = {
    "model": "scripted:demo",
    "format": "competitive",
    "seed": 3,
    "temperature": 0.0,
    "format_options": {"embedder": "lexical", "claims": 1, "branching": 1, "depth": 1},
}


def test_a_resume_grows_the_rehearsal_tree_from_the_journal_not_the_cache(
    tmp_path: Path,
) -> None:
    """The interrupted run kept its grown tree in the cache before it stopped; the
    resume used to read it from there (``from_cache``: 4 fewer calls, fewer tokens).
    What a recall found is noted with the run, so a later run still reads the kept
    tree, and its resume too."""
    whole = run_debate(TOPIC, **OPTIONS)
    store = Store(tmp_path / "moot.db")
    with pytest.raises(BudgetExceeded):
        run_debate(TOPIC, store=store, debate_id="c", max_tokens=9000, **OPTIONS)
    rounds = [call.round for call in store.calls("c")]
    assert "rehearsal_1" in rounds  # the tree was grown (and kept) before the stop
    assert len(rounds) < whole.usage.calls
    resumed = resume_debate("c", store=store, max_tokens=10**7)
    assert resumed.usage.calls == whole.usage.calls
    assert resumed.usage.prompt_tokens == whole.usage.prompt_tokens
    assert resumed.usage.completion_tokens == whole.usage.completion_tokens
    [tree] = resumed.payload["competitive"]["rehearsal"]
    assert tree["from_cache"] is False
    assert tree == whole.payload["competitive"]["rehearsal"][0]
    assert all(call.source != "cache" for call in store.calls("c"))

    # a later run on the same motion reads the tree "c" kept, and so does its resume
    with pytest.raises(BudgetExceeded):
        run_debate(TOPIC, store=store, debate_id="d", max_tokens=3000, **OPTIONS)
    again = resume_debate("d", store=store, max_tokens=10**7)
    [kept] = again.payload["competitive"]["rehearsal"]
    assert kept["from_cache"] is True
    assert kept["calls"] == 0
    assert again.usage.calls == whole.usage.calls - tree["calls"]
