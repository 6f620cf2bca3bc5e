"""Running a batch's debates into the store: the local executor (asyncio in this
process, at most ``concurrency`` debates at once), or the Ray one; each debate as
:func:`moot.batch.one.run_item` runs it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from moot.batch.one import Listener, Outcome, run_item
from moot.batch.plan import Item, Plan
from moot.errors import ConfigError
from moot.events import Listener as EventListener
from moot.llm.budget import PriceTable
from moot.store import Store


async def run_local(
    items: Sequence[Item],
    store: Store,
    *,
    concurrency: int,
    model_concurrency: int | None = None,
    prices: PriceTable | None = None,
    on_outcome: Listener | None = None,
    on_event: EventListener | None = None,
) -> list[Outcome]:
    """Every item on this process's event loop, at most ``concurrency`` at once."""
    if concurrency < 1:
        raise ConfigError("--concurrency must be at least 1")
    gate = asyncio.Semaphore(concurrency)

    async def one(item: Item) -> Outcome:
        async with gate:
            outcome = await run_item(
                item, store, model_concurrency=model_concurrency, prices=prices, on_event=on_event
            )
        if on_outcome is not None:
            on_outcome(outcome)
        return outcome

    return list(await asyncio.gather(*(one(item) for item in items)))


def run_items(
    items: Sequence[Item],
    store: Store,
    *,
    executor: str = "local",
    concurrency: int = 8,
    model_concurrency: int | None = None,
    address: str | None = None,
    prices: PriceTable | None = None,
    on_outcome: Listener | None = None,
    on_event: EventListener | None = None,
) -> list[Outcome]:
    """Run ``items`` into ``store`` on the ``local`` or ``ray`` executor (Ray's tasks
    open the store themselves, at its location); the outcomes in ``items``' order.
    ``on_event`` hears the debates' events on the local executor only (a Ray task's
    stay in its worker)."""
    if executor == "ray":
        from moot.batch.ray_executor import run_ray

        return run_ray(
            items,
            store.location,
            address=address,
            concurrency=concurrency,
            model_concurrency=model_concurrency,
            on_outcome=on_outcome,
        )
    if executor != "local":
        raise ConfigError(f"--executor must be local or ray, not {executor!r}")
    if address is not None:
        raise ConfigError("--address is the Ray cluster's: it needs --executor ray")
    return asyncio.run(
        run_local(
            items,
            store,
            concurrency=concurrency,
            model_concurrency=model_concurrency,
            prices=prices,
            on_outcome=on_outcome,
            on_event=on_event,
        )
    )


def run_batch(
    plan: Plan,
    location: Path | str | None = None,
    *,
    executor: str = "local",
    concurrency: int = 8,
    model_concurrency: int | None = None,
    address: str | None = None,
    prices: PriceTable | None = None,
    on_outcome: Listener | None = None,
) -> list[Outcome]:
    """Run ``plan`` into the store at ``location`` (default: the configured store) on
    the ``local`` or ``ray`` executor; the outcomes in the plan's order."""
    with Store(location) as store:
        return run_items(
            plan.items,
            store,
            executor=executor,
            concurrency=concurrency,
            model_concurrency=model_concurrency,
            address=address,
            prices=prices,
            on_outcome=on_outcome,
        )
