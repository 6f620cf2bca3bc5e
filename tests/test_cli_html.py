"""``moot run --html``, ``moot report ID --html`` and ``moot view``'s refusals, on the
offline demo model."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from html_support import PLACES, TOPIC, Elements, unit_ids
from moot.cli import app
from moot.report.html import RunInfo, to_html
from moot.schema import DebateResult
from moot.store import Store


def _moot(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _flat(text: str) -> str:
    """Rich wraps stderr lines at the console width; fold white space for matching."""
    return " ".join(text.split())


def _stored(run_id: str) -> DebateResult:
    row = Store().get_debate(run_id)
    assert row is not None
    assert row.result_json is not None
    return DebateResult.model_validate_json(row.result_json)


def _page(run_id: str) -> str:
    """The report of a stored run, its header naming the run's id and date."""
    row = Store().get_debate(run_id)
    assert row is not None
    return to_html(_stored(run_id), RunInfo(id=run_id, date=row.created_at))


def test_run_writes_the_html_report(tmp_path: Path) -> None:
    out = tmp_path / "reports" / "run.html"
    result = _moot("run", TOPIC, "--model", "scripted:demo", "--seed", "4", "--id", "r1",
                   "--html", str(out), "-q")  # fmt: skip
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert html == _page("r1")
    assert ">r1<" in html
    assert "Content-Security-Policy" in html
    assert f"HTML report written to {out}" in _flat(result.stderr)


def test_report_writes_a_stored_run(tmp_path: Path) -> None:
    assert _moot("run", TOPIC, "--model", "scripted:demo", "--id", "r2", "-q").exit_code == 0
    out = tmp_path / "r2.html"
    result = _moot("report", "r2", "--html", str(out))
    assert result.exit_code == 0, result.output
    page = Elements(out.read_text(encoding="utf-8"))
    stored = _stored("r2")
    for unit in unit_ids(stored):
        assert unit in page.all_text
    assert out.read_text(encoding="utf-8") == _page("r2")


def test_run_writes_the_html_report_of_a_free_form_debate(tmp_path: Path) -> None:
    out = tmp_path / "freeform.html"
    result = _moot("run", TOPIC, "--model", "scripted:demo", "--format", "freeform",
                   "--sides", ";".join(PLACES), "--rounds", "2", "--swap-sides", "--id", "ff",
                   "--html", str(out), "-q")  # fmt: skip
    assert result.exit_code == 0, result.output
    stored = _stored("ff")
    assert stored.swap is not None  # the first and the last place exchange models
    assert stored.format == "freeform"
    assert [p.name for p in stored.positions] == PLACES
    html = out.read_text(encoding="utf-8")
    assert html == _page("ff")
    page = Elements(html)
    assert len([t for t in page.tags("tr") if t.get("id", "").startswith("item-")]) == 6
    for unit in unit_ids(stored):
        assert unit in page.all_text


def test_report_of_an_unknown_run_is_a_usage_error(tmp_path: Path) -> None:
    result = _moot("report", "nonesuch", "--html", str(tmp_path / "x.html"))
    assert result.exit_code == 2
    assert "no run with id 'nonesuch'" in _flat(result.stderr)
    assert not (tmp_path / "x.html").exists()


def test_run_refuses_a_directory_as_html_path_before_running(tmp_path: Path) -> None:
    result = _moot("run", TOPIC, "--model", "scripted:demo", "--id", "r3",
                   "--html", str(tmp_path))  # fmt: skip
    assert result.exit_code == 2
    assert "is a directory" in _flat(result.stderr)
    assert Store().get_debate("r3") is None


def test_view_refuses_a_wildcard_or_a_name_to_listen_on() -> None:
    Store().close()  # the store exists
    wildcard = _moot("view", "--host", "0.0.0.0", "--port", "0")  # noqa: S104 (refused)
    assert wildcard.exit_code == 2
    assert "would serve every interface" in _flat(wildcard.stderr)
    name = _moot("view", "--host", "example.com", "--port", "0")
    assert name.exit_code == 2
    assert "must be an IP address or localhost" in _flat(name.stderr)


@pytest.mark.server
def test_view_without_a_store_says_so() -> None:
    result = _moot("view", "--port", "0")
    assert result.exit_code == 2
    assert "no run store at" in _flat(result.stderr)
