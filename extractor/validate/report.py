"""The report of a validation run: what was found (pydantic models) and the ``validate -o`` output.

:class:`Mismatch` (one difference or card problem), :class:`Mark` (a condition phrase to
highlight), :class:`CardReport` (one card), :class:`ValidationReport` (the run);
:func:`iter_output` gives the JSONL objects of ``validate -o``.
"""
from __future__ import annotations

from typing import Any, Iterator, Literal

from pydantic import BaseModel, Field

__all__ = ["Severity", "Side", "Mismatch", "Mark", "CardReport", "ValidationReport", "iter_output",
           "MISMATCH_KINDS", "CARD_PROBLEM_KINDS", "ALL_KINDS", "CONDITION_MISMATCH_KINDS", "SEV_RANK"]

Severity = Literal["high", "medium", "low"]
Side = Literal["source", "target"]
Field_ = Literal["text", "pendulum_effect"]

MISMATCH_KINDS: tuple[str, ...] = ("missing-in-target", "extra-in-target", "slot-differs")
CARD_PROBLEM_KINDS: tuple[str, ...] = ("card-missing-in-source", "card-missing-in-target", "empty-text",
                                       "truncated-text", "analysis-failed", "language-mismatch")
ALL_KINDS: tuple[str, ...] = MISMATCH_KINDS + CARD_PROBLEM_KINDS
CONDITION_MISMATCH_KINDS = frozenset(MISMATCH_KINDS)
#: severity -> rank (0 is the worst)
SEV_RANK = {"high": 0, "medium": 1, "low": 2}


class Mismatch(BaseModel):
    """One difference between the two texts of a card.

    kind: one of :data:`MISMATCH_KINDS` (a condition) or :data:`CARD_PROBLEM_KINDS` (the card).
    slot: for ``slot-differs`` the slot that differs (``locations``, ``method``, ``first_only``,
        ``count``, ``set_allowed``, ``effect``); ``None`` otherwise.
    severity: ``high`` / ``medium`` / ``low`` (see the module docstring).
    condition: the canonical condition group (``cannot-normal-summon``, ``special-summon-method``,
        ...), ``None`` for a card-level problem.
    source_span / target_span: ``[start, end)`` character offsets into the ORIGINAL text of that
        side (the field named by ``source_in`` / ``target_in``); ``None`` when that side has
        nothing to point at.
    source_phrase / target_phrase: the original text of those spans.
    source_value / target_value: the slot values (``slot-differs``), else ``None``.
    source_in / target_in: ``text`` or ``pendulum_effect`` (which text the span indexes).
    side: for a card-level problem, the side it concerns.
    detail: a human-readable explanation.
    """

    kind: str
    slot: str | None = None
    severity: Severity
    condition: str | None = None
    source_span: tuple[int, int] | None = None
    target_span: tuple[int, int] | None = None
    source_phrase: str | None = None
    target_phrase: str | None = None
    source_value: Any = None
    target_value: Any = None
    source_in: Field_ | None = None
    target_in: Field_ | None = None
    side: Side | None = None
    detail: str = ""


class Mark(BaseModel):
    """A condition phrase to highlight: ``span`` into the original ``field`` of one side;
    ``status`` is ``ok`` (paired and equal) or the mismatch kind it takes part in.

    ``partner`` / ``partner_in``: the span (and field) of the condition of the OTHER side it was
    paired with, ``None`` when it was left unpaired; ``values``: its slot values (sets as sorted
    lists), so that a report can say what this side states where it agrees (the reference mode,
    :mod:`extractor.validate.reference`)."""

    span: tuple[int, int]
    field: Field_ = "text"
    condition: str
    status: str = "ok"
    partner: tuple[int, int] | None = None
    partner_in: Field_ | None = None
    values: dict[str, Any] = Field(default_factory=dict)


class CardReport(BaseModel):
    """The validation of one card (kept in the report only when it has a problem).

    id / name: passcode and the source name (the target name when the source is missing);
    mismatches: the problems found; source_text / target_text (and the Pendulum Effects when
    separate): the ORIGINAL texts (``None`` when that side is missing); source_marks /
    target_marks: every condition phrase found on each side.
    """

    id: int
    name: str = ""
    target_name: str = ""
    mismatches: list[Mismatch] = Field(default_factory=list)
    source_text: str | None = None
    target_text: str | None = None
    source_pendulum: str | None = None
    target_pendulum: str | None = None
    source_marks: list[Mark] = Field(default_factory=list)
    target_marks: list[Mark] = Field(default_factory=list)

    @property
    def kinds(self) -> list[str]:
        """Mismatch kinds of this card, in :data:`ALL_KINDS` order."""
        have = {m.kind for m in self.mismatches}
        return [k for k in ALL_KINDS if k in have]

    def output(self) -> dict[str, Any]:
        """The JSONL object of ``validate -o``: id, name, mismatches (no texts)."""
        return {"id": self.id, "name": self.name,
                "mismatches": [m.model_dump(mode="json", exclude_none=False) for m in self.mismatches]}


class ValidationReport(BaseModel):
    """The result of :func:`validate`.

    source / target: descriptions of the inputs; source_lang / target_lang.
    cards_source / cards_target: cards read with a passcode on each side.
    cards_compared: cards present with non-empty text on both sides (their conditions compared).
    cards_agreeing: compared cards with no problem at all.
    cards: every card with at least one problem (compared or not), by passcode.
    read_errors: reader errors that could not be tied to a passcode, each prefixed with its side
        (``source: line 2: not JSON (...)``).
    """

    source: str
    target: str
    source_lang: str
    target_lang: str
    cards_source: int = 0
    cards_target: int = 0
    cards_compared: int = 0
    cards_agreeing: int = 0
    cards: list[CardReport] = Field(default_factory=list)
    read_errors: list[str] = Field(default_factory=list)

    def mismatch_counts(self) -> dict[str, int]:
        """Number of mismatches per kind (every kind of :data:`ALL_KINDS` present)."""
        out = {k: 0 for k in ALL_KINDS}
        for c in self.cards:
            for m in c.mismatches:
                out[m.kind] = out.get(m.kind, 0) + 1
        return out

    def card_counts(self) -> dict[str, int]:
        """Number of cards with at least one mismatch of each kind."""
        out = {k: 0 for k in ALL_KINDS}
        for c in self.cards:
            for k in c.kinds:
                out[k] += 1
        return out

    def severity_counts(self, conditions_only: bool = False) -> dict[str, int]:
        """Mismatches per severity; ``conditions_only``: condition mismatches only (card-level
        problems left out)."""
        out = {"high": 0, "medium": 0, "low": 0}
        for c in self.cards:
            for m in c.mismatches:
                if not conditions_only or m.kind in MISMATCH_KINDS:
                    out[m.severity] += 1
        return out

    @property
    def cards_mismatching(self) -> int:
        """Compared cards with at least one condition mismatch (card-level problems aside)."""
        return sum(1 for c in self.cards if any(m.kind in MISMATCH_KINDS for m in c.mismatches))


def iter_output(report: ValidationReport) -> Iterator[dict[str, Any]]:
    """The JSONL objects of ``validate -o`` (one per card with a problem, report order)."""
    for c in report.cards:
        yield c.output()
