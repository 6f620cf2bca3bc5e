"""The longest valid reply measures a node shared between places of a schema once
(a judge's pinned assessments share their score nodes), with the same answer as the
schema with nothing shared, for every schema moot sends."""

from __future__ import annotations

import json
from typing import Any

from moot.llm import bounds
from schema_registry import every_registered_schema


class Forgetful(dict[int, tuple[int, int]]):
    """A memo that remembers nothing: every place of the schema is walked."""

    def __setitem__(self, key: int, value: tuple[int, int]) -> None:
        pass


def nodes(node: Any) -> list[Any]:
    """Every dict and list of a JSON tree, once per place."""
    found: list[Any] = []
    if isinstance(node, dict | list):
        found.append(node)
        for value in node.values() if isinstance(node, dict) else node:
            found.extend(nodes(value))
    return found


def test_a_shared_node_is_measured_as_copies_of_it_are() -> None:
    shared = 0
    for spec in every_registered_schema():
        schema = spec.json_schema
        places = nodes(schema)
        shared += len(places) - len({id(n) for n in places})
        apart = json.loads(json.dumps(schema))  # the same tree, nothing shared
        walked = bounds._measure(schema, Forgetful())
        assert bounds.max_reply_chars(schema) == bounds.max_reply_chars(apart) == walked, spec.name
    assert shared  # the registry's pinned schemas do share nodes
