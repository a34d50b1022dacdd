"""The checks of one card (type bits against its analyzed text) and of one artwork row against
its base row.  Each returns :class:`~extractor.audit.report.Finding` s."""
from __future__ import annotations

from typing import Any

from ..frame import (TYPE_FUSION, TYPE_GEMINI, TYPE_LINK, TYPE_MONSTER, TYPE_NORMAL, TYPE_PENDULUM, TYPE_SPSUMMON,
                     TYPE_SYNCHRO, TYPE_TOKEN, TYPE_XYZ)
from .cues import find_cue, material_line
from .report import Finding

TYPE_TOON = 0x400000
EXTRA_DECK_BITS = TYPE_FUSION | TYPE_SYNCHRO | TYPE_XYZ | TYPE_LINK


def hex_type(t: int) -> str:
    """``datas.type`` as the details and the SQL comments print it (``0x2000021``)."""
    return f"0x{t:x}"


_IMPLIES_SSM = ("must-be-special-summoned", "builtin-special-summon", "special-summon-only-by",
                "must-first-be-summoned-by")


def flag_checks(card: Any, t: int, res: Any, mt: Any, fam: str) -> list[Finding]:
    """``special-summon-flag-missing`` / ``-extra`` of one card.

    Input: the :class:`~extractor.pipeline.Card` (its frame from the same type bits), ``t`` its
    ``datas.type``, ``res`` its :class:`~extractor.pipeline.CardResult`, ``mt`` its normalized text
    (``None`` for a language without cues), ``fam`` the language family.  Output: 0 or 1 finding.
    The rule: seed 000, "Cannot be Normal Summoned or Set. ... included on all Special
    Summon-only cards" (the profile's ``special_summon_monster``: Main Deck, non-Ritual); the
    severities of ``-extra`` are in :mod:`extractor.audit`.
    """
    from ..cues import unread_cue

    out: list[Finding] = []
    has = bool(t & TYPE_SPSUMMON)
    base = {"id": card.id, "name": card.name}
    if not t & TYPE_MONSTER:
        if has:
            out.append(Finding(**base, check="special-summon-flag-extra", severity="high", fix_clear=TYPE_SPSUMMON,
                               fix_applied=True,
                               detail=f"datas.type {hex_type(t)} is not a monster but has the Special Summon monster bit "
                                      f"0x2000000 (seed 000: the class is one of monsters)"))
        return out
    ss = res.profile.special_summon if res.profile else None
    ssm = bool(ss and ss.special_summon_monster)
    conds = res.conditions
    if ssm and not has:
        c = next(c for c in conds if c.kind == "cannot-normal-summon" and not c.set_allowed)
        out.append(Finding(**base, check="special-summon-flag-missing", severity="high", span=c.span, phrase=c.phrase,
                           fix_set=TYPE_SPSUMMON, fix_applied=True,
                           detail=f"the text says it cannot be Normal Summoned or Set: a Main Deck, non-Ritual monster "
                                  f"with that condition is a Special Summon Monster (seed 000: \"included on all "
                                  f"Special Summon-only cards\"), but datas.type {hex_type(t)} lacks the bit 0x2000000"))
        return out
    if not has or ssm:
        return out
    fix = {"fix_clear": TYPE_SPSUMMON}
    kind = card.frame.kind
    if kind != "main_monster":
        out.append(Finding(**base, check="special-summon-flag-extra", severity="low", **fix,
                           fix_note="a Ritual / Extra Deck monster: the bit is redundant, not wrong",
                           detail=f"a {kind} monster with the Special Summon monster bit 0x2000000 (datas.type "
                                  f"{hex_type(t)}): the Special Summon Monster class is Main Deck, non-Ritual only "
                                  f"(seed 000); its frame already forbids the Normal Summon, so the bit is redundant"))
        return out
    if any(w.startswith("no ") and "patterns" in w for w in res.warnings):
        out.append(Finding(**base, check="special-summon-flag-extra", severity="low", **fix,
                           fix_note="the text could not be read",
                           detail=f"datas.type {hex_type(t)} has the Special Summon monster bit 0x2000000; the tool has no "
                                  f"patterns for {card.lang} and could not read whether the text says so"))
        return out
    cns = [c for c in conds if c.kind == "cannot-normal-summon"]
    if cns:
        c = cns[0]
        out.append(Finding(**base, check="special-summon-flag-extra", severity="medium", span=c.span, phrase=c.phrase,
                           **fix, fix_note="the text forbids the Normal Summon: which of text and bit is wrong needs a reader",
                           detail=f"the text forbids the Normal Summon but allows a Set (seed 000: \"a monster can still "
                                  f"be Set face-down with this limitation\"): not a Special Summon Monster, yet "
                                  f"datas.type {hex_type(t)} has the bit 0x2000000, which forbids the Set too"))
        return out
    spans = [c.span for c in conds if c.source == "text"]
    unread = unread_cue(mt, card.lang, "cannot-normal-summon", spans) if mt is not None else None
    if unread:
        out.append(Finding(**base, check="special-summon-flag-extra", severity="low", span=unread,
                           phrase=card.text[unread[0]:unread[1]], **fix, fix_note="wording the tool does not read",
                           detail=f"datas.type {hex_type(t)} has the Special Summon monster bit 0x2000000; the tool read no "
                                  f"\"Cannot be Normal Summoned/Set\", but the text has wording about it that the "
                                  f"pattern catalog does not read: probably no problem"))
        return out
    whilec = next((c for c in conds if c.kind == "summon-condition-while" and c.source == "text"), None)
    if whilec is not None:
        out.append(Finding(**base, check="special-summon-flag-extra", severity="medium", span=whilec.span,
                           phrase=whilec.phrase, **fix, fix_note="a conditional Summon restriction: a reader decides",
                           detail=f"datas.type {hex_type(t)} has the Special Summon monster bit 0x2000000; the text "
                                  f"restricts its Summon only while a condition holds (a Guardian-style condition, "
                                  f"seed 000), which does not make it a Special Summon Monster: the bit forbids a "
                                  f"Normal Summon the text allows, or the text is incomplete"))
        return out
    # a Summoning Condition about its Special Summon read by the catalog, or restrictive wording it does
    # not read (the ``special-summon-only`` cue; validate's looser cue also matches activated effects
    # that Special Summon the card, which prove nothing here)
    implied = [c for c in conds if c.kind in _IMPLIES_SSM and c.source == "text"]
    only = None if implied or mt is None else find_cue(mt, fam, "special-summon-only")
    if implied or only:
        span = implied[0].span if implied else only
        out.append(Finding(**base, check="special-summon-flag-extra", severity="medium", span=span,
                           phrase=card.text[span[0]:span[1]], **fix,
                           fix_note="the text may be the incomplete one: read it",
                           detail=f"datas.type {hex_type(t)} has the Special Summon monster bit 0x2000000 and the text gives "
                                  f"a way to Special Summon it, but not \"Cannot be Normal Summoned/Set\": older and "
                                  f"translated texts leave that sentence out (the bit is then right), or the bit is "
                                  f"wrong (a built-in Special Summon alone does not stop a Normal Summon)"))
        return out
    out.append(Finding(**base, check="special-summon-flag-extra", severity="high", **fix, fix_applied=True,
                       detail=f"datas.type {hex_type(t)} has the Special Summon monster bit 0x2000000, but the text states no "
                              f"condition that keeps it from being Normal Summoned or Set (engines that read the bit "
                              f"forbid its Normal Summon)"))
    return out


def frame_checks(card: Any, t: int, res: Any, mt: Any, fam: str) -> list[Finding]:
    """``frame-text-conflict`` findings of one card (inputs as :func:`flag_checks`): the Gemini
    reminder (the catalog's ``gemini`` condition) without 0x800, the Toon reminder without
    0x400000, a Pendulum block without 0x1000000, a material line without an Extra Deck bit (the
    cues of ``patterns/cues/audit-<lang>.yaml``).  Gemini and Toon fixes are applied by the SQL
    patch for monsters; the Pendulum Scales and the Extra Deck kind are not in the text."""
    out: list[Finding] = []
    base = {"id": card.id, "name": card.name, "check": "frame-text-conflict"}
    monster = bool(t & TYPE_MONSTER)
    what = "" if monster else " (and datas.type is not even a monster)"
    gem = next((c for c in res.conditions if c.kind == "gemini" and c.source == "text"), None)
    if gem and not t & TYPE_GEMINI:
        out.append(Finding(**base, severity="high", span=gem.span, phrase=gem.phrase, fix_set=TYPE_GEMINI,
                           fix_applied=monster,
                           detail=f"the text has the Gemini reminder, but datas.type {hex_type(t)} lacks the Gemini bit "
                                  f"0x800{what}"))
    if mt is None:
        return out
    toon = find_cue(mt, fam, "toon-reminder")
    if toon and not t & TYPE_TOON:
        out.append(Finding(**base, severity="high", span=toon, phrase=card.text[toon[0]:toon[1]], fix_set=TYPE_TOON,
                           fix_applied=monster,
                           detail=f"the text has the Toon reminder, but datas.type {hex_type(t)} lacks the Toon bit "
                                  f"0x400000{what}"))
    pend = find_cue(mt, fam, "pendulum-block")
    if pend and not t & TYPE_PENDULUM:
        out.append(Finding(**base, severity="high", span=pend, phrase=card.text[pend[0]:pend[1]], fix_set=TYPE_PENDULUM,
                           fix_note="the Pendulum Scales (datas.level bytes 2 and 3) must be set too",
                           detail=f"the text has a Pendulum Effect block, but datas.type {hex_type(t)} lacks the Pendulum "
                                  f"bit 0x1000000{what}"))
    mat = material_line(mt, fam)
    if mat and not t & EXTRA_DECK_BITS:
        out.append(Finding(**base, severity="high", span=mat, phrase=card.text[mat[0]:mat[1]],
                           fix_note="which Extra Deck bit (Fusion 0x40, Synchro 0x2000, Xyz 0x800000, Link 0x4000000) "
                                    "needs a reader",
                           detail=f"the text starts with a material line, which only Extra Deck monsters print, but "
                                  f"datas.type {hex_type(t)} has no Fusion / Synchro / Xyz / Link bit{what}"))
    return out


def empty_text(card: Any, t: int | None) -> Finding | None:
    """``empty-text`` when the card's text is empty or whitespace only (else ``None``); the
    severity follows what an engine makes of the row: a monster with no Special Summon, Ritual or
    Extra Deck bit looks Normal-Summonable (``high``)."""
    if (card.text or "").strip():
        return None
    base = {"id": card.id, "name": card.name, "check": "empty-text"}
    if t is None:
        return Finding(**base, severity="medium", detail="the text is empty")
    if not t & TYPE_MONSTER:
        return Finding(**base, severity="medium", detail=f"the text is empty (datas.type {hex_type(t)}: a Spell/Trap)")
    if t & TYPE_TOKEN or (t & TYPE_NORMAL and not t & 0x20):
        return Finding(**base, severity="low",
                       detail=f"the text is empty (datas.type {hex_type(t)}: a Normal Monster or Token; no condition is lost)")
    if t & (TYPE_SPSUMMON | EXTRA_DECK_BITS | 0x80):
        return Finding(**base, severity="medium",
                       detail=f"the text is empty (datas.type {hex_type(t)}): its Summoning Conditions cannot be read; "
                              f"the type bits at least keep it from being Normal Summoned")
    return Finding(**base, severity="high",
                   detail=f"the text is empty and datas.type {hex_type(t)} has no Special Summon, Ritual or Extra Deck bit: "
                          f"the card looks Normal-Summonable whatever its real conditions")


# ----------------------------------------------------------------------------------------------
# alias groups

def alias_findings(cid: int, name: str, base_id: int, base_name: str, base_conds: list[Any],
                    conds: list[Any], frame: Any) -> list[Finding]:
    """``alias-conditions-differ`` findings of the alternate artwork row ``cid`` against its base
    row ``base_id``: the conditions of both texts compared with ``validate``'s
    :func:`~extractor.validate.compare_conditions` (the base row as the source side); one finding
    per difference of a condition, with its severity, the phrase in this row (``span``) and in the
    base row (``other_span``)."""
    from ..validate import compare_conditions

    mm, _, _ = compare_conditions(base_conds, conds, frame)
    out = []
    for m in mm:
        if m.condition is None:
            continue
        if m.kind == "missing-in-target":
            what = f"the base row {base_id} states {m.condition}, this row does not"
        elif m.kind == "extra-in-target":
            what = f"this row states {m.condition}, the base row {base_id} does not"
        else:
            what = (f"{m.condition}: {m.slot} is {m.target_value!r} here, {m.source_value!r} in the base row {base_id}"
                    if m.slot else f"{m.condition} differs from the base row {base_id}")
        extra = f" ({m.detail})" if m.detail else ""
        out.append(Finding(id=cid, name=name, check="alias-conditions-differ", severity=m.severity,
                           span=m.target_span if m.target_in in (None, "text") else None, phrase=m.target_phrase,
                           other_id=base_id, other_span=m.source_span if m.source_in in (None, "text") else None,
                           other_phrase=m.source_phrase,
                           detail=f"alternate artwork of {base_id} {base_name!r}: {what}{extra}"))
    return out
