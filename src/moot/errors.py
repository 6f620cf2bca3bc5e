"""Every error moot raises, in one hierarchy.

::

    MootError                  base class: catch this to catch everything moot raises
    +-- ConfigError            the caller's mistake: bad model spec, bad option, missing extra
    |   +-- DataError          an input data file (knowledge base, CSV, snapshot set) is
    |                          malformed; the message names the file and the place
    |   +-- StoreError         the run store cannot be used (MOOT_HOME); names the path and fix
    |   +-- SpeechUnavailable  espeak-ng cannot be loaded (the competitive format's timing)
    |   +-- TranscriptError    a transcript given to the detectors (``moot lint``) is unreadable
    +-- BackendError           the transport failed: dead endpoint, HTTP error, model load failure
    |   +-- RetryError         the retries ran out (RetriesExhausted) or the server's
    |                          Retry-After was over the cap (RetryAfterTooLong); these
    |                          three live in moot.llm.retry, beside the events they carry
    +-- ModelOutputError       the model misbehaved: its reply never validated after the
                               allowed re-asks; carries every raw reply and the errors
    +-- BudgetExceeded         the next call could take the run past --max-tokens or
                               --max-cost; raised before the call is sent
    +-- OutputError            a result could not be written (a --json path, standard output)
    +-- SpeechError            espeak-ng was loaded but failed to synthesise a text

A ``ModelOutputError`` is never swallowed and never replaced by invented content:
the orchestration stops and the caller sees what the model actually wrote.
"""

from __future__ import annotations

from collections.abc import Sequence


class MootError(Exception):
    """Base class of every error raised by moot."""


class ConfigError(MootError):
    """The caller asked for something that cannot work (bad spec, option, or missing extra)."""


class DataError(ConfigError):
    """An input data file (a market knowledge base, a CSV series, a backtest snapshot
    set) is malformed. The message names the file and where in it the problem is."""


class StoreError(ConfigError):
    """The run store cannot be opened, read or written: the message names the file and
    what to do (free the path, move a damaged file away, or set ``MOOT_HOME``)."""


class SpeechUnavailable(ConfigError):
    """espeak-ng cannot be loaded here; the message says why and how to install it."""


class SpeechError(MootError):
    """espeak-ng was loaded but failed to synthesise a text."""


class TranscriptError(ConfigError):
    """A transcript that cannot be read: not UTF-8, not JSON, or not a transcript."""


class OutputError(MootError):
    """A result could not be written where it was asked to go."""


class BackendError(MootError):
    """A model backend failed to produce a reply (transport, server or runtime failure)."""

    def __init__(self, message: str, *, spec: str | None = None) -> None:
        super().__init__(message)
        self.spec = spec


class ModelOutputError(MootError):
    """A model's reply never satisfied its schema and rules within the re-ask budget.

    ``raw`` is the last raw reply; ``attempts`` holds every raw reply in order, and
    ``errors`` the validation problems of the last attempt.
    """

    def __init__(
        self,
        message: str,
        *,
        raw: str,
        attempts: Sequence[str] = (),
        errors: Sequence[str] = (),
        role: str | None = None,
    ) -> None:
        super().__init__(message)
        self.raw = raw
        self.attempts = list(attempts)
        self.errors = list(errors)
        self.role = role

    def __str__(self) -> str:
        base = super().__str__()
        detail = "; ".join(self.errors[:5])
        snippet = self.raw if len(self.raw) <= 300 else self.raw[:300] + "..."
        return f"{base}\n  errors: {detail}\n  last raw reply: {snippet!r}"


class BudgetExceeded(MootError):
    """The next model call could take the run over its token or cost budget.

    Raised *before* the call is sent; ``used`` and ``limit`` are in the budget's unit
    (tokens or US dollars) and ``unit`` says which.
    """

    def __init__(self, message: str, *, used: float, limit: float, unit: str) -> None:
        super().__init__(message)
        self.used = used
        self.limit = limit
        self.unit = unit
