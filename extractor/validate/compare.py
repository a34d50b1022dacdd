"""Comparing the conditions of two texts of one card (:func:`compare_conditions`).

Steps: every condition becomes a canonical view (:func:`extractor.validate.views.canonical`),
read further by the ``view`` rules; views that are the same words read twice are dropped
(``drop`` rules); each side is read against the other (``cross`` rules, run both ways on the
original views, so the result does not depend on the order); then, group by group, the views
are paired (:mod:`extractor.validate.pairing`): a pair that differs in a slot gives one
``slot-differs`` per slot (severity from :mod:`extractor.validate.severity`), a view left on one
side is ``missing-in-target`` / ``extra-in-target`` unless a ``silent`` rule keeps it out, and
is ``low`` when an ``implied`` rule explains it or the other side has unread wording about it (a
cue, :mod:`extractor.cues`).  Inputs are never changed.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from ..frame import Frame
from .pairing import differing, pair
from .report import Mark, Mismatch
from .rules import rules_for
from .severity import presence_severity, slot_severity
from .views import Resolve, View, canonical

__all__ = ["compare_conditions", "views_of"]

Unread = Callable[[str, str], "tuple[int, int, str] | None"]


def _value(v: Any) -> Any:
    return sorted(v) if isinstance(v, frozenset) else v


def views_of(conds: Iterable[Any], frame: Frame | None, skip: Iterable[str] = (),
             resolve: Resolve | None = None) -> list[View]:
    """The views of one side's conditions after the ``view`` and ``drop`` rules (``resolve``: that
    side's card name -> passcode, for named materials)."""
    skip = frozenset(skip)
    view_rules, drop_rules = rules_for("view", skip), rules_for("drop", skip)
    views = []
    for c in conds:
        v = canonical(c, frame, resolve)
        for r in view_rules:
            v = r.fn(v, frame) or v
        views.append(v)
    return [v for v in views if not any(r.fn(v, views) for r in drop_rules)]


def compare_conditions(src: list[Any], tgt: list[Any], frame: Frame | None = None, *,
                       source_truncated: bool = False, target_truncated: bool = False,
                       include_effects: bool = False, unread: Unread | None = None,
                       skip_rules: Iterable[str] = (), source_names: Resolve | None = None,
                       target_names: Resolve | None = None) -> tuple[list[Mismatch], list[Mark], list[Mark]]:
    """Compare two lists of condition objects (one card, two texts).

    Returns ``(mismatches, source_marks, target_marks)``; mismatches in text order, spans into
    the original texts.  ``source_truncated`` / ``target_truncated``: that text is cut off, so
    what the OTHER side has alone is not reported.  ``include_effects``: also report an effect
    (self-Summon, additional Normal Summon) found on one side only (severity low).
    ``unread(side, group)``: where that side has wording about ``group`` that was not read
    (:func:`extractor.cues.unread_cue`), as ``(start, end, phrase)`` in its original text, or
    ``None``; a condition found on the OTHER side only is then ``low`` and points at that wording.
    ``skip_rules``: names of rules (:data:`extractor.validate.rules.RULES`) to leave out (tests).
    ``source_names`` / ``target_names``: card name -> passcode in that side's input (``None``: not
    found), so named materials are compared by passcode (issue 10 §2 / §9).
    The inputs are not changed.
    """
    skip = frozenset(skip_rules)
    sv0, tv0 = views_of(src, frame, skip, source_names), views_of(tgt, frame, skip, target_names)
    drop: set[int] = set()
    read: dict[int, View] = {}
    for r in rules_for("cross", skip):
        for side, other in ((sv0, tv0), (tv0, sv0)):
            found = r.fn(side, other)
            drop |= found.drop
            read.update(found.read)
    sv = [read.get(id(v), v) for v in sv0]
    tv = [read.get(id(v), v) for v in tv0]
    compared_s = [v for v0, v in zip(sv0, sv) if id(v0) not in drop]
    compared_t = [v for v0, v in zip(tv0, tv) if id(v0) not in drop]

    groups: list[str] = []
    for v in sv + tv:
        if v.group not in groups:
            groups.append(v.group)
    out: list[Mismatch] = []
    status: dict[int, str] = {}

    def mark_status(v: View, st: str) -> None:
        if status.get(id(v), "ok") == "ok":
            status[id(v)] = st

    implied_rules, silent_rules = rules_for("implied", skip), rules_for("silent", skip)
    paired: list[tuple[View, View]] = []
    for g in groups:
        pairs, only_s, only_t = pair([v for v in compared_s if v.group == g],
                                     [v for v in compared_t if v.group == g], skip)
        paired.extend(pairs)
        for a, b in pairs:
            for slot in differing(a, b, skip):
                x, y = _value(a.slots[slot]), _value(b.slots[slot])
                out.append(Mismatch(kind="slot-differs", slot=slot, severity=slot_severity(slot, a, b, skip),
                                    condition=g, source_span=a.span, target_span=b.span,
                                    source_phrase=a.where.phrase, target_phrase=b.where.phrase,
                                    source_value=x, target_value=y, source_in=a.field, target_in=b.field,
                                    detail=f"{g}: {slot} source {x} vs target {y}"))
                mark_status(a, "slot-differs")
                mark_status(b, "slot-differs")
        for side, only, other_truncated in (("source", only_s, target_truncated), ("target", only_t, source_truncated)):
            kind = "missing-in-target" if side == "source" else "extra-in-target"
            others = tv if side == "source" else sv
            other_side = "target" if side == "source" else "source"
            ctx = {"include_effects": include_effects, "other_truncated": other_truncated, "frame": frame}
            for v in only:
                if any(r.fn(v, ctx) for r in silent_rules):
                    continue
                why = next((w for r in implied_rules if (w := r.fn(v, others, frame))), None)
                cue = None if why or unread is None else unread(other_side, g)
                extra: dict[str, Any] = {}
                detail = f"{g} stated in the {side} only"
                if why:
                    detail += f" (implied: {why})"
                elif cue:
                    extra = {f"{other_side}_span": (cue[0], cue[1]), f"{other_side}_phrase": cue[2],
                             f"{other_side}_in": "text"}
                    detail += f" (uncertain: the {other_side} has wording about it that was not read)"
                out.append(Mismatch(kind=kind, severity="low" if (why or cue) else presence_severity(v), condition=g,
                                    detail=detail,
                                    **{f"{side}_span": v.span, f"{side}_phrase": v.where.phrase, f"{side}_in": v.field},
                                    **extra))
                mark_status(v, kind)
    out.sort(key=lambda m: ((m.source_in or "", m.source_span or (10**9, 0)),
                            (m.target_in or "", m.target_span or (10**9, 0))))
    partner: dict[int, View] = {}
    for a, b in paired:
        partner[id(a)], partner[id(b)] = b, a

    def mark(v: View) -> Mark:
        p = partner.get(id(v))
        return Mark(span=v.span, field=v.field, condition=v.group, status=status.get(id(v), "ok"),
                    partner=p.span if p is not None else None, partner_in=p.field if p is not None else None,
                    values={k: _value(x) for k, x in v.slots.items()})
    smarks, tmarks = ([mark(v) for v in vs] for vs in (sv, tv))
    return out, smarks, tmarks
