"""A closing's stance change is shown with its reason, and only with a usable one: a
closing whose reason is unusable text (shown as the marker) says that no reason was
given, not "stance changed" or "stance unchanged" as if the model had said why."""

from __future__ import annotations

import pytest

from moot import run_debate
from moot.report.markdown import to_markdown
from moot.schema import DebateResult
from moot.usable import marker


def _with_reason(result: DebateResult, side: str, reason: str) -> DebateResult:
    body = dict(result.body)
    body["closings"] = [
        {**c, "stance_change": {**c["stance_change"], "reason": reason}} if c["side"] == side else c
        for c in body["closings"]
    ]
    return result.model_copy(update={"payload": {**result.payload, result.format: body}})


@pytest.mark.parametrize(
    ("lang", "unstated", "claims"),
    [
        ("en", "(stance change: no usable reason)", ("(stance changed)", "(stance unchanged)")),
        (
            "zh",
            "(立场变化：理由不可用)",
            ("（立场有变化）", "（立场未变）", "(立场有变化)", "(立场未变)"),
        ),
    ],
)
def test_a_stance_change_without_a_usable_reason_is_not_claimed(
    lang: str, unstated: str, claims: tuple[str, ...]
) -> None:
    result = run_debate(
        "Should a town ban fireworks at New Year?", model="scripted:demo", seed=3, lang=lang
    )
    marked = _with_reason(result, "con", marker(lang))
    names = {"en": ("Pro", "Con"), "zh": ("正方", "反方")}[lang]
    lines = to_markdown(marked).splitlines()
    con = next(line for line in lines if line.startswith(f"- **{names[1]}** ("))
    assert unstated in con
    assert not any(claim in con for claim in claims)
    # the side whose reason is usable still says whether its stance changed
    pro = next(line for line in lines if line.startswith(f"- **{names[0]}** ("))
    reason = next(c for c in result.body["closings"] if c["side"] == "pro")["stance_change"]
    assert any(claim.rstrip(")") in pro for claim in claims)
    assert reason["reason"] in pro
