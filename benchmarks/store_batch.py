"""The store on SQLite and on PostgreSQL, and ``moot batch`` on its two executors.

    python benchmarks/store_batch.py                       # everything, 200 debates
    python benchmarks/store_batch.py --debates 1000        # the issue's grid size
    python benchmarks/store_batch.py --only store          # the store figures only
    python benchmarks/store_batch.py --only batch --executors ray   # one executor

Starts its own PostgreSQL (Debian's; tests/pg_server.py, with fsync on as a real
server has it) on 127.0.0.1 and, for Ray, a local Ray instance with 2 workers. Prints:

- journal write latency: ``record_call`` one at a time (each its own committed
  transaction), mean / p50 / p95 ms, on each store;
- run and resume throughput: scripted debates (``scripted:demo``, no latency) run one
  after another, then each resumed with every call replayed from the journal (marked
  interrupted first), in debates and calls per second, with the process CPU per call
  (the orchestration overhead: the scripted model costs nothing);
- a batch grid of N debates on ``scripted:demo?latency_ms=200``: debates per minute on
  the local executor (concurrency 64) and on Ray with 2 workers (concurrency 64), into
  PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from moot.batch import Plan
from moot.batch.plan import _item
from moot.batch.run import run_batch
from moot.debate import aresume_debate, arun_debate
from moot.store import Store
from pg_server import pg_server

TOPIC = "Should a 10-person startup adopt microservices from day one?"


def journal_latency(store: Store, writes: int) -> dict[str, float]:
    store.create_debate("lat", topic="t", format="structured", config={}, models={})
    times = []
    for n in range(writes):
        start = time.perf_counter()
        store.record_call(
            "lat",
            role="pro",
            round="opening",
            side="pro",
            attempt=1,
            model="m",
            request_hash=str(n),
            messages=[{"role": "user", "content": "x" * 400}],
            schema_name=None,
            reply="y" * 800,
            finish_reason="stop",
            prompt_tokens=100,
            completion_tokens=200,
            latency_ms=1.0,
            error=None,
            cost_usd=0.0,
        )
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {
        "mean_ms": statistics.fmean(times),
        "p50_ms": times[len(times) // 2],
        "p95_ms": times[int(len(times) * 0.95)],
    }


async def run_and_resume(store: Store, debates: int) -> dict[str, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for n in range(debates):
        await arun_debate(TOPIC, model="scripted:demo", seed=n, store=store, debate_id=f"r{n}")
    run_wall, run_cpu = time.perf_counter() - wall, time.process_time() - cpu
    calls = sum(len(store.calls(f"r{n}")) for n in range(debates))
    for n in range(debates):
        store.set_status(f"r{n}", "interrupted")
    cpu, wall = time.process_time(), time.perf_counter()
    for n in range(debates):
        await aresume_debate(f"r{n}", store=store)
    resume_wall, resume_cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "run_debates_per_s": debates / run_wall,
        "run_calls_per_s": calls / run_wall,
        "run_cpu_ms_per_call": run_cpu / calls * 1000,
        "resume_debates_per_s": debates / resume_wall,
        "resume_cpu_ms_per_call": resume_cpu / calls * 1000,
        "calls": calls,
    }


def grid(name: str, debates: int) -> Plan:
    model = "scripted:demo?latency_ms=200"
    return Plan(
        name, tuple(_item(name, f"{TOPIC} ({n})", "freeform", model, 1, {}) for n in range(debates))
    )


def batch(url: str, executor: str, debates: int) -> dict[str, float]:
    plan = grid(f"b-{executor}", debates)
    cpu, wall = time.process_time(), time.perf_counter()
    outcomes = run_batch(plan, url, executor=executor, concurrency=64)
    elapsed, used = time.perf_counter() - wall, time.process_time() - cpu
    with Store(url) as store:
        calls = sum(len(store.calls(item.id)) for item in plan.items)
    done = sum(1 for o in outcomes if o.outcome == "done")
    return {
        "debates": done,
        "debates_per_min": done / elapsed * 60,
        "wall_s": elapsed,
        "calls": calls,
        "driver_cpu_ms_per_call": used / calls * 1000,
    }


def show(title: str, figures: dict[str, Any]) -> None:
    cells = ", ".join(
        f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items()
    )
    print(f"{title}: {cells}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debates", type=int, default=200, help="the batch grid's size")
    parser.add_argument("--runs", type=int, default=20, help="debates run then resumed")
    parser.add_argument("--writes", type=int, default=500, help="journal writes timed")
    parser.add_argument("--only", choices=("store", "batch"), default=None)
    parser.add_argument(
        "--executors", default="local,ray", help="the batch executors timed (local, ray)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, pg_server(durable=True) as server:
        stores = {"sqlite": str(Path(tmp) / "moot.db"), "postgres": server.create_database("b")}
        if args.only != "batch":
            for engine, where in stores.items():
                with Store(where) as store:
                    show(f"{engine} journal write", journal_latency(store, args.writes))
                    show(f"{engine} run/resume", asyncio.run(run_and_resume(store, args.runs)))
        if args.only != "store":
            url = server.create_database("grid")
            executors = args.executors.split(",")
            if "local" in executors:
                show("batch local (asyncio)", batch(url, "local", args.debates))
            if "ray" in executors:
                import ray

                ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1")
                try:
                    show("batch ray (2 workers)", batch(url, "ray", args.debates))
                finally:
                    ray.shutdown()


if __name__ == "__main__":
    main()
