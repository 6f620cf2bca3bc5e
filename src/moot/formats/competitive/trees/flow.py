"""The debate flow tree: the notes a debater keeps during the debate.

Every speech is parsed into moves, (action, claim, argument, target) tuples, which
update the tree. A node records a claim, the side that argues it, its arguments, its
status (``proposed``, or ``attacked`` once answered) and how often it was visited.
Claims proposed in the openings hang under the root (the motion); every other node
answers its parent, so sides alternate down each line of argument.

The legal moves for side S:

- ``propose`` a new claim: only in the opening, with no target;
- ``attack`` a node of the other side in the other side's line of argument (under a
  claim the other side proposed);
- ``rebut`` the other side's newest attack on S: a node of the other side under a
  claim S proposed that nothing answered when the speech began (the newest point of
  its line; one speech may answer it more than once), or, with
  ``rebut_rule="latest"``, only the single newest such node;
- ``reinforce`` a node of S's own.

An illegal move is refused with a reason in the debate's language, for the engine
to ask again; a speech with any illegal move changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from moot.formats.competitive.trees.messages import STAGE_NAMES, message
from moot.formats.competitive.trees.sides import SIDES, Side, other_side
from moot.formats.competitive.trees.stages import Stage
from moot.schema import Lang

Action = Literal["propose", "attack", "rebut", "reinforce"]
ACTIONS: Final[tuple[Action, ...]] = ("propose", "attack", "rebut", "reinforce")
Status = Literal["proposed", "attacked"]
RebutRule = Literal["leaf", "latest"]


class Move(BaseModel):
    """One (action, claim, argument, target) tuple parsed from a speech."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Action
    claim: str
    argument: str = ""
    target: str | None = None
    """The id of the node the move answers or reinforces; None for ``propose``."""


class FlowNode(BaseModel):
    """A claim in the flow of the debate."""

    model_config = ConfigDict(extra="forbid")

    id: str
    side: Side
    claim: str
    arguments: list[str] = Field(default_factory=list)
    status: Status = "proposed"
    visits: int = Field(default=1, ge=1)
    """Moves that touched the node: the one that made it and each that targeted it."""
    parent: str | None = None
    speech: int = Field(ge=0)
    """The index of the speech that made it (0 for the first speech)."""


@dataclass(frozen=True)
class IllegalMove:
    """A refused move: its index in the speech, a stable code and the reason to give
    the speaker when asking again."""

    index: int
    move: Move
    code: str
    reason: str


class IllegalMovesError(ValueError):
    """A speech had illegal moves; the tree is unchanged."""

    def __init__(self, problems: list[IllegalMove]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"move {p.index + 1}: {p.reason}" for p in problems))


@dataclass(frozen=True)
class Candidate:
    """A move a side may make now (the target is None for ``propose``)."""

    action: Action
    target: str | None


class FlowTree(BaseModel):
    """The flow tree of one debate; nodes in the order they were made."""

    model_config = ConfigDict(extra="forbid")

    lang: Lang
    rebut_rule: RebutRule = "leaf"
    nodes: list[FlowNode] = Field(default_factory=list)
    speeches: int = Field(default=0, ge=0)

    # -- reading ---------------------------------------------------------------

    def node(self, node_id: str) -> FlowNode:
        """The node with this id (KeyError if there is none)."""
        for node in self.nodes:
            if node.id == node_id:
                return node
        raise KeyError(node_id)

    def children(self, node_id: str | None) -> list[FlowNode]:
        """The nodes that answer ``node_id`` (the proposed claims for None), oldest first."""
        return [node for node in self.nodes if node.parent == node_id]

    def line_owner(self, node: FlowNode) -> Side:
        """The side whose proposed claim heads the node's line of argument."""
        while node.parent is not None:
            node = self.node(node.parent)
        return node.side

    def attacks_on(self, side: Side) -> list[FlowNode]:
        """The other side's nodes under ``side``'s claims, oldest first."""
        return [n for n in self.nodes if n.side != side and self.line_owner(n) == side]

    def rebuttable(self, side: Side) -> list[FlowNode]:
        """The attacks on ``side`` that it may rebut now (see the rebut rule)."""
        attacks = self.attacks_on(side)
        if self.rebut_rule == "latest":
            return attacks[-1:]
        answered = {n.parent for n in self.nodes}
        return [n for n in attacks if n.id not in answered]

    def candidates(self, side: Side, stage: Stage) -> list[Candidate]:
        """Every legal move for ``side`` in ``stage``, by action then node order."""
        moves = [Candidate("propose", None)] if stage == "opening" else []
        other = other_side(side)
        moves += [
            Candidate("attack", n.id)
            for n in self.nodes
            if n.side == other and self.line_owner(n) == other
        ]
        moves += [Candidate("rebut", n.id) for n in self.rebuttable(side)]
        moves += [Candidate("reinforce", n.id) for n in self.nodes if n.side == side]
        return moves

    # -- checking and applying ---------------------------------------------------

    def _problem(
        self, side: Side, stage: Stage, move: Move, allowed: list[FlowNode]
    ) -> tuple[str, dict[str, object]] | None:
        """Why ``move`` is illegal for ``side`` now (a message key and its values), or
        None. ``allowed``: the attacks ``side`` may rebut in this speech."""
        if not move.claim.strip():
            return "illegal.empty_claim", {"action": move.action}
        if move.action == "propose":
            if stage != "opening":
                return "illegal.propose_stage", {"stage": STAGE_NAMES[self.lang][stage]}
            if move.target is not None:
                return "illegal.propose_target", {"target": move.target}
            return None
        if move.target is None:
            return "illegal.no_target", {"action": move.action}
        try:
            target = self.node(move.target)
        except KeyError:
            known = ", ".join(n.id for n in self.nodes) or message(self.lang, "flow.empty")
            return "illegal.unknown_target", {
                "action": move.action,
                "target": move.target,
                "known": known,
            }
        mine = target.side == side
        in_my_line = self.line_owner(target) == side
        values: dict[str, object] = {"target": target.id}
        if move.action == "reinforce":
            return None if mine else ("illegal.reinforce_other", values)
        if move.action == "attack":
            if mine:
                return "illegal.attack_own", values
            return ("illegal.attack_on_you", values) if in_my_line else None
        # rebut
        if mine:
            return "illegal.rebut_own", values
        if not in_my_line:
            return "illegal.rebut_not_attack", values
        if target.id in {n.id for n in allowed}:
            return None
        newest = (
            message(self.lang, "illegal.rebut_newest_is", newest=", ".join(n.id for n in allowed))
            if allowed
            else ""
        )
        return "illegal.rebut_not_newest", {**values, "newest": newest}

    def _next_id(self, side: Side) -> str:
        count = sum(1 for n in self.nodes if n.side == side)
        return f"{side.upper()}-{count + 1}"

    def _apply_one(self, side: Side, move: Move) -> str:
        """Apply a move ``_problem`` accepted (so its target exists)."""
        argument = move.argument.strip()
        if move.action == "reinforce":
            target = self.node(str(move.target))
            target.visits += 1
            target.arguments.append(argument or move.claim.strip())
            return target.id
        parent = None
        if move.action in ("attack", "rebut"):
            target = self.node(str(move.target))
            target.status = "attacked"
            target.visits += 1
            parent = target.id
        node = FlowNode(
            id=self._next_id(side),
            side=side,
            claim=move.claim.strip(),
            arguments=[argument] if argument else [],
            parent=parent,
            speech=self.speeches,
        )
        self.nodes.append(node)
        return node.id

    def _run(
        self, side: Side, stage: Stage, moves: list[Move]
    ) -> tuple[FlowTree, list[str], list[IllegalMove]]:
        if side not in SIDES:
            raise ValueError(f"side must be one of {', '.join(SIDES)}, got {side!r}")
        draft = self.model_copy(deep=True)
        # the attacks to rebut are those standing when the speech begins: two answers
        # to one attack in a speech are both rebuttals, so every sequence of the
        # moves ``candidates`` offers is legal (a schema enum of them can be trusted)
        allowed = self.rebuttable(side)
        touched: list[str] = []
        problems: list[IllegalMove] = []
        for index, move in enumerate(moves):
            problem = draft._problem(side, stage, move, allowed)
            if problem is None:
                touched.append(draft._apply_one(side, move))
            else:
                key, values = problem
                reason = message(self.lang, key, **values)
                problems.append(IllegalMove(index=index, move=move, code=key, reason=reason))
        draft.speeches += 1
        return draft, touched, problems

    def check(self, side: Side, stage: Stage, moves: list[Move]) -> list[IllegalMove]:
        """The illegal moves of a speech, in order; the tree does not change. Moves are
        checked in order, each against the tree as the earlier legal ones left it."""
        return self._run(side, stage, moves)[2]

    def apply(self, side: Side, stage: Stage, moves: list[Move]) -> list[str]:
        """Apply one speech's moves and return the id each move made or reinforced.
        Raises IllegalMovesError (listing every illegal move) and changes nothing when
        any move is illegal."""
        draft, touched, problems = self._run(side, stage, moves)
        if problems:
            raise IllegalMovesError(problems)
        self.nodes = draft.nodes
        self.speeches = draft.speeches
        return touched

    # -- rendering ----------------------------------------------------------------

    def _lines(self, arguments: bool) -> list[tuple[int, bool, str]]:
        """(depth, is an argument, text) in reading order."""
        lines: list[tuple[int, bool, str]] = []
        stack = [(0, n) for n in reversed(self.children(None))]
        while stack:
            depth, node = stack.pop()
            status = message(self.lang, f"flow.{node.status}")
            visits = f"{message(self.lang, 'flow.visits')} {node.visits}"
            side = message(self.lang, f"side.{node.side}")
            lines.append((depth, False, f"{node.id} [{side}, {status}, {visits}] {node.claim}"))
            if arguments:
                lines.extend((depth, True, f"· {argument}") for argument in node.arguments)
            stack.extend((depth + 1, child) for child in reversed(self.children(node.id)))
        return lines

    def rows(self, arguments: bool = False) -> list[tuple[int, str]]:
        """The tree as (depth, text) rows in reading order, for the briefing: each
        node's id, side, status, visits and claim (and, when asked, each of its
        arguments as a row one level below it)."""
        return [(depth + argument, text) for depth, argument, text in self._lines(arguments)]

    def render(self, arguments: bool = False) -> str:
        """The tree as indented text for the prompts: each node's id, side, status,
        visits and claim (and its arguments, four spaces in, when asked)."""
        if not self.nodes:
            return message(self.lang, "flow.empty")
        return "\n".join(
            "  " * depth + ("    " if argument else "") + text
            for depth, argument, text in self._lines(arguments)
        )
