"""The offline demo model with a hook that may change a reply: a test spoils one
citation's quote and watches it sent back."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from moot.llm.scripted import DemoBackend, ScriptedBackend
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec

Spoil = Callable[[CallContext, dict[str, Any], Sequence[Message]], None]
"""Changes a reply's JSON in place (or leaves it as it is), knowing the prompt."""


def spoiling(spoil: Spoil, seed: int = 3) -> ScriptedBackend:
    """The demo at ``seed``, each reply passed through ``spoil`` first; the backend
    records every call."""
    demo = DemoBackend(seed=seed)

    def answer(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> str:
        assert context is not None
        reply = demo.reply(context, messages, seed=seed)
        data = json.loads(reply if isinstance(reply, str) else reply.model_dump_json())
        spoil(context, data, messages)
        return json.dumps(data)

    return ScriptedBackend(answer)
