"""Every format (the hostile catalogue's FORMATS; the competitive format in
tests/competitive/test_competitive_resume.py) resumes exactly: a run stopped part of
the way and resumed makes the calls, and spends the tokens, of the same run
uninterrupted, and takes every completed call from the journal, none from the cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile import FORMATS, Format
from moot.debate import resume_debate, run_debate
from moot.errors import BudgetExceeded
from moot.store import Store

TOPIC = "Should we adopt x?"


@pytest.mark.parametrize("fmt", FORMATS, ids=[f.name for f in FORMATS])
def test_a_resumed_run_equals_the_uninterrupted_one(fmt: Format, tmp_path: Path) -> None:
    options = {"model": "scripted:demo", "seed": 4, "temperature": 0.0, **fmt.api_options}
    whole = run_debate(TOPIC, **options)
    total = whole.usage.prompt_tokens + whole.usage.completion_tokens
    store = Store(tmp_path / "moot.db")
    # a budget reserves each call's worst case: the least that lets some calls through
    for fraction in (0.5, 0.7, 0.9):
        run_id = f"r{fraction}"
        with pytest.raises(BudgetExceeded):
            run_debate(
                TOPIC, store=store, debate_id=run_id, max_tokens=int(total * fraction), **options
            )
        if store.calls(run_id):
            break
    assert 0 < len(store.calls(run_id)) < whole.usage.calls
    resumed = resume_debate(run_id, store=store, max_tokens=10 * total)
    assert resumed.usage.calls == whole.usage.calls
    assert resumed.usage.prompt_tokens == whole.usage.prompt_tokens
    assert resumed.usage.completion_tokens == whole.usage.completion_tokens
    assert resumed.judgement == whole.judgement
    assert [call.source for call in store.calls(run_id)].count("cache") == 0
