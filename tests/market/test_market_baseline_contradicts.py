"""A baseline reply whose direction contradicts its own P(up): re-asked where the
profile re-asks rules, flagged in the run (``baseline.contradicts``, the briefing)
when it is kept, and left out of a backtest's scoring."""

from __future__ import annotations

from collections import Counter
from typing import Any

from test_market_format import backend, run_market

from moot.formats.market.backtest import read_debate
from moot.formats.market.data import demo_snapshots
from moot.formats.market.replies import BaselineReply
from moot.llm.scripted import DemoRequest
from moot.llm.types import CallContext
from moot.report import to_markdown

OPTIONS: dict[str, Any] = {"kb": "demo", "baseline": True}


def contradicting(until: int, attempts: Counter[int]) -> Any:
    """A baseline that answers up with P(up) 20% on its first ``until`` attempts, then
    up with 70%; the other calls play the demo."""

    def override(context: CallContext, _: DemoRequest) -> BaselineReply | None:
        if context.role != "baseline":
            return None
        attempts[context.attempt] += 1
        p = 20 if context.attempt <= until else 70
        return BaselineReply(
            direction="up",
            probability_up=p,
            reasoning="The index rose over the last twenty sessions.",
        )

    return backend(override)


def test_a_contradiction_is_re_asked_and_the_consistent_reply_kept() -> None:
    attempts: Counter[int] = Counter()
    result = run_market(contradicting(1, attempts), format_options=OPTIONS)
    assert attempts == {1: 1, 2: 1}
    baseline = result.body["baseline"]
    assert baseline["probability_up"] == 0.7
    assert baseline["contradicts"] is False
    assert baseline["reasks_allowed"] == 2
    assert "contradicts" not in to_markdown(result).split("Single-agent baseline")[1]


def test_a_contradiction_kept_after_the_re_asks_is_flagged_in_the_run() -> None:
    attempts: Counter[int] = Counter()
    result = run_market(contradicting(99, attempts), format_options=OPTIONS)
    assert attempts == {1: 1, 2: 1, 3: 1}
    baseline = result.body["baseline"]
    assert baseline["contradicts"] is True
    assert baseline["reasks_allowed"] == 2
    assert any(w.code == "baseline_inconsistent" for w in result.warnings)
    briefing = to_markdown(result)
    assert "contradicts that probability, after the 2 re-ask(s)" in briefing
    zh = run_market(contradicting(99, Counter()), format_options=OPTIONS, lang="zh")
    assert "回测不计入基线的评分" in to_markdown(zh)
    # the backtest reads the flag: the row is left out of the baseline's scoring
    snapshot = demo_snapshots()[0]
    row = read_debate(snapshot, "r", result, reused=False).row
    assert row.baseline_contradicts


def test_under_a_profile_that_re_asks_no_rule_it_is_kept_at_once() -> None:
    attempts: Counter[int] = Counter()
    result = run_market(
        contradicting(99, attempts), format_options=OPTIONS, profile="compact", seed=5
    )
    assert attempts == {1: 1}
    assert result.body["baseline"]["contradicts"] is True
    assert result.body["baseline"]["reasks_allowed"] == 0
    assert "after the 0 re-ask(s)" in to_markdown(result)
