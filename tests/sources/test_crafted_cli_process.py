"""The crafted debates through the ``moot`` command in its own process, and the
verified quotes re-found by ``refind.py`` run as a script (no moot code in it)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from crafted_docs import write_en, write_zh
from test_crafted_citations import DEBATES, _check

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.process


@pytest.mark.parametrize("name", ["en-first", "zh-second"])
def test_crafted_debate_through_the_moot_process(name: str, tmp_path: Path) -> None:
    plan, lang, topic = DEBATES[name]
    plan = dataclasses.replace(plan, unlocated=[])
    folder = (write_zh if lang == "zh" else write_en)(tmp_path / "docs")
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(
        json.dumps({s: [dataclasses.asdict(c) for c in cs] for s, cs in plan.sides.items()}),
        encoding="utf-8",
    )
    out = tmp_path / "r.json"
    run = subprocess.run(
        [sys.executable, str(HERE / "crafted_cli.py"), str(plan_file), "run", topic,
         "--model", "crafted:x", "--seed", "3", "--lang", lang, "--sources", str(folder),
         "--json", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    _check(plan, json.loads(out.read_text(encoding="utf-8")))
    refind = subprocess.run(
        [sys.executable, str(HERE / "refind.py"), str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert refind.returncode == 0, refind.stdout
    assert "verified quotes found in their files" in refind.stdout


def test_a_device_in_a_folder_is_refused_by_the_moot_process(tmp_path: Path) -> None:
    folder = write_en(tmp_path / "docs")
    (folder / "zero.txt").symlink_to("/dev/zero")
    run = subprocess.run(
        [sys.executable, "-m", "moot", "run", "Rust?", "--model", "scripted:demo",
         "--sources", str(folder)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert "zero.txt" in run.stderr
