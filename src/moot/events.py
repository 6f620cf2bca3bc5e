"""Progress events a debate emits while it runs (for the CLI's live display or a caller):
its own (a run stored, an option advised against, a round started) and the model
calls' (``moot.llm.events``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from moot.llm.events import (
    CallFinished,
    CallStarted,
    Reasked,
    Retrying,
    Validated,
    deliver,
)


@dataclass(frozen=True)
class RunStored:
    """A run was written to the store under ``debate_id``: from now on it can be resumed."""

    debate_id: str


@dataclass(frozen=True)
class OptionAdvice:
    """The run goes ahead with an option its format advises against (``message`` says
    which and why): announced before the first call, and kept in the result's
    warnings."""

    message: str


@dataclass(frozen=True)
class RoundStarted:
    """A round (``opening``, ``cross_examination``, ``closing``, ``judgement``) began."""

    round: str


@dataclass(frozen=True)
class SourcesIndexed:
    """Progress of reading the documents of ``--sources``: ``done`` of ``total`` read,
    ``indexed`` of them new to the index (the others were found by their hash)."""

    done: int
    total: int
    indexed: int


Event = (
    RunStored
    | SourcesIndexed
    | OptionAdvice
    | RoundStarted
    | CallStarted
    | CallFinished
    | Retrying
    | Reasked
    | Validated
)
Listener = Callable[[Event], None]


__all__ = [
    "CallFinished",
    "CallStarted",
    "Event",
    "Listener",
    "OptionAdvice",
    "Reasked",
    "Retrying",
    "RoundStarted",
    "RunStored",
    "SourcesIndexed",
    "Validated",
    "deliver",
]
