"""Rule checks that several formats apply to their replies, as ``Problem`` values:
a soft problem worded in the debate's language, the language check and the final
stance's length."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from moot import i18n
from moot.llm.structured import Problem
from moot.text import cjk_share, word_count

LANGUAGE_SHARE = 0.3
"""The share of CJK characters that separates a Chinese text from an English one."""


def soft(
    where: str, code: str, lang: str, *, labels: Mapping[str, str] | None = None, **values: object
) -> Problem:
    """A rule problem, told to the model in the debate's language: the label
    ``reask.<code>`` of the shared labels, or of ``labels`` (a format's own)."""
    table = i18n.labels(lang, labels or {})
    message = table[f"reask.{code}"].format(**values)
    return Problem(f"{where}: {message}", hard=False, code=code, where=where)


class Soft(Protocol):
    """``soft`` with a format's own labels bound (see :func:`soft_with`)."""

    def __call__(self, where: str, code: str, lang: str, **values: object) -> Problem: ...


def soft_with(own: Mapping[str, Mapping[str, str]]) -> Soft:
    """``soft`` worded from the shared labels and a format's own (``own``: its labels
    by language): how a format words the rules only it checks."""

    def worded(where: str, code: str, lang: str, **values: object) -> Problem:
        return soft(where, code, lang, labels=i18n.in_language(own, lang), **values)

    return worded


def wrong_language(fields: Iterable[tuple[str, str]], lang: str) -> list[Problem]:
    """A problem for each ``(where, text)`` not written in the debate's language."""
    problems = []
    for where, text in fields:
        share = cjk_share(text)
        if (lang == "zh" and share < LANGUAGE_SHARE) or (lang == "en" and share > LANGUAGE_SHARE):
            problems.append(soft(where, "language", lang))
    return problems


def stance_length(stance: str, lang: str, stance_words: tuple[int, int]) -> list[Problem]:
    """A problem when the final stance is not ``stance_words`` long (a Chinese stance
    is counted in characters, about 1.5 per English word)."""
    words = word_count(stance)
    low, high = stance_words
    if low <= words <= high:
        return []
    return [
        soft(
            "final_stance",
            "stance_length",
            lang,
            words=words,
            chars=round(words * 1.5),
            low=low,
            high=high,
            zh_low=round(low * 1.5),
            zh_high=round(high * 1.5),
        )
    ]
