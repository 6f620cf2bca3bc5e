"""The protocol's format rules for each round of the structured debate.

Each check returns ``Problem`` values. Hard problems (wrong or repeated ids, a new
argument in cross-examination) can never be accepted. The others are quality rules:
the statement is sent back for a rewrite, and if the rule is still broken when the
re-asks are spent, the result records a warning (or, with strict rules, the debate
stops). The checks are deliberately simple, documented heuristics.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import cache

from moot.formats.common.rules import soft_with, stance_length
from moot.formats.common.rules import wrong_language as _language
from moot.formats.structured.labels import LABELS
from moot.formats.structured.replies import (
    ArgumentDraft,
    ClosingReply,
    CrossExamReply,
    OpeningReply,
)
from moot.llm.structured import Problem
from moot.text import join_sentences, normalise, sentences

CAUSAL = re.compile(
    r"\b(?:because|since|therefore|thus|hence|so|leads? to|led to|results? in|resulting in"
    r"|causes?|caused|which means|means that|as a result|consequently|due to|if|then"
    r"|allows?|enables?|reduces?|increases?|drives?)\b"
    r"|因为|所以|因此|导致|从而|由于|使得|进而|因而|如果|就会|意味着|造成|带来",
    re.IGNORECASE,
)
VAGUE_EVIDENCE = (
    "many companies",
    "many people",
    "everyone knows",
    "it is well known",
    "widely known",
    "experts agree",
    "common sense",
    "obviously",
    "很多公司",
    "许多公司",
    "众所周知",
    "大家都知道",
    "专家都认为",
    "显而易见",
)
DEFAULT_PREFIXES = ("PRO", "CON")
_CROSS_REFERENCE_WORDS = (
    r"|\b(?:argument|point)\s*#?\d+\b|\bsee (?:above|below)\b"
    r"|\bas (?:argued|stated|mentioned) (?:above|earlier|before)\b"
    r"|见第[0-9一二三四五六七八九十]+[条个点]|如上所述|上述论[点据]|前述论[点据]"
    r"|论[点据]\s*[0-9一二三四五]"
)


_soft = soft_with(LABELS)
"""A rule problem, told to the model in the debate's language (the structured
format's own rules are worded in its labels)."""


@cache
def argument_id_pattern(prefixes: tuple[str, ...] = DEFAULT_PREFIXES) -> re.Pattern[str]:
    """Argument ids of a debate with these id prefixes (``PRO-1``, ``B-2``).
    Look-arounds, not \\b: Python sees no word boundary between a CJK character and
    a Latin letter, so "正如PRO-9所说" must still be found."""
    names = "|".join(re.escape(p) for p in prefixes)
    return re.compile(rf"(?<![A-Za-z0-9])({names})-(\d{{1,2}})(?![0-9])", re.IGNORECASE)


_CROSS_REFERENCE_ASCII = (
    "argument",
    "point",
    "see above",
    "see below",
    "as argued",
    "as stated",
    "as mentioned",
)
"""What a match of ``_CROSS_REFERENCE_WORDS`` in ASCII text holds, lowercased (its
other forms are Chinese)."""


class CrossReference:
    """The cross-reference regex, searched only where it can match: ASCII text holding
    neither an id prefix with its dash (the id form is case-sensitive) nor, lowercased,
    one of ``_CROSS_REFERENCE_ASCII`` has no match. The regex is case-insensitive and
    tried at every position (about 0.7 µs a character); in ASCII text only ASCII
    letters meet its letters, so lowercasing is exact there."""

    def __init__(self, prefixes: tuple[str, ...]) -> None:
        names = "|".join(re.escape(p) for p in prefixes)
        self.regex = re.compile(
            rf"(?<![A-Za-z0-9])(?-i:(?:{names})-\d{{1,2}})(?![0-9])" + _CROSS_REFERENCE_WORDS,
            re.IGNORECASE,
        )
        self.ids = tuple(f"{p}-" for p in prefixes)

    def search(self, text: str) -> re.Match[str] | None:
        if text.isascii() and not any(map(text.__contains__, self.ids)):
            lowered = text.lower()
            if not any(map(lowered.__contains__, _CROSS_REFERENCE_ASCII)):
                return None
        return self.regex.search(text)


class Needing:
    """A regex searched only in text holding one of ``chars``, which every match of it
    holds: the dash of an argument id, the colon of a new-argument marker. No case
    folding maps another character to a dash or a colon, so the answer is the
    regex's own, at the cost of a substring test on most text (the demo writer tests
    every phrase it weaves against these patterns)."""

    def __init__(self, regex: re.Pattern[str], chars: tuple[str, ...]) -> None:
        self.regex = regex
        self.chars = chars

    def search(self, text: str) -> re.Match[str] | None:
        if not any(map(text.__contains__, self.chars)):
            return None
        return self.regex.search(text)


@cache
def cross_reference_pattern(prefixes: tuple[str, ...] = DEFAULT_PREFIXES) -> CrossReference:
    """What refers from one argument to another: an argument id, "argument 2", "see
    above" and their Chinese forms."""
    return CrossReference(prefixes)


CROSS_REFERENCE = cross_reference_pattern()
ARGUMENT_ID = argument_id_pattern()
NEW_ARGUMENT_MARKER = re.compile(
    r"\b(?:new|additional|another) argument\s*:|新论[点据]\s*[:：]|另一个论[点据]\s*[:：]",
    re.IGNORECASE,
)
CONCRETE = re.compile(r"\d|[\"“”「」《》]|according to|据.{1,20}(?:统计|报告|数据)", re.IGNORECASE)


QUESTION_START = re.compile(
    r"^\s*(?:what|why|how|which|when|where|who|whom|whose|do|does|did|is|are|was|were|can|"
    r"could|would|will|should|has|have|had)\b|^\s*(?:为什么|如何|怎么|什么|哪|是否|难道)",
    re.IGNORECASE,
)


def _is_question(text: str) -> bool:
    """A question mark, a question word at the start, or a Chinese question particle."""
    stripped = text.strip().rstrip("。.!！ ")
    return (
        "?" in stripped
        or "？" in stripped
        or bool(QUESTION_START.search(stripped))
        or stripped.endswith(("吗", "呢"))
    )


def check_opening(
    reply: OpeningReply, lang: str, prefixes: tuple[str, ...] = DEFAULT_PREFIXES
) -> list[Problem]:
    """Opening rules: one-sentence falsifiable claims, causal reasoning, concrete
    evidence, no cross-references between arguments, no repeated claims."""
    problems: list[Problem] = []
    seen: Counter[str] = Counter(normalise(a.claim) for a in reply.arguments)
    for n, arg in enumerate(reply.arguments, start=1):
        where = f"arguments[{n}]"
        if len(sentences(arg.claim)) != 1:
            problems.append(_soft(f"{where}.claim", "claim_sentences", lang))
        if arg.claim.rstrip().endswith(("?", "？")):
            problems.append(
                _soft(
                    f"{where}.claim",
                    "claim_question",
                    lang,
                )
            )
        if not CAUSAL.search(arg.reasoning):
            problems.append(
                _soft(
                    f"{where}.reasoning",
                    "reasoning_causal",
                    lang,
                )
            )
        evidence = arg.evidence.lower()
        if any(v in evidence for v in VAGUE_EVIDENCE) or not CONCRETE.search(arg.evidence):
            problems.append(
                _soft(
                    f"{where}.evidence",
                    "evidence_vague",
                    lang,
                )
            )
        text = " ".join((arg.claim, arg.reasoning, arg.evidence))
        if cross_reference_pattern(prefixes).search(text):
            problems.append(
                _soft(
                    where,
                    "cross_reference",
                    lang,
                )
            )
        if seen[normalise(arg.claim)] > 1:
            problems.append(
                _soft(
                    f"{where}.claim",
                    "claim_repeated",
                    lang,
                )
            )
        problems += _language(
            [(f"{where}.claim", arg.claim), (f"{where}.reasoning", arg.reasoning)], lang
        )
    return problems


def check_argument(
    draft: ArgumentDraft, lang: str, prefixes: tuple[str, ...] = DEFAULT_PREFIXES
) -> list[Problem]:
    """The opening rules for one argument asked for in its own call, its problems'
    paths within that argument (``claim``; ``""`` for the whole of it)."""
    problems = check_opening(OpeningReply.model_construct(arguments=[draft]), lang, prefixes)
    return [
        dataclasses.replace(p, where=re.sub(r"^arguments\[1\]\.?", "", p.where)) for p in problems
    ]


NEAR_COPY = 0.8
"""Two claims of one side whose words (lower-cased, punctuation dropped) match this much
by ``difflib.SequenceMatcher.ratio`` are near-copies."""


def _claim_words(claim: str) -> str:
    return " ".join(re.findall(r"\w+", claim.lower()))


def _own(claim: str, start: str) -> str:
    """``claim``'s words after ``start`` (a start every claim of the side shares)."""
    return _claim_words(claim[len(start) :] if start and claim.startswith(start) else claim)


def near_copy(claim: str, earlier: Sequence[str], start: str = "") -> bool:
    """Whether ``claim`` nearly copies one of ``earlier`` (see ``NEAR_COPY``). ``start``,
    the words the grammar writes at the start of every claim of the side
    (``moot.formats.structured.sides``), is left out of the comparison: claims that
    share only it are not copies."""
    mine = _own(claim, start)
    return any(
        SequenceMatcher(None, mine, _own(other, start), autojunk=False).ratio() >= NEAR_COPY
        for other in earlier
    )


def near_copy_pairs(claims: Sequence[str], start: str = "") -> int:
    """Pairs of ``claims`` (one side's) that are near-copies of each other."""
    return sum(
        near_copy(claim, [other], start)
        for n, claim in enumerate(claims)
        for other in claims[n + 1 :]
    )


def check_cross_exam(
    reply: CrossExamReply,
    target_ids: Sequence[str],
    all_ids: Sequence[str],
    lang: str,
    prefixes: tuple[str, ...] = DEFAULT_PREFIXES,
) -> list[Problem]:
    """Cross-examination rules: every opposing argument answered exactly once, no
    unknown target, no new argument; follow-ups are questions."""
    problems: list[Problem] = []
    counts = Counter(item.target_id.upper() for item in reply.responses)
    for target in target_ids:
        if counts[target] == 0:
            problems.append(
                Problem(
                    f"responses: {target} is not answered; answer every"
                    " opposing argument exactly once"
                )
            )
        elif counts[target] > 1:
            problems.append(
                Problem(
                    f"responses: {target} is answered {counts[target]} times;"
                    " answer it exactly once"
                )
            )
    for target in sorted(set(counts) - set(target_ids)):
        problems.append(
            Problem(
                f"responses: {target} is not an opposing argument; valid"
                f" targets are {', '.join(target_ids)}"
            )
        )
    known = {i.upper() for i in all_ids}
    for n, item in enumerate(reply.responses, start=1):
        text = f"{item.reasoning} {item.follow_up}"
        for side, num in argument_id_pattern(prefixes).findall(text):
            ref = f"{side.upper()}-{num}"
            if ref not in known:
                problems.append(
                    Problem(
                        f"responses[{n}]: refers to {ref}, which is not an"
                        " opening argument; no new arguments in"
                        " cross-examination"
                    )
                )
        if NEW_ARGUMENT_MARKER.search(text):
            problems.append(
                Problem(
                    f"responses[{n}]: introduces a new argument; in"
                    " cross-examination only answer the opposing argument"
                )
            )
        if not _is_question(item.follow_up):
            problems.append(_soft(f"responses[{n}].follow_up", "follow_up_question", lang))
        problems += _language([(f"responses[{n}].reasoning", item.reasoning)], lang)
    return problems


def check_closing(
    reply: ClosingReply,
    own_ids: Sequence[str],
    lang: str,
    stance_words: tuple[int, int] = (100, 200),
) -> list[Problem]:
    """Closing rules: ``unrefuted`` has exactly one entry per own argument; the final
    stance is ``stance_words`` long (100-200 words in the standard protocol)."""
    problems: list[Problem] = []
    given = {key.upper() for key in reply.unrefuted}
    own = {i.upper() for i in own_ids}
    for ident in sorted(own - given):
        problems.append(Problem(f"unrefuted: {ident} is missing; say true or false for it"))
    for ident in sorted(given - own):
        problems.append(
            Problem(f"unrefuted: {ident} is not one of your arguments ({', '.join(own_ids)})")
        )
    if len(given) != len(reply.unrefuted):
        problems.append(Problem("unrefuted: an argument id is given twice"))
    stance = join_sentences(reply.final_stance, lang)
    problems += stance_length(stance, lang, stance_words)
    problems += _language([("final_stance", stance)], lang)
    return problems
