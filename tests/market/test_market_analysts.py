"""Analysts as configuration, and each agent's slice of the KB."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from moot.errors import ConfigError
from moot.formats.market.data.analysts import load_panel
from moot.formats.market.data.demo import SYNTHETIC_WARNING, demo_kb
from moot.formats.market.data.kb import MODULES, KnowledgeBase, dump_kb
from moot.formats.market.data.slices import agent_slice, render_slice, slice_kb

BUILTIN_LENSES = {
    "technical": (("indices", "technicals"), "1 day to 2 weeks", "1 天至2 周"),
    "fundamental": (("indices", "sectors", "fundamentals"), "3 months to 2 years", "3 个月至2 年"),
    "macro": (("macro", "global_markets", "indices"), "6 months to 3 years", "6 个月至3 年"),
    "sentiment": (("sentiment", "indices", "sectors"), "1 week to 3 months", "1 周至3 个月"),
}

RATES_PANEL = """
[lenses.rates]
modules = ["macro"]
horizon = ["1m", "1y"]
label = { en = "rates", zh = "利率" }

[agents.rates_up]
lens = "rates"
stance = "bull"
focus = { en = "Find signs of rate cuts.", zh = "寻找降息的迹象。" }

[agents.rates_down]
lens = "rates"
stance = "bear"
focus = { en = "Find signs of rate hikes.", zh = "寻找加息的迹象。" }
"""
"""A panel of two analysts on the macro module, for debates with analysts of one's own."""


def test_builtin_panel_is_the_eight_analysts() -> None:
    panel = load_panel()
    assert list(panel.agents) == [
        "tech_bull", "tech_bear", "fund_bull", "fund_bear",
        "macro_bull", "macro_bear", "senti_bull", "senti_bear",
    ]  # fmt: skip
    for name, (modules, en, zh) in BUILTIN_LENSES.items():
        lens = panel.lenses[name]
        assert lens.modules == modules
        assert lens.horizon.text("en") == en
        assert lens.horizon.text("zh") == zh
    for agent in panel.agents.values():
        assert agent.focus["en"]
        assert agent.focus["zh"]
        assert agent.stance in ("bull", "bear")
    assert [(p.bull, p.bear) for p in panel.pairings] == [
        ("tech_bull", "tech_bear"), ("fund_bull", "fund_bear"),
        ("macro_bull", "macro_bear"), ("senti_bull", "senti_bear"),
    ]  # fmt: skip
    assert panel.opponents("fund_bear") == ("fund_bull",)
    assert panel.lenses["technical"].horizon.longest.days == 14


PANEL = (
    RATES_PANEL
    + """
[lenses.flows]
modules = ["sentiment", "global_markets"]
horizon = ["1w", "6m"]
label = { en = "flows", zh = "资金流" }

[agents.flows_in]
lens = "flows"
stance = "bull"
focus = { en = "Money flows in.", zh = "资金流入。" }

[agents.flows_out]
lens = "flows"
stance = "bear"
focus = { en = "Money flows out.", zh = "资金流出。" }
"""
)


def test_user_panel_pairs_each_lens_when_pairings_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "panel.toml"
    path.write_text(PANEL, encoding="utf-8")
    panel = load_panel(path)
    assert [(p.bull, p.bear) for p in panel.pairings] == [
        ("rates_up", "rates_down"),
        ("flows_in", "flows_out"),
    ]
    assert panel.agent("flows_out").modules == ("sentiment", "global_markets")
    assert panel.lenses["rates"].horizon.text("en") == "1 month to 1 year"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('["macro"]', '["news"]'), r"lenses.rates.modules: unknown module"),
        (lambda t: t.replace('["macro"]', "[]"), "non-empty list of KB modules"),
        (lambda t: t.replace('["1m", "1y"]', '["1y", "1m"]'), "1y is not shorter than 1m"),
        (lambda t: t.replace('["1m", "1y"]', '["1 month", "1y"]'), "not a duration"),
        (lambda t: t.replace('lens = "rates"', 'lens = "bonds"', 1), "'bonds' is not a lens"),
        (lambda t: t.replace('stance = "bear"', 'stance = "neutral"', 1), "bull or bear"),
        (lambda t: t.replace(', zh = "利率"', ""), r"lenses.rates.label needs .* zh"),
        (lambda t: t.replace("[agents.rates_up]", "[agents.Rates-Up]"), "lower-case letters"),
        (
            lambda t: (
                t + '\n[lenses.spare]\nmodules = ["indices"]\nhorizon = ["1d", "1w"]\n'
                'label = { en = "s", zh = "s" }\n'
            ),
            "spare have no agent",
        ),
        (lambda t: t.replace('stance = "bear"', 'stance = "bull"', 1), "lens rates has 2 bull"),
        (
            lambda t: t + '\n[[pairings]]\nagents = ["rates_up", "flows_out"]\n',
            "do not share a lens",
        ),
        (
            lambda t: t + '\n[[pairings]]\nagents = ["rates_up", "rates_down"]\n',
            r"flows_in, flows_out have no cross-examination partner",
        ),
        (
            lambda t: (
                t + '\n[[pairings]]\nagents = ["rates_up", "rates_down"]\n'
                '[[pairings]]\nagents = ["rates_down", "rates_up"]\n'
            ),
            "paired twice",
        ),
        (lambda t: t + '\n[[pairings]]\nagents = ["rates_up", "ghost"]\n', "unknown agent"),
        (
            lambda t: t.replace('horizon = ["1w"', 'window = 3\nhorizon = ["1w"'),
            r"lenses.flows has unknown key\(s\) window",
        ),
        (lambda t: t + "\n[judges]\n", r"the file has unknown key\(s\) judges"),
        (lambda t: t + "\n[lenses\n", "not valid TOML"),
    ],
)
def test_bad_panels_are_refused_with_the_key(tmp_path: Path, edit: Any, message: str) -> None:
    path = tmp_path / "panel.toml"
    path.write_text(edit(PANEL), encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_panel(path)


def test_same_stance_pair_is_refused(tmp_path: Path) -> None:
    text = PANEL.replace('stance = "bear"', 'stance = "bull"', 1)
    text += '\n[[pairings]]\nagents = ["rates_up", "rates_down"]\n'
    text += '[[pairings]]\nagents = ["flows_in", "flows_out"]\n'
    path = tmp_path / "panel.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="rates_up and rates_down are both bulls"):
        load_panel(path)


def test_unknown_agent_and_unreadable_file() -> None:
    with pytest.raises(ConfigError, match="no analyst 'ghost'"):
        load_panel().agent("ghost")
    with pytest.raises(ConfigError, match="cannot read analysts file"):
        load_panel("/nonexistent/panel.toml")


# --- slices -------------------------------------------------------------------------


def _fill(model: type[BaseModel], tag: str, counter: itertools.count[int]) -> dict[str, Any]:
    """Every field of ``model`` set to a value that occurs nowhere else in the KB."""
    data: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        annotation = field.annotation
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
            annotation = args[0]
        n = next(counter)
        origin = typing.get_origin(annotation)
        if annotation is str:
            data[name] = f"CANARY{tag}{n}"
        elif annotation is float:
            data[name] = 1000 + n + 0.5
        elif annotation is int:
            data[name] = 5000 + n
        elif annotation is dt.date:
            data[name] = (dt.date(2020, 1, 1) + dt.timedelta(days=n)).isoformat()
        elif origin is typing.Literal:
            data[name] = typing.get_args(annotation)[0]
        elif origin is dict:
            value_type = typing.get_args(annotation)[1]
            data[name] = {f"KEY{tag}{n}": _fill(value_type, tag, counter)}
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
            data[name] = _fill(annotation, tag, counter)
    return data


def canary_kb() -> tuple[KnowledgeBase, dict[str, set[str]]]:
    """A KB whose every key, name, number and date is unique to its module, and the
    tokens of each module as they appear in JSON."""
    counter = itertools.count(1)
    data: dict[str, Any] = {
        "meta": {"as_of": "2026-01-01", "source": "canary", "warnings": ["canary KB"]}
    }
    fields = KnowledgeBase.model_fields
    for module in MODULES:
        annotation = fields[module].annotation
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if typing.get_origin(annotation) is dict:
            entry = typing.get_args(annotation)[1]
            data[module] = {f"KEY{module}{next(counter)}": _fill(entry, module, counter)}
        else:
            data[module] = _fill(args[0], module, counter)
    kb = KnowledgeBase.model_validate(data)
    tokens: dict[str, set[str]] = {}
    for module in MODULES:
        found: set[str] = set()

        def collect(value: Any, found: set[str] = found) -> None:
            if isinstance(value, dict):
                for key, item in value.items():
                    if key.startswith("KEY"):
                        found.add(key)
                    collect(item)
            elif isinstance(value, str) and (value.startswith("CANARY") or value[:2] == "20"):
                found.add(value)
            elif isinstance(value, int | float) and not isinstance(value, bool):
                found.add(json.dumps(value))

        collect(data[module])
        tokens[module] = found
    return kb, tokens


def test_canary_kb_fills_every_field() -> None:
    kb, tokens = canary_kb()
    assert kb.present_modules() == MODULES
    text = dump_kb(kb)
    assert "null" not in text  # no field left unset
    for module in MODULES:
        assert len(tokens[module]) >= 3
    assert sum(len(t) for t in tokens.values()) == len(set().union(*tokens.values()))


def test_every_agent_sees_exactly_its_slice() -> None:
    kb, tokens = canary_kb()
    panel = load_panel()
    for agent in panel.agents.values():
        text = render_slice(agent_slice(kb, agent))
        for module in MODULES:
            for token in tokens[module]:
                if module in agent.modules:
                    assert token in text, (agent.id, module, token)
                else:
                    assert token not in text, f"{agent.id} sees {token} from {module}"
        assert set(json.loads(text)) == {"meta", *agent.modules}


def test_slice_keeps_the_synthetic_label_and_is_compact() -> None:
    kb = demo_kb()
    panel = load_panel()
    for agent in panel.agents.values():
        text = render_slice(agent_slice(kb, agent))
        data = json.loads(text)
        assert data["meta"]["synthetic"] is True
        assert SYNTHETIC_WARNING in data["meta"]["warnings"]
        assert "\n" not in text
        assert '": ' not in text
        assert ', "' not in text
        assert "null" not in text
        assert len(text) < len(dump_kb(kb)) / 2  # a slice, compact: well under the whole KB


def test_slice_of_unknown_module_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown KB module"):
        slice_kb(demo_kb(), ["indices", "news"])
