"""The knowledge base: models, published schema, loading, building, and the demo."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import moot.formats.market.data
import moot.stats
from moot.errors import DataError
from moot.formats.market.data.build import (
    MarketData,
    Named,
    build_kb,
    macro_indicator,
    sector,
    sentiment,
    volatility_regime,
)
from moot.formats.market.data.demo import SYNTHETIC_WARNING, demo_kb, demo_market
from moot.formats.market.data.kb import (
    MODULES,
    Fundamentals,
    IndexQuote,
    KnowledgeBase,
    MacroIndicator,
    Meta,
    Sector,
    Sentiment,
    Technicals,
    dump_kb,
    kb_to_data,
    parse_kb,
)
from moot.formats.market.data.schema import kb_json_schema, outcome_json_schema, schema_files
from moot.formats.market.data.series import MacroSeries, PriceBar, PriceSeries
from moot.formats.market.data.sources import load_kb

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_published_schemas_are_up_to_date() -> None:
    for name, text in schema_files().items():
        path = DOCS / name
        assert path.is_file(), (
            f"{path} is missing: run python -m moot.formats.market.data.publish_schemas docs"
        )
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} is stale: run python -m moot.formats.market.data.publish_schemas docs"
        )


def test_demo_kb_is_valid_under_the_published_schema() -> None:
    schema = kb_json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    data = kb_to_data(demo_kb())
    jsonschema.validate(data, schema)
    broken = copy.deepcopy(data)
    broken["indices"]["EXI"]["close"] = "high"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
    extra = copy.deepcopy(data)
    extra["technicals"]["EXI"]["rsi_9"] = 50
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(extra, schema)
    jsonschema.Draft202012Validator.check_schema(outcome_json_schema())


def test_schema_carries_units() -> None:
    defs = kb_json_schema()["$defs"]
    assert defs["Fundamentals"]["properties"]["pe_trailing"]["x-unit"] == "ratio"
    assert defs["IndexQuote"]["properties"]["return_5d_pct"]["x-unit"] == "percent"
    assert defs["Technicals"]["properties"]["rsi_14"]["x-unit"] == "score"
    assert defs["IndexQuote"]["properties"]["close"]["x-unit"] == "level"


def test_demo_kb_is_synthetic_everywhere_and_deterministic() -> None:
    kb = demo_kb()
    assert kb.meta.synthetic is True
    assert SYNTHETIC_WARNING in kb.meta.warnings
    assert "synthetic" in kb.meta.source
    assert kb.present_modules() == MODULES  # every module has data
    names = [q.name for q in kb.indices.values()] + [s.name for s in kb.sectors.values()]
    names += [m.name for m in kb.macro.values()] + [g.name for g in kb.global_markets.values()]
    assert all("(synthetic)" in name for name in names)
    assert dump_kb(demo_kb()) == dump_kb(kb)  # same seed, same data
    demo_market.cache_clear()
    assert dump_kb(demo_kb()) == dump_kb(kb)  # regenerated from scratch, still the same
    assert dump_kb(demo_kb(seed=7)) != dump_kb(kb)


def test_load_kb_demo_and_file(tmp_path: Path) -> None:
    assert load_kb("demo") == demo_kb()
    path = tmp_path / "kb.json"
    path.write_text(dump_kb(demo_kb()), encoding="utf-8")
    assert load_kb(path) == demo_kb()


def minimal() -> dict[str, Any]:
    return {
        "meta": {"as_of": "2024-05-15", "source": "test"},
        "indices": {"EXI": {"name": "Example", "close": 4850.0, "date": "2024-05-15"}},
        "fundamentals": {"EXI": {"pe_trailing": 28.5}},
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["meta"].pop("as_of"), r"meta.as_of: Field required"),
        (lambda d: d["indices"]["EXI"].update(close=float("nan")), "indices.EXI.close: .*finite"),
        (lambda d: d["fundamentals"]["EXI"].update(pe=15), "fundamentals.EXI.pe: Extra inputs"),
        (lambda d: d.update(news={}), "news: Extra inputs"),
        (lambda d: d["indices"]["EXI"].update(date="2024-05-16"), "after meta.as_of"),
        (
            lambda d: d["meta"].update(synthetic=True),
            "synthetic KB must say so in meta.warnings",
        ),
        (lambda d: d["indices"].update({" ": {"name": "x", "close": 1}}), "empty key"),
    ],
)
def test_invalid_kb_is_refused_with_the_place(change: Any, message: str) -> None:
    data = minimal()
    change(data)
    with pytest.raises(DataError, match=message):
        parse_kb(data, source="kb.json")


def test_kb_file_errors(tmp_path: Path) -> None:
    bad_json = tmp_path / "a.json"
    bad_json.write_text('{"meta": ', encoding="utf-8")
    with pytest.raises(DataError, match=r"a.json is not valid JSON: .*line 1"):
        load_kb(bad_json)
    latin = tmp_path / "b.json"
    latin.write_bytes('{"meta": "é"}'.encode("latin-1"))
    with pytest.raises(DataError, match=r"b\.json is not UTF-8"):
        load_kb(latin)
    with pytest.raises(DataError, match="cannot read knowledge base"):
        load_kb(tmp_path / "none.json")


def bars(closes: list[float], start: dt.date = dt.date(2024, 1, 1)) -> PriceSeries:
    return PriceSeries(
        tuple(PriceBar(start + dt.timedelta(days=i), c, c, c, c) for i, c in enumerate(closes))
    )


def test_macro_indicator_by_hand() -> None:
    values = [3.4, 3.1, 3.2, 3.3, 3.0]
    points = tuple((dt.date(2024, m, 1), v) for m, v in zip(range(1, 6), values, strict=True))
    entry = macro_indicator(MacroSeries("CPI", "percent", points))
    assert (entry.value, entry.previous, entry.change) == (3.0, 3.3, -0.3)
    assert entry.trend == "falling"  # 3.0 against 3.1, three observations earlier
    assert entry.date == dt.date(2024, 5, 1)
    shorter = macro_indicator(MacroSeries("X", "level", points[:4]))  # 3.3 against 3.4
    assert shorter.trend == "falling"
    assert macro_indicator(MacroSeries("X", "level", points[:3])).trend is None  # too short


def test_sector_strength_and_breadth_by_hand() -> None:
    benchmark = Named("Bench", bars([100.0] * 20 + [110.0]))  # +10% over 20 sessions
    strong = sector("Strong", bars([50.0] * 20 + [60.0]), benchmark, "B")  # +20%
    weak = sector("Weak", bars([50.0] * 16 + [52.0, 52.0, 52.0, 52.0, 49.0]), benchmark, "B")
    assert strong.relative_20d_pct == 10.0  # 20 - 10 percentage points
    assert weak.return_20d_pct == -2.0
    assert weak.return_5d_pct == -2.0  # 49 / 50 - 1
    assert weak.relative_20d_pct == -12.0
    mood = sentiment({"S": strong, "W": weak}, bars([14.0, 22.5]), {})
    assert mood is not None
    assert (mood.sectors_total, mood.sectors_positive_5d, mood.breadth_5d_pct) == (2, 1, 50.0)
    assert (mood.volatility_index, mood.volatility_regime) == (22.5, "elevated")


def test_volatility_regimes() -> None:
    assert [volatility_regime(v) for v in (9, 14.99, 15, 19.9, 20, 29.9, 30, 80)] == [
        "low", "low", "normal", "normal", "elevated", "elevated", "high", "high",
    ]  # fmt: skip


def test_build_kb_sees_nothing_after_as_of() -> None:
    market = demo_market()
    series = market.indices["EXI"].series
    as_of = series.bars[400].date
    kb = build_kb(market, as_of, source="test")
    assert kb.indices["EXI"].close == series.bars[400].close
    assert kb.indices["EXI"].date == as_of
    dates = [kb.fundamentals["EXI"].date] + [m.date for m in kb.macro.values()]
    assert all(d is not None and d <= as_of for d in dates)
    # the 20-day return is the one computed from closes up to as_of only
    closes = series.closes[:401]
    assert kb.indices["EXI"].return_20d_pct == round((closes[-1] / closes[-21] - 1) * 100, 2)


def test_market_data_checks_its_inputs() -> None:
    with pytest.raises(ValueError, match="benchmark 'X' is not one of the indices"):
        MarketData(benchmark="X")
    cpi = MacroSeries("CPI", "percent", ((dt.date(2024, 1, 1), 3.0),))
    with pytest.raises(ValueError, match="publication lag of 'GDP': no macro"):
        MarketData(macro={"CPI": cpi}, publication_lag={"GDP": 30})
    for lag in (-1, 1.5, True):
        with pytest.raises(ValueError, match="must be whole days"):
            MarketData(macro={"CPI": cpi}, publication_lag={"CPI": lag})  # type: ignore[dict-item]


def test_a_macro_figure_enters_the_kb_when_it_is_published() -> None:
    """With a publication lag, a KB holds a series' figures published by its date: a
    figure dated D with a 45-day lag is known from D + 45 days on."""
    market = demo_market()
    key = next(iter(market.macro))
    lagged = dataclasses.replace(market, publication_lag={key: 45})
    day = market.macro[key].points[-2][0]
    on_publication = day + dt.timedelta(days=45)
    before = on_publication - dt.timedelta(days=1)
    assert build_kb(market, before, source="t").macro[key].date == day
    earlier = build_kb(lagged, before, source="t").macro[key].date
    assert earlier is not None
    assert earlier < day
    assert build_kb(lagged, on_publication, source="t").macro[key].date == day


def test_kb_model_round_trips_through_its_own_json_file(tmp_path: Path) -> None:
    # dump_kb leaves out empty modules and unset fields; loading must restore the same KB
    kb = parse_kb(minimal())
    path = tmp_path / "kb.json"
    path.write_text(dump_kb(kb), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    assert "null" not in text
    assert '"sectors"' not in text
    assert load_kb(path) == kb
    assert isinstance(kb, KnowledgeBase)


def test_every_kb_field_is_documented() -> None:

    text = (DOCS / "market.md").read_text(encoding="utf-8")
    for model in (Meta, IndexQuote, Technicals, Sector, Fundamentals, MacroIndicator, Sentiment):
        for field in model.model_fields:
            assert f"`{field}`" in text or f"`{field}," in text or f" `{field}`" in text, (
                f"{model.__name__}.{field} is not in docs/market.md"
            )


def test_public_api_is_importable() -> None:
    for name in moot.formats.market.data.__all__:
        assert hasattr(moot.formats.market.data, name), name
    assert set(moot.stats.__all__) >= {"mcnemar_exact", "wilson_interval", "brier_score"}


def test_publish_schemas_writes_the_files(tmp_path: Path) -> None:
    from moot.formats.market.data.publish_schemas import main

    assert main([str(tmp_path / "out")]) == 0
    for name, text in schema_files().items():
        assert (tmp_path / "out" / name).read_text(encoding="utf-8") == text
