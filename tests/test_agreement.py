"""Agreement statistics: Krippendorff's alpha and Fleiss' kappa against published values,
an independent implementation, invariances, missing values and degenerate cases."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from moot.errors import ConfigError
from moot.judging.agreement import (
    LEVELS,
    Level,
    Rating,
    agreement_label,
    alpha_data,
    fleiss_kappa,
    fleiss_table,
    krippendorff_alpha,
    krippendorff_alpha_details,
)

NAN = float("nan")
N = None

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers
# A-D, 12 units, missing values. Unit 12 holds a single value (B's 3) and is not pairable.
RELIABILITY_DATA: list[list[Rating]] = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],  # A
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],  # B
    [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],  # C
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],  # D
]
PUBLISHED_ALPHA: dict[Level, float] = {
    "nominal": 0.743,
    "ordinal": 0.815,
    "interval": 0.849,
    "ratio": 0.797,
}

# Fleiss (1971) / Wikipedia: 10 subjects, 14 raters, 5 categories; kappa 0.210.
FLEISS_TABLE = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def _rng(seed: int | str) -> random.Random:
    """A seeded generator: test data must be reproducible, not secret."""
    return random.Random(seed)  # noqa: S311


def _columns(data: Sequence[Sequence[Rating]]) -> list[list[Rating]]:
    return [list(column) for column in zip(*data, strict=True)]


def _rows(columns: Sequence[Sequence[Rating]]) -> list[list[Rating]]:
    return [list(row) for row in zip(*columns, strict=True)]


# ---- Krippendorff's alpha: published values ----------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_reproduces_krippendorffs_published_values(level: Level) -> None:
    assert round(krippendorff_alpha(RELIABILITY_DATA, level), 3) == PUBLISHED_ALPHA[level]


def test_alpha_nominal_matches_the_papers_coincidence_arithmetic() -> None:
    # n = 40 pairable values in 11 units; n_c = 9, 13, 10, 5, 3 for values 1..5;
    # 8 off-diagonal coincidences: alpha = 1 - 39 * 8 / (40^2 - sum n_c^2).
    result = krippendorff_alpha_details(RELIABILITY_DATA, "nominal")
    assert result.computable
    assert result.reason is None
    assert result.pairable_values == 40
    assert result.pairable_units == 11
    assert result.observed_disagreement == pytest.approx(8 / 40)
    assert result.expected_disagreement == pytest.approx((1600 - 384) / (40 * 39))
    assert result.alpha == pytest.approx(1 - 39 * 8 / 1216)


def test_a_unit_with_one_value_does_not_count() -> None:
    # The pairable-values rule: dropping unit 12 (one value) or giving it any other
    # single value changes nothing, at every level.
    without_unit_12 = [row[:11] for row in RELIABILITY_DATA]
    other_single = [[*row[:11], 99 if row[11] is not None else None] for row in RELIABILITY_DATA]
    for level in LEVELS:
        expected = krippendorff_alpha(RELIABILITY_DATA, level)
        assert krippendorff_alpha(without_unit_12, level) == pytest.approx(expected, abs=1e-15)
        assert krippendorff_alpha(other_single, level) == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_is_invariant_to_the_order_of_units_and_raters(level: Level) -> None:
    expected = krippendorff_alpha(RELIABILITY_DATA, level)
    rng = _rng(4)
    for _ in range(20):
        columns = _columns(RELIABILITY_DATA)
        rng.shuffle(columns)
        rows = _rows(columns)
        rng.shuffle(rows)
        assert krippendorff_alpha(rows, level) == pytest.approx(expected, rel=1e-12)


def test_none_and_nan_both_mean_missing() -> None:
    with_nan = [[NAN if v is None else v for v in row] for row in RELIABILITY_DATA]
    for level in LEVELS:
        assert krippendorff_alpha(with_nan, level) == pytest.approx(
            krippendorff_alpha(RELIABILITY_DATA, level), abs=1e-15
        )


def test_unequal_numbers_of_raters_per_unit_by_hand() -> None:
    # Unit 1: 1, 1, 2 (three raters); unit 2: 2, 2 (two); unit 3: 1 alone (unpairable).
    # n = 5, n_1 = 2, n_2 = 3. Coincidences o_12 = o_21 = 2*1/(3-1) = 1.
    # Nominal: alpha = 1 - (n-1) * (o_12 + o_21) / (n^2 - sum n_c^2) = 1 - 4*2/12 = 1/3.
    data: list[list[Rating]] = [[1, 2, 1], [1, 2, None], [2, None, None]]
    result = krippendorff_alpha_details(data, "nominal")
    assert result.pairable_values == 5
    assert result.pairable_units == 2
    assert result.alpha == pytest.approx(1 / 3)
    # Interval: delta_12 = 1, so the same numbers.
    assert krippendorff_alpha(data, "interval") == pytest.approx(1 / 3)
    # Ordinal: delta_12 = (n_1 + n_2 - (n_1 + n_2)/2)^2 = 2.5^2; the metric cancels too.
    assert krippendorff_alpha(data, "ordinal") == pytest.approx(1 / 3)


def test_ordinal_uses_the_cumulative_marginals_not_the_values() -> None:
    # Ordinal alpha depends only on rank order: a monotone relabelling leaves it alone,
    # while the interval value changes.
    relabelled = [[None if v is None else float(v) ** 3 for v in row] for row in RELIABILITY_DATA]
    assert krippendorff_alpha(relabelled, "ordinal") == pytest.approx(
        krippendorff_alpha(RELIABILITY_DATA, "ordinal"), rel=1e-12
    )
    assert krippendorff_alpha(relabelled, "interval") != pytest.approx(
        krippendorff_alpha(RELIABILITY_DATA, "interval"), rel=1e-3
    )


def test_nominal_accepts_string_labels() -> None:
    # The `krippendorff` package's own string-label example: 0.722222.
    data: list[list[Rating]] = [
        ["pos", "neg", "neu", None],
        ["pos", "neg", "neu", "pos"],
        ["pos", "neg", "pos", "pos"],
    ]
    assert round(krippendorff_alpha(data, "nominal"), 6) == 0.722222


def test_perfect_agreement_is_one_and_ratio_handles_zero() -> None:
    data: list[list[Rating]] = [[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, None]]
    for level in LEVELS:
        assert krippendorff_alpha(data, level) == 1.0


def test_systematic_disagreement_is_negative() -> None:
    data: list[list[Rating]] = [[1, 2, 1, 2], [2, 1, 2, 1]]
    for level in LEVELS:
        assert krippendorff_alpha(data, level) < 0


# ---- Krippendorff's alpha: degenerate cases ----------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        [],
        [[]],
        [[1, 2, 3]],  # a single rater
        [[1, None, 3], [None, 2, None]],  # no unit rated twice
        [[None, None], [None, NAN]],
    ],
    ids=["no-raters", "no-units", "one-rater", "no-unit-rated-twice", "all-missing"],
)
def test_too_few_pairable_values_is_not_computable(data: list[list[Rating]]) -> None:
    for level in LEVELS:
        result = krippendorff_alpha_details(data, level)
        assert math.isnan(result.alpha)
        assert not result.computable
        assert result.reason == "too_few_pairable_values"
        assert math.isnan(result.observed_disagreement)
        assert math.isnan(result.expected_disagreement)
        assert math.isnan(krippendorff_alpha(data, level))
        assert agreement_label(result.alpha) == "not_computable"


def test_no_variation_is_not_computable() -> None:
    # Every pairable value is 3 (the 5 sits alone in its unit, so it is not pairable):
    # D_o = D_e = 0 and alpha = 0/0.
    data: list[list[Rating]] = [[3, 3, 3, 5], [3, 3, None, None], [3, None, 3, None]]
    for level in LEVELS:
        result = krippendorff_alpha_details(data, level)
        assert math.isnan(result.alpha)
        assert result.reason == "no_variation"
        assert result.observed_disagreement == 0.0
        assert result.expected_disagreement == 0.0
        assert result.pairable_values == 7
        assert result.pairable_units == 3
        assert agreement_label(result.alpha) == "not_computable"


def test_nominal_string_labels_with_no_variation() -> None:
    data: list[list[Rating]] = [["UPHELD", "UPHELD"], ["UPHELD", "UPHELD"]]
    assert krippendorff_alpha_details(data, "nominal").reason == "no_variation"


# ---- Krippendorff's alpha: invalid input -------------------------------------------------


@pytest.mark.parametrize("level", ["ordinal", "interval", "ratio"])
def test_labels_only_at_the_nominal_level(level: Level) -> None:
    with pytest.raises(ConfigError, match="only the nominal level"):
        krippendorff_alpha([["a", "b"], ["a", "c"]], level)


def test_invalid_input_raises_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown level"):
        krippendorff_alpha([[1, 2], [1, 2]], "cardinal")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="rectangular"):
        krippendorff_alpha([[1, 2, 3], [1, 2]], "interval")
    with pytest.raises(ConfigError, match="negative"):
        krippendorff_alpha([[1, -2], [1, 2]], "ratio")
    with pytest.raises(ConfigError, match="infinite"):
        krippendorff_alpha([[1, math.inf], [1, 2]], "interval")
    with pytest.raises(ConfigError, match="boolean"):
        krippendorff_alpha([[True, False], [True, True]], "nominal")
    with pytest.raises(ConfigError, match="string"):
        krippendorff_alpha(["12", "12"], "nominal")
    with pytest.raises(ConfigError, match="unsupported"):
        krippendorff_alpha([[b"x", 1], [1, 1]], "nominal")  # type: ignore[list-item]
    # Negative values are fine below the ratio level.
    assert krippendorff_alpha([[-1, -2, 0], [-1, -2, 0]], "interval") == 1.0


# ---- Krippendorff's alpha: against the `krippendorff` package ----------------------------


def _random_data(rng: random.Random, level: Level) -> list[list[Rating]]:
    raters = rng.randint(2, 6)
    units = rng.randint(2, 20)
    missing = rng.choice([0.0, 0.2, 0.4])

    def value() -> Rating:
        if rng.random() < missing:
            return None
        if level == "interval":
            return round(rng.uniform(-3, 3), 1)
        if level == "ratio":
            return rng.randint(0, 8)
        return rng.randint(1, 5)

    return [[value() for _ in range(units)] for _ in range(raters)]


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_agrees_with_the_krippendorff_package(level: Level) -> None:
    krippendorff = pytest.importorskip("krippendorff")
    rng = _rng(f"alpha-{level}")
    compared = 0
    while compared < 60:
        data = _random_data(rng, level)
        result = krippendorff_alpha_details(data, level)
        if not result.computable:
            continue
        as_nan = [[NAN if v is None else v for v in row] for row in data]
        reference = float(krippendorff.alpha(reliability_data=as_nan, level_of_measurement=level))
        assert result.alpha == pytest.approx(reference, rel=1e-9, abs=1e-12), data
        compared += 1


# ---- Fleiss' kappa ------------------------------------------------------------------------


def test_fleiss_reproduces_the_published_example() -> None:
    assert round(fleiss_kappa(FLEISS_TABLE), 3) == 0.210
    # P-bar = 172/455 (0.378) and P-bar_e = 417/1960 (0.213) as published; exactly:
    p_bar, p_e = 172 / 455, 417 / 1960
    assert fleiss_kappa(FLEISS_TABLE) == pytest.approx((p_bar - p_e) / (1 - p_e), rel=1e-12)
    assert fleiss_kappa(FLEISS_TABLE) == pytest.approx(4211 / 20059, rel=1e-15)


def test_fleiss_hand_computed_second_example() -> None:
    # 3 subjects, 3 raters, 2 categories: p = (5/9, 4/9), P_e = 41/81;
    # P_i = 1, 1, 1/3, so P-bar = 7/9 = 63/81; kappa = (22/81) / (40/81) = 0.55.
    assert fleiss_kappa([[3, 0], [0, 3], [2, 1]]) == pytest.approx(0.55, abs=1e-15)
    # Perfect agreement over two categories is 1; a float count that is integral is accepted.
    assert fleiss_kappa([[2.0, 0], [0, 2]]) == 1.0  # type: ignore[list-item]


def test_fleiss_is_invariant_to_row_and_column_order() -> None:
    expected = fleiss_kappa(FLEISS_TABLE)
    rng = _rng(7)
    for _ in range(10):
        rows = [list(row) for row in FLEISS_TABLE]
        rng.shuffle(rows)
        order = list(range(5))
        rng.shuffle(order)
        shuffled = [[row[j] for j in order] for row in rows]
        assert fleiss_kappa(shuffled) == pytest.approx(expected, rel=1e-12)


def test_fleiss_and_nominal_alpha_are_related_on_complete_data() -> None:
    # With every unit rated by all n raters (N units): alpha = 1 - (1 - kappa)(nN - 1)/(nN).
    rng = _rng(11)
    categories = ["a", "b", "c"]
    for _ in range(30):
        raters = rng.randint(2, 7)
        units = rng.randint(2, 15)
        data: list[list[Rating]] = [
            [rng.choice(categories) for _ in range(units)] for _ in range(raters)
        ]
        table = [[column.count(c) for c in categories] for column in _columns(data)]
        kappa = fleiss_kappa(table)
        alpha = krippendorff_alpha(data, "nominal")
        if math.isnan(kappa):
            assert math.isnan(alpha)
            continue
        total = raters * units
        assert alpha == pytest.approx(1 - (1 - kappa) * (total - 1) / total, rel=1e-9)


def test_fleiss_degenerate_cases_are_not_computable() -> None:
    assert math.isnan(fleiss_kappa([]))
    assert math.isnan(fleiss_kappa([[3, 0], [3, 0]]))  # every rating in one category
    assert agreement_label(fleiss_kappa([[3, 0], [3, 0]])) == "not_computable"


def test_fleiss_invalid_tables_raise_config_error() -> None:
    with pytest.raises(ConfigError, match="same number of raters"):
        fleiss_kappa([[2, 1], [1, 1]])
    with pytest.raises(ConfigError, match="at least 2 raters"):
        fleiss_kappa([[1, 0], [0, 1]])
    with pytest.raises(ConfigError, match="at least 2 raters"):
        fleiss_kappa([[], []])
    with pytest.raises(ConfigError, match="non-negative integer"):
        fleiss_kappa([[3, -1], [1, 1]])
    with pytest.raises(ConfigError, match="non-negative integer"):
        fleiss_kappa([[1.5, 0.5], [1, 1]])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="not a number"):
        fleiss_kappa([[True, 1], [1, 1]])
    with pytest.raises(ConfigError, match="same number of categories"):
        fleiss_kappa([[1, 1], [1, 1, 0]])


# ---- building the inputs by id ------------------------------------------------------------

STANDINGS = ["UPHELD", "PARTIALLY_UPHELD", "REFUTED", "UNCERTAIN"]


def test_fleiss_table_matches_units_by_id_not_by_position() -> None:
    # Three judges agree on every argument but list the arguments in different orders.
    # Matching by position (the reference code's defect) would see disagreement.
    truth = {"PRO-1": "UPHELD", "PRO-2": "REFUTED", "CON-1": "UNCERTAIN", "CON-2": "UPHELD"}
    orders = [["PRO-1", "PRO-2", "CON-1", "CON-2"], ["CON-2", "PRO-1", "CON-1", "PRO-2"]]
    orders.append(list(reversed(orders[0])))
    ratings = {
        f"judge-{j}": {unit: truth[unit] for unit in order} for j, order in enumerate(orders)
    }
    ids, table = fleiss_table(ratings, STANDINGS)
    assert ids == ["CON-1", "CON-2", "PRO-1", "PRO-2"]
    assert table == [[0, 0, 0, 3], [3, 0, 0, 0], [3, 0, 0, 0], [0, 0, 3, 0]]
    assert fleiss_kappa(table) == 1.0
    positional = [
        [[truth[order[i]] for order in orders].count(c) for c in STANDINGS] for i in range(4)
    ]
    assert fleiss_kappa(positional) < 1.0


def test_fleiss_table_keeps_only_units_every_rater_rated() -> None:
    ratings = {
        "a": {"U1": "UPHELD", "U2": "REFUTED", "U3": "UPHELD"},
        "b": {"U2": "REFUTED", "U1": "UNCERTAIN"},
        "c": {"U1": "UPHELD", "U2": "PARTIALLY_UPHELD", "U4": "REFUTED"},
    }
    ids, table = fleiss_table(ratings, STANDINGS)
    assert ids == ["U1", "U2"]
    assert table == [[2, 0, 0, 1], [0, 1, 2, 0]]
    assert fleiss_table({}, STANDINGS) == ([], [])
    # No unit in common: an empty table, which kappa reports as not computable.
    ids, table = fleiss_table({"a": {"U1": "UPHELD"}, "b": {"U2": "UPHELD"}}, STANDINGS)
    assert (ids, table) == ([], [])
    assert math.isnan(fleiss_kappa(table))


def test_fleiss_table_rejects_unknown_or_duplicate_categories() -> None:
    with pytest.raises(ConfigError, match="not one of"):
        fleiss_table({"a": {"U1": "upheld"}, "b": {"U1": "UPHELD"}}, STANDINGS)
    with pytest.raises(ConfigError, match="duplicate"):
        fleiss_table({"a": {"U1": "UPHELD"}}, ["UPHELD", "UPHELD"])
    with pytest.raises(ConfigError, match="at least one category"):
        fleiss_table({"a": {"U1": "UPHELD"}}, [])


def test_alpha_data_matches_units_by_id() -> None:
    # The published example, each observer listing its units in its own order.
    names = ["A", "B", "C", "D"]
    unit_ids = [f"u{i:02d}" for i in range(1, 13)]
    rng = _rng(3)
    ratings: dict[str, dict[str, Rating]] = {}
    for name, row in zip(names, RELIABILITY_DATA, strict=True):
        present = [(unit, v) for unit, v in zip(unit_ids, row, strict=True) if v is not None]
        rng.shuffle(present)
        ratings[name] = dict(present)
    raters, units, data = alpha_data(ratings)
    assert raters == names
    assert units == unit_ids
    assert data == RELIABILITY_DATA
    for level in LEVELS:
        assert round(krippendorff_alpha(data, level), 3) == PUBLISHED_ALPHA[level]


# ---- labels ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (1.0, "high"),
        (0.80, "high"),
        (0.8 - 1e-12, "high"),  # rounding of an exact 0.80
        (0.7999, "moderate"),
        (0.67, "moderate"),
        (0.6699, "needs_attention"),
        (0.0, "needs_attention"),
        (-0.4, "needs_attention"),
        (NAN, "not_computable"),
    ],
)
def test_agreement_label_follows_spec(value: float, label: str) -> None:
    assert agreement_label(value) == label
