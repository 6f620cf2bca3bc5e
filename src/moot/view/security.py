"""The viewer's guard, in front of every request: it answers only to the names of
the address it serves (DNS rebinding: a page from another site that resolves its own
name to 127.0.0.1 sends that name in ``Host`` and is refused), only to ``GET`` and
``HEAD`` (the viewer is read-only), and puts the security headers on every answer.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from moot.report.html.page import content_security_policy

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
SAFE_METHODS = frozenset({"GET", "HEAD"})

RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
"""A run id as ``moot run --id`` accepts it; matched in full before any use."""


def host_name(host: str) -> str:
    """How an address appears in a ``Host`` header (IPv6 in brackets)."""
    try:
        if ipaddress.ip_address(host).version == 6:
            return f"[{host}]"
    except ValueError:
        pass
    return host.lower()


def allowed_hosts(bound: str, port: int) -> frozenset[str]:
    """The ``Host`` values the viewer answers: the loopback names and the bound
    address, each with the port (and without it when the port is 80)."""
    names = {*LOOPBACK_NAMES, host_name(bound)}
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        hosts |= names
    return frozenset(hosts)


def security_headers() -> list[tuple[bytes, bytes]]:
    """The headers every answer carries."""
    policy = f"{content_security_policy(forms=True)}; frame-ancestors 'none'"
    pairs = (
        ("content-security-policy", policy),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("cross-origin-opener-policy", "same-origin"),
        ("cross-origin-resource-policy", "same-origin"),
        ("cache-control", "no-store"),
    )
    return [(name.encode("latin-1"), value.encode("latin-1")) for name, value in pairs]


def _header(scope: Scope, name: bytes) -> list[bytes]:
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers", [])
    return [value for key, value in headers if key.lower() == name]


class Guard:
    """ASGI middleware: refuse a foreign ``Host`` (400) and any method but GET and
    HEAD (405); add the security headers to every response."""

    def __init__(self, app: ASGIApp, *, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts
        self.headers = security_headers()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets: the connection is dropped unanswered

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        hosts = _header(scope, b"host")
        host = hosts[0].decode("latin-1").lower() if len(hosts) == 1 else ""
        if host not in self.hosts:
            await _plain(secured, 400, "refused: moot view answers only to localhost\n")
            return
        if scope["method"] not in SAFE_METHODS:
            await _plain(secured, 405, "moot view is read-only\n", [(b"allow", b"GET, HEAD")])
            return
        await self.app(scope, receive, secured)


async def _plain(
    send: Send, status: int, text: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = text.encode("utf-8")
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode("ascii")),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
