"""The JSON Schema of a debate result (``moot schema``): the envelope every format
shares, with ``payload`` described per registered format."""

from __future__ import annotations

from typing import Any

from moot.schema import SCHEMA_VERSION, DebateResult


def result_json_schema() -> dict[str, Any]:
    """The envelope's schema; ``payload`` has one optional property per format, each
    that format's payload schema (a result holds its own format's)."""
    from moot.formats import formats

    schema = DebateResult.model_json_schema()
    defs: dict[str, Any] = schema.setdefault("$defs", {})
    properties: dict[str, Any] = {}
    for fmt in formats():
        payload = fmt.payload_type.model_json_schema(ref_template="#/$defs/{model}")
        defs.update(payload.pop("$defs", {}))
        name = f"{fmt.payload_type.__name__}"
        defs[name] = payload
        properties[fmt.name] = {"$ref": f"#/$defs/{name}"}
    schema["properties"]["payload"] = {
        "type": "object",
        "description": "The format's own part of the result, under the format's name.",
        "properties": properties,
        "additionalProperties": False,
        "minProperties": 1,
        "maxProperties": 1,
    }
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"moot debate result {SCHEMA_VERSION}"
    return schema
