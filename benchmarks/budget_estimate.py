"""How generous the budget's prompt estimate is on the embedded model's tokenizer.

The budget reserves ``estimate_prompt_tokens`` before each call; it must never be
below the real count. This runs the prompts of a full demo debate (every round, en
and zh) through SmolLM2's tokenizer and reports real / estimate (1.0 would be exact,
above 1.0 a budget that could be overshot). The tokens are counted by the embedded
runtime moot runs (xllamacpp by default, llama-cpp-python when installed and asked
for with MOOT_LOCAL_RUNTIME), in its worker process.

    python benchmarks/budget_estimate.py
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import moot
from moot.llm.budget import estimate_prompt_tokens
from moot.llm.local import LocalBackend
from moot.llm.scripted import DemoBackend, ScriptedBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec

TOPICS = {
    "en": "Should a 10-person startup adopt microservices from day one?",
    "zh": "冬季旅行应该去海南还是去东北？",
}


def debate_prompts(lang: str) -> list[tuple[list[Message], OutputSpec | None]]:
    """Every request of one demo debate in ``lang``."""
    demo = DemoBackend(seed=1)
    requests: list[tuple[list[Message], OutputSpec | None]] = []

    async def answer(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> Completion:
        requests.append((list(messages), schema))
        return await demo.generate(messages, schema=schema, settings=settings, context=context)

    moot.run_debate(TOPICS[lang], model=ScriptedBackend(answer), lang=lang, seed=1)
    return requests


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.parse_args(argv)
    backend = LocalBackend()
    try:
        for lang in TOPICS:
            ratios = [
                sum(n + 5 for n in backend.count_tokens([m.content for m in messages]))
                / estimate_prompt_tokens(messages, schema)
                for messages, schema in debate_prompts(lang)
            ]
            print(
                f"{lang}: {len(ratios)} prompts, real/estimate max {max(ratios):.2f},"
                f" mean {sum(ratios) / len(ratios):.2f}"
            )
    finally:
        backend.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
