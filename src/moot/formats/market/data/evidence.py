"""Evidence verification by code: every number an argument cites is checked against
the agent's slice of the KB.

Rules (docs/market.md, "Evidence check"):

1. **Units.** A percentage only matches a ``percent`` field, a multiple (``15x``,
   ``15倍``) only a ``ratio`` field, a currency amount only a ``level`` field, a date
   only a date; a plain number may match any numeric field. A number attached to a
   metric label (``P/E 15``, ``市盈率15倍``, ``RSI 62``) must match a field of that
   metric, and is unsupported when the slice has no such field.
2. **Rounding tolerance.** A cited number matches a KB value when the value rounds,
   or truncates, to it at the precision it was written with: ``|cited - kb| <= ulp/2``
   or ``cited <= kb < cited + ulp`` (in magnitude), where ``ulp`` is one unit in the
   last written digit (so 28.5 may be cited as "about 28", "28" or "29"; 28.9 as
   "28" or "29"; never as "27" or "30").
3. **Signs.** A number written with ``+`` or ``-`` must have the KB value's sign; an
   unsigned number is compared by magnitude ("fell 3.2%" cites -3.2).
4. **Fractions.** ``a/b`` matches when the slice has counts ``a`` and ``b``, or a
   percentage equal to ``100 a / b``.
5. **Derived numbers.** An unlabelled number that matches no field but equals, within
   the same tolerance, the difference, ratio or percentage change of two fields that
   the same text cites correctly (two fields of one unit, of the same entry or the
   same field name), is ``derived``: supported, with its formula.

6. **Years.** A plain whole number from 1900 to 2100 that matches no number is
   supported when a date of the slice falls in that year ("the 2026 outlook").
7. **Entity and period.** When the text names an entry (an index, a sector, a
   ticker, a series) or a period ("5-day", "20 日", "year to date", "last quarter")
   for a number (``moot.formats.market.data.binding``), the number must match a field
   of that entry and of that period, not any field with its value. A number whose
   value only a field of another entry holds is ``wrong_entity``; one whose value only
   a field of the named entry with another period holds is ``wrong_period``; either
   way ``field`` names the field the number really belongs to and the note the field
   the text named.

Everything else is ``unsupported``; the check names the closest KB field. How
flagged numbers (unsupported, wrong entity, wrong period) lower an argument's
evidence score: ``penalised_evidence``.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from moot.formats.market.data.binding import (
    YTD,
    Binding,
    bind,
    entity_of,
    entries,
    fits,
    period_of,
)
from moot.formats.market.data.citations import Citation, extract_citations, normalise
from moot.formats.market.data.facts import Fact, FactSheet, fact_sheet
from moot.formats.market.data.kb import KnowledgeBase
from moot.numerals import agrees

Status = Literal["matched", "derived", "unsupported", "wrong_entity", "wrong_period"]
FLAGGED: Final[frozenset[str]] = frozenset({"unsupported", "wrong_entity", "wrong_period"})
"""The statuses the evidence rule penalises."""
UNSUPPORTED_PENALTY: Final = 2.0
ALL_UNSUPPORTED_CAP: Final = 3.0
SCORE_FLOOR: Final = 1.0
_COMPATIBLE: Final[dict[str, frozenset[str]]] = {
    "percent": frozenset({"percent"}),
    "ratio": frozenset({"ratio"}),
    "money": frozenset({"level"}),
    "number": frozenset({"percent", "ratio", "level", "score", "count"}),
}


@dataclass(frozen=True)
class NumberCheck:
    """The verdict on one cited number. ``field`` is the KB path that supports it,
    or, when unsupported, the closest candidate (``None`` if the slice has none)."""

    text: str
    start: int
    end: int
    kind: str
    value: float | str
    status: Status
    field: str | None
    kb_value: float | str | None
    note: str = ""


@dataclass(frozen=True)
class EvidenceReport:
    """Every number cited in one text, checked."""

    checks: tuple[NumberCheck, ...]

    @property
    def unsupported(self) -> tuple[NumberCheck, ...]:
        """The numbers flagged: unsupported, or bound to the wrong entity or period."""
        return tuple(c for c in self.checks if c.status in FLAGGED)

    @property
    def supported(self) -> tuple[NumberCheck, ...]:
        return tuple(c for c in self.checks if c.status not in FLAGGED)


def _distance(cited: float, fact: Fact) -> float:
    return abs(abs(cited) - abs(fact.number)) / max(abs(fact.number), 1e-12)


def _shown(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e15 else f"{value:.6g}"


def _date_check(citation: Citation, sheet: FactSheet) -> NumberCheck:
    cited = citation.date
    assert cited is not None  # noqa: S101 - a date citation always has its date

    def same(day: dt.date) -> bool:
        if citation.date_precision == "day":
            return day == cited
        if citation.date_precision == "month":
            return (day.year, day.month) == (cited.year, cited.month)
        if citation.date_precision == "month_day":
            return (day.month, day.day) == (cited.month, cited.day)
        return day.year == cited.year

    dates = sheet.dates
    hits = [f for f in dates if isinstance(f.value, dt.date) and same(f.value)]
    shown = cited.isoformat() if citation.date_precision == "day" else citation.text
    base = (citation.text, citation.start, citation.end, "date", shown)
    if hits:
        return NumberCheck(*base, "matched", hits[0].path, str(hits[0].value))
    closest = min(
        dates,
        key=lambda f: abs((f.value - cited).days) if isinstance(f.value, dt.date) else 0,
        default=None,
    )
    if closest is None:
        return NumberCheck(*base, "unsupported", None, None, "no such date in the data")
    return NumberCheck(
        *base, "unsupported", closest.path, str(closest.value), "no such date in the data"
    )


def _fraction_check(citation: Citation, sheet: FactSheet) -> NumberCheck:
    base = (citation.text, citation.start, citation.end, "fraction", citation.text)
    counts = [f for f in sheet.numbers if f.unit == "count"]
    numerator = [f for f in counts if f.number == citation.numerator]
    if numerator and any(f.number == citation.denominator for f in counts):
        return NumberCheck(*base, "matched", numerator[0].path, _shown(numerator[0].number))
    share = 100 * citation.value
    for fact in sheet.numbers:
        if fact.unit == "percent" and agrees(share, 0.1, fact.number, signed=False):
            return NumberCheck(*base, "matched", fact.path, _shown(fact.number))
    return NumberCheck(*base, "unsupported", None, None, "no such counts in the data")


def _candidates(citation: Citation, sheet: FactSheet) -> tuple[list[Fact], str]:
    """The facts a citation may match, and a note when its label is not in the slice."""
    units = _COMPATIBLE[citation.kind]
    facts = [f for f in sheet.numbers if f.unit in units]
    if citation.label:
        labelled = [f for f in sheet.numbers if f.field in citation.label_fields]
        if not labelled:
            return [], f"no {citation.label} in the data"
        return [f for f in labelled if f.unit in units], ""
    return facts, ""


def _fits(fact: Fact, binding: Binding) -> tuple[bool, bool]:
    """Whether a fact is of the entity and of the period the text names (rule 7)."""
    entity, period = entity_of(fact), period_of(fact.field)
    entity_ok = not binding.entities or entity is None or entity in binding.entities
    period_ok = (
        not binding.periods or period is None or any(fits(p, period) for p in binding.periods)
    )
    return entity_ok, period_ok


def _named_field(fact: Fact, binding: Binding, sheet: FactSheet) -> Fact | None:
    """The field the text named instead of ``fact``: the same field of the named
    entity, or the named period's field of the same entity and kind."""
    for other in sheet.numbers:
        if other is fact or other.path.split(".")[0] != fact.path.split(".")[0]:
            continue
        if _fits(other, binding) != (True, True):
            continue
        same_entity = entity_of(other) == entity_of(fact)
        period, own = period_of(other.field), period_of(fact.field)
        if not same_entity and other.field == fact.field:
            return other
        if same_entity and period is not None and own is not None:
            shape = re.sub(r"\d+[dw]?|yoy", "#", other.field)
            if shape == re.sub(r"\d+[dw]?|yoy", "#", fact.field):
                return other
    return None


def _bound_check(
    base: tuple[str, int, int, str, float],
    hits: Sequence[Fact],
    binding: Binding,
    sheet: FactSheet,
    value: float,
) -> tuple[NumberCheck, Fact | None]:
    """Rule 7 on the facts whose value the number has."""
    scored = [(f, _fits(f, binding)) for f in hits]
    good = [f for f, ok in scored if ok == (True, True)]
    if good:
        best = min(good, key=lambda f: _distance(value, f))
        return NumberCheck(*base, "matched", best.path, best.number), best
    of_entity = [f for f, (entity_ok, _) in scored if entity_ok]
    status: Status = "wrong_period" if of_entity else "wrong_entity"
    of_period = [f for f, (_, period_ok) in scored if period_ok]
    best = min(of_entity or of_period or hits, key=lambda f: _distance(value, f))
    named = _named_field(best, binding, sheet)
    what = (
        "/".join(sorted(binding.entities))
        if status == "wrong_entity"
        else ", ".join(_period_name(p) for p in sorted(binding.periods))
    )
    note = f"the text names {what}, but this is {best.path}"
    if named is not None:
        note += f"; {named.path} is {_shown(named.number)}"
    return NumberCheck(*base, status, best.path, best.number, note), None


def _period_name(period: int) -> str:
    return "year to date" if period == YTD else f"{period} sessions"


def _number_check(
    citation: Citation, sheet: FactSheet, binding: Binding | None = None
) -> tuple[NumberCheck, Fact | None]:
    candidates, note = _candidates(citation, sheet)
    hits = [
        f
        for f in candidates
        if agrees(citation.value, citation.ulp, f.number, signed=citation.signed)
    ]
    base = (citation.text, citation.start, citation.end, citation.kind, citation.value)
    if hits:
        return _bound_check(base, hits, binding or Binding(), sheet, citation.value)
    if _year_like(citation) and any(
        isinstance(f.value, dt.date) and f.value.year == citation.value for f in sheet.dates
    ):
        year = next(
            f
            for f in sheet.dates
            if isinstance(f.value, dt.date) and f.value.year == citation.value
        )
        return NumberCheck(*base, "matched", year.path, str(year.value), "a year"), None
    closest = _closest(citation, candidates or list(sheet.numbers), sheet)
    check = NumberCheck(
        *base,
        "unsupported",
        closest.path if closest else None,
        closest.number if closest else None,
        note or "no field of the data has this value",
    )
    return check, None


def _year_like(citation: Citation) -> bool:
    """A plain whole number from 1900 to 2100, written without separators: a year."""
    return (
        citation.kind == "number"
        and not citation.signed
        and not citation.label
        and citation.ulp == 1.0
        and "," not in citation.text
        and 1900 <= citation.value <= 2100
        and citation.value.is_integer()
    )


def _closest(citation: Citation, pool: Sequence[Fact], sheet: FactSheet) -> Fact | None:
    """The field a wrong number most likely meant: for a labelled number the field its
    label most directly names (``P/E`` -> ``pe_trailing``), else the nearest value."""
    for field in citation.label_fields:
        named = [f for f in sheet.numbers if f.field == field]
        if named:
            return min(named, key=lambda f: _distance(citation.value, f))
    return min(pool, key=lambda f: _distance(citation.value, f), default=None)


def _entry(fact: Fact) -> str:
    """The entry a fact belongs to: ``EXI`` for ``technicals.EXI.sma_20``."""
    parts = fact.path.split(".")
    return parts[1] if len(parts) > 2 else parts[0]


def _derivations(a: Fact, b: Fact) -> Iterable[tuple[str, float, str]]:
    """(kind, value, formula) of what can be computed from two facts of one unit that
    describe the same entry (close and SMA-200 of EXI) or the same field (the 20-day
    returns of two sectors)."""
    if a.unit != b.unit or (_entry(a) != _entry(b) and a.field != b.field):
        return
    x, y = a.number, b.number
    yield ("percent" if a.unit == "percent" else "number", x - y, f"{a.path} - {b.path}")
    if a.unit != "percent" and y:
        yield "percent", (x / y - 1) * 100, f"({a.path} / {b.path} - 1) x 100"
        yield "ratio", x / y, f"{a.path} / {b.path}"


def _derived(citation: Citation, matched: Sequence[Fact]) -> tuple[str, str] | None:
    for a, b in itertools.permutations(matched, 2):
        for kind, value, formula in _derivations(a, b):
            if kind != citation.kind and citation.kind != "number":
                continue
            if agrees(citation.value, citation.ulp, value, signed=citation.signed):
                return formula, _shown(value)
    return None


def verify_numbers(text: str, kb_slice: KnowledgeBase) -> EvidenceReport:
    """Check every number and date ``text`` cites against ``kb_slice`` (the agent's
    slice, or the whole KB for the judge)."""
    sheet = fact_sheet(kb_slice)
    citations = extract_citations(text, sheet.names)
    names = entries(sheet.numbers)
    checks: list[NumberCheck | None] = []
    matched: list[Fact] = []
    pending: list[tuple[int, Citation, NumberCheck]] = []
    for citation in citations:
        if citation.kind == "date":
            checks.append(_date_check(citation, sheet))
        elif citation.kind == "fraction":
            checks.append(_fraction_check(citation, sheet))
        else:
            binding = bind(normalise(text), citation.start, citation.end, names)
            check, fact = _number_check(citation, sheet, binding)
            if fact is not None:
                matched.append(fact)
            if check.status == "unsupported" and not citation.label:
                pending.append((len(checks), citation, check))
                checks.append(None)
            else:
                checks.append(check)
    for index, citation, check in pending:
        derived = _derived(citation, list(dict.fromkeys(matched)))
        if derived is None:
            checks[index] = check
        else:
            formula, value = derived
            checks[index] = NumberCheck(
                check.text,
                check.start,
                check.end,
                check.kind,
                check.value,
                "derived",
                formula,
                value,
                "computed from cited fields",
            )
    return EvidenceReport(tuple(c for c in checks if c is not None))


def penalised_evidence(
    score: float,
    report: EvidenceReport,
    *,
    per_number: float = UNSUPPORTED_PENALTY,
    cap_when_all_unsupported: float = ALL_UNSUPPORTED_CAP,
    floor: float = SCORE_FLOOR,
) -> float:
    """An argument's evidence score (1-10) after the unsupported-number rule.

    Each flagged number (unsupported, wrong entity or wrong period: rules 1-7) takes
    ``per_number`` (2) points off; when every number the argument cites is flagged
    (and it cites at least one), the score is at most
    ``cap_when_all_unsupported`` (3): evidence that is all invented is the rubric's
    bottom band. The result never drops below ``floor`` (1) and never rises above
    ``score``. An argument with no unsupported number keeps its score.
    """
    unsupported = len(report.unsupported)
    if unsupported == 0:
        return score
    adjusted = score - per_number * unsupported
    if unsupported == len(report.checks):
        adjusted = min(adjusted, cap_when_all_unsupported)
    return min(score, max(floor, adjusted))
