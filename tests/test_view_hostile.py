"""Hostile input to ``moot view`` that never reaches the viewer's app: hosts it
refuses, and requests uvicorn itself answers."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moot.cli import app
from moot.store import Store

pytest.importorskip("uvicorn")


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1\n",
        "0.0.0.0",  # noqa: S104 (refused: that is the test)
        "evil.example\nwarning: fake",
        "::",
    ],
)
def test_a_refused_host_gets_no_warning(host: str, tmp_path: Path) -> None:
    """The warning about serving beyond loopback was printed (raw, newline and all)
    before the host was refused."""
    ran = CliRunner(env={"MOOT_HOME": str(tmp_path)}).invoke(app, ["view", "--host", host])
    assert ran.exit_code == 2, ran.output
    assert "warning" not in ran.stderr.replace("warning: fake", "")
    assert "--host" in ran.stderr


@pytest.mark.server
def test_uvicorns_own_400_carries_the_security_headers(tmp_path: Path) -> None:
    from moot.view.serve import serve_in_thread

    Store(tmp_path / "moot.db")
    served = serve_in_thread(tmp_path / "moot.db")
    try:
        port = int(served.url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\n\r\n".encode()
            )
            answer = b""
            while chunk := conn.recv(65536):
                answer += chunk
    finally:
        served.stop()
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
    assert head.startswith("http/1.1 400")
    for header in ("x-frame-options: deny", "x-content-type-options: nosniff",
                   "content-security-policy:", "cache-control: no-store"):  # fmt: skip
        assert header in head, head
