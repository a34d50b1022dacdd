"""The audit's models: :class:`Finding` (one problem of one card), :class:`CardAudit`,
:class:`AuditReport`, the check names (:data:`CHECKS`) and severities."""
from __future__ import annotations

from typing import Any, Iterator, Literal

from pydantic import BaseModel, Field

Severity = Literal["high", "medium", "low"]
SEVERITIES: tuple[str, ...] = ("high", "medium", "low")
RANK = {s: i for i, s in enumerate(SEVERITIES)}

#: check name -> what it finds (the summary table and the HTML legend).
CHECKS: dict[str, str] = {
    "special-summon-flag-missing": "text says Cannot be Normal Summoned/Set; type lacks 0x2000000",
    "special-summon-flag-extra": "type has 0x2000000; text does not say Cannot be Normal Summoned/Set",
    "empty-text": "empty or whitespace-only text",
    "alias-conditions-differ": "an alternate artwork row states other conditions than its base row",
    "frame-text-conflict": "type bits and text disagree about the frame",
    "unreadable": "record that could not be read or analyzed",
    "no-datas-row": "texts row with no datas row",
}
TYPE_BIT_CHECKS = frozenset({"special-summon-flag-missing", "special-summon-flag-extra", "frame-text-conflict"})


class Finding(BaseModel):
    """One problem of one card.

    id / name: the card (``id`` may be ``None`` for an unreadable record).
    check: one of :data:`CHECKS`; severity: ``high`` / ``medium`` / ``low``.
    detail: what disagrees and why (names the bits in hex and the seed rule).
    span: ``[start, end)`` character offsets into the ORIGINAL card text of the phrase that proves
        the finding; ``None`` when the proof is an absence.  phrase: the text of that span.
    other_id / other_span / other_phrase: for ``alias-conditions-differ``, the base row and the
        phrase there.
    fix_set / fix_clear: type bits the fix sets / clears (0 when the finding is no type-bit
        problem); fix_applied: :func:`sql_patch` writes the fix as a statement (else a comment);
        fix_note: why a fix is only a comment.
    Only the first seven fields go to ``-o`` (:meth:`output`).
    """

    id: int | None
    name: str = ""
    check: str
    severity: Severity
    detail: str
    span: tuple[int, int] | None = None
    phrase: str | None = None
    other_id: int | None = None
    other_span: tuple[int, int] | None = None
    other_phrase: str | None = None
    fix_set: int = 0
    fix_clear: int = 0
    fix_applied: bool = False
    fix_note: str = ""

    def output(self) -> dict[str, Any]:
        """The ``-o`` object: ``{"id", "name", "check", "severity", "detail", "span", "phrase"}``."""
        return {"id": self.id, "name": self.name, "check": self.check, "severity": self.severity,
                "detail": self.detail, "span": list(self.span) if self.span else None, "phrase": self.phrase}


class CardAudit(BaseModel):
    """A card with at least one finding: its row (``type`` ``None`` when it has no ``datas``
    row), its ORIGINAL text and the findings."""

    id: int | None
    name: str = ""
    lang: str = ""
    text: str = ""
    type: int | None = None
    alias: int = 0
    findings: list[Finding] = Field(default_factory=list)


class AuditReport(BaseModel):
    """The audit of one database.

    path / lang: the input and the language of its texts; cards: records read (``texts`` rows
    and ``datas`` rows without text); monsters: cards with the monster bit; cards_with_findings:
    the cards with a finding (in passcode order); others: ``{id: (name, text)}`` of base rows an
    ``alias-conditions-differ`` finding points at (for the HTML report); seconds: wall time.
    """

    path: str
    lang: str | None = None
    cards: int = 0
    monsters: int = 0
    cards_with_findings: list[CardAudit] = Field(default_factory=list)
    others: dict[int, tuple[str, str]] = Field(default_factory=dict)
    seconds: float = 0.0

    def findings(self, min_severity: str = "low", checks: frozenset[str] | None = None) -> Iterator[Finding]:
        """Every finding at ``min_severity`` or above (of ``checks`` when given), card by card."""
        lim = RANK[min_severity]
        for c in self.cards_with_findings:
            for f in c.findings:
                if RANK[f.severity] <= lim and (checks is None or f.check in checks):
                    yield f

    def counts(self) -> dict[str, dict[str, int]]:
        """``{check: {severity: findings}}`` for every check of :data:`CHECKS`."""
        out = {k: {s: 0 for s in SEVERITIES} for k in CHECKS}
        for f in self.findings():
            out[f.check][f.severity] += 1
        return out


def iter_output(report: AuditReport, min_severity: str = "low",
                checks: frozenset[str] | None = None) -> Iterator[dict[str, Any]]:
    """The JSONL objects of ``audit -o``: one per finding (see :meth:`Finding.output`)."""
    for f in report.findings(min_severity, checks):
        yield f.output()
