"""The published JSON Schemas of the market format's input files.

``python -m moot.formats.market.data.publish_schemas [DIR]`` writes them into ``DIR`` (default
``docs``):
``market-kb.schema.json`` (a knowledge base) and ``market-outcome.schema.json`` (a
backtest snapshot's outcome). A test keeps the files in docs/ equal to this output.
"""

from __future__ import annotations

import json
from typing import Any

from moot.formats.market.data.kb import KnowledgeBase
from moot.formats.market.data.snapshots import Outcome

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _with_header(schema: dict[str, Any], title: str, description: str) -> dict[str, Any]:
    return {"$schema": SCHEMA_DIALECT, **schema, "title": title, "description": description}


def kb_json_schema() -> dict[str, Any]:
    """JSON Schema of a market knowledge base (``x-unit`` gives each number's unit)."""
    return _with_header(
        KnowledgeBase.model_json_schema(),
        "moot market knowledge base",
        "Market data the analysts of moot's market format argue from. Numbers carry their"
        " unit in x-unit: percent (percentage points), ratio (a multiple), level (price,"
        " index level or price-unit indicator), score (bounded oscillator), count.",
    )


def outcome_json_schema() -> dict[str, Any]:
    """JSON Schema of a backtest snapshot's ``outcome.json``."""
    return _with_header(
        Outcome.model_json_schema(),
        "moot backtest outcome",
        "What happened after a snapshot: the target index's return over the horizon.",
    )


def schema_files() -> dict[str, str]:
    """File name -> content of every published schema."""
    return {
        name: json.dumps(schema, ensure_ascii=False, indent=2) + "\n"
        for name, schema in (
            ("market-kb.schema.json", kb_json_schema()),
            ("market-outcome.schema.json", outcome_json_schema()),
        )
    }
