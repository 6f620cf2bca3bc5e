"""The trees of the competitive format (public): the rehearsal tree grown before the
debate with the k-step minimax strength of its claims, the debate flow tree kept
during it with its legal moves, and retrieval of prepared material by similarity.
See docs/competitive.md."""

from moot.formats.competitive.trees.flow import (
    ACTIONS,
    Action,
    Candidate,
    FlowNode,
    FlowTree,
    IllegalMove,
    IllegalMovesError,
    Move,
)
from moot.formats.competitive.trees.rehearsal import (
    Expand,
    Located,
    RehearsalClaim,
    RehearsalNode,
    RehearsalTree,
    grow,
)
from moot.formats.competitive.trees.retrieval import (
    DEFAULT_THRESHOLD,
    LEXICAL_METHOD,
    Embedder,
    Match,
    Prepared,
    RehearsalIndex,
    Reply,
)
from moot.formats.competitive.trees.stages import SPEAKING_ORDER, STAGES, Stage, strength_steps
from moot.formats.competitive.trees.strength import DEFAULT_GAMMA, minimax_strength

__all__ = [
    "ACTIONS",
    "DEFAULT_GAMMA",
    "DEFAULT_THRESHOLD",
    "LEXICAL_METHOD",
    "SPEAKING_ORDER",
    "STAGES",
    "Action",
    "Candidate",
    "Embedder",
    "Expand",
    "FlowNode",
    "FlowTree",
    "IllegalMove",
    "IllegalMovesError",
    "Located",
    "Match",
    "Move",
    "Prepared",
    "RehearsalClaim",
    "RehearsalIndex",
    "RehearsalNode",
    "RehearsalTree",
    "Reply",
    "Stage",
    "grow",
    "minimax_strength",
    "strength_steps",
]
