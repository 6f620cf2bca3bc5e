"""The public API: what ``moot`` exports, and ``run_debate`` on the offline demo model."""

from __future__ import annotations

import re

import pytest

import moot
from moot.schema import SCHEMA_VERSION


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
