"""The market format's protocol rules for each reply, as ``Problem`` values.

Hard problems (a challenge of an argument that is not the opponent's, one answered
twice or not at all) are never accepted. The others are quality rules: the reply is
sent back with the reason, and if the rule is still broken when the re-asks are
spent, the result records a warning (with ``--strict-rules`` the debate stops):

- an argument's evidence cites no data point at all;
- the anti-handshake rule: a cross-examination must challenge or refute
  (``refute``, ``question_evidence``) at least half of the opponent's arguments;
- a challenge's ``new_evidence`` cites a number that is not in the analyst's slice
  (checked by code, ``moot.formats.market.data.verify_numbers``);
- the final stance's length; the debate's language; the baseline's direction agrees
  with its probability of up.

An opening argument's unsupported numbers are not re-asked: they are flagged and
lower the argument's evidence score (``moot.formats.market.data.penalised_evidence``), so a
fabrication shows in the result instead of being quietly rewritten.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from moot.formats.common.rules import soft_with, stance_length
from moot.formats.common.rules import wrong_language as _language
from moot.formats.market import labels as words
from moot.formats.market.payload import ATTACKS
from moot.formats.market.replies import BaselineReply, ClosingReply, CrossExamReply, OpeningReply
from moot.llm.structured import Problem
from moot.text import join_sentences

_soft = soft_with(words.LABELS)
"""A rule problem, told to the model in the debate's language (the market's own
rules are worded in its labels)."""


def min_attacks(targets: int) -> int:
    """How many of ``targets`` arguments a cross-examination must challenge or refute."""
    return math.ceil(targets / 2)


def check_opening(reply: OpeningReply, cited: Sequence[int], lang: str) -> list[Problem]:
    """``cited`` is how many numbers each argument cites (code counted them)."""
    problems: list[Problem] = []
    for n, (arg, count) in enumerate(zip(reply.arguments, cited, strict=True), start=1):
        where = f"arguments[{n}]"
        if count == 0:
            problems.append(_soft(f"{where}.evidence", "evidence_no_data", lang))
        # the evidence is full of names and tickers: only the claim's language is checked
        problems += _language([(f"{where}.claim", arg.claim)], lang)
    return problems


def check_cross_exam(
    reply: CrossExamReply,
    target_ids: Sequence[str],
    unsupported: Mapping[int, list[str]],
    lang: str,
) -> list[Problem]:
    """Every opposing argument answered exactly once; at least half challenged or
    refuted; no unsupported number in ``new_evidence`` (``unsupported``: challenge
    index -> the numbers code flagged there)."""
    problems: list[Problem] = []
    counts = Counter(item.target_id.upper() for item in reply.challenges)
    for target in target_ids:
        if counts[target] != 1:
            problems.append(
                Problem(
                    f"challenges: {target} is answered {counts[target]} times; answer every"
                    " opposing argument exactly once"
                )
            )
    for target in sorted(set(counts) - set(target_ids)):
        problems.append(
            Problem(
                f"challenges: {target} is not an argument of your opponent; valid targets are"
                f" {', '.join(target_ids)}"
            )
        )
    attacks = sum(item.challenge_type in ATTACKS for item in reply.challenges)
    needed = min_attacks(len(target_ids))
    if attacks < needed:
        problems.append(
            _soft(
                "challenges", "handshake", lang, attacks=attacks, needed=needed, n=len(target_ids)
            )
        )
    for index, numbers in sorted(unsupported.items()):
        if numbers:
            problems.append(
                _soft(
                    f"challenges[{index + 1}].new_evidence",
                    "unsupported_number",
                    lang,
                    numbers=", ".join(numbers),
                )
            )
    for n, item in enumerate(reply.challenges, start=1):
        problems += _language([(f"challenges[{n}].reasoning", item.reasoning)], lang)
    return problems


def check_closing(
    reply: ClosingReply, lang: str, stance_words: tuple[int, int] = (50, 100)
) -> list[Problem]:
    """The final stance is ``stance_words`` long, in the debate's language."""
    stance = join_sentences(list(reply.final_stance), lang)
    return stance_length(stance, lang, stance_words) + _language([("final_stance", stance)], lang)


def check_baseline(reply: BaselineReply, lang: str) -> list[Problem]:
    """``up`` goes with a probability of up above 50%, ``down`` with one below."""
    p = reply.probability_up
    if (reply.direction == "up" and p < 50) or (reply.direction == "down" and p > 50):
        return [_soft("probability_up", "baseline_inconsistent", lang, direction=reply.direction)]
    return _language([("reasoning", reply.reasoning)], lang)


def market_stance_words(profile_words: tuple[int, int]) -> tuple[int, int]:
    """The market closing's 50-100 words, scaled as a profile scales the standard
    protocol's 100-200 (the compact profile's 40-80 gives 20-40)."""
    low, high = profile_words
    return max(10, round(low / 2)), max(20, round(high / 2))
