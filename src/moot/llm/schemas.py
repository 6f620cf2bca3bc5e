"""JSON schemas for structured replies: built from pydantic types, then narrowed.

Narrowing pins what code already knows (which ids a reply must cover) into the
schema sent to the model, so a decoder that honours it cannot get ids wrong. Code
still validates every reply: not every server honours every keyword.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from moot.llm.types import OutputSpec


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Return ``schema`` with every local ``$ref`` replaced by its definition."""
    defs: dict[str, Any] = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return walk(defs[ref.removeprefix("#/$defs/")])
            return {k: walk(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    result: dict[str, Any] = walk(schema)
    return result


SMALL_RANGE = 100


def enumerate_int_ranges(node: Any) -> Any:
    """Give every small bounded integer an explicit ``enum`` of its values.

    Grammar-based decoders (llama.cpp) do not all enforce ``minimum``/``maximum``;
    every decoder enforces an ``enum``. The bounds stay for validators that read them.
    """
    if isinstance(node, dict):
        out = {k: enumerate_int_ranges(v) for k, v in node.items()}
        low, high = out.get("minimum"), out.get("maximum")
        if (
            out.get("type") == "integer"
            and isinstance(low, int)
            and isinstance(high, int)
            and 0 <= high - low <= SMALL_RANGE
        ):
            out["enum"] = list(range(low, high + 1))
        return out
    if isinstance(node, list):
        return [enumerate_int_ranges(v) for v in node]
    return node


def output_spec(model: type[BaseModel], *, name: str | None = None) -> OutputSpec:
    """The JSON schema of a reply type, self-contained (no ``$ref``), with small integer
    ranges spelled out as enums."""
    schema = enumerate_int_ranges(inline_refs(model.model_json_schema()))
    return OutputSpec(name=name or model.__name__, json_schema=schema)


def _replace_property(spec: OutputSpec, key: str, value: dict[str, Any]) -> OutputSpec:
    schema = dict(spec.json_schema)
    schema["properties"] = {**schema["properties"], key: value}
    return OutputSpec(name=spec.name, json_schema=schema)


def pin_items(spec: OutputSpec, array_key: str, id_key: str, ids: list[str]) -> OutputSpec:
    """Pin the array ``array_key`` to one item per id in ``ids``, in order, with the
    item's ``id_key`` fixed to that id (``prefixItems``)."""
    array = dict(spec.json_schema["properties"][array_key])
    item = array.pop("items")
    array["prefixItems"] = [
        {**item, "properties": {**item["properties"], id_key: {"type": "string", "enum": [i]}}}
        for i in ids
    ]
    array["items"] = False
    array["minItems"] = array["maxItems"] = len(ids)
    return _replace_property(spec, array_key, array)


def enum_items(spec: OutputSpec, array_key: str, values: list[str]) -> OutputSpec:
    """Restrict the string items of ``array_key`` to ``values``."""
    array = dict(spec.json_schema["properties"][array_key])
    array["items"] = {"type": "string", "enum": list(values)}
    return _replace_property(spec, array_key, array)


def enum_item_field(spec: OutputSpec, array_key: str, field: str, values: list[str]) -> OutputSpec:
    """Restrict ``field`` of every object in the array ``array_key`` to ``values``."""
    array = dict(spec.json_schema["properties"][array_key])
    item = dict(array["items"])
    item["properties"] = {**item["properties"], field: {"type": "string", "enum": list(values)}}
    array["items"] = item
    return _replace_property(spec, array_key, array)
