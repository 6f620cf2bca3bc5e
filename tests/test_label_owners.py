"""Who owns each label: the shared table (``moot.i18n.CATALOG``) holds only what the
engine or several formats use; a label only one format uses is in that format's own
``labels(lang)``, in English and Chinese.

"Uses" is read from the code and templates: a module or template uses a label when
it names the key (``"col.speech"``) or, for the keys looked up by a code
(``f"rule.{code}"``, ``f"round.{name}"``, ``f"response.{kind}"``,
``f"reask.{code}"``), when it names the code (``"claim_sentences"``) as a string
(``ast`` constants, docstrings left out; quoted words in templates). A use inside
``moot/formats/<name>/`` is that format's; any other (the engine, the judges, the
reports, ``formats/common``) is shared. Every check is first run on a planted case,
so that a reader that finds nothing cannot pass for a clean tree."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from moot import i18n
from moot.formats import formats
from source_strings import docstring_ids

SRC = Path(__file__).resolve().parent.parent / "src" / "moot"
LOOKED_UP_BY_CODE = ("rule", "round", "response", "reask")
"""Prefixes of keys built from a code the code names (a warning's, a round's)."""
SHARED = "shared"


def strings_of(path: Path) -> set[str]:
    """The strings a source file names: its ``ast`` string constants but docstrings
    (Python), or its quoted words (templates, scripts)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return set(re.findall(r"""['"]([\w.]+)['"]""", text))
    tree = ast.parse(text, filename=str(path))
    skip = docstring_ids(tree)
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    }


def strings_by_owner(root: Path, packages: Mapping[str, Path]) -> dict[str, set[str]]:
    """The strings under ``root``, by owner: a format's name for its package
    (``packages``: name -> directory), ``SHARED`` for every other file. The shared
    table itself is left out: a key is not used by being defined."""
    found: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".j2", ".js") or path == root / "i18n.py":
            continue
        owner = next((n for n, d in packages.items() if d in path.parents), SHARED)
        found.setdefault(owner, set()).update(strings_of(path))
    return found


def users(key: str, strings: Mapping[str, set[str]]) -> set[str]:
    """The owners whose code uses ``key``."""
    prefix, _, code = key.partition(".")
    by_code = prefix in LOOKED_UP_BY_CODE
    return {o for o, s in strings.items() if key in s or (by_code and code in s)}


def misplaced(shared: Mapping[str, str], strings: Mapping[str, set[str]]) -> list[str]:
    """Keys of the shared table that exactly one format uses, and nothing shared."""
    wrong = []
    for key in shared:
        who = users(key, strings)
        if len(who) == 1 and SHARED not in who:
            wrong.append(f"{key} is used only by the {who.pop()} format")
    return wrong


def _packages() -> dict[str, Path]:
    """The built-in formats' packages, by format name."""
    found = {}
    for fmt in formats():
        module = type(fmt).__module__
        if module.startswith("moot.formats."):
            found[fmt.name] = SRC.joinpath(*module.split(".")[1:3])
    return found


@pytest.fixture(scope="module")
def strings() -> dict[str, set[str]]:
    return strings_by_owner(SRC, _packages())


def test_every_built_in_format_has_a_package() -> None:
    packages = _packages()
    assert set(packages) >= {"structured", "freeform", "market", "competitive"}
    assert all((d / "__init__.py").is_file() for d in packages.values())


def test_the_reader_finds_a_label_one_format_uses(strings: dict[str, set[str]]) -> None:
    """Planted: structured's own rule and column labels put back into the shared table
    are found; a key the engine uses and one two formats use are not."""
    planted = {
        "rule.claim_sentences": "x",  # by code, structured only
        "stance.changed": "x",  # by key, structured only
        "col.speech": "x",  # by key, free-form only
        "round.judgement": "x",  # the engine's
        "response.refute": "x",  # structured's and market's
    }
    assert misplaced(planted, strings) == [
        "rule.claim_sentences is used only by the structured format",
        "stance.changed is used only by the structured format",
        "col.speech is used only by the freeform format",
    ]


def test_the_reader_skips_docstrings(tmp_path: Path) -> None:
    code = tmp_path / "m.py"
    code.write_text('"""Names "claim_sentences" in prose."""\nX = "rule.language"\n')
    assert strings_of(code) == {"rule.language"}


def test_the_shared_table_holds_no_label_of_one_format(strings: dict[str, set[str]]) -> None:
    assert misplaced(i18n.CATALOG["en"], strings) == []


@pytest.mark.parametrize("fmt", formats(), ids=lambda f: f.name)
def test_a_formats_labels_are_its_own_in_both_languages(fmt: object) -> None:
    from moot.formats.base import Format

    assert isinstance(fmt, Format)
    english, chinese = fmt.labels("en"), fmt.labels("zh")
    assert set(english) == set(chinese), set(english) ^ set(chinese)
    assert all(chinese.values())
    assert not set(english) & set(i18n.CATALOG["en"]), "a format repeats a shared label"


def test_the_shared_table_has_the_same_keys_in_both_languages() -> None:
    assert set(i18n.CATALOG["en"]) == set(i18n.CATALOG["zh"])
