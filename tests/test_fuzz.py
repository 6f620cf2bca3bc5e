"""The hostile-input fuzzer: Hypothesis generates what a user or a server controls and
every answer must be a documented one.

Inputs: ``moot run``'s options and topic, the judge panel file, market knowledge
bases, backtest snapshot sets, ``moot lint`` transcripts, and a server's replies and
token counts (an in-process fake server behind the real SDK: no network). Text
comes with control characters, bidirectional overrides, NUL (files only: an argument
cannot hold one), lone surrogates and the catalogue's payloads; numbers include
NaN, infinities, huge and negative ones; JSON is arbitrary, deep or mutated from a
valid document.

Checked for every example: the exit code is a documented one (``moot.cli.support``),
no traceback and no "internal error" is printed, a refused command stores nothing,
and a server's reply ends as a result or as a moot error with the run recorded.

The examples are derandomized (the same inputs every run) and their number is fixed:
``MOOT_FUZZ_EXAMPLES`` (default 20 per test) raises it for a release check, see
docs/fuzzing.md.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from fake_transport import InProcessServer, fake_provider
from hostile import NUL, PAYLOADS, UNDECODABLE
from moot.cli import app
from moot.debate import run_debate
from moot.errors import MootError
from moot.llm.counts import MAX_REPORTED_TOKENS
from moot.store import Store

pytestmark = pytest.mark.slow(minutes=3)

EXAMPLES = int(os.environ.get("MOOT_FUZZ_EXAMPLES", "20"))
settings.register_profile(
    "moot-fuzz",
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
FUZZ = settings.get_profile("moot-fuzz")

# -- strategies ----------------------------------------------------------------------

SPECIAL = [*PAYLOADS.values(), NUL, UNDECODABLE, "", " ", "\n", "\u202e", "\ud800", "\ufeff"]
TEXT = st.one_of(
    st.text(st.characters(exclude_categories=()), max_size=30),  # surrogates included
    st.sampled_from(SPECIAL),
)
ARGUMENT = TEXT.map(lambda text: text.replace("\x00", ""))
"""Text as a command-line argument can carry it (anything but NUL)."""
NUMBER_TEXT = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "1e309", "-0", "0", "9" * 5000, "0x10", "1_000", ""]),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
)
JSON = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=12,
)
DEEP = st.integers(min_value=50, max_value=20_000).map(lambda n: "[" * n + "]" * n)


def json_text(value: Any) -> str:
    """``value`` as JSON text (NaN and infinities as Python writes them; surrogates
    escaped, as a hostile file would hold them)."""
    return json.dumps(value, allow_nan=True)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value``."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths(child, (*prefix, index))
    return found


def mutate(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``document`` with ``value`` at ``path`` (the whole of it for ``()``)."""
    if not path:
        return value
    copy = json.loads(json.dumps(document))
    node = copy
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return copy


# -- checks ----------------------------------------------------------------------------

DOCUMENTED = {0, 1, 2, 3, 4}


@contextmanager
def moot_home() -> Iterator[Path]:
    """A fresh run store for one example (the fixture's is shared by all of them)."""
    with tempfile.TemporaryDirectory() as home:
        old = os.environ.get("MOOT_HOME")
        os.environ["MOOT_HOME"] = home
        try:
            yield Path(home)
        finally:
            if old is not None:
                os.environ["MOOT_HOME"] = old


def stored(home: Path) -> list[str]:
    path = home / "moot.db"
    return [row.id for row in Store(path).list_debates()] if path.is_file() else []


def invoke(home: Path, *args: str, allowed: set[int] = DOCUMENTED) -> Result:
    """``moot ARGS`` in process: a documented exit code, no traceback, no internal
    error, and nothing stored when refused (exit 2)."""
    result = CliRunner().invoke(app, list(args))
    printed = result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )
    assert result.exit_code in allowed, (args, result.exit_code, printed)
    assert "Traceback" not in printed, (args, printed)
    assert "internal error" not in printed, (args, printed)
    if result.exit_code == 2:
        assert stored(home) == [], (args, printed)
    return result


# -- the command line ----------------------------------------------------------------

RUN_OPTIONS = [
    *("--temperature", "--max-tokens", "--max-cost", "--timeout", "--concurrency"),
    *("--max-reasks", "--judge-runs", "--seed", "--sides", "--lang", "--format", "--id"),
    *("--profile", "--format-option", "--panel", "--judge-model", "--calibration"),
    *("--topic-type", "--json", "--html"),
]


@FUZZ
@given(
    topic=ARGUMENT,
    options=st.lists(
        st.tuples(st.sampled_from(RUN_OPTIONS), st.one_of(ARGUMENT, NUMBER_TEXT)), max_size=3
    ),
)
def test_run_options_and_topic(topic: str, options: list[tuple[str, str]]) -> None:
    with moot_home() as home:
        args = [item for pair in options for item in pair]
        invoke(home, "run", topic, "--model", "scripted:demo", "-q", *args)


@FUZZ
@given(
    rounds=NUMBER_TEXT,
    pair=st.tuples(st.sampled_from(["rounds", "claims", "voters", "kb", ""]), JSON),
)
def test_format_flags_and_options(rounds: str, pair: tuple[str, Any]) -> None:
    key, value = pair
    with moot_home() as home:
        option = f"{key}={json_text(value)}".replace("\x00", "")
        invoke(home, "run", "Should we x?", "--model", "scripted:demo", "-q",
               "--format", "freeform", "--rounds", rounds, "--format-option", option)  # fmt: skip


# -- configuration and data files ------------------------------------------------------

PANEL = "[judges.j]\nlogic = 0.3\nevidence = 0.3\nresponsiveness = 0.3\nhonesty = 0.1\n"


@FUZZ
@given(
    content=st.one_of(
        st.binary(max_size=300),
        st.tuples(st.integers(0, len(PANEL)), TEXT).map(
            lambda cut: (PANEL[: cut[0]] + cut[1] + PANEL[cut[0] :]).encode(
                "utf-8", "surrogatepass"
            )
        ),
        DEEP.map(lambda deep: f"[judges.j]\nlogic = {deep}\n".encode()),
    )
)
def test_panel_files(content: bytes) -> None:
    with moot_home() as home:
        path = home / "judges.toml"
        path.write_bytes(content)
        invoke(home, "run", "Should we x?", "--model", "scripted:demo", "-q",
               "--panel", "j", "--panel-file", str(path))  # fmt: skip


def _demo_kb() -> dict[str, Any]:
    from moot.formats.market.data import demo_kb
    from moot.formats.market.data.kb import kb_to_data

    return kb_to_data(demo_kb())


KB = _demo_kb()
KB_PATHS = paths(KB)


@FUZZ
@given(
    edit=st.one_of(
        st.tuples(st.sampled_from(KB_PATHS), JSON),
        st.tuples(st.just(()), JSON),
    ),
    raw=st.one_of(st.none(), DEEP, st.binary(max_size=100).map(lambda b: b.decode("latin-1"))),
)
def test_knowledge_bases(edit: tuple[tuple[Any, ...], Any], raw: str | None) -> None:
    path, value = edit
    with moot_home() as home:
        kb = home / "kb.json"
        text = raw if raw is not None else json_text(mutate(KB, path, value))
        kb.write_text(text, encoding="utf-8", errors="surrogatepass")
        invoke(home, "run", "Should we x?", "--model", "scripted:demo", "-q",
               "--format", "market", "--kb", str(kb))  # fmt: skip


@FUZZ
@given(
    folder=ARGUMENT.filter(lambda n: "/" not in n and n not in ("", ".", "..")),
    edit=st.tuples(
        st.sampled_from(["as_of", "target", "horizon_sessions", "end_date", "return_pct"]), JSON
    ),
    duplicate=st.booleans(),
)
def test_snapshot_sets(folder: str, edit: tuple[str, Any], duplicate: bool) -> None:
    """Loaded in process (a valid set would run a whole backtest): a snapshot set is
    read, or refused with a moot error naming it."""
    from moot.errors import ConfigError
    from moot.formats.market.data import demo_snapshots, load_snapshots, write_snapshots

    with tempfile.TemporaryDirectory() as root:
        snapshots = demo_snapshots()[:2]
        write_snapshots(snapshots, root)
        try:
            (Path(root) / snapshots[0].id).rename(Path(root) / folder)
        except (OSError, UnicodeEncodeError):
            return  # not a name this file system takes
        target = Path(root) / (snapshots[0].id if duplicate else snapshots[1].id) / "outcome.json"
        if target.parent.is_dir():
            data = json.loads(target.read_text(encoding="utf-8"))
            data[edit[0]] = edit[1]
            target.write_text(json_text(data), encoding="utf-8", errors="surrogatepass")
        refused: ConfigError | None = None
        try:
            loaded = load_snapshots(root)
        except ConfigError as exc:
            refused, loaded = exc, []
        assert refused is None or str(refused)
        assert len({s.as_of for s in loaded}) == len(loaded)


TRANSCRIPT = {
    "topic": "Should we x?",
    "lang": "en",
    "sides": {"pro": "for", "con": "against"},
    "turns": [{"side": "pro", "text": "It saves money."}, {"side": "con", "text": "It does not."}],
    "judge_scores": [{"turn": 1, "score": 7}],
}


@FUZZ
@given(
    edit=st.tuples(st.sampled_from(paths(TRANSCRIPT)), JSON),
    raw=st.one_of(st.none(), DEEP, JSON.map(json_text)),
    as_json=st.booleans(),
)
def test_lint_transcripts(
    edit: tuple[tuple[Any, ...], Any], raw: str | None, as_json: bool
) -> None:
    path, value = edit
    with moot_home() as home:
        transcript = home / "t.json"
        text = raw if raw is not None else json_text(mutate(TRANSCRIPT, path, value))
        transcript.write_text(text, encoding="utf-8", errors="surrogatepass")
        invoke(home, "lint", str(transcript), *(["--json"] if as_json else []), allowed={0, 2})


# -- what a server sends ---------------------------------------------------------------

USAGE = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"prompt_tokens": SCALARS, "completion_tokens": SCALARS, "total_tokens": SCALARS}
    ),
    st.fixed_dictionaries(
        {
            "prompt_tokens": st.integers(-(10**30), 10**30),
            "completion_tokens": st.integers(0, MAX_REPORTED_TOKENS),
        }
    ),
)
CONTENT = st.one_of(st.none(), TEXT, DEEP, JSON.map(json_text))


@FUZZ
@given(usage=USAGE, content=CONTENT, body=st.one_of(st.none(), JSON))
def test_server_replies_and_usage(usage: Any, content: str | None, body: Any) -> None:
    """The first reply is hostile (its usage, its text, or its whole body); the rest
    are sane. The run ends with a result or a moot error, recorded in the store."""
    from fake_openai import completion

    def reply(n: int, request: dict[str, Any]) -> Any:
        if n > 1:
            return None
        if body is not None:
            return body
        sent = completion(str(request.get("model")), "" if content is None else content)
        sent["usage"] = usage
        return sent

    server = InProcessServer(reply=reply)
    with moot_home() as home, fake_provider(server) as spec:
        store = Store(home / "moot.db")
        failure: MootError | None = None
        try:
            run_debate("Should we x?", model=spec, store=store, debate_id="f")
        except MootError as exc:
            failure = exc
        row = store.get_debate("f")
        assert row is not None
        assert row.status == ("done" if failure is None else "failed"), failure
        for call in store.calls("f"):
            assert 0 <= call.prompt_tokens <= MAX_REPORTED_TOKENS
            assert 0 <= call.completion_tokens <= MAX_REPORTED_TOKENS
            (call.reply or "").encode("utf-8")
