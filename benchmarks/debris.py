"""An independent check of a finished debate's prose: debris, echoes, loops, claims.

Reads a result's JSON (``moot run --json``) and, when given, its Markdown briefing
(``moot run``'s standard output) and its HTML report (``--html``, read through its
text with ``html.parser``), and reports for every prose field:

- ``debris``: markup (a tag, ``{{``/``{%`` template syntax, a ``` fence), JSON
  punctuation (``{ } [ ] < >``), a quoted key (``"claim":``) or a stray quote (an
  odd number of ``"``, or one opening or closing the field alone);
- ``echo``: a run of at least ``ECHO_RUN`` characters (``ECHO_RUN_CJK`` with Chinese)
  copied from the prompts' own text (their templates, field descriptions included);
- ``loop``: a unit of 1-12 characters repeated ``LOOP_TIMES`` times or more in a row,
  a phrase of 1-4 words repeated three times in a row, or one sentence written twice;
- ``label copy``: the debate's own label lines written back (``CON-1: refute``, an
  argument id, a colon and a response type, or two ids each followed by a colon);
- ``shouted word``: a word of ``SHOUTED`` capital letters or more (``PARTIAIRAL``),
  made up or shouted, where prose has none;
- ``label list``: two argument ids or more with fewer than ``LIST_WORDS`` other words
  (``concessions: CON-1 vs. PRO-1``), a list of labels given as a reason;
- ``copied reason``: a judge's reason for one argument that is a near-copy
  (``NEAR_COPY`` of its words, ids left out) of its reason for another, however few;
- ``fragment``: a judge field (key insight, recommendation, an unresolved question)
  that is not a sentence: fewer than four words, or no sentence end;
- for the opening claims: a claim that restates the topic (nothing of its own beyond
  the topic's words, or a near-copy of it), a claim that ends with ``?``, and two
  claims of one side that are near-copies (``NEAR_COPY`` of the words after the
  side's shared start).

Its rules are its own, written apart from ``moot.usable`` (the engine's rule) so
that the two can disagree. A field shown as the marker "(no usable text)" is not
content; the check counts those and checks that each is flagged in the JSON (a
warning with code ``unusable_text``, ``echo`` or ``loop``) and that the trust verdict
carries ``unusable_text``. A JSON field flagged so but still holding its raw text is
reported too (``raw_flagged``): the JSON is a page as well.

    python benchmarks/debris.py RESULT.json [--md BRIEFING.md] [--html REPORT.html] [--json]
    python benchmarks/debris.py --dir DIR [--json]   # every DIR/*.json with its .md/.html

Exit status: 0 when nothing was found, 1 otherwise (2 for a file that cannot be read).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROMPT_DIRS = (ROOT / "src" / "moot" / "prompts", ROOT / "src" / "moot" / "formats")

MARKERS = ("(no usable text)", "（无可用文本）")
FLAG_CODES = frozenset({"unusable_text", "echo", "loop", "copied_reason"})
PROSE_KEYS = frozenset(
    {
        "claim",
        "reasoning",
        "evidence",
        "follow_up",
        "new_evidence",
        "concessions",
        "final_stance",
        "reason",
        "key_insight",
        "recommendation",
        "unresolved_questions",
        "text",
        "summary",
        "bull_case",
        "bear_case",
    }
)
"""JSON keys whose strings are model prose (in ``payload`` and ``judgement``)."""
JUDGE_KEYS = ("key_insight", "recommendation", "unresolved_questions")

ECHO_RUN = 30
ECHO_RUN_CJK = 12
LOOP_TIMES = 6
NEAR_COPY = 0.8
RESTATE = 0.85
SHOUTED = 6
LIST_WORDS = 4

_TAG = re.compile(r"</?[A-Za-z][\w-]*\s*/?>")
_TEMPLATE = re.compile(r"\{\{|\}\}|\{%|%\}|```")
_JSON_MARK = re.compile(r"[{}\[\]<>]")
_QUOTED_KEY = re.compile(r"\"[A-Za-z_]\w*\"\s*:")
_CHAR_LOOP = re.compile(rf"(.{{1,12}}?)\1{{{LOOP_TIMES - 1},}}", re.S)
_WORD_LOOP = re.compile(r"\b((?:\w+\W+){1,4}?)\1{2,}", re.I)
_LABEL_ID = re.compile(r"\b(?:PRO|CON|[A-F])-\d+\s*[:：]")
_LABEL_RESPONSE = re.compile(
    r"\b(?:PRO|CON|[A-F])-\d+\s*[:：]\s*(?:refute|challenge|concede|partial)\b", re.I
)
_ANY_ID = re.compile(r"\b(?:PRO|CON|[A-F])-\d+\b", re.I)
_SHOUTED = re.compile(rf"(?<![\w-])[A-Z]{{{SHOUTED},}}(?![\w-])")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_WORDS = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]|[^\W\d_]+", re.U)
_SENTENCE_END = re.compile(r"[.!?。！？…)\"”']\s*$")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_COMPARISON = re.compile(r"\s[<>]=?\s")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")


CHINESE = 0.3
"""A Chinese debate's field is really Chinese when Chinese characters are at least this
share of its visible characters."""


def _cjk_share(text: str) -> float:
    visible = "".join(text.split())
    return len(_CJK.findall(visible)) / len(visible) if visible else 0.0


def normal(text: str) -> str:
    return " ".join(text.lower().split())


def prompt_lines() -> list[str]:
    """The prompts' static text, a line at a time (Jinja syntax cut out), normalised;
    lines shorter than a copy could be are left out."""
    lines: set[str] = set()
    for base in PROMPT_DIRS:
        for path in base.rglob("*.j2"):
            for raw in _JINJA.sub(" ", path.read_text(encoding="utf-8")).splitlines():
                line = normal(raw.strip(" -"))
                if len(line) >= ECHO_RUN_CJK:
                    lines.add(line)
    return sorted(lines)


@lru_cache(maxsize=4)
def _line_index(lines: tuple[str, ...]) -> dict[str, list[int]]:
    """Each ``ECHO_RUN_CJK``-character slice of the prompt lines, with the lines (by
    position) that hold it."""
    index: dict[str, list[int]] = {}
    for at, line in enumerate(lines):
        for piece in {line[i : i + ECHO_RUN_CJK] for i in range(len(line) - ECHO_RUN_CJK + 1)}:
            index.setdefault(piece, []).append(at)
    return index


def _sharing(norm: str, lines: list[str]) -> list[str]:
    """The prompt lines, in order, that share a slice of ``ECHO_RUN_CJK`` characters
    with ``norm``: every run long enough to be a copy holds one, so no other line can
    give one (the shortest copy is ``ECHO_RUN_CJK`` characters)."""
    index = _line_index(tuple(lines))
    found: set[int] = set()
    for i in range(len(norm) - ECHO_RUN_CJK + 1):
        found.update(index.get(norm[i : i + ECHO_RUN_CJK], ()))
    return [lines[at] for at in sorted(found)]


def copied_run(text: str, lines: list[str]) -> str:
    """The longest run of ``text`` found in a prompt line, when long enough to be a copy."""
    norm = normal(text)
    best = ""
    for line in _sharing(norm, lines):
        m = SequenceMatcher(None, norm, line, autojunk=False).find_longest_match(
            0, len(norm), 0, len(line)
        )
        run = norm[m.a : m.a + m.size]
        limit = ECHO_RUN_CJK if _CJK.search(run) else ECHO_RUN
        if m.size >= limit and m.size > len(best):
            best = run
    return best


def problems(text: str, lines: list[str], *, judge: bool = False) -> list[str]:
    """What is wrong with one prose field (empty when nothing is)."""
    found = []
    t = text.strip()
    if _TAG.search(t) or _TEMPLATE.search(t):
        found.append("debris: markup")
    if _JSON_MARK.search(t):
        found.append("debris: JSON punctuation")
    unbalanced = t.count('"') % 2 or t.count("“") != t.count("”")
    alone = (t[:1] in "\"'" and t[-1:] not in "\"'") or (t[-1:] == '"' and t[:1] != '"')
    if _QUOTED_KEY.search(t) or unbalanced or alone:
        found.append("debris: stray quote")
    run = copied_run(t, lines) if lines else ""
    if run:
        found.append(f"echo: {run[:60]!r}")
    if _LABEL_RESPONSE.search(t) or len(_LABEL_ID.findall(t)) >= 2:
        found.append("label copy")
    shouted = _SHOUTED.search(t)
    if shouted:
        found.append(f"shouted word: {shouted.group(0)}")
    ids = _ANY_ID.findall(t)
    if len(ids) >= 2 and len(_WORDS.findall(_ANY_ID.sub(" ", t))) < LIST_WORDS:
        found.append("label list")
    if _CHAR_LOOP.search(t) or _WORD_LOOP.search(t + " "):
        found.append("loop")
    else:
        sentences = [normal(s) for s in re.split(r"(?<=[.!?。！？])\s*", t) if len(s) > 15]
        if len(sentences) != len(set(sentences)):
            found.append("loop: a sentence written twice")
    if judge and (len(_WORDS.findall(t)) < 4 or not _SENTENCE_END.search(t)):
        found.append("fragment: not a sentence")
    return found


def _json_fields(value: Any, path: str, key: str = "") -> Iterator[tuple[str, str, str]]:
    if isinstance(value, str):
        if key in PROSE_KEYS:
            yield path, key, value
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from _json_fields(item, f"{path}.{k}" if path else k, k)
    elif isinstance(value, list):
        for n, item in enumerate(value, start=1):
            yield from _json_fields(item, f"{path}[{n}]", key)


def json_fields(result: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(path, key, text)`` of every prose string of the debate and its judgement."""
    out: list[tuple[str, str, str]] = []
    for section in ("payload", "judgement"):
        out.extend(_json_fields(result.get(section), section))
    return out


class _Text(HTMLParser):
    """The visible text chunks of an HTML page (scripts and styles left out)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "svg"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "svg") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.chunks.append(data.strip())


def html_chunks(page: str) -> list[str]:
    parser = _Text()
    parser.feed(page)
    return parser.chunks


def md_chunks(briefing: str) -> list[str]:
    """The Markdown briefing's text chunks: table cells, bullets and paragraphs, with
    Markdown's backslash escapes undone."""
    chunks: list[str] = []
    for raw in briefing.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "|---", "```", "---")):
            continue
        if line.startswith("|"):
            chunks.extend(c.strip() for c in re.split(r"(?<!\\)\|", line.strip("|")))
        elif not re.match(r"^[-*]\s+\[", line):  # not a rule-list line ("- [Opening, Pro] ...")
            chunks.append(re.sub(r"^[-*]\s+|^\d+\.\s+", "", line))
    return [_MD_ESCAPE.sub(r"\1", c) for c in chunks if c]


@dataclass
class Report:
    name: str
    topic: str = ""
    lang: str = ""
    trust: str = ""
    fields: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    findings: list[str] = field(default_factory=list)

    def add(self, kind: str, where: str, text: str) -> None:
        self.counts[kind.split(":")[0]] += 1
        self.findings.append(f"{where}: {kind}: {text[:120]!r}")


def _restates(claim: str, topic: str) -> bool:
    words = set(_WORDS.findall(claim.lower()))
    own = words - set(_WORDS.findall(topic.lower())) - {"not", "no", "should", "because", "不"}
    ratio = SequenceMatcher(None, normal(claim).rstrip("?？"), normal(topic).rstrip("?？")).ratio()
    return ratio >= RESTATE or len(own) < 3


def _after_shared_start(claims: list[str]) -> list[str]:
    if len(claims) < 2:
        return claims
    start = 0
    for chars in zip(*claims, strict=False):
        if len(set(chars)) > 1:
            break
        start += 1
    return [c[start:] for c in claims]


def check_claims(result: dict[str, Any], report: Report) -> None:
    args = ((result.get("payload") or {}).get("structured") or {}).get("arguments") or []
    topic = result.get("topic", "")
    by_side: dict[str, list[tuple[str, str]]] = {}
    for a in args:
        claim = a.get("claim", "")
        ident = a.get("id", "?")
        if claim in MARKERS:
            continue
        by_side.setdefault(a.get("side", "?"), []).append((ident, claim))
        if _restates(claim, topic):
            report.add("claim restates the topic", ident, claim)
        if claim.rstrip().endswith(("?", "？")):
            report.add("claim ends with '?'", ident, claim)
    for claims in by_side.values():
        tails = _after_shared_start([c for _, c in claims])
        for i in range(len(claims)):
            for j in range(i + 1, len(claims)):
                ratio = SequenceMatcher(None, tails[i].split(), tails[j].split()).ratio()
                if ratio >= NEAR_COPY:
                    report.add(
                        f"near-copy claims ({ratio:.2f})",
                        f"{claims[i][0]}~{claims[j][0]}",
                        tails[j],
                    )


def check_reasons(result: dict[str, Any], report: Report) -> None:
    """Each judge's reason that is a near-copy of its reason for another argument."""
    rows = (result.get("judgement") or {}).get("trace") or []
    reasons = [
        (r.get("argument_id", "?"), r.get("reason", ""))
        for r in rows
        if r.get("reason", "").strip() and r.get("reason", "").strip() not in MARKERS
    ]
    words = [_WORDS.findall(_ANY_ID.sub(" ", normal(text))) for _, text in reasons]
    for i, (ident, text) in enumerate(reasons):
        if any(
            SequenceMatcher(None, words[i], words[j]).ratio() >= NEAR_COPY
            for j in range(len(reasons))
            if j != i
        ):
            report.add("copied reason", ident, text)


def _flagged(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [w for w in result.get("warnings", []) if w.get("code") in FLAG_CODES]


def check(json_path: Path, md: Path | None, html: Path | None, lines: list[str]) -> Report:
    result = json.loads(json_path.read_text(encoding="utf-8"))
    trust = result.get("trust") or {}
    report = Report(
        json_path.stem, result.get("topic", ""), result.get("lang", ""), trust.get("level", "")
    )
    fields = json_fields(result)
    report.fields = len(fields)
    markers = 0
    for path, key, text in fields:
        if text.strip() in MARKERS:
            markers += 1
            continue
        for kind in problems(text, lines, judge=key in JUDGE_KEYS):
            report.add(kind, f"json {path}", text)
    check_claims(result, report)
    check_reasons(result, report)
    flagged = _flagged(result)
    reasons = {r.get("code") for r in trust.get("reasons", [])}
    if (markers or flagged) and "unusable_text" not in reasons:
        report.add("marker without trust reason", "json trust", str(trust.get("reasons")))
    if markers > len(flagged):
        report.add(
            "marker not flagged",
            "json warnings",
            f"{markers} fields shown as markers, {len(flagged)} flagged",
        )
    report.counts["markers (json)"] = markers
    if report.lang == "zh":
        texts = [t for _, _, t in fields if t.strip() not in MARKERS]
        report.counts["really Chinese (json)"] = sum(_cjk_share(t) >= CHINESE for t in texts)
        report.counts["prose fields shown (json)"] = len(texts)
    report.counts["flagged (json)"] = len(flagged)
    prose = {normal(t) for _, _, t in fields if t.strip() not in MARKERS}
    for label, page, reader in (("md", md, md_chunks), ("html", html, html_chunks)):
        if page is None or not page.exists():
            continue
        chunks = reader(page.read_text(encoding="utf-8"))
        shown = sum(c.count(m) for c in chunks for m in MARKERS)
        report.counts[f"markers ({label})"] = shown
        if shown and "unusable_text" not in reasons:
            report.add("marker without trust reason", label, "")
        for chunk in chunks:
            # only chunks that carry a prose field (or a part of one) are model prose
            norm = normal(chunk)
            if len(norm) < 12 or not any(norm in p or p in norm for p in prose if len(p) >= 12):
                continue
            report.counts[f"prose chunks ({label})"] += 1
            # a detector's or rule's own words around a quote ("similarity 0.82 >= 0.80")
            chunk = _COMPARISON.sub(" ", chunk)
            for kind in problems(chunk, []):
                if not kind.startswith("echo"):
                    report.add(kind, label, chunk)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", nargs="?", type=Path)
    parser.add_argument("--md", type=Path)
    parser.add_argument("--html", type=Path)
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    args = parser.parse_args(argv)
    if args.dir:
        triples = [
            (p, p.with_suffix(".md"), p.with_suffix(".html"))
            for p in sorted(args.dir.glob("*.json"))
        ]
    elif args.result:
        triples = [(args.result, args.md, args.html)]
    else:
        parser.error("give a result JSON or --dir")
    lines = prompt_lines()
    reports = []
    for json_path, md, html in triples:
        try:
            reports.append(check(json_path, md, html, lines))
        except (OSError, ValueError) as exc:
            print(f"debris.py: cannot read {json_path}: {exc}", file=sys.stderr)
            return 2
    if args.json:
        # asdict would rebuild the Counter from (key, count) pairs, counting the pairs
        rows = [{**asdict(r), "counts": dict(r.counts)} for r in reports]
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        for r in reports:
            counts = ", ".join(f"{k} {v}" for k, v in sorted(r.counts.items()))
            print(f"## {r.name} [{r.lang}] trust={r.trust} fields={r.fields}: {r.topic}")
            print(f"   {counts}")
            for finding in r.findings:
                print(f"   - {finding}")
    bad = any(k for r in reports for k, v in r.counts.items() if v and "(" not in k)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
