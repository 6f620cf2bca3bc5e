"""moot: structured multi-agent LLM debate with an auditable decision briefing.

The public API is re-exported here; everything else is private and may change.

The names load on first use (PEP 562): ``import moot`` imports no submodule, so a
command or a caller that needs one part of moot does not pay for the rest, and the
model SDKs load only when a backend that uses them is resolved.
"""

import importlib
import typing

if typing.TYPE_CHECKING:
    from moot.debate import arun_debate, run_debate
    from moot.errors import (
        BackendError,
        BudgetExceeded,
        ConfigError,
        DataError,
        ModelOutputError,
        MootError,
        OutputError,
        SpeechError,
        SpeechUnavailable,
        StoreError,
        TranscriptError,
    )
    from moot.llm.backend import Backend, resolve_backend
    from moot.llm.retry import RetriesExhausted, RetryAfterTooLong, RetryError
    from moot.llm.types import (
        CallContext,
        Completion,
        GenerationSettings,
        Message,
        OutputSpec,
        Usage,
    )
    from moot.options import RunOptions
    from moot.report.json import to_json
    from moot.report.markdown import to_markdown
    from moot.schema import SCHEMA_VERSION, DebateResult

__version__ = "0.1.0"

#: Where each public name is defined: the module ``moot.__getattr__`` imports for it.
_SOURCES: dict[str, str] = {
    "SCHEMA_VERSION": "moot.schema",
    "Backend": "moot.llm.backend",
    "BackendError": "moot.errors",
    "BudgetExceeded": "moot.errors",
    "CallContext": "moot.llm.types",
    "Completion": "moot.llm.types",
    "ConfigError": "moot.errors",
    "DataError": "moot.errors",
    "DebateResult": "moot.schema",
    "GenerationSettings": "moot.llm.types",
    "Message": "moot.llm.types",
    "ModelOutputError": "moot.errors",
    "MootError": "moot.errors",
    "OutputError": "moot.errors",
    "OutputSpec": "moot.llm.types",
    "RetriesExhausted": "moot.llm.retry",
    "RetryAfterTooLong": "moot.llm.retry",
    "RetryError": "moot.llm.retry",
    "RunOptions": "moot.options",
    "SpeechError": "moot.errors",
    "SpeechUnavailable": "moot.errors",
    "StoreError": "moot.errors",
    "TranscriptError": "moot.errors",
    "Usage": "moot.llm.types",
    "arun_debate": "moot.debate",
    "resolve_backend": "moot.llm.backend",
    "run_debate": "moot.debate",
    "to_json": "moot.report.json",
    "to_markdown": "moot.report.markdown",
}

__all__ = [
    "SCHEMA_VERSION",
    "Backend",
    "BackendError",
    "BudgetExceeded",
    "CallContext",
    "Completion",
    "ConfigError",
    "DataError",
    "DebateResult",
    "GenerationSettings",
    "Message",
    "ModelOutputError",
    "MootError",
    "OutputError",
    "OutputSpec",
    "RetriesExhausted",
    "RetryAfterTooLong",
    "RetryError",
    "RunOptions",
    "SpeechError",
    "SpeechUnavailable",
    "StoreError",
    "TranscriptError",
    "Usage",
    "__version__",
    "arun_debate",
    "resolve_backend",
    "run_debate",
    "to_json",
    "to_markdown",
]


if not typing.TYPE_CHECKING:  # a type checker sees the imports above, and a typo stays an error

    def __getattr__(name: str) -> object:
        """Import the module that defines the public ``name`` and keep the value here."""
        source = _SOURCES.get(name)
        if source is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        globals()[name] = value  # the next lookup does not come back here
        return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
