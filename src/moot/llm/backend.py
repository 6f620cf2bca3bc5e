"""The one model interface, and model specs resolved to backends by name.

A model spec is ``provider[:rest]``:

* ``local`` or ``local:/path/to/model.gguf`` - in-process llama.cpp (default)
* ``openai:MODEL`` or ``openai:MODEL@BASE_URL`` - any OpenAI-compatible endpoint;
  ``#KEY_ENV`` at the end names the environment variable that holds its key
* ``scripted:demo`` (optionally ``?latency_ms=200``) - deterministic offline demo

Providers are imported lazily so that a missing optional dependency only matters
when its provider is used, and then raises a ``ConfigError`` naming the install.

Every provider is given the run's ``seed`` and ``timeout`` (seconds one request may
take; ``None`` for the provider's default). A spec holding a control character or a
line break is refused: it can only be a paste gone wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from moot.errors import ConfigError
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.safe_text import has_control

DEFAULT_SPEC = "local"


@runtime_checkable
class Backend(Protocol):
    """A model that answers chat messages, optionally constrained to a JSON schema."""

    @property
    def spec(self) -> str:
        """The model spec this backend was made from (safe to show and store)."""
        ...

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        """Answer ``messages``; when ``schema`` is given, reply with JSON for it."""
        ...


def _make_local(rest: str, seed: int | None, timeout: float | None) -> Backend:
    from moot.llm.local import LocalBackend

    return LocalBackend(model_path=rest or None, seed=seed, timeout=timeout)


def _make_openai(rest: str, seed: int | None, timeout: float | None) -> Backend:
    from moot.llm.openai import DEFAULT_TIMEOUT, OpenAIBackend

    if not rest:
        raise ConfigError("openai spec needs a model name: openai:MODEL or openai:MODEL@BASE_URL")
    model, at, base_url = rest.partition("@")
    if at:
        base_url, _, key_env = base_url.partition("#")
        if not base_url:
            raise ConfigError(f"no base URL after '@' in 'openai:{rest}'")
    else:
        model, _, key_env = model.partition("#")
    return OpenAIBackend(
        model=model,
        base_url=base_url or None,
        key_env=key_env or None,
        timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
    )


def _make_scripted(rest: str, seed: int | None, timeout: float | None) -> Backend:
    from moot.llm.scripted import DemoBackend

    return DemoBackend.from_spec(rest, seed=seed, timeout=timeout)


ProviderFactory = Callable[[str, int | None, float | None], Backend]
"""Builds a backend from the part of a spec after ``provider:``, the run's seed and
the timeout of one request in seconds (``None``: the backend's default)."""

_PROVIDERS: dict[str, ProviderFactory] = {
    "local": _make_local,
    "openai": _make_openai,
    "scripted": _make_scripted,
}


def register_provider(name: str, factory: ProviderFactory) -> ProviderFactory | None:
    """Make ``name:...`` model specs resolve through ``factory``, replacing any provider
    of that name; returns the factory it replaced (None for a new name), so a caller
    can put it back. Import optional dependencies inside ``factory``, so that a
    missing one only matters when the provider is used."""
    if not name or ":" in name:
        raise ConfigError(f"a provider name is a word without ':', not {name!r}")
    previous = _PROVIDERS.get(name)
    _PROVIDERS[name] = factory
    return previous


def unregister_provider(name: str) -> None:
    """Forget the provider ``name`` (``ConfigError`` if there is none)."""
    if _PROVIDERS.pop(name, None) is None:
        raise ConfigError(f"no model provider {name!r} to unregister")


def providers() -> tuple[str, ...]:
    """The provider names model specs can use."""
    return tuple(sorted(_PROVIDERS))


def resolve_backend(spec: str, *, seed: int | None = None, timeout: float | None = None) -> Backend:
    """Build the backend a model spec names. Raises ``ConfigError`` for a bad spec."""
    spec = spec.strip()
    if not spec:
        raise ConfigError("empty model spec")
    if has_control(spec):
        raise ConfigError(f"model spec {spec!r} holds a control character or a line break")
    provider, _, rest = spec.partition(":")
    factory = _PROVIDERS.get(provider)
    if factory is None:
        known = ", ".join(providers())
        raise ConfigError(f"unknown model provider {provider!r} in {spec!r}; known: {known}")
    return factory(rest, seed, timeout)
