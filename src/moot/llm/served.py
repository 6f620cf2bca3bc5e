"""What an OpenAI-compatible server serves: the model's size, the context a request
may fill, the chat template.

llama.cpp's server (``llama-server``, xllamacpp's) says it at ``GET /props`` (the
context of a slot, the chat template) and ``GET /v1/models`` (``meta``: parameter
count, training context); Ollama at ``POST /api/show`` (``model_info``: parameter
count and context length; ``parameters``: a ``num_ctx`` it was given). Other servers
say none of it, and every field stays unknown. Nothing here is required: discovery
that fails leaves the backend exactly as it was.

What it is used for: a small model gets the compact profile by itself
(:data:`SMALL_MODEL_PARAMS`), and a prompt longer than the server's context is never
sent (:func:`fit_reply`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SMALL_MODEL_PARAMS = 2_000_000_000
"""Models with fewer parameters than this get the compact profile unless told
otherwise (SmolLM2-135M needs it: under the standard profile its judge ran past the
default timeout at every attempt behind llama-server)."""
MIN_REPLY_TOKENS = 32
"""A prompt that leaves less of the context than this for the reply is refused."""


@dataclass(frozen=True)
class ServedModel:
    """The facts a server gave about its model; ``None`` where it said nothing."""

    source: str
    """Where they came from: ``llama.cpp`` or ``ollama``."""
    n_params: int | None = None
    n_ctx: int | None = None
    """The context one request may fill (llama.cpp: a slot's context)."""
    n_ctx_train: int | None = None
    chat_template: str | None = None

    @property
    def small(self) -> bool:
        return self.n_params is not None and self.n_params < SMALL_MODEL_PARAMS

    def describe(self) -> str:
        size = f"{self.n_params / 1e6:,.0f}M parameters" if self.n_params else "size unknown"
        context = f"context {self.n_ctx} tokens" if self.n_ctx else "context unknown"
        return f"{size}, {context} ({self.source})"


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, float) and value > 0 and value.is_integer():
        return int(value)
    return None


def from_llama_cpp(props: Any, models: Any, model: str) -> ServedModel | None:
    """The facts in llama.cpp's ``/props`` and ``/v1/models`` answers (either may be
    ``None``); ``None`` when neither is llama.cpp's."""
    n_ctx = template = None
    if isinstance(props, dict):
        settings = props.get("default_generation_settings")
        if isinstance(settings, dict):
            n_ctx = _int(settings.get("n_ctx"))
        n_ctx = n_ctx or _int(props.get("n_ctx"))
        raw_template = props.get("chat_template")
        template = raw_template if isinstance(raw_template, str) and raw_template else None
    meta: dict[str, Any] = {}
    data = models.get("data") if isinstance(models, dict) else None
    if isinstance(data, list):
        entries = [d for d in data if isinstance(d, dict)]
        chosen = next((d for d in entries if d.get("id") == model), entries[0] if entries else {})
        if isinstance(chosen.get("meta"), dict):
            meta = chosen["meta"]
    if n_ctx is None and template is None and not meta:
        return None
    return ServedModel(
        source="llama.cpp",
        n_params=_int(meta.get("n_params")),
        n_ctx=n_ctx,
        n_ctx_train=_int(meta.get("n_ctx_train")),
        chat_template=template,
    )


def from_ollama(show: Any) -> ServedModel | None:
    """The facts in Ollama's ``/api/show`` answer; ``None`` when it is not one."""
    if not isinstance(show, dict) or not isinstance(show.get("model_info"), dict):
        return None
    info: dict[str, Any] = show["model_info"]
    arch = info.get("general.architecture")
    trained = _int(info.get(f"{arch}.context_length")) if isinstance(arch, str) else None
    n_ctx = None
    parameters = show.get("parameters")
    if isinstance(parameters, str):
        found = re.search(r"^\s*num_ctx\s+(\d+)\s*$", parameters, re.MULTILINE)
        n_ctx = int(found.group(1)) if found else None
    template = show.get("template")
    return ServedModel(
        source="ollama",
        n_params=_int(info.get("general.parameter_count")),
        n_ctx=n_ctx,
        n_ctx_train=trained,
        chat_template=template if isinstance(template, str) and template else None,
    )


TEMPLATE_ALLOWANCE = 256
"""Tokens allowed for a chat template's own text (role markers, a default system
prompt: SmolLM2's adds about 30)."""


def surely_fits(contents: Sequence[str], max_tokens: int, n_ctx: int) -> bool:
    """Whether a prompt of these message ``contents`` and a reply of ``max_tokens``
    fit a context of ``n_ctx`` without counting: a token covers at least one byte of
    UTF-8, so the bytes bound the prompt's tokens (plus the template's allowance)."""
    size = sum(len(text.encode("utf-8")) for text in contents)
    return size + TEMPLATE_ALLOWANCE * max(1, len(contents)) // 2 + max_tokens <= n_ctx


def fit_reply(prompt_tokens: int, max_tokens: int, n_ctx: int) -> int:
    """The ``max_tokens`` a request may ask for when its prompt takes ``prompt_tokens``
    of a context of ``n_ctx``: as asked if both fit, else trimmed to what is left.
    Raises ``ValueError`` when the prompt leaves less than :data:`MIN_REPLY_TOKENS`."""
    room = n_ctx - prompt_tokens
    if room < MIN_REPLY_TOKENS:
        raise ValueError(
            f"the prompt takes {prompt_tokens} tokens of the server's context of {n_ctx},"
            f" leaving {max(room, 0)} for the reply (at least {MIN_REPLY_TOKENS} needed)"
        )
    return min(max_tokens, room)


AUTO_COMPACT = {
    "en": "{spec} serves a small model ({facts}): the compact profile is used for it"
    " (--profile standard to override)",
    "zh": "{spec} 提供的是小模型（{facts}）：对它使用 compact 配置（用 --profile standard 覆盖）",
}


async def discover_small_models(
    backends: Mapping[str, Any], override: str | None, lang: str
) -> tuple[set[str], list[str]]:
    """The roles whose server serves a small model, and one note per such model (for
    stderr and the result's warnings). Asked only when no profile was given, of the
    backends that can say (``discover()``: the OpenAI-compatible one)."""
    if override is not None:
        return set(), []
    small: set[str] = set()
    notes: dict[str, str] = {}
    for role, backend in backends.items():
        discover = getattr(backend, "discover", None)
        if discover is None:
            continue
        served = await discover()
        if isinstance(served, ServedModel) and served.small:
            small.add(role)
            template = AUTO_COMPACT.get(lang, AUTO_COMPACT["en"])
            notes.setdefault(
                backend.spec, template.format(spec=backend.spec, facts=served.describe())
            )
    return small, list(notes.values())
