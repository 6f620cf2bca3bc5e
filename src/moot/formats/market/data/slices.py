"""An agent's slice of the KB, and its compact serialisation for prompts.

A slice is a ``KnowledgeBase`` holding ``meta`` (date, source, warnings: every agent
must know the data is synthetic when it is) and the agent's modules; every other
module is empty. ``render_slice`` writes it as compact JSON with nothing empty in
it: this text is what an agent's prompt carries, once per call, instead of the whole
KB and the whole debate history.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from moot.errors import ConfigError
from moot.formats.market.data.analysts import Agent
from moot.formats.market.data.kb import MODULES, KnowledgeBase, kb_to_data


def slice_kb(kb: KnowledgeBase, modules: Iterable[str]) -> KnowledgeBase:
    """The KB restricted to ``modules`` (``meta`` always kept)."""
    keep = set(modules)
    unknown = keep - set(MODULES)
    if unknown:
        raise ConfigError(f"unknown KB module(s) {', '.join(sorted(unknown))}")
    return KnowledgeBase.model_validate(
        {"meta": kb.meta, **{m: getattr(kb, m) for m in MODULES if m in keep}}
    )


def agent_slice(kb: KnowledgeBase, agent: Agent) -> KnowledgeBase:
    """Exactly the part of the KB that ``agent`` may see."""
    return slice_kb(kb, agent.modules)


def render_slice(kb_slice: KnowledgeBase) -> str:
    """Compact JSON of a slice (or a whole KB) for a prompt: no indentation, no null
    field, no empty module, and ``meta`` without its format version."""
    data = kb_to_data(kb_slice)
    data["meta"].pop("kb_version", None)
    if not data["meta"].get("synthetic"):
        data["meta"].pop("synthetic", None)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
