"""JSON schemas for structured replies: built from pydantic types, narrowed, portable.

Narrowing pins what code already knows (which ids a reply must cover) into the
schema sent to the model, so a decoder that honours it cannot get ids wrong. Code
still validates every reply with pydantic, the final word: not every server
honours every keyword.

Every schema moot sends stays inside one **portable subset** of JSON Schema: the
constructs that the constrained decoders of the servers people run accept *and*
enforce, llama.cpp's converter (``llama-server``, llama-cpp-python, Ollama and
LM Studio build on it) and vLLM's (xgrammar, outlines), and that OpenAI's
structured outputs accept. :func:`portability_problems` checks a schema against it:

- ``type`` is one string: ``object``, ``array``, ``string``, ``integer`` or
  ``boolean``; no ``null``, no list of types.
- An object lists its ``properties``, names every one of them in ``required`` and
  sets ``additionalProperties: false`` (OpenAI's strict form; grammar decoders
  then write every property, in order). Fixed keys (one property per known id)
  are the portable way to ask for "one entry per id".
- An array has either ``items`` (one schema, never ``false`` nor a list) and a
  ``maxItems``, or ``prefixItems`` (one schema per position) with ``minItems`` =
  ``maxItems`` = their number and *no* ``items`` at all. llama.cpp's converter
  rejects ``items: false`` ("schema must be an object") and, when ``items`` is a
  schema, silently ignores ``prefixItems``; the count bounds alone close the tuple
  for every engine.
- A string has an ``enum`` or a ``maxLength`` of at most 1000 (the longest string
  a llama.cpp grammar holds; ``minLength`` may come with it).
- An integer has an ``enum`` of its values (outlines ignores ``minimum`` and
  ``maximum``; :func:`enumerate_int_ranges` adds it, the bounds stay).
- Nothing else but ``title`` and ``description``: no ``$ref``/``$defs`` (inlined),
  no ``anyOf``/``oneOf``/``allOf``/``not``, no ``const`` (a one-value ``enum``), no
  ``pattern``, ``format``, ``default`` or ``uniqueItems``.

OpenAI enforces a schema only in its strict mode, which also refuses the length
keywords (``minLength``/``maxLength``) that keep small local models from writing
until the token limit (and does not list ``prefixItems``). moot therefore sends
``strict: false``: OpenAI accepts the schema and follows it without a guarantee,
and validation decides.

Every schema a module sends is registered with :func:`register_schemas`, so the
test suite can run all of them through the real converters (llama.cpp's C++
server and llama-cpp-python's Python port) and through :func:`portability_problems`.
A new format registers a function that returns every schema it can send.
"""

from __future__ import annotations

import copy
import functools
import marshal
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from moot.llm.local import MAX_GRAMMAR_STRING
from moot.llm.types import OutputSpec

SchemaSource = Callable[[], Iterable[OutputSpec]]

_REGISTRY: dict[str, SchemaSource] = {}


def register_schemas(owner: str) -> Callable[[SchemaSource], SchemaSource]:
    """Decorator: ``owner`` (a format or judging step) may send the schemas the
    decorated function returns; built with the same functions the owner uses, for
    representative ids, so the tests check exactly what is sent."""

    def decorate(source: SchemaSource) -> SchemaSource:
        _REGISTRY[owner] = source
        return source

    return decorate


def registered_schemas() -> dict[str, list[OutputSpec]]:
    """Every registered schema, by owner. Only modules already imported have
    registered theirs: import the package's modules first to see them all."""
    return {owner: list(source()) for owner, source in sorted(_REGISTRY.items())}


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
    ranges spelled out as enums. The schema is built once per type (pydantic takes
    ~0.7 ms a time, on every model call otherwise); each caller gets its own copy, so
    narrowing one call's schema never reaches another's: rebuilt by ``marshal.loads``
    from the schema's bytes, written once (new dicts and lists all the way down, as
    ``_copied`` makes them, in C; the cached schemas share no dict or list between two
    places, so nothing shared comes back shared)."""
    written = _schema_bytes(model)
    if written is None:
        schema: dict[str, Any] = _copied(_schema_of(model))
    else:
        schema = marshal.loads(written)  # noqa: S302 (bytes this process wrote)
    return OutputSpec(name=name or model.__name__, json_schema=schema)


_SCALARS = (str, int, float, bool, type(None))


def _copied(node: Any) -> Any:
    """A deep copy of a JSON schema: new dicts and lists all the way down, scalars
    shared (``copy.deepcopy`` gives the same, at several times the cost; the cached
    schemas share no dict or list between two places, ``inline_refs`` and
    ``enumerate_int_ranges`` build every one afresh)."""
    if type(node) is dict:
        return {key: _copied(value) for key, value in node.items()}
    if type(node) is list:
        return [_copied(value) for value in node]
    if isinstance(node, _SCALARS):
        return node
    return copy.deepcopy(node)


@functools.lru_cache(maxsize=256)
def _schema_of(model: type[BaseModel]) -> dict[str, Any]:
    schema: dict[str, Any] = enumerate_int_ranges(inline_refs(model.model_json_schema()))
    return schema


@functools.lru_cache(maxsize=256)
def _schema_bytes(model: type[BaseModel]) -> bytes | None:
    """``_schema_of(model)`` written by ``marshal``, or None if a value in it is not
    one ``marshal`` writes (then ``_copied`` copies it)."""
    try:
        return marshal.dumps(_schema_of(model))
    except ValueError:
        return None


def _replace_property(spec: OutputSpec, key: str, value: dict[str, Any]) -> OutputSpec:
    schema = dict(spec.json_schema)
    schema["properties"] = {**schema["properties"], key: value}
    return OutputSpec(name=spec.name, json_schema=schema)


def pin_items(spec: OutputSpec, array_key: str, id_key: str, ids: list[str]) -> OutputSpec:
    """Pin the array ``array_key`` to one item per id in ``ids``, in order, with the
    item's ``id_key`` fixed to that id (``prefixItems``, exactly ``len(ids)`` items)."""
    array = dict(spec.json_schema["properties"][array_key])
    item = array.pop("items")
    # No "items" beside "prefixItems": llama.cpp rejects ``items: false`` and lets
    # ``items: {...}`` override the tuple; the equal count bounds close it instead.
    array["prefixItems"] = [
        {**item, "properties": {**item["properties"], id_key: {"type": "string", "enum": [i]}}}
        for i in ids
    ]
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


_TYPES = frozenset({"object", "array", "string", "integer", "boolean"})
_KEYWORDS: dict[str, frozenset[str]] = {
    "object": frozenset({"properties", "required", "additionalProperties"}),
    "array": frozenset({"items", "prefixItems", "minItems", "maxItems"}),
    "string": frozenset({"enum", "minLength", "maxLength"}),
    "integer": frozenset({"enum", "minimum", "maximum"}),
    "boolean": frozenset(),
}
_ANNOTATIONS = frozenset({"type", "title", "description"})


def portability_problems(schema: Any, path: str = "$") -> list[str]:
    """Where ``schema`` leaves the portable subset (see the module docstring); empty
    when it is inside."""
    if not isinstance(schema, dict):
        return [f"{path}: a schema must be an object, not {json_type(schema)}"]
    kind = schema.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        return [f"{path}: type must be one of {', '.join(sorted(_TYPES))}, not {kind!r}"]
    problems = [
        f"{path}: keyword {key!r} is outside the portable subset for type {kind}"
        for key in schema
        if key not in _ANNOTATIONS and key not in _KEYWORDS[kind]
    ]
    if kind == "object":
        problems += _object_problems(schema, path)
    elif kind == "array":
        problems += _array_problems(schema, path)
    elif kind in ("string", "integer"):
        problems += _scalar_problems(schema, path, kind)
    return problems


def json_type(value: Any) -> str:
    """The JSON name of a Python value's type, for messages."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return "a string" if isinstance(value, str) else f"{type(value).__name__} {value!r}"


def _object_problems(schema: dict[str, Any], path: str) -> list[str]:
    properties = schema.get("properties")
    if not isinstance(properties, dict) or not properties:
        return [f"{path}: an object needs a non-empty 'properties'"]
    problems = []
    if schema.get("additionalProperties") is not False:
        problems.append(f"{path}: an object needs additionalProperties: false")
    required = schema.get("required")
    if not isinstance(required, list) or sorted(required) != sorted(properties):
        problems.append(f"{path}: 'required' must name every property, and only those")
    for name, value in properties.items():
        problems += portability_problems(value, f"{path}.{name}")
    return problems


def _array_problems(schema: dict[str, Any], path: str) -> list[str]:
    problems = []
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    if "prefixItems" in schema:
        prefix = schema["prefixItems"]
        if "items" in schema:
            problems.append(
                f"{path}: no 'items' beside 'prefixItems' (llama.cpp rejects items: false"
                " and ignores prefixItems when items is a schema)"
            )
        if not isinstance(prefix, list) or not prefix:
            return [*problems, f"{path}: 'prefixItems' must be a non-empty list of schemas"]
        if low != len(prefix) or high != len(prefix):
            problems.append(f"{path}: with prefixItems, minItems = maxItems = {len(prefix)}")
        for n, item in enumerate(prefix):
            problems += portability_problems(item, f"{path}[{n}]")
        return problems
    items = schema.get("items")
    if not isinstance(items, dict):
        problems.append(f"{path}: 'items' must be one schema, not {json_type(items)}")
    else:
        problems += portability_problems(items, f"{path}[]")
    if not isinstance(high, int) or isinstance(high, bool):
        problems.append(f"{path}: an array needs an integer maxItems")
    elif not isinstance(low, int) or isinstance(low, bool) or not 0 <= low <= high:
        problems.append(f"{path}: needs 0 <= minItems <= maxItems")
    return problems


def _scalar_problems(schema: dict[str, Any], path: str, kind: str) -> list[str]:
    value_type: type = str if kind == "string" else int
    enum = schema.get("enum")
    if enum is not None:
        if (
            not isinstance(enum, list)
            or not enum
            or not all(isinstance(v, value_type) and not isinstance(v, bool) for v in enum)
        ):
            return [f"{path}: 'enum' must be a non-empty list of {kind} values"]
        return []
    if kind == "integer":
        return [f"{path}: an integer needs an 'enum' of its values (outlines ignores bounds)"]
    limit = schema.get("maxLength")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit > MAX_GRAMMAR_STRING:
        return [f"{path}: a string needs an enum or a maxLength <= {MAX_GRAMMAR_STRING}"]
    if schema.get("minLength", 0) > limit:
        return [f"{path}: minLength is greater than maxLength"]
    return []
