"""The base of every layer that wraps a backend (meter, journal, cache, budget,
concurrency): it keeps the inner backend and passes its spec through, so each layer
only says what it adds to ``generate``."""

from __future__ import annotations

from moot.llm.backend import Backend


class Wrapper:
    """A backend around another backend; subclasses implement ``generate``."""

    def __init__(self, inner: Backend) -> None:
        self._inner = inner

    @property
    def spec(self) -> str:
        return self._inner.spec
