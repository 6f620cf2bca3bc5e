"""Full debates on the embedded model (SmolLM2-135M, llama.cpp in a worker process):
where the time goes, and what the compact profile and the first-try grammar sampler
save.

For each runtime, language and seed it runs one debate and reports wall time, calls and
re-asks, real prompt and completion tokens (the model's own counts), and the time
split the worker measured: prompt evaluation, token generation, and the rest of the
calls (sampling, grammar, Python), plus the seconds spent in re-asks and the rule
warnings left. With ``--compare`` it also runs the configuration of the previous
release (standard profile: longer fields, 3-5 arguments, rule re-asks; llama-cpp-
python's own grammar sampler) on the same topics and seeds and prints both.

    python benchmarks/embedded_debate.py [--lang en,zh] [--seeds 1,2,3,4,5] [--compare]
        [--runtime xllamacpp,llama-cpp-python] [--json] [--calls]

By default it runs five seeds in English and Chinese on the default runtime and
prints every seed, the median and the slowest seed per language (the time targets
hold at every seed, not only the median). ``--runtime`` names the runtimes to
compare on the same debates (``xllamacpp``: prebuilt llama.cpp server in process;
``llama-cpp-python``: built from source).

``--calls`` also prints one row per model call: its round and attempt, the prompt's
tokens, how many of them llama.cpp really evaluated (the rest came from the prefix
it kept from the previous call), and the seconds of prompt evaluation and generation.

Timings depend on the machine: run it on an otherwise idle one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from moot import MootError, run_debate
from moot.events import CallFinished, Event
from moot.llm.local import LocalBackend, Runtime, choose_runtime
from moot.schema import DebateResult

TOPICS = {
    "en": "Should a 10-person startup adopt microservices from day one?",
    "zh": "小型创业公司是否应该从第一天就采用微服务架构？",
}
PREVIOUS_RELEASE = {"en": 244.0, "zh": 461.0}
"""Seconds per debate of the release before the worker (commit 824b348, seed 7, this
benchmark's predecessor on a 2-core machine), for reference only."""


@dataclass(frozen=True)
class Config:
    name: str
    profile: str
    sampler: Literal["first_try", "library"]
    runtime: Runtime | None = None


def after(runtime: Runtime) -> Config:
    """Today's configuration on ``runtime``."""
    return Config(f"{runtime}: compact", "compact", "first_try", runtime)


BEFORE = Config("previous: standard + library sampler", "standard", "library", "llama-cpp-python")


@dataclass
class Run:
    config: str
    lang: str
    seed: int
    wall_seconds: float
    calls: int
    reasks: int
    prompt_tokens: int
    evaluated_tokens: int
    """Prompt tokens llama.cpp evaluated; the rest were reused from the previous call."""
    completion_tokens: int
    prompt_eval_seconds: float
    generation_seconds: float
    other_call_seconds: float
    reask_seconds: float
    warnings: int
    arguments: int
    status: str
    """``ok``, or the error that stopped the debate (what ``moot run`` exits non-zero on)."""
    calls_detail: list[Call] = field(default_factory=list)


@dataclass
class Call:
    """One model call of a run."""

    round: str
    side: str
    attempt: int
    prompt_tokens: int
    evaluated_tokens: int
    prompt_eval_seconds: float
    completion_tokens: int
    generation_seconds: float

    @classmethod
    def of(cls, event: CallFinished) -> Call:
        t = event.timings or {}
        return cls(
            round=event.context.round,
            side=event.context.side or "-",
            attempt=event.context.attempt,
            prompt_tokens=event.usage.prompt_tokens,
            evaluated_tokens=int(t.get("prompt_eval_tokens", 0)),
            prompt_eval_seconds=round(t.get("prompt_eval_ms", 0.0) / 1000, 1),
            completion_tokens=event.usage.completion_tokens,
            generation_seconds=round(t.get("generation_ms", 0.0) / 1000, 1),
        )


def run_one(config: Config, lang: str, seed: int) -> Run:
    finished: list[CallFinished] = []

    def listen(event: Event) -> None:
        if isinstance(event, CallFinished) and event.error is None:
            finished.append(event)

    backend = LocalBackend(seed=seed, sampler=config.sampler, runtime=config.runtime)
    started = time.perf_counter()
    result: DebateResult | None = None
    status = "ok"
    try:
        result = run_debate(
            TOPICS[lang],
            model=backend,
            lang=lang,
            seed=seed,
            profile=config.profile,
            on_event=listen,
        )
    except MootError as exc:
        status = f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
    finally:
        backend.stop()
    wall = time.perf_counter() - started
    timings = [e.timings or {} for e in finished]
    prompt_eval = sum(t.get("prompt_eval_ms", 0.0) for t in timings) / 1000
    generation = sum(t.get("generation_ms", 0.0) for t in timings) / 1000
    in_calls = sum(t.get("seconds", 0.0) for t in timings)
    reask = sum((e.timings or {}).get("seconds", 0.0) for e in finished if e.context.attempt > 1)
    calls = [Call.of(e) for e in finished]
    return Run(
        config=config.name,
        lang=lang,
        seed=seed,
        wall_seconds=round(wall, 1),
        calls=result.usage.calls if result else len(finished),
        reasks=result.usage.reasks if result else 0,
        prompt_tokens=sum(e.usage.prompt_tokens for e in finished),
        evaluated_tokens=sum(c.evaluated_tokens for c in calls),
        completion_tokens=sum(e.usage.completion_tokens for e in finished),
        prompt_eval_seconds=round(prompt_eval, 1),
        generation_seconds=round(generation, 1),
        other_call_seconds=round(in_calls - prompt_eval - generation, 1),
        reask_seconds=round(reask, 1),
        warnings=len(result.warnings) if result else 0,
        arguments=len(result.judgement.scores) if result else 0,
        status=status,
        calls_detail=calls,
    )


COLUMNS = (
    ("wall_seconds", "wall s"),
    ("calls", "calls"),
    ("reasks", "re-asks"),
    ("prompt_tokens", "prompt tok"),
    ("evaluated_tokens", "evaluated tok"),
    ("completion_tokens", "compl tok"),
    ("prompt_eval_seconds", "prompt s"),
    ("generation_seconds", "gen s"),
    ("other_call_seconds", "other s"),
    ("reask_seconds", "re-ask s"),
    ("warnings", "warnings"),
    ("status", "status"),
)


def table(runs: list[Run]) -> str:
    lines = [" | ".join(["configuration", "lang", "seed", *(label for _, label in COLUMNS)])]
    for r in runs:
        row = asdict(r)
        lines.append(
            " | ".join([r.config, r.lang, str(r.seed), *(str(row[key]) for key, _ in COLUMNS)])
        )
    groups: dict[tuple[str, str], list[Run]] = {}
    for r in runs:
        groups.setdefault((r.config, r.lang), []).append(r)
    for (config, lang), group in groups.items():
        ok = [r for r in group if r.status == "ok"] or group
        medians = [
            f"{statistics.median(float(asdict(r)[key]) for r in ok):g}"
            for key, _ in COLUMNS
            if key != "status"
        ]
        medians.append(f"{len(ok) if ok is not group else 0}/{len(group)} ok")
        lines.append(" | ".join([config, lang, "median", *medians]))
        slowest = max(group, key=lambda r: r.wall_seconds)
        lines.append(
            f"{config} | {lang} | slowest | {slowest.wall_seconds:g} s at seed {slowest.seed}"
        )
    for lang, seconds in PREVIOUS_RELEASE.items():
        lines.append(f"(previous release, {lang}, seed 7: {seconds:g} s wall, recorded)")
    return "\n".join(lines)


def call_table(runs: list[Run]) -> str:
    names = [f.name for f in fields(Call)]
    lines = [" | ".join(["lang", "seed", *names])]
    for r in runs:
        for c in r.calls_detail:
            row = asdict(c)
            lines.append(" | ".join([r.lang, str(r.seed), *(str(row[n]) for n in names)]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en,zh", help="comma-separated: en,zh")
    parser.add_argument("--seeds", default="1,2,3,4,5", help="comma-separated seeds")
    parser.add_argument(
        "--runtime", default="", help="comma-separated runtimes (default: the default one)"
    )
    parser.add_argument("--compare", action="store_true", help="also run the previous config")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--calls", action="store_true", help="also print one row per call")
    args = parser.parse_args(argv)
    langs = [lang for lang in args.lang.split(",") if lang]
    seeds = [int(s) for s in args.seeds.split(",") if s]
    runtimes = [r for r in args.runtime.split(",") if r] or [choose_runtime()]
    configs = [after(choose_runtime(r)) for r in runtimes]
    if args.compare:
        configs.append(BEFORE)
    runs: list[Run] = []
    # the configurations alternate on each debate, so a change in the machine's load
    # falls on all of them alike
    for lang in langs:
        for seed in seeds:
            for config in configs:
                done = run_one(config, lang, seed)
                runs.append(done)
                # each run's figures as soon as it ends: a stopped benchmark keeps them
                print(f"done: {json.dumps(asdict(done), ensure_ascii=False)}", file=sys.stderr)
    if args.json:
        report: dict[str, Any] = {"runs": [asdict(r) for r in runs]}
        json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(table(runs))
        if args.calls:
            print()
            print(call_table(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
