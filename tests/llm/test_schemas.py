"""Every schema moot sends stays inside the portable subset (moot.llm.schemas) and is
accepted and enforced by llama-cpp-python's converter (llama.cpp's Python port, the
one its server and moot's local backend use). The C++ converter of llama.cpp's own
server is checked in tests/test_llama_server.py."""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Sequence
from typing import Any

import pytest

from conftest import needs_llama_cpp_python
from moot import run_debate
from moot.llm.backend import Backend
from moot.llm.schemas import pin_items, portability_problems
from moot.llm.scripted import DemoBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.llm.wrapper import Wrapper
from schema_registry import all_registered

TOPIC = "Should a 10-person startup adopt microservices from day one?"


def registered_ids() -> list[str]:
    return [
        f"{owner}:{n}:{spec.name}"
        for owner, specs in all_registered().items()
        for n, spec in enumerate(specs)
    ]


def registered(key: str) -> OutputSpec:
    owner, n, _ = key.split(":")
    return all_registered()[owner][int(n)]


def test_the_registry_holds_every_reply_type_moot_sends() -> None:
    names = {spec.name for specs in all_registered().values() for spec in specs}
    assert {
        "OpeningReply",
        "CrossExamReply",
        "ClosingReply",
        "SpeechReply",
        "JudgeReply",
        "TopicTypeReply",
    } <= names


@pytest.mark.parametrize("key", registered_ids())
def test_registered_schema_is_portable(key: str) -> None:
    assert portability_problems(registered(key).json_schema) == []


def python_port_grammar(schema: dict[str, Any]) -> str:
    """llama-cpp-python's grammar for ``schema`` (its copy of llama.cpp's Python port)."""
    port: Any = importlib.import_module("llama_cpp.llama_grammar")
    converter = port.SchemaConverter(
        prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False
    )
    converter.visit(converter.resolve_refs(copy.deepcopy(schema), ""), "")
    return str(converter.format_grammar())


def pinned_values(schema: Any) -> list[str]:
    """Every one-value string enum in ``schema`` (the ids pinned into it)."""
    if isinstance(schema, dict):
        found = []
        enum = schema.get("enum")
        if isinstance(enum, list) and len(enum) == 1 and isinstance(enum[0], str):
            found.append(enum[0])
        for value in schema.values():
            found += pinned_values(value)
        return found
    if isinstance(schema, list):
        return [v for item in schema for v in pinned_values(item)]
    return []


@needs_llama_cpp_python
@pytest.mark.parametrize("key", registered_ids())
def test_python_port_accepts_and_enforces_registered_schema(key: str) -> None:
    schema = registered(key).json_schema
    grammar = python_port_grammar(schema)
    # Enforced, not only accepted: every pinned id is a literal of the grammar, and
    # every pinned array is a tuple (no free repetition of its items).
    for value in pinned_values(schema):
        assert json.dumps(json.dumps(value)) in grammar, value
    if "prefixItems" in json.dumps(schema):
        assert "-tuple-" in grammar


# --- what the portability check refuses ---------------------------------------------

ITEM = {
    "type": "object",
    "properties": {"id": {"type": "string", "maxLength": 8}},
    "required": ["id"],
    "additionalProperties": False,
}


def reply_schema(array: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"responses": array},
        "required": ["responses"],
        "additionalProperties": False,
    }


def test_pinning_is_a_closed_tuple_without_items() -> None:
    spec = OutputSpec("r", reply_schema({"type": "array", "items": ITEM, "maxItems": 5}))
    pinned = pin_items(spec, "responses", "id", ["A-1", "A-2"])
    array = pinned.json_schema["properties"]["responses"]
    assert "items" not in array
    assert array["minItems"] == array["maxItems"] == 2
    assert [p["properties"]["id"]["enum"] for p in array["prefixItems"]] == [["A-1"], ["A-2"]]
    assert portability_problems(pinned.json_schema) == []


@pytest.mark.parametrize(
    ("array", "expected"),
    [
        # the form llama-server refused: "schema must be an object"
        (
            {"type": "array", "prefixItems": [ITEM], "items": False, "minItems": 1, "maxItems": 1},
            "no 'items' beside 'prefixItems'",
        ),
        # accepted by llama.cpp, but the tuple is silently ignored
        (
            {"type": "array", "prefixItems": [ITEM], "items": ITEM, "minItems": 1, "maxItems": 1},
            "no 'items' beside 'prefixItems'",
        ),
        ({"type": "array", "prefixItems": [ITEM, ITEM], "maxItems": 2}, "minItems = maxItems"),
        ({"type": "array", "items": ITEM}, "needs an integer maxItems"),
        ({"type": "array", "items": [ITEM], "maxItems": 1}, "'items' must be one schema"),
        ({"type": "array", "items": ITEM, "maxItems": 3, "uniqueItems": True}, "'uniqueItems'"),
        ({"$ref": "#/$defs/Item"}, "type must be one of"),
        ({"anyOf": [ITEM]}, "type must be one of"),
        ({"type": ["string", "null"], "maxLength": 3}, "type must be one of"),
        ({"type": "string"}, "maxLength <= 1000"),
        ({"type": "string", "maxLength": 5000}, "maxLength <= 1000"),
        ({"type": "string", "maxLength": 40, "pattern": "^a"}, "'pattern'"),
        ({"type": "string", "const": "x"}, "'const'"),
        ({"type": "integer", "minimum": 1, "maximum": 10}, "needs an 'enum'"),
        ({"type": "number", "enum": [1]}, "type must be one of"),
        (
            {"type": "object", "properties": {"a": ITEM}, "required": []},
            "additionalProperties: false",
        ),
        (
            {
                "type": "object",
                "properties": {"a": ITEM, "b": ITEM},
                "required": ["a"],
                "additionalProperties": False,
            },
            "'required' must name every property",
        ),
    ],
)
def test_constructs_outside_the_subset_are_named(array: dict[str, Any], expected: str) -> None:
    problems = portability_problems(reply_schema(array))
    assert any(expected in p for p in problems), problems


#: "one boolean per own id": the portable alternative to a list of ids
PER_ID = {
    "type": "object",
    "properties": {i: {"type": "boolean"} for i in ("PRO-1", "PRO-2", "PRO-3")},
    "required": ["PRO-1", "PRO-2", "PRO-3"],
    "additionalProperties": False,
}


def test_an_object_of_fixed_required_keys_is_portable() -> None:
    assert portability_problems(reply_schema(PER_ID)) == []


@needs_llama_cpp_python
def test_an_object_of_fixed_required_keys_is_enforced_by_the_python_port() -> None:
    grammar = python_port_grammar(reply_schema(PER_ID))
    assert all(json.dumps(json.dumps(i)) in grammar for i in ("PRO-1", "PRO-2", "PRO-3"))


# --- every schema actually sent is registered and portable ---------------------------


class SchemaRecorder(Wrapper):
    """Passes calls through and keeps every schema they carried."""

    def __init__(self, inner: Backend) -> None:
        super().__init__(inner)
        self.schemas: list[OutputSpec] = []

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        if schema is not None:
            self.schemas.append(schema)
        return await self._inner.generate(
            messages, schema=schema, settings=settings, context=context
        )


def canonical(spec: OutputSpec) -> str:
    return json.dumps([spec.name, spec.json_schema], sort_keys=True)


SENT = {
    "structured": {"OpeningReply", "CrossExamReply", "ClosingReply"},
    "freeform": {"SpeechReply"},
}


@pytest.mark.parametrize(
    ("debate_format", "seed"), [("structured", 4), ("structured", 5), ("freeform", 4)]
)
def test_every_schema_a_debate_sends_is_registered(debate_format: str, seed: int) -> None:
    # byte for byte: the registry holds what is really sent, so the converter tests
    # check the real thing (a panel, repeated judge runs and the swapped rerun too)
    recorder = SchemaRecorder(DemoBackend(seed=seed))
    run_debate(
        TOPIC,
        model=recorder,
        seed=seed,
        format=debate_format,
        panel=["technical", "business", "risk"],
        judge_runs=2,
        swap_sides=True,
    )
    registered_texts = {canonical(s) for specs in all_registered().values() for s in specs}
    assert {s.name for s in recorder.schemas} == {
        "TopicTypeReply",
        "JudgeReply",
        *SENT[debate_format],
    }
    unregistered = [s.name for s in recorder.schemas if canonical(s) not in registered_texts]
    assert unregistered == []
