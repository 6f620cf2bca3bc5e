"""A document's title, as docs/sources.md says: "its first Markdown heading, else its
first line (at most 80 characters), else its file name". Crafted documents whose
first line runs straight into the paragraph below it (no blank line), through a
whole debate (``run_debate(sources=...)``): the result's ``sources.documents`` and
the briefing's table name each by its first line, never by its first paragraph.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from crafted_docs import pdf_from_lines

import moot

BODY = (
    "The data centre contract ends in 2028 and the review covers every site we run "
    "across three regions."
)
BODY_ZH = "数据中心合同将于2028年到期，本次审查覆盖三个地区的全部站点以及两家供应商。"


def _titles(folder: Path, lang: str) -> dict[str, str]:
    result = json.loads(
        moot.to_json(
            moot.run_debate(
                "Should we renew the hosting contract?", model="scripted:demo", seed=1,
                lang=lang, sources=[str(folder)],
            )
        )
    )  # fmt: skip
    return {Path(d["path"]).name: d["title"] for d in result["sources"]["documents"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_title_is_the_first_line_not_the_first_paragraph(lang: str, tmp_path: Path) -> None:
    title, body = ("Quarterly hosting review", BODY) if lang == "en" else ("季度托管审查", BODY_ZH)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "review.txt").write_text(f"{title}\n{body}\n", encoding="utf-8")
    if lang == "en":  # the PDF writer's Helvetica has no Chinese
        (folder / "review.pdf").write_bytes(pdf_from_lines([[title, body]]))
    long = "A" + " very long first line" * 6
    (folder / "long.txt").write_text(f"{long}\n{body}\n", encoding="utf-8")
    titles = _titles(folder, lang)
    first_lines = {"review.txt": title, "review.pdf": title, "long.txt": long[:80]}
    wrong = {
        name: got
        for name, got in titles.items()
        if len(got) > 80 or "\n" in got or not first_lines[name].startswith(got.rstrip(".… "))
    }
    assert not wrong, f"titles that are not the first line: {wrong}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_markdown_title_is_its_first_heading(lang: str, tmp_path: Path) -> None:
    before, heading = (
        ("Draft - do not circulate", "Billing design note")
        if lang == "en"
        else ("草稿，请勿外传", "计费服务设计说明")
    )
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.md").write_text(
        f"{before}\n\n## {heading}\n\n{BODY if lang == 'en' else BODY_ZH}\n", encoding="utf-8"
    )
    assert _titles(folder, lang) == {"note.md": heading}
