"""Chance-corrected agreement of a judge panel: Krippendorff's alpha and Fleiss' kappa.

Both coefficients are implemented exactly from their published definitions, in pure
Python (the data of a judge panel is small):

- ``krippendorff_alpha(data, level)`` follows Krippendorff (2011), "Computing
  Krippendorff's Alpha-Reliability": the coincidence matrix of *pairable* values
  (only units holding at least two values take part, no value is paired with itself,
  each unit's pairs are weighted by ``1 / (m_u - 1)``), expected disagreement from
  the marginals ``n_c`` of those pairable values with ``n (n - 1)`` normalisation, and
  the four difference functions of the paper (nominal, ordinal, interval, ratio).
- ``fleiss_kappa(table)`` follows Fleiss (1971), computed in exact rational
  arithmetic from the subjects x categories counts.

Rows are matched to units by id, never by position: ``alpha_data`` and
``fleiss_table`` build the inputs from ``{rater: {unit_id: value}}`` mappings.

**Not computable.** Alpha and kappa are ratios that are 0/0 on some data. Instead of
dividing by zero they return ``float("nan")``, which means "not computable" (never
"no agreement"); ``agreement_label`` maps it to ``"not_computable"`` and
``krippendorff_alpha_details`` says why:

- ``"too_few_pairable_values"``: fewer than 2 pairable values overall, i.e. no unit
  was rated by at least two raters (this includes empty data and a single rater);
- ``"no_variation"``: every pairable value is the same (expected disagreement 0).
  The raters agree, but the data cannot show that the agreement exceeds chance.

Fleiss' kappa returns NaN on an empty table (no subjects) and when every rating falls
into one category (chance agreement 1).

Invalid input raises ``moot.errors.ConfigError``: an unknown level, ragged rows,
non-numeric values at a numeric level, booleans, infinities, negative values at the
ratio level, unequal raters per subject or fewer than 2 raters for Fleiss' kappa.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeVar, get_args

from moot.errors import ConfigError

__all__ = [
    "HIGH_AGREEMENT",
    "LEVELS",
    "MODERATE_AGREEMENT",
    "AgreementLabel",
    "AlphaResult",
    "Level",
    "NotComputableReason",
    "Rating",
    "agreement_label",
    "alpha_data",
    "fleiss_kappa",
    "fleiss_table",
    "krippendorff_alpha",
    "krippendorff_alpha_details",
]

Level = Literal["nominal", "ordinal", "interval", "ratio"]
LEVELS: tuple[Level, ...] = get_args(Level)

Rating = float | int | str | None
"""One rater's value for one unit; ``None`` or a float NaN means missing."""

AgreementLabel = Literal["high", "moderate", "needs_attention", "not_computable"]
NotComputableReason = Literal["too_few_pairable_values", "no_variation"]

HIGH_AGREEMENT = 0.80
"""alpha >= 0.80 is high agreement."""
MODERATE_AGREEMENT = 0.67
"""0.67 <= alpha < 0.80 is moderate; below 0.67 needs attention."""

# A computed coefficient that is a threshold in exact arithmetic may land a few ulps
# below it in floating point; such a value still earns the label of the threshold.
_LABEL_TOLERANCE = 1e-9

_Value = float | str  # a present value after normalisation (numbers become floats)
_R = TypeVar("_R")


# ---- Krippendorff's alpha ---------------------------------------------------------------


@dataclass(frozen=True)
class AlphaResult:
    """Krippendorff's alpha with the quantities it is made of.

    ``alpha`` is ``1 - observed_disagreement / expected_disagreement``, or NaN when it is
    not computable; ``reason`` then says why (see the module docstring).
    ``pairable_values`` is ``n`` (the values in units with at least two values) and
    ``pairable_units`` the number of such units. With too few pairable values both
    disagreements are NaN; with no variation both are 0.
    """

    alpha: float
    level: Level
    observed_disagreement: float
    expected_disagreement: float
    pairable_values: int
    pairable_units: int
    reason: NotComputableReason | None = None

    @property
    def computable(self) -> bool:
        """Whether ``alpha`` is a number (``reason`` is None)."""
        return self.reason is None


def krippendorff_alpha(data: Sequence[Sequence[Rating]], level: Level) -> float:
    """Krippendorff's alpha of ``data`` (raters x units) at ``level`` of measurement.

    ``None`` or a float NaN marks a missing value; units may have any number of values.
    Strings are allowed only at the nominal level. Returns NaN when alpha is not
    computable (fewer than 2 pairable values, or all pairable values identical); use
    ``krippendorff_alpha_details`` for the reason. Raises ``ConfigError`` on bad input.
    """
    return krippendorff_alpha_details(data, level).alpha


def krippendorff_alpha_details(data: Sequence[Sequence[Rating]], level: Level) -> AlphaResult:
    """Krippendorff's alpha with its disagreements, counts and not-computable reason.

    See ``krippendorff_alpha`` for the input; this is the same computation.
    """
    if level not in LEVELS:
        raise ConfigError(f"unknown level of measurement {level!r}; expected one of {LEVELS}")
    units = _units(data, level)

    # Only units with at least two values are pairable (Krippendorff 2011, step 3).
    unit_counts = [Counter(values) for values in units if len(values) >= 2]
    marginals: Counter[_Value] = Counter()
    for counts in unit_counts:
        marginals.update(counts)
    n = sum(marginals.values())

    if n < 2:
        nan = float("nan")
        return AlphaResult(nan, level, nan, nan, n, 0, "too_few_pairable_values")
    if len(marginals) < 2:
        return AlphaResult(float("nan"), level, 0.0, 0.0, n, len(unit_counts), "no_variation")

    delta = _difference_function(level, marginals)

    # Observed: D_o = (1/n) sum_c sum_k o_ck delta_ck, with the coincidences
    # o_ck = sum_u n_uc n_uk / (m_u - 1) over ordered pairs of different values
    # (delta_cc = 0, so the diagonal never contributes).
    observed_terms: list[float] = []
    for counts in unit_counts:
        present = list(counts.items())
        if len(present) < 2:
            continue
        m_u = sum(counts.values())
        within = math.fsum(
            count_c * count_k * delta(c, k)
            for i, (c, count_c) in enumerate(present)
            for k, count_k in present[i + 1 :]
        )
        observed_terms.append(2.0 * within / (m_u - 1))
    observed = math.fsum(observed_terms) / n

    # Expected: D_e = 1 / (n (n - 1)) sum_c sum_k n_c n_k delta_ck.
    values = list(marginals.items())
    expected_sum = math.fsum(
        n_c * n_k * delta(c, k) for i, (c, n_c) in enumerate(values) for k, n_k in values[i + 1 :]
    )
    expected = 2.0 * expected_sum / (n * (n - 1))

    return AlphaResult(
        alpha=1.0 - observed / expected,
        level=level,
        observed_disagreement=observed,
        expected_disagreement=expected,
        pairable_values=n,
        pairable_units=len(unit_counts),
    )


def alpha_data(
    ratings: Mapping[str, Mapping[str, _R]],
) -> tuple[list[str], list[str], list[list[_R | None]]]:
    """Build raters x units data for ``krippendorff_alpha`` from ``{rater: {unit_id: value}}``.

    Units are matched by id, never by position. Returns ``(raters, unit_ids, data)``
    with raters and unit ids sorted (the order does not change alpha), every unit any
    rater rated, and ``None`` where a rater did not rate a unit.
    """
    raters = sorted(ratings)
    unit_ids = sorted({unit for by_unit in ratings.values() for unit in by_unit})
    data = [[ratings[rater].get(unit) for unit in unit_ids] for rater in raters]
    return raters, unit_ids, data


def _units(data: Sequence[Sequence[Rating]], level: Level) -> list[list[_Value]]:
    """The present values of each unit (the columns of ``data``), validated and normalised."""
    if isinstance(data, str | bytes):
        raise ConfigError("reliability data must be raters x units, not a string")
    rows: list[list[object]] = []
    for r, given in enumerate(data):
        if isinstance(given, str | bytes):
            raise ConfigError(f"rater {r}: expected a sequence of values per unit, got a string")
        rows.append(list(given))
    width = len(rows[0]) if rows else 0
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ConfigError(
                f"reliability data must be rectangular (raters x units): rater 0 has "
                f"{width} units, rater {r} has {len(row)}; use None for a missing value"
            )
    units: list[list[_Value]] = [[] for _ in range(width)]
    for r, row in enumerate(rows):
        for u, raw in enumerate(row):
            value = _value(raw, level, r, u)
            if value is not None:
                units[u].append(value)
    return units


def _value(raw: object, level: Level, rater: int, unit: int) -> _Value | None:
    where = f"rater {rater}, unit {unit}"
    if raw is None:
        return None
    if isinstance(raw, bool):
        raise ConfigError(f"{where}: boolean value {raw!r}; use a number or a string")
    if isinstance(raw, numbers.Real):
        number = float(raw)
        if math.isnan(number):
            return None
        if math.isinf(number):
            raise ConfigError(f"{where}: infinite value {raw!r}")
        if level == "ratio" and number < 0:
            raise ConfigError(f"{where}: negative value {raw!r} at the ratio level")
        return number
    if isinstance(raw, str):
        if level != "nominal":
            raise ConfigError(
                f"{where}: non-numeric value {raw!r}; only the nominal level accepts labels"
            )
        return raw
    raise ConfigError(f"{where}: unsupported value {raw!r} of type {type(raw).__name__}")


def _difference_function(
    level: Level, marginals: Mapping[_Value, int]
) -> Callable[[_Value, _Value], float]:
    """The squared difference delta(c, k) of ``level`` (Krippendorff 2011), for c != k."""
    if level == "nominal":
        return _nominal_delta
    # Non-nominal values were validated to be floats.
    if level == "interval":
        return _interval_delta
    if level == "ratio":
        return _ratio_delta
    return _ordinal_delta(marginals)


def _nominal_delta(c: _Value, k: _Value) -> float:
    return 0.0 if c == k else 1.0


def _interval_delta(c: _Value, k: _Value) -> float:
    assert isinstance(c, float)  # noqa: S101 (validated by _value)
    assert isinstance(k, float)  # noqa: S101
    return (c - k) ** 2


def _ratio_delta(c: _Value, k: _Value) -> float:
    assert isinstance(c, float)  # noqa: S101 (validated by _value)
    assert isinstance(k, float)  # noqa: S101
    if c == k:  # includes 0 and 0, where the formula would be 0/0
        return 0.0
    # Values are >= 0, so c + k > 0 here.
    return ((c - k) / (c + k)) ** 2


def _ordinal_delta(marginals: Mapping[_Value, int]) -> Callable[[_Value, _Value], float]:
    """delta(c, k) = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2 over the ranked pairable values."""
    ranked = sorted(marginals, key=float)
    rank = {value: i for i, value in enumerate(ranked)}
    cumulative = [0]  # cumulative[i] = n of the i lowest values
    for value in ranked:
        cumulative.append(cumulative[-1] + marginals[value])

    def delta(c: _Value, k: _Value) -> float:
        i, j = sorted((rank[c], rank[k]))
        between = cumulative[j + 1] - cumulative[i]  # n_g for g = c..k, both included
        return (between - (marginals[c] + marginals[k]) / 2) ** 2

    return delta


# ---- Fleiss' kappa ----------------------------------------------------------------------


def fleiss_kappa(table: Sequence[Sequence[int]]) -> float:
    """Fleiss' kappa of a subjects x categories table of counts (Fleiss 1971).

    Every subject must be rated by the same number of raters, at least 2
    (``ConfigError`` otherwise, and for negative or non-integer counts or ragged rows).
    Returns NaN (not computable) for an empty table and when every rating falls in one
    category, where chance agreement is 1 and kappa is 0/0.
    """
    rows = _count_rows(table)
    if not rows:
        return float("nan")
    raters = sum(rows[0])
    for i, row in enumerate(rows):
        if sum(row) != raters:
            raise ConfigError(
                f"every subject must have the same number of raters: subject 0 has {raters}, "
                f"subject {i} has {sum(row)}"
            )
    if raters < 2:
        raise ConfigError(f"Fleiss' kappa needs at least 2 raters per subject, got {raters}")

    subjects = len(rows)
    total = subjects * raters
    # P_i: the agreeing rater pairs of subject i among its n (n - 1) ordered pairs.
    observed = Fraction(
        sum(sum(c * c for c in row) - raters for row in rows), subjects * raters * (raters - 1)
    )
    category_totals = [sum(column) for column in zip(*rows, strict=True)]
    chance = Fraction(sum(t * t for t in category_totals), total * total)
    if chance == 1:
        return float("nan")
    return float((observed - chance) / (1 - chance))


def fleiss_table(
    ratings: Mapping[str, Mapping[str, str]], categories: Sequence[str]
) -> tuple[list[str], list[list[int]]]:
    """Build a Fleiss table from ``{rater: {unit_id: category}}``, matching units by id.

    Only units rated by every rater are kept (Fleiss' kappa needs the same raters for
    every subject); the returned ids, sorted, say which units the table covers, so the
    caller can report the others. Columns follow ``categories``. Raises ``ConfigError``
    for empty or duplicate categories and for a rating outside ``categories``.
    """
    if not categories:
        raise ConfigError("fleiss_table needs at least one category")
    column = {category: j for j, category in enumerate(categories)}
    if len(column) != len(categories):
        raise ConfigError(f"duplicate categories in {list(categories)}")
    for rater, by_unit in ratings.items():
        for unit, category in by_unit.items():
            if category not in column:
                raise ConfigError(
                    f"rater {rater!r} gave unit {unit!r} the category {category!r}, "
                    f"which is not one of {list(categories)}"
                )
    if not ratings:
        return [], []
    common = set.intersection(*(set(by_unit) for by_unit in ratings.values()))
    ids = sorted(common)
    table = [[0] * len(categories) for _ in ids]
    for i, unit in enumerate(ids):
        for by_unit in ratings.values():
            table[i][column[by_unit[unit]]] += 1
    return ids, table


def _count_rows(table: Sequence[Sequence[int]]) -> list[list[int]]:
    if isinstance(table, str | bytes):
        raise ConfigError("a Fleiss table must be subjects x categories counts")
    rows: list[list[int]] = []
    for i, row in enumerate(table):
        if isinstance(row, str | bytes):
            raise ConfigError(f"subject {i}: expected counts per category, got a string")
        rows.append([_count(raw, i) for raw in row])
    if rows and any(len(row) != len(rows[0]) for row in rows):
        raise ConfigError("a Fleiss table must have the same number of categories in every row")
    return rows


def _count(raw: object, subject: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, numbers.Real):
        raise ConfigError(f"subject {subject}: count {raw!r} is not a number")
    number = float(raw)
    if not number.is_integer() or number < 0:
        raise ConfigError(f"subject {subject}: count {raw!r} is not a non-negative integer")
    return int(number)


# ---- labels -----------------------------------------------------------------------------


def agreement_label(value: float) -> AgreementLabel:
    """The reading of an agreement coefficient (high, moderate, needs attention).

    ``>= 0.80`` high, ``0.67 <= value < 0.80`` moderate, ``< 0.67`` needs attention, NaN
    (not computable) ``"not_computable"``. Values within 1e-9 below a threshold count
    as reaching it (floating-point rounding of an exact threshold).
    """
    if math.isnan(value):
        return "not_computable"
    if value >= HIGH_AGREEMENT - _LABEL_TOLERANCE:
        return "high"
    if value >= MODERATE_AGREEMENT - _LABEL_TOLERANCE:
        return "moderate"
    return "needs_attention"
