"""The market knowledge base (KB): what the analysts of the market format argue from.

Seven data modules plus ``meta``. Every numeric field carries its unit in the JSON
Schema (``x-unit``), which the evidence check uses to match cited numbers:

- ``percent``: percentage points (3.2 means 3.2%);
- ``ratio``: a multiple (a P/E of 28.5, a volume ratio of 1.3);
- ``level``: a price, an index level, or an indicator in price units (SMA, MACD, ATR);
- ``score``: a bounded oscillator (RSI 0-100);
- ``count``: a whole number of things (sectors).

Numbers are stored in base units: 2.9 trillion is ``2.9e12``, never ``2.9`` with a
scale word. The documentation of every field is in docs/market.md; the published
JSON Schema is docs/market-kb.schema.json (``python -m moot.formats.market.data.publish_schemas``).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any, Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from moot.errors import DataError
from moot.formats.market.data.bars import Bar
from moot.formats.market.data.files import read_json

Unit = Literal["percent", "ratio", "level", "score", "count"]
UNITS: Final[tuple[str, ...]] = get_args(Unit)
Module = Literal[
    "indices", "technicals", "sectors", "fundamentals", "macro", "sentiment", "global_markets"
]
MODULES: Final[tuple[str, ...]] = get_args(Module)
VolatilityRegime = Literal["low", "normal", "elevated", "high"]
Trend = Literal["rising", "falling", "flat"]
KB_VERSION: Final = 1


def unit_field(
    unit: Unit, description: str, *, gt: float | None = None, ge: float | None = None
) -> Any:
    """An optional numeric field with its unit recorded in the JSON Schema; ``gt`` and
    ``ge`` bound what the quantity can be at all (a price is more than 0)."""
    return Field(
        default=None,
        description=description,
        json_schema_extra={"x-unit": unit},
        gt=gt,
        ge=ge,
    )


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Meta(_Model):
    """Where the KB comes from and what a reader must know about it."""

    kb_version: Literal[1] = Field(default=1, description="Version of this KB format.")
    as_of: dt.date = Field(description="The last date whose data the KB contains.")
    source: str = Field(min_length=1, description="Where the data comes from.")
    synthetic: bool = Field(
        default=False, description="True when the data is generated, not observed."
    )
    warnings: list[str] = Field(
        default_factory=list,
        description='What a reader must know, e.g. "synthetic data: not real market data".',
    )
    bar: Bar | None = Field(
        default=None,
        description="Bar size of the price series: daily (when absent), weekly, monthly or"
        " quarterly. Returns are named by it (return_3m_pct on monthly bars); technicals"
        " count bars.",
    )

    @model_validator(mode="after")
    def _synthetic_is_labelled(self) -> Meta:
        if self.synthetic and not any("synthetic" in w.lower() for w in self.warnings):
            raise ValueError("a synthetic KB must say so in meta.warnings ('synthetic ...')")
        return self


class _Priced(_Model):
    """An instrument's last close and its recent returns (indices and sectors)."""

    name: str = Field(min_length=1)
    close: float = Field(gt=0, description="Last close.", json_schema_extra={"x-unit": "level"})
    return_1d_pct: float | None = unit_field("percent", "Return over 1 session.")
    return_5d_pct: float | None = unit_field("percent", "Return over 5 sessions.")
    return_20d_pct: float | None = unit_field("percent", "Return over 20 sessions.")
    return_60d_pct: float | None = unit_field("percent", "Return over 60 sessions.")
    return_1w_pct: float | None = unit_field("percent", "Return over 1 week (weekly bars).")
    return_4w_pct: float | None = unit_field("percent", "Return over 4 weeks (weekly bars).")
    return_13w_pct: float | None = unit_field("percent", "Return over 13 weeks (weekly bars).")
    return_52w_pct: float | None = unit_field("percent", "Return over 52 weeks (weekly bars).")
    return_1m_pct: float | None = unit_field("percent", "Return over 1 month (monthly bars).")
    return_3m_pct: float | None = unit_field("percent", "Return over 3 months (monthly bars).")
    return_6m_pct: float | None = unit_field("percent", "Return over 6 months (monthly bars).")
    return_12m_pct: float | None = unit_field("percent", "Return over 12 months (monthly bars).")
    return_1q_pct: float | None = unit_field("percent", "Return over 1 quarter (quarterly bars).")
    return_2q_pct: float | None = unit_field("percent", "Return over 2 quarters (quarterly bars).")
    return_4q_pct: float | None = unit_field("percent", "Return over 4 quarters (quarterly bars).")


class IndexQuote(_Priced):
    """An index (or any traded instrument) at the KB's date: ``indices`` and
    ``global_markets``."""

    date: dt.date | None = Field(default=None, description="Session date of ``close``.")
    return_252d_pct: float | None = unit_field("percent", "Return over 252 sessions (a year).")
    high_52w: float | None = unit_field(
        "level", "Highest high of the last year's bars (252 sessions, 52 weeks...).", gt=0
    )
    low_52w: float | None = unit_field(
        "level", "Lowest low of the last year's bars (252 sessions, 52 weeks...).", gt=0
    )
    vs_52w_high_pct: float | None = unit_field(
        "percent", "Distance of the close below the 52-week high (<= 0)."
    )
    vs_52w_low_pct: float | None = unit_field(
        "percent", "Distance of the close above the 52-week low (>= 0)."
    )


class Technicals(_Model):
    """Indicators derived from one price series (definitions in docs/market.md)."""

    sma_20: float | None = unit_field("level", "Simple moving average of 20 closes.", gt=0)
    sma_50: float | None = unit_field("level", "Simple moving average of 50 closes.", gt=0)
    sma_200: float | None = unit_field("level", "Simple moving average of 200 closes.", gt=0)
    close_vs_sma_20_pct: float | None = unit_field("percent", "Close relative to SMA-20.")
    close_vs_sma_50_pct: float | None = unit_field("percent", "Close relative to SMA-50.")
    close_vs_sma_200_pct: float | None = unit_field("percent", "Close relative to SMA-200.")
    rsi_14: float | None = unit_field("score", "RSI over 14 bars, Wilder's smoothing.", ge=0)
    macd: float | None = unit_field("level", "MACD line: EMA-12 minus EMA-26 of closes.")
    macd_signal: float | None = unit_field("level", "EMA-9 of the MACD line.")
    macd_histogram: float | None = unit_field("level", "MACD line minus signal line.")
    atr_14: float | None = unit_field(
        "level", "Average true range, 14 bars, Wilder (absent without highs and lows).", ge=0
    )
    atr_14_pct: float | None = unit_field("percent", "ATR-14 as a share of the close.", ge=0)
    volume_ratio: float | None = unit_field(
        "ratio", "Last volume divided by the mean volume of the 20 sessions before it.", ge=0
    )


class Sector(_Priced):
    """A sector (index or ETF) and its strength against the benchmark index."""

    benchmark: str | None = Field(default=None, description="Ticker of the benchmark index.")
    relative_20d_pct: float | None = unit_field(
        "percent", "20-session return minus the benchmark's, in percentage points."
    )


class Fundamentals(_Model):
    """Valuation and earnings of an index or sector (supplied, not derived)."""

    name: str | None = None
    date: dt.date | None = Field(default=None, description="Date of these figures.")
    pe_trailing: float | None = unit_field("ratio", "Price / trailing 12-month earnings.")
    pe_forward: float | None = unit_field("ratio", "Price / expected 12-month earnings.")
    pe_long_term_avg: float | None = unit_field("ratio", "Long-run average trailing P/E.")
    pb: float | None = unit_field("ratio", "Price / book value.")
    earnings_yield_pct: float | None = unit_field("percent", "Earnings / price.")
    dividend_yield_pct: float | None = unit_field("percent", "Dividends / price.")
    eps_growth_yoy_pct: float | None = unit_field("percent", "Earnings per share growth, y/y.")
    revenue_growth_yoy_pct: float | None = unit_field("percent", "Revenue growth, y/y.")
    net_margin_pct: float | None = unit_field("percent", "Net profit / revenue.")


class Indicator(_Model):
    """A named value whose unit is data, not schema: macro series, custom sentiment."""

    name: str = Field(min_length=1)
    unit: Unit = Field(description="Unit of value, previous and change.")
    value: float
    date: dt.date | None = Field(default=None, description="Date of ``value``.")
    previous: float | None = Field(default=None, description="The observation before.")
    change: float | None = Field(default=None, description="value - previous.")


class MacroIndicator(Indicator):
    """A macro series at its latest observation (e.g. CPI y/y, policy rate)."""

    trend: Trend | None = Field(
        default=None, description="Latest value against the value 3 observations earlier."
    )


class Sentiment(_Model):
    """Market-wide sentiment and breadth."""

    volatility_index: float | None = unit_field(
        "level", "Implied-volatility index (VIX-like).", ge=0
    )
    volatility_regime: VolatilityRegime | None = Field(
        default=None,
        description="volatility_index < 15 low, < 20 normal, < 30 elevated, else high.",
    )
    sectors_total: int | None = Field(
        default=None, ge=0, description="Sectors counted.", json_schema_extra={"x-unit": "count"}
    )
    sectors_positive_5d: int | None = Field(
        default=None,
        ge=0,
        description="Sectors with a positive 5-session return.",
        json_schema_extra={"x-unit": "count"},
    )
    sectors_positive_20d: int | None = Field(
        default=None,
        ge=0,
        description="Sectors with a positive 20-session return.",
        json_schema_extra={"x-unit": "count"},
    )
    breadth_5d_pct: float | None = unit_field(
        "percent", "Share of sectors up over 5 sessions.", ge=0
    )
    breadth_20d_pct: float | None = unit_field(
        "percent", "Share of sectors up over 20 sessions.", ge=0
    )
    indicators: dict[str, Indicator] = Field(
        default_factory=dict,
        description="Further sentiment series by id (put/call ratio, surveys, ...).",
    )


class KnowledgeBase(_Model):
    """The whole KB. Modules are keyed by ticker or series id; a module may be empty."""

    meta: Meta
    indices: dict[str, IndexQuote] = Field(default_factory=dict)
    technicals: dict[str, Technicals] = Field(default_factory=dict)
    sectors: dict[str, Sector] = Field(default_factory=dict)
    fundamentals: dict[str, Fundamentals] = Field(default_factory=dict)
    macro: dict[str, MacroIndicator] = Field(default_factory=dict)
    sentiment: Sentiment | None = None
    global_markets: dict[str, IndexQuote] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _no_date_after_as_of(self) -> KnowledgeBase:
        """A KB may not know the future: every date in it is on or before meta.as_of."""
        for path, value in _dates(self.model_dump(exclude={"meta"})):
            if value > self.meta.as_of:
                raise ValueError(f"{path} is {value}, after meta.as_of {self.meta.as_of}")
        for module in (
            "indices",
            "technicals",
            "sectors",
            "fundamentals",
            "macro",
            "global_markets",
        ):
            for key in getattr(self, module):
                if not key.strip():
                    raise ValueError(f"{module} has an empty key")
        return self

    def present_modules(self) -> tuple[str, ...]:
        """The modules that hold data, in the canonical order."""
        return tuple(m for m in MODULES if getattr(self, m))


def _dates(value: Any, path: str = "") -> list[tuple[str, dt.date]]:
    if isinstance(value, dt.date):
        return [(path, value)]
    if isinstance(value, dict):
        return [
            found
            for k, v in value.items()
            for found in _dates(v, f"{path}.{k}" if path else str(k))
        ]
    return []


def _pydantic_errors(exc: ValidationError) -> str:
    lines = []
    for error in exc.errors()[:10]:
        where = ".".join(str(p) for p in error["loc"]) or "(top level)"
        lines.append(f"  {where}: {error['msg']}")
    more = len(exc.errors()) - 10
    if more > 0:
        lines.append(f"  ... and {more} more")
    return "\n".join(lines)


def parse_kb(data: Any, *, source: str = "knowledge base") -> KnowledgeBase:
    """A KB from parsed JSON; ``DataError`` naming every problem (up to 10)."""
    try:
        return KnowledgeBase.model_validate(data)
    except ValidationError as exc:
        raise DataError(
            f"{source} is not a valid knowledge base:\n{_pydantic_errors(exc)}"
        ) from exc


def read_kb(path: Path) -> KnowledgeBase:
    """The KB in a JSON file (``moot.formats.market.data.sources.load_kb`` also takes
    ``"demo"``)."""
    return parse_kb(read_json(path, "knowledge base"), source=str(path))


def dump_kb(kb: KnowledgeBase) -> str:
    """The KB as indented JSON (empty modules and unset fields left out)."""
    return json.dumps(kb_to_data(kb), ensure_ascii=False, indent=2) + "\n"


def kb_to_data(kb: KnowledgeBase) -> dict[str, Any]:
    """The KB as plain JSON data with nothing empty: no null field, no empty module."""
    data: dict[str, Any] = kb.model_dump(mode="json", exclude_none=True)
    for module in MODULES:
        if not data.get(module):
            data.pop(module, None)
    sentiment = data.get("sentiment")
    if isinstance(sentiment, dict) and not sentiment.get("indicators"):
        sentiment.pop("indicators", None)
        if not sentiment:
            data.pop("sentiment")
    return data
