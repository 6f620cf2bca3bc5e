"""A format from another package: the toy plugin of ``tests/data/plugin_format``
(pro and con open once each, an audience votes before and after) is installed into a
fresh virtual environment and played through the ``moot`` command line, with no file
of moot touched: ``moot formats``, ``moot run --format toy`` on ``scripted:demo``
(with the plugin's own generated flag), ``moot report --html`` of the stored run, and
``moot view`` serving the run's page.

The environment sees moot's dependencies through ``--system-site-packages``. moot
(this checkout) and the plugin are installed by pip (``--no-deps --no-index``) from
wheels this test assembles from their ``pyproject.toml`` files (package files,
metadata, entry points, the ``moot`` console script), so nothing is fetched and no
build backend is needed."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "tests" / "data" / "plugin_format"
TOPIC = "Cities should ban cars from their centres"

pytestmark = [pytest.mark.process, pytest.mark.slow]


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def assemble_wheel(project_dir: Path, source: Path, package: str, into: Path) -> Path:
    """The project of ``project_dir`` as a pure-Python wheel: every file of
    ``package`` under ``source``, and the metadata, entry points and console scripts
    its ``pyproject.toml`` declares (what a build backend would write for it)."""
    pyproject = tomllib.loads((project_dir / "pyproject.toml").read_text(encoding="utf-8"))
    project = pyproject["project"]
    name, version = project["name"].replace("-", "_"), project["version"]
    info = f"{name}-{version}.dist-info"
    files: dict[str, bytes] = {}
    for path in sorted((source / package).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            files[path.relative_to(source).as_posix()] = path.read_bytes()
    groups = dict(project.get("entry-points", {}))
    if "scripts" in project:
        groups["console_scripts"] = project["scripts"]
    entry_points = "".join(
        f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items()) + "\n"
        for group, points in groups.items()
    )
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {version}\n"
    ).encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: moot-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files[f"{info}/entry_points.txt"] = entry_points.encode()
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = into / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for file_name, data in files.items():
            archive.writestr(file_name, data)
    return wheel


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment with moot (this checkout) and the toy plugin installed."""
    root = tmp_path_factory.mktemp("plugin")
    env_dir = root / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", str(env_dir)], check=True
    )
    python = env_dir / "bin" / "python"
    wheels = [
        assemble_wheel(ROOT, ROOT / "src", "moot", root),
        assemble_wheel(PLUGIN, PLUGIN, "moot_toy", root),
    ]
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", *map(str, wheels)],
        check=True,
        env=_env(root),
    )
    return env_dir


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MOOT_DEBUG")}
    env["MOOT_HOME"] = str(home / "moot-home")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _moot(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(venv / "bin" / "moot"), *args],
        capture_output=True,
        text=True,
        env=_env(venv.parent),
        timeout=300,
        check=False,
    )


def test_the_plugin_is_installed_not_copied_into_moot(venv: Path) -> None:
    where = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import moot, moot_toy; print(moot.__file__); print(moot_toy.__file__)",
        ],
        capture_output=True,
        text=True,
        env=_env(venv.parent),
        check=True,
    ).stdout.split()
    # both installed in the environment, moot ahead of any moot of the system
    assert Path(where[0]).is_relative_to(venv)
    assert Path(where[1]).is_relative_to(venv)
    assert not (ROOT / "src" / "moot" / "formats" / "toy").exists()


def test_a_plugin_format_runs_reports_and_is_viewed_through_the_cli(venv: Path) -> None:
    listed = _moot(venv, "formats")
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^toy +one opening per side", listed.stdout, re.MULTILINE)
    helped = _moot(venv, "run", "--help")
    assert "--toy-note" in helped.stdout  # the plugin's flag, generated from its field

    ran = _moot(
        venv,
        "run",
        TOPIC,
        "--format",
        "toy",
        "--model",
        "scripted:demo",
        "--id",
        "toy1",
        "--toy-note",
        "a note",
        "-q",
    )
    assert ran.returncode == 0, ran.stderr
    assert "## Audience vote" in ran.stdout
    assert "| PRO-1 | Pro |" in ran.stdout

    html = venv.parent / "toy.html"
    reported = _moot(venv, "report", "toy1", "--html", str(html))
    assert reported.returncode == 0, reported.stderr
    page = html.read_text(encoding="utf-8")
    assert "Audience vote" in page
    assert "We back the motion" in page

    server = subprocess.Popen(
        [str(venv / "bin" / "moot"), "view", "--port", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(venv.parent),
    )
    try:
        assert server.stderr is not None
        deadline = time.monotonic() + 60
        url = None
        while url is None and time.monotonic() < deadline:
            line = server.stderr.readline()
            found = re.search(r"read-only at (http://127\.0\.0\.1:\d+)", line)
            url = found.group(1) if found else None
            if not line and server.poll() is not None:
                break
        assert url is not None, "moot view never said where it serves"
        with urllib.request.urlopen(f"{url}/runs/toy1", timeout=30) as response:  # noqa: S310
            served = response.read().decode("utf-8")
        assert response.status == 200
        assert "Audience vote" in served
        assert "We back the motion" in served
    finally:
        server.terminate()
        server.wait(timeout=30)
        if server.stderr is not None:
            server.stderr.close()


def test_a_broken_plugin_is_named_and_leaves_the_rest_working(venv: Path) -> None:
    """An entry point that cannot load: every built-in command still works, and
    asking for the plugin's format says which plugin failed and why."""
    info = next((venv / "lib").glob("python*/site-packages/moot_toy_format-*.dist-info"))
    points = info / "entry_points.txt"
    kept = points.read_text(encoding="utf-8")
    points.write_text(kept + "[moot.formats]\nbroken = moot_toy.nowhere:Nothing\n", "utf-8")
    try:
        listed = _moot(venv, "formats")
        assert listed.returncode == 0, listed.stderr
        assert "toy" in listed.stdout
        assert "structured" in listed.stdout
        warned = " ".join(listed.stderr.split())
        assert warned.startswith(
            "warning: format plugin 'broken' (moot_toy.nowhere:Nothing) was not loaded:"
            " ModuleNotFoundError"
        )
        assert "Traceback" not in warned
        asked = _moot(venv, "run", TOPIC, "--format", "broken", "--model", "scripted:demo")
        assert asked.returncode == 2
        assert "the format plugin 'broken' could not be loaded" in " ".join(asked.stderr.split())
    finally:
        points.write_text(kept, encoding="utf-8")
