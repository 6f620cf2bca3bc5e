"""The schema a grammar-constrained backend builds its grammar from: prose kept clean.

The portable schema (``moot.llm.schemas``) has no ``pattern``, because OpenAI and
outlines ignore or refuse it. llama.cpp's JSON-schema converter turns a ``pattern``
into grammar rules, and the embedded backend is bound by nothing else, so for it every
free string (one without an ``enum``) gets a pattern that keeps markup and JSON
punctuation out of prose: no ``{ } [ ] < >``, no double quote, no backslash (hence no
escape sequence) and no control character. The pattern carries the string's length
bounds, since the converter ignores ``minLength`` and ``maxLength`` beside a pattern.
A string property named in the spec's ``prefixes`` must also begin with its text (the
text is written by the grammar, not by the model), and may not contain a question mark
(``?`` or ``？``). A string property named in the spec's ``sentences`` (or each string
of an array so named) is written as sentences: it starts with a capital letter or a
Chinese character (not a digit, a list number or punctuation: "2. Challenge CON-3",
". This argument") and ends with ``.``, ``!``, ``?`` or their Chinese forms inside its
length bound, so a text cut at the bound still ends as a sentence.
"""

from __future__ import annotations

from typing import Any

from moot.llm.types import OutputSpec

PROSE = '{}\\[\\]<>"\\\\\\x00-\\x1f'
"""The characters a prose string may not contain, as the inside of a negated regex
character class."""

AFTER_PREFIX = 8
"""The fewest characters the model writes after a prefix."""

_METACHARACTERS = frozenset(".^$*+?()[]{}|\\")

SENTENCE_START = "A-Z\u3400-\u4dbf\u4e00-\u9fff"
"""What a sentence starts with (the inside of a regex character class)."""
SENTENCE_END = ".!?。！？"
"""What a sentence ends with."""


def grammar_schema(spec: OutputSpec) -> dict[str, Any]:
    """``spec``'s JSON schema with a prose pattern on every free string."""
    schema: dict[str, Any] = _patterned(
        spec.json_schema, dict(spec.prefixes), None, frozenset(spec.sentences)
    )
    return schema


def _escape(text: str) -> str:
    return "".join(f"\\{c}" if c in _METACHARACTERS else c for c in text)


def prose_pattern(low: int, high: int, prefix: str = "") -> str:
    """A pattern for a prose string of ``low`` to ``high`` characters starting with
    ``prefix`` (which then rules out ``?``: a claim is a statement)."""
    banned = PROSE + ("?？" if prefix else "")
    rest_low = max(low - len(prefix), AFTER_PREFIX if prefix else 0)
    rest_high = max(rest_low, high - len(prefix))
    return f"^{_escape(prefix)}[^{banned}]{{{rest_low},{rest_high}}}$"


def sentence_pattern(low: int, high: int) -> str:
    """A pattern for prose of ``low`` to ``high`` characters written as sentences (see
    the module)."""
    inner_low, inner_high = max(low - 2, 0), max(high - 2, 0)
    end = _escape(SENTENCE_END)
    return f"^[{SENTENCE_START}][^{PROSE}]{{{inner_low},{inner_high}}}[{end}]$"


def _patterned(
    node: Any,
    prefixes: dict[str, str],
    name: str | None,
    sentences: frozenset[str] = frozenset(),
    sentence: bool = False,
) -> Any:
    if isinstance(node, list):
        return [_patterned(item, prefixes, None, sentences) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {
        key: (
            {k: _patterned(v, prefixes, k, sentences, k in sentences) for k, v in value.items()}
            if key == "properties" and isinstance(value, dict)
            # the strings of an array named in ``sentences`` are sentences too
            else _patterned(value, prefixes, None, sentences, sentence and key == "items")
        )
        for key, value in node.items()
    }
    if out.get("type") == "string" and "enum" not in out and "maxLength" in out:
        prefix = prefixes.get(name or "", "")
        low, high = int(out.get("minLength", 0)), int(out["maxLength"])
        if sentence and not prefix and high >= 2:
            out["pattern"] = sentence_pattern(low, high)
        elif len(prefix) < high:
            out["pattern"] = prose_pattern(low, high, prefix)
    return out
