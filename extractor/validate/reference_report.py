"""The report of the reference mode of ``validate`` (:mod:`extractor.validate.reference`): what one
card's texts say about a finding (:class:`Reading`), the findings (:class:`Finding`), the cards
(:class:`ReferenceCard`), the whole report with its counts (:class:`ReferenceReport`), and its
``-o`` lines (:func:`iter_reference_output`, format :data:`FORMAT`, schema
:func:`reference_line_schema`).  Models and output only: the comparison is in ``reference.py``."""
from __future__ import annotations

from typing import Any, Iterator, Literal, Sequence

from pydantic import BaseModel, Field

from .report import Mark, Severity

__all__ = ["FORMAT", "REFERENCE_KINDS", "REFERENCE_CARD_KINDS", "VERDICTS", "Verdict", "Reading", "Finding",
           "ReferenceCard", "ReferenceReport", "iter_reference_output", "reference_line_schema"]


#: the name and version of the ``-o`` line format of the reference mode (in every line)
FORMAT = "validate-reference/1"
#: condition differences, seen from the reference: the translation lacks a condition the reference
#: states, states one the reference does not, or states it with another value in one slot
REFERENCE_KINDS: tuple[str, ...] = ("missing-in-translation", "extra-in-translation", "slot-differs")
#: card-level problems in the reference mode (``side`` names the language)
REFERENCE_CARD_KINDS: tuple[str, ...] = ("card-missing-in-reference", "card-missing-in-translation", "empty-text",
                                         "truncated-text", "analysis-failed", "language-mismatch")
VERDICTS: tuple[str, ...] = ("one", "all-agree", "all-differ", "some", "card")
Verdict = Literal["one", "all-agree", "all-differ", "some", "card"]
Field_ = Literal["text", "pendulum_effect"]


class Reading(BaseModel):
    """What one text of the card says about a finding.

    lang: the language of the text; role: ``reference`` or ``translation``.
    compared: false for a translation that was not compared with the reference for this card (no
        text in that language, an empty text, a text in another language, or one that could not
        be analyzed: its card problem, if reported, is a finding of its own); it then neither
        states nor departs.
    states: the text states the condition (a phrase was read for it).
    departs: this translation departs from the reference here (always false for the reference).
    value: the slot value (``slot-differs``; sets as sorted lists), ``None`` otherwise or when
        the text does not state it.
    span: ``[start, end)`` character offsets into the ORIGINAL text named by ``field`` (``text``
        or ``pendulum_effect``); ``None`` when there is nothing to point at.  A text that does not
        state the condition may still point at wording about it that was not read (``detail``
        of the finding says so).
    phrase: the original text of ``span``.
    """

    lang: str
    role: Literal["reference", "translation"]
    compared: bool = True
    states: bool = False
    departs: bool = False
    value: Any = None
    span: tuple[int, int] | None = None
    phrase: str | None = None
    field: Field_ | None = None


class Finding(BaseModel):
    """One difference of a card between its reference text and its translations, or one card
    problem.

    kind: one of :data:`REFERENCE_KINDS` or :data:`REFERENCE_CARD_KINDS`.
    condition: the canonical condition group (``special-summon-method``, ...), ``None`` for a
        card problem; slot: the slot that differs (``slot-differs``), else ``None``.
    severity: the worst severity among the departing translations' differences.
    verdict: one of :data:`VERDICTS` (module docstring).
    departs: the languages of the translations that depart (text order of the inputs); empty for
        a problem of the reference text.
    side: for a card problem, the language of the text it concerns.
    departing_agrees_with: for a slot difference that not every translation has (``one``,
        ``some``), the translations that agree with the reference there AND, compared directly,
        with the departing one: agreement is not transitive (a reading with less detail agrees
        with two readings that conflict), so such a difference may rest on a detail only one of
        the readings has -- worth reading before blaming the translation.
    reference / translations: the reading of each text (:class:`Reading`), translations in the
        order of the inputs; empty for a card problem.
    detail: a human-readable explanation.
    """

    kind: str
    condition: str | None = None
    slot: str | None = None
    severity: Severity
    verdict: Verdict
    departs: list[str] = Field(default_factory=list)
    side: str | None = None
    departing_agrees_with: list[str] = Field(default_factory=list)
    reference: Reading | None = None
    translations: list[Reading] = Field(default_factory=list)
    detail: str = ""


class ReferenceCard(BaseModel):
    """The reference validation of one card (kept only when it has a finding).

    id: passcode; name: the reference text's card name (another side's when it has none), without
    ruby markup (``<ruby>竜騎士<rt>りゅうきし</rt></ruby>`` -> ``竜騎士``);
    names / texts / pendulum: per language (``None`` when that side has no card); marks: per
    language, every condition phrase read (:class:`~extractor.validate.report.Mark`, spans into
    the original texts); findings: what was found.
    """

    id: int
    name: str = ""
    names: dict[str, str] = Field(default_factory=dict)
    texts: dict[str, str | None] = Field(default_factory=dict)
    pendulum: dict[str, str | None] = Field(default_factory=dict)
    marks: dict[str, list[Mark]] = Field(default_factory=dict)
    findings: list[Finding] = Field(default_factory=list)

    def output(self, reference_lang: str, translation_langs: Sequence[str]) -> dict[str, Any]:
        """The JSON object of ``validate --reference -o`` for this card (no texts)."""
        return {"format": FORMAT, "id": self.id, "name": self.name, "reference_lang": reference_lang,
                "translation_langs": list(translation_langs),
                "findings": [f.model_dump(mode="json") for f in self.findings]}


class ReferenceReport(BaseModel):
    """The result of :func:`validate_reference`.

    reference / reference_lang: the reference input (description) and its language;
    translations / translation_langs: the translation inputs (descriptions) and their languages,
    in order.  cards_reference: cards with a passcode in the reference.  compared / agreeing:
    per translation language, the cards whose two texts were compared (both present, not empty,
    in the language asked) and those of them with no finding involving that translation.
    cards: every card with a finding, by passcode.  not_read: per translation language, the
    differences left out because one of the two languages never reads that kind or slot
    (:func:`extractor.validate.reference.readable`), per ``group`` or ``group.slot``.  read_errors:
    reader errors not tied to a passcode, each prefixed with its side's language.
    """

    reference: str
    reference_lang: str
    translations: list[str]
    translation_langs: list[str]
    cards_reference: int = 0
    compared: dict[str, int] = Field(default_factory=dict)
    agreeing: dict[str, int] = Field(default_factory=dict)
    cards: list[ReferenceCard] = Field(default_factory=list)
    read_errors: list[str] = Field(default_factory=list)
    not_read: dict[str, dict[str, int]] = Field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """Counts: ``translations``: per language ``{"compared", "agreeing", "departs_alone"
        (cards where it is the only translation that departs), "departs_with_others" (cards where
        it departs together with another), "findings_alone" (per kind), "card_problems"}``;
        ``verdicts``: cards with a condition finding of each verdict; ``reference_problems``:
        cards with a problem of the reference text; ``not_read``: as the attribute."""
        per: dict[str, dict[str, Any]] = {
            lg: {"compared": self.compared.get(lg, 0), "agreeing": self.agreeing.get(lg, 0), "departs_alone": 0,
                 "departs_with_others": 0, "findings_alone": {k: 0 for k in REFERENCE_KINDS}, "card_problems": 0}
            for lg in self.translation_langs}
        verdicts = {v: 0 for v in VERDICTS if v != "card"}
        ref_problems = 0
        for c in self.cards:
            alone: set[str] = set()
            together: set[str] = set()
            seen_verdicts: set[str] = set()
            problems: set[str] = set()
            for f in c.findings:
                if f.verdict == "card":
                    problems.add(f.side or "")
                    continue
                seen_verdicts.add(f.verdict)
                if f.verdict == "one":
                    alone.update(f.departs)
                    for lg in f.departs:
                        per[lg]["findings_alone"][f.kind] += 1
                else:
                    together.update(f.departs)
            for lg in alone:
                per[lg]["departs_alone"] += 1
            for lg in together:
                per[lg]["departs_with_others"] += 1
            for v in seen_verdicts:
                verdicts[v] += 1
            for side in problems:
                if side in per:
                    per[side]["card_problems"] += 1
                else:
                    ref_problems += 1
        return {"translations": per, "verdicts": verdicts, "reference_problems": ref_problems,
                "not_read": self.not_read}


def iter_reference_output(report: ReferenceReport) -> Iterator[dict[str, Any]]:
    """The JSONL objects of ``validate --reference -o`` (one per card with a finding, by passcode)."""
    for c in report.cards:
        yield c.output(report.reference_lang, report.translation_langs)


def reference_line_schema() -> dict[str, Any]:
    """The JSON Schema of one ``-o`` line of the reference mode (its findings described item by
    item, from :class:`Finding` and :class:`Reading`)."""
    class Line(BaseModel):
        format: Literal["validate-reference/1"]
        id: int
        name: str
        reference_lang: str
        translation_langs: list[str]
        findings: list[Finding]
    Line.__doc__ = ("One card with a finding, output of `ygo-extractor validate --reference`.  format: "
                    f"{FORMAT!r} (the line format and its version).")
    return Line.model_json_schema()
