"""The Ray executor (``moot batch --executor ray``, the ``ray`` extra): each debate is
one Ray task that opens the store itself and runs, resumes or skips its debate
(:func:`moot.batch.run.run_item`), so the store is the only state the tasks share.

Without ``--address`` a Ray instance is started on this machine (loopback, no
dashboard) for the batch; with one, the batch joins that cluster, and the store must be
PostgreSQL (a file on this machine is not shared by the others). At most
``concurrency`` tasks are in flight; each task's debate sends at most
``model_concurrency`` calls at once to a model endpoint, so a model server is not
flooded by the cluster.

Ray does not retry a task itself (``max_retries=0``: a retried task would find its
debate marked running by the dead worker). When a task's worker dies, this executor
reads who the store says was running the debate and submits a new task that takes the
run over from exactly that owner and resumes it from its journal, so no call journaled
before the loss is sent again; after :data:`LOST_RETRIES` such losses the debate is
``lost`` and the next run of the batch resumes it.

A cluster that goes away (its head node killed or lost) stops the batch with what is
done kept: Ray's driver would block in ``ray.wait`` and, a minute later, end the whole
process from its C++ core with no message. So the driver waits in a thread and, while
no task finishes, checks every :data:`POLL_S` that the head's GCS still accepts a
connection; refused for :data:`GONE_AFTER_S`, the batch stops with a
:class:`~moot.errors.BackendError` naming the cluster (exit 1). The debates finished
are in the store; those the lost workers were running stay ``running`` under the dead
workers' ``host:pid`` and are resumed from their journals by the next run of the batch,
on a new cluster or the local executor.
"""

from __future__ import annotations

import asyncio
import os
import queue
import socket
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from moot.batch.one import FINISHED, Listener, Outcome, run_item
from moot.batch.plan import Item
from moot.errors import BackendError, ConfigError
from moot.store import Store
from moot.store.connection import STORE_ENV, default_location, is_url

try:
    import ray
    import ray.exceptions
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ConfigError("--executor ray needs Ray: pip install 'moot[ray]'") from exc


TASK_CPUS = 0.125
"""The CPU a debate task reserves: a debate mostly waits on its model, so a worker
node's CPU runs 8 at once (Ray starts one worker process per running task)."""
LOST_RETRIES = 2
"""New tasks a debate gets in one batch after workers running it died."""
POLL_S = 1.0
"""How often the driver checks the head while no task finishes."""
GONE_AFTER_S = 3.0
"""How long the head's GCS must refuse connections before the cluster is taken as
gone (Ray's own driver gives up after 60 s, ending the process)."""
SHUTDOWN_WAIT_S = 5.0
"""How long to let ``ray.shutdown`` try on a cluster that is gone (it blocks)."""


class ClusterGone(Exception):
    """The head node's GCS refused connections for :data:`GONE_AFTER_S`."""


def _task(
    item: dict[str, Any],
    location: str,
    model_concurrency: int | None,
    lost_owner: str | None,
) -> dict[str, Any]:
    """One debate, in a Ray worker (``lost_owner``: see :func:`run_item`)."""
    with Store(location) as store:
        outcome = asyncio.run(
            run_item(
                Item(**item), store, model_concurrency=model_concurrency, lost_owner=lost_owner
            )
        )
    return outcome.as_json()


def run_ray(
    items: Sequence[Item],
    location: Path | str | None,
    *,
    address: str | None,
    concurrency: int,
    model_concurrency: int | None,
    on_outcome: Listener | None = None,
) -> list[Outcome]:
    """Every item as a Ray task (see the module); the outcomes in ``items``' order."""
    where = str(location if location is not None else default_location())
    if address is not None and not is_url(where):
        raise ConfigError(
            "--executor ray --address runs debates on other machines: the store must be"
            " PostgreSQL (--store postgresql://...), not the file " + where
        )
    if concurrency < 1:
        raise ConfigError("--concurrency must be at least 1")
    started = not ray.is_initialized()
    if started:
        # the workers open the store this process names (MOOT_STORE, PYTHONPATH)
        env = {k: v for k in (STORE_ENV, "PYTHONPATH", "MOOT_HOME") if (v := os.environ.get(k))}
        try:
            if address is None:
                ray.init(
                    # a new instance, even where a cluster `ray start` began (or one
                    # killed since) is recorded on this machine
                    address="local",
                    include_dashboard=False,
                    _node_ip_address="127.0.0.1",
                    runtime_env={"env_vars": env},
                    log_to_driver=False,
                )
            else:
                ray.init(address=address, runtime_env={"env_vars": env}, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise BackendError(f"cannot reach the Ray cluster {address or 'local'}: {exc}") from exc
    remote = ray.remote(max_retries=0, num_cpus=TASK_CPUS)(_task)
    head = _gcs_endpoint()
    gone = False
    results: dict[str, Outcome] = {}
    pending: dict[Any, tuple[Item, int]] = {}
    queue: list[tuple[Item, int, str | None]] = [(item, 1, None) for item in items]
    try:
        while queue or pending:
            while queue and len(pending) < concurrency:
                item, attempt, lost_owner = queue.pop(0)
                ref = remote.remote(item.as_json(), where, model_concurrency, lost_owner)
                pending[ref] = (item, attempt)
            ready = _wait_one(list(pending), head)
            for ref in ready:
                item, attempt = pending.pop(ref)
                outcome = _collect(ref, item, attempt)
                if outcome.outcome == "lost" and attempt <= LOST_RETRIES:
                    # first, so the resumed debate waits behind no other
                    queue.insert(0, (item, attempt + 1, _owner(where, item.id)))
                    continue
                results[item.id] = outcome
                if on_outcome is not None:
                    on_outcome(outcome)
    except (ray.exceptions.RayError, ClusterGone) as exc:
        gone = isinstance(exc, ClusterGone)
        done = sum(1 for o in results.values() if o.outcome in FINISHED)
        why = str(exc) if gone else type(exc).__name__
        raise BackendError(
            f"the Ray cluster {address or 'started for this batch'} went away ({why}) after"
            f" {done} of {len(items)} debates finished; they are stored, and the debates"
            " it was running are kept to resume: run the batch again (on a new cluster"
            " with --address, or --executor local) to finish it"
        ) from exc
    finally:
        if started:
            _shutdown(bounded=gone)
    return [results[item.id] for item in items]


def _gcs_endpoint() -> tuple[str, int] | None:
    """The host and port of the cluster's GCS (on its head node), if Ray names it."""
    host, _, port = str(ray.get_runtime_context().gcs_address or "").rpartition(":")
    return (host, int(port)) if host and port.isdigit() else None


def _reachable(endpoint: tuple[str, int]) -> bool:
    try:
        socket.create_connection(endpoint, timeout=POLL_S).close()
    except OSError:
        return False
    return True


def _wait_one(refs: list[Any], head: tuple[str, int] | None) -> list[Any]:
    """The refs ready once at least one is: ``ray.wait`` in a thread (it blocks with no
    timeout once the head is gone), the head checked while it waits; ``ClusterGone``
    when the head refused connections for :data:`GONE_AFTER_S`."""
    answer: queue.Queue[tuple[list[Any], BaseException | None]] = queue.Queue()

    def wait() -> None:
        try:
            answer.put((ray.wait(refs, num_returns=1)[0], None))
        except BaseException as exc:  # handed to the driver's thread
            answer.put(([], exc))

    threading.Thread(target=wait, name="moot-ray-wait", daemon=True).start()
    refused_since: float | None = None
    while True:
        try:
            ready, error = answer.get(timeout=POLL_S)
        except queue.Empty:
            if head is None or _reachable(head):
                refused_since = None
                continue
            now = time.monotonic()
            refused_since = now if refused_since is None else refused_since
            if now - refused_since >= GONE_AFTER_S:
                raise ClusterGone(f"its head {head[0]}:{head[1]} refuses connections") from None
            continue
        if error is not None:
            raise error
        return ready


def _shutdown(*, bounded: bool) -> None:
    """Disconnect from Ray; on a cluster that is gone, give up after
    :data:`SHUTDOWN_WAIT_S` (``ray.shutdown`` blocks there)."""
    if not bounded:
        ray.shutdown()
        return
    done = threading.Thread(target=ray.shutdown, name="moot-ray-shutdown", daemon=True)
    done.start()
    done.join(SHUTDOWN_WAIT_S)


def _owner(location: str, debate_id: str) -> str | None:
    """Who the store says is running ``debate_id`` (``host:pid``), if anyone."""
    with Store(location) as store:
        row = store.get_debate(debate_id)
    return row.owner if row is not None and row.status == "running" else None


def _collect(ref: Any, item: Item, attempt: int) -> Outcome:
    """A finished task's outcome; ``lost`` when its worker died. Any other Ray failure
    is the cluster's and propagates."""
    try:
        return Outcome(**{**ray.get(ref), "attempts": attempt})
    except (ray.exceptions.WorkerCrashedError, ray.exceptions.TaskCancelledError) as exc:
        return Outcome(item.id, "lost", type(exc).__name__, attempt)
    except ray.exceptions.RayTaskError as exc:  # the task raised: that debate failed
        return Outcome(item.id, "failed", str(exc).strip().splitlines()[-1], attempt)
