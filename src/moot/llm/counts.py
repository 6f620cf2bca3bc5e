"""Token counts as a server reports them, checked (see :mod:`moot.llm.checked`).

Apart from the backend wrappers, so a backend can use it without importing them."""

from __future__ import annotations

MAX_REPORTED_TOKENS = 1_000_000_000
"""The most tokens one call can report for its prompt or its reply: far above any
model's context window, far below what a sum of calls could overflow."""


def token_count(value: object, what: str) -> int:
    """``value`` as a token count, or ``ValueError`` naming ``what`` and the value:
    an integer (an integral float such as ``12.0`` is accepted) from 0 to
    :data:`MAX_REPORTED_TOKENS`. ``None`` counts 0 (the server did not say)."""
    if value is None:
        return 0
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    if number is None or not 0 <= number <= MAX_REPORTED_TOKENS:
        shown = repr(value)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        raise ValueError(
            f"{what} is {shown}, not a token count (an integer from 0 to {MAX_REPORTED_TOKENS:,})"
        )
    return number
