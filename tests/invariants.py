"""Checks every debate result must pass, whatever model produced it, for every format
and any number of positions.

They recompute from the JSON alone what the acceptance checks recompute: the
positions (pro/con for two, A..F otherwise, with their id prefixes), every format's
own structure (structured: each position answers every other position's arguments
exactly once, ids per position; free-form: every position speaks in every round;
market: every analyst answers each opponent's arguments exactly once, challenging at
least half, and the code's evidence penalty follows its rule),
ids consistent across sections, standings in the format's enum, weighted scores,
totals and the gap (leader against runner-up) equal to the weights applied to the
raw integer scores, detector flags pointing at real turns and units, and the number
of calls.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from competitive_checks import check_competitive
from moot.schema import DebateResult

WEIGHTS = {"logic": 0.30, "evidence": 0.30, "responsiveness": 0.25, "honesty": 0.15}
MARKET_WEIGHTS = {"logic": 0.30, "evidence": 0.30, "clarity": 0.20, "persuasiveness": 0.20}
DIMENSIONS = {
    "structured": set(WEIGHTS),
    "freeform": set(WEIGHTS),
    "market": set(MARKET_WEIGHTS),
    "competitive": set(WEIGHTS),
}
"""The rubric dimensions each format's judge scores."""
STANDINGS = {
    "structured": ("UPHELD", "PARTIALLY_UPHELD", "REFUTED", "UNCERTAIN"),
    "freeform": ("STRONG", "MIXED", "WEAK", "UNCERTAIN"),
    "market": ("UPHELD", "WEAKENED", "REFUTED", "UNCERTAIN"),
    "competitive": ("STRONG", "MIXED", "WEAK", "UNCERTAIN"),
}
MARKET_ATTACKS = {"refute", "question_evidence"}
MARKET_CHALLENGES = {*MARKET_ATTACKS, "concede", "partial"}
RESPONSES = {"refute", "challenge", "concede", "partial"}
DETECTORS = {
    "repetition",
    "ad_hominem",
    "topic_drift",
    "stance_drift",
    "judge_zero_variance",
    "score_inflation",
    "false_consensus",
}
TOP_LEVEL = {
    "schema_version",
    "format",
    "topic",
    "lang",
    "seed",
    "models",
    "positions",
    "judgement",
    "detectors",
    "warnings",
    "usage",
    "payload",
}
LETTERS = "ABCDEF"


def body(doc: dict[str, Any]) -> dict[str, Any]:
    """The result's own format's payload."""
    payload: dict[str, Any] = doc["payload"][doc["format"]]
    return payload


def position_keys(doc: dict[str, Any]) -> list[str]:
    return [p["key"] for p in doc["positions"]]


def units(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The judged units in the order they were made: ``{"id", "side"}`` each."""
    if doc["format"] in ("structured", "market"):
        return [{"id": a["id"], "side": a["side"]} for a in body(doc)["arguments"]]
    return [{"id": s["id"], "side": s["side"]} for s in body(doc)["speeches"]]


def turns(doc: dict[str, Any]) -> list[tuple[str, str | None]]:
    """The debate's turns in speaking order as the detectors read them: (side, judged
    unit or None)."""
    data = body(doc)
    if doc["format"] == "structured":
        return (
            [(a["side"], a["id"]) for a in data["arguments"]]
            + [(c["by"], None) for c in data["cross_examinations"]]
            + [(c["side"], None) for c in data["closings"]]
        )
    if doc["format"] == "market":
        return (
            [(a["side"], a["id"]) for a in data["arguments"]]
            + [(c["side"], None) for c in data["challenges"]]
            + [(c["side"], None) for c in data["closings"]]
        )
    return [(s["side"], s["id"]) for s in data["speeches"]]


def first_attempt_calls(doc: dict[str, Any]) -> int:
    """The calls of a one-judge debate when nothing is re-asked: structured, three
    rounds of one call per position; free-form, one call per position per round;
    market, three rounds of one call per analyst, the synthesis and the baseline when
    there is one; and the judge (free-form with ``--judge-each-round``: once per round
    more)."""
    n = len(doc["positions"])
    if doc["format"] == "structured":
        # a profile with argument_calls asks each opening argument in its own call,
        # except in a debate over documents (its opening is one sourced call a side)
        profiles = doc.get("profiles", {})
        by_argument = doc.get("sources") is None
        openings = sum(
            len([a for a in body(doc)["arguments"] if a["side"] == key])
            if by_argument and profiles.get(key, {}).get("argument_calls")
            else 1
            for key in position_keys(doc)
        )
        return openings + 2 * n + 1
    if doc["format"] == "market":
        data = body(doc)
        return 3 * len(data["analysts"]) + 1 + (data["baseline"] is not None) + 1
    rounds: int = body(doc)["rounds"]
    # --judge-each-round: one more judge call per round
    return rounds * n + 1 + len(body(doc).get("round_scores", []))


def check_positions(doc: dict[str, Any]) -> list[str]:
    keys = position_keys(doc)
    assert 2 <= len(keys) <= 6
    if doc["format"] == "market":
        assert keys == ["bull", "bear"]
        assert [p["prefix"] for p in doc["positions"]] == ["BULL", "BEAR"]
    elif len(keys) == 2 and keys == ["pro", "con"]:
        assert [p["prefix"] for p in doc["positions"]] == ["PRO", "CON"]
    else:
        assert keys == list(LETTERS[: len(keys)])
        assert [p["prefix"] for p in doc["positions"]] == keys
    names = [p["name"] for p in doc["positions"]]
    assert all(name.strip() for name in names)
    assert len({n.casefold() for n in names}) == len(names)
    assert set(doc["models"]) >= {*keys, "judge"}
    return keys


def check_structured(doc: dict[str, Any]) -> None:
    data = body(doc)
    keys = position_keys(doc)
    prefix = {p["key"]: p["prefix"] for p in doc["positions"]}
    args = data["arguments"]
    ids = [a["id"] for a in args]
    assert len(ids) == len(set(ids))
    for side in keys:
        own = [a["id"] for a in args if a["side"] == side]
        assert 3 <= len(own) <= 5, (side, own)
        assert own == [f"{prefix[side]}-{n}" for n in range(1, len(own) + 1)]
        for key in ("claim", "reasoning", "evidence"):
            assert all(a[key].strip() for a in args if a["side"] == side)
    assert {a["side"] for a in args} == set(keys)

    # each position answers every argument of every other position exactly once, and
    # none of its own
    cross = data["cross_examinations"]
    for side in keys:
        targets = Counter(c["target_id"] for c in cross if c["by"] == side)
        assert targets == Counter(a["id"] for a in args if a["side"] != side), side
    assert all(c["response"] in RESPONSES for c in cross)
    assert all(c["reasoning"].strip() and c["follow_up"].strip() for c in cross)

    closings = {c["side"]: c for c in data["closings"]}
    assert len(closings) == len(data["closings"])
    assert set(closings) == set(keys)
    for side, closing in closings.items():
        assert set(closing["unrefuted"]) <= {a["id"] for a in args if a["side"] == side}
        assert isinstance(closing["stance_change"]["changed"], bool)
        assert closing["final_stance"].strip()

    answered = {
        a["id"]: {c["by"]: c["response"] for c in cross if c["target_id"] == a["id"]} for a in args
    }
    for row in doc["judgement"]["trace"]:
        assert row["responses"] == answered[row["argument_id"]]
        assert set(row["responses"]) == set(keys) - {row["side"]}
        claim = next(a["claim"] for a in args if a["id"] == row["argument_id"])
        assert row["claim"] == claim


def check_freeform(doc: dict[str, Any]) -> None:
    data = body(doc)
    keys = position_keys(doc)
    prefix = {p["key"]: p["prefix"] for p in doc["positions"]}
    rounds = data["rounds"]
    assert rounds >= 1
    speeches = data["speeches"]
    assert len(speeches) == rounds * len(keys)
    by_id = {s["id"]: s for s in speeches}
    assert len(by_id) == len(speeches)
    for n in range(1, rounds + 1):
        spoken = [s for s in speeches if s["round"] == n]
        # every position speaks exactly once in every round, in position order
        assert [s["side"] for s in spoken] == keys, (n, spoken)
        for s in spoken:
            assert s["id"] == f"{prefix[s['side']]}-R{n}"
            assert s["text"].strip()
            previous = {p["id"] for p in speeches if p["round"] == n - 1 and p["side"] != s["side"]}
            assert set(s["responds_to"]) <= previous
            assert len(s["responds_to"]) == len(set(s["responds_to"]))
    assert [s["round"] for s in speeches] == sorted(s["round"] for s in speeches)
    for reask in data["detector_reasks"]:
        assert reask["speech_id"] in by_id
        assert reask["detectors"]
        assert set(reask["detectors"]) <= {"repetition", "topic_drift", "stance_drift"}
        assert reask["reason"].strip()
        assert isinstance(reask["fixed"], bool)
    for row in doc["judgement"]["trace"]:
        speech = by_id[row["argument_id"]]
        answered = {
            later["side"]: "answered"
            for later in speeches
            if later["round"] == speech["round"] + 1 and speech["id"] in later["responds_to"]
        }
        assert row["responses"] == answered


def check_market(doc: dict[str, Any]) -> None:
    data = body(doc)
    analysts = {a["id"]: a for a in data["analysts"]}
    assert 1 <= len(analysts) == len(data["analysts"]) <= 15
    assert {a["side"] for a in analysts.values()} == {"bull", "bear"}
    for agent_id, analyst in analysts.items():
        assert analyst["role"] == f"{analyst['side']}:{agent_id}"
        assert analyst["role"] in doc["models"]
        for other in analyst["opponents"]:
            assert analysts[other]["lens"] == analyst["lens"]
            assert analysts[other]["side"] != analyst["side"]
            assert agent_id in analysts[other]["opponents"]
    args = data["arguments"]
    ids = [a["id"] for a in args]
    assert len(ids) == len(set(ids))
    for agent_id, analyst in analysts.items():
        own = [a for a in args if a["agent"] == agent_id]
        assert 2 <= len(own) <= 4, (agent_id, own)
        prefix = own[0]["id"].rsplit("-", 1)[0]
        assert [a["id"] for a in own] == [f"{prefix}-{n}" for n in range(1, len(own) + 1)]
        assert all(a["side"] == analyst["side"] and a["lens"] == analyst["lens"] for a in own)
    for a in args:
        assert a["claim"].strip()
        assert a["evidence"].strip()
        assert 0 <= a["confidence"] <= 1
        assert a["counterpoints"]
        check = a["check"]
        unsupported = [
            n
            for n in check["numbers"]
            if n["status"] in ("unsupported", "wrong_entity", "wrong_period")
        ]
        assert check["unsupported"] == len(unsupported)
        assert check["checked"] == len(check["numbers"])

    # every analyst answers each argument of its opponents exactly once, and challenges
    # or refutes at least half of them (the anti-handshake rule)
    challenges = data["challenges"]
    by_agent = {a["id"]: a["agent"] for a in args}
    for agent_id, analyst in analysts.items():
        given = [c for c in challenges if c["by"] == agent_id]
        expected = Counter(a["id"] for a in args if a["agent"] in analyst["opponents"])
        assert Counter(c["target_id"] for c in given) == expected, agent_id
        attacks = sum(c["challenge_type"] in MARKET_ATTACKS for c in given)
        # a reply that broke the rule after every re-ask is kept with a warning
        kept = {"code": "handshake", "side": analyst["role"]}
        broken = any(kept.items() <= w.items() for w in doc["warnings"])
        assert (attacks >= (len(given) + 1) // 2) != broken, agent_id
        for c in given:
            assert c["side"] == analyst["side"]
            assert c["target_agent"] == by_agent[c["target_id"]]
    assert all(c["challenge_type"] in MARKET_CHALLENGES for c in challenges)
    assert sorted(c["agent"] for c in data["closings"]) == sorted(analysts)

    # the evidence penalty: per judge run, the judge's score lowered by its rule
    rule = data["evidence_rule"]
    cited = {a["id"]: (a["check"]["unsupported"], len(a["check"]["numbers"])) for a in args}
    for row in data["evidence_scores"]:
        unsupported, numbers = cited[row["argument_id"]]
        assert row["unsupported"] == unsupported
        expected_score = row["raw"]
        if unsupported:
            expected_score = max(rule["floor"], row["raw"] - rule["per_unsupported"] * unsupported)
            if unsupported == numbers:
                expected_score = min(expected_score, rule["cap_when_all_unsupported"])
            expected_score = min(row["raw"], expected_score)
        assert row["penalised"] == expected_score, row
    if doc.get("panel") is None:  # one judge: its scores carry the penalised evidence
        assert {r["judge"] for r in data["evidence_scores"]} <= {"judge"}
        penalised = {r["argument_id"]: r["penalised"] for r in data["evidence_scores"]}
        for score in doc["judgement"]["scores"]:
            assert score["scores"]["evidence"] == penalised[score["argument_id"]]
    for field in ("bull_case", "bear_case", "judge_note"):
        assert data["synthesis"][field].strip()
    baseline = data["baseline"]
    if baseline is not None:
        assert baseline["direction"] in ("up", "down")
        p, up = baseline["probability_up"], baseline["direction"] == "up"
        # a contradiction kept after the re-asks is flagged, never silent
        assert baseline["contradicts"] == ((up and p < 0.5) or (not up and p > 0.5))
        if not baseline["contradicts"]:
            assert (p > 0.5) == up

    answered = {
        a["id"]: {c["by"]: c["challenge_type"] for c in challenges if c["target_id"] == a["id"]}
        for a in args
    }
    for row in doc["judgement"]["trace"]:
        assert row["responses"] == answered[row["argument_id"]]
        claim = next(a["claim"] for a in args if a["id"] == row["argument_id"])
        assert row["claim"] == claim


def check_judgement(doc: dict[str, Any], judgement: dict[str, Any]) -> None:
    """Scores, totals, gap and trace of one judgement, recomputed from its raw scores."""
    keys = position_keys(doc)
    unit_list = units(doc)
    ids = [u["id"] for u in unit_list]
    side_of = {u["id"]: u["side"] for u in unit_list}
    weights = judgement["weights"]
    assert set(weights) == DIMENSIONS[doc["format"]]
    assert abs(sum(weights.values()) - 1) < 1e-9
    scores = {s["argument_id"]: s for s in judgement["scores"]}
    assert sorted(scores) == sorted(ids)
    assert len(judgement["scores"]) == len(ids)
    for ident, score in scores.items():
        assert score["side"] == side_of[ident]
        assert set(score["scores"]) == set(weights)
        for value in score["scores"].values():
            assert isinstance(value, int)
            assert 1 <= value <= 10
        expected = sum(weights[d] * score["scores"][d] for d in weights)
        assert abs(score["weighted"] - expected) < 1e-3
    totals = judgement["totals"]
    assert list(totals) == keys
    for side in keys:
        own = [scores[i]["weighted"] for i in ids if side_of[i] == side]
        assert own, side
        assert abs(totals[side] - sum(own) / len(own)) < 1e-3
    check_gap(judgement["gap"], totals)

    trace = judgement["trace"]
    assert [t["argument_id"] for t in trace] == ids
    assert all(t["standing"] in STANDINGS[doc["format"]] for t in trace)
    assert all(t["side"] == side_of[t["argument_id"]] for t in trace)
    assert all(f["argument_id"] in ids for f in judgement["fallacies"])
    assert judgement["key_insight"].strip()
    assert judgement["recommendation"].strip()
    assert 1 <= len(judgement["unresolved_questions"]) <= 3


def check_gap(gap: dict[str, Any], totals: dict[str, float]) -> None:
    """The gap is the leader's lead over the runner-up, read by its thresholds."""
    ranked = sorted(totals.items(), key=lambda item: item[1], reverse=True)
    (first, top), (second, next_best) = ranked[0], ranked[1]
    value = top - next_best
    assert abs(gap["value"] - value) < 1e-3
    if gap["value"] > 0:
        assert gap["leader"] == first
        assert gap["runner_up"] == second
        assert totals[gap["leader"]] == max(totals.values())
    else:
        assert gap["leader"] is None
        assert gap["runner_up"] is None
    expected_reading = (
        "evenly_matched"
        if gap["value"] < 1
        else "clear_difference"
        if gap["value"] > 3
        else "moderate_difference"
    )
    assert gap["reading"] == expected_reading
    assert gap["text"].strip()


def check_detectors(doc: dict[str, Any]) -> None:
    """Every flag names one of the seven detectors; a turn flag points at a real turn
    of the right side, and its unit is that turn's judged unit (None otherwise)."""
    spoken = turns(doc)
    keys = set(position_keys(doc))
    for flag in doc["detectors"]:
        assert flag["detector"] in DETECTORS, flag
        assert flag["evidence"].strip()
        if flag["turn"] is None:
            assert flag["unit"] is None
            continue
        assert 0 <= flag["turn"] < len(spoken), flag
        side, unit = spoken[flag["turn"]]
        assert flag["side"] == side, flag
        assert flag["unit"] == unit, flag
        assert flag["side"] in keys


def check_result_json(text: str, *, extra_calls: int = 0) -> dict[str, Any]:
    """Assert every invariant on a result's JSON text; return the parsed document.
    ``extra_calls``: first-attempt calls beyond those of a one-judge debate (a panel's
    further judges and its topic classification, a swap rerun)."""
    doc: dict[str, Any] = json.loads(text)
    assert set(doc) >= TOP_LEVEL, TOP_LEVEL - set(doc)
    assert doc["schema_version"] == "2.0"
    assert set(doc["payload"]) == {doc["format"]}
    check_positions(doc)
    if doc["format"] == "structured":
        check_structured(doc)
    elif doc["format"] == "freeform":
        check_freeform(doc)
    elif doc["format"] == "market":
        check_market(doc)
    elif doc["format"] == "competitive":
        # its own checks: speaking order, windows, legal moves replayed, trees, votes
        check_competitive(DebateResult.model_validate(doc))
    else:
        raise AssertionError(f"no invariants for format {doc['format']!r}")
    check_judgement(doc, doc["judgement"])
    check_detectors(doc)
    usage = doc["usage"]
    assert usage["reasks"] >= 0
    if doc["format"] != "competitive":  # its calls depend on the trees and the rewrites
        assert usage["calls"] == first_attempt_calls(doc) + extra_calls + usage["reasks"]
    return doc


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)
