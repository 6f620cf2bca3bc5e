"""The JSON Schema of a debate result (``moot schema``): the envelope every format
shares, with ``payload`` described per registered format."""

from __future__ import annotations

from typing import Any

from moot.schema import SCHEMA_VERSION, DebateResult


def result_json_schema() -> dict[str, Any]:
    """The envelope's schema; ``payload`` has one optional property per format, each
    that format's payload schema, and a result holds exactly its own format's. The
    version is pinned (a result of another version is not this one), and the fields
    every result of this version has are required, ``detectors`` among them."""
    from moot.formats import formats

    schema = DebateResult.model_json_schema()
    defs: dict[str, Any] = schema.setdefault("$defs", {})
    properties: dict[str, Any] = {}
    own_payload: list[dict[str, Any]] = []
    for fmt in formats():
        payload = fmt.payload_type.model_json_schema(ref_template="#/$defs/{model}")
        defs.update(payload.pop("$defs", {}))
        name = f"{fmt.payload_type.__name__}"
        defs[name] = payload
        properties[fmt.name] = {"$ref": f"#/$defs/{name}"}
        own_payload.append(
            {
                "if": {"properties": {"format": {"const": fmt.name}}, "required": ["format"]},
                "then": {"properties": {"payload": {"required": [fmt.name]}}},
            }
        )
    schema["properties"]["payload"] = {
        "type": "object",
        "description": "The format's own part of the result, under the format's name.",
        "properties": properties,
        "additionalProperties": False,
        "minProperties": 1,
        "maxProperties": 1,
    }
    schema["properties"]["format"] = {
        **schema["properties"]["format"],
        "enum": [fmt.name for fmt in formats()],
    }
    schema["properties"]["schema_version"] = {
        **schema["properties"]["schema_version"],
        "const": SCHEMA_VERSION,
    }
    schema["required"] = ["schema_version", *schema["required"], "detectors"]
    schema["allOf"] = own_payload
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"moot debate result {SCHEMA_VERSION}"
    return schema
