"""Growing the rehearsal trees of a competitive debate, before it starts.

Each debater who uses the rehearsal tree prepares with its own model: candidate
claims for both sides (one call per side, rated for support), then the rebuttals
they invite, grown top-down with ``moot.formats.competitive.trees.grow`` (one wave
of concurrent calls per level, each call writing and rating ``branching`` rebuttals
of one node). Every rating is asked at temperature 0. Sides that use the same model share one tree;
when the sides use different models, their trees are grown one after the other.

A grown tree is kept in the run store's response cache (``Debate.keep``) under its
topic, language, model, profile, size and prompt templates, so a rerun on the same
motion with the same model reads it instead of growing it again (no calls). Without a
store, or under ``--no-cache``, it is grown every time; ``moot cache clear`` forgets
it. The individual temperature-0 calls are cached too (by default), so a growth
that was interrupted resumes from the cache.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources

from moot.formats.base import Debate
from moot.formats.competitive.options import CompetitiveOptions
from moot.formats.competitive.replies import (
    Answer,
    RehearsalAnswersReply,
    RehearsalClaimsReply,
    RehearsalRebuttalsReply,
    claims_spec,
    rebuttals_spec,
)
from moot.formats.competitive.trees import RehearsalClaim, RehearsalNode, RehearsalTree, grow
from moot.formats.competitive.trees.sides import SIDES, Side
from moot.llm.types import Message
from moot.sources.library import Passage
from moot.sources.retrieval import select

CACHE_VERSION = "rehearsal-tree/1"
TEMPLATES = ("rehearsal_system", "rehearsal_claims", "rehearsal_expand")
RATING_TEMPERATURE = 0.0


@dataclass(frozen=True)
class ClaimsCall:
    """The ``data`` of a call for a side's candidate claims."""

    side: Side
    count: int


@dataclass(frozen=True)
class ExpandCall:
    """The ``data`` of a call for the rebuttals of the last node of ``line``."""

    line: tuple[str, ...]
    """The claims from the candidate claim down to the node answered."""
    claim_side: Side
    side: Side
    """The side the rebuttals argue for."""
    level: int
    count: int


@dataclass
class Preparation:
    """One rehearsal tree being prepared: the sides that use it and the role whose
    model grows it; ``tree`` is set once it is read or grown."""

    sides: list[Side]
    role: str
    model: str
    key: str
    tree: RehearsalTree | None = None
    from_cache: bool = False
    calls: int = 0
    waves: int = 0
    claims: dict[Side, list[RehearsalClaim]] = field(default_factory=dict)


def _templates_digest(lang: str) -> str:
    root = resources.files("moot.formats.competitive") / "prompts" / lang
    digest = hashlib.sha256()
    for name in TEMPLATES:
        digest.update((root / f"{name}.j2").read_bytes())
    return digest.hexdigest()


class Rehearsal:
    """The rehearsal trees of one debate run."""

    def __init__(self, debate: Debate, options: CompetitiveOptions, users: Sequence[Side]) -> None:
        self.debate = debate
        self.options = options
        self.preparations: list[Preparation] = []
        by_model: dict[str, Preparation] = {}
        for side in users:
            backend = debate.backend_for(side)
            profile = debate.profile_for(side)
            if backend.spec in by_model:
                by_model[backend.spec].sides.append(side)
                continue
            key = json.dumps(
                [
                    CACHE_VERSION,
                    backend.spec,
                    profile.name,
                    debate.topic,
                    debate.lang,
                    options.claims,
                    options.branching,
                    options.depth,
                    _templates_digest(debate.lang),
                    # a tree prepared from documents is kept under their hashes
                    [d.sha256 for d in debate.sources.documents] if debate.sources else [],
                ],
                ensure_ascii=False,
            )
            preparation = Preparation([side], side, backend.spec, key)
            by_model[backend.spec] = preparation
            self.preparations.append(preparation)

    def tree_for(self, side: Side) -> RehearsalTree | None:
        """The tree ``side`` prepared with, if it uses one."""
        for preparation in self.preparations:
            if side in preparation.sides:
                return preparation.tree
        return None

    def read_cached(self) -> None:
        """Take every tree the store's cache already holds."""
        for preparation in self.preparations:
            kept = self.debate.recall(preparation.key)
            if kept is None:
                continue
            try:
                preparation.tree = RehearsalTree.model_validate(kept.get("tree"))
            except ValueError:
                continue  # damaged or from another version: grown again
            preparation.from_cache = True

    def _messages(self, prompt: str, **values: object) -> list[Message]:
        debate = self.debate
        common = {"topic": debate.topic}
        return [
            Message("system", debate.render("rehearsal_system", **common)),
            Message("user", debate.render(prompt, **common, **values)),
        ]

    def _passages(self, side: Side) -> tuple[Passage, ...]:
        """The passages of the documents most relevant to ``side``'s case, within the
        format's budget (none without ``--sources``)."""
        debate = self.debate
        budget = debate.format.source_tokens
        if debate.sources is None or budget is None:
            return ()
        stance = debate.render("rehearsal_stance", side=side, topic=debate.topic)
        return tuple(select(debate.sources, [stance], budget))

    async def _claims(self, preparation: Preparation, side: Side) -> None:
        debate, count = self.debate, self.options.claims
        passages = self._passages(side)
        reply, _ = await debate.ask(
            preparation.role,
            "rehearsal",
            self._messages("rehearsal_claims", side=side, count=count, passages=passages),
            RehearsalClaimsReply,
            claims_spec(debate.profile_for(preparation.role), debate.lang, count),
            data=ClaimsCall(side, count),
            temperature=RATING_TEMPERATURE,
        )
        preparation.calls += 1
        preparation.claims[side] = [
            RehearsalClaim(side=side, root=RehearsalNode(claim=c.claim, support=float(c.support)))
            for c in reply.claims
        ]

    def claim_calls(self) -> list[Awaitable[None]]:
        """The first wave's calls: each tree still to grow, each side's claims."""
        return [
            self._claims(preparation, side)
            for preparation in self.preparations
            if preparation.tree is None
            for side in SIDES
        ]

    def _expand(
        self, preparation: Preparation
    ) -> Callable[[Sequence[RehearsalNode], Side], Awaitable[list[RehearsalNode]]]:
        debate, count = self.debate, self.options.branching

        async def expand(line: Sequence[RehearsalNode], side: Side) -> list[RehearsalNode]:
            level = len(line)
            claim_side: Side = side if level % 2 == 0 else ("con" if side == "pro" else "pro")
            texts = tuple(node.claim for node in line)
            reply_type: type[RehearsalRebuttalsReply | RehearsalAnswersReply] = (
                RehearsalRebuttalsReply if level == 1 else RehearsalAnswersReply
            )
            reply, _ = await debate.ask(
                preparation.role,
                f"rehearsal_{level}",
                self._messages(
                    "rehearsal_expand",
                    line=texts,
                    claim_side=claim_side,
                    side=side,
                    level=level,
                    count=count,
                ),
                reply_type,
                rebuttals_spec(debate.profile_for(preparation.role), debate.lang, level, count),
                data=ExpandCall(texts, claim_side, side, level, count),
                temperature=RATING_TEMPERATURE,
            )
            preparation.calls += 1
            return [
                RehearsalNode(
                    claim=r.claim,
                    attack=float(r.attack),
                    support=float(r.support) if isinstance(r, Answer) else None,
                )
                for r in reply.rebuttals
            ]

        return expand

    async def grow(self) -> None:
        """Grow every tree not read from the cache (level by level, one wave each) and
        keep it in the cache."""
        debate = self.debate
        for preparation in self.preparations:
            if preparation.tree is not None:
                continue
            claims = [c for side in SIDES for c in preparation.claims[side]]
            preparation.waves = 1

            async def level_wave(
                level: int,
                calls: list[Awaitable[list[RehearsalNode]]],
                preparation: Preparation = preparation,
            ) -> list[list[RehearsalNode]]:
                preparation.waves += 1
                return await debate.wave(f"rehearsal_{level}", calls)

            preparation.tree = await grow(
                debate.topic,
                debate.lang,
                claims,
                self._expand(preparation),
                depth=self.options.depth,
                branching=self.options.branching,
                wave=level_wave,
            )
            debate.keep(
                preparation.key,
                preparation.model,
                {"tree": preparation.tree.model_dump(mode="json")},
            )
