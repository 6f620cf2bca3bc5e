"""A demo writer's motion is kept per topic and patterns, and is the one it weaves."""

from __future__ import annotations

import pytest

from moot import demo_text
from moot.formats.structured import demo


@pytest.mark.parametrize(
    ("topic", "woven"),
    [
        ("Should a 10-person startup adopt microservices from day one?", True),
        ("Is PRO-1 right?", False),  # an argument id: the rule checks would flag it
        ("See above: argument 2", False),
        ("?", False),  # too short once cleaned
    ],
)
def test_the_kept_motion_is_the_woven_one(topic: str, woven: bool) -> None:
    for _ in range(2):  # made, then kept
        writer = demo._Writer("en", topic, ("PRO", "CON"))
        fresh = demo_text._motion.__wrapped__(
            topic,
            writer.p.motion,
            writer.p.generic_motion,
            writer.p.topic_max_chars,
            writer.unsafe,
        )
        assert writer.motion == fresh
        assert (writer.motion != writer.p.generic_motion) is woven
    assert demo._unsafe(("PRO", "CON")) is writer.unsafe  # the same patterns every call
