"""The call inspector: one journaled call of a run as it was sent and answered (its
prompt, the schema asked for, the reply, the validation problems, every attempt of
the same call, tokens and latency), with every secret redacted (``moot.view.redact``)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from moot.formats import formats
from moot.llm.schemas import registered_schemas
from moot.store import CallRow
from moot.view.names import role_name, round_name
from moot.view.redact import Redactor


@dataclass(frozen=True)
class Message:
    role: str
    content: str


@dataclass(frozen=True)
class Attempt:
    seq: int
    attempt: int
    validation: str
    href: str
    current: bool


@dataclass(frozen=True)
class CallPage:
    seq: int
    round: str
    role: str
    model: str
    attempt: int
    validation: str
    source: str
    finish_reason: str
    mode: str
    fallback: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: str
    created: str
    messages: tuple[Message, ...]
    schema_name: str
    schema: str
    reply: str
    problems: tuple[str, ...]
    error: str
    attempts: tuple[Attempt, ...]


@functools.cache
def _schemas() -> dict[str, str]:
    """Every registered schema's JSON text by name (the first of each name)."""
    formats()  # registers the built-in formats' schemas
    found: dict[str, str] = {}
    for specs in registered_schemas().values():
        for spec in specs:
            found.setdefault(spec.name, json.dumps(spec.json_schema, indent=2, ensure_ascii=False))
    return found


def schema_text(name: str | None) -> str:
    """The registered schema of that name as JSON text ("" when unknown or none)."""
    return _schemas().get(name, "") if name else ""


def _pretty(text: str) -> str:
    """A reply as indented JSON when it is JSON, else as it came."""
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except ValueError:
        return text


def request_key(call: CallRow) -> tuple[str, str | None, str]:
    """What a call first asked: its role, side and messages up to the first user
    message. A re-ask (a validation re-ask or a detector's) sends the same, then the
    reply it got and what to fix."""
    first: list[object] = []
    for message in call.messages:
        first.append([message.get("role"), message.get("content")])
        if message.get("role") == "user":
            break
    return call.role, call.side, json.dumps(first, sort_keys=True, ensure_ascii=False)


def attempts_of(call: CallRow, calls: Sequence[CallRow]) -> list[CallRow]:
    """Every attempt of the request ``call`` belongs to: the calls of the same round
    that first asked the same (the first attempt and each re-ask), in order."""
    key = request_key(call)
    return [c for c in calls if c.round == call.round and request_key(c) == key]


def call_page(
    call: CallRow,
    calls: Sequence[CallRow],
    labels: Mapping[str, str],
    sides: Mapping[str, str],
    href: str,
    redactor: Redactor,
) -> CallPage:
    """What the inspector shows of one call; ``href`` gives a call's address by seq."""
    fallback = ""
    if call.structured_fallback:
        fallback = json.dumps(redactor.data(call.structured_fallback), ensure_ascii=False)
    return CallPage(
        seq=call.seq,
        round=round_name(labels, call.round, sides),
        role=role_name(labels, call.role, sides),
        model=redactor.text(call.model),
        attempt=call.attempt,
        validation=call.validation or "-",
        source=call.source,
        finish_reason=call.finish_reason or "-",
        mode=call.structured_mode or "-",
        fallback=fallback,
        prompt_tokens=call.prompt_tokens,
        completion_tokens=call.completion_tokens,
        latency_ms=f"{call.latency_ms:.0f}",
        created=call.created_at[:19].replace("T", " "),
        messages=tuple(
            Message(
                role=redactor.text(str(m.get("role", ""))),
                content=redactor.text(
                    m["content"]
                    if isinstance(m.get("content"), str)
                    else json.dumps(redactor.data(m.get("content")), ensure_ascii=False)
                ),
            )
            for m in call.messages
        ),
        schema_name=call.schema_name or "",
        schema=redactor.text(schema_text(call.schema_name)),
        reply=redactor.text(_pretty(call.reply)) if call.reply is not None else "",
        problems=tuple(redactor.text(p) for p in call.problems),
        error=redactor.text(call.error or ""),
        attempts=tuple(
            Attempt(
                seq=c.seq,
                attempt=c.attempt,
                validation=c.validation or "-",
                href=href.format(seq=c.seq),
                current=c.seq == call.seq,
            )
            for c in attempts_of(call, calls)
        ),
    )
