"""A PostgreSQL server of the test's own: Debian's binaries, a cluster made by initdb
in a temporary directory, listening on 127.0.0.1 at a free port (and on a Unix socket
in that directory). Run as the ``postgres`` user when the tests run as root (initdb
refuses root). Without the binaries the tests that need it skip, unless
``CI_REQUIRE_POSTGRES=1`` (``.ci/run`` sets it), where they fail.

    url = server.url("moot")   # postgresql://moot_test@127.0.0.1:PORT/moot (trust auth)
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

USER = "moot_test"
START_TIMEOUT_S = 60.0


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PgServer:
    """A running server: its port and its data directory."""

    port: int
    root: Path
    bin_dir: Path
    run_as: list[str]

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        done = subprocess.run(
            [
                *self.run_as,
                str(self.bin_dir / "psql"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                USER,
                "-d",
                database,
                "-Atc",
                sql,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextmanager
def pg_server(*, durable: bool = False) -> Iterator[PgServer]:
    """Start a server; stop it and remove its files after. Tests run it with
    ``fsync=off`` (faster, nothing to survive); ``durable`` keeps PostgreSQL's default
    (the benchmarks measure write latency with it)."""
    bin_dir = _bin_dir()
    if bin_dir is None:
        if os.environ.get("CI_REQUIRE_POSTGRES") == "1":
            pytest.fail("PostgreSQL is not installed (apt-get install postgresql)")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    run_as: list[str] = []
    root = Path(tempfile.mkdtemp(prefix="moot-pg-"))
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(root, owner.pw_uid, owner.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    data = root / "data"
    port = _free_port()
    subprocess.run(
        [
            *run_as,
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C.UTF-8",
        ],
        check=True,
        capture_output=True,
    )
    options = f"-h 127.0.0.1 -p {port} -k {root} -c max_connections=60"
    if not durable:
        options += " -c fsync=off"
    subprocess.run(
        [
            *run_as,
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(root / "log"),
            "-w",
            "-t",
            str(int(START_TIMEOUT_S)),
            "start",
        ],
        check=True,
        capture_output=True,
    )
    server = PgServer(port, root, bin_dir, run_as)
    try:
        yield server
    finally:
        subprocess.run(
            [*run_as, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            check=False,
            capture_output=True,
        )
        deadline = time.monotonic() + 10
        while (data / "postmaster.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(root, ignore_errors=True)
