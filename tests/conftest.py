"""Shared fixtures.

``llama_server`` is a real OpenAI-compatible server (llama-cpp-python's, on the
embedded SmolLM2 GGUF) on loopback, started once per test session;
``llama_server_factory`` starts more with extra server options (e.g. ``--api_key``);
``use_provider`` registers a model provider through the public registry for one test.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest
import typer.main
import typer.testing

from moot.llm.backend import ProviderFactory, register_provider, unregister_provider

#: The tiers, the fast tier's guard and the time per tier (tests/tier_plugin.py).
pytest_plugins = ["tier_plugin"]

SERVER_START_TIMEOUT = 120.0


def pytest_configure(config: pytest.Config) -> None:
    """Child processes get the usual Ctrl-C. A shell without job control starts a
    command run in the background (``pytest ... &``) with SIGINT ignored, which every
    child inherits, so the tests that send SIGINT would see it ignored. A handler
    (unlike SIG_IGN) is reset to the default in each child on exec."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


# --- the CLI in process, built once ----------------------------------------------------

_build_command = typer.main.get_command
_BUILT: dict[tuple[object, ...], tuple[object, Any]] = {}


def _app_state(app: Any) -> tuple[object, ...]:
    """What the click command built from a typer app depends on: the app, what is
    registered on it, and the registered formats (a format may bring its own options)."""
    from moot.formats import formats

    return (
        id(app),
        tuple(id(c) for c in app.registered_commands),
        tuple(id(g) for g in app.registered_groups),
        id(app.registered_callback),
        tuple((f.name, id(f)) for f in formats()),
    )


def _built_command(app: Any) -> Any:
    """``typer.testing.CliRunner`` builds the click command from the app on every
    ``invoke`` (reading every parameter's type hints: about 0.25 s, a third of a
    scripted debate); the suite invokes it thousands of times. Built once per state of
    the app instead (the command holds no state between invocations)."""
    key = _app_state(app)
    if key not in _BUILT:
        _BUILT[key] = (app, _build_command(app))  # the app is kept: its id stays its own
    return _BUILT[key][1]


typer.testing._get_command = _built_command  # type: ignore[attr-defined,assignment]


@pytest.fixture(scope="session", autouse=True)
def _session_moot_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """No test ever touches the user's real run store, not even module-scoped fixtures
    (which are set up before function-scoped ones)."""
    home = tmp_path_factory.mktemp("moot_home_session")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MOOT_HOME", str(home))
        yield home


@pytest.fixture(autouse=True)
def _isolated_moot_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own run store (``MOOT_HOME``), also seen by subprocesses."""
    home = tmp_path_factory.mktemp("moot_home")
    monkeypatch.setenv("MOOT_HOME", str(home))
    return home


@pytest.fixture
def use_provider() -> Iterator[Callable[[str, ProviderFactory], None]]:
    """``use_provider(name, factory)`` makes ``name:...`` specs resolve through
    ``factory`` (``moot.llm.backend.register_provider``) for this test only: the
    provider it replaced, or none, is back afterwards."""
    replaced: list[tuple[str, ProviderFactory | None]] = []

    def use(name: str, factory: ProviderFactory) -> None:
        replaced.append((name, register_provider(name, factory)))

    yield use
    for name, previous in reversed(replaced):
        if previous is None:
            unregister_provider(name)
        else:
            register_provider(name, previous)


def free_port() -> int:
    """A loopback TCP port that was free a moment ago (and is closed now)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):  # noqa: S310 (loopback http only)
            return True
    except urllib.error.HTTPError:
        return True  # it answered, e.g. 401 when started with --api_key
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="session")
def llama_server_factory(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., str]]:
    """Start ``python -m llama_cpp.server`` with extra options; returns its ``.../v1`` URL.
    Every server started is terminated at the end of the session."""
    started: list[tuple[subprocess.Popen[bytes], IO[bytes]]] = []
    log_dir = tmp_path_factory.mktemp("llama_server")

    def start(*extra_args: str) -> str:
        from moot.llm.local import embedded_model_path

        port = free_port()
        log_path: Path = log_dir / f"server-{port}.log"
        log = log_path.open("wb")
        command = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(embedded_model_path()),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "4096",
            *extra_args,
        ]
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        started.append((process, log))
        base_url = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while not _answers(f"{base_url}/models"):
            if process.poll() is not None or time.monotonic() > deadline:
                state = "exited" if process.poll() is not None else "did not answer in time"
                tail = log_path.read_bytes()[-3000:].decode(errors="replace")
                pytest.fail(f"llama_cpp.server {state}; log tail:\n{tail}")
            time.sleep(0.2)
        return base_url

    yield start

    for process, log in started:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="session")
def llama_server(llama_server_factory: Callable[..., str]) -> str:
    """Base URL (``http://127.0.0.1:PORT/v1``) of a llama.cpp server on the embedded model."""
    return llama_server_factory()


# --- llama.cpp's C++ server ----------------------------------------------------------

TOOLS = Path(__file__).resolve().parent.parent / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

import llama_server as llama_server_build  # noqa: E402 (tools/ is not a package)


class CppServer:
    """A running ``llama-server`` (llama.cpp's C++ server) and its log."""

    def __init__(self, base_url: str, log_path: Path) -> None:
        self.base_url = base_url
        self.log_path = log_path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


@pytest.fixture(scope="session")
def llama_server_binary() -> Path:
    """llama.cpp's ``llama-server``, built from the PyPI sdist on first use (minutes)
    and cached per machine (tools/llama_server.py). A machine without cmake or a
    compiler fails here with what to install."""
    try:
        return llama_server_build.build()
    except llama_server_build.BuildError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def cpp_llama_server(
    llama_server_binary: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[CppServer]:
    """``llama-server`` on loopback serving the embedded SmolLM2 GGUF, with the
    server's defaults otherwise (tools/llama_server.py ``serve``). Its log is the
    server's own output, for the tests to search."""
    from moot.llm.local import embedded_model_path

    log_path = tmp_path_factory.mktemp("cpp_llama_server") / "server.log"
    try:
        with llama_server_build.serve(embedded_model_path(), log=log_path) as root:
            yield CppServer(f"{root}/v1", log_path)
    except llama_server_build.ServerError as exc:
        pytest.fail(str(exc), pytrace=False)
