"""The market format's options and what they load: the knowledge base, the analysts,
and whether to run the single-agent baseline.

Options (``RunOptions.format_options``):

- ``kb`` (required): a KB JSON file's path, ``"demo"`` (the synthetic demo KB), or
  the KB's JSON data itself (a mapping, e.g. ``kb_option(kb)``);
- ``analysts``: a TOML file of analysts (docs/market.md, "Analysts"), or its parsed
  tables (a mapping); default the built-in eight;
- ``baseline``: ``True`` to also ask one agent for a direction from the whole KB in one
  call (the backtest's baseline), in the first wave.

A run keeps the files' content, not their paths (:func:`stored_options`), so it
resumes without them, from any directory, on the data it started with. Every problem
is a ``ConfigError`` (a ``DataError`` for a bad KB) raised before anything is stored
or sent.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from moot.errors import ConfigError
from moot.formats.fields import FormatOption
from moot.formats.market.data.analysts import (
    Agent,
    AnalystPanel,
    load_panel,
    parse_panel,
    read_panel_tables,
)
from moot.formats.market.data.kb import KnowledgeBase, dump_kb, parse_kb
from moot.formats.market.data.slices import agent_slice
from moot.formats.market.data.sources import load_kb

FIELDS: Final = (
    FormatOption(
        "kb",
        "Knowledge base of the market format: a KB JSON file, or demo (synthetic).",
        flag="--kb",
    ),
    FormatOption(
        "analysts",
        "TOML file of the market format's analysts (default: the eight).",
        type=Path,
        flag="--analysts",
        parse=str,
    ),
    FormatOption(
        "baseline",
        "Also ask a single agent given the same data for its direction (true or false).",
        type=bool,
        default=False,
    ),
)
"""The market format's options."""
MAX_ID = 16
"""The longest argument id a judge reply may carry."""


@dataclass(frozen=True)
class MarketInputs:
    """What a market debate argues from."""

    kb: KnowledgeBase
    panel: AnalystPanel
    baseline: bool

    @property
    def agents(self) -> list[Agent]:
        """The analysts, in the order of their file."""
        return list(self.panel.agents.values())


def kb_option(kb: KnowledgeBase) -> dict[str, Any]:
    """A KB as the ``kb`` option's JSON data (for Python callers holding a KB)."""
    data: dict[str, Any] = json.loads(dump_kb(kb))
    return data


def _kb(value: Any) -> KnowledgeBase:
    if value is None:
        raise ConfigError("the market format needs a knowledge base: --kb PATH or --kb demo")
    if isinstance(value, str | os.PathLike):
        return load_kb(os.fspath(value))
    if isinstance(value, Mapping):
        return parse_kb(dict(value), source="the kb option")
    raise ConfigError(
        f"the kb option is a path, 'demo' or a KB's JSON data, not {type(value).__name__}"
    )


def analysts_of(options: Mapping[str, Any]) -> AnalystPanel:
    """The analysts the options name (the built-in eight when they name none)."""
    return _panel(options.get("analysts"))


def _panel(value: Any) -> AnalystPanel:
    if value is None:
        return load_panel(None)
    if isinstance(value, str | os.PathLike):
        return load_panel(os.fspath(value))
    if isinstance(value, Mapping):
        return parse_panel(value, "the analysts option")
    raise ConfigError(
        f"the analysts option is a TOML file's path or its tables, not {type(value).__name__}"
    )


def stored_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with the KB file read into its JSON data (``demo`` stays ``demo``:
    it is generated the same everywhere) and the analysts file into its tables."""
    stored = dict(options)
    kb = stored.get("kb")
    if isinstance(kb, str | os.PathLike) and os.fspath(kb) != "demo":
        stored["kb"] = kb_option(load_kb(os.fspath(kb)))
    analysts = stored.get("analysts")
    if isinstance(analysts, str | os.PathLike):
        stored["analysts"] = read_panel_tables(os.fspath(analysts))
    return stored


def read_inputs(options: Mapping[str, Any]) -> MarketInputs:
    """Load and check the format's options (see the module docstring)."""
    baseline = options.get("baseline", False)
    if not isinstance(baseline, bool):
        raise ConfigError("the baseline option is true or false")
    return MarketInputs(_kb(options.get("kb")), analysts_of(options), baseline)


def empty_slices(inputs: MarketInputs) -> tuple[list[str], list[str]]:
    """Analysts whose slice holds no data at all, and notes on analysts that miss some
    of their modules in this KB."""
    empty: list[str] = []
    notes: list[str] = []
    present = set(inputs.kb.present_modules())
    for agent in inputs.agents:
        missing = [m for m in agent.modules if m not in present]
        if len(missing) == len(agent.modules):
            empty.append(agent.id)
        elif missing:
            notes.append(
                f"analyst {agent.id}: the KB has no {', '.join(missing)}; it argues from"
                f" {', '.join(m for m in agent.modules if m in present)} only"
            )
    return empty, notes


def role_of(agent: Agent) -> str:
    """The role an analyst's calls run as: ``bull:tech_bull``."""
    return f"{agent.stance}:{agent.id}"


def argument_id(agent: Agent, index: int, n: int) -> str:
    """The id of an analyst's ``n``-th argument: ``TECH_BULL-2``; ``A3-2`` for the
    third analyst when its id is too long for a judge reply's id field."""
    ident = f"{agent.id.upper()}-{n}"
    return ident if len(ident) <= MAX_ID else f"A{index}-{n}"


def slice_of(inputs: MarketInputs, agent: Agent) -> KnowledgeBase:
    return agent_slice(inputs.kb, agent)
