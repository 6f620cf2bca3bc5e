"""A possible fallacy whose quote does not occur in the debate is shown as the judge's
words not found there, never as a quote: no quotation marks in the briefing, no
blockquote in the HTML report (the README's quick start showed such words in quotes
with a note after them)."""

from __future__ import annotations

import html

import pytest

from moot import run_debate
from moot.report.html import to_html
from moot.report.markdown import to_markdown
from moot.schema import DebateResult, Fallacy

MADE_UP = "A company with many employees will be too reliant on their own personal dat"


def _with_fallacies(result: DebateResult, found: str) -> DebateResult:
    flags = [
        Fallacy(argument_id="PRO-1", type="straw_man", quote=MADE_UP, verified=False),
        Fallacy(argument_id="CON-1", type="ad_hominem", quote=found, verified=True),
    ]
    judgement = result.judgement.model_copy(update={"fallacies": flags})
    return result.model_copy(update={"judgement": judgement})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_quote_not_in_the_debate_is_never_shown_as_a_quote(lang: str) -> None:
    result = run_debate(
        "Should a town ban fireworks at New Year?", model="scripted:demo", seed=3, lang=lang
    )
    found = result.judgement.trace[0].claim[:30]
    flagged = _with_fallacies(result, found)
    lines = [line for line in to_markdown(flagged).splitlines() if MADE_UP in line]
    assert len(lines) == 1
    assert f'"{MADE_UP}"' not in lines[0]
    assert f"“{MADE_UP}”" not in lines[0]
    # a quote that was found is still quoted
    assert any(f'"{found}"' in line for line in to_markdown(flagged).splitlines())
    page = to_html(flagged).replace("&#34;", "&quot;")
    assert html.escape(MADE_UP) in page
    assert f"<blockquote>{html.escape(MADE_UP)}</blockquote>" not in page
    assert f"<blockquote>{html.escape(found)}</blockquote>" in page
