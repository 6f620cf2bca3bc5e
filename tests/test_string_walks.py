"""The walks over a reply's strings (usable text, echo, loops) step over numbers,
booleans and null, and find the same strings at the same paths as a walk into every
value."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from moot import usable
from moot.llm import echo, structured

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(["a b c", "x"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["a", "b", "c"]), inner)
    ),
    max_leaves=10,
)


def every_string(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """The echo walk as it was: into every value."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from every_string(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for n, item in enumerate(value, start=1):
            yield from every_string(item, f"{path}[{n}]")


@settings(max_examples=100, deadline=None)
@given(JSON)
def test_the_walks_find_every_string(value: Any) -> None:
    strings = list(every_string(value, ""))
    assert list(echo._strings(value, "")) == strings
    free = [(where, text) for where, text, _ in usable.free_strings(value, {})]
    assert free == strings
    assert structured.loops(value) == [
        run for _, text in strings for run in usable.looping_runs(text)
    ]
