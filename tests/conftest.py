"""Shared fixtures.

``llama_server`` is a real OpenAI-compatible server (llama.cpp's own, from xllamacpp's
prebuilt wheel, on the embedded SmolLM2 GGUF) on loopback, started once per test
session (``served_llama`` adds its log); ``llama_server_factory`` starts more with
other options (an API key, a smaller context); ``llama_cpp_python_server`` is
llama-cpp-python's server, where that optional runtime is installed;
``use_provider`` registers a model provider through the public registry for one test.
"""

from __future__ import annotations

import contextlib
import importlib.util
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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
    except urllib.error.HTTPError as answer:
        answer.close()  # the error holds the response and its socket
        return True  # it answered, e.g. 401 when started with --api_key
    except (urllib.error.URLError, OSError):
        return False


# --- llama.cpp's own server (xllamacpp's prebuilt wheel) --------------------------------

TOOLS = Path(__file__).resolve().parent.parent / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

import xllamacpp_server  # noqa: E402 (tools/ is not a package)


class ServedLlama:
    """A running llama.cpp server (tools/xllamacpp_server.py) and its log."""

    def __init__(self, base_url: str, log_path: Path) -> None:
        self.base_url = base_url
        self.log_path = log_path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


@pytest.fixture(scope="session")
def llama_server_factory(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., ServedLlama]]:
    """``start(api_key=None, ctx_size=16384)`` runs llama.cpp's own HTTP server (the
    code of ``llama-server``, from xllamacpp's prebuilt wheel: nothing compiled) on the
    embedded SmolLM2 GGUF on loopback TCP, with the server's defaults otherwise
    (tools/xllamacpp_server.py). Every server started stops at the end of the session."""
    log_dir = tmp_path_factory.mktemp("llama_server")
    with contextlib.ExitStack() as servers:

        def start(*, api_key: str | None = None, ctx_size: int = 16384) -> ServedLlama:
            from moot.llm.local import embedded_model_path

            log_path = log_dir / f"server-{len(list(log_dir.iterdir()))}.log"
            serving = xllamacpp_server.serve(
                embedded_model_path(), log=log_path, api_key=api_key, ctx_size=ctx_size
            )
            try:
                root = servers.enter_context(serving)
            except xllamacpp_server.ServerError as exc:
                pytest.fail(str(exc), pytrace=False)
            return ServedLlama(f"{root}/v1", log_path)

        yield start


@pytest.fixture(scope="session")
def served_llama(llama_server_factory: Callable[..., ServedLlama]) -> ServedLlama:
    """llama.cpp's server on the embedded model, shared by the session, with its log."""
    return llama_server_factory()


@pytest.fixture(scope="session")
def llama_server(served_llama: ServedLlama) -> str:
    """Base URL (``http://127.0.0.1:PORT/v1``) of llama.cpp's server on the embedded model."""
    return served_llama.base_url


# --- llama-cpp-python's server (optional: compiled) -------------------------------------

#: llama-cpp-python, and with its server's extra; CI installs neither (it compiles
#: llama.cpp). Its tests skip without it, each with this reason in pytest's summary.
HAS_LLAMA_CPP = importlib.util.find_spec("llama_cpp") is not None
HAS_LLAMA_CPP_SERVER = all(
    importlib.util.find_spec(module) is not None
    for module in ("llama_cpp", "sse_starlette", "starlette_context", "pydantic_settings")
)
LLAMA_CPP_PYTHON_ABSENT = (
    "llama-cpp-python is not installed: an optional runtime, compiled from source"
    " (requirements/llama-portable.txt); the README's test command installs no compiled"
    " package, so CI does not run this test"
)
needs_llama_cpp_python = pytest.mark.skipif(not HAS_LLAMA_CPP, reason=LLAMA_CPP_PYTHON_ABSENT)


@pytest.fixture(scope="session")
def llama_cpp_python_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
    """Base URL of ``python -m llama_cpp.server`` on the embedded model, where
    llama-cpp-python and its server's extra are installed (skipped elsewhere, with
    the reason in pytest's summary)."""
    if not HAS_LLAMA_CPP_SERVER:
        pytest.skip(f"{LLAMA_CPP_PYTHON_ABSENT} (with the [server] extra)")
    from moot.llm.local import embedded_model_path

    port = free_port()
    log_path = tmp_path_factory.mktemp("llama_cpp_python_server") / "server.log"
    command = [
        *(sys.executable, "-m", "llama_cpp.server", "--model", str(embedded_model_path())),
        *("--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096"),
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while not _answers(f"{base_url}/models"):
            if process.poll() is not None or time.monotonic() > deadline:
                state = "exited" if process.poll() is not None else "did not answer in time"
                tail = log_path.read_bytes()[-3000:].decode(errors="replace")
                pytest.fail(f"llama_cpp.server {state}; log tail:\n{tail}")
            time.sleep(0.2)
        yield base_url
    finally:
        xllamacpp_server.stop(process)
