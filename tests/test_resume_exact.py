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
    with pytest.raises(BudgetExceeded):
        run_debate(TOPIC, store=store, debate_id="r", max_tokens=total // 2, **options)
    done_before = len(store.calls("r"))
    assert 0 < done_before < whole.usage.calls
    resumed = resume_debate("r", store=store, max_tokens=10 * total)
    assert resumed.usage.calls == whole.usage.calls
    assert resumed.usage.prompt_tokens == whole.usage.prompt_tokens
    assert resumed.usage.completion_tokens == whole.usage.completion_tokens
    assert resumed.judgement == whole.judgement
    assert [call.source for call in store.calls("r")].count("cache") == 0
