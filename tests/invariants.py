"""Checks every debate result must pass, whatever model produced it.

They recompute from the JSON alone what the issue's acceptance check recomputes:
every opposing argument answered exactly once by each side, ids consistent across
sections, standings in the enum, weighted scores and totals equal to the weights
applied to the raw integer scores.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

WEIGHTS = {"logic": 0.30, "evidence": 0.30, "responsiveness": 0.25, "honesty": 0.15}
STANDINGS = {"UPHELD", "PARTIALLY_UPHELD", "REFUTED", "UNCERTAIN"}
RESPONSES = {"refute", "challenge", "concede", "partial"}
TOP_LEVEL = {
    "schema_version",
    "topic",
    "lang",
    "models",
    "arguments",
    "cross_examinations",
    "closings",
    "judgement",
    "usage",
}


def check_result_json(text: str, *, extra_calls: int = 0) -> dict[str, Any]:
    """Assert every invariant on a result's JSON text; return the parsed document.
    ``extra_calls``: first-attempt calls beyond the seven of a one-judge debate (a
    panel's further judges and its topic classification)."""
    doc: dict[str, Any] = json.loads(text)
    assert set(doc) >= TOP_LEVEL, TOP_LEVEL - set(doc)
    assert {"pro", "con", "judge"} <= set(doc["models"])
    args = doc["arguments"]
    ids = [a["id"] for a in args]
    assert len(ids) == len(set(ids))
    for side in ("pro", "con"):
        own = [a["id"] for a in args if a["side"] == side]
        assert 3 <= len(own) <= 5
        assert own == [f"{side.upper()}-{n}" for n in range(1, len(own) + 1)]
        for key in ("claim", "reasoning", "evidence"):
            assert all(a[key].strip() for a in args if a["side"] == side)

    for side, other in (("pro", "con"), ("con", "pro")):
        targets = Counter(c["target_id"] for c in doc["cross_examinations"] if c["by"] == side)
        assert targets == Counter(a["id"] for a in args if a["side"] == other)
    assert all(c["response"] in RESPONSES for c in doc["cross_examinations"])

    closings = {c["side"]: c for c in doc["closings"]}
    assert set(closings) == {"pro", "con"}
    for side, closing in closings.items():
        assert set(closing["unrefuted"]) <= {a["id"] for a in args if a["side"] == side}
        assert isinstance(closing["stance_change"]["changed"], bool)

    judgement = doc["judgement"]
    scores = {s["argument_id"]: s for s in judgement["scores"]}
    assert sorted(scores) == sorted(ids)
    assert len(judgement["scores"]) == len(ids)
    for score in scores.values():
        for dim in WEIGHTS:
            assert isinstance(score[dim], int)
            assert 1 <= score[dim] <= 10
        expected = sum(WEIGHTS[d] * score[d] for d in WEIGHTS)
        assert abs(score["weighted"] - expected) < 1e-3
    for side in ("pro", "con"):
        own = [scores[a["id"]]["weighted"] for a in args if a["side"] == side]
        assert abs(judgement["totals"][side] - sum(own) / len(own)) < 1e-3
    gap = abs(judgement["totals"]["pro"] - judgement["totals"]["con"])
    assert abs(judgement["gap"]["value"] - gap) < 1e-3
    expected_reading = (
        "evenly_matched" if gap < 1 else "clear_difference" if gap > 3 else "moderate_difference"
    )
    assert judgement["gap"]["reading"] == expected_reading

    trace = judgement["trace"]
    assert [t["argument_id"] for t in trace] == ids
    assert all(t["standing"] in STANDINGS for t in trace)
    assert all(f["argument_id"] in ids for f in judgement["fallacies"])
    usage = doc["usage"]
    assert usage["reasks"] >= 0
    assert usage["calls"] == 7 + extra_calls + usage["reasks"]
    return doc


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)
