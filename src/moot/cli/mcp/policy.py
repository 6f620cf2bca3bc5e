"""What an MCP client may ask of ``moot mcp``: the server's policy, set by its own
command line, and the checks that hold every tool call to it.

A client is another program (often a model) and gets less than a shell user: the
model specs it may name are the server's list (a spec can name a key's environment
variable, a base URL or a local file), its documents must lie inside the server's
``--sources`` folders (symbolic links resolved, so a link cannot lead out), no
format option may write files, and every run has a token budget no larger than the
server's cap. Everything else is checked by the same code as ``moot run``'s options,
with the same messages.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moot.errors import ConfigError
from moot.validation import check_number

DEFAULT_TOKEN_CAP = 500_000
"""The largest token budget of one MCP run when the server is not given ``--budget-cap``."""
DEFAULT_MODELS = ("local",)


@dataclass(frozen=True)
class Policy:
    """The server's configuration (``moot mcp`` options)."""

    models: tuple[str, ...] = DEFAULT_MODELS
    """The model specs a client may name; the first is the default."""
    roots: tuple[Path, ...] = ()
    """The folders (or files) a client's ``sources`` must lie in, resolved."""
    token_cap: int = DEFAULT_TOKEN_CAP
    """The largest token budget of a run; also a run's budget when none is asked."""
    cost_cap: float | None = None
    """The largest cost budget in US dollars, when the server sets one."""

    @classmethod
    def make(
        cls,
        models: Sequence[str],
        roots: Sequence[Path],
        token_cap: int,
        cost_cap: float | None,
    ) -> Policy:
        """The policy of the command line, checked as ``moot run`` checks its options."""
        check_number(token_cap, "--budget-cap", minimum=1, integer=True)
        if cost_cap is not None:
            check_number(cost_cap, "--cost-cap (US dollars)", above=0.0)
        from moot.llm.backend import resolve_backend

        for spec in models:
            resolve_backend(spec)  # a bad spec is refused now, not at a client's call
        resolved = []
        for root in roots:
            if not root.exists():
                raise ConfigError(f"--sources {root}: no such file or folder")
            resolved.append(root.resolve())
        return cls(
            models=tuple(models) or DEFAULT_MODELS,
            roots=tuple(resolved),
            token_cap=token_cap,
            cost_cap=cost_cap,
        )

    def model(self, spec: str | None) -> str:
        """The model spec a run uses: ``spec`` when the server allows it."""
        if spec is None:
            return self.models[0]
        if spec not in self.models:
            raise ConfigError(
                f"model {spec!r} is not one this server allows (moot mcp --model):"
                f" {', '.join(self.models)}"
            )
        return spec

    def budget(self, max_tokens: int | None, max_cost: float | None) -> dict[str, Any]:
        """A run's budgets: the ones asked (checked as ``--max-tokens`` and
        ``--max-cost`` are) within the server's caps; the token cap when none is asked."""
        if max_tokens is None:
            max_tokens = self.token_cap
        check_number(max_tokens, "--max-tokens", minimum=1, integer=True)
        if max_tokens > self.token_cap:
            raise ConfigError(
                f"--max-tokens {max_tokens} is over this server's cap of {self.token_cap}"
                " tokens (moot mcp --budget-cap)"
            )
        if max_cost is not None:
            check_number(max_cost, "--max-cost (US dollars)", above=0.0)
            if self.cost_cap is not None and max_cost > self.cost_cap:
                raise ConfigError(
                    f"--max-cost {max_cost:g} is over this server's cap of"
                    f" {self.cost_cap:g} US dollars (moot mcp --cost-cap)"
                )
        elif self.cost_cap is not None:
            max_cost = self.cost_cap
        return {"max_tokens": max_tokens, "max_cost": max_cost}

    def resumed_budget(self, stored: Mapping[str, Any], max_tokens: int | None) -> dict[str, Any]:
        """The budgets of a resumed run: a new one asked, else the stored one, within
        the caps (a run started by ``moot run`` without a budget gets the cap)."""
        tokens = max_tokens if max_tokens is not None else stored.get("max_tokens")
        if max_tokens is None and (tokens is None or tokens > self.token_cap):
            tokens = self.token_cap
        cost = stored.get("max_cost")
        if cost is not None and self.cost_cap is not None and cost > self.cost_cap:
            cost = self.cost_cap
        return self.budget(tokens, cost)

    def inside(self, path: Path) -> bool:
        """Whether ``path`` (resolved) is one of the roots or lies under one."""
        return any(path == root or path.is_relative_to(root) for root in self.roots)

    def sources(self, given: Sequence[str]) -> tuple[str, ...]:
        """The documents a client names, each inside a root: a relative path is read
        under the roots (the first that holds it). A folder is walked as the reader
        walks it, and a file linked from inside to outside is refused."""
        if given and not self.roots:
            raise ConfigError(
                "--sources: this server allows no documents (start it with moot mcp --sources)"
            )
        chosen = []
        for text in given:
            path = self._locate(text)
            if path is None or not self._contained(path):
                raise ConfigError(
                    f"--sources {text}: not inside the documents this server allows"
                    " (moot mcp --sources)"
                )
            chosen.append(str(path))
        return tuple(chosen)

    def _locate(self, text: str) -> Path | None:
        if "\x00" in text:
            return None
        given = Path(text)
        if given.is_absolute():
            return Path(os.path.realpath(given))
        for root in self.roots:
            base = root if root.is_dir() else root.parent
            candidate = Path(os.path.realpath(base / given))
            if candidate.exists():
                return candidate
        return None

    def _contained(self, path: Path) -> bool:
        if not self.inside(path):
            return False
        if not path.is_dir():
            return True
        for directory, _dirs, files in os.walk(path):
            for name in files:
                if not self.inside(Path(os.path.realpath(Path(directory, name)))):
                    return False
        return True

    def format_options(self, options: Mapping[str, Any], outputs: Sequence[str]) -> None:
        """Refuse a format option that writes files (``outputs``: their keys), and one
        whose text names something on disk outside the roots (a knowledge base, an
        analysts file): a client reads no file the server does not allow."""
        for key, value in options.items():
            if key in outputs:
                raise ConfigError(f"format option {key} writes files; it cannot be set over MCP")
            for text in _texts(value):
                if "\x00" in text or not os.path.lexists(text):
                    continue
                if not self.inside(Path(os.path.realpath(text))):
                    raise ConfigError(
                        f"format option {key}: {text} is not inside the documents this server"
                        " allows (moot mcp --sources)"
                    )


def _texts(value: Any) -> list[str]:
    """Every string in ``value`` (nested in lists and mappings)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [t for item in value.values() for t in _texts(item)]
    if isinstance(value, list | tuple):
        return [t for item in value for t in _texts(item)]
    return []
