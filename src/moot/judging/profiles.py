"""Judge profiles: differentiated judges, each with its own dimension weights and its
relevance to each type of topic.

Built in: ``technical``, ``business``, ``risk`` and ``general``. Custom profiles come
from a TOML file::

    [judges.security]
    logic = 0.25
    evidence = 0.35
    responsiveness = 0.15
    honesty = 0.25
    model = "openai:gpt-4o"          # optional: this judge's model
    [judges.security.relevance]      # optional: 0..1 per topic type (default 0.7)
    technical = 1.0
    risk = 0.9
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

from moot.errors import ConfigError
from moot.files import read_config_text
from moot.judging.rubric import DIMENSIONS, Rubric
from moot.safe_json import toml_loads
from moot.schema import TopicType
from moot.validation import NAME, check_name, check_number

TOPIC_TYPES: tuple[str, ...] = get_args(TopicType)
DEFAULT_RELEVANCE = 0.7
NAME_RULE = "use letters, digits, '_' or '-', starting with a letter or digit (max 32)"


@dataclass(frozen=True)
class JudgeProfile:
    """A judge: name, rubric, relevance per topic type and an optional model spec."""

    name: str
    rubric: Rubric
    relevance: Mapping[str, float] = field(default_factory=dict)
    model: str | None = None

    def relevance_to(self, topic_type: str) -> float:
        return float(self.relevance.get(topic_type, DEFAULT_RELEVANCE))


def _profile(
    name: str, weights: tuple[float, float, float, float], **relevance: float
) -> JudgeProfile:
    return JudgeProfile(name, Rubric(name, dict(zip(DIMENSIONS, weights, strict=True))), relevance)


# The four built-in judges' weights; relevance: a judge is most relevant to its own kind of
# topic, the general judge a little less to every kind, the others least.
BUILTIN: dict[str, JudgeProfile] = {
    p.name: p
    for p in (
        _profile(
            "technical",
            (0.40, 0.35, 0.15, 0.10),
            technical=1.0,
            business=0.5,
            risk=0.6,
            general=0.7,
        ),
        _profile(
            "business", (0.20, 0.40, 0.20, 0.20), technical=0.5, business=1.0, risk=0.7, general=0.7
        ),
        _profile(
            "risk", (0.15, 0.20, 0.35, 0.30), technical=0.6, business=0.7, risk=1.0, general=0.7
        ),
        _profile(
            "general", (0.30, 0.30, 0.25, 0.15), technical=0.8, business=0.8, risk=0.8, general=1.0
        ),
    )
}


def load_profiles(path: Path) -> dict[str, JudgeProfile]:
    """Custom judge profiles from a TOML file (see the module docstring). Every name,
    weight and relevance is checked: ``ConfigError`` names the file and the entry."""
    text = read_config_text(path, "the judge profile file")
    data = toml_loads(text, f"the judge profile file {path}")
    judges = data.get("judges")
    if not isinstance(judges, dict) or not judges:
        raise ConfigError(f"{path}: no [judges.NAME] tables")
    profiles: dict[str, JudgeProfile] = {}
    for name, table in judges.items():
        check_name(name, NAME, f"judge name in {path}", NAME_RULE)
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: judges.{name} must be a table")
        unknown = sorted(set(table) - {*DIMENSIONS, "relevance", "model"})
        if unknown:
            raise ConfigError(
                f"{path}: judges.{name} has unknown keys {', '.join(unknown)}; expected"
                f" {', '.join(DIMENSIONS)}, relevance and model"
            )
        missing = [d for d in DIMENSIONS if d not in table]
        if missing:
            raise ConfigError(f"{path}: judges.{name} needs numeric {', '.join(DIMENSIONS)}")
        weights = {
            d: check_number(table[d], f"{path}: judges.{name}.{d}", minimum=0.0) for d in DIMENSIONS
        }
        relevance = table.get("relevance", {})
        if not isinstance(relevance, dict) or not set(relevance) <= set(TOPIC_TYPES):
            raise ConfigError(
                f"{path}: judges.{name}.relevance maps {', '.join(TOPIC_TYPES)} to 0..1"
            )
        relevance = {
            k: check_number(v, f"{path}: judges.{name}.relevance.{k}", minimum=0.0, maximum=1.0)
            for k, v in relevance.items()
        }
        model = table.get("model")
        if model is not None and not isinstance(model, str):
            raise ConfigError(f"{path}: judges.{name}.model must be a model spec string")
        try:
            rubric = Rubric(name, weights)
        except ConfigError as exc:
            raise ConfigError(f"{path}: {exc}") from exc
        profiles[name] = JudgeProfile(name, rubric, relevance, model)
    return profiles


def select_profiles(
    names: Sequence[str], custom: Mapping[str, JudgeProfile] | None = None
) -> list[JudgeProfile]:
    """The profiles named by ``--panel`` (custom ones shadow built-ins)."""
    available = {**BUILTIN, **(custom or {})}
    for name in names:
        check_name(name, NAME, "judge name", NAME_RULE)
    if not names:
        raise ConfigError("the panel needs at least one judge")
    if len(set(names)) != len(names):
        raise ConfigError("a judge is named twice in the panel")
    missing = [n for n in names if n not in available]
    if missing:
        raise ConfigError(
            f"unknown judge profile(s) {', '.join(missing)}; known: {', '.join(sorted(available))}"
        )
    return [available[n] for n in names]


def assign_models(
    profiles: Sequence[JudgeProfile], judge_models: Sequence[str], default: str | None
) -> dict[str, str | None]:
    """Each judge's model spec, or ``None`` where nothing names one (the caller's
    default judge model then applies). ``judge_models`` entries are ``NAME=SPEC``
    (that judge) or ``SPEC``: one plain spec serves every judge, or one per judge in
    panel order. A profile's own ``model`` applies when nothing else names that judge."""
    names = {p.name for p in profiles}
    named: dict[str, str] = {}
    plain: list[str] = []
    for entry in judge_models:
        name, sep, spec = entry.partition("=")
        if sep and ":" not in name:
            if name not in names:
                raise ConfigError(f"--judge-model {entry!r}: no judge {name!r} in the panel")
            named[name] = spec
        else:
            plain.append(entry)
    if len(plain) not in (0, 1, len(profiles)):
        raise ConfigError(
            f"{len(plain)} --judge-model values for {len(profiles)} judges: give one for all,"
            " one per judge, or NAME=SPEC"
        )
    models: dict[str, str | None] = {}
    for n, profile in enumerate(profiles):
        if profile.name in named:
            models[profile.name] = named[profile.name]
        elif len(plain) == len(profiles) and len(plain) > 1:
            models[profile.name] = plain[n]
        elif plain:
            models[profile.name] = plain[0]
        else:
            models[profile.name] = profile.model or default
    return models
