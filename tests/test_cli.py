"""The ``moot`` command on the offline ``scripted:demo`` model.

Click >= 8.2 keeps the streams apart in ``CliRunner``: ``result.stdout`` is what the
command wrote to standard output, ``result.stderr`` what it wrote to standard error,
and ``result.output`` both interleaved as a terminal would show them.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import moot
from moot.cli import app
from moot.errors import BackendError
from moot.formats.freeform.rounds import SpeechCall
from moot.formats.structured.replies import ArgumentDraft, OpeningReply
from moot.formats.structured.rounds import ClosingCall, CrossExamCall, OpeningCall
from moot.judging.judge import JudgeCall
from moot.llm.backend import Backend, ProviderFactory
from moot.llm.scripted import DemoBackend, ScriptedBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.schema import SCHEMA_VERSION, DebateResult

TOPIC = "Cities should charge cars a congestion fee"
ZH_TOPIC = "城市应当对进入市中心的汽车征收拥堵费"
SEED = 7
TOP_LEVEL_KEYS = {
    "schema_version",
    "format",
    "topic",
    "lang",
    "seed",
    "models",
    "positions",
    "judgement",
    "detectors",
    "warnings",
    "usage",
    "payload",
}


def _moot(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _run(*extra: str, topic: str = TOPIC) -> Result:
    return _run_with("scripted:demo", *extra, topic=topic)


def _run_with(model: str, *extra: str, topic: str = TOPIC) -> Result:
    return _moot("run", topic, "--model", model, "--seed", str(SEED), *extra)


def _flat(text: str) -> str:
    """Rich wraps stderr lines at the console width; fold white space for matching."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def en_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    path = tmp_path_factory.mktemp("cli") / "out" / "result.json"
    return _run("--json", str(path)), path


def test_run_prints_the_briefing_to_stdout(en_run: tuple[Result, Path]) -> None:
    result, _ = en_run
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# Decision briefing\n")
    assert f"**Topic:** {TOPIC}" in result.stdout
    for heading in ("## Scores", "## Argument trace", "## Recommendation"):
        assert heading in result.stdout
    # progress and the "written to" note go to stderr, never into the briefing
    assert "round: opening" in result.stderr
    assert "result written to" in _flat(result.stderr)
    assert "round:" not in result.stdout


def test_trace_table_has_a_row_for_every_argument(en_run: tuple[Result, Path]) -> None:
    result, path = en_run
    data = json.loads(path.read_text(encoding="utf-8"))
    ids = [a["id"] for a in data["payload"]["structured"]["arguments"]]
    assert any(i.startswith("PRO-") for i in ids)
    assert any(i.startswith("CON-") for i in ids)
    rows = re.findall(r"^\| ((?:PRO|CON)-\d+) \|", result.stdout, re.MULTILINE)
    assert rows == ids


def test_json_has_the_documented_top_level_keys(en_run: tuple[Result, Path]) -> None:
    result, path = en_run
    assert result.exit_code == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) >= TOP_LEVEL_KEYS
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["topic"] == TOPIC
    assert data["lang"] == "en"
    assert data["format"] == "structured"
    assert set(data["payload"]) == {"structured"}
    assert set(data["payload"]["structured"]) == {
        "arguments",
        "cross_examinations",
        "closings",
    }
    assert [(p["key"], p["name"], p["prefix"]) for p in data["positions"]] == [
        ("pro", "Pro", "PRO"),
        ("con", "Con", "CON"),
    ]
    assert data["models"] == {
        "pro": "scripted:demo",
        "con": "scripted:demo",
        "judge": "scripted:demo",
    }
    assert set(data["usage"]) >= {
        "calls",
        "reasks",
        "prompt_tokens",
        "completion_tokens",
        "wall_seconds",
    }
    assert {"scores", "totals", "trace", "fallacies", "key_insight"} <= set(data["judgement"])


def test_json_parses_back_into_a_debate_result(en_run: tuple[Result, Path]) -> None:
    _, path = en_run
    parsed = DebateResult.model_validate_json(path.read_text(encoding="utf-8"))
    assert parsed.topic == TOPIC
    assert parsed.seed == SEED
    # the same seed through the Python API gives the same debate
    direct = moot.run_debate(TOPIC, model="scripted:demo", seed=SEED)
    assert parsed.model_dump(exclude={"usage"}) == direct.model_dump(exclude={"usage"})
    assert parsed.usage.calls == direct.usage.calls
    assert parsed.usage.prompt_tokens == direct.usage.prompt_tokens


def test_same_seed_gives_the_same_briefing(en_run: tuple[Result, Path]) -> None:
    first, _ = en_run
    second = _run("--quiet")
    assert second.exit_code == 0
    assert second.stderr == ""

    def without_usage(text: str) -> str:  # the usage line has the wall time
        return text.rsplit("\n---\n", 1)[0]

    def debate(text: str) -> str:  # the header names each run's own id and date
        return "\n".join(
            line for line in without_usage(text).splitlines() if not line.startswith("**Run:**")
        )

    assert debate(second.stdout) == debate(first.stdout)
    assert debate(first.stdout) != without_usage(first.stdout)


def test_chinese_briefing(tmp_path: Path) -> None:
    path = tmp_path / "zh.json"
    result = _run("--lang", "zh", "--json", str(path), topic=ZH_TOPIC)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# 决策简报\n")
    assert "论据追溯表" in result.stdout
    assert "Decision briefing" not in result.stdout
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["lang"] == "zh"
    assert data["topic"] == ZH_TOPIC


def test_bad_model_spec_exits_2_with_a_clear_message() -> None:
    result = _moot("run", TOPIC, "--model", "nosuch:x", "--quiet")
    assert result.exit_code == 2
    assert result.stdout == ""
    message = _flat(result.stderr)
    assert "error: unknown model provider 'nosuch' in 'nosuch:x'" in message
    assert "known: local, openai, scripted" in message


def test_bad_language_exits_2() -> None:
    result = _run("--lang", "fr", "--quiet")
    assert result.exit_code == 2
    assert "unsupported language 'fr'" in _flat(result.stderr)


def test_exhausted_script_exits_1(
    use_provider: Callable[[str, ProviderFactory], None],
) -> None:
    """A backend failure surfaces as exit 1 (a provider serving a too-short script)."""
    scripts: list[ScriptedBackend] = []

    def make(rest: str, seed: int | None, timeout: float | None) -> Backend:
        scripts.append(ScriptedBackend([], name=f"short:{rest}"))
        return scripts[-1]

    use_provider("short", make)
    result = _moot("run", TOPIC, "--model", "short:x", "--quiet")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "script exhausted" in _flat(result.stderr)
    assert len(scripts) == 1
    assert scripts[0].calls  # it was really asked


def test_exhausted_script_raises_backend_error() -> None:
    """Two valid openings and nothing more: the cross-examination finds the script empty."""
    opening = OpeningReply(
        arguments=[
            ArgumentDraft(
                claim=f"A congestion fee cuts peak traffic in zone {n} within two years.",
                reasoning="The fee raises the cost of each trip, which leads to fewer trips.",
                evidence=f"Traffic in the London zone fell {10 + n}% after 2003.",
            )
            for n in range(1, 4)
        ]
    )
    backend = ScriptedBackend([opening, opening])
    with pytest.raises(BackendError, match="script exhausted after 2 calls") as info:
        moot.run_debate(TOPIC, model=backend)
    assert info.value.spec == "scripted"
    assert backend.remaining == 0
    rounds = [c.context.round for c in backend.calls if c.context is not None]
    assert rounds[:2] == ["opening", "opening"]
    assert set(rounds[2:]) == {"cross_examination"}


def test_version() -> None:
    result = _moot("version")
    assert result.exit_code == 0
    assert result.stdout == f"{moot.__version__}\n"


def test_a_provider_registers_through_the_public_registry(
    use_provider: Callable[[str, ProviderFactory], None],
) -> None:
    """A provider registered with ``register_provider`` resolves by spec, is listed
    with the built-in ones, and is gone again after the test (see ``use_provider``)."""
    from moot.llm.backend import providers, resolve_backend

    made: list[tuple[str, int | None, float | None]] = []

    def make(rest: str, seed: int | None, timeout: float | None) -> Backend:
        made.append((rest, seed, timeout))
        return ScriptedBackend([], name=f"mine:{rest}")

    use_provider("mine", make)
    assert "mine" in providers()
    assert resolve_backend("mine:x?y", seed=3, timeout=4.0).spec == "mine:x?y"
    assert made == [("x?y", 3, 4.0)]
    result = _moot("run", TOPIC, "--model", "nosuch:x", "--quiet")
    assert "known: local, mine, openai, scripted" in _flat(result.stderr)


CALL_DATA: dict[tuple[str, str], type] = {
    # a format's round -> the type of its calls' data
    ("structured", "opening"): OpeningCall,
    ("structured", "cross_examination"): CrossExamCall,
    ("structured", "closing"): ClosingCall,
    ("freeform", "round_1"): SpeechCall,
    ("freeform", "round_2"): SpeechCall,
}


@pytest.mark.parametrize(
    ("fmt", "extra"),
    [
        ("structured", ()),
        ("freeform", ("--sides", "Hainan;the North-East;Yunnan", "--rounds", "2")),
    ],
)
def test_a_registered_provider_gets_a_typed_context_with_every_call(
    fmt: str,
    extra: tuple[str, ...],
    use_provider: Callable[[str, ProviderFactory], None],
    tmp_path: Path,
) -> None:
    """Every call a provider's backend answers carries a ``CallContext`` (a typed
    value, not a dict): the role and side calling, the round, the topic, language and
    format, the attempt, and the format's own typed account of the call."""
    backends: list[ScriptedBackend] = []

    def make(rest: str, seed: int | None, timeout: float | None) -> Backend:
        demo = DemoBackend(seed)

        async def reply(
            messages: Sequence[Message],
            schema: OutputSpec | None,
            settings: GenerationSettings,
            context: CallContext | None,
        ) -> Completion:
            return await demo.generate(messages, schema=schema, settings=settings, context=context)

        backends.append(ScriptedBackend(reply, name=f"typed:{rest}"))
        return backends[-1]

    use_provider("typed", make)
    path = tmp_path / "typed.json"
    ran = _run_with(
        "typed:demo", "--format", fmt, "--panel", "technical,general", "--json", str(path), *extra
    )
    assert ran.exit_code == 0, ran.output
    doc = json.loads(path.read_text(encoding="utf-8"))
    keys = [p["key"] for p in doc["positions"]]
    units = sorted(s["argument_id"] for s in doc["judgement"]["scores"])
    (backend,) = backends  # every role names the same spec: one backend
    assert len(backend.calls) == doc["usage"]["calls"]
    seen: Counter[tuple[str, str]] = Counter()
    for call in backend.calls:
        context = call.context
        assert type(context) is CallContext
        assert (context.topic, context.lang) == (TOPIC, "en")
        assert context.attempt >= 1
        data = context.data
        if context.role == "classifier":
            assert (context.round, context.side, data) == ("classification", None, None)
        elif context.role.startswith("judge:"):
            assert (context.round, context.side, context.format) == ("judgement", None, fmt)
            assert isinstance(data, JudgeCall)
            assert sorted(u.id for u in data.units) == units
        else:
            assert context.role in keys
            assert (context.side, context.format) == (context.role, fmt)
            assert type(data) is CALL_DATA[fmt, context.round]
            assert isinstance(data, OpeningCall | CrossExamCall | ClosingCall | SpeechCall)
            assert data.position == context.role
            if isinstance(data, SpeechCall):
                assert context.round == f"round_{data.round}"
        assert data is None or dataclasses.is_dataclass(data)
        seen[context.role.partition("#")[0], context.round] += 1
    rounds = [name for (owner, name) in CALL_DATA if owner == fmt]
    assert set(seen) == {
        ("classifier", "classification"),
        ("judge:technical", "judgement"),
        ("judge:general", "judgement"),
        *((key, name) for key in keys for name in rounds),
    }


def test_register_provider_refuses_bad_names_and_unknown_removals() -> None:
    from moot.errors import ConfigError
    from moot.llm.backend import register_provider, unregister_provider

    def make(rest: str, seed: int | None, timeout: float | None) -> Backend:
        raise AssertionError("never called")

    for name in ("", "a:b"):
        with pytest.raises(ConfigError, match="a provider name is a word"):
            register_provider(name, make)
    with pytest.raises(ConfigError, match="no model provider 'nonesuch'"):
        unregister_provider("nonesuch")


def test_formats_lists_every_format() -> None:
    from moot.formats import formats

    result = _moot("formats")
    assert result.exit_code == 0, result.output
    names = [f.name for f in formats()]
    assert {"structured", "freeform"} <= set(names)
    for fmt in formats():
        assert fmt.name in result.stdout
        assert " ".join(fmt.summary["en"].split()) in _flat(result.stdout)
    chinese = _moot("formats", "--lang", "zh")
    assert chinese.exit_code == 0, chinese.output
    for fmt in formats():
        assert " ".join(fmt.summary["zh"].split()) in _flat(chinese.stdout)


def test_an_unknown_format_exits_2_naming_the_known_ones() -> None:
    from moot.formats import formats

    result = _run("--format", "nonesuch", "--quiet")
    assert result.exit_code == 2
    known = ", ".join(f.name for f in formats())
    assert f"unknown format 'nonesuch'; known: {known}" in _flat(result.stderr)


def test_moot_help_lists_every_command_on_whole_lines() -> None:
    """Typer's rich help keeps a docstring's line breaks: the command list showed
    "...record each judge's hits; the" on one line and "judges' historical..." on the
    next. Every command, the formats' included, lists its first paragraph joined."""
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    listed = re.findall(r"^│ (\w+) +(\S.*?) *│$", result.output, flags=re.MULTILINE)
    names = [name for name, _ in listed]
    assert {"run", "calibrate", "resume", "batch", "mcp", "backtest", "tournament"} <= set(names)
    # 400 columns fit every first paragraph on its command's row: no continuation rows
    # (there were 11), and no reST markup
    continuation = re.findall(r"^│ {5,}\S", result.output, flags=re.MULTILINE)
    assert continuation == []
    assert not any("``" in text for _, text in listed)


def test_version_option_prints_what_the_version_command_prints() -> None:
    runner = CliRunner()
    option, command = runner.invoke(app, ["--version"]), runner.invoke(app, ["version"])
    assert option.exit_code == command.exit_code == 0
    assert option.output == command.output == moot.__version__ + "\n"
