"""The KB as a flat list of facts: every number and date with its path and unit.

The evidence check compares the numbers an argument cites with these facts. A
fact's unit comes from the schema (``x-unit``) or, for an ``Indicator``, from its
own ``unit`` field.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from moot.formats.market.data.kb import MODULES, Indicator, KnowledgeBase, Unit

FactUnit = Unit | Literal["date"]


@dataclass(frozen=True)
class Fact:
    """One value of the KB. ``path`` is dotted (``fundamentals.EXI.pe_trailing``);
    ``field`` is its last part, ``name`` the display name of its entry (if any)."""

    path: str
    field: str
    value: float | dt.date
    unit: FactUnit
    name: str | None = None

    @property
    def number(self) -> float:
        """The value of a numeric fact (``TypeError`` for a date)."""
        if isinstance(self.value, dt.date):
            raise TypeError(f"{self.path} is a date, not a number")
        return self.value


def _unit_of(model: BaseModel, field: str) -> Unit | None:
    if isinstance(model, Indicator) and field in ("value", "previous", "change"):
        return model.unit
    extra = type(model).model_fields[field].json_schema_extra
    unit = extra.get("x-unit") if isinstance(extra, dict) else None
    return unit if isinstance(unit, str) else None  # type: ignore[return-value]


def _walk(model: BaseModel, path: str, facts: list[Fact], names: list[str]) -> None:
    name = getattr(model, "name", None)
    if isinstance(name, str):
        names.append(name)
    for field in type(model).model_fields:
        value = getattr(model, field)
        where = f"{path}.{field}"
        if value is None or isinstance(value, bool | str):
            continue
        if isinstance(value, dt.date):
            facts.append(Fact(where, field, value, "date", name))
        elif isinstance(value, int | float):
            unit = _unit_of(model, field)
            if unit is not None:
                facts.append(Fact(where, field, float(value), unit, name))
        elif isinstance(value, BaseModel):
            _walk(value, where, facts, names)
        elif isinstance(value, dict):
            for key, item in value.items():
                names.append(key)
                if isinstance(item, BaseModel):
                    _walk(item, f"{where}.{key}", facts, names)


@dataclass(frozen=True)
class FactSheet:
    """The facts of a KB (or slice) and the names in it (tickers, series names)."""

    facts: tuple[Fact, ...]
    names: tuple[str, ...]

    @property
    def numbers(self) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if f.unit != "date")

    @property
    def dates(self) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if f.unit == "date")


_SHEETS: dict[int, tuple[KnowledgeBase, FactSheet]] = {}
_SHEETS_KEPT = 64


def fact_sheet(kb: KnowledgeBase) -> FactSheet:
    """Every fact of ``kb``: ``meta.as_of`` and each number and date of every module.
    A KB is immutable: the sheets of the last few KBs checked are kept (a debate
    checks every reply against the same slices)."""
    kept = _SHEETS.get(id(kb))
    if kept is not None and kept[0] is kb:
        return kept[1]
    sheet = _fact_sheet(kb)
    if len(_SHEETS) >= _SHEETS_KEPT:
        _SHEETS.pop(next(iter(_SHEETS)))
    _SHEETS[id(kb)] = (kb, sheet)
    return sheet


def _fact_sheet(kb: KnowledgeBase) -> FactSheet:
    facts: list[Fact] = [Fact("meta.as_of", "as_of", kb.meta.as_of, "date")]
    names: list[str] = []
    for module in MODULES:
        value = getattr(kb, module)
        if isinstance(value, BaseModel):
            _walk(value, module, facts, names)
        elif isinstance(value, dict):
            for key, entry in value.items():
                names.append(key)
                _walk(entry, f"{module}.{key}", facts, names)
    return FactSheet(tuple(facts), tuple(dict.fromkeys(names)))
