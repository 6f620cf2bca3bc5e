"""A grounded structured debate on the embedded model (SmolLM2-135M) over the two
example documents in ``examples/sources``: it runs end to end, every citation is
checked, every ``verified`` quote is found again in its document by an independent
check, and the verification rate is printed as measured, however low it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from source_checks import check_verified_quotes, verification_rate

import sources_stand_in
from invariants import check_result_json

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "sources"


@pytest.mark.process
@pytest.mark.slow(minutes=15)
def test_grounded_debate_on_the_embedded_model(capsys: pytest.CaptureFixture[str]) -> None:
    sources_stand_in.install()  # the real verifier when it is present
    from moot import run_debate
    from moot.report.markdown import to_markdown

    result = run_debate(
        "Should we migrate the billing service to Rust?",
        model="local",
        seed=7,
        sources=[str(EXAMPLES)],
        timeout=3600.0,  # a loaded machine: the sourced opening is the longest call
    )
    doc = check_result_json(result.model_dump_json())
    assert [d["title"] for d in doc["sources"]["documents"]] == [
        "Billing service: design note (example document)",
        "Incident report INC-2026-031 (example document, invented for moot's examples)",
    ]
    arguments = doc["payload"]["structured"]["arguments"]
    cited = [(a["id"], c["passage"]) for a in arguments for c in a["citations"]]
    assert cited == [(c["unit"], c["passage"]) for c in doc["sources"]["citations"]]
    check_verified_quotes(doc)
    verified, named = verification_rate(doc)
    statuses = [c["status"] for c in doc["sources"]["citations"]]
    briefing = to_markdown(result)
    if named:
        assert f"{verified} of {named} citations of a passage were verified by code" in briefing
    with capsys.disabled():
        print(
            f"\nembedded model over examples/sources: {verified} of {named} citations of a"
            f" passage verified; statuses {json.dumps(statuses)}"
        )
