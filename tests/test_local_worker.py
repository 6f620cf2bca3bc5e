"""The embedded model runs in a worker process: a crash, a hang or Ctrl-C in native
code ends the worker, never moot, and is reported with the signal, cause and fix.

The slow tests load the real SmolLM2 GGUF and kill its worker with real signals.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from moot.errors import BackendError
from moot.llm.local import LocalBackend, describe_death
from moot.llm.types import GenerationSettings, Message

STORY = [Message("user", "Write a very long story about a zebra who learns to code.")]
LONG = GenerationSettings(temperature=0.8, max_tokens=4000, seed=1)
TOPIC = "Should a 10-person startup adopt microservices from day one?"


def test_death_messages_name_the_signal_the_cause_and_the_fix() -> None:
    segv = describe_death(-signal.SIGSEGV, "ggml_compute_forward: boom")
    assert "SIGSEGV" in segv
    assert "-march=native" in segv
    assert "requirements/llama-portable.txt" in segv
    assert "boom" in segv
    assert "SIGILL" in describe_death(-signal.SIGILL, "")
    assert "out-of-memory" in describe_death(-signal.SIGKILL, "")
    assert "internal check" in describe_death(-signal.SIGABRT, "")
    assert "status 3" in describe_death(3, "")


def _kill_worker_after(backend: LocalBackend, delay: float, sig: signal.Signals) -> None:
    def kill() -> None:
        time.sleep(delay)
        pid = backend.worker_pid
        assert pid is not None
        os.kill(pid, sig)

    threading.Thread(target=kill, daemon=True).start()


@pytest.mark.process
@pytest.mark.slow
def test_a_worker_killed_mid_call_is_a_backend_error_and_the_next_call_starts_afresh() -> None:
    backend = LocalBackend(seed=1)
    backend.info()  # the worker is up and the model loaded
    first_pid = backend.worker_pid
    _kill_worker_after(backend, 1.0, signal.SIGSEGV)
    with pytest.raises(BackendError, match="SIGSEGV") as caught:
        asyncio.run(backend.generate(STORY, schema=None, settings=LONG))
    assert "requirements/llama-portable.txt" in str(caught.value)
    assert caught.value.spec == "local"
    assert backend.worker_pid is None
    again = asyncio.run(
        backend.generate(STORY, schema=None, settings=GenerationSettings(max_tokens=8, seed=1))
    )
    assert again.usage.completion_tokens == 8
    assert backend.worker_pid not in (None, first_pid)
    backend.stop()


@pytest.mark.process
@pytest.mark.timing
@pytest.mark.slow
def test_a_hung_call_is_stopped_at_its_timeout() -> None:
    backend = LocalBackend(seed=1, timeout=1.5)
    backend.info()
    pid = backend.worker_pid
    assert pid is not None
    started = time.monotonic()
    with pytest.raises(BackendError, match=r"did not answer within 1\.5 s"):
        asyncio.run(backend.generate(STORY, schema=None, settings=LONG))
    assert time.monotonic() - started < 30
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the hung worker is gone
    backend.stop()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"moot.llm.local_worker" in cmdline:
            found.append(int(entry.name))
    return found


def _wait_for_worker(process: subprocess.Popen[str], timeout: float = 300) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "moot ended before its worker started"
        workers = _children(process.pid)
        if workers:
            return workers[0]
        time.sleep(0.2)
    raise AssertionError("no worker process appeared")


def _moot(*args: str) -> list[str]:
    return [sys.executable, "-m", "moot", *args]


@pytest.mark.process
@pytest.mark.slow(minutes=3)
def test_cli_worker_crash_exits_1_with_the_fix_and_the_run_resumes() -> None:
    run = subprocess.Popen(
        _moot("run", TOPIC, "--seed", "7", "--id", "crashed", "--quiet"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        worker = _wait_for_worker(run)
        time.sleep(2.0)  # the first call is in flight
        os.kill(worker, signal.SIGSEGV)
        _, err = run.communicate(timeout=120)
    finally:
        run.kill()
    assert run.returncode == 1, err
    assert "SIGSEGV" in err
    assert "requirements/llama-portable.txt" in err
    assert "Traceback" not in err
    shown = subprocess.run(
        _moot("show", "crashed", "--json"), capture_output=True, text=True, check=True
    )
    row = json.loads(shown.stdout)
    assert row["status"] == "failed"
    assert "SIGSEGV" in row["error"]
    resumed = subprocess.run(
        _moot("resume", "crashed", "--quiet"), capture_output=True, text=True, timeout=1800
    )
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert resumed.stdout.startswith("# Decision briefing")


@pytest.mark.process
@pytest.mark.slow
def test_ctrl_c_interrupts_cleanly_and_stops_the_worker() -> None:
    run = subprocess.Popen(
        _moot("run", TOPIC, "--seed", "7", "--id", "stopped", "--quiet"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        worker = _wait_for_worker(run)
        time.sleep(2.0)
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=60)
    finally:
        run.kill()
    assert run.returncode == 130, err
    assert "Traceback" not in err
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the worker outlived the interrupted run")
    shown = subprocess.run(
        _moot("show", "stopped", "--json"), capture_output=True, text=True, check=True
    )
    assert json.loads(shown.stdout)["status"] == "interrupted"
