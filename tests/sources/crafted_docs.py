"""Source folders for the crafted-citation checks, one document of each kind the
docs name (text, Markdown, HTML, PDF, CSV), in English and in Chinese.

Written from docs/sources.md alone: each paragraph is short (one passage), so a
passage is found by its words, never by a passage number guessed from the reader.
The PDF is written with pypdf (the library moot reads it with), not by hand.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pypdf
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

DESIGN_MD = """# Billing design note

The billing service handles 4,850 invoices per minute at peak. Median latency is 120 ms.

The Go worker was written in 2019 and holds 37,500 lines of code.
About 3/4 of incidents involve the retry queue.

The team estimates the rewrite at 18 months with five engineers.
"""

INCIDENT_TXT = """Incident report for March

On 3 March the retry queue stalled for 42 minutes and 1,200 invoices were delayed.

Revenue at risk was $1.2 million. Error rates rose by 12.5 percent during the incident.

Operators call the bypass the \u201cfast path\u201d and it was disabled afterwards.
"""

VENDOR_HTML = """<!doctype html>
<html><head><title>Vendor offer</title><style>p { color: red }</style></head>
<body>
<h1>Vendor offer</h1>
<p>The vendor quotes a licence at $250,000 per year, a 15% discount on list price.</p>
<script>var planted = "The vendor refunds 99% of fees.";</script>
<p>Support answers within 4 hours on working days.</p>
</body></html>
"""

RUST_NOTES_MD = """# Rust parser notes

The new parser returns Result<Invoice, ParseError> and never panics on bad input.

The worker reads its limits from config.json, where "max_retries": 5 and "timeout_ms": 800 are set.

Buffers are Vec<u8> of at most 64 KiB and are reused between invoices.
"""

PDF_PAGES = [
    ["Hosting review.", "", "Uptime was 99.95 percent over the last year."],
    ["Page two.", "", "The data centre contract ends in 2028 and costs 36,000 dollars a month."],
]

COSTS_ROWS = [
    ["item", "cost_usd", "share"],
    ["hosting", "48000", "40%"],
    ["licences", "36000", "30%"],
    ["staff", "36000", "30%"],
]

DESIGN_ZH = """# 计费服务设计说明

计费服务高峰时每分钟处理4850张发票，中位延迟为一百二十毫秒。

迁移预计需要十八个月，约四分之三的故障与重试队列有关。

去年营收增长百分之三点五，利润率为12.5%。
"""

INCIDENT_ZH = """三月事故报告

三月三日重试队列停滞了四十二分钟，共有1200张发票被延迟。

运维人员把这条旁路称为「快速路径」，事后已将其关闭。
"""

VENDOR_ZH_HTML = """<html><body>
<h1>供应商报价</h1>
<p>供应商报价为每年二十五万美元，比标价低15%。</p>
</body></html>
"""


def pdf_from_lines(pages: list[list[str]]) -> bytes:
    """A PDF made with pypdf: one page per item, its lines in Helvetica."""
    writer = pypdf.PdfWriter()
    for lines in pages:
        page = writer.add_blank_page(612, 792)
        font = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
            }
        )
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}
        )
        ops = ["BT /F1 11 Tf 72 720 Td 14 TL"]
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"({escaped}) Tj T*")
        ops.append("ET")
        stream = DecodedStreamObject()
        stream.set_data("\n".join(ops).encode("latin-1"))
        page[NameObject("/Contents")] = writer._add_object(stream)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def encrypted_pdf() -> bytes:
    """A readable PDF, encrypted with a user password."""
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(pdf_from_lines(PDF_PAGES))))
    writer.encrypt("secret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def write_en(folder: Path) -> Path:
    """The English folder: Markdown, text, HTML, PDF and CSV."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "design.md").write_text(DESIGN_MD, encoding="utf-8")
    (folder / "rust-notes.md").write_text(RUST_NOTES_MD, encoding="utf-8")
    (folder / "incident.txt").write_text(INCIDENT_TXT, encoding="utf-8")
    (folder / "vendor.html").write_text(VENDOR_HTML, encoding="utf-8")
    (folder / "hosting.pdf").write_bytes(pdf_from_lines(PDF_PAGES))
    with (folder / "costs.csv").open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(COSTS_ROWS)
    return folder


def write_zh(folder: Path) -> Path:
    """The Chinese folder: Markdown, text and HTML."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "设计.md").write_text(DESIGN_ZH, encoding="utf-8")
    (folder / "事故.txt").write_text(INCIDENT_ZH, encoding="utf-8")
    (folder / "报价.html").write_text(VENDOR_ZH_HTML, encoding="utf-8")
    return folder
