"""Secrets out of everything the viewer shows from the journal: prompts, replies,
errors and model specs may hold an API key (a key pasted into a prompt, an
``Authorization`` header echoed in a server's error, a URL with a password). Every
value of an environment variable whose name says it is a secret, and everything that
looks like a key, a bearer token or a password, is replaced by ``[redacted]``."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

REDACTED = "[redacted]"
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH", re.IGNORECASE)
MIN_SECRET = 6
"""Shorter environment values (``1``, ``true``) are not taken for secrets."""

PATTERNS = (
    # Authorization: Bearer xyz / Authorization: Basic xyz / Bearer xyz
    re.compile(r"(?i)(\bauthorization\b[\"']?\s*[:=]\s*[\"']?)(?:bearer\s+|basic\s+)?[^\s\"',;}]+"),
    re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{6,}"),
    # api_key=xyz, "x-api-key": "xyz", password: xyz, access_token=xyz, secret=xyz
    re.compile(
        r"(?i)(\b[\w-]*(?:api[_-]?key|token|secret|passw(?:or)?d|credential)s?\b[\"']?\s*[:=]\s*"
        r"[\"']?)(?![\d.]+\b)[^\s\"',;}&]{4,}"
    ),
    # sk-..., sk-proj-..., ghp_..., xoxb-..., AIza...: common key shapes
    re.compile(r"()\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}"),
    re.compile(r"()\b(?:ghp|gho|ghs|github_pat|xox[abprs])[_-][A-Za-z0-9_-]{8,}"),
    re.compile(r"()\bAIza[A-Za-z0-9_-]{20,}"),
    # https://user:password@host
    re.compile(r"(://[^/\s:@]+:)[^/\s@]+(?=@)"),
)


@dataclass(frozen=True)
class Redactor:
    """Replaces the given secret values and every secret-looking pattern."""

    secrets: tuple[str, ...] = ()

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Redactor:
        """The secrets of this process's environment (or of ``environ``), longest
        first so that a key containing another is replaced whole."""
        env = os.environ if environ is None else environ
        found = {
            value
            for name, value in env.items()
            if SECRET_NAME.search(name) and len(value.strip()) >= MIN_SECRET
        }
        return cls(tuple(sorted(found, key=len, reverse=True)))

    def text(self, value: str) -> str:
        """``value`` with every secret replaced."""
        for secret in self.secrets:
            value = value.replace(secret, REDACTED)
        for pattern in PATTERNS:
            value = pattern.sub(lambda m: m.group(1) + REDACTED, value)
        return value

    def data(self, value: Any) -> Any:
        """A JSON value with every string redacted, and the text value of every key
        whose name says it is a secret replaced whole."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {
                str(k): REDACTED
                if SECRET_NAME.search(str(k)) and isinstance(v, str) and v
                else self.data(v)
                for k, v in value.items()
            }
        if isinstance(value, list | tuple):
            return [self.data(v) for v in value]
        return value
