"""Live progress for the CLI: current round, calls in flight, tokens so far.

On a terminal a one-line status is redrawn in place; otherwise (CI logs, pipes)
each round and each finished call is printed as a plain line.
"""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.live import Live
from rich.text import Text

from moot.events import CallFinished, CallStarted, Event, Reasked, RoundStarted


class Progress:
    """Turns debate events into a status display on ``console`` (stderr)."""

    def __init__(self, console: Console, *, enabled: bool = True) -> None:
        self.console = console
        self.enabled = enabled
        self.round = "starting"
        self.in_flight: dict[int, str] = {}
        self.calls = 0
        self.reasks = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._started = time.perf_counter()
        self._live: Live | None = None

    def __enter__(self) -> Progress:
        self._started = time.perf_counter()
        if self.enabled and self.console.is_terminal:
            self._live = Live(
                self._status(), console=self.console, refresh_per_second=4, transient=True
            )
            self._live.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._live is not None:
            self._live.__exit__(exc_type, exc, tb)
            self._live = None

    def _status(self) -> Text:
        flying = ", ".join(self.in_flight.values()) or "-"
        elapsed = time.perf_counter() - self._started
        return Text(
            f"[{elapsed:6.1f}s] round: {self.round} | in flight: {flying} | calls: {self.calls}"
            f" (re-asks {self.reasks}) | tokens: {self.prompt_tokens} prompt +"
            f" {self.completion_tokens} completion"
        )

    def _plain(self, line: str) -> None:
        if self.enabled and self._live is None:
            elapsed = time.perf_counter() - self._started
            self.console.print(f"[{elapsed:6.1f}s] {line}", highlight=False)

    def handle(self, event: Event) -> None:
        """Update the display for one event."""
        if isinstance(event, RoundStarted):
            self.round = event.round
            self._plain(f"round: {event.round}")
        elif isinstance(event, CallStarted):
            self.in_flight[event.call_id] = f"{event.context.role}/{event.context.round}"
        elif isinstance(event, CallFinished):
            label = self.in_flight.pop(event.call_id, event.context.role)
            self.calls += 1
            self.prompt_tokens += event.usage.prompt_tokens
            self.completion_tokens += event.usage.completion_tokens
            status = f"failed: {event.error}" if event.error else "done"
            self._plain(
                f"call {label} {status} in {event.seconds:.1f}s"
                f" ({event.usage.prompt_tokens}+{event.usage.completion_tokens} tokens;"
                f" total {self.prompt_tokens}+{self.completion_tokens})"
            )
        elif isinstance(event, Reasked):
            self.reasks += 1
            self._plain(
                f"re-ask {event.context.role}/{event.context.round} (attempt {event.attempt}):"
                f" {'; '.join(event.problems[:3])}"
            )
        if self._live is not None:
            self._live.update(self._status())
