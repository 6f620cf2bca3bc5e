"""One debate of a batch, run the same way whatever the executor: a debate the store
holds as done is skipped; one it holds unfinished (interrupted, failed, or left
``running`` by a process that is gone) is resumed, its journaled calls replayed, not
sent again; one it does not hold is started under its batch id. A debate another live
process is running is left to it (``busy``). A debate that fails is stored as failed
and the batch goes on; running the batch again resumes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from moot.batch.plan import Item
from moot.debate import aresume_debate, arun_debate
from moot.errors import ConfigError, MootError
from moot.events import Listener as EventListener
from moot.llm.budget import PriceTable
from moot.store import Store

OUTCOMES = ("done", "skipped", "resumed", "failed", "busy", "lost")
FINISHED = frozenset({"done", "skipped", "resumed"})
"""The outcomes of a debate the store now holds as done."""
"""``done``: run now to the end; ``skipped``: done before; ``resumed``: finished now
from a partial run; ``failed``: stopped with an error (stored, resumable); ``busy``:
another live process runs it; ``lost``: the workers running it kept dying (Ray: after
each loss the executor resumes it in a new task, a few times; resumable)."""


@dataclass(frozen=True)
class Outcome:
    """What became of one debate of the batch."""

    id: str
    outcome: str
    error: str | None = None
    attempts: int = 1
    """Tasks the debate took: more than one when a worker running it died and the
    executor resumed it in the same batch (Ray)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "outcome": self.outcome,
            "error": self.error,
            "attempts": self.attempts,
        }


Listener = Callable[[Outcome], None]


async def run_item(
    item: Item,
    store: Store,
    *,
    model_concurrency: int | None = None,
    prices: PriceTable | None = None,
    lost_owner: str | None = None,
    on_event: EventListener | None = None,
) -> Outcome:
    """Run, resume or skip one debate (see the module). ``lost_owner`` is the
    ``host:pid`` of a worker the executor knows died running this debate: a run still
    marked running by exactly that owner is taken over (on another host its death
    could not be checked, and a killed process not yet reaped still looks alive)."""
    row = store.get_debate(item.id)
    if row is not None and row.status == "done":
        return Outcome(item.id, "skipped")
    try:
        if row is None:
            options = item.run_options()
            if model_concurrency is not None:
                options = options.replace(concurrency=model_concurrency)
            await arun_debate(
                item.topic,
                options,
                store=store,
                debate_id=item.id,
                prices=prices,
                on_event=on_event,
            )
            return Outcome(item.id, "done")
        force = lost_owner is not None and row.status == "running" and row.owner == lost_owner
        await aresume_debate(item.id, store=store, prices=prices, force=force, on_event=on_event)
        return Outcome(item.id, "resumed")
    except ConfigError as exc:
        if "still running" in str(exc) or "already exists" in str(exc):
            return Outcome(item.id, "busy", str(exc))
        return Outcome(item.id, "failed", f"{type(exc).__name__}: {exc}")
    except MootError as exc:  # a backend, a model's output, a budget: stored as such
        return Outcome(item.id, "failed", f"{type(exc).__name__}: {exc}")
