"""One full debate on the embedded model (SmolLM2-135M, llama.cpp in-process).

Reports what the run cost: wall time, calls, re-asks, real prompt and completion
tokens (the model's own counts) and how many protocol-rule warnings it left.

    python benchmarks/embedded_debate.py [--lang en|zh] [--seed 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from moot import run_debate

TOPICS = {
    "en": "Should a 10-person startup adopt microservices from day one?",
    "zh": "冬季旅行应该去海南还是去东北？",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=sorted(TOPICS), default="en")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    result = run_debate(TOPICS[args.lang], model="local", lang=args.lang, seed=args.seed)
    report = {
        "lang": args.lang,
        "seed": args.seed,
        "wall_seconds": round(time.perf_counter() - started, 1),
        "calls": result.usage.calls,
        "reasks": result.usage.reasks,
        "prompt_tokens": result.usage.prompt_tokens,
        "completion_tokens": result.usage.completion_tokens,
        "arguments": len(result.arguments),
        "warnings": len(result.warnings),
    }
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(
            f"{args.lang}, seed {args.seed}: {report['wall_seconds']} s, {report['calls']} calls"
            f" ({report['reasks']} re-asks), {report['prompt_tokens']} prompt +"
            f" {report['completion_tokens']} completion tokens, {report['arguments']}"
            f" arguments, {report['warnings']} rule warnings"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
