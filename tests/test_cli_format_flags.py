"""The formats' options, declared once (``Format.fields``), as ``moot run`` flags: every
registered format's flags appear with their help, a format registered later gets
its flags without a line of the command line changing, a flag's value reaches the
run's format options through the field's parser, and the command modules import
nothing heavy when they load."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import moot.debate
import moot.formats
from moot.cli import app
from moot.errors import ConfigError
from moot.formats import formats
from moot.formats.competitive.options import FIELDS
from moot.formats.fields import FormatOption, flag_options, parse_pairs
from moot.formats.freeform import FreeformFormat
from moot.options import RunOptions

SRC = Path(__file__).resolve().parent.parent / "src"


def _moot(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def _flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def test_every_declared_flag_of_every_format_is_a_run_option_with_its_help() -> None:
    helped = _flat(_moot("run", "--help").stdout)
    declared = [(f, field) for f in formats() for field in f.fields if field.flag]
    assert len(declared) >= 10  # the four built-in formats' ten flags at least
    for fmt, field in declared:
        assert str(field.flag) in helped, (fmt.name, field.flag)
        assert " ".join(field.help.split()[:4]) in helped, (fmt.name, field.help)
    # --format-option's help lists each format's options
    assert "freeform: rounds, judge_each_round;" in helped
    assert "market: kb, analysts, baseline" in helped
    # --pro-model's help says what pro means in a format with sides of its own
    assert "Model spec for the pro side (market: the bull side)." in helped


class ProbeFormat(FreeformFormat):
    """The free-form format under another name, with one more option and its flag."""

    name = "probe"
    fields = (
        *FreeformFormat.fields,
        FormatOption(
            "levels",
            "Probe: levels, given as a dash-separated list.",
            flag="--probe-levels",
            parse=lambda text: [int(part) for part in text.split("-")],
        ),
    )


def test_a_format_registered_later_gets_its_flags_and_they_reach_its_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert "--probe-levels" not in _moot("run", "--help").stdout
    monkeypatch.setitem(moot.formats._FORMATS, "probe", ProbeFormat())
    assert "Probe: levels" in _flat(_moot("run", "--help").stdout)

    seen: list[RunOptions] = []

    def run_debate(topic: str, options: RunOptions, **_: Any) -> None:
        seen.append(options)
        raise SystemExit(0)

    monkeypatch.setattr(moot.debate, "run_debate", run_debate)
    given = ("--probe-levels", "1-2-3", "--rounds", "2", "--format-option", "note=x")
    ran = _moot("run", "T", "--format", "probe", *given, "--no-store")
    assert ran.exit_code == 0, ran.output
    assert seen[0].format == "probe"
    assert dict(seen[0].format_options) == {"levels": [1, 2, 3], "rounds": 2, "note": "x"}


@pytest.mark.parametrize(
    ("flags", "pairs", "message"),
    [
        ({"b": 2}, ["b=50"], "--b and --format-option b=50 disagree"),
        # a flag that sets another option (as --baseline sets the trees) conflicts too
        ({"a": "x"}, ["b=3"], "--a and --format-option b=3 disagree"),
        ({}, ["b=2", "b=3"], "--format-option b is given twice"),
    ],
)
def test_an_option_given_two_ways_with_different_values_is_refused(
    flags: dict[str, object], pairs: list[str], message: str
) -> None:
    """It used to be resolved silently: the flag won."""
    first = FormatOption("a", "A.", flag="--a", apply=lambda v, o: o.update(a=v, b=v))
    second = FormatOption("b", "B.", type=int, flag="--b")
    with pytest.raises(ConfigError, match=message):
        flag_options((first, second), {"a": None, "b": None} | flags, pairs)


def test_rounds_given_as_a_flag_and_a_format_option_is_exit_2() -> None:
    ran = _moot(
        "run", "T", "--model", "scripted:demo", "--format", "freeform", "--rounds", "2",
        "--format-option", "rounds=50", "--no-store",
    )  # fmt: skip
    assert ran.exit_code == 2
    assert "--rounds and --format-option rounds=50 disagree" in _flat(ran.stderr)


def test_another_formats_flag_is_refused_by_its_option_name() -> None:
    ran = _moot("run", "T", "--model", "scripted:demo", "--kb", "demo", "--no-store")
    assert ran.exit_code == 2
    assert "the structured format has no option kb" in _flat(ran.stderr)


def test_flags_apply_in_declared_order_after_the_format_option_values() -> None:
    first = FormatOption("a", "A.", flag="--a", apply=lambda v, o: o.update(a=v, b=v))
    second = FormatOption("b", "B.", type=int, flag="--b")
    assert flag_options((first, second), {"a": "x", "b": 2}, ["c=[1]"]) == {
        "a": "x",
        "b": 2,
        "c": [1],
    }
    # the same value given both ways is no conflict
    assert flag_options((first, second), {"a": "x", "b": 2}, ['a="x"']) == {"a": "x", "b": 2}
    assert flag_options((first, second), {"a": None, "b": None}) == {}
    assert parse_pairs(["n=2", "s=text", "t=true"]) == {"n": 2, "s": "text", "t": True}
    # a text value is read by its field's parser, as its flag's text would be
    assert flag_options(FIELDS, {}, ["stage_seconds=closing=90", "claims=2"]) == {
        "stage_seconds": {"closing": 90.0},
        "claims": 2,
    }
    assert flag_options(FIELDS, {}, ['stage_seconds={"opening": 200}']) == {
        "stage_seconds": {"opening": 200}
    }
    with pytest.raises(ValueError, match="applies itself"):
        FormatOption(None, "No key, no apply.", flag="--x")


# ---- the command line loads light ---------------------------------------------------

LIGHT = ("moot.cli", "moot.errors", "moot.safe_text", "moot.terminal", "moot.formats.fields")
"""What the command modules may import when they load; the rest inside commands."""
REGISTRY = "moot.formats"
"""The format registry, which they may import too: it imports no format until it is
read (``DEFAULT_FORMAT`` is the default of ``moot run --format``)."""
THIRD_PARTY = ("typer",)


def _module_level_imports(path: Path) -> list[tuple[str, int]]:
    """Imports made when ``path`` loads: not inside functions, not for type checking."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int]] = []
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                break
            if isinstance(inner, ast.Import):
                found += [(alias.name, inner.lineno) for alias in inner.names]
            elif isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                found.append((inner.module, inner.lineno))
    return found


def heavy_imports(paths: list[Path]) -> list[str]:
    bad = []
    for path in paths:
        for name, line in _module_level_imports(path):
            top = name.split(".")[0]
            if name == "moot" or name.startswith("moot."):
                ok = name == REGISTRY or any(name == p or name.startswith(p + ".") for p in LIGHT)
            else:
                ok = top in sys.stdlib_module_names or top in THIRD_PARTY or top == "__future__"
            if not ok:
                bad.append(f"{path.name}:{line} imports {name}")
    return bad


def command_modules() -> list[Path]:
    return sorted((SRC / "moot" / "cli").glob("*.py")) + sorted(
        (SRC / "moot" / "formats").glob("*/commands.py")
    )


def test_the_command_modules_import_the_engine_only_inside_commands() -> None:
    paths = command_modules()
    assert len(paths) >= 10
    assert heavy_imports(paths) == []


def test_the_registry_imports_no_format_when_it_loads() -> None:
    """What makes it light enough for the command modules: no format, no engine."""
    assert heavy_imports([SRC / "moot" / "formats" / "__init__.py"]) == []


def test_the_import_check_sees_a_heavy_import(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        "from typing import TYPE_CHECKING\n"
        "import typer\n"
        "from moot.cli.app import app\n"
        "from moot.store import Store\n"
        "import jinja2\n"
        "if TYPE_CHECKING:\n"
        "    from moot.schema import DebateResult\n"
        "def command() -> None:\n"
        "    from moot.debate import run_debate\n",
        encoding="utf-8",
    )
    assert heavy_imports([planted]) == [
        "planted.py:4 imports moot.store",
        "planted.py:5 imports jinja2",
    ]


def test_a_declared_constraint_names_the_option_and_the_format() -> None:
    level = FormatOption(
        "level", "L.", type=int, flag="--level", integer=True, minimum=1, maximum=3
    )
    message = (
        r"--level must be a whole number from 1 to 3, not 4 \(the probe format's option level\)"
    )
    with pytest.raises(ConfigError, match=message):
        level.check(4, "probe")
    with pytest.raises(ConfigError, match="whole number"):
        level.check(True, "probe")
    level.check(2, "probe")
    ratio = FormatOption("ratio", "R.", type=float, above=0.0, maximum=1.0)
    with pytest.raises(ConfigError, match=r"ratio must be at most 1, not 2 \(the probe format's"):
        ratio.check(2, "probe")
    ratio.check(0.5, "probe")


@pytest.mark.parametrize(
    ("value", "refusal"),
    [("[" * 200 + "]" * 200, "deeper than"), ("9" * 5000, "integer of 5000 digits")],
)
def test_format_option_json_past_the_limits_is_refused(value: str, refusal: str) -> None:
    with pytest.raises(ConfigError, match=refusal):
        parse_pairs([f"k={value}"])
