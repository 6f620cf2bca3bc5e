"""One debate of a batch, run the same way whatever the executor: a debate the store
holds as done is skipped; one it holds unfinished (interrupted, failed, or left
``running`` by a process that is gone) is resumed, its journaled calls replayed, not
sent again; one it does not hold is started under its batch id. A debate another live
process is running is left to it (``busy``). A debate that fails is stored as failed
and the batch goes on; running the batch again resumes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from moot.batch.plan import Item
from moot.debate import aresume_debate, arun_debate
from moot.errors import ConfigError, MootError, StoreError
from moot.events import Listener as EventListener
from moot.llm.budget import PriceTable
from moot.schema import DebateResult
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


def finished_result(store: Store, debate_id: str) -> DebateResult:
    """The result of a debate the store holds as done; ``StoreError`` when it is not
    done or its result does not read back."""
    row = store.get_debate(debate_id)
    if row is None or row.status != "done" or not row.result_json:
        raise StoreError(f"run {debate_id!r} is not finished in the store")
    try:
        return DebateResult.model_validate_json(row.result_json)
    except ValidationError as exc:
        raise StoreError(f"the stored result of run {debate_id!r} does not read back") from exc


def check_finished(outcomes: Sequence[Outcome], what: str, rerun: str) -> None:
    """``MootError`` naming the first debate of ``what`` (a tournament, a backtest) that
    did not finish, and how to resume them (``rerun``); nothing when all finished."""
    unfinished = [o for o in outcomes if o.outcome not in FINISHED]
    if unfinished:
        first = unfinished[0]
        why = f", {first.error}" if first.error else ""
        raise MootError(
            f"{len(unfinished)} of {len(outcomes)} debates of {what} did not finish"
            f" ({first.id}: {first.outcome}{why}); run it again with {rerun} to resume them"
        )
