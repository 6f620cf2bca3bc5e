"""A run that stopped before it finished (budget reached, failed, interrupted) as a
partial report: why it stopped, the ``moot resume`` line, the calls each round
completed, and what the stored partial result kept (the arguments, speeches and
answers of the rounds that completed), each entry's fields shown as text."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moot.report.html.labels import label
from moot.store import CallRow, DebateRow
from moot.view.names import position_names, role_name, round_name
from moot.view.redact import Redactor

META_KEYS = frozenset({"schema_version", "partial", "format", "topic", "lang", "models", "usage"})
TITLE_KEYS = ("id", "argument_id", "speech_id", "target_id", "stage", "lens")
SIDE_KEYS = ("side", "position", "speaker", "role", "by")
MAX_FIELD = 4000
RESUMABLE = frozenset({"failed", "interrupted", "budget_exceeded"})


@dataclass(frozen=True)
class Entry:
    title: str
    side: str
    fields: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Part:
    key: str
    title: str
    count: int
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class RoundDone:
    round: str
    calls: int
    roles: str


@dataclass(frozen=True)
class PartialReport:
    error: str
    resume: str
    """The command that continues the run ("" when it cannot be resumed)."""
    rounds: tuple[RoundDone, ...]
    parts: tuple[Part, ...]
    unreadable: str
    usage: tuple[tuple[str, str], ...]


def is_partial(row: DebateRow) -> bool:
    """Whether the run stopped and its stored result is the partial result it left
    (a run resumed since is ``running`` again: its progress page shows it)."""
    if row.result_json is None or row.status not in RESUMABLE:
        return False
    try:
        data = json.loads(row.result_json)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("partial") is True


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _entry(
    value: Any, labels: Mapping[str, str], sides: Mapping[str, str], redactor: Redactor, n: int
) -> Entry:
    if not isinstance(value, Mapping):
        return Entry(
            title=f"#{n}", side="", fields=(("", redactor.text(_text(value))[:MAX_FIELD]),)
        )
    title = next((str(value[k]) for k in TITLE_KEYS if isinstance(value.get(k), str)), f"#{n}")
    side_code = next((str(value[k]) for k in SIDE_KEYS if isinstance(value.get(k), str)), "")
    fields = tuple(
        (
            labels.get(f"field.{key}", str(key).replace("_", " ")),
            redactor.text(_text(item))[:MAX_FIELD],
        )
        for key, item in value.items()
        if key not in TITLE_KEYS and key not in SIDE_KEYS and item not in (None, "", [], {})
    )
    return Entry(title=redactor.text(title), side=sides.get(side_code, side_code), fields=fields)


def _part(key: str, value: Any, labels: Mapping[str, str], sides: Mapping[str, str],
          redactor: Redactor) -> Part:  # fmt: skip
    title = label(dict(labels), f"partial.{key}", key.replace("_", " "))
    if isinstance(value, list):
        entries = tuple(_entry(v, labels, sides, redactor, n) for n, v in enumerate(value, 1))
        return Part(key=key, title=title, count=len(value), entries=entries)
    return Part(key=key, title=title, count=1, entries=(_entry(value, labels, sides, redactor, 1),))


def partial_report(
    row: DebateRow,
    calls: Sequence[CallRow],
    labels: Mapping[str, str],
    redactor: Redactor,
    lang: str = "en",
) -> PartialReport:
    """What a stopped run completed, from its stored partial result and its journal
    (default positions named in ``lang``, the page's)."""
    data: dict[str, Any] = {}
    unreadable = ""
    try:
        loaded = json.loads(row.result_json or "{}")
        if not isinstance(loaded, dict):
            raise ValueError("not a JSON object")
        data = loaded
    except ValueError as exc:
        unreadable = labels["view.partial_unreadable"].format(error=exc)
    sides = position_names(row.format, row.config, lang, row.topic)
    rounds: dict[str, list[str]] = {}
    for call in calls:
        if call.validation == "ok":
            rounds.setdefault(call.round, []).append(role_name(labels, call.role, sides))
    usage = data.get("usage") if isinstance(data.get("usage"), Mapping) else {}
    assert isinstance(usage, Mapping)  # noqa: S101 (just checked)
    return PartialReport(
        error=redactor.text(row.error or ""),
        resume=f"moot resume {row.id}" if row.status in RESUMABLE else "",
        rounds=tuple(
            RoundDone(
                round=round_name(labels, code, sides),
                calls=len(roles),
                roles=", ".join(dict.fromkeys(roles)),
            )
            for code, roles in rounds.items()
        ),
        parts=tuple(
            _part(key, value, labels, sides, redactor)
            for key, value in data.items()
            if key not in META_KEYS and value not in (None, [], {})
        ),
        unreadable=unreadable,
        usage=tuple(
            (label(dict(labels), f"html.{k}", str(k)), str(v))
            for k, v in usage.items()
            if isinstance(v, int | float | str)
        ),
    )
