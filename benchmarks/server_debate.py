"""One full debate against llama.cpp's own HTTP server on the embedded model.

Starts llama.cpp's server (the code of ``llama-server``, from xllamacpp's prebuilt
wheel: tools/xllamacpp_server.py) on the SmolLM2 GGUF, runs a seeded structured
debate through moot's OpenAI-compatible backend, and reports wall time, calls,
re-asks, tokens, the structured-output mode the server was used in, any schema
fallback, and whether the server logged a schema error. ``--timeout`` bounds each
request (moot's default is 120 s; a busy CPU may need more).

    python benchmarks/server_debate.py [--seed 7] [--timeout 120] [--profile compact] [--json]

``--profile`` is moot's model profile (compact, the default here, is what the embedded
backend picks for this 135M model; standard gives longer schemas and re-asks rules).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import xllamacpp_server
from moot import run_debate
from moot.errors import MootError
from moot.llm.local import embedded_model_path
from moot.llm.openai import DEFAULT_TIMEOUT, OpenAIBackend
from moot.profiles import PROFILES

TOPIC = "Should a 10-person startup adopt microservices from day one?"
SCHEMA_ERRORS = re.compile(
    r"JSON schema error|Unable to generate parser|failed to parse grammar", re.IGNORECASE
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    parser.add_argument("--profile", default="compact", choices=sorted(PROFILES))
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        with xllamacpp_server.serve(embedded_model_path(), log=log) as root:
            backend = OpenAIBackend("smollm", base_url=f"{root}/v1", timeout=args.timeout)
            started = time.perf_counter()
            report: dict[str, object] = {
                "seed": args.seed,
                "timeout": args.timeout,
                "profile": args.profile,
            }
            try:
                result = run_debate(TOPIC, model=backend, seed=args.seed, profile=args.profile)
            except MootError as exc:
                report["outcome"] = f"{type(exc).__name__}: {exc}"
            else:
                report["outcome"] = "done (exit 0)"
                report.update(
                    calls=result.usage.calls,
                    reasks=result.usage.reasks,
                    prompt_tokens=result.usage.prompt_tokens,
                    completion_tokens=result.usage.completion_tokens,
                    warnings=len(result.warnings),
                    fallbacks=[f.model_dump() for f in result.usage.structured_fallbacks],
                )
            report["wall_seconds"] = round(time.perf_counter() - started, 1)
            report["structured_mode"] = backend.structured_mode
            errors = SCHEMA_ERRORS.findall(log.read_text(encoding="utf-8", errors="replace"))
            report["server_schema_errors"] = len(errors)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
