"""moot.stats against statsmodels and scipy (the reference implementations), on many
generated cases and on the edge cases, plus hand-worked values."""

from __future__ import annotations

import doctest
import random
import warnings

import numpy as np
import pytest
from scipy.stats import binomtest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

import moot.stats
from moot.stats import (
    brier_score,
    expected_calibration_error,
    mcnemar_exact,
    reliability_table,
    wilson_interval,
)


def _rng(seed: int) -> random.Random:
    """A seeded generator: test data must be reproducible, not secret."""
    return random.Random(seed)  # noqa: S311


def reference_mcnemar(b: int, c: int) -> float:
    return float(mcnemar([[0, b], [c, 0]], exact=True).pvalue)


def mcnemar_cases() -> list[tuple[int, int]]:
    rng = _rng(20260515)
    cases = [(b, c) for b in range(13) for c in range(13)]
    cases += [(rng.randint(0, 300), rng.randint(0, 300)) for _ in range(300)]
    cases += [(0, 1000), (1000, 0), (500, 500), (1, 1), (0, 50), (2000, 1900), (10_000, 9_800)]
    return cases


def test_mcnemar_matches_statsmodels_on_many_cases() -> None:
    cases = mcnemar_cases()
    worst = 0.0
    for b, c in cases:
        ours = mcnemar_exact(b, c)
        ref = reference_mcnemar(b, c)
        assert ours == pytest.approx(ref, rel=1e-9, abs=1e-300), (b, c, ours, ref)
        if ref > 1e-300:
            worst = max(worst, abs(ours - ref) / ref)
    assert len(cases) > 450
    assert worst < 1e-9


def test_mcnemar_matches_scipy_binomtest() -> None:
    for b, c in [(3, 11), (25, 12), (0, 7), (40, 41), (100, 70)]:
        ref = binomtest(min(b, c), b + c, 0.5, alternative="two-sided").pvalue
        assert mcnemar_exact(b, c) == pytest.approx(ref, rel=1e-9)


def test_mcnemar_hand_values_and_edges() -> None:
    # b=3, c=5: n=8, 2 * (C(8,0)+C(8,1)+C(8,2)+C(8,3)) / 2^8 = 2 * (1+8+28+56) / 256 = 186/256
    assert mcnemar_exact(3, 5) == 186 / 256
    assert mcnemar_exact(5, 3) == 186 / 256
    # b=0, c=6: 2 * 1 / 64
    assert mcnemar_exact(0, 6) == 2 / 64
    assert mcnemar_exact(0, 0) == 1.0  # no discordant pair: no evidence
    assert mcnemar_exact(4, 4) == 1.0  # capped at 1.0 (the raw sum exceeds it)
    assert mcnemar_exact(0, 1) == 1.0
    # the exact tail stays positive and tiny far beyond float range of 2^n
    assert 0 < mcnemar_exact(0, 1060) < 1e-300


@pytest.mark.parametrize(
    ("b", "c", "message"),
    [
        (-1, 3, "b must be a non-negative integer"),
        (2, -4, "c must be a non-negative integer"),
        (1.5, 3, "b must be a non-negative integer"),
        ("3", 3, "b must be a non-negative integer"),
        (True, 3, "got a bool"),
    ],
)
def test_mcnemar_rejects_bad_counts(b: object, c: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        mcnemar_exact(b, c)  # type: ignore[arg-type]


def test_mcnemar_accepts_integral_floats_and_numpy_ints() -> None:
    assert mcnemar_exact(3.0, np.int64(5)) == 186 / 256  # type: ignore[arg-type]


def wilson_cases() -> list[tuple[int, int, float]]:
    rng = _rng(7)
    cases = [(k, n, conf) for n in range(1, 16) for k in range(n + 1) for conf in (0.95,)]
    levels = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999)
    for _ in range(400):
        n = rng.randint(1, 5000)
        cases.append((rng.randint(0, n), n, rng.choice(levels)))
    cases += [(0, n, c) for n in (1, 2, 10, 1000) for c in levels]
    cases += [(n, n, c) for n in (1, 2, 10, 1000) for c in levels]
    cases += [(1, 10**6, 0.95), (10**6 - 1, 10**6, 0.99), (1, 2, 0.01), (1, 2, 0.999999)]
    return cases


def test_wilson_matches_statsmodels_on_many_cases() -> None:
    cases = wilson_cases()
    worst = 0.0
    for k, n, conf in cases:
        low, high = wilson_interval(k, n, conf)
        ref_low, ref_high = proportion_confint(k, n, alpha=1 - conf, method="wilson")
        worst = max(worst, abs(low - ref_low), abs(high - ref_high))
        assert low == pytest.approx(ref_low, abs=1e-12), (k, n, conf)
        assert high == pytest.approx(ref_high, abs=1e-12), (k, n, conf)
        assert 0.0 <= low <= k / n <= high <= 1.0
    assert len(cases) == 595
    assert worst < 1e-12


def test_wilson_hand_value_and_edges() -> None:
    # 8/10 at 95%: z = 1.95996398, z^2 = 3.84145882
    # centre = (0.8 + z^2/20) / (1 + z^2/10) = 0.99207294 / 1.38414588 = 0.71674016
    # half = z / 1.38414588 * sqrt(0.8 * 0.2 / 10 + z^2 / 400)
    #      = 1.41600246 * sqrt(0.02560365) = 0.22657769
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.71674016 - 0.22657769, abs=1e-7)
    assert high == pytest.approx(0.71674016 + 0.22657769, abs=1e-7)
    assert wilson_interval(0, 0) == (0.0, 1.0)  # nothing observed: every proportion possible
    assert wilson_interval(0, 5)[0] == 0.0
    assert wilson_interval(5, 5)[1] == 1.0
    # a higher confidence gives a wider interval
    narrow, wide = wilson_interval(30, 60, 0.8), wilson_interval(30, 60, 0.99)
    assert wide[0] < narrow[0] < 0.5 < narrow[1] < wide[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((6, 5), r"successes \(6\) cannot exceed n \(5\)"),
        ((-1, 5), "successes must be a non-negative integer"),
        ((1, -5), "n must be a non-negative integer"),
        ((1, 5, 1.0), r"confidence must be in \(0, 1\)"),
        ((1, 5, 0.0), r"confidence must be in \(0, 1\)"),
        ((1, 5, float("nan")), r"confidence must be in \(0, 1\)"),
        ((1, 5, 95), r"confidence must be in \(0, 1\)"),
        ((1, 5, "0.95"), "confidence must be a number"),
    ],
)
def test_wilson_rejects_bad_input(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        wilson_interval(*args)  # type: ignore[arg-type]


def test_brier_matches_numpy_on_many_cases() -> None:
    rng = _rng(11)
    for _ in range(200):
        n = rng.randint(1, 200)
        probs = [rng.random() for _ in range(n)]
        probs[0] = rng.choice([0.0, 1.0, probs[0]])
        outcomes = [rng.random() < 0.5 for _ in range(n)]
        ref = float(np.mean((np.array(probs) - np.array(outcomes, dtype=float)) ** 2))
        assert brier_score(probs, outcomes) == pytest.approx(ref, rel=1e-12, abs=1e-15)


def test_brier_hand_values() -> None:
    # (0.8-1)^2 = 0.04, (0.3-0)^2 = 0.09 -> mean 0.065
    assert brier_score([0.8, 0.3], [True, False]) == pytest.approx(0.065, abs=1e-15)
    assert brier_score([0.5] * 4, [1, 0, 1, 1]) == 0.25
    assert brier_score([1.0, 0.0], [1, 0]) == 0.0
    assert brier_score([0.0, 1.0], [1, 0]) == 1.0


@pytest.mark.parametrize(
    ("probs", "outcomes", "message"),
    [
        ([], [], "empty"),
        ([0.5], [1, 0], r"differ in length \(1 and 2\)"),
        ([1.2], [1], r"probs\[0\] must be a probability in \[0, 1\]"),
        ([0.5, float("nan")], [1, 0], r"probs\[1\] must be a probability"),
        ([0.5, "x"], [1, 0], r"probs\[1\] must be a number"),
        ([0.5], [2], r"outcomes\[0\] must be 0/1 or a bool"),
        ([0.5], [0.5], r"outcomes\[0\] must be 0/1 or a bool"),
        ("ab", "ab", "sequences of numbers"),
    ],
)
def test_brier_rejects_bad_input(probs: object, outcomes: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        brier_score(probs, outcomes)  # type: ignore[arg-type]


def test_reliability_table_by_hand() -> None:
    probs = [0.05, 0.12, 0.18, 0.55, 0.59, 0.95, 1.0, 0.5]
    outcomes = [0, 0, 1, 1, 0, 1, 1, 1]
    table = reliability_table(probs, outcomes, bins=5)
    assert [(r.lower, r.upper) for r in table] == [
        (0.0, 0.2),
        (0.2, 0.4),
        (0.4, 0.6),
        (0.6, 0.8),
        (0.8, 1.0),
    ]
    assert [r.count for r in table] == [3, 0, 3, 0, 2]
    # bin [0, 0.2): 0.05, 0.12, 0.18 -> mean 0.35/3; outcomes 0, 0, 1 -> 1/3
    assert table[0].mean_predicted == pytest.approx(0.35 / 3)
    assert table[0].observed_frequency == pytest.approx(1 / 3)
    # bin [0.4, 0.6): 0.55, 0.59, 0.5 -> mean 1.64/3; outcomes 1, 0, 1 -> 2/3
    assert table[2].mean_predicted == pytest.approx(1.64 / 3)
    assert table[2].observed_frequency == pytest.approx(2 / 3)
    # bin [0.8, 1.0] holds 1.0 itself: 0.95, 1.0 -> 0.975; both happened
    assert table[4].mean_predicted == pytest.approx(0.975)
    assert table[4].observed_frequency == 1.0
    assert table[1].mean_predicted is None
    assert table[1].observed_frequency is None
    # ECE = (3*|0.11667-0.33333| + 3*|0.54667-0.66667| + 2*|0.975-1|) / 8
    expected = (3 * abs(0.35 / 3 - 1 / 3) + 3 * abs(1.64 / 3 - 2 / 3) + 2 * 0.025) / 8
    assert expected_calibration_error(probs, outcomes, bins=5) == pytest.approx(expected)


def test_reliability_table_matches_numpy_binning() -> None:
    rng = _rng(3)
    probs = [round(rng.random(), 3) for _ in range(500)]
    outcomes = [int(rng.random() < p) for p in probs]
    table = reliability_table(probs, outcomes, bins=10)
    p = np.array(probs)
    o = np.array(outcomes)
    idx = np.minimum(np.floor(p * 10).astype(int), 9)
    assert sum(r.count for r in table) == 500
    for i, row in enumerate(table):
        mask = idx == i
        assert row.count == int(mask.sum())
        if row.count:
            assert row.mean_predicted == pytest.approx(float(p[mask].mean()))
            assert row.observed_frequency == pytest.approx(float(o[mask].mean()))


def test_reliability_rejects_bad_bins() -> None:
    for bins in (0, -2, 2.5, True):
        with pytest.raises(ValueError, match="bins must be a positive integer"):
            reliability_table([0.5], [1], bins=bins)  # type: ignore[arg-type]


def test_module_examples_hold() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = doctest.testmod(moot.stats)
    assert result.attempted == 3
    assert result.failed == 0
