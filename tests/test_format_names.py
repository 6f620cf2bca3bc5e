"""Nothing outside a format's package names that format: no string in the code of
``moot`` outside ``moot/formats/<name>/`` is a built-in format's name (``"market"``)
or one of its own keys (the market's sides ``"bull"`` and ``"bear"``), except in the
registry (``moot/formats/__init__.py``, which lists the built-ins and names the
default format). Docstrings are prose and are left out; imports of a format are
the layer test's (tests/test_layers.py). The check is first run on a planted tree,
so that a reader that finds nothing cannot pass for a clean tree."""

from __future__ import annotations

import ast
from pathlib import Path

from source_strings import docstring_ids

SRC = Path(__file__).resolve().parent.parent / "src" / "moot"
REGISTRY = Path("formats") / "__init__.py"
KEYS = {"bull": "market", "bear": "market"}
"""Keys of one built-in format that would select its behaviour elsewhere."""
WORDS = {
    # (file, string): why it is not a format's name there
    (Path("judging") / "topic.py", "market"): "a keyword of business topics",
}


def built_in(root: Path) -> set[str]:
    """The built-in formats: the packages under ``formats/`` but ``common``."""
    return {
        d.name
        for d in (root / "formats").iterdir()
        if (d / "__init__.py").is_file() and d.name != "common"
    }


def named_formats(root: Path, keys: dict[str, str] = KEYS) -> list[str]:
    """Every string outside its format's package that names a built-in format or one
    of its ``keys``, as ``file:line: 'string' (format)``."""
    names = {n: n for n in built_in(root)} | keys
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel == REGISTRY:
            continue
        owner = rel.parts[1] if rel.parts[0] == "formats" and len(rel.parts) > 2 else None
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = docstring_ids(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            fmt = names.get(node.value.lower())
            if fmt is None or id(node) in skip or fmt == owner or (rel, node.value) in WORDS:
                continue
            found.append(f"{rel}:{node.lineno}: {node.value!r} ({fmt})")
    return found


def _plant(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_planted_format_name_is_found(tmp_path: Path) -> None:
    _plant(
        tmp_path,
        {
            "formats/__init__.py": 'DEFAULT = "alpha"\n',
            "formats/common/__init__.py": "",
            "formats/alpha/__init__.py": 'NAME = "alpha"\nSIDE = "bull"\n',
            "formats/beta/__init__.py": 'OTHER = "alpha"\n',
            "options.py": '"""The default is "alpha"."""\nFORMAT = "alpha"\n',
            "report.py": 'def f(s):\n    """Not "alpha"."""\n    return s == "Bull"\n',
        },
    )
    assert built_in(tmp_path) == {"alpha", "beta"}
    assert named_formats(tmp_path, {"bull": "alpha"}) == [
        "formats/beta/__init__.py:1: 'alpha' (alpha)",
        "options.py:2: 'alpha' (alpha)",
        "report.py:3: 'Bull' (alpha)",  # a key of a built-in format
    ]


def test_nothing_outside_a_format_names_it() -> None:
    assert built_in(SRC) == {"structured", "freeform", "market", "competitive"}
    assert named_formats(SRC) == []


def test_every_allowed_word_is_still_there() -> None:
    """An allowance that no longer matches anything is dropped, not kept."""
    for (rel, word), _why in WORDS.items():
        tree = ast.parse((SRC / rel).read_text(encoding="utf-8"))
        assert any(isinstance(n, ast.Constant) and n.value == word for n in ast.walk(tree))
