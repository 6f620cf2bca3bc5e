"""Text helpers for the ``scripted:demo`` writers of every format and of the judge:
weaving the topic into phrase templates without breaking the rule checks, and
taking verbatim excerpts to quote. Nothing here calls a model."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from moot.text import CJK_RANGES, cjk_share

_SENTENCE_BREAK = re.compile(r"[.!?]+(?=\s)|[。！？]+")
_TRAILING = re.compile(r"[\s.!?。！？,，;；:：]+$")
_CJK_CHAR = re.compile(f"[{CJK_RANGES}]")
QUOTE = re.compile(r"[\"“”]")


def fits(text: str, lang: str) -> bool:
    """True when ``text`` passes the rule checks' language test for ``lang``."""
    share = cjk_share(text)
    return share > 0.3 if lang == "zh" else share < 0.3


def clean(text: str) -> str:
    """Text safe to weave into another sentence: no sentence breaks, no end punctuation."""
    text = " ".join(text.split())
    text = _SENTENCE_BREAK.sub(lambda m: "" if m.group().isascii() else "，", text)
    return _TRAILING.sub("", text)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a word boundary in English."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if " " in cut and not _CJK_CHAR.search(cut[-1]):
        cut = cut[: cut.rfind(" ")]
    return _TRAILING.sub("", cut)


def excerpt(claim: str, rng: random.Random | None = None, *, tail: bool = False) -> str:
    """A verbatim run of a claim: a few words (English) or characters (Chinese), from a
    random position when ``rng`` is given, else from the end (``tail``) or the start."""
    body = _TRAILING.sub("", claim.strip())
    chinese = cjk_share(body) > 0.3
    units = list(body) if chinese else body.split()
    size = min(len(units), 14 if chinese else 8)
    last = len(units) - size
    start = rng.randint(0, last) if rng else (last if tail else 0)
    run = ("" if chinese else " ").join(units[start : start + size])
    return _TRAILING.sub("", run).lstrip(" ,，、;；:：")[:120]


class Searcher(Protocol):
    """A compiled regex, or anything searched like one."""

    def search(self, string: str, /) -> object: ...


@lru_cache(maxsize=1024)
def _motion(
    topic: str,
    motion: str,
    generic_motion: str,
    topic_max_chars: int,
    unsafe: tuple[Searcher, ...],
) -> str:
    """The motion a ``Weaver`` weaves in: ``motion`` around the topic, cleaned and
    shortened, or ``generic_motion`` when that is too short or trips a pattern of
    ``unsafe``. Cached: a debate's writers weave the same topic into every call's
    reply (the patterns are kept objects, see ``moot.formats.structured.demo``)."""
    ref = shorten(clean(topic), topic_max_chars)
    usable = len(ref) >= 2 and not any(p.search(ref) for p in unsafe)
    return motion.format(topic=ref) if usable else generic_motion


class Weaver:
    """Fills phrase templates with the motion (``{m}``) woven in.

    If the topic would break a rule (wrong language for the field, a pattern in
    ``unsafe``, too long), ``generic_motion`` ("the motion") is used instead."""

    def __init__(
        self,
        lang: str,
        topic: str,
        *,
        motion: str,
        generic_motion: str,
        topic_max_chars: int,
        unsafe: Sequence[Searcher] = (),
    ) -> None:
        self.lang = lang
        self.generic_motion = generic_motion
        self.unsafe = tuple(unsafe)
        self.motion = _motion(topic, motion, generic_motion, topic_max_chars, self.unsafe)

    def safe(self, text: str) -> bool:
        """True when ``text`` trips none of the unsafe patterns."""
        return not any(p.search(text) for p in self.unsafe)

    def say(self, template: str, *, limit: int = 300, **values: object) -> str:
        """``template`` with the motion filled in, or with the generic motion when the
        topic would break the language or reference rules or make it over ``limit``."""
        text = template.format(m=self.motion, **values)
        if fits(text, self.lang) and self.safe(text) and len(text) <= limit:
            return text
        return template.format(m=self.generic_motion, **values)
