"""The ``xllamacpp`` runtime of the model worker: llama.cpp's own server, in process.

``xllamacpp`` (PyPI, prebuilt wheels: no compiler) wraps llama.cpp's C++ server.
Its ``Server`` object answers chat completions from Python (``handle_chat_completions``),
but it always starts that server's HTTP listener too (no option turns it off), by
default on a loopback TCP port with CORS ``*`` and no API key. moot never lets it open
a TCP port: the listener is bound to a Unix socket (llama.cpp listens on a Unix socket
when its host name ends in ``.sock``) inside a directory only this user may enter
(mode 0700, made and removed by the parent process), and it requires a random API key
that only this worker knows. Generation goes through the in-process call; the socket
serves only the two facts the Python API lacks (token counts and the server's
properties), asked by this worker itself.

Structured replies are constrained by llama.cpp's LLGuidance grammar built from the
same JSON schema (``%json`` in a Lark grammar), with properties in schema order and
JSON written compactly: no whitespace between JSON tokens but the separators ``", "``
and ``": "``. The LLGuidance inside this runtime treats a ``whitespace_pattern`` as a
whitespace token that may repeat, so a bounded pattern still let SmolLM2 write
newlines and tabs until the token limit (a judge's reply cut off at 1,484 tokens, three
times, in CI); only turning flexible whitespace off bounds it.
The reply is then validated by moot exactly as with every other backend.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import time
from typing import Any

SOCKET_NAME = "llama.sock"
JSON_LAYOUT: dict[str, object] = {
    "whitespace_flexible": False,
    "item_separator": ", ",
    "key_separator": ": ",
}
"""LLGuidance's JSON options: compact JSON, the separators the only whitespace."""
HTTP_THREADS = 2


def lark_grammar(schema_text: str) -> str:
    """The LLGuidance grammar that constrains a reply to the JSON schema ``schema_text``."""
    schema = json.loads(schema_text)
    if isinstance(schema, dict):
        schema = {"x-guidance": JSON_LAYOUT, **schema}
    return "%llguidance {}\nstart: %json " + json.dumps(schema)


class _UnixConnection(http.client.HTTPConnection):
    """HTTP over the worker's own Unix socket."""

    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self._path)
        self.sock = sock


class XllamacppModel:
    """A GGUF loaded by xllamacpp's in-process llama.cpp server (one slot, so every
    call reuses the prompt cache the previous one left: ``cache_prompt``)."""

    runtime = "xllamacpp"

    def __init__(self, config: dict[str, Any]) -> None:
        import xllamacpp

        self._lib = xllamacpp
        self.path = str(config["model_path"])
        socket_dir = str(config["socket_dir"])
        if os.stat(socket_dir).st_mode & 0o077:
            raise ValueError(f"the worker's socket directory {socket_dir} is not private")
        self._socket = os.path.join(socket_dir, SOCKET_NAME)
        self._key = secrets.token_urlsafe(32)
        params = xllamacpp.CommonParams()
        params.model.path = self.path
        params.n_ctx = int(config["n_ctx"])
        params.n_parallel = 1
        threads = self._threads = int(config["n_threads"])
        generation = self._generation_threads = int(config.get("n_threads_generation", threads))
        params.cpuparams.n_threads = generation
        params.cpuparams_batch.n_threads = threads
        params.hostnames = [self._socket]  # a Unix socket: no TCP port is opened
        params.api_keys = [self._key]
        params.n_threads_http = HTTP_THREADS
        params.warmup = False
        params.cache_prompt = True
        if config.get("seed") is not None:
            params.sampling.seed = int(config["seed"])
        self.server = xllamacpp.Server(params)
        # llama.cpp's server installs its own SIGINT/SIGTERM handlers; Ctrl-C is the
        # parent's to handle (it stops this worker), and SIGTERM ends it at once
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        address = str(self.server.listening_address)
        if not address.startswith("unix://"):
            raise RuntimeError(f"llama.cpp's server listens on {address}, not a Unix socket")
        self.grammars: dict[str, str] = {}
        self.props = self._get("/props")
        self.models = self._get("/v1/models")

    def _http(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        connection = _UnixConnection(self._socket, timeout=60.0)
        try:
            headers = {"Authorization": f"Bearer {self._key}"}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            payload = response.read()
        finally:
            connection.close()
        if response.status != 200:
            raise RuntimeError(f"llama.cpp's server answered {path} with {response.status}")
        return json.loads(payload)

    def _get(self, path: str) -> Any:
        return self._http("GET", path)

    def info(self) -> dict[str, Any]:
        meta: dict[str, Any] = {}
        data = self.models.get("data") if isinstance(self.models, dict) else None
        if isinstance(data, list) and data and isinstance(data[0], dict):
            meta = dict(data[0].get("meta") or {})
        return {
            "runtime": self.runtime,
            "runtime_version": str(getattr(self._lib, "__version__", "unknown")),
            "system_info": str(self._lib.get_system_info()).strip(),
            "model_path": self.path,
            "n_ctx": int(self.props.get("default_generation_settings", {}).get("n_ctx", 0)),
            "n_threads": self._threads,
            "n_threads_generation": self._generation_threads,
            "listening": str(self.server.listening_address),
            "metadata": {
                "n_params": meta.get("n_params"),
                "n_ctx_train": meta.get("n_ctx_train"),
                "size": meta.get("size"),
            },
        }

    def tokens(self, text: str) -> list[int]:
        """The model's token ids for ``text`` (no special tokens added)."""
        body = {"content": text, "add_special": False}
        return [int(token) for token in self._http("POST", "/tokenize", body)["tokens"]]

    def tokenize(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"counts": [len(self.tokens(str(text))) for text in request["texts"]]}

    def _grammar(self, schema_text: str) -> str:
        if schema_text not in self.grammars:
            self.grammars[schema_text] = lark_grammar(schema_text)
        return self.grammars[schema_text]

    def generate(self, request: dict[str, Any]) -> dict[str, Any]:
        settings = request["settings"]
        body: dict[str, Any] = {
            "messages": request["messages"],
            "temperature": float(settings["temperature"]),
            "max_tokens": int(settings["max_tokens"]),
            "repeat_penalty": float(settings["repeat_penalty"]),
            "cache_prompt": True,
        }
        if settings.get("seed") is not None:
            body["seed"] = int(settings["seed"])
        if settings.get("frequency_penalty"):
            body["frequency_penalty"] = float(settings["frequency_penalty"])
        if request.get("schema") is not None:
            body["grammar"] = self._grammar(request["schema"])
        started, cpu_started = time.perf_counter(), time.process_time()
        reply = self.server.handle_chat_completions(body)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        if not isinstance(reply, dict) or "choices" not in reply:
            error = reply.get("error", reply) if isinstance(reply, dict) else reply
            message = error.get("message", error) if isinstance(error, dict) else error
            raise RuntimeError(str(message))
        choice = reply["choices"][0]
        usage = reply.get("usage") or {}
        timings = reply.get("timings") or {}
        return {
            "text": (choice.get("message") or {}).get("content") or "",
            "finish_reason": choice.get("finish_reason") or "stop",
            "prompt_tokens": int(usage.get("prompt_tokens", 0)),
            "completion_tokens": int(usage.get("completion_tokens", 0)),
            "timings": {
                "seconds": round(seconds, 4),
                "cpu_seconds": round(cpu, 4),
                "prompt_eval_ms": round(float(timings.get("prompt_ms", 0.0)), 2),
                "prompt_eval_tokens": int(timings.get("prompt_n", 0)),
                "prompt_cached_tokens": int(timings.get("cache_n", 0)),
                "generation_ms": round(float(timings.get("predicted_ms", 0.0)), 2),
                "generated_tokens": int(timings.get("predicted_n", 0)),
            },
        }
