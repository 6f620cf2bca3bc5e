"""Values kept by a schema's ``marshal`` bytes: the copy ``output_spec`` hands each
caller, and the longest valid reply of a schema seen before."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from moot.llm import bounds, schemas
from moot.llm.schemas import output_spec
from schema_registry import every_registered_schema
from test_reply_bound_shared import nodes as containers


def reply_types() -> list[type[BaseModel]]:
    """Every reply type a registered schema is named after."""
    every_registered_schema()  # imports every module
    names = {spec.name for spec in every_registered_schema()}
    found: dict[str, type[BaseModel]] = {}
    stack: list[type[BaseModel]] = [BaseModel]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            if sub.__name__ in names and sub.__module__.startswith("moot."):
                found.setdefault(f"{sub.__module__}.{sub.__qualname__}", sub)
    return list(found.values())


def test_each_caller_gets_its_own_copy_equal_to_the_schema() -> None:
    types = reply_types()
    assert len(types) >= 10
    for model in types:
        cached = schemas._schema_of(model)
        first, second = output_spec(model).json_schema, output_spec(model).json_schema
        assert first == second == schemas._copied(cached), model
        assert repr(first) == repr(cached), model  # the same types: True is not 1
        held = {id(n) for n in containers(cached)}
        mine = [id(n) for n in containers(first)]
        assert len(set(mine)) == len(mine)  # nothing shared between two places
        assert not held & set(mine)
        assert not set(mine) & {id(n) for n in containers(second)}


class _Odd(int):
    """An integer ``marshal`` does not write."""


def test_a_schema_marshal_cannot_write_is_copied() -> None:
    class Reply(BaseModel):
        text: str = Field(max_length=_Odd(50))

    assert schemas._schema_bytes(Reply) is None
    spec = output_spec(Reply)
    assert spec.json_schema == schemas._schema_of(Reply)
    assert spec.json_schema is not schemas._schema_of(Reply)


def test_the_longest_reply_is_the_walks_for_every_schema_sent() -> None:
    for spec in every_registered_schema():
        schema = spec.json_schema
        walked = bounds._measure(schema)
        assert bounds.max_reply_chars(schema) == walked, spec.name
        assert bounds.max_reply_chars(schema) == walked, spec.name  # from the cache


def test_schemas_that_differ_in_a_type_only_are_measured_apart() -> None:
    as_int = {"type": "integer", "minimum": 0, "maximum": 10}
    as_float = {"type": "integer", "minimum": 0, "maximum": 10.0}
    assert as_int == as_float  # equal in Python, written differently in JSON
    assert bounds.max_reply_chars(as_int) == (0, 2)
    assert bounds.max_reply_chars(as_float) == (0, 4)
    assert bounds.max_reply_chars(as_int) == (0, 2)
    unmarshalled = {"type": "string", "maxLength": _Odd(7)}
    assert bounds.max_reply_chars(unmarshalled) == (7, 2)


def test_an_unbounded_schema_raises_each_time() -> None:
    for _ in range(2):  # an error is never kept
        with pytest.raises(ValueError, match="no longest value"):
            bounds.max_reply_chars({"type": "string"})
