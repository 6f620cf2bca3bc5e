"""A prompt rendered from plain values is rendered once and reused, and reads exactly
as a fresh render: values equal in Python but written differently (``True``, ``1``)
never share a rendering, and a context holding anything else is never cached."""

from __future__ import annotations

from typing import Any

from moot import prompts

PACKAGE = "moot.formats.structured"
CONTEXT: dict[str, Any] = dict(topic="Microservices?", side="pro", two_sided=True, examples=False)


def fresh(context: dict[str, Any]) -> str:
    return prompts._render("debater_system", "en", PACKAGE, context)


def test_a_plain_context_is_rendered_once_as_a_fresh_render() -> None:
    first = prompts.render("debater_system", "en", package=PACKAGE, **CONTEXT)
    hits = prompts._rendered.cache_info().hits
    again = prompts.render("debater_system", "en", package=PACKAGE, **CONTEXT)
    assert prompts._rendered.cache_info().hits == hits + 1
    assert first == again == fresh(CONTEXT)


def test_equal_values_of_other_types_are_rendered_apart() -> None:
    texts = [
        prompts.render("debater_system", "en", package=PACKAGE, **{**CONTEXT, "topic": topic})
        for topic in (True, 1, "1", None, (1, "a"))
    ]
    assert [t.splitlines()[4] for t in texts] == [
        "Topic: True",
        "Topic: 1",
        "Topic: 1",
        "Topic: None",
        "Topic: (1, 'a')",
    ]


def test_a_context_with_other_values_is_not_cached() -> None:
    assert prompts._plain_key({**CONTEXT, "topic": ["a list"]}) is None
    assert prompts._plain_key({**CONTEXT, "topic": ("a", ["list"])}) is None
    assert prompts._plain_key({**CONTEXT, "topic": 1.0}) is None
    listed = prompts.render("debater_system", "en", package=PACKAGE, **{**CONTEXT, "topic": ["x"]})
    assert listed == fresh({**CONTEXT, "topic": ["x"]})
