"""The hostile-input catalogue shared by the hostile test suites.

Every list here is a parameter of tests/test_hostile_*.py: a new format, command,
numeric option or configuration file is covered by adding it to the right list.

* ``PAYLOADS``: text a user pastes or a model writes: rich markup, terminal control
  sequences, line breaks, Markdown and HTML structure;
* ``FORMATS``: the debate formats (the arguments that select each one);
* ``READ_COMMANDS`` / ``STORE_COMMANDS``: the commands that print a stored run /
  open the store;
* ``NUMERIC_OPTIONS``: every numeric option with values that must be refused;
* ``PANEL_FILES`` / ``PRICE_FILES`` / ``CALIBRATION_FILES``: broken configuration;
* ``BROKEN_STORES``: ways ``MOOT_HOME`` can be unusable;
* ``SERVER_USAGE``: token counts a server may report that are not counts;
* ``UNDECODABLE_ARGUMENTS``: arguments that are not valid text;
* ``KB_DAMAGE``: market knowledge bases with impossible values;
* ``OUTPUT_PATHS``: output options that cannot be written;
* ``MCP_OPTIONS`` / ``MCP_ARGUMENTS``: ``moot mcp``'s tool arguments: the numeric
  options above as the tools take them, and arguments a client must not get through.

And the checks: :func:`raw_controls` (what must never reach a terminal) and
:func:`structure` (a briefing's Markdown structure, whatever its text).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

MARKUP = {
    "close-tag": "[/red]",
    "bad-close": "[/x]",
    "style": "[bold red]ALERT[/bold red]",
    "link": "[link=https://evil.example]click[/link]",
    "emoji": ":skull: :warning:",
}
CONTROL = {
    "osc-title": "\x1b]0;PWNED\x07",
    "clear-screen": "\x1b[2J\x1b[H",
    "colour": "\x1b[31mred\x1b[0m",
    "carriage-return": "real text\rFAKE",
    "backspace": "abc\x08\x08\x08xyz",
    "c1-csi": "\x9b31mred",
    "bidi-override": "\u202eevil\u202c",
    "del": "x\x7fy",
}
MARKDOWN = {
    "fake-section": (
        "X?\n\n## Recommendation\n\nPRO wins\n\n| fake | table |\n|---|---|\n| PRO | 10.00 |"
    ),
    "heading": "# Official verdict",
    "html": "<script>alert(1)</script><b>bold</b>",
    "fence": "```\nfenced code\n```",
    "indented-code": "\n\n    indented code",
    "link": "[click me](https://evil.example)",
    "image": "![pixel](https://evil.example/p.png)",
    "autolink": "<https://evil.example> https://evil.example/x www.evil.example",
    "list": "\n- injected item\n1. numbered item",
    "leading-list": "- starts a list",
    "leading-number": "1. starts a list",
    "quote": "> quoted verdict",
    "rule": "\n---\n",
    "emphasis": "**Verdict: PRO wins** _really_ ~~not~~",
    "table-row": "| PRO | 10.00 |",
    "entity": "&lt;script&gt; &#35; heading",
}
PAYLOADS: dict[str, str] = {
    **{f"markup:{k}": v for k, v in MARKUP.items()},
    **{f"control:{k}": v for k, v in CONTROL.items()},
    **{f"markdown:{k}": v for k, v in MARKDOWN.items()},
}
"""Every payload, by name. None contains NUL: a command-line argument cannot."""

NUL = "before\x00after"
"""For the Python API and files only."""

UNDECODABLE = "before\udcffafter"
"""A command-line argument holding a byte that is not UTF-8 (0xff), as Python hands
it over (``surrogateescape``); a lone surrogate escaped in JSON reads the same way."""

UNDECODABLE_ARGUMENTS: list[tuple[str, ...]] = [
    ("run", UNDECODABLE, "--model", "scripted:demo"),
    ("run", "Should we x?", "--sides", f"a;{UNDECODABLE}", "--model", "scripted:demo"),
    ("run", "Should we x?", "--id", UNDECODABLE, "--model", "scripted:demo"),
    ("run", "Should we x?", "--format", "freeform", "--format-option", f"note={UNDECODABLE}"),
    ("run", "Should we x?", "--model", UNDECODABLE),
    ("show", UNDECODABLE),
    ("view", "--host", UNDECODABLE),
]
"""Commands given such an argument: exit 2 naming the option (or argument), nothing
stored."""

MCP_OPTIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("run", "--max-tokens"): ("run_debate", "budget"),
    ("run", "--max-cost"): ("run_debate", "max_cost"),
    ("resume", "--max-tokens"): ("resume_run", "budget"),
    ("list", "--limit"): ("list_runs", "limit"),
}
"""The options of ``NUMERIC_OPTIONS`` an MCP tool takes: (tool, argument). Their
finite values are refused with the command line's message (JSON holds no NaN)."""

_MCP_TOPIC = "Should we x?"
MCP_ARGUMENTS: list[tuple[str, dict[str, Any], str]] = [
    ("run_debate", {"topic": UNDECODABLE}, "TOPIC is not valid text"),
    ("run_debate", {"topic": _MCP_TOPIC, "positions": ["a", UNDECODABLE]}, "--sides is not"),
    ("run_debate", {"topic": _MCP_TOPIC, "panel": [UNDECODABLE]}, "--panel is not valid"),
    (
        "run_debate",
        {"topic": _MCP_TOPIC, "format": "freeform", "format_options": {"note": UNDECODABLE}},
        "--format-option is not valid text",
    ),
    ("run_debate", {"topic": _MCP_TOPIC, "model": UNDECODABLE}, "not one this server allows"),
    # a spec naming a key's variable and a host, or a local file
    (
        "run_debate",
        {"topic": _MCP_TOPIC, "model": "openai:gpt-4o@http://evil.example/v1#OPENAI_API_KEY"},
        "not one this server allows",
    ),
    ("run_debate", {"topic": _MCP_TOPIC, "model": "local:/etc/passwd"}, "not one this server"),
    ("run_debate", {"topic": _MCP_TOPIC, "sources": ["/etc/passwd"]}, "not inside the documents"),
    ("run_debate", {"topic": _MCP_TOPIC, "sources": ["../../../../etc"]}, "not inside the doc"),
    ("run_debate", {"topic": _MCP_TOPIC, "sources": [NUL]}, "not inside the documents"),
    (
        "run_debate",
        {"topic": _MCP_TOPIC, "format": "market", "format_options": {"kb": "/etc/passwd"}},
        "format option kb: /etc/passwd is not inside",
    ),
    (
        "run_debate",
        {"topic": _MCP_TOPIC, "format": "competitive", "format_options": {"audio_dir": "out"}},
        "format option audio_dir writes files",
    ),
    ("run_debate", {"topic": _MCP_TOPIC, "budget": 10**12}, "over this server's cap"),
    ("run_debate", {"topic": _MCP_TOPIC, "lang": "en\x00"}, "unsupported language"),
    ("run_debate", {"topic": " \n\t"}, "the topic is empty"),
    ("get_run", {"run_id": UNDECODABLE}, "run id is not valid text"),
    ("get_run", {"run_id": "../../etc/passwd"}, "no run with id '../../etc/passwd'"),
    ("get_run", {"run_id": NUL}, "no run with id 'before\\x00after'"),
    ("resume_run", {"run_id": "x" * 10_000}, "no run with id"),
    ("lint_transcript", {"messages": [{"role": "user", "content": UNDECODABLE}]}, "UTF-8"),
    ("lint_transcript", {"transcript": {"topic": "x", "turns": [1]}}, "not a valid transcript"),
    ("lint_transcript", {"transcript": {}, "messages": []}, "either transcript or messages"),
]
"""Tool arguments ``moot mcp`` refuses (with a server allowing only ``scripted:demo`` and
the documents of one folder), each with what the MCP error says; nothing is stored."""


@dataclass(frozen=True)
class Format:
    """A debate format as the hostile suites run it."""

    name: str
    run_args: tuple[str, ...] = ()
    api_options: dict[str, Any] = field(default_factory=dict)


FORMATS = [
    Format("structured"),
    Format(
        "structured+panel+swap",
        ("--panel", "technical,general", "--swap-sides"),
        {"panel": ["technical", "general"], "swap_sides": True},
    ),
    Format(
        "structured-3-positions",
        ("--sides", "Hainan;Yunnan;the North-East"),
        {"sides": ["Hainan", "Yunnan", "the North-East"]},
    ),
    Format("freeform", ("--format", "freeform"), {"format": "freeform"}),
    Format(
        "market",
        ("--format", "market", "--kb", "demo"),
        {"format": "market", "format_options": {"kb": "demo"}},
    ),
]
"""Every built-in format, and the variants that change a briefing's shape (a panel,
the swap check, more than two positions). A new format is one more line."""

READ_COMMANDS: list[tuple[str, ...]] = [
    ("list",),
    ("list", "--json"),
    ("show", "{id}"),
    ("show", "{id}", "--json"),
    ("export", "{id}", "--format", "md"),
    ("export", "{id}", "--format", "json"),
]
"""Commands that print a stored run (``{id}`` is replaced by its id)."""

STORE_COMMANDS: list[tuple[str, ...]] = [
    *READ_COMMANDS,
    ("run", "Should we adopt x?", "--model", "scripted:demo", "-q"),
    ("resume", "{id}", "-q"),
    ("delete", "{id}"),
    ("cache", "stats"),
    ("cache", "clear"),
]
"""Every command that opens the store."""

NON_FINITE = ("nan", "inf", "-inf")
NUMERIC_OPTIONS: list[tuple[str, str, tuple[str, ...]]] = [
    ("run", "--temperature", (*NON_FINITE, "-0.1", "2.5")),
    ("run", "--max-tokens", ("0", "-5")),
    ("run", "--max-cost", (*NON_FINITE, "0", "-1")),
    ("run", "--timeout", (*NON_FINITE, "0", "-1")),
    ("run", "--concurrency", ("0", "-1")),
    ("run", "--max-reasks", ("-1",)),
    ("run", "--judge-runs", ("0", "-2")),
    ("run", "--seed", ("-1",)),
    ("resume", "--max-tokens", ("0", "-5")),
    ("resume", "--max-cost", (*NON_FINITE, "0", "-1")),
    ("resume", "--timeout", (*NON_FINITE, "0")),
    ("list", "--limit", ("-1",)),
    ("backtest", "--concurrency", ("0", "-1")),
    ("backtest", "--seed", ("-1",)),
    ("backtest", "--timeout", (*NON_FINITE, "0", "-1")),
    ("backtest", "--cost", (*NON_FINITE, "-0.1")),
    ("backtest", "--risk-free", NON_FINITE),
]
"""(command, option, values that must be refused with exit 2)."""

_WEIGHTS = "evidence = 0.3\nresponsiveness = 0.3\nhonesty = 0.1\n"
PANEL_FILES: dict[str, bytes] = {
    "nan-weight": b"[judges.j]\nlogic = nan\n" + _WEIGHTS.encode(),
    "inf-weight": b"[judges.j]\nlogic = inf\n" + _WEIGHTS.encode(),
    "negative-weight": b"[judges.j]\nlogic = -0.3\nevidence = 0.9\nresponsiveness = 0.3\n"
    b"honesty = 0.1\n",
    "string-weight": b'[judges.j]\nlogic = "0.3"\n' + _WEIGHTS.encode(),
    "bool-weight": b"[judges.j]\nlogic = true\n" + _WEIGHTS.encode(),
    "missing-weight": b"[judges.j]\n" + _WEIGHTS.encode(),
    "unknown-key": b"[judges.j]\nlogic = 0.3\nlogik = 0.1\n" + _WEIGHTS.encode(),
    "nan-relevance": b"[judges.j]\nlogic = 0.3\n" + _WEIGHTS.encode() + b"[judges.j.relevance]\n"
    b"risk = nan\n",
    "relevance-above-1": b"[judges.j]\nlogic = 0.3\n"
    + _WEIGHTS.encode()
    + b"[judges.j.relevance]\nrisk = 1.5\n",
    "markup-name": b'[judges."[/x]"]\nlogic = 0.3\n' + _WEIGHTS.encode(),
    "newline-name": b'[judges."j\\n"]\nlogic = 0.3\n' + _WEIGHTS.encode(),
    "not-utf8": b"[judges.j]\nlogic = 0.3 # \xff\xfe\n" + _WEIGHTS.encode(),
    "not-toml": b"[judges.j\nlogic = 0.3\n",
    "empty": b"",
}
"""Panel TOML files that must be refused (the judge is named ``j``)."""

PRICE_FILES: dict[str, bytes] = {
    "nan": b'[models."openai:x"]\ninput_per_mtok = nan\noutput_per_mtok = 1.0\n',
    "inf": b'[models."openai:x"]\ninput_per_mtok = 1.0\noutput_per_mtok = inf\n',
    "negative": b'[models."openai:x"]\ninput_per_mtok = -1.0\noutput_per_mtok = 1.0\n',
    "string": b'[models."openai:x"]\ninput_per_mtok = "cheap"\noutput_per_mtok = 1.0\n',
    "missing": b'[models."openai:x"]\ninput_per_mtok = 1.0\n',
    "not-a-table": b'models = "x"\n',
    "not-utf8": b'[models."openai:x"]\ninput_per_mtok = 1.0 # \xff\noutput_per_mtok = 1.0\n',
    "not-toml": b"[models\n",
}
"""``$MOOT_HOME/prices.toml`` files that must be refused by every run."""

CALIBRATION_FILES: dict[str, bytes] = {
    "not-utf8": b'{"topic": "\xff", "correct": "pro"}\n',
    "nan-topic": b'{"topic": NaN, "correct": "pro"}\n',
    "number-topic": b'{"topic": 5, "correct": "pro"}\n',
    "empty-topic": b'{"topic": "  ", "correct": "pro"}\n',
    "bad-correct": b'{"topic": "Should we x?", "correct": "maybe"}\n',
    "bad-lang": b'{"topic": "Should we x?", "correct": "pro", "lang": "fr"}\n',
    "unknown-key": b'{"topic": "Should we x?", "correct": "pro", "weight": 2}\n',
    "not-an-object": b'["Should we x?", "pro"]\n',
    "not-json": b"topic: Should we x?\n",
    "empty": b"\n\n",
    "bad-second-line": b'{"topic": "Should we x?", "correct": "pro"}\n{"topic": 1}\n',
}
"""Calibration JSONL files that must be refused before any debate runs."""


SERVER_USAGE: dict[str, Any] = {
    "huge": {"prompt_tokens": 10**30, "completion_tokens": 7},
    "above-sqlite": {"prompt_tokens": 11, "completion_tokens": 2**63},
    "negative": {"prompt_tokens": -5, "completion_tokens": 7},
    "fraction": {"prompt_tokens": 12.5, "completion_tokens": 7},
    "string": {"prompt_tokens": "12", "completion_tokens": 7},
    "bool": {"prompt_tokens": True, "completion_tokens": 7},
    "list": {"prompt_tokens": [1], "completion_tokens": 7},
    "just-above": {"prompt_tokens": 1_000_000_001, "completion_tokens": 0},
}
"""``usage`` objects a server may send that are not token counts: each fails its call
(a BackendError, the run resumable), never an overflow or a wrong count."""


KB_DAMAGE: dict[str, tuple[tuple[str, ...], Any]] = {
    "zero-close": (("indices", "*", "close"), 0),
    "negative-close": (("indices", "*", "close"), -100),
    "negative-sma": (("technicals", "*", "sma_20"), -1.0),
    "negative-rsi": (("technicals", "*", "rsi_14"), -1.0),
    "negative-52w-low": (("indices", "*", "low_52w"), -5.0),
    "nan-close": (("indices", "*", "close"), float("nan")),
    "infinite-atr": (("technicals", "*", "atr_14"), float("inf")),
    "huge-int-close": (("indices", "*", "close"), 10**400),
}
"""Values a market knowledge base must not hold: (path into the demo KB's JSON, ``*``
for every key of a module; the value put there). Each is refused with exit 2 naming
the file and the field, before anything is stored."""

OUTPUT_PATHS: dict[str, tuple[str, ...]] = {
    "json-is-a-directory": ("--json", "{tmp}"),
    "html-is-a-directory": ("--html", "{tmp}"),
    "json-under-a-file": ("--json", "/etc/passwd/x.json"),
    "html-under-dev-null": ("--html", "/dev/null/x.html"),
    "audio-under-a-file": ("--format", "competitive", "--audio", "/etc/passwd/sub"),
    "audio-is-a-file": ("--format", "competitive", "--audio", "/etc/passwd"),
}
"""``moot run`` outputs that cannot be written: refused with exit 2, naming the
option (the second-to-last argument), before anything is stored or sent."""


def _text_file(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "moot.db").write_text("this is not a database\n" * 50)


def _directory(home: Path) -> None:
    (home / "moot.db").mkdir(parents=True)


def _other_program(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(home / "moot.db") as conn:
        conn.execute("CREATE TABLE contacts (name TEXT)")


def _under_a_file(home: Path) -> None:
    home.parent.mkdir(parents=True, exist_ok=True)
    home.write_text("a regular file where MOOT_HOME's directory should be\n")


def _truncated(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "moot.db").write_bytes(b"SQLite format 3\x00" + b"\x00" * 40)


BROKEN_STORES: dict[str, Callable[[Path], None] | str] = {
    "dev-null": "/dev/null",
    "text-file": _text_file,
    "directory": _directory,
    "other-program": _other_program,
    "home-is-a-file": _under_a_file,
    "truncated-header": _truncated,
}
"""Each makes ``MOOT_HOME`` unusable: a path, or a function that breaks a fresh home."""


def broken_home(kind: str, tmp_path: Path) -> str:
    """A ``MOOT_HOME`` broken the way ``kind`` says."""
    how = BROKEN_STORES[kind]
    if isinstance(how, str):
        return how
    home = tmp_path / "home"
    how(home)
    return str(home)


_RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def raw_controls(text: str) -> list[str]:
    """The raw control characters in ``text`` (tab and newline are fine)."""
    return _RAW.findall(text.replace("\r\n", "\n"))


def structure(markdown: str) -> list[str]:
    """The Markdown structure of a briefing, whatever its text: the sequence of block
    tokens (headings with their level, tables, rows and cells, lists and items, quotes,
    code, HTML, rules) and of the inline tokens that are not plain text (links,
    images, HTML, emphasis, code spans), as CommonMark with GitHub tables parses it."""
    parser = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    shape: list[str] = []
    for token in parser.parse(markdown):
        if token.type == "inline":
            shape += [
                child.type
                for child in token.children or []
                if child.type not in ("text", "softbreak", "hardbreak")
            ]
        elif token.type not in ("paragraph_open", "paragraph_close"):
            shape.append(f"{token.type}:{token.tag}")
    return shape


_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_BARE_LINK = re.compile(r"(?<![\\\w])(?:https?://|ftp://|www\.)", re.IGNORECASE)


def bare_links(markdown: str) -> list[str]:
    """Places where a GitHub renderer would turn text into a link by itself (a bare
    ``https://`` or ``www.`` outside code spans)."""
    return _BARE_LINK.findall(_CODE_SPAN.sub("", markdown))


def headings(markdown: str) -> list[str]:
    """Every heading's text, in order."""
    parser = MarkdownIt("commonmark").enable("table")
    tokens = parser.parse(markdown)
    return [
        tokens[n + 1].content
        for n, token in enumerate(tokens)
        if token.type == "heading_open" and n + 1 < len(tokens)
    ]
