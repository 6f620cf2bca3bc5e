"""Format options from the command line: the named flags of the formats (``--rounds``,
the competitive format's ``--stage-seconds`` ... ``--audio``) and the generic
``--format-option KEY=VALUE``, mapped into ``RunOptions.format_options``. Only the
options given are set, so a format that has no such option refuses it by name
(``Format.check_options``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from moot.errors import ConfigError
from moot.formats.competitive.trees import STAGES
from moot.formats.competitive.trees.sides import SIDES
from moot.safe_json import MAX_DEPTH


def stage_seconds(text: str) -> dict[str, float]:
    """``240,240,120`` (opening, rebuttal, closing) or ``opening=200,closing=90``."""
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


def generic(items: Sequence[str]) -> dict[str, Any]:
    """``--format-option KEY=VALUE``: the value as JSON (``2``, ``0.85``, ``true``,
    ``["pro"]``), else as text."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--format-option takes KEY=VALUE, not {item!r}")
        try:
            options[key] = json.loads(value)
        except RecursionError as exc:
            raise ConfigError(
                f"--format-option {key}: nested deeper than {MAX_DEPTH} levels"
            ) from exc
        except ValueError:
            options[key] = value
    return options


def format_options(
    *,
    rounds: int | None = None,
    seconds: str | None = None,
    branching: int | None = None,
    depth: int | None = None,
    no_rehearsal_tree: bool = False,
    no_flow_tree: bool = False,
    baseline: str | None = None,
    audio: Path | None = None,
    kb: str | None = None,
    analysts: Path | None = None,
    extra: Sequence[str] = (),
) -> dict[str, Any]:
    """The format options the flags given ask for."""
    options = generic(extra)
    named: dict[str, Any] = {"rounds": rounds, "branching": branching, "depth": depth, "kb": kb}
    if analysts is not None:
        named["analysts"] = str(analysts)
    options.update({k: v for k, v in named.items() if v is not None})
    if seconds is not None:
        options["stage_seconds"] = stage_seconds(seconds)
    if baseline is not None and baseline not in SIDES:
        raise ConfigError(f"--baseline names a side: pro or con, not {baseline!r}")
    if no_rehearsal_tree or baseline is not None:
        on = not no_rehearsal_tree
        options["rehearsal_tree"] = [s for s in SIDES if on and s != baseline]
    if no_flow_tree or baseline is not None:
        on = not no_flow_tree
        options["flow_tree"] = [s for s in SIDES if on and s != baseline]
    if audio is not None:
        options["audio_dir"] = str(audio)
    return options
