"""How long a structured reply can get, and schemas made tighter.

A reply type's JSON schema bounds every string (``maxLength``) and every array
(``maxItems``), so its longest valid reply is finite. :func:`max_reply_chars` computes
that length (string contents counted as written, one character per character, plus
the JSON around them). :func:`max_reply_tokens` turns it into tokens with
:data:`TOKENS_PER_CHAR`, an upper bound of tokens per character measured on the
embedded model's tokenizer (``benchmarks/budget_estimate.py`` shows real text: about
0.16-0.25 tokens per character in English prose, 0.4 in JSON punctuation, 1.6-1.9 in
Chinese). A call's output limit is set from it, so a model that fills every field to
the brim still finishes inside the limit instead of being cut off.

:func:`scale_lengths` shrinks a schema's string and array bounds (never below their
minimums): the same reply type asked for more briefly, for a small model, for
Chinese (where a character carries more and costs more tokens), or for the re-ask
after a reply was cut off anyway.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import marshal
import math
from typing import Any

from moot.llm.types import OutputSpec

TOKENS_PER_CHAR = {"en": 0.5, "zh": 2.0}
"""Upper bounds of tokens per character of reply text, per debate language (the
measured worst case of real text, doubled in English; Chinese text is written in
Chinese or English, and Chinese costs most)."""
STRUCTURE_TOKENS_PER_CHAR = 0.5
"""JSON punctuation, key names and enum values cost at most this many tokens each."""
SLACK_TOKENS = 16
"""The end-of-reply token and whitespace the decoder may add."""
WHITESPACE_PER_TOKEN = 2
"""Characters of optional whitespace around each structural element."""


def _json_chars(value: Any) -> int:
    """Characters of ``value`` written as JSON; an integer without ``json.dumps`` (the
    judge's scores are enums of ten integers per dimension, on every judge call)."""
    if type(value) is int:
        return len(str(value))
    if type(value) is str:
        return _str_json_chars(value)
    return len(json.dumps(value, ensure_ascii=False))


@functools.lru_cache(maxsize=4096)
def _str_json_chars(value: str) -> int:
    """``_json_chars`` of a string, cached: enum strings (response types, argument ids)
    are few and come back on every call of their reply type."""
    return len(json.dumps(value, ensure_ascii=False))


def _enum_chars(node: dict[str, Any]) -> int:
    values = node.get("enum", [node["const"]] if "const" in node else [])
    return max(map(_json_chars, values), default=0)


def _measure(node: Any, seen: dict[int, tuple[int, int]] | None = None) -> tuple[int, int]:
    """(text characters, structure characters) of the longest value ``node`` allows.

    ``seen``: the answers for the nodes of this schema measured so far, by identity. A
    schema shares nodes between its places (a judge's pinned assessments hold the same
    score nodes, one item per argument), and a node's answer is a function of the
    node alone, so each is measured once per walk."""
    if not isinstance(node, dict):
        return 0, 0
    if seen is None:
        seen = {}
    known = seen.get(id(node))
    if known is None:
        known = seen[id(node)] = _measure_node(node, seen)
    return known


def _measure_node(node: dict[str, Any], seen: dict[int, tuple[int, int]]) -> tuple[int, int]:
    if "enum" in node or "const" in node:
        return 0, _enum_chars(node)
    if "anyOf" in node or "oneOf" in node:
        choices: list[Any] = node.get("anyOf") or node.get("oneOf") or []
        options = [_measure(option, seen) for option in choices]
        return max(options, key=lambda pair: pair[0] + pair[1], default=(0, 0))
    kind = node.get("type")
    if kind == "string":
        if "maxLength" not in node:
            raise ValueError("a string without maxLength has no longest value")
        return int(node["maxLength"]), 2
    if kind == "integer" or kind == "number":
        low, high = node.get("minimum"), node.get("maximum")
        if low is None or high is None:
            return 0, 24  # the longest number a grammar is likely to allow
        return 0, max(len(str(low)), len(str(high))) + (3 if kind == "number" else 0)
    if kind == "boolean":
        return 0, 5
    if kind == "null":
        return 0, 4
    if kind == "array":
        slots = list(node.get("prefixItems", []))
        most = node.get("maxItems")
        if most is None and not slots:
            raise ValueError("an array without maxItems has no longest value")
        items = node.get("items")
        extra = max(0, int(most if most is not None else len(slots)) - len(slots))
        parts = [_measure(slot, seen) for slot in slots]
        if extra and isinstance(items, dict):
            parts += [_measure(items, seen)] * extra
        text = sum(p[0] for p in parts)
        structure = sum(p[1] for p in parts) + 2 + len(parts) * (1 + 2 * WHITESPACE_PER_TOKEN)
        return text, structure
    if kind == "object" or "properties" in node:
        text = 0
        structure = 2
        for key, value in node.get("properties", {}).items():
            inner_text, inner_structure = _measure(value, seen)
            text += inner_text
            structure += inner_structure + len(key) + 4 + 2 * WHITESPACE_PER_TOKEN
        return text, structure
    raise ValueError(f"cannot bound a schema node of type {kind!r}")


def max_reply_chars(schema: dict[str, Any]) -> tuple[int, int]:
    """The longest valid reply: (characters of text in strings, characters of JSON
    structure). Raises ``ValueError`` for a schema with an unbounded string or array.

    Answered from a cache keyed by the schema's ``marshal`` bytes (``_measured``): a
    call's schema is its reply type's, narrowed to the debate's ids, and comes back on
    every call of that kind. Writing the bytes costs a fifth to a seventh of the walk,
    in C, and two schemas with the same bytes are the same values of the same types
    (``marshal.loads`` rebuilds them), so the answer is the walk's. A schema that
    ``marshal`` cannot write (no JSON schema holds such a value) is walked."""
    try:
        key = marshal.dumps(schema)
    except ValueError:
        return _measure(schema)
    return _measured(key)


MEASURED_CACHED = 256
"""Schemas whose longest reply is kept: a debate's reply types, each narrowed to its ids."""


@functools.lru_cache(maxsize=MEASURED_CACHED)
def _measured(key: bytes) -> tuple[int, int]:
    """``_measure`` of the schema ``key`` is the ``marshal`` bytes of (a ``ValueError``
    for an unbounded schema is raised again each time: ``lru_cache`` keeps no
    exceptions)."""
    return _measure(marshal.loads(key))  # noqa: S302 (bytes this process wrote)


def max_reply_tokens(spec: OutputSpec, lang: str) -> int:
    """An upper bound of the tokens of the longest valid reply to ``spec``."""
    text, structure = max_reply_chars(spec.json_schema)
    per_char = TOKENS_PER_CHAR.get(lang, max(TOKENS_PER_CHAR.values()))
    return math.ceil(text * per_char + structure * STRUCTURE_TOKENS_PER_CHAR) + SLACK_TOKENS


def _scaled(node: Any, chars: float, items: float) -> Any:
    if isinstance(node, list):
        return [_scaled(v, chars, items) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _scaled(v, chars, items) for k, v in node.items()}
    if out.get("type") == "string" and "maxLength" in out:
        floor = int(out.get("minLength", 1))
        out["maxLength"] = max(floor, math.floor(int(out["maxLength"]) * chars))
    if out.get("type") == "array" and "maxItems" in out and "prefixItems" not in out:
        floor = int(out.get("minItems", 0))
        out["maxItems"] = max(floor, math.floor(int(out["maxItems"]) * items + 0.5))
    return out


def scale_lengths(spec: OutputSpec, *, chars: float = 1.0, items: float = 1.0) -> OutputSpec:
    """``spec`` with every string's ``maxLength`` scaled by ``chars`` and every free
    array's ``maxItems`` by ``items`` (rounded), never below their minimums; arrays
    pinned to one slot per id keep their size."""
    if chars == 1.0 and items == 1.0:
        return spec
    return dataclasses.replace(spec, json_schema=_scaled(spec.json_schema, chars, items))


def _own_part(own: dict[str, Any], key: str, value: Any) -> Any:
    """The part of the reply type's own schema that ``value`` (under ``key``) came
    from. A pinned array's ``prefixItems`` (``moot.llm.schemas.pin_items``) are copies
    of the type's ``items``: each is relaxed against that one item schema, or a pinned
    item's minimums would fall below what the reply type validates."""
    if key == "prefixItems" and isinstance(value, list) and "prefixItems" not in own:
        return [own.get("items")] * len(value)
    return own.get(key)


def _relaxed(node: Any, base: Any, scale: float) -> Any:
    if isinstance(node, list):
        bases = base if isinstance(base, list) and len(base) == len(node) else [None] * len(node)
        return [_relaxed(v, b, scale) for v, b in zip(node, bases, strict=True)]
    if not isinstance(node, dict):
        return node
    own = base if isinstance(base, dict) else {}
    out = {k: _relaxed(v, _own_part(own, k, v), scale) for k, v in node.items()}
    if "minLength" in out:
        out["minLength"] = max(int(own.get("minLength", 0)), math.floor(out["minLength"] * scale))
    if "minItems" in out and "prefixItems" not in out:
        out["minItems"] = max(int(own.get("minItems", 0)), math.floor(out["minItems"] * scale))
    return out


def relax_minimums(spec: OutputSpec, own: OutputSpec, scale: float) -> OutputSpec:
    """``spec`` with every ``minLength`` and free array's ``minItems`` scaled by
    ``scale``, never below the minimum the reply type itself has (``own``, its schema
    before a caller added bounds). A caller may demand a length (a timed speech's
    paragraphs); a reply cut off at the token limit under such a demand is re-asked
    with the demand relaxed, or "write a shorter reply" could not be obeyed."""
    return dataclasses.replace(spec, json_schema=_relaxed(spec.json_schema, own.json_schema, scale))


def _widened(node: Any, name: str | None, target: str, chars: int, ceiling: int) -> Any:
    if isinstance(node, list):
        return [_widened(v, None, target, chars, ceiling) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {
        k: (
            {p: _widened(v, p, target, chars, ceiling) for p, v in value.items()}
            if k == "properties" and isinstance(value, dict)
            else _widened(value, None, target, chars, ceiling)
        )
        for k, value in node.items()
    }
    if name == target and out.get("type") == "string" and "maxLength" in out:
        high = int(out["maxLength"])
        out["maxLength"] = max(high, min(ceiling, high + chars))
    return out


def widen(spec: OutputSpec, name: str, chars: int, ceiling: int) -> OutputSpec:
    """``spec`` with every string property called ``name`` allowed ``chars`` more
    characters, up to ``ceiling`` (a prefix the grammar writes leaves the model the
    room it had without it)."""
    return dataclasses.replace(
        spec, json_schema=_widened(spec.json_schema, None, name, chars, ceiling)
    )
