"""A meter with a listener reports each call, its validation and its retries; one
without makes no event, and the retries of its calls reach no outer listener."""

from __future__ import annotations

import asyncio

from moot.llm import retry
from moot.llm.events import CallFinished, CallStarted, Retrying, Validated
from moot.llm.meter import Meter, MeteredBackend
from moot.llm.scripted import ScriptedBackend
from moot.llm.types import CallContext, GenerationSettings, Usage


def retried(*_: object) -> str:
    """A reply after one retry, reported as the retry loop reports it."""
    listener = retry._LISTENER.get()
    if listener is not None:
        listener(retry.RetryEvent(attempt=1, reason="busy", delay=0.5))
    return "{}"


def call(meter: Meter) -> None:
    backend = MeteredBackend(ScriptedBackend(retried), meter)
    context = CallContext(role="pro", round="opening")
    completion = asyncio.run(
        backend.generate([], schema=None, settings=GenerationSettings(), context=context)
    )
    meter.record_validation(completion, [], context=context, codes=())


def test_a_listened_meter_reports_the_call_and_its_retry() -> None:
    events: list[object] = []
    meter = Meter(events.append)
    call(meter)
    kinds = [type(e) for e in events]
    assert kinds == [CallStarted, Retrying, CallFinished, Validated]
    assert meter.calls == 1
    assert meter.usage == Usage(0, 1)


def test_a_meter_without_a_listener_hides_the_retry_from_an_outer_one() -> None:
    outer: list[retry.RetryEvent] = []
    meter = Meter()
    assert not meter.observed
    with retry.retry_listener(outer.append):
        call(meter)
    assert outer == []  # the meter's block reports retries to no one
    assert meter.calls == 1
    assert meter.usage == Usage(0, 1)
