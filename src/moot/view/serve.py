"""Serving the viewer with uvicorn on a socket bound here first, so the guard knows
the real port (``--port 0`` picks a free one)."""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from moot.errors import ConfigError
from moot.view.app import create_app
from moot.view.security import host_name, security_headers

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (or ``localhost``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``. ``localhost`` means 127.0.0.1; a name or a
    wildcard address (0.0.0.0, ::) is refused: the guard must know the address."""
    address = DEFAULT_HOST if host.lower() == "localhost" else host
    try:
        ip = ipaddress.ip_address(address)
    except ValueError as exc:
        raise ConfigError(f"--host must be an IP address or localhost, not {host!r}") from exc
    if ip.is_unspecified:
        raise ConfigError(f"--host {host} would serve every interface; give one address")
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port must be 0-65535, not {port}")
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        return socket.create_server((address, port), family=family)
    except OSError as exc:
        raise ConfigError(f"cannot listen on {host_name(address)}:{port}: {exc.strerror}") from exc


class _SecuredH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, whose own answer to a request it cannot parse (two
    ``Host`` headers, a malformed request line) carries the security headers too: it
    never reaches the app, whose middleware adds them to every other answer."""

    def send_400_response(self, msg: str) -> None:
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"connection", b"close"),
            *security_headers(),
        ]
        event = h11.Response(status_code=400, headers=headers, reason=b"Bad Request")
        for part in (event, h11.Data(data=msg.encode("ascii")), h11.EndOfMessage()):
            self.transport.write(self.conn.send(part) or b"")
        self.transport.close()


@dataclass
class Served:
    """A viewer running in a background thread (see ``serve_in_thread``)."""

    url: str
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def _server(store_path: Path | str, sock: socket.socket, lang: str) -> tuple[uvicorn.Server, str]:
    """The server for the socket (closed if the viewer cannot start)."""
    host, port = sock.getsockname()[:2]
    try:
        app = create_app(store_path, host=host, port=port, lang=lang)
    except BaseException:
        sock.close()
        raise
    config = uvicorn.Config(
        app,
        http=_SecuredH11,
        log_level="warning",
        lifespan="off",
        proxy_headers=False,
        server_header=False,
        access_log=False,
    )
    return uvicorn.Server(config), f"http://{host_name(host)}:{port}/"


def serve(
    store_path: Path | str,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    lang: str = "en",
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve the store read-only until interrupted; ``on_ready`` gets the URL."""
    sock = bind(host, port)
    server, url = _server(store_path, sock, lang)
    if on_ready is not None:
        on_ready(url)
    server.run(sockets=[sock])


def serve_in_thread(
    store_path: Path | str, *, host: str = DEFAULT_HOST, port: int = 0, lang: str = "en"
) -> Served:
    """Start the viewer in a daemon thread; returns once it accepts connections."""
    sock = bind(host, port)
    server, url = _server(store_path, sock, lang)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise ConfigError("the viewer stopped while starting")
        thread.join(timeout=0.05)
    return Served(url=url, server=server, thread=thread)
