"""Which JSON Schema constructs llama.cpp's converters reject, enforce or silently ignore.

The evidence behind the portable subset in ``moot.llm.schemas``. Each construct is
sent to two converters:

- llama.cpp's C++ converter, in llama.cpp's real HTTP server (the code of
  ``llama-server``, from xllamacpp's wheel: tools/xllamacpp_server.py) serving the
  embedded GGUF: ``POST /completion`` with
  ``json_schema`` and ``n_predict: 0`` answers HTTP 400 for a refused schema and
  otherwise reports the grammar it built (``generation_settings.grammar``);
- llama-cpp-python's copy of llama.cpp's Python port (``llama_cpp.llama_grammar``),
  which its server and moot's local backend use.

A construct is "enforced" when its grammar differs from the grammar of the same
schema without it, and "ignored" when the two are the same: accepted, changing
nothing. Constructs without such a baseline are only reported as accepted or not.

    python benchmarks/schema_constructs.py
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import xllamacpp_server
from moot.llm.local import embedded_model_path

Schema = dict[str, Any]

SLOT: Schema = {
    "type": "object",
    "properties": {"id": {"type": "string", "enum": ["?"]}, "ok": {"type": "boolean"}},
    "required": ["id", "ok"],
    "additionalProperties": False,
}


def slot(value: str) -> Schema:
    return {**SLOT, "properties": {**SLOT["properties"], "id": {"type": "string", "enum": [value]}}}


def wrap(node: Schema) -> Schema:
    return {
        "type": "object",
        "properties": {"x": node},
        "required": ["x"],
        "additionalProperties": False,
    }


TUPLE: Schema = {"type": "array", "prefixItems": [slot("ZQ-7"), slot("ZQ-9")]}
LIST: Schema = {"type": "array", "items": SLOT, "minItems": 2, "maxItems": 2}

#: name -> (schema, the same schema without the construct, or None)
CONSTRUCTS: dict[str, tuple[Schema, Schema | None]] = {
    "prefixItems, minItems = maxItems, no items (moot's form)": (
        wrap({**TUPLE, "minItems": 2, "maxItems": 2}),
        wrap(LIST),
    ),
    "prefixItems + items: false": (
        wrap({**TUPLE, "items": False, "minItems": 2, "maxItems": 2}),
        None,
    ),
    "prefixItems + items: {type: object}": (
        wrap({**TUPLE, "items": {"type": "object"}, "minItems": 2, "maxItems": 2}),
        wrap({"type": "array", "items": {"type": "object"}, "minItems": 2, "maxItems": 2}),
    ),
    "items as a list (draft-07 tuple)": (
        wrap({"type": "array", "items": [slot("ZQ-7"), slot("ZQ-9")]}),
        None,
    ),
    "object with fixed required keys": (
        wrap(
            {
                "type": "object",
                "properties": {"ZQ-7": {"type": "boolean"}, "ZQ-9": {"type": "boolean"}},
                "required": ["ZQ-7", "ZQ-9"],
                "additionalProperties": False,
            }
        ),
        None,
    ),
    "maxItems": (
        wrap({"type": "array", "items": SLOT, "maxItems": 3}),
        wrap({"type": "array", "items": SLOT}),
    ),
    "uniqueItems": (
        wrap({"type": "array", "items": SLOT, "maxItems": 3, "uniqueItems": True}),
        wrap({"type": "array", "items": SLOT, "maxItems": 3}),
    ),
    "string maxLength 1000": (
        wrap({"type": "string", "maxLength": 1000}),
        wrap({"type": "string"}),
    ),
    "string maxLength 5000": (
        wrap({"type": "string", "maxLength": 5000}),
        wrap({"type": "string"}),
    ),
    "string pattern": (
        wrap({"type": "string", "pattern": "^[A-Z]{3}$"}),
        wrap({"type": "string"}),
    ),
    "string format: date": (
        wrap({"type": "string", "format": "date"}),
        wrap({"type": "string"}),
    ),
    "integer minimum/maximum": (
        wrap({"type": "integer", "minimum": 1, "maximum": 10}),
        wrap({"type": "integer"}),
    ),
    "const": (wrap({"const": "ZQ-7"}), None),
    "anyOf": (wrap({"anyOf": [{"type": "string", "maxLength": 5}, {"type": "integer"}]}), None),
    "$ref to $defs": ({**wrap({"$ref": "#/$defs/Slot"}), "$defs": {"Slot": SLOT}}, None),
    "type list with null": (
        wrap({"type": ["string", "null"], "maxLength": 5}),
        None,
    ),
    "optional property (not in required)": (
        {
            "type": "object",
            "properties": {"x": {"type": "boolean"}, "y": {"type": "boolean"}},
            "required": ["x"],
            "additionalProperties": False,
        },
        None,
    ),
}


def python_port(schema: Schema) -> str:
    """The grammar, or ``REJECTED: why``, or ``not installed`` (llama-cpp-python is
    an optional runtime, built from source)."""
    try:
        port: Any = importlib.import_module("llama_cpp.llama_grammar")
    except ImportError:
        return "not installed"
    converter = port.SchemaConverter(
        prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False
    )
    try:
        converter.visit(converter.resolve_refs(copy.deepcopy(schema), ""), "")
        return str(converter.format_grammar())
    except Exception as exc:  # the port raises plain exceptions
        return f"REJECTED: {type(exc).__name__}: {exc}"


def cpp_server(base: str, schema: Schema) -> str:
    """The grammar llama-server built, or ``REJECTED: why``."""
    body = json.dumps({"prompt": "x", "n_predict": 0, "json_schema": schema}).encode()
    request = urllib.request.Request(  # noqa: S310 (loopback http)
        f"{base}/completion", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 (loopback)
            reply = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        detail = json.loads(exc.read() or b"{}").get("error", {}).get("message", "")
        return f"REJECTED: HTTP {exc.code}: {detail}"
    return str(reply["generation_settings"]["grammar"])


def verdict(grammar: str, baseline: str | None) -> str:
    if grammar == "not installed":
        return grammar
    if grammar.startswith("REJECTED"):
        return " ".join(grammar.split())[:160]
    if baseline is None or baseline.startswith("REJECTED"):
        return "accepted"
    if grammar == baseline:
        return "accepted, IGNORED (same grammar as without it)"
    return "accepted, enforced"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory() as tmp,
        xllamacpp_server.serve(embedded_model_path(), log=Path(tmp) / "server.log") as base,
    ):
        print(f"{'construct':<56} | llama-server (C++) | llama-cpp-python (Python port)")
        for name, (schema, baseline) in CONSTRUCTS.items():
            cpp = verdict(
                cpp_server(base, schema), cpp_server(base, baseline) if baseline else None
            )
            py = verdict(python_port(schema), python_port(baseline) if baseline else None)
            print(f"{name:<56} | {cpp} | {py}")


if __name__ == "__main__":
    main()
