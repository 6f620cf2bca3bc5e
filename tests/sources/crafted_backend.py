"""A model that plays the scripted demo but cites what a test crafted.

Every call is answered by ``scripted:demo``; a debater's reply that cites documents
(a structured opening's ``evidence`` items, a market opening's ``citations``) gets
the test's crafted arguments instead. The passage a crafted citation names is found
by its words in the prompt the debater was given (the nearest passage id before
them), never from moot's reader, so the test does not know passage numbers in
advance. Registered as a model provider (``crafted:NAME``), so the same crafted
debate runs through ``moot run`` and ``run_debate``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from moot.llm.backend import Backend, ProviderFactory
from moot.llm.scripted import DemoBackend, ScriptedBackend
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec

PASSAGE_ID = re.compile(r"S\d+:p\d+")


@dataclass(frozen=True)
class Crafted:
    """One crafted citation: which passage (by words it holds), the quote, the claim
    it is cited for, and the status the docs say it must get."""

    kind: str
    locator: str
    quote: str
    claim: str
    expected: str
    data_point: str = ""


@dataclass(frozen=True)
class MarketCrafted:
    """One crafted market argument: its claim and evidence, and the status the KB
    check must give the number ``number`` in it (with the field it must name)."""

    kind: str
    claim: str
    evidence: str
    number: str
    expected: str
    field: str | None = None
    cite: str = ""
    """Words of a passage the argument cites with them as its quote ("" cites none)."""
    quote: str = ""
    """The quote, when it is not ``cite`` itself (an altered quote of that passage)."""


@dataclass(frozen=True)
class Turn:
    """What one reply holding citations says instead of the demo's: its citation
    items, and fields of the object that holds them (a challenge's ``new_evidence``)."""

    citations: list[Crafted]
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class Plan:
    """The crafted arguments of each side (``pro``/``con``, or a market analyst id)."""

    sides: dict[str, list[Crafted]] = field(default_factory=dict)
    market: dict[str, list[MarketCrafted]] = field(default_factory=dict)
    speeches: dict[str, list[Crafted]] = field(default_factory=dict)
    """Free-form: the evidence items every speech of a side cites (1-3)."""
    turns: dict[str, list[Turn]] = field(default_factory=dict)
    """Any format: ``"ROUND:AGENT"`` (the call's round, and its side or market analyst)
    to the turns of each citation list of that reply, in the order they occur (a market
    cross-examination's challenges, a competitive speech's evidence); the last repeats."""
    unlocated: list[str] = field(default_factory=list)


def passage_of(prompt: str, locator: str) -> str | None:
    """The id of the passage holding ``locator`` in a prompt: the last passage id
    written before the words."""
    at = prompt.find(locator)
    if at < 0:
        return None
    ids = PASSAGE_ID.findall(prompt[:at])
    return ids[-1] if ids else None


def _prompt(messages: Sequence[Message]) -> str:
    return "\n".join(m.content for m in messages)


REASONING = {
    "en": "Because the cited document states it, the claim holds, so the decision should weigh it.",
    "zh": "因为所引用的文件明确写了这一点，所以这个论点成立，进而应当影响迁移的决定。",
}


def _items(crafted: list[Crafted], prompt: str, plan: Plan) -> list[dict[str, str]]:
    items = []
    for case in crafted:
        passage = "none" if case.locator == "none" else passage_of(prompt, case.locator)
        if passage is None:
            plan.unlocated.append(case.locator)
        items.append(
            {"passage": passage or "none", "quote": case.quote, "data_point": case.data_point}
        )
    return items


def _structured(
    reply: dict[str, Any], crafted: list[Crafted], prompt: str, plan: Plan, lang: str
) -> None:
    arguments = []
    for case in crafted:
        passage = "none" if case.locator == "none" else passage_of(prompt, case.locator)
        if passage is None:
            plan.unlocated.append(case.locator)
            passage = "none"
        arguments.append(
            {
                "claim": case.claim,
                "reasoning": REASONING["zh" if lang.startswith("zh") else "en"],
                "evidence": [
                    {"passage": passage, "quote": case.quote, "data_point": case.data_point}
                ],
            }
        )
    reply["arguments"] = arguments


def _market(reply: dict[str, Any], crafted: list[MarketCrafted], prompt: str, plan: Plan) -> None:
    template = reply["arguments"][0]
    arguments = []
    for case in crafted:
        argument = dict(template)
        argument.update(claim=case.claim, evidence=case.evidence, counterpoints=["None known."])
        if "citations" in argument:
            passage = passage_of(prompt, case.cite) if case.cite else "none"
            if passage is None:
                plan.unlocated.append(case.cite)
            argument["citations"] = [
                {
                    "passage": passage or "none",
                    "quote": case.quote or case.cite or "reasoning only",
                    "data_point": "",
                }
            ]
        arguments.append(argument)
    reply["arguments"] = arguments


def _holders(value: Any) -> list[tuple[dict[str, Any], str]]:
    """Every object of a reply holding a list of citation items (``{"passage": ...}``)
    and that list's key, in document order, whatever the format calls the list."""
    found: list[tuple[dict[str, Any], str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if (
                isinstance(item, list)
                and item
                and all(isinstance(i, dict) and "passage" in i for i in item)
            ):
                found.append((value, key))
            else:
                found.extend(_holders(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_holders(item))
    return found


def _turns(reply: Any, turns: list[Turn], prompt: str, plan: Plan) -> bool:
    """Puts the crafted turns in place of every citation list of the reply."""
    holders = _holders(reply)
    for n, (holder, key) in enumerate(holders):
        turn = turns[min(n, len(turns) - 1)]
        holder[key] = _items(turn.citations, prompt, plan)
        holder.update(turn.fields)
    return bool(holders)


def _agent(context: CallContext) -> str:
    return context.role.rpartition(":")[2] if context.format == "market" else context.side or ""


Observer = Callable[[Sequence[Message], CallContext | None], None]
"""Called with every call's messages and context before it is answered (it may raise)."""


def crafted_backend(
    plan: Plan | None = None,
    seed: int = 1,
    observe: Observer | None = None,
    name: str = "crafted:plan",
) -> ScriptedBackend:
    """The demo backend with the plan's arguments in place of the demo's; ``name`` is
    its spec (what a stored run keeps, and resolves again on resume)."""
    demo = DemoBackend(seed=seed)

    async def answer(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> str:
        if observe is not None:
            observe(messages, context)
        completion = await demo.generate(
            messages, schema=schema, settings=settings, context=context
        )
        if plan is None or context is None:
            return completion.text
        reply = json.loads(completion.text)
        turns = plan.turns.get(f"{context.round}:{_agent(context)}")
        if turns and _turns(reply, turns, _prompt(messages), plan):
            return json.dumps(reply, ensure_ascii=False)
        speech = plan.speeches.get(context.side or "")
        if speech and isinstance(reply, dict) and isinstance(reply.get("evidence"), list):
            reply["evidence"] = _items(speech, _prompt(messages), plan)
            return json.dumps(reply, ensure_ascii=False)
        if context.round != "opening":
            return completion.text
        crafted = plan.sides.get(context.side or "")
        market = plan.market.get(context.role.rpartition(":")[2])
        if crafted and context.format == "structured":
            _structured(reply, crafted, _prompt(messages), plan, context.lang)
        elif market and context.format == "market":
            _market(reply, market, _prompt(messages), plan)
        return json.dumps(reply, ensure_ascii=False)

    return ScriptedBackend(answer, name=name)


def provider(plan: Plan) -> ProviderFactory:
    """A model provider (``crafted:...``) answering with ``plan``."""

    def factory(rest: str, seed: int | None, timeout: float | None) -> Backend:
        return crafted_backend(plan, seed or 1)

    return factory
