"""A batch plan: a named grid of debates, read from TOML or JSONL, refused whole (exit
2, naming the file) before anything runs when a key is unknown, a value has the wrong
type, an option is not a run option, or the grid is larger than :data:`MAX_DEBATES`.

TOML (one grid)::

    name = "pricing-grid"                 # letters, digits, '.', '_', '-'; max 40
    topics = ["Should we raise prices?"]  # required
    formats = ["structured", "freeform"]  # default: the default format
    models = ["scripted:demo"]            # default: the run default (the embedded model)
    seeds = [1, 2, 3]                     # default: [1]
    options = [{}, {judge_runs = 3}]      # run options (RunOptions fields), one
                                          # configuration each; default: [{}]

JSONL: one grid per line with the same keys (a single value may stand for a list of
one); ``name`` on any line (all lines that give one agree), else the file's stem.

Every debate of the grid (topics x formats x models x seeds x options) has an id made
of the name and a hash of what it runs, so a resumed batch finds its debates again
whatever order the plan lists them in.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from moot.debate import plan_run
from moot.errors import ConfigError
from moot.formats import DEFAULT_FORMAT
from moot.options import RunOptions

MAX_DEBATES = 10_000
"""The largest grid a plan may make; a larger one is refused before anything runs."""
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")
KEYS = frozenset({"name", "topics", "formats", "models", "seeds", "options"})
#: the options the grid's own keys set (an ``options`` entry may not set them too)
GRID_OPTIONS = frozenset({"format", "model", "seed"})


@dataclass(frozen=True)
class Item:
    """One debate of a batch."""

    id: str
    topic: str
    format: str
    model: str | None
    seed: int | None
    options: Mapping[str, Any] = field(default_factory=dict)
    """Run options (:class:`RunOptions` fields, as :meth:`RunOptions.as_json` writes
    them) beside format, model and seed."""

    @classmethod
    def of(cls, debate_id: str, topic: str, options: RunOptions) -> Item:
        """The debate ``debate_id`` of ``topic`` under ``options`` (model options must
        be specs: a task on another machine rebuilds them), for a command that makes
        its own debates (a tournament, a backtest) and runs them on the batch engine."""
        if options.model is not None and not isinstance(options.model, str):
            raise ConfigError("a batch runs model specs, not Backend objects")
        default = RunOptions().as_json()
        changed = {
            k: v for k, v in options.as_json().items() if k not in GRID_OPTIONS and v != default[k]
        }
        return cls(debate_id, topic, options.format, options.model, options.seed, changed)

    @property
    def configuration(self) -> str:
        """What the summary groups by: format, model and options (not topic, not seed)."""
        opts = json.dumps(dict(self.options), sort_keys=True, ensure_ascii=False)
        return f"{self.format} | {self.model or 'default'} | {opts}"

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "topic": self.topic,
            "format": self.format,
            "model": self.model,
            "seed": self.seed,
            "options": dict(self.options),
        }

    def run_options(self) -> RunOptions:
        changes: dict[str, Any] = {"format": self.format, "seed": self.seed, **self.options}
        if self.model is not None:
            changes["model"] = self.model
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(RunOptions)})
        if unknown:
            raise ConfigError(f"unknown option(s): {', '.join(unknown)}")
        return RunOptions.from_json({**RunOptions().as_json(), **changes})


@dataclass(frozen=True)
class Plan:
    """A batch: its name and its debates, in the plan's order."""

    name: str
    items: tuple[Item, ...]


def load_plan(path: Path) -> Plan:
    """The plan in ``path`` (``.toml`` or ``.jsonl``), checked whole (see the module)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the batch plan {path}: {exc}") from None
    grids: list[tuple[str, Mapping[str, Any]]] = []
    if path.suffix.lower() == ".toml":
        try:
            grids.append(("", tomllib.loads(text)))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"the batch plan {path} is not valid TOML: {exc}") from None
    elif path.suffix.lower() == ".jsonl":
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                grid = json.loads(line)
            except ValueError as exc:
                raise ConfigError(f"{path}:{number}: not JSON ({exc})") from None
            if not isinstance(grid, dict):
                raise ConfigError(f"{path}:{number}: a plan line must be a JSON object")
            grids.append((f":{number}", grid))
    else:
        raise ConfigError(f"the batch plan {path} must be a .toml or .jsonl file")
    if not grids:
        raise ConfigError(f"the batch plan {path} has no grid")
    return _plan(path, grids)


def _plan(path: Path, grids: Sequence[tuple[str, Mapping[str, Any]]]) -> Plan:
    names = {str(g["name"]) for _, g in grids if "name" in g}
    if len(names) > 1:
        raise ConfigError(f"{path}: the lines name different batches: {', '.join(sorted(names))}")
    name = names.pop() if names else path.stem
    if not NAME.match(name):
        raise ConfigError(
            f"{path}: the batch name {name!r} must be letters, digits, '.', '_' or '-'"
            " (max 40), starting with a letter or digit"
        )
    size = 0
    items: dict[str, Item] = {}
    for where, grid in grids:
        unknown = sorted(set(grid) - KEYS)
        if unknown:
            raise ConfigError(
                f"{path}{where}: unknown key(s) {', '.join(unknown)}; a plan has"
                f" {', '.join(sorted(KEYS))}"
            )
        axes = _axes(f"{path}{where}", grid)
        size += len(list(itertools.product(*axes)))
        if size > MAX_DEBATES:
            raise ConfigError(
                f"{path}: the grid has more than {MAX_DEBATES} debates; split the plan"
            )
        for topic, fmt, model, seed, options in itertools.product(*axes):
            item = _item(name, topic, fmt, model, seed, options)
            items.setdefault(item.id, item)
    checked: set[str] = set()
    for item in items.values():
        if item.configuration in checked:
            continue
        checked.add(item.configuration)
        try:
            plan_run(item.topic, item.run_options())  # every option, as a run checks them
        except ConfigError as exc:
            raise ConfigError(f"{path}: {exc}") from None
    return Plan(name, tuple(items.values()))


def _listed(
    where: str, grid: Mapping[str, Any], key: str, kind: type, default: list[Any]
) -> list[Any]:
    value = grid.get(key, default)
    values = value if isinstance(value, list) else [value]
    if not values:
        raise ConfigError(f"{where}: {key} is empty")
    for v in values:
        if not isinstance(v, kind) or isinstance(v, bool):
            raise ConfigError(f"{where}: every one of {key} must be a {kind.__name__}, not {v!r}")
    return values


def _axes(where: str, grid: Mapping[str, Any]) -> list[list[Any]]:
    if "topics" not in grid:
        raise ConfigError(f"{where}: topics is required")
    options = _listed(where, grid, "options", dict, [{}])
    for entry in options:
        clash = sorted(set(entry) & GRID_OPTIONS)
        if clash:
            raise ConfigError(
                f"{where}: options may not set {', '.join(clash)}: use formats, models, seeds"
            )
    return [
        _listed(where, grid, "topics", str, []),
        _listed(where, grid, "formats", str, [DEFAULT_FORMAT]),
        _listed(where, grid, "models", str, [""]),
        _listed(where, grid, "seeds", int, [1]),
        options,
    ]


def item_id(name: str, what: Any) -> str:
    """A debate's id in the batch ``name``: the name and a hash of ``what`` it runs
    (JSON), so a rerun finds it again whatever order the debates come in."""
    text = json.dumps(what, sort_keys=True, ensure_ascii=False).encode()
    return f"{name}-{hashlib.sha256(text).hexdigest()[:12]}"


def _item(
    name: str, topic: str, fmt: str, model: str, seed: int, options: Mapping[str, Any]
) -> Item:
    debate_id = item_id(name, [topic, fmt, model, seed, options])
    return Item(debate_id, topic, fmt, model or None, seed, dict(options))
