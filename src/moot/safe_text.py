"""Text from users, models and servers made safe to show, whatever it contains.

Anything a user typed or a model wrote may hold terminal control sequences (``ESC]0;``
retitles the window, ``ESC[2J`` clears the screen), NUL bytes, carriage returns that
overwrite a line, or Unicode direction overrides that reorder what is shown. moot
stores such text as it came, and neutralises it wherever it is *shown*:

* :func:`visible` replaces every control character (C0 but tab and newline, DEL, C1)
  and every bidirectional override with a visible escape (``\\x1b``, ``\\u202e``), so
  what was there can still be read and nothing is executed by a terminal;
* :func:`one_line` does that and folds all white space, for table cells and headers;
* :func:`safe_json` makes JSON text safe for a terminal: ``json`` already escapes C0,
  this escapes DEL, C1 and the overrides too (still the same JSON value).

Markup is the other half: rich's ``[red]`` tags are never interpreted in moot's own
output (see :mod:`moot.terminal`), and the Markdown briefing escapes its own syntax
(see :mod:`moot.report.escape`).
"""

from __future__ import annotations

import re

# C0 controls except tab (\x09) and newline (\x0a), DEL, C1 controls, and the Unicode
# bidirectional embeddings, overrides and isolates (plus the marks, harmless but
# invisible).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SPACE = re.compile(r"\s+")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: object) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``); tabs and
    newlines are kept. A ``\\r\\n`` line end counts as a newline."""
    return _CONTROL.sub(_escape, str(text).replace("\r\n", "\n"))


def one_line(text: object) -> str:
    """:func:`visible`, with every run of white space (newlines too) folded to one
    space and the ends stripped."""
    return _SPACE.sub(" ", visible(text)).strip()


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character :func:`visible` would escape (or a newline or
    tab): for identifiers, which must not."""
    return bool(_CONTROL.search(text)) or "\n" in text or "\t" in text


def safe_json(text: str) -> str:
    """JSON text with DEL, C1 controls and direction overrides written as ``\\u``
    escapes. Only valid inside JSON strings (where the JSON encoders put them), so the
    value is unchanged."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
