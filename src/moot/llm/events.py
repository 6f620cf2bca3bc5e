"""The events of model calls, as the meter reports them (``moot.events`` adds the
debate's own events: a run stored, a round started, an option advised against)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from moot.llm.types import CallContext, Usage


@dataclass(frozen=True)
class CallStarted:
    """A model call was sent."""

    call_id: int
    context: CallContext
    model: str


@dataclass(frozen=True)
class CallFinished:
    """A model call came back (``error`` is set when the transport failed)."""

    call_id: int
    context: CallContext
    model: str
    usage: Usage
    seconds: float
    error: str | None = None
    source: str = "live"
    """``live`` (the model answered), ``cache`` or ``journal`` (replayed on resume)."""
    timings: dict[str, float] | None = None
    """Where the call's time went, when the backend tells (``Completion.timings``)."""
    sent: bool = True
    """``False`` when the call was refused before it was sent (the budget): not a call."""


@dataclass(frozen=True)
class Retrying:
    """A request of call ``call_id`` failed for a reason worth retrying (``reason``);
    it is sent again after ``delay`` seconds (attempt ``attempt`` was the one that
    failed)."""

    call_id: int
    context: CallContext
    attempt: int
    reason: str
    delay: float


@dataclass(frozen=True)
class Reasked:
    """A reply failed validation and the model was asked again."""

    context: CallContext
    attempt: int
    problems: tuple[str, ...]
    codes: tuple[str, ...] = ()
    """Each problem's code: ``schema`` for hard problems, else the rule's code."""


@dataclass(frozen=True)
class Validated:
    """A reply was validated: the codes of its problems (none: accepted as is)."""

    context: CallContext
    codes: tuple[str, ...]


Observer = Callable[[Any], None]
"""What a meter forwards events to: the call events above and whatever the layers
above emit through the same meter (a debate's listener of ``moot.events.Event``)."""

EventT = TypeVar("EventT")

_log = logging.getLogger(__name__)


def deliver(listener: Callable[[EventT], None] | None, event: EventT) -> bool:
    """Give ``event`` to ``listener``. A listener that fails (a display that cannot
    draw what a model wrote, a closed terminal) is logged and ``False`` is returned:
    an observer never stops the debate it observes."""
    if listener is None:
        return True
    try:
        listener(event)
    except Exception as exc:
        # %r: the message may quote model text; repr shows its control characters
        _log.warning("a progress listener failed (%r); it gets no more events", exc)
        return False
    return True
