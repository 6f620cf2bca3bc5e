"""The analysts of the market format as configuration: lenses, agents and
cross-examination pairings, read from TOML and validated into typed objects.

The built-in panel (``data/analysts.toml``) is the eight agents of the market
format: technical, fundamental, macro and sentiment lenses, each with a bull and a
bear. ``load_panel(path)`` reads a user's own file in the same format (documented
in docs/market.md); every problem is a ``ConfigError`` naming the file and the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal, cast

from moot.errors import ConfigError
from moot.files import read_config_text
from moot.formats.market.data.kb import MODULES, Module
from moot.formats.market.data.words import HORIZON_AMOUNT, HORIZON_RANGE, HORIZON_UNITS, LANGS
from moot.safe_json import toml_loads

Stance = Literal["bull", "bear"]
STANCES: Final = ("bull", "bear")
_DURATION = re.compile(r"(?P<n>[1-9]\d{0,3})(?P<unit>[dwmy])")
_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
_DAYS = {"d": 1, "w": 7, "m": 30, "y": 365}


@dataclass(frozen=True)
class Duration:
    """An amount of days, weeks, months or years, e.g. ``2w``."""

    amount: int
    unit: Literal["d", "w", "m", "y"]

    @property
    def days(self) -> int:
        """Approximate length in calendar days (a month is 30, a year 365)."""
        return self.amount * _DAYS[self.unit]

    def text(self, lang: str) -> str:
        singular, plural = HORIZON_UNITS[lang][self.unit]
        return HORIZON_AMOUNT[lang].format(
            n=self.amount, unit=singular if self.amount == 1 else plural
        )


@dataclass(frozen=True)
class Horizon:
    """The time span a lens argues over."""

    shortest: Duration
    longest: Duration

    def text(self, lang: str) -> str:
        """E.g. "1 day to 2 weeks" / "1 天至2 周"."""
        return HORIZON_RANGE[lang].format(
            low=self.shortest.text(lang), high=self.longest.text(lang)
        )


@dataclass(frozen=True)
class Lens:
    """An analytical lens: the KB modules its agents see and its horizon."""

    name: str
    modules: tuple[Module, ...]
    horizon: Horizon
    label: Mapping[str, str]


@dataclass(frozen=True)
class Agent:
    """One analyst: a lens and a stance, with the focus of its analysis per language."""

    id: str
    lens: Lens
    stance: Stance
    focus: Mapping[str, str]

    @property
    def modules(self) -> tuple[Module, ...]:
        """The KB modules this agent may see: its slice."""
        return self.lens.modules


@dataclass(frozen=True)
class Pairing:
    """Two agents of one lens and opposite stances who cross-examine each other."""

    bull: str
    bear: str


@dataclass(frozen=True)
class AnalystPanel:
    """Lenses, agents (in file order) and pairings, all cross-checked."""

    lenses: Mapping[str, Lens]
    agents: Mapping[str, Agent]
    pairings: tuple[Pairing, ...]

    def agent(self, agent_id: str) -> Agent:
        try:
            return self.agents[agent_id]
        except KeyError:
            raise ConfigError(f"no analyst {agent_id!r}; known: {', '.join(self.agents)}") from None

    def opponents(self, agent_id: str) -> tuple[str, ...]:
        """The agents that ``agent_id`` cross-examines (and is cross-examined by)."""
        self.agent(agent_id)
        return tuple(
            p.bear if p.bull == agent_id else p.bull
            for p in self.pairings
            if agent_id in (p.bull, p.bear)
        )


def _fail(source: str, message: str) -> ConfigError:
    return ConfigError(f"{source}: {message}")


def _table(value: Any, source: str, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(source, f"{where} must be a table")
    return value


def _only(table: Mapping[str, Any], allowed: set[str], source: str, where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise _fail(
            source,
            f"{where} has unknown key(s) {', '.join(unknown)};"
            f" allowed: {', '.join(sorted(allowed))}",
        )


def _texts(value: Any, source: str, where: str) -> dict[str, str]:
    table = _table(value, source, where)
    _only(table, set(LANGS), source, where)
    missing = [
        lang for lang in LANGS if not isinstance(table.get(lang), str) or not table[lang].strip()
    ]
    if missing:
        raise _fail(source, f"{where} needs a non-empty text for {', '.join(missing)}")
    return {lang: table[lang].strip() for lang in LANGS}


def _duration(value: Any, source: str, where: str) -> Duration:
    match = _DURATION.fullmatch(value) if isinstance(value, str) else None
    if not match:
        raise _fail(source, f"{where}: {value!r} is not a duration like 1d, 2w, 3m or 1y")
    return Duration(int(match.group("n")), cast(Literal["d", "w", "m", "y"], match.group("unit")))


def _lens(name: str, value: Any, source: str) -> Lens:
    where = f"lenses.{name}"
    table = _table(value, source, where)
    _only(table, {"modules", "horizon", "label"}, source, where)
    modules = table.get("modules")
    if not isinstance(modules, list) or not modules:
        raise _fail(source, f"{where}.modules must be a non-empty list of KB modules")
    bad = [m for m in modules if m not in MODULES]
    if bad:
        raise _fail(
            source, f"{where}.modules: unknown module(s) {bad}; known: {', '.join(MODULES)}"
        )
    if len(set(modules)) != len(modules):
        raise _fail(source, f"{where}.modules lists a module twice")
    horizon = table.get("horizon")
    if not isinstance(horizon, list) or len(horizon) != 2:
        raise _fail(source, f'{where}.horizon must be [shortest, longest], e.g. ["1d", "2w"]')
    shortest = _duration(horizon[0], source, f"{where}.horizon")
    longest = _duration(horizon[1], source, f"{where}.horizon")
    if shortest.days >= longest.days:
        raise _fail(source, f"{where}.horizon: {horizon[0]} is not shorter than {horizon[1]}")
    return Lens(
        name,
        tuple(cast(Module, m) for m in modules),
        Horizon(shortest, longest),
        _texts(table.get("label"), source, f"{where}.label"),
    )


def _agent(agent_id: str, value: Any, lenses: Mapping[str, Lens], source: str) -> Agent:
    where = f"agents.{agent_id}"
    if not _ID.fullmatch(agent_id):
        raise _fail(source, f"{where}: an id is lower-case letters, digits and _ (at most 40)")
    table = _table(value, source, where)
    _only(table, {"lens", "stance", "focus"}, source, where)
    lens = table.get("lens")
    if not isinstance(lens, str) or lens not in lenses:
        raise _fail(source, f"{where}.lens {lens!r} is not a lens; known: {', '.join(lenses)}")
    stance = table.get("stance")
    if stance not in STANCES:
        raise _fail(source, f"{where}.stance must be bull or bear, got {stance!r}")
    return Agent(
        agent_id,
        lenses[lens],
        cast(Stance, stance),
        _texts(table.get("focus"), source, f"{where}.focus"),
    )


def _pairings(value: Any, agents: Mapping[str, Agent], source: str) -> tuple[Pairing, ...]:
    if value is None:  # each lens's bull with its bear
        pairs = []
        for lens in dict.fromkeys(a.lens.name for a in agents.values()):
            members = [a for a in agents.values() if a.lens.name == lens]
            bulls = [a.id for a in members if a.stance == "bull"]
            bears = [a.id for a in members if a.stance == "bear"]
            if len(bulls) != 1 or len(bears) != 1:
                raise _fail(
                    source,
                    f"lens {lens} has {len(bulls)} bull(s) and {len(bears)} bear(s); without"
                    " [[pairings]] every lens needs exactly one of each",
                )
            pairs.append(Pairing(bulls[0], bears[0]))
        return tuple(pairs)
    if not isinstance(value, list) or not value:
        raise _fail(source, "pairings must be a non-empty list of [[pairings]] tables")
    pairs = []
    for i, item in enumerate(value):
        where = f"pairings[{i}]"
        table = _table(item, source, where)
        _only(table, {"agents"}, source, where)
        ids = table.get("agents")
        if not isinstance(ids, list) or len(ids) != 2 or not all(isinstance(x, str) for x in ids):
            raise _fail(source, f"{where}.agents must name two agents")
        unknown = [x for x in ids if x not in agents]
        if unknown:
            raise _fail(source, f"{where}: unknown agent(s) {', '.join(unknown)}")
        a, b = (agents[x] for x in ids)
        if a.lens.name != b.lens.name:
            raise _fail(
                source,
                f"{where}: {a.id} ({a.lens.name}) and {b.id} ({b.lens.name}) do not share a"
                " lens; a pair must argue from the same slice",
            )
        if a.stance == b.stance:
            raise _fail(source, f"{where}: {a.id} and {b.id} are both {a.stance}s")
        bull, bear = (a, b) if a.stance == "bull" else (b, a)
        pair = Pairing(bull.id, bear.id)
        if pair in pairs:
            raise _fail(source, f"{where}: {bull.id} and {bear.id} are paired twice")
        pairs.append(pair)
    paired = {x for p in pairs for x in (p.bull, p.bear)}
    lonely = [x for x in agents if x not in paired]
    if lonely:
        raise _fail(source, f"agent(s) {', '.join(lonely)} have no cross-examination partner")
    return tuple(pairs)


def parse_panel(data: Mapping[str, Any], source: str = "analysts") -> AnalystPanel:
    """An analyst panel from parsed TOML (see docs/market.md, "Analysts")."""
    _only(data, {"lenses", "agents", "pairings"}, source, "the file")
    lens_tables = _table(data.get("lenses"), source, "lenses")
    agent_tables = _table(data.get("agents"), source, "agents")
    if not lens_tables or not agent_tables:
        raise _fail(source, "needs at least one [lenses.NAME] and one [agents.ID]")
    lenses = {name: _lens(name, value, source) for name, value in lens_tables.items()}
    agents = {aid: _agent(aid, value, lenses, source) for aid, value in agent_tables.items()}
    unused = [name for name in lenses if not any(a.lens.name == name for a in agents.values())]
    if unused:
        raise _fail(source, f"lens(es) {', '.join(unused)} have no agent")
    return AnalystPanel(lenses, agents, _pairings(data.get("pairings"), agents, source))


def read_panel_tables(path: str | Path | None = None) -> dict[str, Any]:
    """The tables of an analysts TOML file (the built-in one for ``None``), unchecked:
    :func:`parse_panel` checks them."""
    if path is None:
        text = (
            resources.files("moot.formats.market.data").joinpath("analysts.toml").read_text("utf-8")
        )
        source = "built-in analysts.toml"
    else:
        text = read_config_text(Path(path), "analysts file")
        source = str(path)
    return toml_loads(text, source)


def load_panel(path: str | Path | None = None) -> AnalystPanel:
    """The analyst panel in a TOML file, or the built-in eight analysts for ``None``."""
    source = "built-in analysts.toml" if path is None else str(path)
    return parse_panel(read_panel_tables(path), source)
