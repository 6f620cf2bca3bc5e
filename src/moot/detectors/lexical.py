"""Text measurements the detectors share, for English and Chinese, with no dictionary.

English is split into words and stemmed by stripping common suffixes. Chinese has
no spaces, so its content is measured in character bigrams (the standard unit of
dictionary-free Chinese retrieval). Similarity between texts is the cosine of their
character n-gram counts, which works the same way in both languages, survives
reordered sentences and small edits, and needs no vocabulary.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import repeat
from operator import add, mul
from typing import TYPE_CHECKING

from moot.text import CJK_RANGES, sentences

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_CJK_CHAR = CJK_RANGES
_CJK_RUN = re.compile(f"[{_CJK_CHAR}]+")
_LATIN_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_NON_TEXT = re.compile(f"[^a-z0-9{_CJK_CHAR}]+")
_QUOTED = re.compile(r"“[^”]{0,200}”|「[^」]{0,200}」|『[^』]{0,200}』|\"[^\"]{0,200}\"")
_CLAUSE_BREAK = re.compile(
    r"[;；:：]|,?\s+(?:but|however|yet|although|though|whereas)\s+|[，,]?(?:但是|但|可是|不过|然而)"
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words: they carry no topic, so content measures ignore them.
EN_STOPWORDS = _words(
    """a about above after again against all almost also although always am among an and
    another any anyone anything are aren't around as at be because been before being below
    between both but by can can't cannot could couldn't did didn't do does doesn't doing don't
    down during each either else enough even ever every few for from further had hadn't has
    hasn't have haven't having he he'd he's her here here's hers herself him himself his how
    how's however i i'd i'll i'm i've if in into is isn't it it's its itself just least less
    let let's like many may me might more most much must mustn't my myself neither no nor not
    now of off often on once one only or other others ought our ours ourselves out over own
    per quite rather really same shall shan't she she'd she'll she's should shouldn't since so
    some such than that that's the their theirs them themselves then there there's these they
    they'd they'll they're they've this those though through thus to too under until up upon
    us very was wasn't we we'd we'll we're we've were weren't what what's when when's where
    where's whether which while who who's whom whose why why's will with within without won't
    would wouldn't yes yet you you'd you'll you're you've your yours yourself yourselves
    get gets got make makes made take takes took say says said tell told put puts come comes
    go goes going went way thing things lot lots well still back"""
)
EN_DEBATE_WORDS = _words(
    """opponent opponents side sides argument arguments point points case claim claims motion
    debate speaker speech question answer true false right wrong think believe agree disagree
    fact facts actually simply clearly obviously frankly honestly indeed surely certainly
    first second third finally closing close conclusion let's consider look mean means
    people person someone something everyone nothing anything everything"""
)
ZH_STOP_CHARS = frozenset(
    "的了是在和也就都而及与着或不我你他她它们这那有个之为以于对从把被让给很还又再更最吗呢吧啊所但却并其此等没到得地过么什样怎哪些每各已将才便即若则"
)
ZH_GENERIC_BIGRAMS = frozenset(
    [
        "应该",
        "可以",
        "我们",
        "他们",
        "你们",
        "对方",
        "辩友",
        "我方",
        "因为",
        "所以",
        "但是",
        "如果",
        "这个",
        "那个",
        "一个",
        "没有",
        "已经",
        "问题",
        "认为",
        "觉得",
        "确实",
        "其实",
        "真的",
        "而且",
        "还是",
        "自己",
        "时候",
        "现在",
        "非常",
        "很多",
        "大家",
        "事情",
        "东西",
        "一些",
        "就是",
        "不是",
        "只是",
        "还有",
        "这些",
        "那些",
        "什么",
        "怎么",
        "方面",
        "情况",
        "同时",
        "例如",
        "比如",
        "正方",
        "反方",
        "观点",
        "论点",
        "辩题",
        "说法",
        "一点",
        "这种",
        "那种",
        "那么",
        "这样",
        "那样",
        "因此",
        "虽然",
        "然后",
        "而是",
        "以及",
        "或者",
        "并且",
        "不能",
        "不会",
        "需要",
        "可能",
        "能够",
        "一定",
        "当然",
        "恰恰",
        "说明",
        "证明",
        "事实",
        "本身",
        "问题",
        "一样",
        "之后",
        "之前",
        "以后",
        "以前",
        "今天",
        "最后",
        "首先",
        "其次",
        "总之",
    ]
)
EN_COMMON_WORDS = _words(
    """time year people way day man woman thing life child children world school state family
    student group country problem hand part place case week company system program question
    work government number night point home water room mother father area money story fact
    month lot right study book eye job word business issue side kind head house service friend
    power hour game line end member law car city community name president team minute idea kid
    body information back parent face level office door health person art war history party
    result change morning reason research girl boy guy moment air teacher force education food
    land price market cost costs pay paid paying rate tax money billion million thousand hundred
    dozen percent per cent half third quarter one two three four five six seven eight nine ten
    eleven twelve twenty thirty forty fifty first second last next new old good bad big small
    large little long short high low great best better worse worst real true whole full free
    own other same different important public private local national general major main
    possible able clear sure simple hard easy early late young far near whole certain recent
    today yesterday tomorrow now ever never always often sometimes usually already soon later
    year's years ago since until during across along around per each every many much more most
    less few several some any all both either neither such own very also just still even
    know think see want use find give tell ask seem feel try leave call need become keep begin
    help talk turn start show hear play run move like live believe hold bring happen write
    provide sit stand lose spend grow open walk win offer remember love consider appear buy
    wait serve die send expect build stay fall cut reach kill remain suggest raise pass sell
    require report decide pull return explain hope develop carry break receive agree support
    hit produce eat cover catch draw choose cause follow set create speak read allow add lead
    understand mean put look come go get make take say work call try ask need feel become leave
    way ways thing things lot lots kind sort type part parts side sides place places
    everyone anyone someone nobody everybody somebody everything something anything nothing
    really quite rather pretty enough almost nearly simply actually basically especially
    honestly frankly clearly obviously certainly probably perhaps maybe indeed
    last week weekend month year summer winter spring autumn morning evening night"""
)
"""Very common English words: sharing one of them says little about sharing a subject."""
ZH_COMMON_BIGRAMS = _words(
    """时间 工作 国家 社会 发展 孩子 学生 学校 公司 人们 生活 经济 政府 城市 年轻 市场
    价格 一年 每年 每天 今年 去年 明年 现在 最近 以前 以后 一天 两天 几天 一次 一下
    很多 不少 一些 大家 我们 他们
    人员 问题 情况 方面 地方 东西 事情 时候 部分 全国 中国 世界 朋友 家庭 父母 老人 百分 之一
    十分 非常 特别 越来 来越 一直 已经 开始 觉得 知道 需要 希望 进行 成为 作为 出现 提高 增加
    减少 影响 重要 主要 一般 可能 能够 一定 必须 应当 进入 出来 起来 下来 上去 一个 一种 这样
    花钱 块钱 多少 很大 很好 很难 好处 坏处 结果 原因 办法 方式 角度 程度
    水平 标准 条件 环境"""
)
"""Very common Chinese bigrams, the counterpart of ``EN_COMMON_WORDS``."""
EN_NEGATIONS = _words("not no never nothing none nobody neither nor without n't")
ZH_NEGATIONS = ("不", "没", "无", "非", "未", "别", "莫", "勿")

_SUFFIXES = (
    ("ational", "ate"),
    ("ization", "ize"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("iveness", "ive"),
    ("ments", ""),
    ("ment", ""),
    ("ities", "ity"),
    ("ings", ""),
    ("ing", ""),
    ("ied", "y"),
    ("ies", "y"),
    ("edly", ""),
    ("ed", ""),
    ("ly", ""),
    ("es", ""),
    ("s", ""),
)
STEM_LENGTH = 7
"""Stems are cut to this many letters, so that 'regulation' and 'regulators' meet."""


@lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Unicode-normalised (full-width Latin and digits become ASCII), lower-case text."""
    return unicodedata.normalize("NFKC", text).lower().replace("’", "'")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stem: a common suffix and a final e stripped, then the word cut to
    seven letters ("saves", "saving" and "save" all become "sav")."""
    if word.endswith("'s"):
        word = word[:-2]
    for suffix, replacement in _SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < 3:
            continue
        if suffix == "es" and not word.endswith(("ses", "xes", "zes", "ches", "shes")):
            continue
        if suffix == "s" and word.endswith(("ss", "us", "is")):
            break
        word = word[: len(word) - len(suffix)] + replacement
        break
    word = word[:STEM_LENGTH]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@lru_cache(maxsize=1)
def common_terms() -> frozenset[str]:
    """The content terms of very common words (stemmed), for measures of shared subject."""
    return frozenset(stem(w) for w in EN_COMMON_WORDS) | ZH_COMMON_BIGRAMS


@lru_cache(maxsize=8192)
def latin_words(text: str) -> tuple[str, ...]:
    """The Latin-script words and numbers of a text, folded (cached: the content terms,
    the repetition vector and the word runs of a turn all start from them)."""
    return tuple(_LATIN_WORD.findall(fold(text)))


def cjk_runs(text: str) -> list[str]:
    """The runs of Chinese characters in a text."""
    if text.isascii():  # folding ASCII text leaves it ASCII: no Chinese character
        return []
    return _CJK_RUN.findall(fold(text))


class _TermTable(dict[str, str | None]):
    """Each folded Latin word's content term (its stem, or the number itself), or None
    for a word that is no content term: a stop word, a debate word, a single letter.
    Filled as words are first met and emptied at ``TERM_TABLE`` words, like ``stem``'s
    cache; it lets ``content_terms`` map a text's words in C."""

    def __missing__(self, word: str) -> str | None:
        if len(self) >= TERM_TABLE:
            self.clear()
        excluded = word in EN_STOPWORDS or word in EN_DEBATE_WORDS or len(word) < 2
        term = None if excluded else word if word.isdigit() else stem(word)
        self[word] = term
        return term


TERM_TABLE = 65536
_TERM_OF = _TermTable()


@lru_cache(maxsize=4096)
def content_terms(text: str) -> tuple[str, ...]:
    """What a text is about: stemmed English content words and numbers, and Chinese
    character bigrams without function characters or generic debate words."""
    # a term is never empty (a stem keeps at least one letter), so filter(None) drops
    # exactly the words that are no terms
    terms: list[str] = list(filter(None, map(_TERM_OF.__getitem__, latin_words(text))))
    for run in cjk_runs(text):
        for i in range(len(run) - 1):
            pair = run[i : i + 2]
            if pair in ZH_GENERIC_BIGRAMS or pair[0] in ZH_STOP_CHARS or pair[1] in ZH_STOP_CHARS:
                continue
            terms.append(pair)
    return tuple(terms)


NGRAM_CACHE = 1024
"""Texts whose n-gram counts are kept (``char_ngrams``, and ``wording`` apart). As a
dict, a 570-character turn's counts take about 115 KB; coded (``Wording``), about
16 bytes an n-gram, some 16 KB (docs/detectors.md, "Cost inside a debate")."""


def _flat(text: str) -> tuple[list[str], str]:
    """A text as ``char_ngrams`` reads it: its runs of Chinese characters, and its other
    words (ASCII letters and digits only) joined by single spaces, with punctuation
    folded into the spaces."""
    flat = _NON_TEXT.sub(" ", fold(text)).strip()
    runs: list[str] = []
    if not flat.isascii():  # only then can it hold Chinese
        runs = cjk_runs(flat)
        flat = _CJK_RUN.sub(" ", flat)
    return runs, " ".join(flat.split())


@lru_cache(maxsize=NGRAM_CACHE)
def char_ngrams(text: str) -> Counter[str]:
    """Counts of the character n-grams of a text: 3- to 5-grams of English (across word
    boundaries) and 1- to 3-grams of Chinese, over the text with punctuation folded into
    single spaces. ``similarity`` compares the same counts coded as numbers
    (``wording``); the competitive format's retrieval weighs these."""
    runs, latin = _flat(text)
    grams: Counter[str] = Counter()
    for run in runs:
        grams.update(_grams(run, 1, 3))
    if latin:
        grams.update(_grams(f" {latin} ", 3, 5))
    return grams


_SYMBOL = bytes(range(256)).translate(
    bytes.maketrans(b" abcdefghijklmnopqrstuvwxyz0123456789", bytes(range(1, 38)))
)
"""Each character of a flattened English text (a space, a-z, 0-9: ``_flat``) as a digit
1 to 37, so an n-gram of them is a number in base 64 with no leading zero: the number
says which n-gram it is and how long."""
_UNIT = 1 << 21
"""Above every Unicode code point: a Chinese n-gram of up to 3 characters is a number in
this base."""


class Wording:
    """A text's character n-gram counts (``char_ngrams``) as numbers: each n-gram's code,
    in order, its count, and the vector's length. An English n-gram's code is minus its
    base-64 number, a Chinese one's its number in base 2**21, so no two n-grams share a
    code; the cosine of two texts is then an exact integer dot product found by a
    sorted search in C, and a text takes about 16 bytes an n-gram instead of a dict's
    ninety."""

    __slots__ = ("codes", "counts", "norm")

    def __init__(self, codes: NDArray[np.int64], counts: NDArray[np.int64]) -> None:
        self.codes = codes
        self.counts = counts
        self.norm = math.sqrt(int(counts @ counts))


@lru_cache(maxsize=NGRAM_CACHE)
def wording(text: str) -> Wording:
    """The n-gram counts ``similarity`` compares (``char_ngrams``, coded: ``Wording``)."""
    import numpy as np  # imported on first use: start-up does not pay for it

    runs, latin = _flat(text)
    parts: list[NDArray[np.int64]] = []
    if latin:
        digits = np.frombuffer(f" {latin} ".encode("ascii").translate(_SYMBOL), np.uint8)
        value = digits.astype(np.int64)
        # each length's n-grams are the last length's with the next character added
        three = value[:-2] * 4096 + value[1:-1] * 64 + value[2:]
        four = three[:-1] * 64 + value[3:]
        five = four[:-1] * 64 + value[4:]
        parts += [-three, -four, -five]
    for run in runs:
        one = np.frombuffer(run.encode("utf-32-le"), np.uint32).astype(np.int64)
        two = one[:-1] * _UNIT + one[1:]
        parts += [one, two, two[:-1] * _UNIT + one[2:]]
    if not parts:
        empty = np.zeros(0, np.int64)
        return Wording(empty, empty)
    codes, counts = np.unique(np.concatenate(parts), return_counts=True)
    return Wording(codes, counts.astype(np.int64))


def _grams(text: str, low: int, high: int) -> list[str]:
    """The ``low``- to ``high``-character slices of ``text``: all of the shortest in
    order, then all of the next length, and so on. Each length's are the last one's
    with the next character added (``map`` in C: no Python loop, no slice objects)."""
    found: list[str] = []
    grams: Iterable[str] = text
    for n in range(1, high + 1):
        if n > 1:
            grams = list(map(add, grams, text[n - 1 :]))
        if n >= low:
            found.extend(grams)
    return found


def norm(vector: Mapping[str, int]) -> float:
    """The Euclidean length of a count vector."""
    values = vector.values()
    return math.sqrt(sum(map(mul, values, values)))


def cosine(
    a: Mapping[str, int],
    b: Mapping[str, int],
    norm_a: float | None = None,
    norm_b: float | None = None,
) -> float:
    """The cosine of two count vectors (0.0 when either is empty); their norms may be
    given when already known."""
    if not a or not b:
        return 0.0
    if len(a) > len(b):
        a, b, norm_a, norm_b = b, a, norm_b, norm_a
    # counts are integers, so the dot product is exact in any order; map keeps the
    # loop in C (this runs on every pair of turns compared): the smaller vector's
    # counts times the other's (0 where it has none)
    dot: int = sum(map(mul, a.values(), map(b.get, a, repeat(0))))
    return dot / ((norm_a or norm(a)) * (norm_b or norm(b)))


def similarity(a: str, b: str) -> float:
    """How alike two texts are in wording, 0.0 to 1.0: the cosine of their character
    n-gram counts (``char_ngrams``), computed on their codes (``wording``)."""
    import numpy as np

    first, second = wording(a), wording(b)
    if not first.norm or not second.norm:
        return 0.0
    small, large = (first, second) if len(first.codes) <= len(second.codes) else (second, first)
    # where each of the smaller vector's codes would sit in the larger one: those found
    # there are the n-grams both texts hold
    at = np.searchsorted(large.codes, small.codes)
    at[at == len(large.codes)] = 0
    shared = large.codes[at] == small.codes
    dot = int(small.counts[shared] @ large.counts[at[shared]])
    return dot / (small.norm * large.norm)


def coverage(terms: Iterable[str], pool: set[str] | frozenset[str]) -> float:
    """The share of distinct ``terms`` found in ``pool`` (0.0 when there are none)."""
    distinct = set(terms)
    return len(distinct & pool) / len(distinct) if distinct else 0.0


def polarity(text: str) -> int:
    """1 if the text has an odd number of negations, else 0 (for comparing whether two
    statements say a thing or its opposite)."""
    folded = fold(text)
    count = sum(1 for w in latin_words(folded) if w in EN_NEGATIONS or w.endswith("n't"))
    count += sum(folded.count(n) for n in ZH_NEGATIONS)
    return count % 2


def split_sentences(text: str) -> list[str]:
    """Sentences, split after . ! ? (and their Chinese forms) and at line breaks."""
    return list(_sentences(text))


@lru_cache(maxsize=8192)
def _sentences(text: str) -> tuple[str, ...]:
    """``split_sentences``, cached: every detector reads a turn's sentences."""
    parts: list[str] = []
    for line in text.splitlines():
        parts.extend(sentences(line))
    return tuple(parts)


_SENTENCE_MARK = re.compile(r"[.!?。！？]")
QUESTION_MARKS = re.compile(r"[?？]")
"""A text with one of these asks a question."""


def to_sentence_mark(text: str, start: int) -> str:
    """``text`` from ``start`` up to its next sentence mark (. ! ? 。 ！ ？), or to its end:
    ``re.split(r"[.!?。！？]", text[start:], maxsplit=1)[0]`` without copying the rest."""
    found = _SENTENCE_MARK.search(text, start)
    return text[start : len(text) if found is None else found.start()]


def clauses(sentence: str) -> list[str]:
    """A sentence cut at contrast words (but, however, 但是...) and semicolons, so that a
    negation in one clause does not reach into the next."""
    return [c.strip() for c in _CLAUSE_BREAK.split(sentence) if c and c.strip()]


def without_quotes(text: str) -> str:
    """The text with quoted passages blanked: quoted words are not the speaker's own."""
    return _QUOTED.sub(" … ", text)


def shorten(text: str, limit: int = 160) -> str:
    """One line of at most ``limit`` characters, cut with an ellipsis after its last
    whole word ("compreh…" read as a word of its own). A line without a space in its
    second half (Chinese, one long token) is cut at the limit."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    head = line[: limit - 1]
    if head and _inside_word(head[-1]) and _inside_word(line[limit - 1]):
        space = head.rfind(" ")
        if space >= limit // 2:
            head = head[:space]
    return head.rstrip() + "…"


def _inside_word(char: str) -> bool:
    """A letter or digit of a spaced script: cutting between two of them splits a word."""
    return char.isalnum() and not _CJK_RUN.match(char)
