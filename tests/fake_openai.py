"""A debate-aware OpenAI-compatible server on 127.0.0.1, for hostile-input tests.

Every structured request (``response_format`` ``json_schema``) is answered with a
reply built from the request's own JSON schema: ids and enums pinned by the schema
are honoured, and text fields get texts that meet the debate's rules, so a whole
debate runs over real HTTP. A :class:`Behaviour` decides what goes wrong with one
request: text added to every free-text field, a field forced to a value, an invalid
reply, a hang, an error status, a body that is not a chat completion at all.

``behave`` is a function of the request's number (1-based) and its JSON body, so a
test can, say, break only the cross-examinations or only the first three requests,
and change its mind while the server runs (``server.behave = ...``).

Run it by hand to reproduce a case from a shell::

    python tests/fake_openai.py hang          # prints the base URL, serves until Ctrl-C
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# Texts that meet the protocol's rules (one falsifiable sentence, a causal chain,
# concrete evidence, 100-200 words of final stance, questions that are questions).
_TEXTS = {
    "claim": "Measure {n} lowers the yearly cost of the service by {n}0 percent.",
    "reasoning": "The measure removes a manual step because staff no longer re-enter"
    " data, which leads to fewer errors and lower costs.",
    "evidence": "In 2023 the city audit counted {n}4 percent fewer errors after the change.",
    "follow_up": "Which figure from the audit do you dispute?",
    "stance_change_reason": "The other side gave no figure that outweighs the audit.",
    "key_insight": "The debate turned on whether audited savings outlast the first year.",
    "recommendation": "Adopt the measure for one year and audit the savings again.",
    "quote": "fewer errors",
    "topic_type": "general",
}
_REASONS = (
    # one per assessment: the same reason for most arguments is a copy (moot.usable)
    "The argument rests on an audited figure that the other side left unanswered.",
    "Its cost estimate held, since no reply disputed the staff hours it counts.",
    "The other side conceded the error rate, so the claim stands as argued.",
    "Its evidence is one city's audit, which the reply called narrow but did not refute.",
    "The causal step from fewer re-entries to lower costs was challenged and defended.",
    "A second audit year would settle it; the reply raised that doubt fairly.",
)
_STANCE_SENTENCE = (
    "We hold that the measure pays for itself within two years because audited savings"
    " of {n}0 percent exceed its running costs."
)
_DEFAULT_TEXT = "This point rests on the audited figures from 2023 and their source."


@dataclass
class Behaviour:
    """What the server does with one request.

    ``payload`` is appended to every free-text field of the reply; ``fields`` forces
    fields (by name) to a value; ``content`` replaces the reply's content (e.g. text
    that is not JSON); ``hang`` waits that many seconds first (cut short when the
    server closes); ``status`` with ``body`` answers an HTTP error or any other body
    (``body`` is sent verbatim when it is ``bytes``, as JSON otherwise) with
    ``content_type``.
    """

    payload: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    content: str | None = None
    hang: float = 0.0
    status: int = 200
    body: Any = None
    content_type: str = "application/json"


NORMAL = Behaviour()


def _text(key: str, n: int, payload: str, max_length: int | None) -> str:
    base = _TEXTS.get(key, _DEFAULT_TEXT).format(n=n)
    if key == "reason":
        base = _REASONS[(n - 1) % len(_REASONS)]
    if key == "final_stance":
        base = _STANCE_SENTENCE.format(n=n)
    text = base + payload
    if max_length is not None and len(text) > max_length:
        text = base[: max(0, max_length - len(payload))] + payload
        text = text[:max_length]
    return text


def instance(schema: dict[str, Any], behaviour: Behaviour, key: str = "", n: int = 1) -> Any:
    """A value for ``schema`` (the subset of JSON schema moot's reply types use)."""
    if key in behaviour.fields:
        return behaviour.fields[key]
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        values = schema["enum"]
        return values[len(values) // 2] if schema.get("type") == "integer" else values[0]
    kind = schema.get("type")
    if kind == "object":
        properties: dict[str, Any] = schema.get("properties", {})
        required = schema.get("required", list(properties))
        return {
            name: instance(sub, behaviour, name, n)
            for name, sub in properties.items()
            if name in required
        }
    if kind == "array":
        if "prefixItems" in schema:
            return [
                instance(sub, behaviour, key, i)
                for i, sub in enumerate(schema["prefixItems"], start=1)
            ]
        count = int(schema.get("minItems", 0))
        if key == "final_stance":
            count = max(count, 8)
        items = schema.get("items") or {"type": "string"}
        return [instance(items, behaviour, key, i) for i in range(1, count + 1)]
    if kind == "string":
        return _text(key, n, behaviour.payload, schema.get("maxLength"))
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1))
    if kind == "boolean":
        return False
    return None


def completion(model: str, content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def reply_content(body: dict[str, Any], behaviour: Behaviour) -> str:
    """The chat reply for one request: JSON for its schema, or ``behaviour.content``."""
    if behaviour.content is not None:
        return behaviour.content
    response_format = body.get("response_format") or {}
    schema = (response_format.get("json_schema") or {}).get("schema") or response_format.get(
        "schema"
    )
    if not isinstance(schema, dict):
        return "A plain reply." + behaviour.payload
    return json.dumps(instance(schema, behaviour), ensure_ascii=False)


Behave = Callable[[int, dict[str, Any]], Behaviour]


class FakeOpenAI:
    """The server; ``url`` is its ``.../v1`` base URL, ``requests`` every chat body."""

    def __init__(self, behave: Behave | Behaviour = NORMAL) -> None:
        self.behave: Behave = behave if callable(behave) else (lambda _n, _b: behave)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        port = self._httpd.server_address[1]
        return f"http://127.0.0.1:{port!s}/v1"

    def spec(self, model: str = "fake") -> str:
        return f"openai:{model}@{self.url}"

    def close(self) -> None:
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=10)

    def _next(self, body: dict[str, Any]) -> Behaviour:
        with self._lock:
            self.requests.append(body)
            number = len(self.requests)
        return self.behave(number, body)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                body = json.loads(raw or b"{}")
                if not self.path.endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "no such route"}}', "application/json")
                    return
                behaviour = server._next(body)
                if behaviour.hang:
                    server._closing.wait(behaviour.hang)
                if behaviour.body is not None:
                    data = (
                        behaviour.body
                        if isinstance(behaviour.body, bytes)
                        else json.dumps(behaviour.body).encode()
                    )
                else:
                    content = reply_content(body, behaviour)
                    data = json.dumps(completion(str(body.get("model")), content)).encode()
                self._send(behaviour.status, data, behaviour.content_type)

            def _send(self, status: int, data: bytes, content_type: str) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(data)))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up on a hung request

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


def _cross_exam(body: dict[str, Any]) -> bool:
    schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema") or {}
    return "responses" in schema.get("properties", {})


MODES: dict[str, Behave] = {
    "normal": lambda _n, _b: NORMAL,
    "hang": lambda _n, _b: Behaviour(hang=3600),
    "markup": lambda _n, _b: Behaviour(payload=" [/red] [bold]x[/bold] [/x]"),
    "error-markup": lambda _n, _b: Behaviour(
        status=400, body={"error": {"message": "bad [/red] request \x1b[2J"}}
    ),
    "target-markup": lambda _n, b: (
        Behaviour(fields={"target_id": "[/x]"}) if _cross_exam(b) else NORMAL
    ),
    "invalid": lambda _n, _b: Behaviour(content="this is not JSON"),
    "not-json": lambda _n, _b: Behaviour(body=b"<html>502 Bad Gateway</html>"),
    "markdown": lambda _n, _b: Behaviour(
        payload="\n\n## Official verdict\n\n| PRO | 10.00 |\n|---|---|\n<script>alert(1)</script>"
    ),
}


if __name__ == "__main__":
    fake = FakeOpenAI(MODES[sys.argv[1] if len(sys.argv) > 1 else "normal"])
    print(fake.url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        fake.close()
