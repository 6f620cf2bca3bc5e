"""The competitive format's options (``RunOptions.format_options``), checked before a
run: stage lengths, the rehearsal tree's size, which side uses which tree, the
similarity threshold and method, the Oxford vote's audience and where to write the
speeches' audio."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, cast

from moot.errors import ConfigError
from moot.files import check_output_dir
from moot.formats.competitive.trees import DEFAULT_THRESHOLD, STAGES, Stage
from moot.formats.competitive.trees.sides import SIDES, Side
from moot.formats.fields import FormatOption
from moot.validation import check_number

DEFAULT_SECONDS: Final[dict[Stage, float]] = {"opening": 240.0, "rebuttal": 240.0, "closing": 120.0}
MIN_SECONDS = 30.0
"""Shortest stage: the window is [T - 15 s, T + 1 s], so T must leave room below it."""
MAX_SECONDS = 900.0
MAX_CLAIMS = 5
MAX_BRANCHING = 5
MAX_DEPTH = 4
MAX_VOTERS = 15
Embedding = Literal["auto", "lexical"]


CONFIGS: Final[dict[str, tuple[bool, bool]]] = {
    "full": (True, True),
    "no-rehearsal": (False, True),
    "no-flow": (True, False),
    "baseline": (False, False),
}
"""A debater's configuration by name: (uses the rehearsal tree, uses the flow tree)."""


def stage_seconds(text: str) -> dict[str, float]:
    """``--stage-seconds``: ``240,240,120`` (opening, rebuttal, closing) or
    ``opening=200,closing=90``."""
    parts = [p.strip() for p in text.split(",")]
    try:
        if all("=" in p for p in parts):
            pairs = [p.split("=", 1) for p in parts]
            return {key.strip(): float(value) for key, value in pairs}
        if len(parts) == len(STAGES):
            return {stage: float(value) for stage, value in zip(STAGES, parts, strict=True)}
    except ValueError:
        pass
    raise ConfigError(
        f"--stage-seconds takes three numbers (opening,rebuttal,closing) or STAGE=SECONDS"
        f" pairs, not {text!r}"
    )


def _no_tree(key: str) -> Callable[[Any, dict[str, Any]], None]:
    def apply(value: Any, options: dict[str, Any]) -> None:
        options[key] = []

    return apply


def _baseline(side: Any, options: dict[str, Any]) -> None:
    """``--baseline SIDE``: that side debates without either tree."""
    if side not in SIDES:
        raise ConfigError(f"--baseline names a side: pro or con, not {side!r}")
    for key in ("rehearsal_tree", "flow_tree"):
        options[key] = [s for s in SIDES if s != side]


FIELDS: Final[tuple[FormatOption, ...]] = (
    FormatOption(
        "stage_seconds",
        "Competitive: seconds of the opening, rebuttal and closing speeches"
        " (default 240,240,120; or e.g. closing=90).",
        default=dict(DEFAULT_SECONDS),
        flag="--stage-seconds",
        parse=stage_seconds,
    ),
    FormatOption(
        "claims",
        "Claims each side prepares in its rehearsal tree.",
        type=int,
        default=3,
        integer=True,
        minimum=1,
        maximum=MAX_CLAIMS,
    ),
    FormatOption(
        "branching",
        "Competitive: rebuttals per node of the rehearsal tree (default 3).",
        type=int,
        default=3,
        flag="--branching",
        integer=True,
        minimum=1,
        maximum=MAX_BRANCHING,
    ),
    FormatOption(
        "depth",
        "Competitive: levels of rebuttal in the rehearsal tree (default 3).",
        type=int,
        default=3,
        flag="--depth",
        integer=True,
        minimum=0,
        maximum=MAX_DEPTH,
    ),
    FormatOption(
        None,
        "Competitive: this side (pro or con) debates without either tree, for a"
        " head-to-head against the other.",
        flag="--baseline",
        apply=_baseline,
    ),
    FormatOption(
        "rehearsal_tree",
        "Competitive: no debater prepares a rehearsal tree.",
        type=bool,
        default=list(SIDES),
        flag="--no-rehearsal-tree",
        apply=_no_tree("rehearsal_tree"),
    ),
    FormatOption(
        "flow_tree",
        "Competitive: no debater sees the flow tree and its legal moves (only the"
        " speeches and the claims' ids).",
        type=bool,
        default=list(SIDES),
        flag="--no-flow-tree",
        apply=_no_tree("flow_tree"),
    ),
    FormatOption(
        "similarity",
        "Similarity at which two claims count as the same.",
        type=float,
        default=DEFAULT_THRESHOLD,
        above=0.0,
        maximum=1.0,
    ),
    FormatOption("embedder", "How claims are compared: auto or lexical.", default="auto"),
    FormatOption(
        "voters",
        "The Oxford vote's audience.",
        type=int,
        default=5,
        integer=True,
        minimum=1,
        maximum=MAX_VOTERS,
    ),
    FormatOption(
        "audio_dir",
        "Competitive: write each speech as a WAV file into this directory.",
        type=Path,
        flag="--audio",
        parse=str,
        output=True,
    ),
)
"""The format's options and flags. ``--baseline`` comes before the ``--no-...-tree``
flags, so a side turned off for both debaters stays off."""


@dataclass(frozen=True)
class SideConfig:
    """What one debater uses: the rehearsal tree (prepared claims and their strength)
    and the flow tree (the debate's state and its legal moves, in its prompt)."""

    rehearsal_tree: bool
    flow_tree: bool

    @property
    def name(self) -> str:
        """``full``, ``no-rehearsal``, ``no-flow`` or ``baseline``."""
        return next(n for n, c in CONFIGS.items() if c == (self.rehearsal_tree, self.flow_tree))


@dataclass(frozen=True)
class CompetitiveOptions:
    """The checked options of one competitive debate."""

    stage_seconds: Mapping[Stage, float]
    claims: int = 3
    branching: int = 3
    depth: int = 3
    rehearsal_tree: tuple[Side, ...] = SIDES
    flow_tree: tuple[Side, ...] = SIDES
    similarity: float = DEFAULT_THRESHOLD
    embedder: Embedding = "auto"
    voters: int = 5
    audio_dir: str | None = None

    def side(self, side: Side, swapped: bool = False) -> SideConfig:
        """``side``'s configuration; in the swap rerun the configurations follow the
        debaters (models), which exchange stances."""
        source: Side = ("con" if side == "pro" else "pro") if swapped else side
        return SideConfig(source in self.rehearsal_tree, source in self.flow_tree)

    def as_json(self) -> dict[str, Any]:
        return {
            "stage_seconds": dict(self.stage_seconds),
            "claims": self.claims,
            "branching": self.branching,
            "depth": self.depth,
            "rehearsal_tree": list(self.rehearsal_tree),
            "flow_tree": list(self.flow_tree),
            "similarity": self.similarity,
            "embedder": self.embedder,
            "voters": self.voters,
            "audio_dir": self.audio_dir,
        }


def _whole(options: Mapping[str, Any], key: str, default: int) -> int:
    """A whole-number option (its bounds checked by its field), or its default."""
    value = options.get(key)
    return default if value is None else int(value)


def _sides(options: Mapping[str, Any], key: str) -> tuple[Side, ...]:
    value = options.get(key)
    if value is None:
        return SIDES
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise ConfigError(f"{key} must be a list of sides (pro, con), not {value!r}")
    unknown = [v for v in value if v not in SIDES]
    if unknown:
        raise ConfigError(f"{key} names sides pro and con only, not {unknown!r}")
    return tuple(s for s in SIDES if s in value)


def _stage_seconds(value: object) -> dict[Stage, float]:
    seconds = dict(DEFAULT_SECONDS)
    if value is None:
        return seconds
    if not isinstance(value, Mapping):
        raise ConfigError(f"stage_seconds must map stages to seconds, not {value!r}")
    for stage, given in value.items():
        if stage not in STAGES:
            raise ConfigError(f"stage_seconds: no stage {stage!r} (stages: {', '.join(STAGES)})")
        seconds[cast(Stage, stage)] = check_number(
            given, f"{stage} seconds", minimum=MIN_SECONDS, maximum=MAX_SECONDS
        )
    return seconds


def parse_options(options: Mapping[str, Any]) -> CompetitiveOptions:
    """The options as the format runs with them, once ``Format.check_options`` has
    checked the numbers against their fields; ``ConfigError`` names a bad one of the
    rest."""
    similarity = options.get("similarity")
    threshold = DEFAULT_THRESHOLD if similarity is None else float(similarity)
    embedder = options.get("embedder", "auto")
    if embedder not in ("auto", "lexical"):
        raise ConfigError(f"embedder must be auto or lexical, not {embedder!r}")
    audio = options.get("audio_dir")
    if audio is not None:
        if not isinstance(audio, str) or not audio.strip():
            raise ConfigError("audio_dir must be a directory path")
        check_output_dir(Path(audio), "--audio")
    return CompetitiveOptions(
        stage_seconds=_stage_seconds(options.get("stage_seconds")),
        claims=_whole(options, "claims", 3),
        branching=_whole(options, "branching", 3),
        depth=_whole(options, "depth", 3),
        rehearsal_tree=_sides(options, "rehearsal_tree"),
        flow_tree=_sides(options, "flow_tree"),
        similarity=threshold,
        embedder=cast(Embedding, embedder),
        voters=_whole(options, "voters", 5),
        audio_dir=audio,
    )
