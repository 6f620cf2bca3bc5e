"""Readers, passages and the checks of bad documents (``moot.sources``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from source_docs import BILLING, encrypted_pdf_bytes, pdf_bytes

from moot.errors import DataError
from moot.sources import library as library_module
from moot.sources.library import collect, open_library
from moot.sources.passages import MAX_PASSAGE_CHARS, split
from moot.sources.readers import read_blocks
from moot.store import Store


def _passages(path: Path, kind: str) -> list[str]:
    return [p.text for p in split(read_blocks(path.read_bytes(), path, kind), kind)]


def test_markdown_paragraphs_become_passages_with_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "billing.md"
    path.write_text(BILLING, encoding="utf-8")
    lib = open_library([path], Store(tmp_path / "moot.db"))
    doc = lib.documents[0]
    assert doc.id == "S1"
    assert doc.title == "Billing design"
    ids = [p.id for p in doc.passages]
    assert ids == ["S1:p1", "S1:p2", "S1:p3"]
    second = doc.passages[1]
    assert second.text.startswith("The billing service handles 4,200 invoices")
    assert (second.line_start, second.line_end) == (3, 4)
    assert second.where == "lines 3-4"


def test_html_keeps_text_and_drops_scripts(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>T</title><style>p{}</style></head><body>"
        "<h1>Vendor note</h1><p>Support ends in <b>2027</b>.</p>"
        "<script>alert('x')</script></body></html>",
        encoding="utf-8",
    )
    text = " ".join(_passages(path, "html"))
    assert "Support ends in" in text
    assert "2027" in text
    assert "alert" not in text
    assert "<b>" not in text


def test_pdf_pages_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "vendor.pdf"
    path.write_bytes(pdf_bytes(["Throughput rose 12 percent", "Costs fell 3 percent"]))
    lib = open_library([path], Store(tmp_path / "moot.db"))
    passages = lib.documents[0].passages
    assert [(p.text, p.page, p.where) for p in passages] == [
        ("Throughput rose 12 percent", 1, "p. 1"),
        ("Costs fell 3 percent", 2, "p. 2"),
    ]


def test_csv_is_shown_as_a_table_with_its_header(tmp_path: Path) -> None:
    path = tmp_path / "incidents.csv"
    rows = "\n".join(f"Q{n},{n * 3},{n * 1000}" for n in range(1, 11))
    path.write_text("quarter,incidents,cost\n" + rows + "\n", encoding="utf-8")
    passages = _passages(path, "csv")
    assert len(passages) == 2  # ten rows, eight a passage
    assert all(p.startswith("quarter | incidents | cost\n") for p in passages)
    assert "quarter: Q2 | incidents: 6 | cost: 2000" in passages[0]


def test_a_long_paragraph_is_cut_at_sentence_ends(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    sentence = "The migration plan assigns one team to every service boundary. "
    path.write_text(sentence * 40, encoding="utf-8")
    passages = _passages(path, "text")
    assert len(passages) > 1
    assert all(len(p) <= MAX_PASSAGE_CHARS for p in passages)
    assert all(p.endswith(".") for p in passages)


def test_control_characters_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    path.write_text("Budget \x1b[31mred\x1b[0m is 5 units\u202e.\n", encoding="utf-8")
    assert _passages(path, "text") == ["Budget [31mred[0m is 5 units."]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.txt", b"", "is empty"),
        ("blank.md", b"  \n\n \n", "has no text"),
        ("bin.txt", b"abc\x00\x01\x02", "is binary"),
        ("latin.txt", "caf\xe9".encode("latin-1"), "is not UTF-8"),
        ("bad.pdf", b"%PDF-1.4 not really", "is not a readable PDF"),
        ("image.png", b"\x89PNG....", "is not a document moot reads"),
    ],
)
def test_bad_documents_are_refused_naming_the_file(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    store = Store(tmp_path / "moot.db")
    with pytest.raises(DataError, match=message) as caught:
        open_library([path], store)
    assert str(path) in str(caught.value)


def test_an_encrypted_pdf_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    path.write_bytes(encrypted_pdf_bytes())
    with pytest.raises(DataError, match="encrypted PDF") as caught:
        open_library([path], Store(tmp_path / "moot.db"))
    assert str(path) in str(caught.value)


def test_missing_paths_and_oversized_files_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(DataError, match="does not exist"):
        collect([tmp_path / "nothere.md"])
    big = tmp_path / "big.txt"
    big.write_text("x" * 200, encoding="utf-8")
    monkeypatch.setattr(library_module, "MAX_FILE_BYTES", 100)
    with pytest.raises(DataError, match=r"big.txt is too large \(200 bytes"):
        collect([big])


def test_a_bad_document_indexes_nothing(tmp_path: Path) -> None:
    good = tmp_path / "a.md"
    good.write_text(BILLING, encoding="utf-8")
    bad = tmp_path / "b.txt"
    bad.write_bytes(b"\x00\x00")
    store = Store(tmp_path / "moot.db")
    with pytest.raises(DataError, match=r"b\.txt"):
        open_library([tmp_path], store)
    # the good document was read first, but nothing was written
    assert open_library([good], store).indexed == 1


def test_a_folder_is_read_recursively_in_path_order_skipping_hidden_and_other_files(
    tmp_path: Path,
) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.txt").write_text("zeta notes", encoding="utf-8")
    (tmp_path / "a.md").write_text("alpha notes", encoding="utf-8")
    (tmp_path / ".hidden.txt").write_text("hidden", encoding="utf-8")
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8")
    assert [p.name for p in collect([tmp_path])] == ["a.md", "z.txt"]
    assert [p.name for p in collect([tmp_path, tmp_path / "a.md"])] == ["a.md", "z.txt"]


def test_passage_ids_are_read_as_models_write_them(tmp_path: Path) -> None:
    path = tmp_path / "billing.md"
    path.write_text(BILLING, encoding="utf-8")
    lib = open_library([path], Store(tmp_path / "moot.db"))
    for written in ("S1:p2", "s1:P2", "[S1:p2]", "S1：p2", " (S1: p2) "):
        found = lib.passage(written)
        assert found is not None, written
        assert found.id == "S1:p2", written
    assert lib.passage("S1:p9") is None
    assert lib.passage("S2:p1") is None
