"""The journal's codes in words: a call's round (``opening_pro``, ``rehearsal_2``,
``vote_before``) and role (``A``, ``judge:risk#2``, ``audience:3``), with the run's
position names, in the page's language. A code nothing explains is shown as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moot.errors import MootError
from moot.formats import get_format
from moot.formats.base import Format, make_positions
from moot.report.html.formats import stored_options
from moot.report.html.labels import label, round_label


def position_names(
    format_name: str, config: Mapping[str, Any], lang: str, topic: str = ""
) -> dict[str, str]:
    """A stored run's position keys and names (the format's, else pro and con or the
    names given), as its topic names them when the page speaks the run's language
    (pro and con of an "A or B" question take their options, as in the run's result);
    none when its stored options cannot say."""
    options = stored_options(config)
    sides = options.get("sides")
    names = [str(s) for s in sides] if isinstance(sides, list) else []
    fmt: Format | None
    try:
        fmt = get_format(format_name)
        positions = fmt.positions(names, lang)
    except MootError:
        fmt = None
        try:
            positions = make_positions(names, lang)
        except MootError:
            return {}
    if fmt is not None and topic and options.get("lang", lang) == lang:
        positions = fmt.named_for(positions, topic, lang)
    return {p.key: p.name for p in positions}


def round_name(labels: Mapping[str, str], code: str, sides: Mapping[str, str]) -> str:
    """A journal round in words: its own label, ``Round N``, ``<stage> · <side>``
    (a timed stage of one side) or ``<round>, level N``."""
    text = dict(labels)
    if f"round.{code}" in text or code.removeprefix("round_").isdigit():
        return round_label(text, code)
    base, _, tail = code.rpartition("_")
    if base and tail in sides:
        stage = label(text, f"round.{base}", label(text, f"stage.{base}", base))
        return f"{stage} · {sides[tail]}"
    if base and tail.isdigit() and f"round.{base}_n" in text:
        return text[f"round.{base}_n"].format(n=int(tail))
    return code


def role_name(labels: Mapping[str, str], role: str, sides: Mapping[str, str]) -> str:
    """A journal role in words: a position's name, a judge (``judge:risk#2``: the risk
    judge's second run), an audience member, or the role's own label."""
    if role in sides:
        return sides[role]
    kind, _, rest = role.partition(":")
    if kind == "judge" and rest:
        name, _, run = rest.partition("#")
        judge = labels.get(f"judge.{name}", name)
        return labels["view.judge_n"].format(judge=judge, n=run) if run.isdigit() else judge
    if kind == "audience" and rest.isdigit():
        return labels["view.audience"].format(n=int(rest))
    if rest and kind in sides:  # a format's role that argues for a position (bull:tech)
        return f"{sides[kind]} · {rest}"
    return labels.get(f"role.{role}", role)
