"""A wave of concurrent model calls that stops as soon as one of them fails for good.

A debate's rounds and a judge panel send their calls together. When one call fails
for good (its retries spent, its reply never valid), waiting for the others gains
nothing: the run stops anyway, and a sibling stuck on a hanging server would hold it
for as long as that server hangs. So the siblings still in flight are cancelled and
awaited, and the failure is raised. A cancelled call leaves no reply in the journal,
so resuming the run sends it again; calls that completed are journaled and replayed.

A budget refusal is the one failure that lets its siblings finish: they were admitted
by the budget and are already being paid for, so their replies are kept (journaled)
before the refusal is raised.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable, Sequence
from typing import Any, TypeVar

from moot.errors import BudgetExceeded

T = TypeVar("T")


async def _cancel(tasks: Iterable[asyncio.Future[Any]]) -> None:
    running = list(tasks)
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)


async def gather_wave(calls: Sequence[Awaitable[T]]) -> list[T]:
    """Await ``calls`` concurrently; their results in order, or the first failure
    (after cancelling the siblings still running, unless it is a budget refusal)."""
    tasks: list[asyncio.Future[T]] = [asyncio.ensure_future(call) for call in calls]
    failure: BaseException | None = None
    try:
        pending: set[asyncio.Future[T]] = set(tasks)
        while pending:
            _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)
            if failure is None:
                failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception()]
                failure = failed[0].exception() if failed else None
            if failure is not None and not isinstance(failure, BudgetExceeded):
                await _cancel(pending)
                break
    except BaseException:
        # this wave itself was cancelled (Ctrl-C, SIGTERM): so is every call in it
        await asyncio.shield(_cancel(tasks))
        raise
    if failure is not None:
        raise failure
    return [task.result() for task in tasks]
