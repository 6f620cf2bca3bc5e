"""``moot mcp`` as a client starts it: a real ``moot mcp`` process, over stdio and over
streamable HTTP on loopback, driven by the MCP SDK's own client. Each transport runs
the scripted scenario of issue 26: a debate with progress notifications, a lint, a
long run cancelled by the client (stored as interrupted, as Ctrl-C leaves it) and
resumed to the end, and arguments refused with the command line's messages.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from conftest import free_port
from moot.store import Store

TOPIC = "Should a 10-person startup adopt microservices from day one?"
FAST = "scripted:demo"
SLOW = "scripted:demo?latency_ms=400"
SERVE = ["-m", "moot", "mcp", "--model", FAST, "--model", SLOW, "--budget-cap", "100000"]


async def _wait_for_status(client: Client, run_id: str, status: str) -> dict[str, Any]:
    """The stored run once the server has written ``status`` (a cancel is a
    notification: the server stops the run after the client has moved on)."""
    for _ in range(200):
        shown = await client.call_tool("get_run", {"run_id": run_id})
        assert shown.structured_content is not None
        content: dict[str, Any] = shown.structured_content
        if content["status"] == status:
            return content
        await anyio.sleep(0.05)
    raise AssertionError(f"run {run_id} never became {status}: {shown.structured_content}")


async def scenario(client: Client) -> None:
    listed = await client.list_tools()
    assert {t.name for t in listed.tools} == {
        "run_debate",
        "get_run",
        "list_runs",
        "lint_transcript",
        "resume_run",
    }

    # a scripted debate, with progress
    seen: list[str] = []

    async def note(progress: float, total: float | None, message: str | None) -> None:
        seen.append(message or "")

    ran = await client.call_tool(
        "run_debate", {"topic": TOPIC, "budget": 50_000}, progress_callback=note
    )
    assert not ran.is_error
    assert ran.structured_content is not None
    summary = ran.structured_content
    assert summary["status"] == "done"
    assert summary["trust"]["level"] in ("ok", "caution", "low")
    assert "round: opening" in seen
    assert any(m.startswith("call ") for m in seen)

    # a lint of a chat list
    linted = await client.call_tool(
        "lint_transcript",
        {
            "messages": [
                {"role": "assistant", "name": "pro", "content": "Small teams ship faster."},
                {
                    "role": "assistant",
                    "name": "con",
                    "content": "Only an idiot would say that, you fool.",
                },
            ]
        },
    )
    assert linted.structured_content is not None
    assert [f["detector"] for f in linted.structured_content["flags"]] == ["ad_hominem"]

    # a long run, cancelled by the client after its first call
    calls: list[str] = []
    with anyio.CancelScope() as scope:

        async def cancel_after_a_call(
            progress: float, total: float | None, message: str | None
        ) -> None:
            calls.append(message or "")
            if (message or "").startswith("call "):
                scope.cancel()

        await client.call_tool(
            "run_debate", {"topic": TOPIC, "model": SLOW}, progress_callback=cancel_after_a_call
        )
    assert scope.cancelled_caught, "the long run finished before it was cancelled"
    runs = await client.call_tool("list_runs", {"limit": 1})
    assert runs.structured_content is not None
    (latest,) = runs.structured_content["runs"]
    assert latest["id"] != summary["run_id"]
    stopped = await _wait_for_status(client, latest["id"], "interrupted")
    assert "interrupted during the" in (stopped["error"] or "")

    # resumed to the end: the same run, finished
    resumed_notes: list[str] = []

    async def resumed_note(progress: float, total: float | None, message: str | None) -> None:
        resumed_notes.append(message or "")

    resumed = await client.call_tool(
        "resume_run", {"run_id": latest["id"]}, progress_callback=resumed_note
    )
    assert resumed.structured_content is not None, resumed.content
    assert resumed.structured_content["run_id"] == latest["id"]
    assert resumed.structured_content["status"] == "done"
    assert any(m.startswith("call ") for m in resumed_notes)
    shown = await client.call_tool("get_run", {"run_id": latest["id"], "view": "json"})
    assert shown.structured_content is not None
    assert shown.structured_content["status"] == "done"
    assert shown.structured_content["result"]["topic"] == TOPIC

    # refused as the command line refuses it, as an MCP error
    with pytest.raises(MCPError) as caught:
        await client.call_tool("run_debate", {"topic": TOPIC, "lang": "fr"})
    assert caught.value.message == "unsupported language 'fr'; use en or zh"
    assert caught.value.data == {"exit_code": 2, "label": "error:"}


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1"}


@pytest.mark.process
def test_the_scenario_over_stdio() -> None:
    params = StdioServerParameters(command=sys.executable, args=SERVE, env=_environment())

    async def main() -> None:
        async with Client(params) as client:
            await scenario(client)

    anyio.run(main)
    rows = Store().list_debates()
    assert sorted(r.status for r in rows) == ["done", "done"]


@contextmanager
def http_server(
    port: int, *extra: str, host: str = "127.0.0.1"
) -> Iterator[tuple[subprocess.Popen[bytes], list[str]]]:
    """``moot mcp --http`` on ``port``, once it has said it is serving (its last line at
    start, after any warning) and listens on ``host``; then its standard error (in the
    list, once it has stopped). Waiting for the line, not only for the socket, keeps a
    loaded machine from stopping the server between its bind and its words."""
    said: list[str] = []
    process = subprocess.Popen(
        [sys.executable, *SERVE, "--http", "--port", str(port), *extra],
        env=_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    lines: list[bytes] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stderr or ()), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while True:
            serving = any(b"moot mcp: serving" in line for line in list(lines))
            try:
                if serving:
                    socket.create_connection((host, port), timeout=1).close()
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                process.wait(timeout=5)
                reader.join(timeout=5)
                process.stderr.close()
                err = b"".join(lines).decode()
                raise AssertionError(f"moot mcp --http did not start: {err}") from None
            time.sleep(0.1)
        yield process, said
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=30)
        reader.join(timeout=30)
        process.stderr.close()
        said.append(b"".join(lines).decode())


@pytest.mark.process
@pytest.mark.server
def test_the_scenario_over_streamable_http() -> None:
    port = free_port()
    with http_server(port) as (process, _):

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await scenario(client)

        anyio.run(main)
        assert process.poll() is None
        # a page that reached the port by another name (DNS rebinding) is refused
        for header in ({"Host": f"evil.example:{port}"}, {"Origin": "http://evil.example"}):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/mcp",
                data=b"{}",
                method="POST",
                headers={"Content-Type": "application/json", **header},
            )
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)  # noqa: S310 (loopback)
            refused.value.close()  # the error holds the response and its socket
            assert refused.value.code in (403, 421)
    rows = Store().list_debates()
    assert sorted(r.status for r in rows) == ["done", "done"]


def _outside_address() -> str:
    """This machine's address on its default route (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return "127.0.0.1"
        address: str = probe.getsockname()[0]
    return address


@pytest.mark.process
@pytest.mark.server
@pytest.mark.parametrize("told", [False, True], ids=["default", "--host"])
def test_the_http_server_listens_on_loopback_unless_told(told: bool) -> None:
    address = _outside_address()
    if address.startswith("127."):
        pytest.skip("this machine has no address but loopback")
    port = free_port()
    extra = ("--host", address) if told else ()
    with http_server(port, *extra, host=address if told else "127.0.0.1") as (_, said):
        try:
            socket.create_connection((address, port), timeout=2).close()
            answered = True
        except OSError:
            answered = False
    assert answered is told
    assert ("warning: serving on" in said[0]) is told
    assert f":{port}/mcp" in said[0]
