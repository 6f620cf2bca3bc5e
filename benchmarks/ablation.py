"""The competitive ablation on a real model: what each component contributes.

The full debater (rehearsal tree and flow tree) meets each ablated one in turn
(``no-rehearsal``, ``no-flow``, ``baseline``: neither tree) in ``--debates``
competitive debates per pairing, over a fixed set of motions taken in turn, sides
alternating (the full debater argues pro in the odd-numbered debates), seed
``--seed`` + the debate's number. It reports, per pairing, the full debater's win
rate over the decided debates with its 95% Wilson interval by the verdict, the
Oxford vote and the stages (``moot.formats.competitive.tournament``), the debates
that produced no result (a reply that never validated, a timeout: the model could
not play the format), and each configuration's moves (the action analysis of
``moot.formats.competitive.analysis``) summed over its debates.

Every finished debate's result is written to ``--out DIR`` as it ends (with
``games.jsonl``, one line per debate, played or failed), so a long run can be
summarised while it goes or after it stops: ``--summarise DIR [DIR ...]`` reads the
directories (several runs' games together, e.g. one process per pairing against one
server) and prints the tables without running anything. Each line also keeps the
machine's 1-minute load average when the debate ended (``load``), which the table
shows beside the seconds.

    python benchmarks/ablation.py --model local --debates 4 --out ablation/
    python benchmarks/ablation.py --model 'openai:MODEL' --debates 20 --out ablation/
    python benchmarks/ablation.py --model 'openai:smollm2@http://127.0.0.1:8080/v1' \
        --profile compact --out ablation/      # llama-server serving the embedded model
    # llama.cpp's server from the xllamacpp wheel (prints "listening on URL"), and one
    # process per pairing against it, so that its slots decode the three together:
    python tools/xllamacpp_server.py --model SmolLM2-135M-Instruct.Q4_1.gguf \
        --ctx-size 32768 &
    for c in no-rehearsal no-flow baseline; do
        python benchmarks/ablation.py --model 'openai:smollm2@URL/v1' --profile compact \
            --debates 2 --against $c --out ablation-$c/ &
    done; wait
    python benchmarks/ablation.py --summarise ablation-*/
    # (--first N plays debates N..--debates only: more processes, same debates)
    python benchmarks/ablation.py --summarise ablation/ [more/ ...] [--json]

Defaults are short (stages of 30 s, a rehearsal tree of two claims, one rebuttal per
node, depth 1, three voters) so the embedded model plays a debate in minutes; any
OpenAI-compatible endpoint (``--model openai:...``, or llama.cpp's ``llama-server``
serving the embedded model) runs the same benchmark unchanged.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from moot.debate import run_debate
from moot.errors import BackendError, ModelOutputError
from moot.formats.competitive.analysis import ACTIONS, ActionAnalysis, analyse, config_moves
from moot.formats.competitive.payload import CompetitivePayload
from moot.formats.competitive.tournament import (
    Game,
    Standing,
    game_options,
    game_sides,
    score_game,
    standings_of,
)
from moot.formats.competitive.trees.sides import SIDES, Side
from moot.formats.competitive.trees.stages import STAGES
from moot.options import RunOptions
from moot.schema import DebateResult

MOTIONS = (
    "Should cities ban cars from their centres?",
    "Should homework be abolished in primary schools?",
    "Should social media platforms verify the age of their users?",
    "Should governments fund space exploration over ocean research?",
)
FULL = "full"
ABLATED = ("no-rehearsal", "no-flow", "baseline")


def _options(args: argparse.Namespace) -> RunOptions:
    return RunOptions(
        model=args.model,
        profile=args.profile,
        lang=args.lang,
        max_reasks=args.max_reasks,
        timeout=args.timeout,
        format_options={
            "stage_seconds": dict.fromkeys(STAGES, args.stage_seconds),
            "claims": args.claims,
            "branching": args.branching,
            "depth": args.depth,
            "voters": args.voters,
            "embedder": args.embedder,
        },
    )


def play(args: argparse.Namespace, out: Path) -> None:
    """Every pairing's debates, one after another; each result and a line per game
    written as it ends."""
    out.mkdir(parents=True, exist_ok=True)
    options = _options(args)
    log = out / "games.jsonl"
    # the pairings take turns, so a run stopped early has played each about as often
    for number in range(args.first, args.debates + 1):
        for other in args.against:
            configs = (FULL, other)
            sides = game_sides(configs, number)
            seed = args.seed + number
            topic = MOTIONS[(number - 1) % len(MOTIONS)]
            name = f"{other}-{number:02d}"
            started = time.perf_counter()
            line: dict[str, Any] = {"pairing": other, "number": number, "sides": sides}
            try:
                result = run_debate(topic, game_options(options, sides, seed), store=None)
            except (ModelOutputError, BackendError) as exc:  # the model could not play
                text = str(exc)
                line |= {
                    "failed": type(exc).__name__,
                    "reason": text.splitlines()[0],
                    "detail": text[:1000],
                }
            else:
                (out / f"{name}.json").write_text(result.model_dump_json(), encoding="utf-8")
                game = score_game(number, topic, seed, None, sides, result)
                line |= {"game": game.model_dump(), "result": f"{name}.json"}
            line["seconds"] = round(time.perf_counter() - started, 1)
            line["load"] = round(os.getloadavg()[0], 2)
            with log.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(line) + "\n")
            print(json.dumps(line), file=sys.stderr, flush=True)


def _lines(outs: Sequence[Path]) -> list[dict[str, Any]]:
    """Every game line of the directories ``outs``, in order, each with its directory
    (``dir``) to find its result in."""
    lines: list[dict[str, Any]] = []
    for out in outs:
        text = (out / "games.jsonl").read_text("utf-8")
        lines += [json.loads(t) | {"dir": str(out)} for t in text.splitlines() if t]
    return lines


def summarise(*outs: Path) -> dict[str, Any]:
    """The tables of the games in ``outs`` (one run's directory, or several runs'
    together): per pairing, the standings, the failures, the seconds per debate and
    the load averages they were played at, and each configuration's moves."""
    lines = _lines(outs)
    pairings: dict[str, Any] = {}
    for other in dict.fromkeys(line["pairing"] for line in lines):
        mine = [line for line in lines if line["pairing"] == other]
        games = [Game.model_validate(line["game"]) for line in mine if "game" in line]
        moves: dict[str, list[tuple[ActionAnalysis, Side]]] = {FULL: [], other: []}
        for line in mine:
            if "result" not in line:
                continue
            path = Path(line["dir"]) / line["result"]
            result = DebateResult.model_validate_json(path.read_text("utf-8"))
            body = CompetitivePayload.model_validate(result.body)
            analysis = body.action_analysis or analyse(body)
            for side in SIDES:
                moves[line["sides"][side]].append((analysis, side))
        standings: list[Standing] = standings_of((FULL, other), games)
        pairings[other] = {
            "debates": len(mine),
            "played": len(games),
            "failed": [line["failed"] + ": " + line["reason"] for line in mine if "failed" in line],
            "seconds": [line["seconds"] for line in mine],
            "load": [line["load"] for line in mine if "load" in line],
            "full": standings[0].model_dump(),
            "moves": {c: config_moves(c, a).model_dump() for c, a in moves.items() if a},
        }
    return {"pairings": pairings}


def table(summary: dict[str, Any]) -> str:
    """The Markdown tables docs/competitive.md shows: the full debater's results
    against each ablation, then each configuration's moves."""
    rows = [
        "| full vs | debates | no result | verdict | audience vote | stages | median s / debate"
        " | 1-min load |",
        "|---|---|---|---|---|---|---|---|",
    ]
    moves = [
        "| pairing | debater | moves | propose | attack | rebut | reinforce | attack / rebut"
        " | from the rehearsal |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for other, p in summary["pairings"].items():
        cells = []
        for measure in ("verdict", "vote", "stages"):
            t = p["full"][measure]
            rate = "-" if t["rate"] is None else f"{t['rate']:.2f}"
            low, high = t["interval"]
            cells.append(
                f"{t['wins']}-{t['losses']}-{t['undecided']}: {rate} [{low:.2f}, {high:.2f}]"
            )
        median = f"{statistics.median(p['seconds']):.0f}" if p["seconds"] else "-"
        load = f"{min(p['load']):.1f}-{max(p['load']):.1f}" if p["load"] else "-"
        failed = len(p["failed"])
        rows.append(
            f"| {other} | {p['debates']} | {failed} | {' | '.join(cells)} | {median} | {load} |"
        )
        for config, m in p["moves"].items():
            shares = " | ".join(f"{m['moves']['shares'][a]:.0%}" for a in ACTIONS)
            ratio = "-" if m["attack_to_rebut"] is None else f"{m['attack_to_rebut']:.2f}"
            reuse = "-" if m["rehearsal_share"] is None else f"{m['rehearsal_share']:.0%}"
            moves.append(
                f"| {other} | {config} | {m['moves']['total']} | {shares} | {ratio} | {reuse} |"
            )
    return "\n".join([*rows, "", *moves])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--model", default="local")
    parser.add_argument("--lang", default="en")
    parser.add_argument(
        "--profile", default=None, choices=["standard", "compact"], help="model profile"
    )
    parser.add_argument("--debates", type=int, default=4, help="debates per pairing")
    parser.add_argument(
        "--first",
        type=int,
        default=1,
        help="play debates FIRST..DEBATES only (the same motions, sides and seeds as in a"
        " whole run: two processes can split a run's debates between them)",
    )
    parser.add_argument("--against", nargs="+", default=list(ABLATED), choices=ABLATED)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stage-seconds", type=float, default=30.0)
    parser.add_argument("--claims", type=int, default=2)
    parser.add_argument("--branching", type=int, default=1)
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--voters", type=int, default=3)
    parser.add_argument("--embedder", default="auto", choices=["auto", "lexical"])
    parser.add_argument("--max-reasks", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=None)
    parser.add_argument("--out", type=Path, default=Path("ablation"))
    parser.add_argument(
        "--summarise", type=Path, nargs="+", default=None, help="only summarise DIR [DIR ...]"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    outs = args.summarise or [args.out]
    if args.summarise is None:
        play(args, args.out)
    summary = summarise(*outs)
    print(json.dumps(summary, indent=2) if args.json else table(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
