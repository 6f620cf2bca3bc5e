"""moot: structured multi-agent LLM debate with an auditable decision briefing.

The public API is re-exported here; everything else is private and may change.
"""

from moot.debate import arun_debate, run_debate
from moot.errors import BackendError, ConfigError, ModelOutputError, MootError
from moot.llm.backend import Backend, resolve_backend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec, Usage
from moot.options import RunOptions
from moot.report import to_json, to_markdown
from moot.schema import SCHEMA_VERSION, DebateResult

__version__ = "0.1.0"

__all__ = [
    "SCHEMA_VERSION",
    "Backend",
    "BackendError",
    "CallContext",
    "Completion",
    "ConfigError",
    "DebateResult",
    "GenerationSettings",
    "Message",
    "ModelOutputError",
    "MootError",
    "OutputSpec",
    "RunOptions",
    "Usage",
    "__version__",
    "arun_debate",
    "resolve_backend",
    "run_debate",
    "to_json",
    "to_markdown",
]
