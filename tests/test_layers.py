"""The one-way layers of the README's "Architecture", checked on every module.

From top to bottom: ``cli`` -> the ``moot`` package (the public API) -> ``view`` ->
``report`` -> format runs -> the engine -> ``formats`` -> ``sources`` -> ``judging`` ->
events -> ``llm`` -> ``store`` and ``schema`` -> ``detectors`` -> a base of leaf utilities. A
module imports only its own layer and the layers below it; every module is placed in
the first layer that names it, and a module in no layer fails the test. A format
package spans layers: its ``commands`` are in the cli layer, its ``html`` view in the
report layer, its runs of whole debates (the market backtest, the competitive
tournament) above the engine, the rest in the formats layer.

Beside the layers: nothing outside ``moot/formats/<name>/`` imports that format (the
registry ``moot.formats``, which lists the built-in formats, is the one exception);
no format imports another or the registry; ``moot.formats.common`` imports no format;
the detectors import no model, format or judge; and no import cycle exists between
modules, even one closed by an import inside a function (strongly connected
components over every import the walker finds), nor between top-level packages
(``moot.llm`` and ``moot.events`` through different modules; a format package counts
once per layer it spans).

The walker reads every module's source with ``ast``, so imports inside functions,
``if TYPE_CHECKING:`` blocks and ``try:`` blocks count, relative imports are
resolved, and ``importlib.import_module("...")`` with a constant name counts too. A
failure names the importing module, the line and what it imports. Every check is
first run on a planted tree, so that a walker that finds nothing cannot pass for a
clean tree."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
README = Path(__file__).resolve().parent.parent / "README.md"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # top to bottom; "moot" alone is the package itself (the public API, which
    # re-exports the engine and the reports); a name
    # ending in ".*" is a package and everything in it; a "*" segment is any one name
    (
        "cli",
        (
            *("moot.cli", "moot.cli_*", "moot.cli.*", "moot.__main__", "moot.formats.*.commands.*"),
            *("moot.doctor", "moot.progress"),
        ),
    ),
    ("public API", ("moot",)),
    ("view", ("moot.view.*",)),
    ("report", ("moot.report.*", "moot.formats.*.html", "moot.formats.market.backtest_html")),
    (
        "format runs",
        (
            *("moot.formats.market.backtest", "moot.formats.competitive.tournament"),
            *("moot.batch", "moot.batch.*"),
        ),
    ),
    (
        "engine",
        ("moot.debate", "moot.options", "moot.calibrate", "moot.result_schema", "moot.trust"),
    ),
    ("formats", ("moot.formats.*",)),
    (
        "sources",
        # documents read, indexed and cited (the verifier itself is a base module)
        (
            *("moot.sources", "moot.sources.readers", "moot.sources.passages"),
            "moot.sources.library",
            *("moot.sources.retrieval", "moot.sources.citations", "moot.sources.demo"),
            "moot.sources.support",
        ),
    ),
    ("judging", ("moot.judging.*", "moot.agreement")),
    ("events", ("moot.events",)),
    ("llm", ("moot.llm.*", "moot.profiles")),
    ("store/schema", ("moot.store.*", "moot.schema")),
    ("detectors", ("moot.detectors.*",)),
    (
        "base",
        (
            *("moot.errors", "moot.text", "moot.safe_text", "moot.i18n", "moot.validation"),
            *("moot.files", "moot.stats", "moot.demo_text", "moot.prompts.*", "moot.briefing"),
            *("moot.terminal", "moot.safe_json", "moot.numerals", "moot.usable", "moot.version"),
            *("moot.regex_gate", "moot.cores"),
            # the citation verifier: pure text and number checks
            *("moot.sources.verify", "moot.sources.normalize"),
            *("moot.sources.numbers", "moot.sources.penalty", "moot.sources.arithmetic"),
        ),
    ),
)
REGISTRY = "moot.formats"
"""The one module outside a format that may import it: it lists the built-ins."""
COMMON = "moot.formats.common"
"""Helpers every format may import; a format package of its own for none."""
STANDALONE = {
    # package: what it may not import (it must work without them)
    "moot.detectors.*": (
        *("moot", "moot.debate", "moot.options", "moot.calibrate", "moot.cli*"),
        *("moot.formats.*", "moot.judging.*", "moot.llm.*", "moot.report.*", "moot.view.*"),
    ),
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
    """Whether module ``name`` is one of ``patterns``: ``pkg.*`` is the package and
    all in it; a ``*`` segment is any one name; a segment ending in ``*`` any name
    with that start (``moot.cli_*``)."""
    parts = name.split(".")
    for pattern in patterns:
        wanted = pattern.split(".")
        if wanted[-1] == "*":
            wanted.pop()
            if len(parts) < len(wanted):
                continue
            if _segments(parts[: len(wanted)], wanted):
                return True
        elif len(parts) == len(wanted) and _segments(parts, wanted):
            return True
    return False


def _segments(parts: list[str], wanted: list[str]) -> bool:
    return all(
        w == "*" or p == w or (w.endswith("*") and p.startswith(w[:-1]))
        for p, w in zip(parts, wanted, strict=True)
    )


def layer_of(name: str) -> int | None:
    for rank, (_, names) in enumerate(LAYERS):
        if matches(name, names):
            return rank
    return None


def modules(root: Path) -> list[str]:
    """Every module of the ``moot`` package under ``root``."""
    return sorted(module_name(path, root) for path in (root / "moot").rglob("*.py"))


def unplaced(root: Path) -> list[str]:
    """The modules in no layer."""
    return [name for name in modules(root) if layer_of(name) is None]


def concrete_formats(root: Path) -> tuple[str, ...]:
    """The format packages (``moot.formats.<name>``), as found on disk."""
    return tuple(
        f"moot.formats.{path.parent.name}"
        for path in sorted((root / "moot" / "formats").glob("*/__init__.py"))
        if f"moot.formats.{path.parent.name}" != COMMON
    )


def format_of(name: str, formats: tuple[str, ...]) -> str | None:
    """The format package ``name`` is in, if any."""
    return next((f for f in formats if matches(name, (f"{f}.*",))), None)


def violations(root: Path) -> list[str]:
    """Every import under ``root`` that breaks a rule, as a readable line."""
    formats = concrete_formats(root)
    broken: list[str] = []
    for imp in walk(root):
        rank, target_rank = layer_of(imp.module), layer_of(imp.target)
        if rank is not None and target_rank is not None and target_rank < rank:
            broken.append(
                f"{imp}: the {LAYERS[rank][0]} layer imports the {LAYERS[target_rank][0]}"
                " layer above it"
            )
        own, target = format_of(imp.module, formats), format_of(imp.target, formats)
        if target is not None and own != target and imp.module != REGISTRY:
            where = (
                "another format"
                if own
                else "common"
                if matches(imp.module, (f"{COMMON}.*",))
                else "outside it"
            )
            broken.append(f"{imp}: {target} is imported from {where}")
        if (own is not None or matches(imp.module, (f"{COMMON}.*",))) and imp.target == REGISTRY:
            broken.append(f"{imp}: a format imports the registry")
        for package, forbidden in STANDALONE.items():
            if matches(imp.module, (package,)) and matches(imp.target, forbidden):
                broken.append(f"{imp}: {package[:-2]} stands alone")
    return broken


def import_graph(root: Path) -> dict[str, dict[str, Import]]:
    """Module -> the modules it imports (each with one import that does it); a
    ``from a import name`` counts as importing ``a``."""
    names = set(modules(root))
    graph: dict[str, dict[str, Import]] = {name: {} for name in names}
    for imp in walk(root):
        target = imp.target
        while target not in names and "." in target:
            target = target.rpartition(".")[0]
        if target in names and target != imp.module:
            graph[imp.module].setdefault(target, imp)
    return graph


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm,
    iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def cycles(root: Path) -> list[str]:
    """Every import cycle under ``root``: between modules, and between the packages
    of one layer (``moot.llm`` and ``moot.events`` importing each other through
    different modules), each with the imports that close it."""
    graph = import_graph(root)
    found = []
    seen: list[set[str]] = []
    for component in components({m: set(targets) for m, targets in graph.items()}):
        members = set(component)
        lines = [str(imp) for m in component for t, imp in graph[m].items() if t in members]
        found.append(f"modules {', '.join(component)}: {'; '.join(lines)}")
        seen.append({_unit(m) for m in component})
    units: dict[str, set[str]] = {}
    for module, targets in graph.items():
        for target in targets:
            a, b = _unit(module), _unit(target)
            units.setdefault(a, set())
            units.setdefault(b, set())
            if a != b:
                units[a].add(b)
    for component in components(units):
        if set(component) not in seen:  # not only the modules' cycle again
            found.append(f"packages {', '.join(component)} import each other")
    return found


def _unit(module: str) -> str:
    """A module's package at the top of ``moot`` (``moot.llm``, ``moot.events``),
    with its layer: a format package spans layers, and its modules of one layer are
    one unit."""
    return f"{'.'.join(module.split('.')[:2])} ({LAYERS[layer_of(module) or 0][0]})"


# ---- every check finds what is planted -------------------------------------------------


def _plant(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


PACKAGES = {
    f"moot/{package}__init__.py": ""
    for package in ("", "llm/", "formats/", "formats/structured/", "formats/freeform/")
}
PACKAGES |= {f"moot/{p}__init__.py": "" for p in ("judging/", "detectors/", "report/")}
PACKAGES |= {"moot/formats/common/__init__.py": ""}


def test_the_walker_finds_planted_imports_at_any_depth(tmp_path: Path) -> None:
    _plant(
        tmp_path,
        {
            **PACKAGES,
            "moot/debate.py": "from moot.formats import get_format\n",
            "moot/formats/structured/demo.py": "",
            "moot/formats/structured/html.py": "from moot.report import page\n",
            "moot/formats/structured/rounds.py": "from moot.formats.structured import html\n",
            "moot/formats/common/rules.py": "from moot.formats.freeform import rounds\n",
            "moot/report/page.py": "from moot.formats.structured.demo import x\n",
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
            "moot/formats/freeform/demo.py": "from moot.formats import register_format\n",
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
        "moot.llm.bad (line 6) imports moot.formats.structured.demo: moot.formats.structured"
        " is imported from outside it",
        "moot.llm.bad (line 8) imports moot.formats: the llm layer imports the formats",
        "moot.llm.bad (line 11) imports moot.debate: the llm layer imports the engine",
        "moot.judging.rubric (line 1) imports moot.formats: the judging layer imports",
        "moot.formats.freeform.rounds (line 1) imports moot.formats.structured.demo:"
        " moot.formats.structured is imported from another format",
        "moot.formats.freeform.demo (line 1) imports moot.formats: a format imports the registry",
        "moot.formats.common.rules (line 1) imports moot.formats.freeform.rounds:"
        " moot.formats.freeform is imported from common",
        "moot.formats.structured.rounds (line 1) imports moot.formats.structured.html: the"
        " formats layer imports the report layer above it",
        "moot.report.page (line 1) imports moot.formats.structured.demo: moot.formats.structured"
        " is imported from outside it",
        "moot.options (line 1) imports moot.formats.freeform.rounds: moot.formats.freeform is"
        " imported from outside it",
        "moot.detectors.core (line 1) imports moot.llm.scripted: moot.detectors stands alone",
        "moot.detectors.core (line 1) imports moot.llm.scripted: the detectors layer imports",
    ]
    for line in expected:
        assert any(b.startswith(line) for b in broken), (line, broken)
    assert len(broken) == len(expected), broken
    # the registry in the engine, a format's view importing the report and a module of
    # the llm layer importing its own are fine
    assert not [
        b
        for b in broken
        if b.startswith(("moot.debate ", "moot.llm.clean ", "moot.formats.structured.html "))
    ]


def test_a_module_in_no_layer_is_found(tmp_path: Path) -> None:
    _plant(
        tmp_path, {**PACKAGES, "moot/errors.py": "", "moot/newcomer.py": "", "moot/llm/x.py": ""}
    )
    assert unplaced(tmp_path) == ["moot.newcomer"]


def test_a_cycle_closed_inside_a_function_is_found(tmp_path: Path) -> None:
    _plant(
        tmp_path,
        {
            **PACKAGES,
            "moot/text.py": "from moot.errors import MootError\n",
            "moot/errors.py": "def late():\n    from moot import text\n    return text\n",
            "moot/llm/types.py": "",
        },
    )
    assert violations(tmp_path) == []  # one layer: only the cycle check sees it
    assert cycles(tmp_path) == [
        "modules moot.errors, moot.text: moot.errors (line 2) imports moot.text;"
        " moot.text (line 1) imports moot.errors"
    ]


def test_packages_of_one_layer_importing_each_other_are_found(tmp_path: Path) -> None:
    _plant(
        tmp_path,
        {
            **PACKAGES,
            "moot/llm/types.py": "",
            "moot/llm/meter.py": "from moot.profiles import STANDARD\n",
            "moot/profiles.py": "from moot.llm.types import OutputSpec\n",
        },
    )
    # no two modules import each other, the two packages do
    assert [c for c in cycles(tmp_path) if c.startswith("modules")] == []
    assert cycles(tmp_path) == ["packages moot.llm (llm), moot.profiles (llm) import each other"]


# ---- the tree keeps the rules ----------------------------------------------------------


def test_the_walker_sees_the_real_tree() -> None:
    found = walk(SRC)
    assert len(found) > 300
    # the lazy provider imports of the backend registry, made inside functions
    assert any(i.module == "moot.llm.backend" and i.target == "moot.llm.scripted" for i in found)
    assert set(concrete_formats(SRC)) >= {
        *("moot.formats.structured", "moot.formats.freeform"),
        *("moot.formats.market", "moot.formats.competitive"),
    }
    assert COMMON not in concrete_formats(SRC)
    assert len(modules(SRC)) > 150


def test_every_module_is_in_a_layer() -> None:
    assert unplaced(SRC) == []


def test_no_import_cycle() -> None:
    assert cycles(SRC) == []


def test_nothing_under_llm_imports_formats_judging_the_engine_or_the_cli() -> None:
    bad = (
        *("moot.formats.*", "moot.judging.*", "moot.debate", "moot.events"),
        *("moot.cli", "moot.cli_*", "moot.briefing"),
    )
    found = [
        str(i) for i in walk(SRC) if matches(i.module, ("moot.llm.*",)) and matches(i.target, bad)
    ]
    assert found == []


@pytest.mark.parametrize("rule", ["layers", "outside", "another", "common", "registry", "alone"])
def test_the_tree_keeps_the_one_way_layers(rule: str) -> None:
    words = {
        "layers": "layer above it",
        "outside": "is imported from outside it",
        "another": "is imported from another format",
        "common": "is imported from common",
        "registry": "a format imports the registry",
        "alone": "stands alone",
    }[rule]
    assert [b for b in violations(SRC) if words in b] == []


def test_the_readme_states_the_layers() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert (
        "`cli` -> the `moot` package (the public API) -> `view` -> `report` -> format runs"
        " -> the engine (`debate`, `options`, `calibrate`, `trust`) -> `formats` -> `sources` ->"
        " `judging` ->"
        " events -> `llm` -> `store` and `schema` -> `detectors` -> the base"
    ) in text
    assert "tests/test_layers.py" in text
