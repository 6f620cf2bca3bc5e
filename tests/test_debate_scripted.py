"""The whole structured debate on the shipped ``scripted:demo`` backend."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from invariants import check_result_json, has_cjk
from moot import arun_debate, run_debate, to_json, to_markdown
from moot.formats.structured.payload import StructuredPayload
from moot.llm.scripted import DemoBackend

TOPIC = "Should a 10-person startup adopt microservices from day one?"


def test_result_satisfies_every_invariant() -> None:
    result = run_debate(TOPIC, model="scripted:demo", seed=11)
    doc = check_result_json(to_json(result))
    assert doc["models"] == {
        "pro": "scripted:demo",
        "con": "scripted:demo",
        "judge": "scripted:demo",
    }
    assert doc["lang"] == "en"
    assert doc["topic"] == TOPIC
    assert result.usage.reasks == 0
    assert result.warnings == []


def test_same_seed_same_debate_and_other_seed_differs() -> None:
    first = run_debate(TOPIC, model="scripted:demo", seed=5)
    again = run_debate(TOPIC, model="scripted:demo", seed=5)
    other = run_debate(TOPIC, model="scripted:demo", seed=6)

    def content(r: object) -> str:
        text = to_json(r)  # type: ignore[arg-type]
        return text.split('"usage"')[0]

    assert content(first) == content(again)
    assert content(first) != content(other)


def test_chinese_debate_speaks_chinese() -> None:
    topic = "冬季旅行去海南还是去东北？"
    result = run_debate(topic, model="scripted:demo", seed=2, lang="zh")
    doc = check_result_json(to_json(result))
    assert doc["lang"] == "zh"
    # an "A or B" question: each position is named with the option it argues for
    assert [p["name"] for p in doc["positions"]] == ["正方（去海南）", "反方（去东北）"]
    assert all(has_cjk(a["claim"]) for a in doc["payload"]["structured"]["arguments"])
    assert has_cjk(doc["judgement"]["gap"]["text"])
    briefing = to_markdown(result)
    assert briefing.startswith("# 决策简报")
    assert "论据追溯表" in briefing


def test_roles_can_use_different_models() -> None:
    pro, con, judge = DemoBackend(seed=1), DemoBackend(seed=2), DemoBackend(seed=3)
    result = run_debate(
        TOPIC, pro_model=pro, con_model=con, judge_model=judge, model="scripted:demo"
    )
    assert {c.context.role for c in pro.calls} == {"pro"}
    assert {c.context.role for c in con.calls} == {"con"}
    assert {c.context.role for c in judge.calls} == {"judge"}
    assert len(pro.calls) == len(con.calls) == 3
    assert len(judge.calls) == 1
    check_result_json(to_json(result))


@pytest.mark.timing
def test_independent_calls_run_concurrently() -> None:
    """Both sides' calls of a round are in flight together (overlapping intervals),
    and no round starts before the previous one ended: four waves."""
    backend = DemoBackend(seed=4, latency_ms=50)
    asyncio.run(arun_debate(TOPIC, model=backend))
    by_round: dict[str, list[tuple[float, float]]] = {}
    for call in backend.calls:
        by_round.setdefault(call.context.round, []).append((call.started, call.finished))
    order = ["opening", "cross_examination", "closing", "judgement"]
    assert list(by_round) == order
    for name in order[:3]:
        (a_start, a_end), (b_start, b_end) = by_round[name]
        overlap = min(a_end, b_end) - max(a_start, b_start)
        assert overlap > 0, f"{name} calls did not overlap"
    for before, after in itertools.pairwise(order):
        assert max(end for _, end in by_round[before]) <= min(s for s, _ in by_round[after])


def test_briefing_has_every_section() -> None:
    result = run_debate(TOPIC, model="scripted:demo", seed=8)
    briefing = to_markdown(result)
    for heading in (
        "# Decision briefing",
        "## Scores",
        "## Argument trace",
        "## Possible fallacies",
        "## Key insight",
        "## Unresolved questions",
        "## Recommendation",
    ):
        assert heading in briefing
    for arg in StructuredPayload.model_validate(result.body).arguments:
        assert f"| {arg.id} |" in briefing
    assert result.judgement.gap.text in briefing


def test_briefing_markdown_is_well_formed() -> None:
    """Every heading is followed by a blank line and no template leaks 'None'."""
    for lang, panel in (
        ("en", []),
        ("zh", []),
        ("en", ["technical", "general"]),
        ("zh", ["risk", "business", "general"]),
    ):
        result = run_debate(
            TOPIC, model="scripted:demo", seed=9, lang=lang, panel=panel, swap_sides=bool(panel)
        )
        lines = to_markdown(result).splitlines()
        for n, line in enumerate(lines[:-1]):
            if line.startswith("#"):
                assert lines[n + 1] == "", f"no blank line after {line!r} ({lang}, {panel})"
        assert "None" not in "\n".join(lines)
