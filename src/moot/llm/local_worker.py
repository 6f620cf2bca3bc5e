"""The worker process that holds a loaded GGUF model: ``python -m moot.llm.local_worker``.

llama.cpp is native code: a build that does not suit the CPU, an assertion in the
library or the kernel's out-of-memory killer ends the *process*. So the model never
runs in moot's own process. :mod:`moot.llm.local` starts this worker, which loads the
model once and answers requests over a pipe; when the worker dies, moot turns that
into a ``BackendError`` and the next call starts a fresh worker.

The model runs on one of two runtimes (``runtime`` in the configuration):
``xllamacpp`` (llama.cpp's own server, from prebuilt wheels; see
:mod:`moot.llm.local_xllamacpp`) or ``llama-cpp-python`` (built from source; below).

The protocol is one JSON document per line. The parent writes a configuration line
first (``runtime``, ``model_path``, ``n_ctx``, ``n_threads`` for prompt evaluation,
``n_threads_generation``, ``seed``, ``sampler``, and ``socket_dir`` for xllamacpp);
the worker answers
``{"type": "ready", ...}`` once the model is loaded (or ``{"type": "error", ...}``
and exits). Then each request line ``{"id": N, "op": ..., ...}`` gets exactly one
reply line ``{"id": N, "ok": true, ...}`` or ``{"id": N, "ok": false, "error": ...}``.
Operations: ``generate`` (chat completion, optionally grammar-constrained by a JSON
schema), ``tokenize`` (token counts of texts) and ``info`` (llama.cpp's build and the
model's facts).

Only the protocol is written to the real standard output: file descriptor 1 is
pointed at standard error before llama.cpp loads, so nothing the native library
prints can corrupt a reply. The worker ignores SIGINT (Ctrl-C is the parent's to
handle: it stops the worker itself) and exits when its parent goes away: at the end
of its input, or when a watchdog sees it has been re-parented.
"""

from __future__ import annotations

import ctypes
import json
import math
import os
import signal
import sys
import threading
import time
from typing import IO, Any, cast

PARENT_POLL_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    """Exit at once when the parent process is gone (we were re-parented)."""
    while True:
        time.sleep(PARENT_POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(0)


class _GrammarFirstTry:
    """Grammar-constrained sampling the way llama.cpp's own tools sample.

    llama-cpp-python puts the grammar before top-k in its sampler chain, so the
    grammar is checked against every token of the vocabulary (49,152 for SmolLM2) at
    every step, which costs about as much as the model itself. Here the token is
    first sampled without the grammar; only if the grammar rejects it are the logits
    masked by the grammar and the token sampled again. The result always satisfies
    the grammar (the fallback samples among grammatical tokens only).
    """

    def __init__(self, llama: Any, chain: Any, grammar: Any) -> None:
        import llama_cpp
        from llama_cpp._internals import LlamaTokenDataArray

        self._lib = llama_cpp
        self._chain = chain
        self._n_vocab = int(llama.n_vocab())
        self._grammar = llama_cpp.llama_sampler_init_grammar(
            llama._model.vocab, grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8")
        )
        if not self._grammar:
            raise ValueError("llama.cpp could not parse the grammar built from the schema")
        self._all = LlamaTokenDataArray(n_vocab=self._n_vocab)
        self._one_data = (llama_cpp.llama_token_data * 1)()
        self._one = llama_cpp.llama_token_data_array(
            data=self._one_data, size=1, selected=-1, sorted=False
        )

    def _apply(self, sampler: Any, candidates: Any) -> int:
        self._lib.llama_sampler_apply(sampler, ctypes.byref(candidates))
        return int(candidates.data[candidates.selected].id)

    def _allowed(self, token: int) -> bool:
        self._one_data[0].id = token  # type: ignore[assignment,unused-ignore]
        self._one_data[0].logit = 1.0
        self._one_data[0].p = 0.0
        self._one.size = 1
        self._one.selected = -1
        self._one.sorted = False
        self._lib.llama_sampler_apply(self._grammar, ctypes.byref(self._one))
        return bool(math.isfinite(self._one_data[0].logit))

    def sample(self, ctx: Any, idx: int = -1) -> int:
        import numpy as np

        lib = self._lib
        pointer = lib.llama_get_logits_ith(ctx.ctx, idx)
        logits = np.ctypeslib.as_array(pointer, shape=(self._n_vocab,))
        self._all.copy_logits(logits)
        token = self._apply(self._chain.sampler, self._all.candidates)
        if not self._allowed(token):
            self._all.copy_logits(logits)
            lib.llama_sampler_apply(self._grammar, ctypes.byref(self._all.candidates))
            token = self._apply(self._chain.sampler, self._all.candidates)
        lib.llama_sampler_accept(self._grammar, token)
        lib.llama_sampler_accept(self._chain.sampler, token)
        return token

    def close(self) -> None:
        if self._grammar:
            self._lib.llama_sampler_free(self._grammar)
            self._grammar = None
        self._chain.close()

    def __del__(self) -> None:
        self.close()


def _llama_class() -> Any:
    """``llama_cpp.Llama`` with the grammar checked after sampling (see above)."""
    import llama_cpp

    # llama_cpp's types where it is installed, Any where it is not (the test command
    # does not install it): the ignores hold for both
    class FirstTryLlama(llama_cpp.Llama):  # type: ignore[misc,unused-ignore]
        def _init_sampler(self, **options: Any) -> Any:  # type: ignore[override,unused-ignore]
            grammar = options.pop("grammar", None)
            chain = super()._init_sampler(**options, grammar=None)
            return chain if grammar is None else _GrammarFirstTry(self, chain, grammar)

    return FirstTryLlama


class LlamaCppPythonModel:
    """The ``llama-cpp-python`` runtime: the loaded model and the grammars built for
    it (GBNF from the JSON schema), keyed by schema text."""

    runtime = "llama-cpp-python"

    def __init__(self, config: dict[str, Any]) -> None:
        import llama_cpp

        self._llama_cpp = llama_cpp
        self.path = str(config["model_path"])
        # "library": llama-cpp-python's own sampler (grammar over the whole vocabulary);
        # kept selectable so benchmarks can measure what the first-try sampler saves
        library = config.get("sampler") == "library"
        self.llama = (llama_cpp.Llama if library else _llama_class())(
            model_path=self.path,
            n_ctx=int(config["n_ctx"]),
            n_threads=int(config.get("n_threads_generation", config["n_threads"])),
            n_threads_batch=int(config["n_threads"]),
            seed=int(config["seed"]) if config.get("seed") is not None else -1,
            verbose=False,
        )
        self.grammars: dict[str, Any] = {}

    def info(self) -> dict[str, Any]:
        llama_cpp = self._llama_cpp
        system = llama_cpp.llama_print_system_info()
        return {
            "runtime": self.runtime,
            "runtime_version": str(getattr(llama_cpp, "__version__", "unknown")),
            "system_info": system.decode("utf-8", "replace").strip(),
            "model_path": self.path,
            "n_ctx": int(self.llama.n_ctx()),
            "n_threads": int(self.llama.n_threads_batch),
            "n_threads_generation": int(self.llama.n_threads),
            "metadata": {
                k: v
                for k, v in self.llama.metadata.items()
                if k in ("general.name", "general.size_label", "general.architecture")
            },
        }

    def tokenize(self, request: dict[str, Any]) -> dict[str, Any]:
        counts = [
            len(self.llama.tokenize(str(text).encode("utf-8"), add_bos=False))
            for text in request["texts"]
        ]
        return {"counts": counts}

    def _grammar(self, schema_text: str) -> Any:
        if schema_text not in self.grammars:
            from llama_cpp.llama_grammar import LlamaGrammar

            self.grammars[schema_text] = LlamaGrammar.from_json_schema(schema_text, verbose=False)
        return self.grammars[schema_text]

    def generate(self, request: dict[str, Any]) -> dict[str, Any]:
        llama_cpp = self._llama_cpp
        settings = request["settings"]
        kwargs: dict[str, Any] = {
            "messages": request["messages"],
            "temperature": float(settings["temperature"]),
            "max_tokens": int(settings["max_tokens"]),
            "repeat_penalty": float(settings["repeat_penalty"]),
        }
        if settings.get("seed") is not None:
            kwargs["seed"] = int(settings["seed"])
        if settings.get("frequency_penalty"):
            kwargs["frequency_penalty"] = float(settings["frequency_penalty"])
        if request.get("schema") is not None:
            kwargs["grammar"] = self._grammar(request["schema"])
        llama_cpp.llama_perf_context_reset(self.llama.ctx)
        started, cpu_started = time.perf_counter(), time.process_time()
        reply = cast(dict[str, Any], self.llama.create_chat_completion(**kwargs))
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        perf = llama_cpp.llama_perf_context(self.llama.ctx)
        choice = reply["choices"][0]
        usage = reply.get("usage") or {}
        return {
            "text": choice["message"].get("content") or "",
            "finish_reason": choice.get("finish_reason") or "stop",
            "prompt_tokens": int(usage.get("prompt_tokens", 0)),
            "completion_tokens": int(usage.get("completion_tokens", 0)),
            "timings": {
                "seconds": round(seconds, 4),
                "cpu_seconds": round(cpu, 4),
                "prompt_eval_ms": round(float(perf.t_p_eval_ms), 2),
                "prompt_eval_tokens": int(perf.n_p_eval),
                "generation_ms": round(float(perf.t_eval_ms), 2),
                "generated_tokens": int(perf.n_eval),
            },
        }


def _send(out: IO[str], message: dict[str, Any]) -> None:
    out.write(json.dumps(message, ensure_ascii=False) + "\n")
    out.flush()


def load_model(config: dict[str, Any]) -> Any:
    """The model, loaded by the runtime the configuration names."""
    if config.get("runtime") == "xllamacpp":
        from moot.llm.local_xllamacpp import XllamacppModel

        return XllamacppModel(config)
    return LlamaCppPythonModel(config)


def _serve(model: Any, requests: IO[str], out: IO[str]) -> None:
    for line in requests:
        if not line.strip():
            continue
        request: dict[str, Any] = {}
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "info":
                result = model.info()
            elif op == "generate":
                result = model.generate(request)
            elif op == "tokenize":
                result = model.tokenize(request)
            else:
                raise ValueError(f"unknown operation {request.get('op')!r}")
        except Exception as exc:  # one failed request must not end the worker
            _send(out, {"id": request.get("id"), "ok": False, "error": f"{exc}"})
            continue
        _send(out, {"id": request.get("id"), "ok": True, **result})


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    # The protocol keeps the real stdout; fd 1 now goes to stderr for native prints.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    config = json.loads(sys.stdin.readline() or "{}")
    started = time.perf_counter()
    try:
        model = load_model(config)
    except Exception as exc:
        _send(out, {"type": "error", "error": f"{type(exc).__name__}: {exc}"})
        return 1
    _send(
        out,
        {"type": "ready", "pid": os.getpid(), "load_seconds": time.perf_counter() - started},
    )
    _serve(model, sys.stdin, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
