"""Live progress for the CLI: current round, calls in flight, retries, tokens so far.

On a terminal a one-line status is redrawn in place (the clock keeps running while a
call waits); otherwise (CI logs, pipes) each round, finished call and retry is printed
as a plain line, and a call that takes long gets a "still waiting" line every
``heartbeat`` seconds, so a slow or hanging server is never silent.

Everything shown comes from events that may carry text from models and servers (a
re-ask's problems, an error body): it is printed as plain text with control characters
escaped, never as markup.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType

from rich.console import Console, ConsoleOptions, RenderResult
from rich.live import Live
from rich.text import Text

from moot.events import (
    CallFinished,
    CallStarted,
    Event,
    OptionAdvice,
    Reasked,
    Retrying,
    RoundStarted,
    RunStored,
    SourcesIndexed,
)
from moot.safe_text import one_line

HEARTBEAT_SECONDS = 30.0


class _Status:
    """The live status line, recomputed at every refresh."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._progress.status()


class Progress:
    """Turns debate events into a status display on ``console`` (stderr)."""

    def __init__(
        self, console: Console, *, enabled: bool = True, heartbeat: float = HEARTBEAT_SECONDS
    ) -> None:
        self.console = console
        self.enabled = enabled
        self.heartbeat = heartbeat
        self.round = "starting"
        self.in_flight: dict[int, str] = {}
        self.waiting: dict[int, str] = {}
        self.calls = 0
        self.reasks = 0
        self.retries = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._started = time.perf_counter()
        self._last_line = self._started
        self._live: Live | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def __enter__(self) -> Progress:
        self._started = self._last_line = time.perf_counter()
        if not self.enabled:
            return self
        if self.console.is_terminal:
            self._live = Live(
                _Status(self), console=self.console, refresh_per_second=4, transient=True
            )
            self._live.__enter__()
        else:
            self._stop.clear()
            self._ticker = threading.Thread(target=self._tick, name="moot-progress", daemon=True)
            self._ticker.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join(timeout=2)
            self._ticker = None
        if self._live is not None:
            self._live.__exit__(exc_type, exc, tb)
            self._live = None

    def _elapsed(self) -> float:
        return time.perf_counter() - self._started

    def status(self) -> Text:
        """The one-line status: round, calls in flight (and retry waits), totals."""
        with self._lock:
            flying = ", ".join(
                f"{label} ({self.waiting[call]})" if call in self.waiting else label
                for call, label in self.in_flight.items()
            )
            return Text(
                f"[{self._elapsed():6.1f}s] round: {self.round} | in flight: {flying or '-'}"
                f" | calls: {self.calls} (re-asks {self.reasks}, retries {self.retries})"
                f" | tokens: {self.prompt_tokens} prompt + {self.completion_tokens} completion"
            )

    def _print(self, line: str) -> None:
        """A plain line (any text in it is shown, never interpreted)."""
        self._last_line = time.perf_counter()
        self.console.print(Text(f"[{self._elapsed():6.1f}s] {line}"), soft_wrap=True)

    def _plain(self, line: str) -> None:
        if self.enabled and self._live is None:
            self._print(line)

    def _tick(self) -> None:
        """Plain mode: say which calls are still out when nothing was printed for a while."""
        while not self._stop.wait(min(1.0, self.heartbeat)):
            with self._lock:
                quiet_for = time.perf_counter() - self._last_line
                labels = list(self.in_flight.values())
            if labels and quiet_for >= self.heartbeat:
                self._print(f"still waiting for {', '.join(labels)}")

    def handle(self, event: Event) -> None:
        """Update the display for one event. Advice on the options is printed even
        when the display is off (``--quiet``): it is a warning, not progress."""
        if isinstance(event, OptionAdvice):
            self.console.print(Text(f"warning: {one_line(event.message)}"), soft_wrap=True)
            return
        with self._lock:
            line = self._update(event)
        if line is not None:
            if isinstance(event, RunStored):
                if self.enabled:
                    self.console.print(Text(line), soft_wrap=True)
            else:
                self._plain(line)
        if self._live is not None:
            self._live.refresh()

    def _update(self, event: Event) -> str | None:
        if isinstance(event, RunStored):
            ident = one_line(event.debate_id)
            return f"run id: {ident}  (resume with: moot resume {ident})"
        if isinstance(event, SourcesIndexed):
            every = max(1, event.total // 20)
            if event.done == event.total or event.done % every == 0:
                return (
                    f"sources: {event.done}/{event.total} documents read"
                    f" ({event.indexed} newly indexed)"
                )
            return None
        if isinstance(event, RoundStarted):
            self.round = one_line(event.round)
            return f"round: {self.round}"
        if isinstance(event, CallStarted):
            self.in_flight[event.call_id] = one_line(f"{event.context.role}/{event.context.round}")
            return None
        if isinstance(event, Retrying):
            self.retries += 1
            label = self.in_flight.get(event.call_id, one_line(event.context.role))
            self.waiting[event.call_id] = f"attempt {event.attempt + 1}, {one_line(event.reason)}"
            return (
                f"call {label}: attempt {event.attempt} failed ({one_line(event.reason)});"
                f" retrying in {event.delay:.1f}s"
            )
        if isinstance(event, CallFinished):
            label = self.in_flight.pop(event.call_id, one_line(event.context.role))
            self.waiting.pop(event.call_id, None)
            if not event.sent:
                return f"call {label} not sent: {one_line(event.error or '')}"
            self.calls += 1
            self.prompt_tokens += event.usage.prompt_tokens
            self.completion_tokens += event.usage.completion_tokens
            status = f"failed: {one_line(event.error)}" if event.error else "done"
            return (
                f"call {label} {status} in {event.seconds:.1f}s"
                f" ({event.usage.prompt_tokens}+{event.usage.completion_tokens} tokens;"
                f" total {self.prompt_tokens}+{self.completion_tokens})"
            )
        if isinstance(event, Reasked):
            self.reasks += 1
            problems = "; ".join(one_line(p) for p in event.problems[:3])
            return (
                f"re-ask {one_line(event.context.role)}/{one_line(event.context.round)}"
                f" (attempt {event.attempt}): {problems}"
            )
        return None
