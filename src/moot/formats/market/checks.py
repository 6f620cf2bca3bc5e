"""The market format's evidence check: every number a reply cites, checked by code
against the speaker's slice of the knowledge base (``moot.formats.market.data.verify_numbers``),
and where an unsupported one sits in the whole knowledge base if anywhere.

A reply's fields are checked together (so a number derived from two others the same
reply cites is recognised) and each finding is traced back to its field. A challenge
or closing may repeat an opponent's number in order to dispute it: a number that the
texts it answers cite is ``quoted``, not the speaker's own claim, and is not flagged;
so is a number the KB does not hold that a document passage the reply cites, and
that checks out, holds (``--sources``, ``moot.formats.market.sources``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from moot.formats.market.data.evidence import EvidenceReport, NumberCheck, verify_numbers
from moot.formats.market.data.kb import KnowledgeBase
from moot.formats.market.payload import (
    FLAGGED_STATUSES,
    CheckStatus,
    MarketEvidenceCheck,
    MarketNumberRecord,
)

_SEPARATOR = "\n"


@dataclass(frozen=True)
class Checked:
    """A reply's check: the record the payload keeps, and the report of the numbers
    that are the speaker's own (what the unsupported-number rule reads)."""

    record: MarketEvidenceCheck
    report: EvidenceReport


def _shown(value: float | str | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, float):
        return f"{value:g}" if abs(value) < 1e15 else f"{value:.6g}"
    return str(value)


def _key(check: NumberCheck) -> tuple[str, str]:
    return check.kind, _shown(check.value) or ""


def check_fields(
    fields: Sequence[tuple[str, str]],
    kb_slice: KnowledgeBase,
    whole: KnowledgeBase | None = None,
    *,
    answers: Sequence[str] = (),
    documents: Sequence[str] = (),
) -> Checked:
    """Check the numbers the ``(field name, text)`` pairs cite against ``kb_slice``.
    ``whole`` (the whole KB) says where an unsupported number sits outside the slice;
    ``answers`` are the texts being answered, whose numbers count as quoted;
    ``documents`` the passages the reply cites and that check out (``--sources``): a
    number the KB does not hold (``unsupported``, not one bound to another entity or
    period) that one of them holds is quoted from it."""
    text = ""
    starts: list[tuple[int, str]] = []
    for name, value in fields:
        if text:
            text += _SEPARATOR
        starts.append((len(text), name))
        text += value
    report = verify_numbers(text, kb_slice)
    elsewhere: dict[tuple[int, int], str] = {}
    if whole is not None and report.unsupported:
        for check in verify_numbers(text, whole).checks:
            if check.status != "unsupported" and check.field is not None:
                elsewhere[(check.start, check.end)] = check.field
    quoted: set[tuple[str, str]] = set()
    if answers and report.unsupported:
        for answered in answers:
            quoted.update(_key(c) for c in verify_numbers(answered, kb_slice).checks)
    records: list[MarketNumberRecord] = []
    own: list[NumberCheck] = []
    for check in report.checks:
        where = next(name for start, name in reversed(starts) if start <= check.start)
        status: CheckStatus = check.status
        repeated = status in FLAGGED_STATUSES and _key(check) in quoted
        if repeated or (status == "unsupported" and _in_documents(check.text, documents)):
            status = "quoted"
        else:
            own.append(check)
        records.append(
            MarketNumberRecord(
                where=where,
                text=check.text,
                kind=check.kind,
                value=_shown(check.value) or "",
                status=status,
                field=check.field,
                kb_value=_shown(check.kb_value),
                note=check.note,
                elsewhere=elsewhere.get((check.start, check.end))
                if status == "unsupported"
                else None,
            )
        )
    unsupported = sum(r.status in FLAGGED_STATUSES for r in records)
    return Checked(
        MarketEvidenceCheck(checked=len(records), unsupported=unsupported, numbers=records),
        EvidenceReport(tuple(own)),
    )


def _in_documents(number: str, documents: Sequence[str]) -> bool:
    """Whether a passage of ``documents`` holds ``number`` (the citation verifier's
    rules: rounding, percent and fraction forms, scale words)."""
    from moot.sources.verify import unsupported_numbers

    return any(not unsupported_numbers(text, number) for text in documents)


def unsupported_texts(checked: MarketEvidenceCheck, where: str | None = None) -> list[str]:
    """The cited texts flagged (unsupported, wrong entity or wrong period; in field
    ``where`` only, if given)."""
    return [
        n.text
        for n in checked.numbers
        if n.status in FLAGGED_STATUSES and (where is None or n.where == where)
    ]
