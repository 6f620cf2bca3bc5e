"""``moot mcp`` through the MCP SDK's own client, in process (the fast tier): every
tool, its schemas and structured content, progress notifications, the server's
policy (models, documents, budgets) and tool arguments refused with the command
line's own messages. The stdio and HTTP transports, cancelling and resuming are in
tests/test_mcp_transports.py; hostile arguments in tests/test_hostile_mcp.py.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
import typer
from mcp import Client
from mcp.shared.exceptions import MCPError
from typer.core import TyperGroup
from typer.testing import CliRunner

from moot.cli import app
from moot.cli.mcp.policy import Policy
from moot.cli.mcp.server import build
from moot.errors import ConfigError
from moot.i18n import labels
from moot.store import Store

TOPIC = "Should a 10-person startup adopt microservices from day one?"
DEMO = "scripted:demo"
TOOLS = {"run_debate", "get_run", "list_runs", "lint_transcript", "resume_run"}


def call(
    policy: Policy,
    steps: Callable[[Client], Awaitable[Any]],
) -> Any:
    async def main() -> Any:
        async with Client(build(policy)) as client:
            return await steps(client)

    return anyio.run(main)


def tool(policy: Policy, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    async def steps(client: Client) -> dict[str, Any]:
        result = await client.call_tool(name, arguments)
        assert not result.is_error, result.content
        assert result.structured_content is not None
        content: dict[str, Any] = result.structured_content
        return content

    out: dict[str, Any] = call(policy, steps)
    return out


def refused(policy: Policy, name: str, arguments: dict[str, Any]) -> MCPError:
    async def steps(client: Client) -> MCPError:
        with pytest.raises(MCPError) as caught:
            await client.call_tool(name, arguments)
        return caught.value

    error: MCPError = call(policy, steps)
    return error


def cli_error(*args: str) -> str:
    """What ``moot`` says when it refuses ``args`` (the message after ``error:``)."""
    done = CliRunner().invoke(app, list(args))
    assert done.exit_code == 2, done.output
    text = " ".join(done.output.split())
    assert text.startswith("error: "), text
    return text.removeprefix("error: ")


POLICY = Policy(models=(DEMO,))


def test_every_tool_declares_an_input_and_an_output_schema() -> None:
    async def steps(client: Client) -> Any:
        return (await client.list_tools()).tools

    listed = {t.name: t for t in call(POLICY, steps)}
    assert set(listed) == TOOLS
    for t in listed.values():
        assert t.input_schema["type"] == "object"
        assert t.output_schema is not None
        assert t.output_schema["type"] == "object"
        assert t.description
    run = listed["run_debate"].input_schema
    assert run["required"] == ["topic"]
    wanted = {"topic", "format", "positions", "sources", "model", "panel", "lang", "budget"}
    assert wanted <= set(run["properties"])
    assert "ctx" not in run["properties"]
    assert listed["get_run"].input_schema["properties"]["view"]["enum"] == ["briefing", "json"]


def test_a_debate_runs_with_progress_and_is_stored_and_shown() -> None:
    seen: list[tuple[float, str | None]] = []

    async def steps(client: Client) -> tuple[Any, ...]:
        async def note(progress: float, total: float | None, message: str | None) -> None:
            seen.append((progress, message))

        ran = await client.call_tool(
            "run_debate", {"topic": TOPIC, "budget": 200_000}, progress_callback=note
        )
        assert ran.structured_content is not None
        run_id = ran.structured_content["run_id"]
        brief = await client.call_tool("get_run", {"run_id": run_id})
        full = await client.call_tool("get_run", {"run_id": run_id, "view": "json"})
        listed = await client.call_tool("list_runs", {"limit": 5})
        return ran, brief, full, listed

    ran, brief, full, listed = call(POLICY, steps)
    summary = ran.structured_content
    assert summary["status"] == "done"
    assert summary["trust"]["level"] in ("ok", "caution", "low")
    leader = summary["verdict"]["leader"]
    keys = [r["key"] for r in summary["verdict"]["ranking"]]
    assert keys
    assert leader is None or leader == keys[0]
    assert summary["verdict"]["sentence"] in summary["briefing"]
    # the text content is the same data (for clients that read text only)
    assert json.loads(ran.content[0].text) == summary
    # progress: rounds and calls, increasing
    assert any(m and m.startswith("round: ") for _, m in seen)
    assert any(m and m.startswith("call pro/") for _, m in seen)
    assert [d for d, _ in seen] == sorted({d for d, _ in seen})
    row = Store().get_debate(summary["run_id"])
    assert row is not None
    assert row.status == "done"
    assert row.config["options"]["max_tokens"] == 200_000
    shown = brief.structured_content
    assert shown["status"] == "done"
    assert shown["result"] is None
    assert summary["verdict"]["sentence"] in shown["briefing"]
    result = full.structured_content["result"]
    assert result["topic"] == TOPIC
    assert full.structured_content["briefing"] is None
    assert [r["id"] for r in listed.structured_content["runs"]] == [summary["run_id"]]


def test_a_run_without_a_budget_gets_the_servers_cap() -> None:
    policy = Policy(models=(DEMO,), token_cap=150_000)
    run_id = tool(policy, "run_debate", {"topic": TOPIC})["run_id"]
    row = Store().get_debate(run_id)
    assert row is not None
    assert row.config["options"]["max_tokens"] == 150_000


def test_a_budget_over_the_cap_is_refused_before_anything_is_stored() -> None:
    policy = Policy(models=(DEMO,), token_cap=1_000)
    error = refused(policy, "run_debate", {"topic": TOPIC, "budget": 1_001})
    assert "over this server's cap of 1000 tokens" in error.message
    assert error.data == {"exit_code": 2, "label": "error:"}
    assert Store().list_debates() == []


def test_a_budget_reached_stops_the_run_as_the_cli_does_and_it_resumes() -> None:
    error = refused(POLICY, "run_debate", {"topic": TOPIC, "budget": 1_500})
    assert error.data["exit_code"] == 4
    (row,) = Store().list_debates()
    assert row.status == "budget_exceeded"
    assert f"resume_run {row.id}" in error.message
    again = tool(POLICY, "resume_run", {"run_id": row.id, "budget": 200_000})
    assert again["run_id"] == row.id
    assert again["status"] == "done"
    stored = Store().get_debate(row.id)
    assert stored is not None
    assert stored.status == "done"
    finished = refused(POLICY, "resume_run", {"run_id": row.id})
    assert finished.message == cli_error("resume", row.id)  # no resume hint for a done run


@pytest.mark.parametrize("stored", [None, 1_000_000])
def test_a_run_started_by_the_cli_resumes_within_the_cap(stored: int | None) -> None:
    """The cap holds for a stored run that had no budget, or a larger one: resume_run
    gives it the cap (the whole debate takes about 5,000 tokens; it stops at 3,000)."""
    done = CliRunner().invoke(
        app, ["run", TOPIC, "--model", DEMO, "--max-tokens", "1500", "--id", "cli-run", "-q"]
    )
    assert done.exit_code == 4, done.output
    store = Store()
    row = store.get_debate("cli-run")
    assert row is not None
    config = dict(row.config)
    config["options"] = {**config["options"], "max_tokens": stored}
    store.update_config("cli-run", config)
    error = refused(Policy(models=(DEMO,), token_cap=3_000), "resume_run", {"run_id": "cli-run"})
    assert error.data["exit_code"] == 4, error.message
    stopped = Store().get_debate("cli-run")
    assert stopped is not None
    assert stopped.status == "budget_exceeded"
    assert stopped.config["options"]["max_tokens"] == 3_000


def test_a_model_the_server_does_not_allow_is_refused() -> None:
    for spec in ("local", "openai:gpt-4o@http://evil.example/v1#HOME", "local:/etc/passwd"):
        error = refused(POLICY, "run_debate", {"topic": TOPIC, "model": spec})
        assert error.message == (
            f"model {spec!r} is not one this server allows (moot mcp --model): {DEMO}"
        )
    assert Store().list_debates() == []


@pytest.mark.parametrize(
    ("arguments", "flags"),
    [
        ({"lang": "fr"}, ["--lang", "fr"]),
        ({"budget": 0}, ["--max-tokens", "0"]),
        ({"max_cost": -1}, ["--max-cost", "-1"]),
        ({"positions": ["a", ""]}, ["--sides", "a;"]),
        ({"positions": ["only"]}, ["--sides", "only"]),
        ({"format": "nosuch"}, ["--format", "nosuch"]),
        ({"panel": ["nosuch"]}, ["--panel", "nosuch"]),
        ({"format_options": {"rounds": 2}}, ["--format-option", "rounds=2"]),
        (
            {"format": "freeform", "format_options": {"rounds": 0}},
            ["--format", "freeform", "--format-option", "rounds=0"],
        ),
    ],
)
def test_arguments_are_refused_with_the_command_lines_message(
    arguments: dict[str, Any], flags: list[str]
) -> None:
    error = refused(POLICY, "run_debate", {"topic": TOPIC, **arguments})
    assert error.message == cli_error("run", TOPIC, "--model", DEMO, *flags)
    assert error.data == {"exit_code": 2, "label": "error:"}


def test_unknown_and_unfinished_runs_read_as_moot_show_says() -> None:
    error = refused(POLICY, "get_run", {"run_id": "nosuch"})
    assert error.message == "no run with id 'nosuch'"
    error = refused(POLICY, "resume_run", {"run_id": "nosuch"})
    assert error.message == "no run with id 'nosuch'"
    error = refused(POLICY, "list_runs", {"limit": -1})
    assert error.message == cli_error("list", "--limit", "-1")


def _folder(tmp_path: Path) -> tuple[Path, Path]:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "notes.md").write_text(
        "# Microservices\n\nA team of ten ships faster with one deployable unit.\n",
        encoding="utf-8",
    )
    secret = tmp_path / "secret.txt"
    secret.write_text("the server's own secret\n", encoding="utf-8")
    return allowed, secret


def test_documents_inside_the_roots_are_argued_from(tmp_path: Path) -> None:
    allowed, _ = _folder(tmp_path)
    policy = Policy.make([DEMO], [allowed], 500_000, None)
    summary = tool(policy, "run_debate", {"topic": TOPIC, "sources": ["notes.md"]})
    full = tool(policy, "get_run", {"run_id": summary["run_id"], "view": "json"})
    (document,) = full["result"]["sources"]["documents"]
    assert Path(document["path"]) == allowed / "notes.md"


def test_no_document_outside_the_roots_is_read(tmp_path: Path) -> None:
    allowed, secret = _folder(tmp_path)
    (allowed / "link.txt").symlink_to(secret)
    (allowed / "sub").mkdir()
    (allowed / "sub" / "deep.txt").symlink_to(secret)
    policy = Policy.make([DEMO], [allowed / "notes.md", allowed / "sub"], 500_000, None)
    for given in (str(secret), "../secret.txt", "../../secret.txt", "link.txt", str(allowed)):
        error = refused(policy, "run_debate", {"topic": TOPIC, "sources": [given]})
        assert error.message == (
            f"--sources {given}: not inside the documents this server allows (moot mcp --sources)"
        )
    # a folder inside the roots holding a link that leads out
    error = refused(policy, "run_debate", {"topic": TOPIC, "sources": [str(allowed / "sub")]})
    assert "not inside the documents this server allows" in error.message
    error = refused(Policy(models=(DEMO,)), "run_debate", {"topic": TOPIC, "sources": ["x"]})
    assert "this server allows no documents" in error.message
    assert Store().list_debates() == []


def test_a_format_option_reads_no_file_outside_the_roots_and_writes_none(tmp_path: Path) -> None:
    allowed, secret = _folder(tmp_path)
    policy = Policy.make([DEMO], [allowed], 500_000, None)
    market = {"format": "market", "format_options": {"kb": str(secret)}}
    error = refused(policy, "run_debate", {"topic": TOPIC, **market})
    assert error.message == (
        f"format option kb: {secret} is not inside the documents this server allows"
        " (moot mcp --sources)"
    )
    audio = {"format": "competitive", "format_options": {"audio_dir": str(allowed)}}
    error = refused(policy, "run_debate", {"topic": TOPIC, **audio})
    assert error.message == "format option audio_dir writes files; it cannot be set over MCP"


def test_runs_that_argued_from_documents_outside_the_roots_are_not_shown(
    tmp_path: Path,
) -> None:
    """A run made by ``moot run --sources`` elsewhere names those paths: not shown."""
    allowed, _secret = _folder(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "doc.md").write_text("Ten people, one service.\n", encoding="utf-8")
    done = CliRunner().invoke(
        app,
        ["run", TOPIC, "--model", DEMO, "--sources", str(outside), "--id", "elsewhere", "-q"],
    )
    assert done.exit_code == 0, done.output
    policy = Policy.make([DEMO], [allowed], 500_000, None)
    assert tool(policy, "list_runs", {})["runs"] == []
    assert refused(policy, "get_run", {"run_id": "elsewhere"}).message == (
        "no run with id 'elsewhere'"
    )
    opened = Policy.make([DEMO], [outside], 500_000, None)
    assert [r["id"] for r in tool(opened, "list_runs", {})["runs"]] == ["elsewhere"]


def test_lint_reads_a_transcript_or_a_chat_list(tmp_path: Path) -> None:
    turns = [
        {"side": "pro", "text": "Microservices let teams deploy alone."},
        {"side": "con", "text": "Only an idiot would say that, you fool."},
    ]
    transcript = {
        "topic": TOPIC,
        "lang": "en",
        "sides": {"pro": "yes", "con": "no"},
        "turns": turns,
    }
    linted = tool(POLICY, "lint_transcript", {"transcript": transcript})
    path = tmp_path / "t.json"
    path.write_text(json.dumps(transcript), encoding="utf-8")
    cli = CliRunner().invoke(app, ["lint", str(path), "--json"])
    assert linted["flags"] == json.loads(cli.output)["flags"]
    assert any(f["detector"] == "ad_hominem" and f["turn"] == 1 for f in linted["flags"])
    messages = [{"role": "assistant", "name": t["side"], "content": t["text"]} for t in turns]
    chat = tool(POLICY, "lint_transcript", {"messages": messages})
    assert chat["flags"] == linted["flags"]
    assert chat["turns"] == 2


def test_lint_refuses_what_moot_lint_refuses() -> None:
    error = refused(POLICY, "lint_transcript", {"transcript": {"topic": "x", "turns": "no"}})
    assert error.message.startswith("transcript: not a valid transcript")
    error = refused(POLICY, "lint_transcript", {"messages": [{"content": "hi"}]})
    assert error.message == "messages: messages[0] has neither a name nor a role"
    error = refused(POLICY, "lint_transcript", {})
    assert error.message == "give either transcript or messages"


def test_the_policy_refuses_a_bad_server_command_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--budget-cap"):
        Policy.make([DEMO], [], 0, None)
    with pytest.raises(ConfigError, match="unknown model provider"):
        Policy.make(["nosuch:x"], [], 10, None)
    with pytest.raises(ConfigError, match="no such file or folder"):
        Policy.make([DEMO], [tmp_path / "missing"], 10, None)
    done = CliRunner().invoke(app, ["mcp", "--port", "70000", "--http"])
    assert done.exit_code == 2
    assert "--port" in done.output
    for host, said in (("0.0.0.0", "would serve every interface"), ("example.org", "IP address")):  # noqa: S104
        done = CliRunner().invoke(app, ["mcp", "--http", "--host", host])
        assert done.exit_code == 2
        assert said in done.output
    done = CliRunner().invoke(app, ["mcp", "--port", "9000"])
    assert done.exit_code == 2
    assert "need --http" in done.output


def test_a_chinese_debate_gets_a_chinese_short_briefing() -> None:
    summary = tool(
        POLICY, "run_debate", {"topic": "小团队应该从第一天就采用微服务吗？", "lang": "zh"}
    )
    english = tool(POLICY, "run_debate", {"topic": TOPIC})
    assert summary["briefing"].splitlines()[1].startswith(labels("zh")["trust"])
    assert english["briefing"].splitlines()[1].startswith(labels("en")["trust"])
    assert labels("zh")["trust"] != labels("en")["trust"]


def test_the_readmes_client_configuration_is_a_valid_command_line() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split('"mcpServers"', 1)[1]
    snippet = json.loads('{"mcpServers"' + block.split("\n```", 1)[0])
    server = snippet["mcpServers"]["moot"]
    assert server["command"] == "moot"
    name, *args = server["args"]
    assert name == "mcp"
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    command = group.commands[name]
    parsed = command.make_context(name, list(args)).params
    assert list(parsed["model"]) == ["local"]
    assert parsed["budget_cap"] == 200_000
