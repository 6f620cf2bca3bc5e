"""Recompute a panel verdict from a result's JSON alone, independently of moot's code,
for every format and any number of positions: weighted scores from the raw integer
scores of every judge run, calibration, judge weights, each position's panel total,
the gap between the leader and the runner-up, Krippendorff's alpha (with the
``krippendorff`` package) and Fleiss' kappa (with the textbook formula written out
here).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from typing import Any

import krippendorff
import numpy as np

from invariants import STANDINGS as FORMAT_STANDINGS
from invariants import check_gap, check_judgement, position_keys, units

DIMENSIONS = ("logic", "evidence", "responsiveness", "honesty")
RELEVANCE = {
    "technical": {"technical": 1.0, "business": 0.5, "risk": 0.6, "general": 0.7},
    "business": {"technical": 0.5, "business": 1.0, "risk": 0.7, "general": 0.7},
    "risk": {"technical": 0.6, "business": 0.7, "risk": 1.0, "general": 0.7},
    "general": {"technical": 0.8, "business": 0.8, "risk": 0.8, "general": 1.0},
}


def fleiss(table: list[list[int]]) -> float:
    n = sum(table[0])
    subjects = len(table)
    p_j = [sum(row[j] for row in table) / (subjects * n) for j in range(len(table[0]))]
    p_i = [(sum(c * c for c in row) - n) / (n * (n - 1)) for row in table]
    p_bar = sum(p_i) / subjects
    p_e = sum(p * p for p in p_j)
    return (p_bar - p_e) / (1 - p_e)


def close(a: float | None, b: float, tol: float = 1e-3) -> bool:
    return a is not None and abs(a - b) <= tol


def check_panel(doc: dict[str, Any]) -> None:
    """Assert that every number of the panel section follows from its raw scores."""
    panel = doc["panel"]
    unit_list = units(doc)
    ids = [u["id"] for u in unit_list]
    side_of = {u["id"]: u["side"] for u in unit_list}
    sides = position_keys(doc)
    standings_enum = FORMAT_STANDINGS[doc["format"]]
    judges = panel["judges"]
    assert len(judges) >= 1
    calibrated: dict[str, dict[str, float]] = {}
    standing: dict[str, dict[str, str]] = {}
    for judge in judges:
        assert len(judge["runs"]) == panel["judge_runs"]
        weights = judge["weights"]
        assert abs(sum(weights.values()) - 1) < 1e-9
        assert set(weights) == set(DIMENSIONS)
        for run in judge["runs"]:
            assert run["weights"] == weights
            check_judgement(doc, run)
        weighted = {}
        for score in judge["scores"]:
            i = score["argument_id"]
            raw = [
                next(s["scores"] for s in run["scores"] if s["argument_id"] == i)
                for run in judge["runs"]
            ]
            assert set(score["scores"]) == set(DIMENSIONS)
            for d in DIMENSIONS:
                assert all(isinstance(r[d], int) and 1 <= r[d] <= 10 for r in raw)
                assert close(score["scores"][d], statistics.fmean(r[d] for r in raw), 1e-3)
            expected = sum(weights[d] * statistics.fmean(r[d] for r in raw) for d in DIMENSIONS)
            assert close(score["weighted"], expected)
            weighted[i] = score["weighted"]
        assert sorted(weighted) == sorted(ids)
        # calibration: z-scores over the judge's own weighted scores
        values = list(weighted.values())
        mean = statistics.fmean(values)
        std = statistics.pstdev(values)
        cal = {s["argument_id"]: s["calibrated"] for s in judge["scores"]}
        for i, v in weighted.items():
            expected = 0.0 if std == 0 else (v - mean) / std
            if panel["calibration_method"] == "zscore":
                assert close(cal[i], expected)
        calibrated[judge["name"]] = cal
        standing[judge["name"]] = {s["argument_id"]: s["standing"] for s in judge["scores"]}
        assert all(s in standings_enum for s in standing[judge["name"]].values())
        assert list(judge["totals"]) == sides
        for side in sides:
            own = [weighted[i] for i in ids if side_of[i] == side]
            assert close(judge["totals"][side], statistics.fmean(own))
        calibration = judge["calibration"]
        if panel["calibration_method"] == "zscore":
            assert close(calibration["center"], mean, 1e-5)
            assert close(calibration["scale"], std, 1e-5)
        # weight = 0.7 relevance + 0.3 accuracy; relevance from the topic type
        if judge["name"] in RELEVANCE:
            assert close(judge["relevance"], RELEVANCE[judge["name"]][panel["topic_type"]], 1e-9)
        assert close(judge["weight"], 0.7 * judge["relevance"] + 0.3 * judge["accuracy"], 1e-6)

    # the common scale: mean centre, mean scale of the judges with any spread
    centers = [j["calibration"]["center"] for j in judges]
    scales = [j["calibration"]["scale"] for j in judges if j["calibration"]["scale"] > 0]
    center = statistics.fmean(centers)
    scale = statistics.fmean(scales) if scales else 0.0
    assert close(panel["common_scale"]["center"], center, 1e-5)
    assert close(panel["common_scale"]["scale"], scale, 1e-5)
    adjusted: dict[str, dict[str, float]] = {}
    for judge in judges:
        adjusted[judge["name"]] = {}
        for score in judge["scores"]:
            value = center + scale * score["calibrated"]
            assert close(score["adjusted"], value, 2e-3)
            adjusted[judge["name"]][score["argument_id"]] = score["adjusted"]
        assert list(judge["adjusted_totals"]) == sides
        for side in sides:
            own = [adjusted[judge["name"]][i] for i in ids if side_of[i] == side]
            assert close(judge["adjusted_totals"][side], statistics.fmean(own))

    total_weight = sum(j["weight"] for j in judges)
    assert list(panel["totals"]) == sides
    assert list(panel["intervals"]) == sides
    for side in sides:
        if total_weight > 0:
            expected = sum(j["weight"] * j["adjusted_totals"][side] for j in judges) / total_weight
        else:  # every judge weighs 0: equal weights
            expected = statistics.fmean(j["adjusted_totals"][side] for j in judges)
        assert close(panel["totals"][side], expected)
        interval = panel["intervals"][side]
        assert interval["low"] <= interval["high"]
    # the gap: the panel's leader against its runner-up
    check_gap(panel["gap"], panel["totals"])

    agreement = panel["agreement"]
    names = [j["name"] for j in judges]
    if len(names) >= 2:
        interval_data = np.array([[calibrated[n][i] for i in ids] for n in names], dtype=float)
        if np.ptp(interval_data) > 0:
            alpha_i = krippendorff.alpha(
                reliability_data=interval_data, level_of_measurement="interval"
            )
            assert close(agreement["alpha_interval"]["value"], float(alpha_i))
        codes = {s: n for n, s in enumerate(standings_enum)}
        nominal = np.array([[codes[standing[n][i]] for i in ids] for n in names], dtype=float)
        if len({standing[n][i] for n in names for i in ids}) > 1:
            alpha_n = krippendorff.alpha(reliability_data=nominal, level_of_measurement="nominal")
            assert close(agreement["alpha_nominal"]["value"], float(alpha_n))
            table = [[sum(standing[n][i] == s for n in names) for s in standings_enum] for i in ids]
            kappa = fleiss(table)
            if not math.isnan(kappa):
                assert close(agreement["kappa"]["value"], kappa)
    assert agreement["indicative_only"] == (len(ids) < 10 or len(names) < 3)

    assert [row["argument_id"] for row in panel["consensus"]] == ids
    for row in panel["consensus"]:
        assert row["scores"] == {n: adjusted[n][row["argument_id"]] for n in names}
        assert row["standings"] == {n: standing[n][row["argument_id"]] for n in names}
        ranked = Counter(row["standings"].values()).most_common()
        tie = len(ranked) > 1 and ranked[0][1] == ranked[1][1]
        assert row["majority_standing"] == (None if tie else ranked[0][0])
        scores = [row["scores"][n] for n in names]
        spread = statistics.stdev(scores) if len(scores) > 1 else 0.0
        assert close(row["std"], spread)
        assert row["disputed"] == (spread >= 2.5)
    divergence = panel["divergence"]
    if divergence["diverged"] or panel["gap"]["reading"] == "evenly_matched":
        assert panel["winner"] is None
    else:
        assert panel["winner"] == panel["gap"]["leader"]
