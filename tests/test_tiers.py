"""The fast tier's guard fires: a test with no tier marker that starts a process,
listens on a socket or sleeps fails, naming the marker to add; a marked one runs."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import time

import pytest

from tier_plugin import FAST, GUARD, TierViolation, fast_tier_guard, unguarded

pytest_plugins = ["pytester"]


def test_this_test_is_in_the_fast_tier_and_guarded(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker(FAST) is not None
    assert GUARD.active


def test_a_popen_is_caught_and_names_the_process_marker() -> None:
    with fast_tier_guard() as caught:
        with pytest.raises(TierViolation, match=r"@pytest\.mark\.process"):
            subprocess.Popen([sys.executable, "-c", "pass"])
        with pytest.raises(TierViolation, match=r"@pytest\.mark\.process"):
            subprocess.run([sys.executable, "-c", "pass"], check=False)
    assert len(caught) == 2
    assert all("subprocess.Popen" in message for message in caught)


def test_an_asyncio_subprocess_is_caught() -> None:
    async def start() -> None:
        await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")

    with fast_tier_guard() as caught, pytest.raises(TierViolation):
        asyncio.run(start())
    assert caught


def test_a_listening_socket_is_caught_and_names_the_server_marker() -> None:
    with socket.socket() as sock, fast_tier_guard() as caught:
        sock.bind(("127.0.0.1", 0))
        with pytest.raises(TierViolation, match=r"@pytest\.mark\.server"):
            sock.listen()
    assert len(caught) == 1


def test_sleeps_are_caught_and_name_the_timing_marker() -> None:
    with fast_tier_guard() as caught:
        with pytest.raises(TierViolation, match=r"@pytest\.mark\.timing"):
            time.sleep(0.5)
        with pytest.raises(TierViolation, match=r"@pytest\.mark\.timing"):
            asyncio.run(asyncio.sleep(0.5))
        asyncio.run(asyncio.sleep(0))  # a yield to other tasks, not a wait
    assert len(caught) == 2


def test_a_caught_call_is_reported_even_when_the_code_swallows_it() -> None:
    with fast_tier_guard() as caught, contextlib.suppress(AssertionError):
        time.sleep(1)
    assert caught
    assert "time.sleep(1)" in caught[0]


def test_unguarded_lifts_the_guard_and_restores_it() -> None:
    with fast_tier_guard():
        with unguarded():
            assert not GUARD.active
        assert GUARD.active


SESSION = """
import subprocess, sys, time
import pytest

def test_unmarked_starts_a_process():
    try:
        subprocess.run([sys.executable, "-c", "pass"], check=False)
    except AssertionError:
        pass  # swallowed: the guard still fails the test

def test_unmarked_sleeps():
    time.sleep(0.001)

@pytest.mark.timing
def test_marked_sleeps():
    time.sleep(0.001)

def test_unmarked_computes():
    assert sum(range(10)) == 45
"""


def test_the_session_fails_unmarked_tests_and_runs_marked_ones(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_guarded=SESSION)
    pytester.makeini("[pytest]\nmarkers =\n    timing: t\n    fast: f\n")
    with unguarded():  # the inner session's own guard decides, test by test
        result = pytester.runpytest_inprocess("-p", "tier_plugin", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, failed=1, errors=1)
    output = result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "FAILED test_guarded.py::test_unmarked_sleeps - *",
            "ERROR test_guarded.py::test_unmarked_starts_a_process - *",
        ]
    )
    assert "@pytest.mark.process" in output
    assert "@pytest.mark.timing" in output
