"""The reference mode of ``validate``: every translation compared with the ORIGINAL text.

Every card is written first in Japanese (OCG); English and Chinese texts are translations of it
(issue 11 §3: "translators and database maintainers settle disputes by the Japanese text").
:func:`validate_reference` compares each translation with the reference text of the same card
(pairwise, with :func:`extractor.validate.check.check_card`, the same comparison as
:func:`extractor.validate.validate` with the reference as the source), then puts the differences
of the translations side by side, so that each difference says WHICH translation departs from
the reference:

- a difference that one translation has and the others do not (their conditions agree with the
  reference there): that translation departs (verdict ``one``);
- a difference that EVERY translation has the same way (the same condition missing, the same
  slot value, the same extra condition; the translations agree with each other when compared
  directly): verdict ``all-agree`` -- the reference text itself is the likely odd one out: a
  misreading of the reference text by the tool, or an errata of the original that the
  translations do not follow (or the reverse);
- every translation departs, in different ways: ``all-differ``; with three or more
  translations, more than one but not all: ``some``;
- card-level problems (a card missing on a side, an empty, truncated or unanalyzable text, a
  text in another language than asked) are findings of their own (verdict ``card``) naming the
  side (``side``: the language).

Two differences of two translations are "the same" when they have the same kind, condition
group, slot and -- for a difference about something the reference states -- the same reference
phrase (span).  Whether the departing translations agree with EACH OTHER is decided by comparing
them directly (translation against translation, the same meaning rules), not by their wording.

Only what both languages CAN state is compared: a difference in a condition kind or a slot that
the patterns of the reference language (or of that translation's language) never read -- no
pattern of that language yields the kind or sets the field (:func:`readable`) -- says nothing
about the translation (the text may well state it; it is not read), so it is not a finding; the
report counts such differences apart (:attr:`ReferenceReport.not_read`, per translation and slot).
With the reading of that language extended, they are compared again, with no change here.

Output (:meth:`ReferenceCard.output`, one JSON object per reported card, format
:data:`FORMAT`): ``{"format", "id", "name", "reference_lang", "translation_langs", "findings":
[Finding...]}``; each :class:`Finding` carries the reference reading and one reading per
translation (value, span, phrase, field, whether it states the condition, whether it departs).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..patterns import Catalog, load_catalog
from ..pipeline import Card
from .check import _resolver, check_card
from .inputs import Side, describe, read_side
from ..normalize.ja import plain_name
from .report import CARD_PROBLEM_KINDS, MISMATCH_KINDS, SEV_RANK, CardReport, Mark, Mismatch, Severity
# the report's models and its -o lines (re-exported: they were defined here before)
from .reference_report import (FORMAT, REFERENCE_CARD_KINDS, REFERENCE_KINDS, VERDICTS, Finding, Reading,
                               ReferenceCard, ReferenceReport, Verdict, iter_reference_output,
                               reference_line_schema)

__all__ = ["FORMAT", "REFERENCE_KINDS", "REFERENCE_CARD_KINDS", "VERDICTS", "Reading", "Finding", "ReferenceCard",
           "ReferenceReport", "validate_reference", "iter_reference_output", "reference_line_schema"]

_KIND = {"missing-in-target": "missing-in-translation", "extra-in-target": "extra-in-translation",
         "slot-differs": "slot-differs", "card-missing-in-source": "card-missing-in-reference",
         "card-missing-in-target": "card-missing-in-translation"}

#: the field of a built-in Special Summon (``builtin-special-summon``) each slot of its view is read
#: from (:func:`extractor.validate.views.canonical`)
SLOT_FIELDS: dict[str, str] = {"cost.action": "cost", "cost.count": "cost", "cost.from": "cost", "cost.filter": "cost",
                               "requirement": "requirement", "requirement.count": "requirement",
                               "requirement.filter": "requirement", "limit": "limit",
                               "to_opponent_field": "to_opponent_field", "position": "position",
                               "zone": "zone_restricted"}
#: condition kinds whose views make up a group (a group not listed is one kind of the same name)
GROUP_KINDS: dict[str, frozenset[str]] = {
    "materials": frozenset({"material-line"}),
    "special-summon-method": frozenset({"builtin-special-summon", "must-be-special-summoned", "special-summon-only-by",
                                        "must-first-be-summoned-by", "special-summons-itself"}),
}


def readable(catalog: Catalog, lang: str) -> dict[str, frozenset[str]]:
    """What the patterns of ``lang``'s family can state: condition kind -> the fields its patterns
    set (``yields`` and ``captures`` of every pattern yielding that kind).  A kind missing from the
    result is never read in that language."""
    from ..normalize import lang_family

    out: dict[str, set[str]] = {}
    for p in catalog.by_lang.get(lang_family(lang), []):
        k = p.yields.get("kind")
        if k:
            out.setdefault(k, set()).update(p.yields, p.captures)
    return {k: frozenset(v) for k, v in out.items()}


def _can_state(reads: dict[str, frozenset[str]], m: Mismatch) -> bool:
    """Whether a language that reads ``reads`` (:func:`readable`) can state what the difference
    ``m`` is about: a kind of its condition group, and for a built-in procedure's slot, that field."""
    if m.kind == "slot-differs" and m.slot in SLOT_FIELDS:
        return SLOT_FIELDS[m.slot] in reads.get("builtin-special-summon", frozenset())
    kinds = GROUP_KINDS.get(m.condition or "", frozenset({m.condition}))
    return any(k in reads for k in kinds)


def validate_reference(reference: str | Path | Iterable[Card], translations: Sequence[Any], *,
                       reference_lang: str | None = None, translation_langs: Sequence[str | None] = (),
                       reference_format: str | None = None, translation_format: str | None = None,
                       catalog: Catalog | None = None, include_missing: bool = True,
                       include_effects: bool = False, min_severity: Severity = "medium",
                       progress: Callable[[int, int], None] | None = None) -> ReferenceReport:
    """Compare every translation of every card with its reference (original) text.

    Input: ``reference``: a card input (a path :func:`extractor.readers.read_cards` reads, or an
    iterable of :class:`~extractor.pipeline.Card`); ``translations``: one input per translation,
    ``None`` for "the reference file itself" (one multilingual file such as yaml-yugi, read once
    per language); ``reference_lang`` / ``translation_langs`` (one per translation): ``ja``,
    ``en``, ``zh-CN``, ...; required for a multilingual file, else guessed from the texts.
    ``include_missing``: report cards absent from a side; ``include_effects``: also report
    effects found on one side only (as :func:`extractor.validate.validate`).  ``min_severity``:
    findings below it (condition differences and card problems alike) are left out; the
    comparison itself sees every severity, so a difference that one translation has at
    ``medium`` and another at ``low`` is still "both".  ``progress(done, total)`` after each
    passcode.

    Output: a :class:`ReferenceReport` (module docstring: verdicts, output format).

    Raises:
        ValueError: no translation, a language missing for a multilingual file, the same
            language twice, or an unsupported language.
        extractor.readers.InputError: an input file cannot be read at all.
    """
    from ..normalize import lang_family

    if not translations:
        raise ValueError("the reference mode needs at least one translation")
    langs = list(translation_langs) + [None] * (len(translations) - len(translation_langs))
    if len(langs) != len(translations):
        raise ValueError(f"{len(langs)} translation languages for {len(translations)} translations")
    for lg in [reference_lang, *langs]:
        if lg is not None:
            lang_family(lg)
    if any(t is None for t in translations) and (not reference_lang or any(
            lg is None for t, lg in zip(translations, langs) if t is None)):
        raise ValueError("one multilingual input file: give the reference language and every translation's language")
    cat = catalog or load_catalog()
    R = read_side(reference, reference_lang, reference_format)
    sides: list[Side] = [read_side(reference if t is None else t, lg,
                                   (translation_format or reference_format) if t is None else translation_format)
                         for t, lg in zip(translations, langs)]
    rlang = reference_lang or R.lang
    tlangs = [lg or s.lang for lg, s in zip(langs, sides)]
    if len(set(tlangs)) != len(tlangs) or rlang in tlangs:
        raise ValueError(f"the reference ({rlang}) and the translations ({', '.join(tlangs)}) must be different "
                         "languages")
    rep = ReferenceReport(reference=describe(reference), reference_lang=rlang,
                          translations=[describe(reference if t is None else t) for t in translations],
                          translation_langs=tlangs, cards_reference=len(R.cards),
                          compared={lg: 0 for lg in tlangs}, agreeing={lg: 0 for lg in tlangs},
                          not_read={lg: {} for lg in tlangs},
                          read_errors=[f"{rlang}: {e}" for e in R.errors]
                          + [f"{lg}: {e}" for lg, s in zip(tlangs, sides) for e in s.errors])
    ids: set[int] = set(R.cards) | set(R.missing)
    for s in sides:
        ids |= set(s.cards) | set(s.missing)
    order = sorted(ids)
    r_names = _resolver(R)
    t_names = [_resolver(s) for s in sides]
    cut = SEV_RANK[min_severity]
    reads = {lg: readable(cat, lg) for lg in [rlang, *tlangs]}
    for n, cid in enumerate(order, 1):
        card = _one_card(cid, R, sides, rlang, tlangs, cat, include_missing, include_effects, r_names, t_names, cut,
                         rep, reads)
        if progress is not None:
            progress(n, len(order))
        if card is not None:
            rep.cards.append(card)
    return rep


def _one_card(cid: int, R: Side, sides: list[Side], rlang: str, tlangs: list[str], cat: Catalog,
              include_missing: bool, include_effects: bool, r_names: Callable, t_names: list[Callable], cut: int,
              rep: ReferenceReport, reads: dict[str, dict[str, frozenset[str]]]) -> ReferenceCard | None:
    """The :class:`ReferenceCard` of one passcode (``None`` when nothing is reported); counts the
    compared / agreeing cards of each translation and the differences not read into ``rep``."""
    rc = R.cards.get(cid)
    reports: dict[str, CardReport] = {}
    tcards: dict[str, Card | None] = {}
    cache: dict = {}  # the reference text is read once, whatever the number of translations
    for lg, s, names in zip(tlangs, sides, t_names):
        tc = s.cards.get(cid)
        tcards[lg] = tc
        if rc is None and tc is None:
            continue
        cr = check_card(cid, rc, tc, R, s, cat, include_missing, include_effects, (r_names, names), cache)
        if cr is not None:
            kept = []
            for m in cr.mismatches:
                if m.kind in MISMATCH_KINDS and not (_can_state(reads[rlang], m) and _can_state(reads[lg], m)):
                    key = f"{m.condition}.{m.slot}" if m.slot else str(m.condition)
                    rep.not_read[lg][key] = rep.not_read[lg].get(key, 0) + 1
                else:
                    kept.append(m)
            cr.mismatches = kept
            reports[lg] = cr
    if not reports:
        return None
    compared = [lg for lg in tlangs if lg in reports and _was_compared(rc, tcards[lg], reports[lg])]
    findings = _card_problems(reports, rlang, cut)
    findings += _condition_findings(cid, reports, tcards, sides, tlangs, rlang, rc, cat, include_effects, cut, cache,
                                    compared)
    for lg in compared:
        rep.compared[lg] += 1
        if not any(lg in f.departs or (f.verdict == "card" and f.side in (lg, rlang)) for f in findings):
            rep.agreeing[lg] += 1
    if not findings:
        return None
    first = next(iter(reports.values()))
    name = (rc.name if rc else "") or R.missing.get(cid, ("", ""))[0] or first.target_name or first.name
    out = ReferenceCard(id=cid, name=plain_name(name))
    if rc is not None:
        out.names[rlang], out.texts[rlang], out.pendulum[rlang] = rc.name, rc.text, rc.pendulum_effect
    else:
        out.texts[rlang] = None
    ref_marks: dict[tuple, Mark] = {}
    for lg in tlangs:
        tc = tcards.get(lg)
        out.names[lg] = tc.name if tc else ""
        out.texts[lg] = tc.text if tc else None
        out.pendulum[lg] = tc.pendulum_effect if tc else None
        cr = reports.get(lg)
        if cr is not None:
            out.marks[lg] = cr.target_marks
            for m in cr.source_marks:
                key = (m.field, m.span, m.condition)
                if key not in ref_marks or ref_marks[key].status == "ok":
                    ref_marks[key] = m
    out.marks[rlang] = sorted(ref_marks.values(), key=lambda m: (m.field, m.span))
    order = {k: i for i, k in enumerate(REFERENCE_KINDS + REFERENCE_CARD_KINDS)}
    out.findings = sorted(findings, key=lambda f: (f.verdict == "card", SEV_RANK[f.severity], order.get(f.kind, 99)))
    return out


def _was_compared(rc: Card | None, tc: Card | None, cr: CardReport) -> bool:
    """Whether the texts of the reference card ``rc`` and the translation ``tc`` were compared
    (both present and not empty, each in the language asked, both analyzed)."""
    return (rc is not None and tc is not None and bool((rc.text or "").strip()) and bool((tc.text or "").strip())
            and not any(m.kind in ("language-mismatch", "analysis-failed", "empty-text") for m in cr.mismatches))


def _role_words(detail: str, rlang: str, lang: str) -> str:
    """A pairwise ``detail`` with "source" / "target" replaced by the two languages."""
    return re.sub(r"\btarget\b", lang, re.sub(r"\bsource\b", rlang, detail))


def _card_problems(reports: dict[str, CardReport], rlang: str, cut: int) -> list[Finding]:
    """The card-level problems of every pairwise report as findings (a problem of the reference
    text once, however many translations saw it)."""
    out: list[Finding] = []
    seen: set[tuple] = set()
    for lg, cr in reports.items():
        for m in cr.mismatches:
            if m.kind not in CARD_PROBLEM_KINDS or SEV_RANK[m.severity] > cut:
                continue
            side = rlang if m.side == "source" else lg
            kind = _KIND.get(m.kind, m.kind)
            detail = _role_words(m.detail, rlang, lg)
            key = (kind, side, detail)
            if key in seen:
                continue
            seen.add(key)
            out.append(Finding(kind=kind, severity=m.severity, verdict="card", side=side,
                               departs=[] if side == rlang else [lg], detail=detail))
    return out


def _key(m: Mismatch) -> tuple:
    """What makes two translations' differences "the same" difference (module docstring)."""
    if m.kind == "slot-differs":
        return (m.kind, m.condition, m.slot, m.source_in, m.source_span)
    if m.kind == "missing-in-target":
        return (m.kind, m.condition, m.source_in, m.source_span)
    return (m.kind, m.condition)


def _agreeing_reading(lg: str, m: Mismatch, cr: CardReport | None, text: str | None, pend: str | None) -> Reading:
    """The reading of translation ``lg`` that does NOT depart at the difference ``m`` (found in
    another translation): the condition of ``lg`` paired with the same reference phrase, if any."""
    r = Reading(lang=lg, role="translation")
    if cr is None or m.kind == "extra-in-target" or m.source_span is None:
        return r
    for mk in cr.target_marks:
        if mk.condition == m.condition and mk.partner == m.source_span and mk.partner_in == m.source_in:
            src = text if mk.field == "text" else pend
            r.states, r.span, r.field = True, mk.span, mk.field
            r.phrase = src[mk.span[0]:mk.span[1]] if src else None
            r.value = mk.values.get(m.slot) if m.slot else None
            break
    return r


def _translations_differ(a: Mismatch, b: Mismatch, cross: CardReport | None) -> bool:
    """Whether the departures ``a`` (translation A) and ``b`` (translation B) of one reference
    difference differ from each other, judged by the direct comparison ``cross`` (A as source,
    B as target): a difference there in the same condition group that touches A's or B's phrase
    (for ``slot-differs``: in the same slot).  Without a direct comparison (a side not analyzed),
    the slot values decide."""
    if cross is None:
        return a.target_value != b.target_value
    for m in cross.mismatches:
        if m.kind not in MISMATCH_KINDS or m.condition != a.condition:
            continue
        if a.kind == "slot-differs" and (m.kind != "slot-differs" or m.slot != a.slot):
            continue
        touches_a = a.target_span is not None and m.source_span == a.target_span
        touches_b = b.target_span is not None and m.target_span == b.target_span
        if touches_a or touches_b:
            return True
    return False


def _condition_findings(cid: int, reports: dict[str, CardReport], tcards: dict[str, Card | None], sides: list[Side],
                        tlangs: list[str], rlang: str, rc: Card | None, cat: Catalog, include_effects: bool,
                        cut: int, cache: dict | None = None, compared: list[str] | None = None) -> list[Finding]:
    """The condition differences of every translation, matched across translations; the verdicts
    count only the ``compared`` translations (default: all)."""
    compared = tlangs if compared is None else compared
    todo: dict[str, list[Mismatch]] = {lg: [m for m in cr.mismatches if m.kind in MISMATCH_KINDS]
                                       for lg, cr in reports.items()}
    crosses: dict[tuple[str, str], CardReport | None] = {}

    def cross(a: str, b: str) -> CardReport | None:
        if (a, b) not in crosses:
            ca, cb = tcards.get(a), tcards.get(b)
            sa, sb = sides[tlangs.index(a)], sides[tlangs.index(b)]
            crosses[(a, b)] = (check_card(cid, ca, cb, sa, sb, cat, False, include_effects, None, cache)
                               if ca is not None and cb is not None else None)
        return crosses[(a, b)]

    out: list[Finding] = []
    for lg in tlangs:
        for m in list(todo.get(lg, [])):
            if m not in todo[lg]:
                continue
            todo[lg].remove(m)
            group = {lg: m}
            for other in tlangs:
                if other == lg or other not in todo:
                    continue
                match = next((x for x in todo[other] if _key(x) == _key(m)), None)
                if match is not None:
                    todo[other].remove(match)
                    group[other] = match
            sev = min((x.severity for x in group.values()), key=lambda s: SEV_RANK[s])
            if SEV_RANK[sev] > cut:
                continue
            departs = [x for x in tlangs if x in group]
            if len(departs) == 1:
                verdict: Verdict = "one"
            elif len(departs) == len(compared):
                first = group[departs[0]]
                differ = any(_translations_differ(first, group[o], cross(departs[0], o)) for o in departs[1:])
                verdict = "all-differ" if differ else "all-agree"
            else:
                verdict = "some"
            f = _finding(m, group, verdict, departs, reports, tcards, tlangs, rlang, rc, compared)
            if m.kind == "slot-differs" and verdict in ("one", "some"):
                # the translations that agree with the reference here, compared directly with a departing one
                for r in f.translations:
                    if not r.departs and r.span is not None and not any(
                            _differs_directly(group[d], r.span, cross(d, r.lang)) for d in departs):
                        f.departing_agrees_with.append(r.lang)
                if f.departing_agrees_with:
                    f.detail += (f" ({', '.join(f.departing_agrees_with)} agree{'s' if len(f.departing_agrees_with) == 1 else ''}"
                                 f" with {', '.join(departs)} when compared directly: the difference may rest on a "
                                 f"detail that only one of the readings has)")
            out.append(f)
    return out


def _differs_directly(m: Mismatch, other_span: tuple[int, int], cross: CardReport | None) -> bool:
    """Whether the departing translation of ``m`` (its phrase: ``m.target_span``) and another
    translation (its phrase at ``other_span``, which agrees with the reference) differ when
    compared directly (``cross``: the departing one as the source): a mismatch there in the same
    condition group and slot that touches either phrase.  ``True`` without a direct comparison."""
    if cross is None:
        return True
    return any(x.kind == "slot-differs" and x.condition == m.condition and x.slot == m.slot
               and (x.source_span == m.target_span or x.target_span == other_span) for x in cross.mismatches)


def _finding(m: Mismatch, group: dict[str, Mismatch], verdict: Verdict, departs: list[str],
             reports: dict[str, CardReport], tcards: dict[str, Card | None], tlangs: list[str], rlang: str,
             rc: Card | None, compared: list[str] | None = None) -> Finding:
    """One :class:`Finding` from the matched differences ``group`` (language -> difference)."""
    kind = _KIND[m.kind]
    ref = Reading(lang=rlang, role="reference", states=m.kind != "extra-in-target",
                  value=m.source_value if m.kind == "slot-differs" else None,
                  span=m.source_span, phrase=m.source_phrase, field=m.source_in)
    readings = []
    for lg in tlangs:
        x = group.get(lg)
        if x is not None:
            readings.append(Reading(lang=lg, role="translation", departs=True, states=x.kind != "missing-in-target",
                                    value=x.target_value if x.kind == "slot-differs" else None,
                                    span=x.target_span, phrase=x.target_phrase, field=x.target_in))
        elif compared is not None and lg not in compared:
            readings.append(Reading(lang=lg, role="translation", compared=False))
        else:
            tc = tcards.get(lg)
            readings.append(_agreeing_reading(lg, m, reports.get(lg), tc.text if tc else None,
                                              tc.pendulum_effect if tc else None))
    sev = min((x.severity for x in group.values()), key=lambda s: SEV_RANK[s])
    absent = [r.lang for r in readings if not r.compared]
    who = {"one": f"{departs[0]} departs from {rlang}" + (f" ({', '.join(absent)} not compared)" if absent else ""),
           "all-agree": f"every translation departs from {rlang} the same way (likely a misreading of the {rlang} "
                        f"text or an errata)",
           "all-differ": f"every translation departs from {rlang}, each differently",
           "some": f"{', '.join(departs)} depart from {rlang}"}[verdict]
    details = "; ".join(f"{lg}: {_role_words(group[lg].detail, rlang, lg)}" for lg in departs)
    return Finding(kind=kind, condition=m.condition, slot=m.slot, severity=sev, verdict=verdict, departs=departs,
                   reference=ref, translations=readings, detail=f"{who}: {details}")
