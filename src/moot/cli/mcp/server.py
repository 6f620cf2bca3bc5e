"""``moot mcp``'s server: moot's tools on the official MCP SDK (``mcp``), over
stdio or streamable HTTP.

Each tool declares its input schema (from its typed parameters) and its output
schema (a pydantic model), and returns structured content. A long tool reports
progress as MCP progress notifications, one for each round started and each model
call finished; a client's cancel cancels the tool's task, which stops the debate as
Ctrl-C does (stored as interrupted, resumable with ``resume_run``). Every failure is
an MCP error whose message is the command line's and whose data holds the exit code
``moot`` would end with.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, ToolAnnotations
from pydantic import BaseModel, Field

from moot.cli.mcp import tools
from moot.cli.mcp.policy import Policy
from moot.view.serve import bind, is_loopback

if TYPE_CHECKING:
    from moot.events import Event

T = TypeVar("T")

INSTRUCTIONS = (
    "moot runs a structured debate between LLM agents on a contested question and"
    " returns a verdict with a trust level (ok, caution, low) and a decision briefing."
    " Call run_debate for a second opinion before a decision; get_run shows a stored run,"
    " list_runs the recent ones, resume_run continues one that stopped, and"
    " lint_transcript checks any debate transcript for pathologies."
)


class RunSummary(BaseModel):
    """A finished run: its id, trust verdict, verdict and short briefing."""

    run_id: str | None
    status: str
    trust: dict[str, Any] = Field(description="level (ok, caution, low) and its reasons")
    verdict: dict[str, Any] = Field(
        description="leader (a position key or null), sentence, ranking"
    )
    briefing: str = Field(description="the verdict, the trust line and the ranking, as text")


class StoredRun(BaseModel):
    """A stored run: its status and, when finished, its briefing or its result."""

    run_id: str
    status: str
    topic: str
    format: str
    error: str | None
    trust: dict[str, Any] | None
    briefing: str | None = Field(description="the Markdown briefing (view=briefing)")
    result: dict[str, Any] | None = Field(
        description="the result JSON (view=json), see moot schema"
    )


class RunList(BaseModel):
    runs: list[dict[str, Any]] = Field(description="recent runs, newest first, as moot list --json")


class LintReport(BaseModel):
    lang: str
    turns: int
    flags: list[dict[str, Any]] = Field(description="detector, turn, side, evidence")


def _error(exc: Exception) -> MCPError:
    """An MCP error for what a command would end with: invalid params for what
    ``moot`` refuses with exit code 2, else an internal error with the code in data."""
    from moot.cli.support import ExitCode, describe

    code, label, message = describe(exc)
    notes = [str(n) for n in getattr(exc, "__notes__", [])]
    text = " ".join([message, *notes])
    rpc = INVALID_PARAMS if code == ExitCode.USAGE else INTERNAL_ERROR
    return MCPError(rpc, text, {"exit_code": int(code), "label": label})


async def _guarded(work: Callable[[], Awaitable[T]]) -> T:
    try:
        return await work()
    except MCPError:
        raise
    except Exception as exc:
        raise _error(exc) from exc


def _progress_line(event: Event) -> str | None:
    """What a progress notification says about ``event`` (None: no notification)."""
    from moot.events import CallFinished, RoundStarted, SourcesIndexed
    from moot.safe_text import one_line

    if isinstance(event, RoundStarted):
        return f"round: {one_line(event.round)}"
    if isinstance(event, SourcesIndexed):
        return f"sources: {event.done}/{event.total} documents read"
    if isinstance(event, CallFinished) and event.sent:
        role = one_line(f"{event.context.role}/{event.context.round}")
        status = "failed" if event.error else "done"
        tokens = event.usage.prompt_tokens + event.usage.completion_tokens
        return f"call {role} {status} ({tokens} tokens)"
    return None


async def _with_progress(
    ctx: Context, work: Callable[[Callable[[Event], None]], Awaitable[T]]
) -> T:
    """Run ``work`` with a listener whose events become progress notifications
    (sent from a task of their own: the engine's listener does not wait)."""
    send, receive = anyio.create_memory_object_stream[str](math.inf)

    def listener(event: Event) -> None:
        line = _progress_line(event)
        if line is not None:
            send.send_nowait(line)

    async def forward() -> None:
        count = 0
        async with receive:
            async for line in receive:
                count += 1
                await ctx.report_progress(count, None, line)

    failure: Exception | None = None
    async with anyio.create_task_group() as group:
        group.start_soon(forward)
        try:
            result = await work(listener)
        except Exception as exc:  # raised as it is, not in the task group's group
            failure = exc
        finally:
            send.close()
    if failure is not None:
        raise failure
    return result


def _store() -> Any:
    from moot.store import Store

    return Store()


def build(policy: Policy) -> MCPServer:
    """The MCP server with moot's five tools under ``policy``."""
    from moot import __version__

    server: MCPServer = MCPServer(
        "moot", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )

    async def run_debate(
        ctx: Context,
        topic: Annotated[str, Field(description="The contested question to debate.")],
        format: Annotated[
            str | None, Field(description="Debate format (moot formats): structured by default.")
        ] = None,
        positions: Annotated[
            list[str] | None,
            Field(description="2-6 position names (default: pro and con), as --sides."),
        ] = None,
        format_options: Annotated[
            dict[str, Any] | None,
            Field(description="The format's own options, as --format-option KEY=VALUE."),
        ] = None,
        sources: Annotated[
            list[str] | None,
            Field(description="Documents or folders inside the server's --sources to argue from."),
        ] = None,
        model: Annotated[
            str | None, Field(description="A model spec the server allows (default: its first).")
        ] = None,
        panel: Annotated[
            list[str] | None,
            Field(description="Judge panel profiles, e.g. technical, business, risk, general."),
        ] = None,
        lang: Annotated[
            str, Field(description="Language of prompts and briefing: en or zh.")
        ] = "en",
        budget: Annotated[
            int | None,
            Field(description="Token budget of the run (default and most: the server's cap)."),
        ] = None,
        max_cost: Annotated[
            float | None, Field(description="Cost budget in US dollars (needs prices).")
        ] = None,
    ) -> RunSummary:
        """Run a debate on a topic and return its run id, trust verdict, verdict and a
        short briefing. Long: progress is reported; cancelling stops the run, which
        stays stored as interrupted and can be continued with resume_run."""

        async def work() -> RunSummary:
            options = tools.run_options(
                policy,
                format=format,
                positions=positions,
                format_options=format_options,
                sources=sources,
                model=model,
                panel=panel,
                lang=lang,
                budget=budget,
                max_cost=max_cost,
            )
            store = _store()
            try:
                data = await _with_progress(
                    ctx, lambda on: tools.run_debate(policy, topic, options, store, on)
                )
            finally:
                store.close()
            return RunSummary(**data)

        return await _guarded(work)

    async def resume_run(
        ctx: Context,
        run_id: Annotated[str, Field(description="The id of an unfinished run.")],
        budget: Annotated[
            int | None,
            Field(description="A new token budget (default: the stored one, within the cap)."),
        ] = None,
    ) -> RunSummary:
        """Continue an interrupted, failed or stopped run; completed calls are not sent
        again. Reports progress and can be cancelled like run_debate."""

        async def work() -> RunSummary:
            store = _store()
            try:
                data = await _with_progress(
                    ctx, lambda on: tools.resume_run(policy, run_id, budget, store, on)
                )
            finally:
                store.close()
            return RunSummary(**data)

        return await _guarded(work)

    async def get_run(
        run_id: Annotated[str, Field(description="Run id.")],
        view: Annotated[
            Literal["briefing", "json"],
            Field(description="briefing (Markdown) or json (the full result)."),
        ] = "briefing",
    ) -> StoredRun:
        """Show a stored run: its status and, when finished, its briefing or result JSON."""

        async def work() -> StoredRun:
            store = _store()
            try:
                return StoredRun(**tools.get_run(policy, store, run_id, view == "json"))
            finally:
                store.close()

        return await _guarded(work)

    async def list_runs(
        limit: Annotated[int, Field(description="How many recent runs.")] = 20,
    ) -> RunList:
        """List recent runs: id, topic, format, status, trust, models, tokens, cost."""

        async def work() -> RunList:
            store = _store()
            try:
                return RunList(runs=tools.list_runs(policy, store, limit))
            finally:
                store.close()

        return await _guarded(work)

    async def lint_transcript(
        transcript: Annotated[
            dict[str, Any] | None,
            Field(
                description='moot lint\'s input: {"topic", "lang", "sides": {NAME: stance},'
                ' "turns": [{"side", "text"}], "judge_scores" (optional)}.'
            ),
        ] = None,
        messages: Annotated[
            list[Any] | None,
            Field(description='An OpenAI-style chat list [{"role", "name", "content"}].'),
        ] = None,
    ) -> LintReport:
        """Run moot's debate detectors on a transcript from moot or any other system."""

        async def work() -> LintReport:
            return LintReport(**tools.lint_transcript(transcript, messages))

        return await _guarded(work)

    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    server.add_tool(run_debate, annotations=ToolAnnotations(open_world_hint=True))
    server.add_tool(resume_run, annotations=ToolAnnotations(open_world_hint=True))
    server.add_tool(get_run, annotations=read_only)
    server.add_tool(list_runs, annotations=read_only)
    server.add_tool(lint_transcript, annotations=read_only)
    return server


def _guard(host: str) -> TransportSecuritySettings:
    """Requests whose ``Host`` (and ``Origin``, when sent) is not the served address are
    refused, so a web page cannot reach the server by DNS rebinding (as the viewer)."""
    from moot.view.security import host_name

    names = ["127.0.0.1", "localhost", "[::1]"] if is_loopback(host) else [host_name(host)]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:*" for name in names],
        allowed_origins=[f"http://{name}:*" for name in names],
    )


def serve(policy: Policy, http: bool, host: str, port: int, say: Callable[[str], object]) -> None:
    """Serve until the client leaves (stdio) or the process is stopped (HTTP). Over
    HTTP the address is bound as the viewer binds its own (one IP address, no
    wildcard), with a warning when it is not loopback."""
    server = build(policy)
    if not http:
        server.run("stdio")
        return
    import uvicorn

    from moot.safe_text import one_line
    from moot.view.security import host_name

    listening = bind(host, port)
    # the warning first, as the viewer says it: whoever waits for the "serving" line has
    # both (a client can connect as soon as the socket is bound)
    if not is_loopback(host):
        say(
            f"warning: serving on {one_line(host)}: anyone who can reach it can run debates"
            " on this machine's models"
        )
    say(f"moot mcp: serving http://{host_name(host)}:{listening.getsockname()[1]}/mcp")
    app = server.streamable_http_app(host=host, transport_security=_guard(host))
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[listening])
