"""The market format's data layer: knowledge base, CSV loaders and indicators, the
synthetic demo, analysts as configuration, slices, the evidence check, backtest
snapshots and backtest scoring. Documented in docs/market.md.
"""

from moot.formats.market.data.analysts import (
    Agent,
    AnalystPanel,
    Lens,
    Pairing,
    load_panel,
    parse_panel,
)
from moot.formats.market.data.backtest import (
    DEFAULT_WEIGHTS,
    MARKET_DIMENSIONS,
    BacktestSummary,
    ScoredSnapshot,
    SnapshotRow,
    WeightSearch,
    direction_from_totals,
    grid_search_weights,
    summarise,
)
from moot.formats.market.data.build import MarketData, Named, build_kb
from moot.formats.market.data.csvload import load_macro, load_prices, parse_macro, parse_prices
from moot.formats.market.data.demo import SYNTHETIC_WARNING, demo_kb
from moot.formats.market.data.evidence import (
    EvidenceReport,
    NumberCheck,
    penalised_evidence,
    verify_numbers,
)
from moot.formats.market.data.kb import MODULES, KnowledgeBase, Meta, dump_kb, parse_kb, read_kb
from moot.formats.market.data.schema import kb_json_schema, outcome_json_schema
from moot.formats.market.data.series import MacroSeries, PriceBar, PriceSeries
from moot.formats.market.data.slices import agent_slice, render_slice, slice_kb
from moot.formats.market.data.snapshots import (
    Outcome,
    Snapshot,
    demo_snapshots,
    load_snapshots,
    snapshots_from_market,
    write_snapshots,
)
from moot.formats.market.data.sources import load_kb

__all__ = [
    "DEFAULT_WEIGHTS",
    "MARKET_DIMENSIONS",
    "MODULES",
    "SYNTHETIC_WARNING",
    "Agent",
    "AnalystPanel",
    "BacktestSummary",
    "EvidenceReport",
    "KnowledgeBase",
    "Lens",
    "MacroSeries",
    "MarketData",
    "Meta",
    "Named",
    "NumberCheck",
    "Outcome",
    "Pairing",
    "PriceBar",
    "PriceSeries",
    "ScoredSnapshot",
    "Snapshot",
    "SnapshotRow",
    "WeightSearch",
    "agent_slice",
    "build_kb",
    "demo_kb",
    "demo_snapshots",
    "direction_from_totals",
    "dump_kb",
    "grid_search_weights",
    "kb_json_schema",
    "load_kb",
    "load_macro",
    "load_panel",
    "load_prices",
    "load_snapshots",
    "outcome_json_schema",
    "parse_kb",
    "parse_macro",
    "parse_panel",
    "parse_prices",
    "penalised_evidence",
    "read_kb",
    "render_slice",
    "slice_kb",
    "snapshots_from_market",
    "summarise",
    "verify_numbers",
    "write_snapshots",
]
