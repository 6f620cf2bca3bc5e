"""Durable runs for real: a child process kills itself mid-debate, then the run resumes.

The journal must hold every call completed before the kill; the resumed run must send
the model exactly the remaining calls and end with the same result as a run that was
never interrupted (the wall time aside).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from invariants import check_result_json
from moot.debate import run_debate
from moot.errors import BudgetExceeded
from moot.store import Store

CHILD = Path(__file__).with_name("durable_child.py")
TOTAL_CALLS = 7  # 2 openings, 2 cross-examinations, 2 closings, 1 judge
TOPIC = "Should a 10-person startup adopt microservices from day one?"


FREEFORM = {
    "format": "freeform",
    "sides": ["Hainan", "the North-East", "Yunnan"],
    "format_options": {"rounds": 6},
}
"""The child's run options for a three-sided free-form debate (some speeches of which
the demo re-asks after a detector fires: in the sixth round, where the demo's named
positions come back to their first points and repetition fires; until 2026-12-07 the
stance-drift echo fired from the second round)."""


def child(*args: str, options: dict[str, Any] | None = None) -> subprocess.CompletedProcess[str]:
    """Run tests/durable_child.py; ``options`` are run options beyond its defaults."""
    env = {**os.environ, "MOOT_CHILD_OPTIONS": json.dumps(options or {})}
    return subprocess.run(
        [sys.executable, str(CHILD), *args],
        capture_output=True,
        text=True,
        timeout=600,  # generous: a busy CI machine starts Python slowly
        check=False,
        env=env,
    )


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    usage = dict(result["usage"])
    usage.pop("wall_seconds")
    return {**result, "usage": usage}


def finished_run(
    tmp_path_factory: pytest.TempPathFactory, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The result of the child's debate run to the end, in a store of its own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MOOT_HOME", str(tmp_path_factory.mktemp("baseline_home")))
        done = child("run", "baseline", "0", "KILL", options=options)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)["result"]
    return result


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return finished_run(tmp_path_factory)


@pytest.fixture(scope="module")
def uninterrupted_freeform(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    result = finished_run(tmp_path_factory, FREEFORM)
    assert result["format"] == "freeform"
    assert result["payload"]["freeform"]["detector_reasks"]
    return result


def kill_then_resume(
    run_id: str, kill_after: int, expected: dict[str, Any], options: dict[str, Any] | None = None
) -> None:
    """SIGKILL the child's run once ``kill_after`` calls are done, then resume it: the
    journal holds exactly those calls, the resume sends only the others and ends with
    the ``expected`` result."""
    total = expected["usage"]["calls"]
    assert kill_after < total
    killed = child("run", run_id, str(kill_after), "KILL", options=options)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    store = Store()
    row = store.get_debate(run_id)
    assert row is not None
    assert row.status == "running"  # nothing could mark it: the process died at once
    assert len(store.completed_calls(run_id)) == kill_after

    resumed = child("resume", run_id, "0", "KILL")
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads(resumed.stdout)
    assert report["live"] == total - kill_after
    assert comparable(report["result"]) == comparable(expected)
    assert store.get_debate(run_id).status == "done"  # type: ignore[union-attr]
    assert len(store.completed_calls(run_id)) == total


@pytest.mark.process
@pytest.mark.parametrize("kill_after", [1, 3, 6])
def test_sigkill_then_resume_sends_only_the_remaining_calls(
    kill_after: int, uninterrupted: dict[str, Any]
) -> None:
    assert uninterrupted["usage"]["calls"] == TOTAL_CALLS
    kill_then_resume("k", kill_after, uninterrupted)


@pytest.mark.process
@pytest.mark.parametrize("kill_after", [2, 19])
def test_a_killed_freeform_run_resumes_to_the_same_result(
    kill_after: int, uninterrupted_freeform: dict[str, Any]
) -> None:
    """Killed in the first round, or in the sixth between its two re-asks (rounds one
    to five are 15 calls, the sixth three speeches and two re-asks): the resumed
    free-form run replays the journal, asks again what it asked again, and ends as the
    run that was never stopped."""
    kill_then_resume("ff", kill_after, uninterrupted_freeform, FREEFORM)
    check_result_json(json.dumps(uninterrupted_freeform))


@pytest.mark.process
def test_sigint_marks_the_run_interrupted_and_resume_finishes_it(
    uninterrupted: dict[str, Any],
) -> None:
    # the stop comes as the second opening returns, before the opening round is over
    stopped = child("run", "i", "2", "INT")
    assert stopped.returncode == 130, stopped.stderr
    store = Store()
    row = store.get_debate("i")
    assert row is not None
    assert row.status == "interrupted"
    assert row.error is not None
    assert "interrupted during the opening round" in row.error
    partial = json.loads(row.result_json or "{}")
    assert partial["partial"] is True
    assert partial["format"] == "structured"
    # only completed rounds are saved (the budget test below saves one): none here
    assert "arguments" not in partial
    assert len(store.completed_calls("i")) == 2

    resumed = child("resume", "i", "0", "KILL")
    report = json.loads(resumed.stdout)
    assert report["live"] == TOTAL_CALLS - 2
    assert comparable(report["result"]) == comparable(uninterrupted)


@pytest.mark.process
def test_two_kills_in_a_row(uninterrupted: dict[str, Any]) -> None:
    assert child("run", "twice", "2", "KILL").returncode == -signal.SIGKILL
    assert child("resume", "twice", "2", "KILL").returncode == -signal.SIGKILL
    assert len(Store().completed_calls("twice")) == 4
    final = child("resume", "twice", "0", "KILL")
    report = json.loads(final.stdout)
    assert report["live"] == TOTAL_CALLS - 4
    assert comparable(report["result"]) == comparable(uninterrupted)


def test_budget_stop_saves_the_partial_result_and_resumes_with_more(
    uninterrupted: dict[str, Any],
) -> None:
    store = Store()
    with pytest.raises(BudgetExceeded):
        run_debate(
            TOPIC, model="scripted:demo", seed=7, store=store, debate_id="b", max_tokens=5000
        )
    row = store.get_debate("b")
    assert row is not None
    assert row.status == "budget_exceeded"
    assert row.prompt_tokens + row.completion_tokens <= 5000
    partial = json.loads(row.result_json or "{}")
    assert partial["partial"] is True
    assert partial["format"] == "structured"
    # the rounds completed before the stop, as the finished run has them
    finished = uninterrupted["payload"]["structured"]
    assert partial["arguments"] == finished["arguments"]
    assert (
        partial.get("cross_examinations", finished["cross_examinations"])
        == (finished["cross_examinations"])
    )
    # the refused call was never sent: every journaled call before it has a reply
    refused = [c for c in store.calls("b") if c.error]
    assert all("BudgetExceeded" in (c.error or "") for c in refused)

    from moot.debate import resume_debate

    result = resume_debate("b", store=store, max_tokens=100_000)
    assert comparable(json.loads(result.model_dump_json())) == comparable(uninterrupted)
    assert store.get_debate("b").status == "done"  # type: ignore[union-attr]


def test_budget_is_never_exceeded_by_live_calls() -> None:
    store = Store()
    for limit in (2000, 4000, 8000):
        with contextlib.suppress(BudgetExceeded):
            run_debate(
                TOPIC,
                model="scripted:demo",
                seed=3,
                store=store,
                debate_id=f"lim{limit}",
                max_tokens=limit,
            )
        row = store.get_debate(f"lim{limit}")
        assert row is not None
        assert row.prompt_tokens + row.completion_tokens <= limit


def test_journal_records_every_call_with_its_validation() -> None:
    store = Store()
    run_debate(TOPIC, model="scripted:demo", seed=2, store=store, debate_id="j")
    calls = store.calls("j")
    assert [c.seq for c in calls] == list(range(1, TOTAL_CALLS + 1))
    assert {c.round for c in calls} == {"opening", "cross_examination", "closing", "judgement"}
    assert all(c.validation == "ok" and c.reply for c in calls)
    assert all(c.messages and c.request_hash and c.schema_name for c in calls)
    row = store.get_debate("j")
    assert row is not None
    assert row.status == "done"
    # the stored configuration: the one options type, each role's model, the judges' record
    assert set(row.config) == {"options", "models", "judge_accuracy", "sources"}
    assert row.config["sources"] == []  # no documents: nothing to check on resume
    assert row.config["options"]["seed"] == 2
    assert row.config["options"]["format"] == "structured"
    assert row.config["models"] == {
        "pro": "scripted:demo",
        "con": "scripted:demo",
        "judge": "scripted:demo",
    }


def test_cache_serves_deterministic_requests_and_skips_others() -> None:
    store = Store()
    first = run_debate(
        TOPIC, model="scripted:demo", seed=4, temperature=0.0, store=store, debate_id="c1"
    )
    assert store.cache_stats()["entries"] == TOTAL_CALLS
    second = run_debate(
        TOPIC, model="scripted:demo", seed=4, temperature=0.0, store=store, debate_id="c2"
    )
    assert {c.source for c in store.calls("c2")} == {"cache"}
    assert store.cache_stats()["hits"] == TOTAL_CALLS
    assert comparable(json.loads(first.model_dump_json())) == comparable(
        json.loads(second.model_dump_json())
    )
    # temperature above 0 is not cached unless asked; --no-cache turns it off
    run_debate(TOPIC, model="scripted:demo", seed=4, store=store, debate_id="c3")
    assert {c.source for c in store.calls("c3")} == {"live"}
    run_debate(
        TOPIC,
        model="scripted:demo",
        seed=4,
        temperature=0.0,
        store=store,
        debate_id="c4",
        cache="off",
    )
    assert {c.source for c in store.calls("c4")} == {"live"}
    assert store.cache_clear() == TOTAL_CALLS


@pytest.mark.process
@pytest.mark.timing
def test_kill_while_calls_are_in_flight(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent SIGKILLs the child while both sides' calls are in flight (each call
    takes 400 ms); resuming sends exactly the calls not journaled before the kill."""
    import time

    monkeypatch.setenv("MOOT_CHILD_MODEL", "scripted:demo?latency_ms=400")
    baseline = child("run", "slow-baseline", "0", "KILL")
    assert baseline.returncode == 0, baseline.stderr
    expected = json.loads(baseline.stdout)["result"]

    process = subprocess.Popen(
        [sys.executable, str(CHILD), "run", "inflight", "0", "KILL"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    store = Store()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if store.get_debate("inflight") and len(store.completed_calls("inflight")) >= 2:
            break
        time.sleep(0.05)
    time.sleep(0.15)  # the cross-examinations have been sent and are in flight
    process.kill()
    process.communicate()
    done_before = len(store.completed_calls("inflight"))
    assert 2 <= done_before < TOTAL_CALLS

    resumed = child("resume", "inflight", "0", "KILL")
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads(resumed.stdout)
    assert report["live"] == TOTAL_CALLS - done_before
    assert comparable(report["result"]) == comparable(expected)


@pytest.mark.process
def test_twenty_debates_at_once_on_one_database() -> None:
    """20 separate `moot run` processes share one store: no 'database is locked',
    exact row counts."""
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "moot",
                "run",
                TOPIC,
                "--model",
                "scripted:demo",
                "--seed",
                str(n),
                "--id",
                f"p{n}",
                "-q",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ.copy(),
        )
        for n in range(20)
    ]
    errors = [p.communicate(timeout=300)[1] for p in processes]
    assert [p.returncode for p in processes] == [0] * 20, errors
    assert not any("locked" in e for e in errors)
    store = Store()
    rows = store.list_debates(limit=100)
    assert len(rows) == 20
    assert {r.status for r in rows} == {"done"}
    assert sum(len(store.calls(r.id)) for r in rows) == 20 * TOTAL_CALLS
    assert all([c.seq for c in store.calls(r.id)] == list(range(1, 8)) for r in rows)
