"""Documents the sources tests read: written here, each a few lines."""

from __future__ import annotations

import io
from pathlib import Path

BILLING = """# Billing design

The billing service handles 4,200 invoices per second at peak.
Latency p99 is 180 ms.

Rust would cut memory use by 40% according to the prototype.
The team estimates six months of work.
"""

INCIDENT = """Incident report 2026-03: the Go billing worker leaked 2.1 GB of memory over 9 days.

The on-call team restarted it 14 times in March.
"""

MEETING_ZH = """会议纪要：迁移到Rust需要六个月，团队只有两名Rust工程师。

风险：账单错误率可能上升百分之五。
"""


def pdf_bytes(pages: list[str]) -> bytes:
    """A minimal PDF whose pages show ``pages`` (ASCII text, one line each), with a
    correct cross-reference table."""
    objects: list[bytes] = []
    kids = " ".join(f"{3 + 2 * n} 0 R" for n in range(len(pages)))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    font = 3 + 2 * len(pages)
    for n, text in enumerate(pages):
        content = 4 + 2 * n
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {content} 0 R"
            f" /Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        stream = f"BT /F1 12 Tf 72 712 Td ({text}) Tj ET".encode()
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (n, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def encrypted_pdf_bytes() -> bytes:
    """A PDF encrypted with a password."""
    import pypdf

    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(pdf_bytes(["secret 7"]))))
    writer.encrypt("password")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def write_docs(folder: Path) -> Path:
    """The billing design and the incident report in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "billing.md").write_text(BILLING, encoding="utf-8")
    (folder / "incident.txt").write_text(INCIDENT, encoding="utf-8")
    return folder
