"""Replies that copy the prompt's own field instructions instead of answering them.

Every prompt that asks for JSON describes its fields one to a line, as
``- "bull_case": the bull side's case as it stood ...``. A small model often writes
the description back as the value ("The bull side's case as it stood at the end of
the debate, in two or three sentences."): well-formed, schema-valid and empty of
content. This module finds those copies so the caller can re-ask, or keep the reply
with a warning; it knows nothing of what the fields mean."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

from moot.llm.types import Message
from moot.text import cjk_share, normalise

FIELD_LINE = re.compile(r'^[ \t]*- "[A-Za-z_][A-Za-z0-9_]*"[ \t]*[:：][ \t]*(.+?)[ \t]*$', re.M)
"""A field instruction line of a prompt: its description is the first group."""

ECHO_CHARS = 30
"""A value echoes an instruction when it repeats a run of at least this many characters
of it (case and spacing ignored): longer than the phrases a real answer shares with
its question ("the bull side's case"), shorter than any description's body."""

ECHO_CHARS_CJK = 12
"""The same for a run that contains Chinese characters (one carries about a word)."""


def instructions(messages: Sequence[Message]) -> list[str]:
    """The field descriptions in ``messages`` (normalised, without repeats)."""
    found = [
        normalise(match.group(1))
        for message in messages
        for match in FIELD_LINE.finditer(message.content)
    ]
    return list(dict.fromkeys(found))


RULE_CHARS = 40
"""A value copies a line of the system prompt when it repeats a run of at least this
many characters of it: longer than for a field description, since a system prompt may
also hold data a reply should quote (a market's instrument names)."""

RULE_CHARS_CJK = 16
"""The same for a run that contains Chinese characters."""


def rules(messages: Sequence[Message], topic: str = "") -> list[str]:
    """The lines of the system messages in ``messages`` (the rules: "You argue AGAINST
    the topic, whatever you privately think.", which SmolLM2 wrote back as an argument's
    reasoning), each with the ``topic`` cut out, since a reply may name the topic
    (normalised, without repeats)."""
    # the whole topic, and each of its lines (a topic of several lines spans lines)
    cuts = [c for c in (normalise(topic), *map(normalise, topic.splitlines())) if c]
    found = []
    for message in messages:
        if message.role != "system":
            continue
        for line in message.content.splitlines():
            rule = normalise(line)
            for cut in cuts:
                rule = normalise(rule.replace(cut, " "))
            if len(rule) >= RULE_CHARS_CJK:
                found.append(rule)
    return list(dict.fromkeys(found))


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for n, item in enumerate(value, start=1):
            yield from _strings(item, f"{path}[{n}]")


SHINGLE = min(ECHO_CHARS, ECHO_CHARS_CJK)
"""Any copy shares a run of at least this many characters with its description."""


@lru_cache(maxsize=1024)
def _shingles(text: str) -> frozenset[str]:
    """The ``SHINGLE``-character substrings of a text."""
    return frozenset(text[i : i + SHINGLE] for i in range(len(text) - SHINGLE + 1))


def _copied_run(
    text: str, description: str, chars: int = ECHO_CHARS, chars_cjk: int = ECHO_CHARS_CJK
) -> str:
    """The longest run ``text`` shares with ``description`` if it is long enough to
    be a copy (``chars``, ``chars_cjk`` with Chinese), else ``""``. Texts that share no
    ``SHINGLE``-character run, nearly all of them, are told apart without the
    longest-match search."""
    if _shingles(description).isdisjoint(_shingles(text)):
        return ""
    match = SequenceMatcher(None, text, description, autojunk=False).find_longest_match(
        0, len(text), 0, len(description)
    )
    run = text[match.a : match.a + match.size]
    limit = chars_cjk if cjk_share(run) > 0 else chars
    return run if match.size >= limit else ""


def echoes(
    value: Any,
    descriptions: Sequence[str],
    *,
    chars: int = ECHO_CHARS,
    chars_cjk: int = ECHO_CHARS_CJK,
) -> list[tuple[str, str]]:
    """``(path, copied run)`` for every string in a parsed JSON ``value`` that copies
    one of ``descriptions`` (a run of ``chars`` characters, ``chars_cjk`` with
    Chinese); a path reads ``arguments[1].claim`` (lists count from 1)."""
    found = []
    for path, text in _strings(value, ""):
        normal = normalise(text)
        for description in descriptions:
            run = _copied_run(normal, description, chars, chars_cjk)
            if run:
                found.append((path, run))
                break
    return found
