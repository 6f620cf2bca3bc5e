"""Judge calibration against debates whose right answer is known (``moot calibrate``).

Each line of a JSONL file is ``{"topic": "...", "correct": "pro" | "con"}`` (optionally
``"lang"``). The topic is debated and judged by the panel; a judge *hits* when its
own totals favour the correct side. Hits are recorded in the store's judge history,
per judge profile and model, and become the judge's historical accuracy (its weight
is 0.7 x relevance + 0.3 x accuracy in later panels).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moot.debate import new_debate_id, run_debate
from moot.errors import ConfigError
from moot.events import Listener
from moot.files import read_config_text
from moot.judging.panel import judge_identity
from moot.llm.budget import PriceTable
from moot.options import RunOptions
from moot.prompts import LANGS
from moot.safe_json import loads
from moot.store import Store


@dataclass(frozen=True)
class KnownCase:
    """A topic whose correct side is known."""

    topic: str
    correct: str
    lang: str = "en"


def read_cases(path: Path) -> list[KnownCase]:
    """Parse a calibration file; ``ConfigError`` names the first bad line."""
    cases = []
    lines = read_config_text(path, "the calibration file").splitlines()
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        data: Any = loads(line, f"{path}:{n}")
        if not isinstance(data, dict) or set(data) - {"topic", "correct", "lang"}:
            raise ConfigError(
                f"{path}:{n}: expected {{'topic': ..., 'correct': 'pro'|'con'}}"
                " (and optionally 'lang')"
            )
        topic, correct, lang = data.get("topic"), data.get("correct"), data.get("lang", "en")
        if not isinstance(topic, str) or not topic.strip():
            raise ConfigError(f"{path}:{n}: 'topic' must be a non-empty string")
        if correct not in ("pro", "con"):
            raise ConfigError(f"{path}:{n}: 'correct' must be pro or con")
        if lang not in LANGS:
            raise ConfigError(f"{path}:{n}: 'lang' must be one of {', '.join(LANGS)}")
        cases.append(KnownCase(topic, correct, lang))
    if not cases:
        raise ConfigError(f"{path}: no cases")
    return cases


def calibrate_panel(
    cases: Iterable[KnownCase],
    options: RunOptions,
    *,
    store: Store,
    on_event: Listener | None = None,
    prices: PriceTable | None = None,
) -> dict[str, tuple[int, int]]:
    """Debate every case (pro against con) with the panel in ``options`` and record
    each judge's hit or miss in ``store``'s judge history. Returns the judges'
    cumulative (hits, debates) after this run."""
    if not options.panel:
        raise ConfigError("calibration needs a judge panel (--panel)")
    if options.sides:
        raise ConfigError("calibration debates pro against con: no --sides")
    seen: set[str] = set()
    for case in cases:
        debate_id = "calib-" + new_debate_id()
        result = run_debate(
            case.topic,
            options.replace(lang=case.lang),
            store=store,
            debate_id=debate_id,
            on_event=on_event,
            prices=prices,
        )
        assert result.panel is not None  # noqa: S101 - a panel was requested
        for judge in result.panel.judges:
            pro, con = judge.totals["pro"], judge.totals["con"]
            favoured = "pro" if pro > con else "con" if con > pro else None
            identity = judge_identity(judge.name, judge.model)
            store.record_judge_outcome(identity, debate_id, favoured == case.correct)
            seen.add(identity)
    return {identity: store.judge_accuracy(identity) for identity in sorted(seen)}
