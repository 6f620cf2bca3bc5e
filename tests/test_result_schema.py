"""``moot schema``: the JSON Schema of a debate result. Real results of every
registered format (structured with two and three positions, with a panel and the
swap rerun; free-form with two and three, a panel, Chinese, the swap rerun; market
with its baseline, and in Chinese with a panel and the swap rerun; competitive with
the swap rerun, and in Chinese with a panel) validate
against it with ``jsonschema``; a result with a field of the wrong type, a missing
field, an extra one, another format's payload or another version does not. The
version is documented where the result is."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import moot
from competitive_checks import SMALL
from moot.cli import app
from moot.formats import formats
from moot.result_schema import result_json_schema
from moot.schema import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent
TOPIC = "Where should a family of four spend the winter?"
THREE = ("Hainan", "the North-East", "Yunnan")
PANEL = ["technical", "business", "general"]
RESULTS: dict[str, tuple[str, dict[str, Any]]] = {
    "structured": (TOPIC, {}),
    "structured-3": (TOPIC, {"sides": THREE}),
    "structured-panel-swap": (TOPIC, {"panel": PANEL, "judge_runs": 2, "swap_sides": True}),
    "structured-3-panel": (TOPIC, {"sides": THREE, "panel": PANEL}),
    "freeform": (TOPIC, {"format": "freeform"}),
    "freeform-swap": (TOPIC, {"format": "freeform", "swap_sides": True}),
    "freeform-3-panel": (TOPIC, {"format": "freeform", "sides": THREE, "panel": PANEL}),
    "freeform-zh-3": (
        "一家四口冬天去哪里过冬？",
        {"format": "freeform", "lang": "zh", "sides": ("海南", "东北", "云南")},
    ),
    "market": (
        "Will ExampleIndex close higher a month from now?",
        {"format": "market", "format_options": {"kb": "demo", "baseline": True}},
    ),
    "market-zh-panel-swap": (
        "ExampleIndex 一个月后的收盘价会更高吗？",
        {
            "format": "market",
            "format_options": {"kb": "demo"},
            "lang": "zh",
            "panel": PANEL,
            "swap_sides": True,
        },
    ),
    "competitive-swap": (
        "Should cities ban cars from their centres?",
        {"format": "competitive", "format_options": SMALL, "swap_sides": True},
    ),
    "competitive-zh-panel": (
        "城市应该禁止汽车进入市中心吗？",
        {"format": "competitive", "lang": "zh", "format_options": SMALL, "panel": PANEL},
    ),
}


@pytest.fixture(scope="module")
def printed() -> dict[str, Any]:
    """The schema as ``moot schema`` prints it."""
    ran = CliRunner().invoke(app, ["schema"])
    assert ran.exit_code == 0, ran.output
    schema: dict[str, Any] = json.loads(ran.stdout)
    return schema


@pytest.fixture(scope="module")
def validator(printed: dict[str, Any]) -> Any:
    """A validator of the draft the schema declares (``$schema``)."""
    cls = jsonschema.validators.validator_for(printed)
    cls.check_schema(printed)
    return cls(printed)


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, Any]]:
    """Each result of ``RESULTS`` as its JSON, run once."""
    return {
        name: json.loads(moot.to_json(moot.run_debate(topic, model="scripted:demo", **options)))
        for name, (topic, options) in RESULTS.items()
    }


def test_moot_schema_prints_a_draft_2020_12_json_schema(printed: dict[str, Any]) -> None:
    assert printed == result_json_schema()
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert jsonschema.validators.validator_for(printed) is jsonschema.Draft202012Validator
    jsonschema.Draft202012Validator.check_schema(printed)
    assert SCHEMA_VERSION in printed["title"]
    # the payload of every registered format, and nothing else
    assert set(printed["properties"]["payload"]["properties"]) == {f.name for f in formats()}
    assert printed["properties"]["format"]["enum"] == [f.name for f in formats()]


def test_every_registered_format_has_a_real_result_here() -> None:
    assert {options.get("format", "structured") for _, options in RESULTS.values()} == {
        f.name for f in formats()
    }


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_a_real_result_validates(
    name: str, results: dict[str, dict[str, Any]], validator: Any
) -> None:
    doc = results[name]
    errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(doc)]
    assert errors == []
    # the options the result was run with are really in it
    options = RESULTS[name][1]
    assert doc["format"] == options.get("format", "structured")
    assert (doc["panel"] is not None) == ("panel" in options)
    assert (doc["swap"] is not None) == ("swap_sides" in options)
    assert len(doc["positions"]) == len(options.get("sides", ("pro", "con")))


_DROP = object()


def _set(path: str, value: Any = _DROP) -> Callable[[dict[str, Any]], None]:
    """A change that sets the field at ``path`` (dots; list indexes as numbers), or
    removes it (:func:`_drop`)."""

    def change(doc: dict[str, Any]) -> None:
        *parents, last = [int(s) if s.isdigit() else s for s in path.split(".")]
        target: Any = doc
        for step in parents:
            target = target[step]
        if value is _DROP:
            del target[last]
        else:
            target[last] = value

    return change


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    return _set(path)


BROKEN: dict[str, tuple[str, Callable[[dict[str, Any]], None], str]] = {
    # name: (the result it breaks, the change, where the schema must object)
    "calls-as-text": ("structured", _set("usage.calls", "7"), "$.usage.calls"),
    "total-as-text": ("structured-3", _set("judgement.totals.A", "high"), "$.judgement.totals.A"),
    "score-as-text": (
        "freeform",
        _set("judgement.scores.0.scores.logic", "7"),
        "$.judgement.scores[0].scores.logic",
    ),
    "unknown-language": ("freeform-zh-3", _set("lang", "fr"), "$.lang"),
    "speech-round-as-text": (
        "freeform-3-panel",
        _set("payload.freeform.speeches.0.round", "1"),
        "$.payload.freeform.speeches[0].round",
    ),
    "argument-id-as-number": (
        "structured",
        _set("payload.structured.arguments.0.id", 1),
        "$.payload.structured.arguments[0].id",
    ),
    "panel-judges-as-object": (
        "structured-panel-swap",
        _set("panel.judges", {}),
        "$.panel.judges",
    ),
    "duration-source-a-guess": (
        "competitive-swap",
        _set("payload.competitive.speeches.0.duration_source", "guess"),
        "$.payload.competitive.speeches[0].duration_source",
    ),
    "measured-seconds-as-text": (
        "competitive-zh-panel",
        _set("payload.competitive.speeches.5.measured_seconds", "118"),
        "$.payload.competitive.speeches[5].measured_seconds",
    ),
    "no-budget-steps": (
        "competitive-swap",
        _drop("payload.competitive.speeches.2.budget_steps"),
        "$.payload.competitive.speeches[2]",
    ),
    "no-flow-tree": (
        "competitive-swap",
        _drop("payload.competitive.flow_tree"),
        "$.payload.competitive",
    ),
    "no-topic": ("structured", _drop("topic"), "$"),
    "no-gap": ("freeform", _drop("judgement.gap"), "$.judgement"),
    "no-speeches": ("freeform", _drop("payload.freeform.speeches"), "$.payload.freeform"),
    "no-position-prefix": ("structured-3", _drop("positions.0.prefix"), "$.positions[0]"),
    "no-detectors": ("freeform-swap", _drop("detectors"), "$"),
    "no-version": ("structured", _drop("schema_version"), "$"),
    "another-version": ("structured", _set("schema_version", "1.0"), "$.schema_version"),
    "extra-field": ("structured", _set("verdict", "pro"), "$"),
    "unknown-format": ("freeform", _set("format", "nonesuch"), "$.format"),
    "confidence-as-text": (
        "market",
        _set("payload.market.arguments.0.confidence", "0.7"),
        "$.payload.market.arguments[0].confidence",
    ),
    "no-evidence-rule": ("market", _drop("payload.market.evidence_rule"), "$.payload.market"),
    "unknown-challenge-type": (
        "market-zh-panel-swap",
        _set("payload.market.challenges.0.challenge_type", "agree"),
        "$.payload.market.challenges[0].challenge_type",
    ),
    "two-payloads": ("structured", _set("payload.freeform", {}), "$.payload"),
    "another-formats-payload": ("freeform", _set("format", "structured"), "$.payload"),
    "detector-not-one-of-seven": (
        "structured-3",
        _set(
            "detectors",
            [{"detector": "sarcasm", "turn": 0, "unit": None, "side": "A", "evidence": "x"}],
        ),
        "$.detectors[0].detector",
    ),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_result_does_not_validate(
    name: str, results: dict[str, dict[str, Any]], validator: Any
) -> None:
    source, change, where = BROKEN[name]
    doc = copy.deepcopy(results[source])
    assert validator.is_valid(doc)
    change(doc)
    errors = list(validator.iter_errors(doc))
    assert errors, f"{name}: the schema accepts it"
    # it objects where the result was broken (or, for a whole-result rule, at the top)
    places = {e.json_path for e in errors} | {
        sub.json_path for e in errors for sub in (e.context or [])
    }
    assert where in places, (name, places)


def test_the_version_is_documented_with_what_changed() -> None:
    """The version was bumped from the two-sided 1.0 and each place that documents the
    result says so: the README's JSON section and example, and the version list of
    ``moot.schema``."""
    major = int(SCHEMA_VERSION.split(".")[0])
    assert major >= 2
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f'`schema_version` is `"{SCHEMA_VERSION}"`' in readme
    assert re.search(rf"\({re.escape(SCHEMA_VERSION)}: [^)]*payload[^)]*detectors", readme)
    assert f'"schema_version": "{SCHEMA_VERSION}"' in readme
    assert "`moot schema` prints" in readme
    versions = re.findall(r"^- (\d+\.\d+): ", moot.schema.__doc__ or "", re.MULTILINE)
    assert versions[0] == SCHEMA_VERSION
    assert "1.0" in versions
