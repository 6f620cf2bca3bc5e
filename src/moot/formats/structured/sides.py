"""Where each side's claims start: a prefix derived from the topic by a fixed rule.

A 135M model told to argue AGAINST a topic often argues for it, or writes the topic
back as its claim. Under a profile with ``claim_prefix`` (the compact one), every
opening claim begins with a few words that commit it to its side, written by the
grammar (``moot.llm.grammar``) and asked for by the prompt; the model writes the rest.
The words come from this rule, never from the topic's content:

- a two-sided debate on a yes/no question (English: the topic ends with ``?`` and
  starts with an auxiliary verb such as *should*, *is* or *can*; Chinese: it contains
  是否, 要不要, 该不该, 能否, 可否, 是不是 or ends with 吗): ``Yes, because`` for the
  side for it and ``No, because`` for the side against it (是的，因为 / 不，因为);
- any other topic, or more than two positions: ``Because`` (因为), so that each claim
  is a reason, not the topic again.
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


def claim_prefix(topic: str, lang: str, side: str, two_sided: bool) -> str:
    """The text every opening claim of ``side`` begins with."""
    table = PREFIXES.get(lang, PREFIXES["en"])
    if two_sided and side in ("pro", "con") and yes_no(topic, lang):
        return table[side]
    return table[None]
