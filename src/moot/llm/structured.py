"""Structured output: schema -> constrained decoding where supported -> validate -> re-ask.

The backend is asked for JSON matching the reply type's schema (backends constrain
decoding where they can). The reply is parsed and validated with pydantic, then by
the caller's rule checks. A failure is sent back to the model with the exact errors
for a bounded number of re-asks; each re-ask shows the model its last reply only, so a
call's prompt never grows by more than one reply. A reply cut off at the token limit is a failure.
When the re-asks run out, the meter is told (``record_exhausted``): a journaled run
then never replays those attempts, so resuming it asks the model afresh.

Problems come in two tiers. *Hard* problems (invalid JSON, schema violations, wrong
or duplicate ids) can never be accepted: when the re-asks are spent a
``ModelOutputError`` carrying every raw reply is raised. *Rule* problems (protocol
quality rules such as "the claim is one sentence") are also re-asked; when the
re-asks are spent they raise too under ``strict_rules``, and otherwise the reply is
kept and the unmet rules are returned as warnings that the result records and the
briefing shows. Nothing is ever invented to fill a gap.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from moot.errors import ModelOutputError
from moot.llm.backend import Backend
from moot.llm.bounds import max_reply_tokens, relax_minimums, scale_lengths
from moot.llm.echo import RULE_CHARS, RULE_CHARS_CJK, echoes, instructions, reworded, rules
from moot.llm.meter import Meter
from moot.llm.schemas import output_spec
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.prompts import render
from moot.usable import (
    MARKED_CODES,
    STRING_HOLDERS,
    UNUSABLE,
    free_strings,
    looping_runs,
    marker,
    unusable_among,
)

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class Problem:
    """One reason a reply is not acceptable. ``hard`` problems can never be waived."""

    message: str
    hard: bool = True
    code: str = "schema"
    where: str = ""


Checker = Callable[[T], list[Problem]]


@dataclass
class Outcome(Generic[T]):
    """A validated reply, with the unmet rule problems it was accepted with."""

    value: T
    attempts: int
    warnings: list[Problem] = field(default_factory=list)


def _unusable(
    parsed: Any, spec: OutputSpec, echoed: Sequence[str], described: Sequence[str]
) -> list[Problem]:
    """A rule problem (code ``moot.usable.UNUSABLE``) for every free string of a reply
    that is not usable text (``moot.usable``), that echoes its field's description, or
    that is a short piece of prose made of one description's words (``reworded``)."""
    strings = list(free_strings(parsed, spec.json_schema, verbatim=spec.verbatim))
    found: dict[str, str] = dict(unusable_among(strings))
    found.update({where: "echo" for where in echoed if where not in found})
    for where, text, sentence in strings:
        if sentence and where not in found and reworded(text, described):
            found[where] = "echo"
    return [
        Problem(
            f"{where}: not usable text ({reason}); write plain sentences, without markup"
            " or JSON punctuation",
            hard=False,
            code=UNUSABLE,
            where=where,
        )
        for where, reason in found.items()
    ]


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _marked(value: T, paths: Sequence[str], lang: str) -> T:
    """``value`` with the strings at ``paths`` (``arguments[1].claim``) replaced by the
    marker of unusable text in ``lang`` (see ``moot.usable``). The reply is not
    validated again: the marker is shorter than some fields' minimum length and is not
    model text."""
    for path in paths:
        parts: list[str | int] = [
            int(index) - 1 if index else name for name, index in _PATH_PART.findall(path)
        ]
        value = _replace(value, parts, marker(lang))
    return value


def _replace(node: Any, parts: Sequence[str | int], text: str) -> Any:
    if not parts:
        return text if isinstance(node, str) else node
    head, rest = parts[0], parts[1:]
    if isinstance(node, BaseModel) and isinstance(head, str) and hasattr(node, head):
        return node.model_copy(update={head: _replace(getattr(node, head), rest, text)})
    if isinstance(node, list) and isinstance(head, int) and 0 <= head < len(node):
        return [_replace(item, rest, text) if n == head else item for n, item in enumerate(node)]
    if isinstance(node, dict) and head in node:
        return {k: _replace(v, rest, text) if k == head else v for k, v in node.items()}
    return node


def parse_json_text(text: str) -> Any:
    """Parse a reply as JSON. A reply wholly wrapped in one Markdown code fence is
    unwrapped, and raw control characters (a literal newline) inside strings are
    accepted as the characters they are; nothing else is stripped or repaired, and
    anything that is not one JSON document raises ``ValueError``."""
    stripped = text.strip()
    if stripped.startswith("```") and stripped.endswith("```") and stripped.count("```") == 2:
        body = stripped[3:-3]
        first_newline = body.find("\n")
        if first_newline != -1 and body[:first_newline].strip().isalpha():
            body = body[first_newline + 1 :]
        stripped = body.strip()
    try:
        return json.loads(stripped, strict=False)
    except RecursionError:  # a reply nested thousands deep: not a reply, and not a crash
        raise ValueError("it nests arrays or objects too deeply to read") from None


def _validation_messages(exc: ValidationError) -> list[Problem]:
    problems = []
    for err in exc.errors(include_url=False):
        location = ".".join(str(part) for part in err["loc"]) or "(root)"
        problems.append(Problem(f"{location}: {err['msg']}"))
    return problems


CUT_OFF_SCALE = 0.5
"""After a reply is cut off at the token limit, the re-ask's schema allows this share
of the length (strings and free lists), so a reply of ordinary text fits. A model
caught in a loop of one-character tokens ("1.1.1.1...") can still outrun any limit
that leaves room for real text: the re-ask's new seed and clipped echo are for it."""

CUT_OFF_TEMPERATURE_STEP = 0.3
"""Each re-ask after a loop or a cut-off samples this much hotter (up to ``MAX_TEMPERATURE``):
near-greedy sampling keeps a small model in the loop it fell into, whatever the seed."""

MAX_TEMPERATURE = 1.0


def loops(value: Any) -> list[str]:
    """The looping runs (``moot.usable.LOOP``) in any string inside a parsed JSON value.
    A looping reply is a rule problem (code ``loop``): re-asked, sampled hotter, as rules
    are, and otherwise kept with a warning (the looping field itself is then shown as
    unusable text), because a small model may loop at every temperature."""
    if isinstance(value, str):
        return looping_runs(value)
    if isinstance(value, dict):
        return [run for v in value.values() if isinstance(v, STRING_HOLDERS) for run in loops(v)]
    if isinstance(value, list):
        return [run for v in value if isinstance(v, STRING_HOLDERS) for run in loops(v)]
    return []


LOOP_PENALTY = 0.5
"""The frequency penalty of a re-ask after a loop or a cut-off. A server without
llama.cpp's repeat penalty (``llama-server`` through the OpenAI API) otherwise leaves a
135M model looping ("1.1.1.1...") at every seed and temperature."""


def _hotter(settings: GenerationSettings) -> GenerationSettings:
    """The settings of a re-ask after a loop or a cut-off: sampled hotter
    (``CUT_OFF_TEMPERATURE_STEP``) and with repeated tokens penalised (``LOOP_PENALTY``)."""
    hotter = min(MAX_TEMPERATURE, settings.temperature + CUT_OFF_TEMPERATURE_STEP)
    return dataclasses.replace(
        settings,
        temperature=max(settings.temperature, hotter),
        frequency_penalty=max(settings.frequency_penalty, LOOP_PENALTY),
    )


CUT_OFF_ECHO_CHARS = 300
"""A cut-off reply is echoed back to the model only up to this many characters. The
whole of a reply that looped until the limit would prime the model to loop again."""


def attempt_settings(settings: GenerationSettings, attempt: int) -> GenerationSettings:
    """The sampling settings of the ``attempt``-th ask (1-based): a seeded call's
    re-asks sample with seed + attempt - 1, so a re-ask does not replay the sampling
    that went wrong (a small model that looped at one seed rarely loops at the next),
    and a seeded run stays reproducible. The first attempt keeps the seed as given."""
    if settings.seed is None or attempt == 1:
        return settings
    return dataclasses.replace(settings, seed=settings.seed + attempt - 1)


async def generate_structured(
    backend: Backend,
    messages: Sequence[Message],
    reply_type: type[T],
    *,
    settings: GenerationSettings,
    context: CallContext,
    meter: Meter,
    spec: OutputSpec | None = None,
    check: Checker[T] | None = None,
    max_reasks: int = 2,
    rule_reasks: int | None = None,
    strict_rules: bool = False,
) -> Outcome[T]:
    """Ask for a ``reply_type`` and return it validated, re-asking on failure (each
    re-ask with its own seed: ``attempt_settings``).

    The output limit is the longest valid reply to ``spec`` (``moot.llm.bounds``; for a
    schema with unbounded strings or lists, ``settings.max_tokens``), so
    a reply is cut off only if the model writes more tokens per character than real
    text does; the re-ask after a cut-off asks for half the length. Hard problems get
    up to ``max_reasks`` re-asks; a reply whose only problems are protocol rules gets
    ``rule_reasks`` (default: as many; under ``strict_rules`` always as many) and is
    then kept with its problems as warnings, or under ``strict_rules`` rejected."""
    spec = spec or output_spec(reply_type)
    with contextlib.suppress(ValueError):  # an unbounded schema: the caller's limit stands
        settings = dataclasses.replace(settings, max_tokens=max_reply_tokens(spec, context.lang))
    rule_budget = max_reasks if strict_rules or rule_reasks is None else rule_reasks
    rule_reasks_used = 0
    history: Sequence[Message] = messages
    described = instructions(messages)
    ruled = rules(messages, context.topic)
    raw_replies: list[str] = []
    completions: list[Completion] = []
    for attempt in range(max_reasks + 1):
        asked = dataclasses.replace(context, attempt=attempt + 1)
        completion = await backend.generate(
            history, schema=spec, settings=attempt_settings(settings, attempt + 1), context=asked
        )
        text = completion.text
        raw_replies.append(text)
        completions.append(completion)
        problems: list[Problem]
        value: T | None = None
        if completion.finish_reason == "refusal":
            problems = [Problem(f"the model refused to answer: {text[:300]}")]
        elif completion.finish_reason == "length":
            problems = [
                Problem(
                    f"the reply was cut off at the limit of {settings.max_tokens} tokens;"
                    " write a shorter, complete reply"
                )
            ]
            spec = scale_lengths(
                relax_minimums(spec, output_spec(reply_type), CUT_OFF_SCALE),
                chars=CUT_OFF_SCALE,
                items=CUT_OFF_SCALE,
            )
            settings = _hotter(settings)
        else:
            try:
                parsed = parse_json_text(text)
            except ValueError as exc:
                problems = [Problem(f"the reply is not valid JSON ({exc})")]
            else:
                looping = [
                    Problem(
                        f"the reply repeats itself in a loop ({run[:40]!r}...); write text",
                        hard=False,
                        code="loop",
                    )
                    for run in loops(parsed)[:3]
                ]
                if looping:
                    settings = _hotter(settings)
                copies = {
                    path: f"copies the prompt's rules ({run[:40]!r}...); write your own words"
                    for path, run in echoes(
                        parsed, ruled, chars=RULE_CHARS, chars_cjk=RULE_CHARS_CJK, short=False
                    )
                }
                copies.update(
                    (
                        path,
                        f"copies the prompt's description of the field ({run[:40]!r}...);"
                        " write the content it asks for",
                    )
                    for path, run in echoes(parsed, described)
                )
                echoed = [
                    Problem(f"{path}: {what}", hard=False, code="echo", where=path)
                    for path, what in list(copies.items())[:3]
                ]
                unusable = _unusable(parsed, spec, [p.where for p in echoed], described)
                try:
                    value = reply_type.model_validate(parsed)
                except ValidationError as exc:
                    problems = [*_validation_messages(exc), *looping, *echoed, *unusable]
                else:
                    problems = [*looping, *echoed, *unusable, *(check(value) if check else [])]
        meter.record_validation(
            completion,
            [p.message for p in problems],
            context=asked,
            codes=[p.code for p in problems],
        )
        if not problems and value is not None:
            return Outcome(value, attempt + 1)
        hard = [p for p in problems if p.hard]
        last = attempt == max_reasks
        if value is not None and not hard:
            if last or rule_reasks_used >= rule_budget:
                if not strict_rules:
                    unusable_at = [p.where for p in problems if p.code in MARKED_CODES]
                    shown = _marked(value, unusable_at, context.lang)
                    return Outcome(shown, attempt + 1, warnings=problems)
                last = True
            rule_reasks_used += 1
        if last:
            # every attempt failed: none of them may be replayed by a resume
            meter.record_exhausted(completions)
            raise ModelOutputError(
                f"{context.role} reply for {context.round} did not validate after "
                f"{attempt + 1} attempt(s) (model {backend.spec})",
                raw=text,
                attempts=raw_replies,
                errors=[p.message for p in problems],
                role=context.role,
            )
        meter.record_reask(
            context, attempt + 1, [p.message for p in problems], [p.code for p in problems]
        )
        # the re-ask shows the last reply and its problems only: earlier attempts add
        # nothing the model needs, and keeping them all would grow the prompt by a whole
        # reply per attempt (a judge's transcript plus two failed replies overflowed an
        # 8k-token context)
        cut_off = completion.finish_reason == "length" and len(text) > CUT_OFF_ECHO_CHARS
        history = [
            *messages,
            Message("assistant", text[:CUT_OFF_ECHO_CHARS] + "…" if cut_off else text),
            Message("user", render("reask", context.lang, problems=[p.message for p in problems])),
        ]
    raise AssertionError("unreachable")  # pragma: no cover
