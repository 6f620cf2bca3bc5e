"""The one options type of a run: what the Python API takes, what the command line
builds, what a stored run keeps and what a resume reads back.

Every option is declared here once, with its default; :meth:`RunOptions.validate`
checks them all before anything is stored or sent. Model options may be model specs
(``local``, ``openai:MODEL@URL#KEY_ENV``, ``scripted:demo``) or, from Python, ``Backend``
objects (a stored run needs specs).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from moot.errors import ConfigError
from moot.formats import DEFAULT_FORMAT
from moot.judging.profiles import TOPIC_TYPES, JudgeProfile
from moot.judging.rubric import Rubric
from moot.llm.backend import Backend
from moot.llm.cache import CachePolicy
from moot.profiles import PROFILES
from moot.schema import CalibrationMethod, TopicType
from moot.validation import check_number

ModelRef = str | Backend
MAX_SEED = 2**63 - 1
DEFAULT_CONCURRENCY = 4
"""The least calls in flight per endpoint when ``--concurrency`` is not given."""
_MODEL_FIELDS = ("model", "pro_model", "con_model", "judge_model")


@dataclass(frozen=True)
class RunOptions:
    """How to run a debate. ``sides`` names 2-6 positions (default: pro and con);
    ``format_options`` are the chosen format's own (checked by the format)."""

    format: str = DEFAULT_FORMAT
    sides: tuple[str, ...] = ()
    format_options: Mapping[str, Any] = field(default_factory=dict)
    """What only the chosen format reads, checked by it (free-form: ``rounds``)."""
    model: ModelRef | None = None
    pro_model: ModelRef | None = None
    con_model: ModelRef | None = None
    judge_model: ModelRef | None = None
    lang: str = "en"
    seed: int | None = None
    temperature: float = 0.3
    max_reasks: int = 2
    strict_rules: bool = False
    profile: str | None = None
    max_tokens: int | None = None
    max_cost: float | None = None
    cache: CachePolicy = "auto"
    concurrency: int | None = None
    """Most calls in flight per endpoint; None: enough for the format's widest round
    (at least :data:`DEFAULT_CONCURRENCY`), so every round runs as one wave."""
    timeout: float | None = None
    panel: tuple[str, ...] = ()
    panel_profiles: Mapping[str, JudgeProfile] = field(default_factory=dict)
    judge_models: tuple[str, ...] = ()
    judge_runs: int = 1
    panel_deliberate: int = 0
    """Rounds in which the panel's judges read each other's anonymised scores and
    reasons and may revise (``--panel-deliberate``; 0: independent judges only)."""
    calibration: CalibrationMethod = "zscore"
    topic_type: TopicType | None = None
    swap_sides: bool = False
    review_flags: bool = False
    """The detectors' model-assisted mode (``--review-flags``): the judge model
    confirms or rejects each candidate flag (``moot.judging.flag_review``)."""
    sources: tuple[str, ...] = ()
    """Documents (files or folders) the debaters argue from (``--sources``)."""

    def replace(self, **changes: Any) -> RunOptions:
        """These options with ``changes``; an unknown option is a ``ConfigError``."""
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise ConfigError(f"unknown option(s): {', '.join(unknown)}")
        for key in ("sides", "panel", "judge_models", "sources"):
            if key in changes and changes[key] is not None:
                changes[key] = tuple(changes[key])
        return dataclasses.replace(self, **changes)

    def validate(self) -> None:
        """Refuse, before anything is stored or sent, every option that cannot work:
        numbers that are not finite or out of range, unknown names, options that mean
        nothing without another one."""
        if self.lang not in ("en", "zh"):
            raise ConfigError(f"unsupported language {self.lang!r}; use en or zh")
        if self.seed is not None:
            check_number(self.seed, "--seed", minimum=0, maximum=MAX_SEED, integer=True)
        check_number(self.temperature, "--temperature", minimum=0.0, maximum=2.0)
        check_number(self.max_reasks, "--max-reasks", minimum=0, integer=True)
        if self.max_tokens is not None:
            check_number(self.max_tokens, "--max-tokens", minimum=1, integer=True)
        if self.max_cost is not None:
            check_number(self.max_cost, "--max-cost (US dollars)", above=0.0)
        if self.timeout is not None:
            check_number(self.timeout, "--timeout (seconds)", above=0.0)
        if self.concurrency is not None:
            check_number(self.concurrency, "--concurrency", minimum=1, integer=True)
        if self.cache not in ("auto", "on", "off"):
            raise ConfigError("cache must be auto, on or off")
        check_number(self.judge_runs, "--judge-runs", minimum=1, integer=True)
        check_number(
            self.panel_deliberate, "--panel-deliberate", minimum=0, maximum=3, integer=True
        )
        if self.calibration not in ("zscore", "minmax"):
            raise ConfigError("calibration must be zscore or minmax")
        if self.topic_type is not None and self.topic_type not in TOPIC_TYPES:
            raise ConfigError(f"topic type must be one of {', '.join(TOPIC_TYPES)}")
        if self.profile is not None and self.profile not in PROFILES:
            raise ConfigError(f"unknown profile {self.profile!r}; choose {', '.join(PROFILES)}")
        if not self.panel:
            for given, option in (
                (self.judge_runs > 1, "--judge-runs"),
                (self.panel_deliberate > 0, "--panel-deliberate"),
                (self.topic_type is not None, "--topic-type"),
                (bool(self.panel_profiles), "--panel-file (custom judge profiles)"),
                (bool(self.judge_models), "several judge models"),
            ):
                if given:
                    raise ConfigError(f"{option} needs a --panel (a panel of one judge is fine)")
        if self.sides and (self.pro_model is not None or self.con_model is not None):
            raise ConfigError(
                "--pro-model and --con-model name the sides of a pro/con debate;"
                " with --sides, give --model"
            )

    def as_json(self) -> dict[str, Any]:
        """The options as stored with a run (model options must be specs)."""
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in _MODEL_FIELDS and value is not None and not isinstance(value, str):
                raise ConfigError("a stored run needs model specs, not Backend objects")
            if f.name == "panel_profiles":
                value = {
                    name: {
                        "weights": dict(p.rubric.weights),
                        "relevance": dict(p.relevance),
                        "model": p.model,
                    }
                    for name, p in value.items()
                }
            elif isinstance(value, tuple):
                value = list(value)
            elif f.name == "format_options":
                value = dict(value)
            data[f.name] = value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunOptions:
        """Options as :meth:`as_json` stored them; ``ConfigError`` if they are damaged."""
        known = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        try:
            profiles = {
                name: JudgeProfile(
                    name,
                    Rubric(name, p["weights"]),
                    p.get("relevance", {}),
                    p.get("model"),
                )
                for name, p in cast(Mapping[str, Any], values.get("panel_profiles", {})).items()
            }
            values["panel_profiles"] = profiles
            for key in ("sides", "panel", "judge_models", "sources"):
                values[key] = tuple(values.get(key) or ())
            values["format_options"] = dict(values.get("format_options") or {})
            return cls(**values)
        except (TypeError, KeyError, AttributeError) as exc:
            raise ConfigError(f"stored options are damaged ({exc})") from exc
