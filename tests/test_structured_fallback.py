"""A schema a server refused in its usual structured-output mode is recorded: in the
call journal (migration 0004), in the result's usage, in the briefing's notes, and
it survives a resume. (The fallback itself is tested against real servers in
tests/llm/test_retry.py and tests/test_llama_server.py.)"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from moot import run_debate, to_markdown
from moot.debate import resume_debate
from moot.errors import BackendError
from moot.llm.backend import Backend, ProviderFactory
from moot.llm.scripted import DemoBackend
from moot.llm.types import (
    CallContext,
    Completion,
    GenerationSettings,
    Message,
    ModeFallback,
    OutputSpec,
)
from moot.llm.wrapper import Wrapper
from moot.schema import StructuredFallback
from moot.store import MIGRATIONS, Store

TOPIC = "Should a 10-person startup adopt microservices from day one?"
REASON = "HTTP 400: JSON schema error at #/properties/responses/items: schema must be an object"
FALLBACK = ModeFallback("prompt", ("json_schema", "json_object"), REASON)


class RefusingServer(Wrapper):
    """Replies as ``inner`` does, labelled the way OpenAIBackend labels a server that
    refuses the cross-examination schema; optionally fails every judge call."""

    fail_judge = False

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        if self.fail_judge and context is not None and context.round == "judgement":
            raise BackendError("the judge's server went away", spec=self.spec)
        completion = await self._inner.generate(
            messages, schema=schema, settings=settings, context=context
        )
        if schema is None:
            return completion
        if schema.name == "CrossExamReply":
            return dataclasses.replace(completion, structured_mode="prompt", fallback=FALLBACK)
        return dataclasses.replace(completion, structured_mode="json_schema")


@pytest.fixture
def refusing(use_provider: Callable[[str, ProviderFactory], None]) -> list[RefusingServer]:
    """``scripted:demo`` resolves to a RefusingServer around the demo (stored runs and
    resumes name their models by spec); the ones made are listed."""
    made: list[RefusingServer] = []

    def factory(rest: str, seed: int | None, timeout: float | None) -> Backend:
        made.append(RefusingServer(DemoBackend.from_spec(rest, seed=seed, timeout=timeout)))
        return made[-1]

    use_provider("scripted", factory)
    return made


EXPECTED = StructuredFallback(
    model="scripted:demo",
    schema_name="CrossExamReply",
    mode="prompt",
    rejected=["json_schema", "json_object"],
    reason=REASON,
    calls=2,
)


@pytest.mark.usefixtures("refusing")
def test_fallbacks_reach_the_journal_the_usage_and_the_briefing(tmp_path: Path) -> None:
    with Store(tmp_path / "moot.db") as store:
        result = run_debate(TOPIC, model="scripted:demo", seed=3, store=store, debate_id="fb")
        calls = store.calls("fb")
    assert result.usage.structured_fallbacks == [EXPECTED]
    cross = [c for c in calls if c.schema_name == "CrossExamReply"]
    others = [c for c in calls if c.schema_name != "CrossExamReply"]
    assert len(cross) == 2
    assert all(c.structured_mode == "prompt" for c in cross)
    assert all(
        c.structured_fallback == {"rejected": ["json_schema", "json_object"], "reason": REASON}
        for c in cross
    )
    assert others
    assert all((c.structured_mode, c.structured_fallback) == ("json_schema", None) for c in others)

    briefing = to_markdown(result)
    notes = briefing.split("## Notes", 1)[1]
    assert "CrossExamReply" in notes
    assert "schema must be an object" in notes
    assert "2 call(s)" in notes
    assert "The server behind scripted:demo refused" in notes
    chinese = to_markdown(result.model_copy(update={"lang": "zh"}))
    assert "## 说明" in chinese
    assert "2 次调用" in chinese


def test_a_debate_without_fallbacks_has_no_notes() -> None:
    result = run_debate(TOPIC, model="scripted:demo", seed=3)
    assert result.usage.structured_fallbacks == []
    assert "## Notes" not in to_markdown(result)


def test_a_resumed_run_keeps_the_fallbacks_of_its_journaled_calls(
    tmp_path: Path, refusing: list[RefusingServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(RefusingServer, "fail_judge", True)
    with Store(tmp_path / "moot.db") as store:
        with pytest.raises(BackendError, match="went away"):
            run_debate(TOPIC, model="scripted:demo", seed=3, store=store, debate_id="resumed")
        monkeypatch.setattr(RefusingServer, "fail_judge", False)
        resumed = resume_debate("resumed", store=store)
        sources = [c.source for c in store.calls("resumed") if c.schema_name == "CrossExamReply"]
    # the cross-examinations were replayed from the journal, not sent again, and
    # still count as fallbacks
    assert sources == ["live", "live"]
    assert resumed.usage.structured_fallbacks == [EXPECTED]


def test_migration_0004_adds_the_columns_to_an_existing_store(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    names = [name for name, _ in MIGRATIONS]
    assert names.index("0004_call_structured_mode") == 3
    # a store as the previous release left it: migrations 0001-0003 only
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, migration in MIGRATIONS[:3]:
        migration(conn)
        conn.execute("INSERT INTO migrations VALUES (?, '2026-01-01T00:00:00+00:00')", (name,))
    conn.commit()
    conn.close()
    with Store(path) as store:
        assert [name for name, _ in store.migrations()] == names
        store.create_debate("old", topic="t", format="structured", config={}, models={})
        call = store.record_call(
            "old",
            role="pro",
            round="opening",
            side="pro",
            attempt=1,
            model="openai:m@http://127.0.0.1:1/v1",
            request_hash="h",
            messages=[{"role": "user", "content": "x"}],
            schema_name="OpeningReply",
            reply="{}",
            finish_reason="stop",
            prompt_tokens=1,
            completion_tokens=1,
            latency_ms=1.0,
            error=None,
            structured_mode="json_object",
            structured_fallback={"rejected": ["json_schema"], "reason": "HTTP 400: no"},
        )
        (row,) = store.calls("old")
    assert row.id == call
    assert row.structured_mode == "json_object"
    assert row.structured_fallback == {"rejected": ["json_schema"], "reason": "HTTP 400: no"}
