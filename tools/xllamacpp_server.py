"""llama.cpp's own HTTP server on loopback TCP, from xllamacpp's prebuilt wheel.

The test suite and the benchmarks run moot's OpenAI-compatible backend against the
real llama.cpp server, the one ``llama-server``, Ollama, LM Studio and many
self-hosters build on. ``xllamacpp`` (PyPI, prebuilt wheels) ships that server's C++
code (``tools/server`` of llama.cpp) as a Python extension, so nothing is compiled:
this module starts it in a subprocess of its own, listening on ``127.0.0.1`` on a
port the kernel picks, with llama-server's defaults otherwise (four slots sharing
one KV cache, the model's chat template, no web UI). Its log is llama.cpp's own.

    python tools/xllamacpp_server.py --model M.gguf [--ctx-size N] [--api-key K]

serves until SIGTERM or SIGINT; the first line it prints is ``listening on URL``.
:func:`serve` runs it around a ``with`` block (the tests' fixtures use it).

This is for tests and benchmarks only: moot's embedded runtime never opens a TCP port
(src/moot/llm/local_xllamacpp.py binds the listener to a private Unix socket).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

#: What the child prints first, followed by its root URL.
READY = "listening on "
#: llama-server's default number of slots (``--parallel`` auto), sharing one KV cache.
SLOTS = 4


class ServerError(RuntimeError):
    """The server did not start; the message ends with its log."""


def _healthy(root: str) -> bool:
    """``/health`` answers 200 once the model is loaded (it needs no API key)."""
    try:
        with urllib.request.urlopen(f"{root}/health", timeout=2) as response:  # noqa: S310
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def _ready_url(log: Path) -> str | None:
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(READY):
            return line.removeprefix(READY).strip()
    return None


@contextlib.contextmanager
def serve(
    model: Path,
    *,
    log: Path,
    threads: int = 1,
    ctx_size: int = 16384,
    api_key: str | None = None,
    start_timeout: float = 120.0,
) -> Iterator[str]:
    """Run the server on ``model`` in a subprocess, its output in ``log``; yields its
    root URL (the OpenAI API is under ``/v1``) and stops it afterwards. One thread by
    default: on a CPU shared with other work, llama.cpp's threads wait on each other
    at every step (measured 6-10x slower with 2 threads than with 1 on 2 busy cores)."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        *("--model", str(model), "--ctx-size", str(ctx_size), "--threads", str(threads)),
        *(("--api-key", api_key) if api_key else ()),
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + start_timeout
        root = None
        while root is None or not _healthy(root):
            if process.poll() is not None or time.monotonic() > deadline:
                state = "exited" if process.poll() is not None else "did not answer in time"
                tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
                raise ServerError(f"xllamacpp's llama.cpp server {state}; its log ends:\n{tail}")
            time.sleep(0.2)
            root = root or _ready_url(log)
        yield root
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate ``process``; kill it if it has not ended 15 s later."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def run(model: str, *, ctx_size: int, threads: int, api_key: str | None) -> None:
    """Serve ``model`` on a free loopback port until SIGTERM or SIGINT."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # the kernel picks a free port: no race with another server
    params.n_ctx = ctx_size
    params.n_parallel = SLOTS
    params.kv_unified = True
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.ui = False
    if api_key:
        params.api_keys = [api_key]
    server = xllamacpp.Server(params)
    stop = threading.Event()
    # llama.cpp installs its own handlers; this process ends when asked to
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    print(f"{READY}{server.listening_address}", flush=True)
    while not stop.wait(1.0):
        pass


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="the GGUF file to serve")
    parser.add_argument("--ctx-size", type=int, default=16384)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--api-key", default=None, help="require this key (401 otherwise)")
    args = parser.parse_args(argv)
    run(args.model, ctx_size=args.ctx_size, threads=args.threads, api_key=args.api_key)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
