"""The test tiers: which marker puts a test in which tier, the fast tier's guard, the
order tiers run in, and the time each tier took.

A test is in the **fast** tier when it has none of the tier markers below: it runs in
this process, with no model, no server, no browser and no sleep. The fast tier is
what a developer runs after every change (``python -m pytest -m fast``; the ``fast``
marker is added here at collection to every test without a tier marker), and it has
a budget of 3 minutes on two cores.

The guard makes that definition hold: in a fast-tier test, starting a process,
listening on a socket or sleeping fails the test with the marker to add (also when
the code under test swallows the exception). The other tiers run after it in one
session, the real model last: ``python -m pytest`` runs everything, as CI does.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing.util
import os
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

#: Each marker that takes a test out of the fast tier, and why. The order is the
#: order the tiers run in (a test with several markers is in the last of them).
TIER_MARKERS: dict[str, str] = {
    "process": "starts a Python or moot subprocess (a real process: signals, exit codes,"
    " packaging, the lint and type checks)",
    "server": "listens on a loopback socket (the viewer, a fake or real OpenAI-compatible server)",
    "timing": "waits on real timeouts, sleeps or signals (seconds each)",
    "browser": "drives a real headless chromium (skipped without one, unless CI_REQUIRE_BROWSER=1)",
    "slow": "runs the real embedded model, in process or behind llama.cpp's server (minutes each)",
}
FAST = "fast"
TIERS = (FAST, *TIER_MARKERS)

#: The markers a test gets from a fixture it uses (the fixture decides the tier: a test
#: on the real llama.cpp server is slow whatever its file says).
FIXTURE_MARKERS: dict[str, tuple[str, ...]] = {
    "llama_server": ("slow", "server", "process"),
    "llama_server_factory": ("slow", "server", "process"),
    "served_llama": ("slow", "server", "process"),
    "llama_cpp_python_server": ("slow", "server", "process"),
    "fault_server": ("server",),
}


def tier_of(item: pytest.Item) -> str:
    """The tier of a collected test: the last tier marker it has, else ``fast``."""
    marked = {mark.name for mark in item.iter_markers()}
    found = [name for name in TIER_MARKERS if name in marked]
    return found[-1] if found else FAST


# --- the fast tier's guard ------------------------------------------------------------


class TierViolation(AssertionError):
    """A fast-tier test did something only a marked test may do."""


@dataclass
class _Guard:
    """Whether the running test is guarded, and what it was caught doing. One per
    process: the patched functions below consult it on every call."""

    active: bool = False
    violations: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


GUARD = _Guard()


def _violation(what: str, marker: str) -> TierViolation:
    message = (
        f"{what} in a fast-tier test. The fast tier runs in process, with no model,"
        f" server, browser or sleep: test it in process (typer's CliRunner for the CLI,"
        f" an injected clock or sleep for waits), or mark the test"
        f" @pytest.mark.{marker} ({TIER_MARKERS[marker]})."
    )
    with GUARD.lock:
        GUARD.violations.append(message)
    return TierViolation(message)


def _guarded(original: Callable[..., Any], what: str, marker: str) -> Callable[..., Any]:
    @functools.wraps(original)
    def guard(*args: Any, **kwargs: Any) -> Any:
        if GUARD.active:
            raise _violation(what, marker)
        return original(*args, **kwargs)

    guard.__tier_guard__ = True  # type: ignore[attr-defined]
    return guard


def _guarded_sleep(original: Callable[..., Any], what: str) -> Callable[..., Any]:
    """``sleep(0)`` only yields (asyncio's way to let other tasks run): allowed."""

    @functools.wraps(original)
    def guard(delay: float, *args: Any, **kwargs: Any) -> Any:
        if GUARD.active and delay > 0:
            raise _violation(f"{what}({delay!r}))", "timing")
        return original(delay, *args, **kwargs)

    guard.__tier_guard__ = True  # type: ignore[attr-defined]
    return guard


def install_guard() -> None:
    """Patch, once per process, what the fast tier may not do. Inactive until a
    fast-tier test starts (``fast_tier_guard``)."""
    if getattr(subprocess.Popen.__init__, "__tier_guard__", False):
        return
    starts = "started a subprocess"
    subprocess.Popen.__init__ = _guarded(  # type: ignore[method-assign]
        subprocess.Popen.__init__, f"{starts} (subprocess.Popen)", "process"
    )
    for name in ("system", "fork", "forkpty", "posix_spawn", "posix_spawnp"):
        if hasattr(os, name):
            setattr(os, name, _guarded(getattr(os, name), f"{starts} (os.{name})", "process"))
    multiprocessing.util.spawnv_passfds = _guarded(
        multiprocessing.util.spawnv_passfds, f"{starts} (multiprocessing)", "process"
    )
    socket.socket.listen = _guarded(  # type: ignore[method-assign]
        socket.socket.listen, "opened a listening socket (socket.listen)", "server"
    )
    time.sleep = _guarded_sleep(time.sleep, "slept (time.sleep")
    asyncio.sleep = _guarded_sleep(asyncio.sleep, "slept (asyncio.sleep")


@contextmanager
def fast_tier_guard() -> Iterator[list[str]]:
    """Guard the code run inside; yields the violations caught meanwhile (the patched
    call also raises :class:`TierViolation`, which the code may swallow)."""
    install_guard()
    with GUARD.lock:
        was_active, before = GUARD.active, len(GUARD.violations)
        GUARD.active = True
    caught: list[str] = []
    try:
        yield caught
    finally:
        with GUARD.lock:
            GUARD.active = was_active
            caught.extend(GUARD.violations[before:])
            del GUARD.violations[before:]


@contextmanager
def unguarded() -> Iterator[None]:
    """Lift the guard for the code inside (a marked test inside a guarded one)."""
    with GUARD.lock:
        was_active = GUARD.active
        GUARD.active = False
    try:
        yield
    finally:
        with GUARD.lock:
            GUARD.active = was_active


@pytest.fixture(autouse=True)
def _fast_tier_guard(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every fast-tier test runs guarded; a marked test runs unguarded."""
    if tier_of(request.node) != FAST:
        with unguarded():
            yield
        return
    with fast_tier_guard() as caught:
        yield
    # a violation the test did not let through (the code under test caught it) fails
    # the test here; one that made the test fail is reported there already
    if caught and not request.node.stash.get(_CALL_FAILED, False):
        pytest.fail("\n".join(dict.fromkeys(caught)), pytrace=False)


_CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[_CALL_FAILED] = report.failed
    return report


# --- collection: the fast marker, the order of the tiers -------------------------------


def pin_worker() -> int | None:
    """Under pytest-xdist with no more workers than cores, give each worker a core of its
    own (every process it starts inherits it): two embedded-model debates at once then
    run llama.cpp on one thread each (it sizes its threads by the CPU affinity) instead
    of four threads taking turns on two cores. Returns the core, if pinned."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if not worker.startswith("gw") or not hasattr(os, "sched_setaffinity"):
        return None
    cores = sorted(os.sched_getaffinity(0))
    if not 2 <= count <= len(cores):
        return None
    core = cores[int(worker[2:]) % len(cores)]
    os.sched_setaffinity(0, {core})
    return core


def pytest_configure(config: pytest.Config) -> None:
    install_guard()
    pin_worker()
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        config.pluginmanager.register(TierClock(), "tier-clock")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the fast tier, and run the tiers in order: fast first, the real model last
    (a stable sort: within a tier, pytest's own order)."""
    for item in items:
        used = getattr(item, "fixturenames", ())
        for marker in dict.fromkeys(m for f in used for m in FIXTURE_MARKERS.get(f, ())):
            if item.get_closest_marker(marker) is None:
                item.add_marker(marker)
        if tier_of(item) == FAST:
            item.add_marker(FAST)
    items.sort(key=_run_order)


def minutes(item: pytest.Item) -> float:
    """The minutes a slow test is expected to take on one core (``@pytest.mark.slow(
    minutes=12)``; 1 when not said)."""
    mark = item.get_closest_marker("slow")
    return float(mark.kwargs.get("minutes", 1)) if mark is not None else 0.0


def _run_order(item: pytest.Item) -> tuple[int, float]:
    """Tier by tier; within the slow tier the longest first, so that under pytest-xdist
    (which hands out tests in this order) the long debates start at once and the short
    ones fill the gaps at the end."""
    tier = tier_of(item)
    return TIERS.index(tier), -minutes(item) if tier == "slow" else 0.0


# --- the time each tier took -----------------------------------------------------------


@dataclass
class TierTimes:
    """Per tier: tests, seconds summed over tests, and the wall-clock span from the
    first test's start to the last one's end."""

    tests: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    first: dict[str, float] = field(default_factory=dict)
    last: dict[str, float] = field(default_factory=dict)

    def add(self, tier: str, start: float, stop: float, duration: float, count: bool) -> None:
        if count:
            self.tests[tier] = self.tests.get(tier, 0) + 1
        self.seconds[tier] = self.seconds.get(tier, 0.0) + duration
        self.first[tier] = min(self.first.get(tier, start), start)
        self.last[tier] = max(self.last.get(tier, stop), stop)

    def lines(self) -> list[str]:
        total = sum(self.seconds.values()) or 1.0
        rows = [
            f"{tier:<8} {self.tests.get(tier, 0):>5} tests  {self.seconds[tier]:>8.1f} s summed"
            f" ({self.seconds[tier] / total:>4.0%})  {self.last[tier] - self.first[tier]:>8.1f} s"
            " wall"
            for tier in TIERS
            if tier in self.seconds
        ]
        return rows


_TIER_KEY = "tier"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Each report carries its test's tier (to the controller too, under pytest-xdist)."""
    item.user_properties.append((_TIER_KEY, tier_of(item)))
    return (yield)


class TierClock:
    """Adds up the reports of a session per tier and prints the table at its end,
    before pytest's closing line."""

    def __init__(self) -> None:
        self.times = TierTimes()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        tier = dict(report.user_properties).get(_TIER_KEY)
        if isinstance(tier, str):
            counted = report.when == "call" or (report.when == "setup" and report.skipped)
            self.times.add(tier, report.start, report.stop, report.duration, count=counted)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.times.seconds:
            return
        terminalreporter.write_sep("=", "time per tier (budget: fast <= 3 min, all <= 40 min)")
        for line in self.times.lines():
            terminalreporter.write_line(line)
