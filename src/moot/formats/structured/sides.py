"""Where each side's claims start: words derived from the topic by a fixed rule.

A 135M model told to argue AGAINST a topic often argues for it, or writes the topic
back as its claim. Under a profile with ``claim_prefix`` (the compact one), every
opening claim begins with a few words that commit it to its side, written by the
grammar (``moot.llm.grammar``) and asked for by the prompt; the model writes the rest.
The words come from this rule, never from knowledge of the topic:

- a two-sided debate on a yes/no question (English: the topic ends with ``?`` and
  starts with an auxiliary verb such as *should*, *is* or *can*; Chinese: it contains
  是否, 要不要, 该不该, 能否, 可否, 是不是 or ends with 吗): ``Yes, because`` for the
  side for it and ``No, because`` for the side against it (是的，因为 / 不，因为);
- a two-sided debate on an "A or B" question (English: the topic ends with ``?``, does
  not start with an auxiliary and holds the word *or* once; Chinese: 还是, else 或者 or
  或, once, in a question): each side argues for one option, the side for the topic
  for A and the side against it for B, and its claims start from its option:
  ``Night train, because`` / ``Plane, because`` (``坐高铁更好，因为`` /
  ``自驾更好，因为``); see ``options`` for where an option starts and ends;
- any other topic, or more than two positions: ``Because`` (因为), so that each claim
  is a reason, not the topic again.

Where the yes/no question can be turned into a statement by the rule of ``thesis``,
each side's claims start from its own statement instead: ``Cities should not charge
cars a fee to enter the centre, because`` (``城市不应该对进入市中心的汽车收费，因为``).
The rule moves the auxiliary behind the subject and adds a negation for the side
against; it needs no knowledge of the topic but English word classes: the subject
ends before the first word of a fixed list of verbs (``VERBS``) that does not follow
a determiner, or, after *is*/*are*, before an article or an evaluative word. A
question the rule cannot read, or a statement longer than ``MAX_THESIS``, keeps the
short prefix above. (Chinese: 是否 splits subject and predicate, or the first of
``PREDICATE_ZH`` in a 吗 question starts the predicate.)
"""

from __future__ import annotations

import re

AUXILIARIES = frozenset(
    {
        *("should", "is", "are", "was", "were", "do", "does", "did", "can", "could"),
        *("will", "would", "must", "may", "might", "shall", "has", "have", "had", "ought"),
    }
)
_YES_NO_ZH = re.compile(r"是否|要不要|该不该|应不应该|能否|可否|是不是|吗[？?]?\s*$")

DETERMINERS = frozenset(
    {
        *("a", "an", "the", "our", "my", "your", "their", "his", "her", "its", "this"),
        *("that", "these", "those", "every", "each", "all", "some", "any", "no", "more"),
        *("most", "many", "few", "to", "of", "for", "on", "in", "and", "or"),
    }
)
"""Words a verb never directly follows in a subject (``a ban on ...``)."""
VERBS = frozenset(
    {
        *("be", "have", "get", "become", "remain", "stay", "keep", "do", "make", "go"),
        *("adopt", "allow", "ban", "build", "buy", "charge", "choose", "close", "cut"),
        *("drop", "eliminate", "end", "fund", "give", "help", "hire", "impose", "increase"),
        *("introduce", "invest", "join", "learn", "leave", "lend", "let", "limit", "lower"),
        *("move", "offer", "own", "pay", "permit", "prohibit", "protect", "provide", "put"),
        *("raise", "reduce", "regulate", "rent", "replace", "require", "restrict", "sell"),
        *("spend", "stop", "subsidise", "subsidize", "support", "switch", "take", "tax"),
        *("teach", "use", "work", "dissect", "abolish", "accept", "add", "expand", "harm"),
        *("hurt", "improve", "include", "legalise", "legalize", "mandate", "need", "open"),
        *("phase", "pursue", "rely", "replace", "scrap", "share", "start", "treat", "vote"),
        *("wear", "matter", "cause", "create", "destroy", "drive", "grow", "lead", "lose"),
        *("pass", "plan", "prefer", "punish", "repeal", "return", "save", "serve", "set"),
        *("shift", "sign", "trust", "turn", "want", "win", "write", "read", "watch"),
    }
)
"""Base-form verbs a yes/no question's predicate may start with (``thesis``)."""
PREDICATE_STARTS = frozenset(
    {*("a", "an", "the", "good", "bad", "better", "worse", "worth", "safe", "fair"), "right"}
)
"""Words after *is*/*are* with which the predicate starts (``Is nuclear power a ...``)."""
COPULAS = frozenset({"is", "are", "was", "were"})
NEGATED = {"can": "cannot"}
MAX_SUBJECT = 6
"""The most words a subject may have."""
PREDICATE_ZH = ("应该", "应当", "可以", "是", "会", "能", "要", "该")
"""Where a Chinese 吗 question's predicate starts, in order of preference (the side
against puts 不 before it)."""

OPTION_ENDS = frozenset(
    {
        *("for", "in", "on", "at", "to", "when", "while", "during", "with", "without"),
        *("after", "before", "from", "as", "than", "if", "by", "over", "under", "into"),
        *("per", "this", "next", "within", "between", "instead"),
    }
)
"""Words before which the option after *or* ends (``plane | for a 700 km trip``)."""
MAX_OPTION = 5
"""The most words an English option may have (a Chinese one: ``MAX_OPTION_ZH``
characters); a question with a longer one is not read as "A or B"."""
MAX_OPTION_ZH = 12
_OR_ZH = ("还是", "或者", "或")
_CLAUSE_ZH = re.compile(r"[，,：:；;、\s]")
OPTION_CLAIM = {"en": "{option}, because ", "zh": "{option}更好，因为"}
"""How a claim starts from its side's option."""

PREFIXES = {
    "en": {"pro": "Yes, because ", "con": "No, because ", None: "Because "},
    "zh": {"pro": "是的，因为", "con": "不，因为", None: "因为"},
}


def yes_no(topic: str, lang: str) -> bool:
    """Whether ``topic`` is a yes/no question (see the module for the rule)."""
    text = topic.strip()
    if lang == "zh":
        return bool(_YES_NO_ZH.search(text))
    words = text.split()
    return text.endswith("?") and bool(words) and words[0].lower() in AUXILIARIES


def _options_zh(text: str) -> tuple[str, str] | None:
    for word in _OR_ZH:
        if text.count(word) == 1:
            head, _, tail = text.partition(word)
            break
    else:
        return None
    first = _CLAUSE_ZH.split(head)[-1]
    second = re.split(r"[，,。？?！!；;]", tail)[0].strip()
    if second and first.rfind(second[0]) > 0:
        # parallel options start alike: 先学钢琴还是学编程 -> 学钢琴 / 学编程
        first = first[first.rfind(second[0]) :]
    if not first or not second or max(len(first), len(second)) > MAX_OPTION_ZH:
        return None
    return first, second


def options(topic: str, lang: str) -> tuple[str, str] | None:
    """The two options of an "A or B" question ``topic`` (see the module), as written,
    or ``None`` when it is not one the rule can read. English: A is the words before
    *or* (after the question's last comma), B the words after it up to the first of
    ``OPTION_ENDS``, a comma or the question mark; Chinese: A is the clause before
    还是 (from the first character B starts with, when A holds it), B the words after
    it up to a punctuation mark. A yes/no question is never read as one
    ("Should animals be used for scientific or commercial testing?")."""
    text = topic.strip()
    if not text.endswith(("?", "？")) or yes_no(text, lang):
        return None
    text = text.rstrip("?？").strip()
    if lang == "zh":
        return _options_zh(text)
    words = text.split()
    ors = [i for i, w in enumerate(words) if w.lower() == "or"]
    if len(ors) != 1:
        return None
    head = " ".join(words[: ors[0]]).rpartition(",")[2].split()
    tail: list[str] = []
    for word in words[ors[0] + 1 :]:
        if word.lower() in OPTION_ENDS:
            break
        tail.append(word.rstrip(","))
        if word.endswith(","):
            break
    if not head or not tail or max(len(head), len(tail)) > MAX_OPTION:
        return None
    first, second = " ".join(head), " ".join(tail)
    return None if first.casefold() == second.casefold() else (first, second)


def side_option(topic: str, lang: str, side: str) -> str | None:
    """The option ``side`` (``pro``: the first, ``con``: the second) argues for on an
    "A or B" question, or ``None``."""
    read = options(topic, lang)
    if read is None or side not in ("pro", "con"):
        return None
    return read[0] if side == "pro" else read[1]


def _subject_length(aux: str, rest: list[str]) -> int | None:
    """How many of ``rest`` (an English question after its auxiliary) are its subject,
    or ``None`` when the rule cannot tell."""
    for k in range(1, min(MAX_SUBJECT, len(rest) - 1) + 1):
        before, word = rest[k - 1].lower(), rest[k].lower()
        if before in DETERMINERS:
            continue
        if aux in COPULAS:
            if word in PREDICATE_STARTS or (word.endswith("ing") and word.isalpha()):
                return k
        elif word in VERBS:
            return k
    return None


def thesis(topic: str, lang: str, side: str) -> str | None:
    """``side``'s position on the yes/no question ``topic`` as a statement (``pro``
    for it, ``con`` against it), or ``None`` when the rule (see the module) cannot
    read the question."""
    text = topic.strip().rstrip("?？").strip()
    if lang == "zh":
        if "是否" in text:
            subject, _, predicate = text.partition("是否")
        else:
            at = [text.find(word) for word in PREDICATE_ZH if text.find(word) >= 0]
            if not at or not text.endswith("吗"):
                return None
            subject, predicate = text[: at[0]], text[at[0] : -1]
        if not predicate:
            return None
        return f"{subject}{'' if side == 'pro' else '不'}{predicate.strip()}"
    words = text.split()
    if len(words) < 3 or words[0].lower() not in AUXILIARIES:
        return None
    aux, rest = words[0].lower(), words[1:]
    k = _subject_length(aux, rest)
    if k is None:
        return None
    subject = " ".join(rest[:k])
    verb = aux if side == "pro" else NEGATED.get(aux, f"{aux} not")
    return f"{subject[:1].upper()}{subject[1:]} {verb} {' '.join(rest[k:])}"


THESIS_JOIN = {"en": ", because ", "zh": "，因为"}
MAX_THESIS = 90
"""The longest statement a claim starts from (characters); a longer one leaves too
little of the claim to the model, and the short prefix is used instead."""


def claim_prefix(topic: str, lang: str, side: str, two_sided: bool) -> str:
    """The text every opening claim of ``side`` begins with."""
    table = PREFIXES.get(lang, PREFIXES["en"])
    option = side_option(topic, lang, side) if two_sided else None
    if option is not None:
        start = OPTION_CLAIM.get(lang, OPTION_CLAIM["en"])
        return start.format(option=option[:1].upper() + option[1:])
    if two_sided and side in ("pro", "con") and yes_no(topic, lang):
        stated = thesis(topic, lang, side)
        if stated is not None and len(stated) <= MAX_THESIS:
            return stated + THESIS_JOIN.get(lang, THESIS_JOIN["en"])
        return table[side]
    return table[None]
