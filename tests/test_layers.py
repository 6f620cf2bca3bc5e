"""The one-way layers of the README's "Architecture": ``cli`` -> the engine -> formats ->
judging -> llm -> store and schema. A module imports only its own layer and the
layers below it; the engine knows formats only through the registry and
``moot.formats.base``; no format package imports another; the detectors import no
model, format or judge.

The walker reads every module's source with ``ast``, so imports inside functions,
``if TYPE_CHECKING:`` blocks and ``try:`` blocks count, relative imports are
resolved, and ``importlib.import_module("...")`` with a constant name counts too. A
failure names the importing module, the line and what it imports. The walker is
tested on a planted bad module first, so that a walker that finds nothing cannot
pass for a clean tree."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
README = Path(__file__).resolve().parent.parent / "README.md"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # top to bottom; "moot" alone is the package itself (the public API), a name with
    # ".*" is a package and everything in it
    (
        "cli",
        (
            *("moot.cli.*", "moot.__main__"),
            # the commands a format adds belong to the command line
            *("moot.formats.market.commands", "moot.formats.competitive.commands"),
        ),
    ),
    ("engine", ("moot", "moot.debate", "moot.options", "moot.calibrate")),
    ("formats", ("moot.formats.*",)),
    ("judging", ("moot.judging.*",)),
    ("llm", ("moot.llm.*",)),
    ("store/schema", ("moot.store", "moot.schema")),
)
ENGINE = (
    *("moot", "moot.debate", "moot.options", "moot.calibrate", "moot.result_schema"),
    *("moot.cli.*", "moot.store", "moot.schema", "moot.events"),
)
"""The format-agnostic modules: they may import the registry and the base only."""
FORMAT_API = ("moot.formats", "moot.formats.base")
UPPER = tuple(name for _, names in LAYERS[:-1] for name in names)
STANDALONE = {
    # package: what it may not import (it must work without them)
    "moot.detectors.*": (*UPPER, "moot.report.*", "moot.view.*"),
}


@dataclass(frozen=True)
class Import:
    module: str
    """The importing module."""
    target: str
    """The module imported (``from a import b`` is ``a.b`` when that is a module)."""
    line: int

    def __str__(self) -> str:
        return f"{self.module} (line {self.line}) imports {self.target}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str, root: Path) -> bool:
    base = root.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports_of(path: Path, root: Path) -> Iterator[Import]:
    """Every import of one source file under ``root``, at any depth."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield Import(module, full if _is_module(full, root) else base, node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield Import(module, node.args[0].value, node.lineno)


def walk(root: Path) -> list[Import]:
    """Every import of every module of the ``moot`` package under ``root``, of moot."""
    return [
        found
        for path in sorted((root / "moot").rglob("*.py"))
        for found in imports_of(path, root)
        if found.target == "moot" or found.target.startswith("moot.")
    ]


def matches(name: str, patterns: tuple[str, ...]) -> bool:
    """Whether module ``name`` is one of ``patterns`` (``pkg.*``: the package and all
    in it)."""
    for pattern in patterns:
        if pattern.endswith(".*"):
            package = pattern[:-2]
            if name == package or name.startswith(package + "."):
                return True
        elif name == pattern:
            return True
    return False


def layer_of(name: str) -> int | None:
    for rank, (_, names) in enumerate(LAYERS):
        if matches(name, names):
            return rank
    return None


def concrete_formats(root: Path) -> tuple[str, ...]:
    """The format packages (``moot.formats.<name>``), as found on disk."""
    return tuple(
        f"moot.formats.{path.parent.name}"
        for path in sorted((root / "moot" / "formats").glob("*/__init__.py"))
    )


def violations(root: Path) -> list[str]:
    """Every import under ``root`` that breaks a rule, as a readable line."""
    found = walk(root)
    formats = concrete_formats(root)
    broken: list[str] = []
    for imp in found:
        rank, target_rank = layer_of(imp.module), layer_of(imp.target)
        if rank is not None and target_rank is not None and target_rank < rank:
            broken.append(
                f"{imp}: the {LAYERS[rank][0]} layer imports the {LAYERS[target_rank][0]}"
                " layer above it"
            )
        if (
            matches(imp.module, ENGINE)
            and not matches(imp.target, FORMAT_API)
            and matches(imp.target, tuple(f"{f}.*" for f in formats))
        ):
            broken.append(f"{imp}: the engine imports a format package, not the registry")
        own = next((f for f in formats if matches(imp.module, (f"{f}.*",))), None)
        if own is not None:
            others = tuple(f"{f}.*" for f in formats if f != own)
            if matches(imp.target, (*others, "moot.formats")):
                broken.append(f"{imp}: a format imports another format or the registry")
        for package, forbidden in STANDALONE.items():
            if matches(imp.module, (package,)) and matches(imp.target, forbidden):
                broken.append(f"{imp}: {package[:-2]} stands alone")
    return broken


# ---- the walker finds what is planted --------------------------------------------------


def _plant(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


PACKAGES = {
    f"moot/{package}__init__.py": ""
    for package in ("", "llm/", "formats/", "formats/structured/", "formats/freeform/")
}
PACKAGES |= {f"moot/{p}__init__.py": "" for p in ("judging/", "detectors/")}


def test_the_walker_finds_planted_imports_at_any_depth(tmp_path: Path) -> None:
    _plant(
        tmp_path,
        {
            **PACKAGES,
            "moot/debate.py": "from moot.formats import get_format\n",
            "moot/formats/structured/demo.py": "",
            "moot/llm/clean.py": "import json\nfrom moot.llm import types\n",
            "moot/llm/bad.py": (
                "import importlib\n"
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    import moot.judging.judge as judge\n"
                "def late():\n"
                "    from moot.formats.structured import demo\n"
                "    try:\n"
                "        from ..formats import base\n"
                "    except ImportError:\n"
                "        pass\n"
                "    return importlib.import_module('moot.debate')\n"
            ),
            "moot/judging/rubric.py": "from .. import formats\n",
            "moot/formats/freeform/rounds.py": "from moot.formats.structured.demo import x\n",
            "moot/options.py": "from moot.formats.freeform import rounds\n",
            "moot/detectors/core.py": "from moot.llm.scripted import DemoBackend\n",
        },
    )
    found = {(i.module, i.target, i.line) for i in walk(tmp_path)}
    assert found >= {
        ("moot.llm.bad", "moot.judging.judge", 4),
        ("moot.llm.bad", "moot.formats.structured.demo", 6),
        ("moot.llm.bad", "moot.formats", 8),  # ``base`` is no module here
        ("moot.llm.bad", "moot.debate", 11),
        ("moot.judging.rubric", "moot.formats", 1),
    }
    broken = violations(tmp_path)
    expected = [
        "moot.llm.bad (line 4) imports moot.judging.judge: the llm layer imports the judging",
        "moot.llm.bad (line 6) imports moot.formats.structured.demo: the llm layer imports",
        "moot.llm.bad (line 8) imports moot.formats: the llm layer imports the formats",
        "moot.llm.bad (line 11) imports moot.debate: the llm layer imports the engine",
        "moot.judging.rubric (line 1) imports moot.formats: the judging layer imports",
        "moot.formats.freeform.rounds (line 1) imports moot.formats.structured.demo: a format",
        "moot.options (line 1) imports moot.formats.freeform.rounds: the engine imports",
        "moot.detectors.core (line 1) imports moot.llm.scripted: moot.detectors stands alone",
    ]
    for line in expected:
        assert any(b.startswith(line) for b in broken), (line, broken)
    assert len(broken) == len(expected), broken
    # the registry in the engine and a module of the llm layer importing its own are fine
    assert not [b for b in broken if b.startswith(("moot.debate ", "moot.llm.clean "))]


# ---- the tree keeps the rules ----------------------------------------------------------


def test_the_walker_sees_the_real_tree() -> None:
    found = walk(SRC)
    assert len(found) > 300
    # the lazy provider imports of the backend registry, made inside functions
    assert any(i.module == "moot.llm.backend" and i.target == "moot.llm.scripted" for i in found)
    assert set(concrete_formats(SRC)) >= {"moot.formats.structured", "moot.formats.freeform"}
    for _, names in LAYERS:
        for name in names:
            assert _is_module(name.removesuffix(".*"), SRC), name


def test_nothing_under_llm_imports_formats_judging_the_engine_or_the_cli() -> None:
    bad = (
        "moot.formats.*",
        "moot.judging.*",
        "moot.debate",
        "moot.cli.*",
        "moot.briefing",
    )
    found = [
        str(i) for i in walk(SRC) if matches(i.module, ("moot.llm.*",)) and matches(i.target, bad)
    ]
    assert found == []


@pytest.mark.parametrize("rule", ["layers", "engine", "formats", "standalone"])
def test_the_tree_keeps_the_one_way_layers(rule: str) -> None:
    words = {
        "layers": "layer above it",
        "engine": "the engine imports a format package",
        "formats": "a format imports another format",
        "standalone": "stands alone",
    }[rule]
    assert [b for b in violations(SRC) if words in b] == []


def test_the_readme_states_the_layers() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert (
        "`cli` -> the engine (`debate`, `options`, `calibrate`, the `moot` package) ->"
        " `formats` -> `judging` -> `llm` -> `store` and `schema`"
    ) in text
    assert "tests/test_layers.py" in text
