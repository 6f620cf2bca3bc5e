"""``moot batch``: plans refused whole before anything runs, a grid run into the store
and resumed (skipping what is done, resuming what is partial, after a kill -9 of the
batch), the summary and its CSV, and the Ray executor writing to PostgreSQL: a grid of
50 with a worker killed mid-debate, and a cluster whose head is killed mid-batch, the
batch then finished on a new head."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from moot.batch import MAX_DEBATES, Plan, load_plan
from moot.batch.one import run_item
from moot.batch.run import run_batch
from moot.batch.summary import COLUMNS, summarize, to_csv
from moot.errors import ConfigError
from moot.store import Store
from pg_server import PgServer, _free_port, pg_server

ROOT = Path(__file__).resolve().parent.parent
TOPICS = ["Should a 10-person startup adopt microservices from day one?", "Should cities ban cars?"]


def _plan(tmp_path: Path, text: str, suffix: str = ".toml") -> Path:
    path = tmp_path / f"plan{suffix}"
    path.write_text(text, encoding="utf-8")
    return path


GRID = f"""
name = "grid"
topics = {json.dumps(TOPICS)}
formats = ["structured", "freeform"]
models = ["scripted:demo"]
seeds = [1, 2]
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "g"\ntopics = ["t"]\nmodel = ["x"]\n', "unknown key.*model"),
        ('name = "g"\n', "topics is required"),
        ('name = "g"\ntopics = []\n', "topics is empty"),
        ('name = "g"\ntopics = ["t"]\nseeds = ["one"]\n', "seeds must be a int"),
        ('name = "g"\ntopics = ["t"]\noptions = [{seed = 3}]\n', "may not set seed"),
        ('name = "g"\ntopics = ["t"]\noptions = [{colour = 3}]\n', "unknown option.*colour"),
        ('name = "g g"\ntopics = ["t"]\n', "batch name"),
        ('name = "g"\ntopics = ["t"]\nformats = ["nosuch"]\n', "nosuch"),
        ("name = [", "not valid TOML"),
        (
            f'name = "g"\ntopics = {json.dumps([str(n) for n in range(101)])}\n'
            f"seeds = {list(range(100))}\n",
            f"more than {MAX_DEBATES}",
        ),
    ],
)
def test_a_bad_plan_is_refused_whole(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        load_plan(_plan(tmp_path, text))
    assert str(tmp_path) in str(caught.value)


def test_a_jsonl_plan_is_grids_by_line_and_ids_do_not_depend_on_order(tmp_path: Path) -> None:
    toml = load_plan(_plan(tmp_path, GRID))
    lines = [
        {
            "name": "grid",
            "topics": TOPICS[::-1],
            "formats": "freeform",
            "models": "scripted:demo",
            "seeds": [2, 1],
        },
        {"topics": TOPICS, "formats": ["structured"], "models": ["scripted:demo"], "seeds": [1, 2]},
    ]
    jsonl = load_plan(_plan(tmp_path, "\n".join(json.dumps(x) for x in lines), ".jsonl"))
    assert len(toml.items) == 8
    assert {i.id for i in jsonl.items} == {i.id for i in toml.items}
    assert all(i.id.startswith("grid-") for i in toml.items)
    clash = [{"name": "a", "topics": ["t"]}, {"name": "b", "topics": ["t"]}]
    with pytest.raises(ConfigError, match="different batches"):
        load_plan(_plan(tmp_path, "\n".join(json.dumps(x) for x in clash), ".jsonl"))
    with pytest.raises(ConfigError, match=r"plan.jsonl:2: not JSON"):
        load_plan(_plan(tmp_path, '{"topics": ["t"]}\n{oops', ".jsonl"))


def test_a_batch_runs_into_the_store_and_a_second_run_skips_it(tmp_path: Path) -> None:
    plan = load_plan(_plan(tmp_path, GRID))
    seen: list[str] = []
    outcomes = run_batch(
        plan, tmp_path / "moot.db", concurrency=3, on_outcome=lambda o: seen.append(o.id)
    )
    assert [o.outcome for o in outcomes] == ["done"] * 8
    assert sorted(seen) == sorted(i.id for i in plan.items)
    again = run_batch(plan, tmp_path / "moot.db", concurrency=3)
    assert [o.outcome for o in again] == ["skipped"] * 8
    with Store(tmp_path / "moot.db") as store:
        rows = summarize(plan.items, store)
        assert len(store.list_debates()) == 8
    assert [(r.configuration.split(" | ")[0], r.runs, r.done) for r in rows] == [
        ("structured", 4, 4),
        ("freeform", 4, 4),
    ]
    table = list(csv.reader(io.StringIO(to_csv(rows))))
    assert tuple(table[0]) == COLUMNS
    assert sum(int(r[1]) for r in table[1:]) == 8
    assert all(int(r[COLUMNS.index("tokens")]) > 0 for r in table[1:])
    assert all(sum(int(n) for n in r[COLUMNS.index("trust")].split()[1::2]) == 4 for r in table[1:])


def test_a_run_that_cannot_resume_fails_alone_and_the_batch_goes_on(tmp_path: Path) -> None:
    text = f'name = "p"\ntopics = {json.dumps(TOPICS)}\nmodels = ["scripted:demo"]\n'
    plan = load_plan(_plan(tmp_path, text))
    broken = plan.items[0]
    with Store(tmp_path / "moot.db") as store:
        store.create_debate(broken.id, topic="t1", format="structured", config={}, models={})
        store.set_status(broken.id, "interrupted")
    outcomes = run_batch(plan, tmp_path / "moot.db")
    assert [o.outcome for o in outcomes] == ["failed", "done"]
    assert "cannot be resumed" in (outcomes[0].error or "")


def test_a_run_left_running_by_a_lost_worker_is_taken_over_from_that_owner_only(
    tmp_path: Path,
) -> None:
    """The Ray executor resumes a debate whose worker died by naming that worker
    (``lost_owner``): a run marked running by it is taken over; one marked running by
    any other owner (another host's cannot be checked) is left alone (``busy``)."""
    text = f'name = "o"\ntopics = {json.dumps(TOPICS[:1])}\nmodels = ["scripted:demo"]\n'
    (item,) = load_plan(_plan(tmp_path, text)).items
    with Store(tmp_path / "moot.db") as store:
        assert asyncio.run(run_item(item, store)).outcome == "done"
        with store._lock:
            store._conn.execute(
                "UPDATE debates SET status = 'running', owner = 'elsewhere:41' WHERE id = ?",
                (item.id,),
            )
        assert asyncio.run(run_item(item, store)).outcome == "busy"
        assert asyncio.run(run_item(item, store, lost_owner="elsewhere:42")).outcome == "busy"
        taken = asyncio.run(run_item(item, store, lost_owner="elsewhere:41"))
        assert taken.outcome == "resumed"
        row = store.get_debate(item.id)
    assert row is not None
    assert row.status == "done"


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **extra}
    env.pop("MOOT_DEBUG", None)
    return env


def _statuses(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    with Store(path) as store:
        return {row.id: row.status for row in store.list_debates(1000)}


@pytest.mark.process
@pytest.mark.timing
def test_a_batch_killed_mid_grid_resumes_with_no_debate_run_twice(tmp_path: Path) -> None:
    slow = 'models = ["scripted:demo?latency_ms=300"]\n'
    text = f'name = "k"\ntopics = {json.dumps(TOPICS)}\nseeds = [1, 2, 3]\n{slow}'
    plan_path = _plan(tmp_path, text)
    plan = load_plan(plan_path)
    home = tmp_path / "home"
    env = _env(MOOT_HOME=str(home))
    command = [sys.executable, "-m", "moot", "batch", str(plan_path), "--concurrency", "2", "-q"]
    batch = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = home / "moot.db"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        statuses = _statuses(db)
        if "done" in statuses.values() and "running" in statuses.values():
            break
        time.sleep(0.2)
    os.kill(batch.pid, signal.SIGKILL)
    batch.wait()
    before = _statuses(db)
    assert "done" in before.values()
    assert "running" in before.values()
    resumed = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert resumed.returncode == 0, resumed.stderr
    after = _statuses(db)
    assert set(after) == {i.id for i in plan.items}
    assert set(after.values()) == {"done"}
    # the reference: each debate run once, uninterrupted; the resumed ones sent no call twice
    reference = run_batch(plan, tmp_path / "ref.db", concurrency=6)
    assert {o.outcome for o in reference} == {"done"}
    with Store(db) as store, Store(tmp_path / "ref.db") as ref:
        for item in plan.items:
            calls = store.calls(item.id)
            assert [c.seq for c in calls] == list(range(1, len(calls) + 1))
            live = [c for c in calls if c.source == "live" and c.error is None]
            expected = [c for c in ref.calls(item.id) if c.error is None]
            assert len(live) == len(expected), item.id
    skipped = sum(1 for s in before.values() if s == "done")
    assert f"{skipped} skipped" in resumed.stderr


@pytest.fixture(scope="module")
def server() -> Iterator[PgServer]:
    with pg_server() as running:
        yield running


def _running_mid_debate(url: str) -> tuple[str, int] | None:
    """A debate some Ray worker is running with at least one call journaled: its id and
    the worker's pid."""
    with Store(url) as store:
        for row in store.list_debates(100):
            if row.status == "running" and row.owner and store.calls(row.id):
                return row.id, int(row.owner.rpartition(":")[2])
    return None


@pytest.mark.server
@pytest.mark.process
@pytest.mark.slow(minutes=2)
def test_a_ray_worker_killed_mid_debate_is_resumed_and_the_batch_finishes(
    server: PgServer, tmp_path: Path
) -> None:
    """A grid of 50 scripted debates on Ray into PostgreSQL, and the worker running one
    debate killed (-9) in the middle of it: the batch still finishes with every debate
    done, the lost one resumed in a new task from its journal (no call sent twice),
    nothing finished lost; the debates ran in several worker processes, and the summary
    CSV counts them."""
    pytest.importorskip("ray")
    url = server.create_database("ray_grid")
    topics = [f"Should team {n} adopt microservices from day one?" for n in range(25)]
    plan_path = _plan(
        tmp_path,
        f'name = "ray"\ntopics = {json.dumps(topics)}\nformats = ["freeform"]\n'
        'models = ["scripted:demo?latency_ms=300"]\nseeds = [1, 2]\n',
    )
    plan = load_plan(plan_path)
    assert len(plan.items) == 50
    command = [
        *(sys.executable, "-m", "moot", "--store", url, "batch", str(plan_path)),
        *("--executor", "ray", "--concurrency", "8", "--model-concurrency", "2"),
        *("--csv", str(tmp_path / "summary.csv")),
    ]
    env = _env(MOOT_HOME=str(tmp_path / "home"), RAY_AUTH_MODE="disabled")
    batch = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 300
        victim = None
        while victim is None and time.monotonic() < deadline and batch.poll() is None:
            victim = _running_mid_debate(url)
            time.sleep(0.1)
        assert victim is not None, batch.communicate()[1][-3000:] if batch.poll() else "none seen"
        lost_id, pid = victim
        assert pid != batch.pid  # a Ray worker runs it, not the batch's own process
        with Store(url) as store:
            done_before = {
                r.id: (r.owner, len(store.calls(r.id)))
                for r in store.list_debates(100)
                if r.status == "done"
            }
        os.kill(pid, signal.SIGKILL)
        _, stderr = batch.communicate(timeout=600)
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.communicate()
    assert batch.returncode == 0, stderr[-3000:]
    assert stderr.splitlines()[-1] == "49 done, 1 resumed"  # the lost one not run anew
    lost_line = next(line for line in stderr.splitlines() if lost_id in line)
    assert "resumed" in lost_line
    assert "in task 2" in lost_line
    with Store(url) as store:
        rows = {r.id: r for r in store.list_debates(100)}
        assert set(rows) == {i.id for i in plan.items}
        assert {r.status for r in rows.values()} == {"done"}
        # what was finished before the kill is kept as it was, not run again
        after = {i: (rows[i].owner, len(store.calls(i))) for i in done_before}
        assert after == done_before
        # run by Ray's worker processes, not in one process as the local executor does
        assert len({r.owner for r in rows.values()}) >= 2
        calls = store.calls(lost_id)
    assert [c.seq for c in calls] == list(range(1, len(calls) + 1))
    # the reference: the lost debate run once, uninterrupted
    lost_item = next(i for i in plan.items if i.id == lost_id)
    reference = run_batch(Plan(plan.name, (lost_item,)), tmp_path / "ref.db")
    assert [o.outcome for o in reference] == ["done"]
    with Store(tmp_path / "ref.db") as ref:
        expected = [c for c in ref.calls(lost_id) if c.error is None]
    # every call journaled before the kill was replayed, not sent again: one row each
    live = [c for c in calls if c.source == "live" and c.error is None]
    assert len(live) == len(expected)
    table = list(csv.reader(io.StringIO((tmp_path / "summary.csv").read_text(encoding="utf-8"))))
    assert [r[1:3] for r in table[1:]] == [["50", "50"]]


@contextlib.contextmanager
def _ray_head(env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Ray head node of the test's own (``ray start --head --block``) on 127.0.0.1
    at a free port, in its own process group and temporary directory: its address
    and process (kill its group to lose the cluster); killed at the end if alive."""
    port = _free_port()
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's sockets live there
    command = [
        *(sys.executable, "-c", "from ray.scripts.scripts import main; main()", "start"),
        *("--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}"),
        *("--num-cpus=1", "--include-dashboard=false", "--disable-usage-stats"),
        f"--temp-dir={temp}",
    ]
    head = subprocess.Popen(
        command,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while head.poll() is None and time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)
        assert head.poll() is None, "the Ray head did not start"
        yield f"127.0.0.1:{port}", head
    finally:
        if head.poll() is None:
            os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.server
@pytest.mark.process
@pytest.mark.slow(minutes=3)
def test_a_ray_cluster_lost_mid_batch_stops_it_and_a_new_cluster_finishes_it(
    server: PgServer, tmp_path: Path
) -> None:
    """A grid on a Ray cluster (a head started here) into PostgreSQL, and the head's
    processes killed (-9) while debates run: the batch stops at once with exit 1 and a
    message naming the cluster (no traceback, not Ray's own exit a minute later), the
    debates finished before are kept, the ones cut off are left in the store; run again
    on a new head, the batch skips the finished, resumes the cut-off ones from their
    journals (no call sent twice) and finishes the grid."""
    pytest.importorskip("ray")
    url = server.create_database("ray_lost")
    topics = [f"Should team {n} adopt microservices from day one?" for n in range(4)]
    plan_path = _plan(
        tmp_path,
        f'name = "gone"\ntopics = {json.dumps(topics)}\nformats = ["freeform"]\n'
        'models = ["scripted:demo?latency_ms=300"]\nseeds = [1, 2]\n',
    )
    plan = load_plan(plan_path)
    env = _env(MOOT_HOME=str(tmp_path / "home"), RAY_AUTH_MODE="disabled")

    def command(address: str) -> list[str]:
        return [
            *(sys.executable, "-m", "moot", "--store", url, "batch", str(plan_path)),
            *("--executor", "ray", "--address", address, "--concurrency", "4"),
        ]

    with _ray_head(env) as (address, head):
        batch = subprocess.Popen(
            command(address), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        workers: list[int] = []
        try:
            deadline = time.monotonic() + 300
            ready = False
            while not ready and time.monotonic() < deadline and batch.poll() is None:
                with Store(url) as store:
                    listed = store.list_debates(100)
                    ready = any(r.status == "done" for r in listed) and any(
                        r.status == "running" and store.calls(r.id) for r in listed
                    )
                time.sleep(0.1)
            assert ready, batch.communicate()[1][-3000:] if batch.poll() is not None else "late"
            # the head node goes: its GCS and raylet at once; the workers running
            # debates (in process groups of their own) freeze, as on a machine cut off,
            # so the batch hears nothing from them and must notice the head itself
            os.killpg(head.pid, signal.SIGKILL)
            with Store(url) as store:
                workers += [
                    int(row.owner.rpartition(":")[2])
                    for row in store.list_debates(100)
                    if row.status == "running" and row.owner
                ]
            for pid in workers:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
            _, stderr = batch.communicate(timeout=120)
        finally:
            for pid in workers:  # then that machine is gone for good
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            if batch.poll() is None:
                batch.kill()
                batch.communicate()
    assert workers
    assert batch.returncode == 1, stderr[-3000:]
    assert f"error: the Ray cluster {address} went away" in stderr, stderr[-3000:]
    assert "run the batch again" in stderr
    assert "Traceback" not in stderr
    with Store(url) as store:
        rows = {r.id: r for r in store.list_debates(100)}
        kept = {i: (r.owner, len(store.calls(i))) for i, r in rows.items() if r.status == "done"}
        cut = {i for i, r in rows.items() if r.status != "done"}
    assert kept
    assert cut  # partial debates are left in the store, to be resumed
    with _ray_head(env) as (address, _):
        rerun = subprocess.run(command(address), env=env, capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    counts = {"done": len(plan.items) - len(kept) - len(cut), "resumed": len(cut)}
    counts["skipped"] = len(kept)
    expected = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()) if n)
    assert rerun.stderr.splitlines()[-1] == expected
    reference = run_batch(plan, tmp_path / "ref.db", concurrency=8)
    assert {o.outcome for o in reference} == {"done"}
    with Store(url) as store, Store(tmp_path / "ref.db") as ref:
        rows = {r.id: r for r in store.list_debates(100)}
        assert set(rows) == {i.id for i in plan.items}
        assert {r.status for r in rows.values()} == {"done"}
        # what was finished before the loss is kept as it was, not run again
        assert {i: (rows[i].owner, len(store.calls(i))) for i in kept} == kept
        for item in plan.items:
            calls = store.calls(item.id)
            assert [c.seq for c in calls] == list(range(1, len(calls) + 1))
            # every call journaled before the loss replayed, not sent again: one row each
            live = [c for c in calls if c.source == "live" and c.error is None]
            assert len(live) == len([c for c in ref.calls(item.id) if c.error is None]), item.id


def test_a_summary_row_stays_one_line_whatever_the_names() -> None:
    from moot.cli.batch import tsv_line

    line = tsv_line(["structured\tA\nB", "\x1b[31mred[/red]", "3"])
    assert line.count("\n") == 1
    assert line.endswith("\n")
    assert line.count("\t") == 2
    assert "\x1b" not in line
    assert "[/red]" in line  # markup is text, not a style


def test_the_batch_progress_is_a_bar_on_a_terminal_and_lines_in_a_log() -> None:
    from rich.console import Console

    from moot.batch import Outcome
    from moot.cli.batch import BatchProgress

    outcomes = [
        Outcome("g-1", "done"),
        Outcome("g-2", "failed", "BackendError: [red]down[/red]\n"),
        Outcome("g-3", "resumed", attempts=2),
    ]
    log = io.StringIO()
    with BatchProgress(Console(file=log, width=200), 3, "batch") as progress:
        for outcome in outcomes:
            progress.outcome(outcome)
    lines = log.getvalue().splitlines()
    assert [line.split()[:3] for line in lines] == [
        ["[1/3]", "g-1", "done"],
        ["[2/3]", "g-2", "failed"],
        ["[3/3]", "g-3", "resumed"],
    ]
    assert "[red]down[/red]" in lines[1]  # text from a backend is not markup
    assert "in task 2: a worker running it was lost" in lines[2]
    assert all(line.endswith("s") for line in lines)  # the elapsed time
    screen = io.StringIO()
    terminal = Console(file=screen, width=200, force_terminal=True, color_system=None)
    with BatchProgress(terminal, 3, "batch") as progress:
        for outcome in outcomes:
            progress.outcome(outcome)
        progress._bar.refresh()  # type: ignore[union-attr]
        drawn = screen.getvalue()
    assert "3/3" in drawn
    assert "1 done, 1 failed, 1 resumed" in drawn
    assert "g-2 failed" in drawn  # a debate that did not finish gets its own line
    assert "g-1 done" not in drawn  # the finished ones only move the bar
    quiet = io.StringIO()
    with BatchProgress(Console(file=quiet), 3, "batch", enabled=False) as progress:
        progress.outcome(outcomes[0])
    assert quiet.getvalue() == ""
    assert progress.counts == {"done": 1}
