"""``moot batch``: a named grid of debates (topics x formats x models x seeds x
options) run into the store, resumable as a whole, on the local executor (asyncio) or
on Ray.

- ``plan``: the plan file (TOML or JSONL), checked whole before anything runs;
- ``one``: one debate of a batch (run, resume or skip it) and its outcome;
- ``run``: the local executor, and the choice of executor;
- ``ray_executor``: the Ray executor (the ``ray`` extra);
- ``summary``: the per-configuration summary table and its CSV.
"""

from __future__ import annotations

from moot.batch.one import OUTCOMES, Outcome
from moot.batch.plan import MAX_DEBATES, Item, Plan, load_plan
from moot.batch.run import run_batch

__all__ = ["MAX_DEBATES", "OUTCOMES", "Item", "Outcome", "Plan", "load_plan", "run_batch"]
