"""The public API: what ``moot`` exports, and ``run_debate`` on the offline demo model.

``moot.__all__`` is checked both ways, as httpx checks its own: every public name of
the package is in it, and every name in it is public and resolves. ``import moot``
loads its names lazily (PEP 562), so a fresh process checks what it imports."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import os
import pkgutil
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

import moot
from moot.schema import SCHEMA_VERSION

SRC = Path(__file__).resolve().parent.parent / "src"


def _isort_key(name: str) -> tuple[int, str]:
    """Ruff's RUF022 ("isort-style") order: CONSTANTS, then Classes, then the rest."""
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", name) and len(name) > 1:
        return 0, name
    if name[:1].isupper():
        return 1, name
    return 2, name


def test_every_exported_name_is_importable() -> None:
    namespace: dict[str, object] = {}
    exec("from moot import *", namespace)  # noqa: S102 (a fixed import statement)
    for name in moot.__all__:
        assert hasattr(moot, name), name
        assert namespace[name] is getattr(moot, name)


def _public_names(module: ModuleType) -> set[str]:
    """The names ``module`` holds that are public: not private, and not a submodule
    (importing ``moot.x`` sets the attribute ``x`` on the package)."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and not isinstance(value, ModuleType)
    }


def test_every_public_name_is_exported() -> None:
    for name in moot.__all__:  # the lazy names are loaded once they are used
        getattr(moot, name)
    assert _public_names(moot) == set(moot.__all__) - {"__version__"}


def test_every_export_is_public_and_defined_in_moot() -> None:
    for name in moot.__all__:
        assert not name.startswith("_") or name == "__version__", name
        value = getattr(moot, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__module__.startswith("moot."), (name, value.__module__)
            assert value.__name__ == name


def test_the_lazy_table_names_each_export_where_it_is_defined() -> None:
    sources = moot._SOURCES
    assert set(sources) == set(moot.__all__) - {"__version__"}
    for name, source in sources.items():
        value = getattr(importlib.import_module(source), name)
        assert getattr(moot, name) is value
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__module__ == source, name


def test_type_checkers_see_the_same_table() -> None:
    # the ``if typing.TYPE_CHECKING:`` imports are what mypy and editors read
    tree = ast.parse(Path(moot.__file__).read_text(encoding="utf-8"))
    (block,) = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "typing.TYPE_CHECKING"
    ]
    seen = {
        alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen == moot._SOURCES


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        moot.nonesuch  # type: ignore[attr-defined]  # noqa: B018
    assert set(moot.__all__) <= set(dir(moot))


def _every_moot_module() -> list[str]:
    """Imports every module of the package (not ``__main__``, which runs the CLI)."""
    names = [
        info.name
        for info in pkgutil.walk_packages(moot.__path__, "moot.")
        if not info.name.endswith(".__main__")
    ]
    for name in names:
        importlib.import_module(name)
    return names


def _subclasses(base: type[BaseException]) -> set[type[BaseException]]:
    found: set[type[BaseException]] = set()
    for sub in base.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def test_every_error_a_caller_can_catch_is_exported() -> None:
    assert len(_every_moot_module()) > 100
    errors = {
        error
        for error in _subclasses(moot.MootError)
        if error.__module__.startswith("moot.") and not error.__name__.startswith("_")
    }
    assert len(errors) >= 10
    missing = sorted(error.__name__ for error in errors if error.__name__ not in moot.__all__)
    assert missing == []
    for error in errors:
        assert getattr(moot, error.__name__) is error


@pytest.mark.parametrize(
    "name", ["BudgetExceeded", "DataError", "StoreError", "OutputError", "ConfigError"]
)
def test_the_errors_named_in_the_docs_are_exported(name: str) -> None:
    assert name in moot.__all__
    assert issubclass(getattr(moot, name), moot.MootError)


def test_errors_moved_to_moot_errors_are_still_importable_where_they_were() -> None:
    from moot.detectors import TranscriptError
    from moot.formats.competitive.speech import SpeechError, SpeechUnavailable

    assert (SpeechError, SpeechUnavailable, TranscriptError) == (
        moot.SpeechError,
        moot.SpeechUnavailable,
        moot.TranscriptError,
    )


# what ``import moot`` must not load: the model SDKs, the web stack, the CLI's
HEAVY = ("openai", "httpx2", "llama_cpp", "numpy", "starlette", "uvicorn", "typer", "rich")

_PROBE = textwrap.dedent(
    """
    import json, sys
    import moot
    after_import = sorted(m for m in sys.modules if m == "moot" or m.startswith("moot."))
    heavy = [m for m in HEAVY if m in sys.modules]
    result = moot.run_debate("Cities should charge cars a congestion fee",
                             model="scripted:demo", seed=1)
    after_debate = [m for m in ("openai", "httpx2", "llama_cpp") if m in sys.modules]
    moot.resolve_backend("openai:some-model@http://127.0.0.1:9/v1")
    after_openai = [m for m in ("openai", "httpx2") if m in sys.modules]
    print(json.dumps([after_import, heavy, after_debate, after_openai, result.format]))
    """
)


@pytest.mark.process
def test_import_moot_loads_no_submodule_and_no_sdk(tmp_path: Path) -> None:
    # in a fresh interpreter: this test process has imported most of moot already
    done = subprocess.run(
        [sys.executable, "-c", f"HEAVY = {HEAVY!r}\n{_PROBE}"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    after_import, heavy, after_debate, after_openai, format_ = json.loads(done.stdout)
    assert after_import == ["moot"]
    assert heavy == []
    # a debate on the scripted model needs no SDK; the OpenAI backend loads its own
    assert after_debate == []
    assert format_ == "structured"
    assert after_openai == ["openai", "httpx2"]


def test_all_is_sorted_and_unique() -> None:
    names = list(moot.__all__)
    assert len(names) == len(set(names))
    assert names == sorted(names, key=_isort_key)


@pytest.mark.parametrize(
    "name",
    [
        "run_debate",
        "arun_debate",
        "RunOptions",
        "DebateResult",
        "MootError",
        "ModelOutputError",
        "to_json",
    ],
)
def test_core_names_are_exported(name: str) -> None:
    assert name in moot.__all__


def test_error_hierarchy() -> None:
    for error in (moot.ConfigError, moot.BackendError, moot.ModelOutputError):
        assert issubclass(error, moot.MootError)


def test_run_debate_on_the_demo_model_returns_a_debate_result() -> None:
    result = moot.run_debate(
        "Cities should charge cars a congestion fee", model="scripted:demo", seed=1
    )
    assert isinstance(result, moot.DebateResult)
    assert result.schema_version == SCHEMA_VERSION == moot.SCHEMA_VERSION
    assert result.lang == "en"
    assert result.models == {
        "pro": "scripted:demo",
        "con": "scripted:demo",
        "judge": "scripted:demo",
    }
    assert result.usage.calls >= 7  # two openings, two cross-examinations, two closings, judge
    assert result.format == "structured"
    assert [p.key for p in result.positions] == ["pro", "con"]
    ids = [a["id"] for a in result.body["arguments"]]
    assert [row.argument_id for row in result.judgement.trace] == ids
    assert moot.DebateResult.model_validate_json(moot.to_json(result)) == result
    assert moot.to_markdown(result).startswith("# Decision briefing\n")


def test_resolved_demo_backend_is_a_backend() -> None:
    assert isinstance(moot.resolve_backend("scripted:demo"), moot.Backend)


def test_the_options_type_and_keyword_changes_give_the_same_debate() -> None:
    topic = "Cities should charge cars a congestion fee"
    options = moot.RunOptions(model="scripted:demo", seed=2, format="freeform")
    by_options = moot.run_debate(topic, options)
    by_keywords = moot.run_debate(topic, model="scripted:demo", seed=2, format="freeform")
    # keyword changes apply on top of the options
    on_top = moot.run_debate(topic, options.replace(seed=1), seed=2)
    for other in (by_keywords, on_top):
        assert other.model_dump(exclude={"usage"}) == by_options.model_dump(exclude={"usage"})
    with pytest.raises(moot.ConfigError, match="unknown option"):
        moot.run_debate(topic, options, nonesuch=1)
