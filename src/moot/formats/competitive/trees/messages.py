"""The trees' words in each language: the labels of the indented renderings and the
reasons an action is refused (what a debater is told when it is asked again).
Same shape as ``moot.i18n``."""

from __future__ import annotations

from typing import Final

CATALOG: Final[dict[str, dict[str, str]]] = {
    "en": {
        "side.pro": "Pro",
        "side.con": "Con",
        "support": "support",
        "attack": "attack",
        "strength": "f{k}",
        "rehearsal.claim": "claim",
        "flow.proposed": "proposed",
        "flow.attacked": "attacked",
        "flow.visits": "visits",
        "flow.empty": "(no claims yet)",
        "action.propose": "propose",
        "action.attack": "attack",
        "action.rebut": "rebut",
        "action.reinforce": "reinforce",
        "illegal.propose_stage": "`propose` is allowed only in the opening, not in the {stage}:"
        " attack, rebut or reinforce an existing claim instead.",
        "illegal.propose_target": "`propose` puts forward a new claim and takes no target;"
        " remove the target {target}.",
        "illegal.no_target": "`{action}` needs a target: the id of the claim it answers.",
        "illegal.unknown_target": "`{action}` targets {target}, which is not in the flow tree;"
        " use one of its ids: {known}.",
        "illegal.attack_own": "`attack` must target a claim of the other side, but {target} is"
        " yours: use `reinforce` to strengthen your own claim.",
        "illegal.attack_on_you": "{target} is the other side's attack on your claim: answer it"
        " with `rebut`, not `attack`.",
        "illegal.rebut_own": "`rebut` answers the other side's attack on you, but {target} is"
        " yours: use `reinforce` to strengthen your own claim.",
        "illegal.rebut_not_attack": "`rebut` answers an attack on your claims, but {target} is"
        " in the other side's line of argument: use `attack` instead.",
        "illegal.rebut_not_newest": "`rebut` may answer only the other side's newest attack on"
        " you{newest}; {target} is not it. Reinforce your claim instead.",
        "illegal.rebut_newest_is": " ({newest})",
        "illegal.reinforce_other": "`reinforce` strengthens your own claims, but {target} is"
        " the other side's: use `attack` or `rebut` to answer it.",
        "illegal.empty_claim": "`{action}` needs a claim: state it in one sentence.",
    },
    "zh": {
        "side.pro": "正方",
        "side.con": "反方",
        "support": "支持",
        "attack": "攻击",
        "strength": "f{k}",
        "rehearsal.claim": "主张",
        "flow.proposed": "已提出",
        "flow.attacked": "被攻击",
        "flow.visits": "访问",
        "flow.empty": "（尚无主张）",
        "action.propose": "提出",
        "action.attack": "攻击",
        "action.rebut": "反驳",
        "action.reinforce": "加强",
        "illegal.propose_stage": "`propose`（提出新主张）只能在开篇阶段使用，现在是{stage}阶段："
        "请改为攻击、反驳或加强已有的主张。",
        "illegal.propose_target": "`propose` 提出新主张，不需要目标；请删除目标 {target}。",
        "illegal.no_target": "`{action}` 需要一个目标：它所回应的主张的编号。",
        "illegal.unknown_target": "`{action}` 的目标 {target} 不在辩论流程树中；"
        "请使用其中的编号：{known}。",
        "illegal.attack_own": "`attack` 只能针对对方的主张，而 {target} 是你方的："
        "加强你方主张请用 `reinforce`。",
        "illegal.attack_on_you": "{target} 是对方对你方主张的攻击："
        "请用 `rebut` 回应，而不是 `attack`。",
        "illegal.rebut_own": "`rebut` 回应对方对你方的攻击，而 {target} 是你方的："
        "加强你方主张请用 `reinforce`。",
        "illegal.rebut_not_attack": "`rebut` 回应对你方主张的攻击，"
        "而 {target} 属于对方的论证线：请改用 `attack`。",
        "illegal.rebut_not_newest": "`rebut` 只能回应对方对你方最新的攻击{newest}；"
        "{target} 不是。请改为加强你方的主张。",
        "illegal.rebut_newest_is": "（{newest}）",
        "illegal.reinforce_other": "`reinforce` 加强你方自己的主张，而 {target} 是对方的："
        "请用 `attack` 或 `rebut` 回应。",
        "illegal.empty_claim": "`{action}` 需要一个主张：请用一句话说明。",
    },
}

STAGE_NAMES: Final[dict[str, dict[str, str]]] = {
    "en": {"opening": "opening", "rebuttal": "rebuttal", "closing": "closing"},
    "zh": {"opening": "开篇", "rebuttal": "反驳", "closing": "结辩"},
}


def message(lang: str, key: str, **values: object) -> str:
    """One message in ``lang`` (English for an unknown language), formatted with ``values``."""
    return CATALOG.get(lang, CATALOG["en"])[key].format(**values)
