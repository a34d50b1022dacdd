"""Audit a ygopro / EDOPro ``cards.cdb``: does what the database says about each card (the type
bits of ``datas.type``, the ``alias`` groups) agree with what the card's text says?

``audit(path) -> AuditReport``.  Every card is read with :func:`extractor.readers.read_cards`
and analyzed with :func:`extractor.pipeline.analyze`, the same pipeline as ``tag``; the audit
compares the result (conditions with their spans, the summoning profile) with the raw
``datas`` row, opened read-only (``mode=ro``: the database is never written).

Checks (:data:`CHECKS`), one :class:`Finding` per problem:

- ``special-summon-flag-missing``: a Main Deck, non-Ritual monster whose text says it cannot be
  Normal Summoned or Set (profile ``special_summon.special_summon_monster``) lacks the type bit
  ``0x2000000``.  Seed 000 ("Normal Summoning Conditions"): "Cannot be Normal Summoned or Set.
  ... included on all Special Summon-only cards".
- ``special-summon-flag-extra``: the bit is set, the text does not say so.  ``high`` only when
  the text states nothing that could mean it (no Special Summon condition, no unread wording);
  ``medium`` when the text gives a Special Summon method or procedure without the "Cannot be
  Normal Summoned/Set" sentence (older and translated texts leave it out), or allows a Set;
  ``low`` on a Ritual / Extra Deck monster (the frame already forbids the Normal Summon; the
  class is Main Deck, non-Ritual only) and on a text the tool cannot read (wording the catalog
  does not read, a language without patterns).  Empty texts are not judged here (``empty-text``).
- ``empty-text``: an empty or whitespace-only text.  A monster with no text and no Special Summon
  bit looks Normal-Summonable to every engine (``high``).
- ``alias-conditions-differ``: an alternate artwork row (``datas.alias`` = the base passcode, the
  two passcodes less than 20 apart as ygopro's ``CARD_ARTWORK_VERSIONS_OFFSET``; rows whose
  ``alias`` only makes the name "always treated as" another card are not artworks) states other
  Summoning Conditions than its base row: an errata kept in one row only.  Compared with
  :func:`extractor.validate.compare_conditions`, the comparison of ``validate``.
- ``frame-text-conflict``: the type bits and the text disagree about the frame: a material line on
  a card without an Extra Deck bit, a Pendulum Effect block without the Pendulum bit, the Gemini
  reminder (the catalog's ``gemini`` condition) without the Gemini bit, the Toon reminder without
  the Toon bit.  The wording is data: ``patterns/cues/audit-<lang>.yaml`` (:func:`load_audit_cues`).
- ``unreadable``: a record the reader or the pipeline could not read (the error names the card);
  ``no-datas-row``: a ``texts`` row with no ``datas`` row (nothing to compare the text with).

:func:`sql_patch` writes ``UPDATE datas SET type = ...`` statements for the type-bit findings:
each fix the text proves fully is applied; the others (a Pendulum bit without its Scales, a
material line whose Extra Deck kind is unknown, findings below ``high``) are written as comments.
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Literal

import regex
import yaml
from pydantic import BaseModel, Field

from .frame import (TYPE_FUSION, TYPE_GEMINI, TYPE_LINK, TYPE_MONSTER, TYPE_NORMAL, TYPE_PENDULUM,
                    TYPE_SPSUMMON, TYPE_SYNCHRO, TYPE_TOKEN, TYPE_XYZ)
from .normalize.common import PATTERNS_DIR

__all__ = ["CHECKS", "SEVERITIES", "Finding", "CardAudit", "AuditReport", "audit", "sql_patch", "render_html",
           "iter_output", "load_audit_cues", "AuditCueError"]

TYPE_TOON = 0x400000
EXTRA_DECK_BITS = TYPE_FUSION | TYPE_SYNCHRO | TYPE_XYZ | TYPE_LINK
#: ygopro's CARD_ARTWORK_VERSIONS_OFFSET: an ``alias`` closer than this to the passcode is an
#: alternate artwork of the same card; farther, it is a name "always treated as" another card.
ARTWORK_OFFSET = 20

Severity = Literal["high", "medium", "low"]
SEVERITIES: tuple[str, ...] = ("high", "medium", "low")
_RANK = {s: i for i, s in enumerate(SEVERITIES)}

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
        lim = _RANK[min_severity]
        for c in self.cards_with_findings:
            for f in c.findings:
                if _RANK[f.severity] <= lim and (checks is None or f.check in checks):
                    yield f

    def counts(self) -> dict[str, dict[str, int]]:
        """``{check: {severity: findings}}`` for every check of :data:`CHECKS`."""
        out = {k: {s: 0 for s in SEVERITIES} for k in CHECKS}
        for f in self.findings():
            out[f.check][f.severity] += 1
        return out


# ----------------------------------------------------------------------------------------------
# audit cues (patterns/cues/audit-<lang>.yaml)

class AuditCueError(ValueError):
    """An audit cue file is malformed (the message names the file and the entry)."""


@dataclass(frozen=True)
class AuditCue:
    """One audit cue: its ``group`` (frame cues ``material-line``, ``pendulum-block``,
    ``toon-reminder``, ``monster-block``; ``special-summon-only``), compiled ``regex`` over the
    NORMALIZED text, and its examples."""

    group: str
    lang: str
    regex: "regex.Pattern[str]"
    examples_match: tuple[str, ...] = ()
    examples_no_match: tuple[str, ...] = ()


@lru_cache(maxsize=8)
def load_audit_cues(fam: str) -> tuple[AuditCue, ...]:
    """The audit cues of language family ``fam`` (``en``, ``zh``); empty when it has none.

    Raises:
        AuditCueError: the file is malformed or a regex does not compile.
    """
    path = PATTERNS_DIR.joinpath("cues", f"audit-{fam}.yaml")
    if not path.is_file():
        return ()
    with path.open(encoding="utf-8") as f:
        doc = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
    out = []
    for i, d in enumerate(doc.get("cues") or []):
        try:
            rx = regex.compile(d["regex"])
            group = str(d["group"])
        except (KeyError, TypeError, regex.error) as e:
            raise AuditCueError(f"patterns/cues/audit-{fam}.yaml: cue #{i + 1}: {e}") from None
        ex = d.get("examples") or {}
        out.append(AuditCue(group, fam, rx, tuple(ex.get("match") or ()), tuple(ex.get("no_match") or ())))
    return tuple(out)


def _cue(mt: Any, fam: str, group: str, accept: Callable[[Any], bool] | None = None) -> tuple[int, int] | None:
    """The ORIGINAL span of the first match of a ``group`` cue in normalized ``mt`` (that
    ``accept`` allows), or ``None``."""
    for cue in load_audit_cues(fam):
        if cue.group != group:
            continue
        for m in cue.regex.finditer(mt.text):
            if m.end() > m.start() and (accept is None or accept(m)):
                return mt.to_original(m.start(), m.end())
    return None


def _material_line(mt: Any, fam: str) -> tuple[int, int] | None:
    """A material line among the first three lines of the monster text (the text's start, or
    the line after a monster-block header that ends a Pendulum block)."""
    text = mt.text
    starts = [0] + [m.end() for c in load_audit_cues(fam) if c.group == "monster-block" for m in c.regex.finditer(text)]

    def near_start(m: Any) -> bool:
        return any(s <= m.start() and text.count("\n", s, m.start()) <= 2 for s in starts)
    return _cue(mt, fam, "material-line", near_start)


# ----------------------------------------------------------------------------------------------
# reading the datas rows

@dataclass(frozen=True, slots=True)
class _Row:
    type: Any
    alias: Any


def _read_datas(path: str | Path) -> tuple[dict[int, _Row], list[str]]:
    """``{id: _Row}`` of the ``datas`` table (read-only) and the problems found (duplicate ids).

    Raises:
        InputError: not a readable cards.cdb.
    """
    from .readers import InputError

    uri = Path(path).resolve().as_uri() + "?mode=ro"
    con = None
    try:
        con = sqlite3.connect(uri, uri=True)
        rows = con.execute("SELECT id, type, alias FROM datas ORDER BY rowid").fetchall()
    except sqlite3.DatabaseError as e:
        raise InputError(f"{path}: not a readable cards.cdb ({e})") from e
    finally:
        if con is not None:
            con.close()
    out: dict[int, _Row] = {}
    problems: list[str] = []
    for cid, typ, alias in rows:
        if not isinstance(cid, int):
            problems.append(f"datas row with id {cid!r}: not an integer passcode; skipped")
            continue
        if cid in out:
            problems.append(f"card {cid}: more than one datas row; the first is audited")
            continue
        out[cid] = _Row(typ, alias)
    return out, problems


def _artwork_base(cid: int, row: _Row | None, datas: dict[int, _Row]) -> int | None:
    """The base passcode when ``cid`` is an alternate artwork (alias within the artwork offset)."""
    if row is None or not isinstance(row.alias, int) or row.alias == 0 or row.alias == cid:
        return None
    if abs(cid - row.alias) < ARTWORK_OFFSET and row.alias in datas:
        return row.alias
    return None


# ----------------------------------------------------------------------------------------------
# the checks of one card

def _hex(t: int) -> str:
    return f"0x{t:x}"


_IMPLIES_SSM = ("must-be-special-summoned", "builtin-special-summon", "special-summon-only-by",
                "must-first-be-summoned-by")


def _flag_checks(card: Any, t: int, res: Any, mt: Any, fam: str) -> list[Finding]:
    """``special-summon-flag-missing`` / ``-extra`` for one card with type bits ``t``."""
    from .cues import unread_cue

    out: list[Finding] = []
    has = bool(t & TYPE_SPSUMMON)
    base = {"id": card.id, "name": card.name}
    if not t & TYPE_MONSTER:
        if has:
            out.append(Finding(**base, check="special-summon-flag-extra", severity="high", fix_clear=TYPE_SPSUMMON,
                               fix_applied=True,
                               detail=f"datas.type {_hex(t)} is not a monster but has the Special Summon monster bit "
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
                                  f"Special Summon-only cards\"), but datas.type {_hex(t)} lacks the bit 0x2000000"))
        return out
    if not has or ssm:
        return out
    fix = {"fix_clear": TYPE_SPSUMMON}
    kind = card.frame.kind
    if kind != "main_monster":
        out.append(Finding(**base, check="special-summon-flag-extra", severity="low", **fix,
                           fix_note="a Ritual / Extra Deck monster: the bit is redundant, not wrong",
                           detail=f"a {kind} monster with the Special Summon monster bit 0x2000000 (datas.type "
                                  f"{_hex(t)}): the Special Summon Monster class is Main Deck, non-Ritual only "
                                  f"(seed 000); its frame already forbids the Normal Summon, so the bit is redundant"))
        return out
    if any(w.startswith("no ") and "patterns" in w for w in res.warnings):
        out.append(Finding(**base, check="special-summon-flag-extra", severity="low", **fix,
                           fix_note="the text could not be read",
                           detail=f"datas.type {_hex(t)} has the Special Summon monster bit 0x2000000; the tool has no "
                                  f"patterns for {card.lang} and could not read whether the text says so"))
        return out
    cns = [c for c in conds if c.kind == "cannot-normal-summon"]
    if cns:
        c = cns[0]
        out.append(Finding(**base, check="special-summon-flag-extra", severity="medium", span=c.span, phrase=c.phrase,
                           **fix, fix_note="the text forbids the Normal Summon: which of text and bit is wrong needs a reader",
                           detail=f"the text forbids the Normal Summon but allows a Set (seed 000: \"a monster can still "
                                  f"be Set face-down with this limitation\"): not a Special Summon Monster, yet "
                                  f"datas.type {_hex(t)} has the bit 0x2000000, which forbids the Set too"))
        return out
    spans = [c.span for c in conds if c.source == "text"]
    unread = unread_cue(mt, card.lang, "cannot-normal-summon", spans) if mt is not None else None
    if unread:
        out.append(Finding(**base, check="special-summon-flag-extra", severity="low", span=unread,
                           phrase=card.text[unread[0]:unread[1]], **fix, fix_note="wording the tool does not read",
                           detail=f"datas.type {_hex(t)} has the Special Summon monster bit 0x2000000; the tool read no "
                                  f"\"Cannot be Normal Summoned/Set\", but the text has wording about it that the "
                                  f"pattern catalog does not read: probably no problem"))
        return out
    # a Summoning Condition about its Special Summon read by the catalog, or restrictive wording it does
    # not read (the ``special-summon-only`` cue; validate's looser cue also matches activated effects
    # that Special Summon the card, which prove nothing here)
    implied = [c for c in conds if c.kind in _IMPLIES_SSM and c.source == "text"]
    only = None if implied or mt is None else _cue(mt, fam, "special-summon-only")
    if implied or only:
        span = implied[0].span if implied else only
        out.append(Finding(**base, check="special-summon-flag-extra", severity="medium", span=span,
                           phrase=card.text[span[0]:span[1]], **fix,
                           fix_note="the text may be the incomplete one: read it",
                           detail=f"datas.type {_hex(t)} has the Special Summon monster bit 0x2000000 and the text gives "
                                  f"a way to Special Summon it, but not \"Cannot be Normal Summoned/Set\": older and "
                                  f"translated texts leave that sentence out (the bit is then right), or the bit is "
                                  f"wrong (a built-in Special Summon alone does not stop a Normal Summon)"))
        return out
    out.append(Finding(**base, check="special-summon-flag-extra", severity="high", **fix, fix_applied=True,
                       detail=f"datas.type {_hex(t)} has the Special Summon monster bit 0x2000000, but the text states no "
                              f"condition that keeps it from being Normal Summoned or Set (engines that read the bit "
                              f"forbid its Normal Summon)"))
    return out


def _frame_checks(card: Any, t: int, res: Any, mt: Any, fam: str) -> list[Finding]:
    """``frame-text-conflict``: Gemini / Toon reminders, a Pendulum block, a material line."""
    out: list[Finding] = []
    base = {"id": card.id, "name": card.name, "check": "frame-text-conflict"}
    monster = bool(t & TYPE_MONSTER)
    what = "" if monster else " (and datas.type is not even a monster)"
    gem = next((c for c in res.conditions if c.kind == "gemini" and c.source == "text"), None)
    if gem and not t & TYPE_GEMINI:
        out.append(Finding(**base, severity="high", span=gem.span, phrase=gem.phrase, fix_set=TYPE_GEMINI,
                           fix_applied=monster,
                           detail=f"the text has the Gemini reminder, but datas.type {_hex(t)} lacks the Gemini bit "
                                  f"0x800{what}"))
    if mt is None:
        return out
    toon = _cue(mt, fam, "toon-reminder")
    if toon and not t & TYPE_TOON:
        out.append(Finding(**base, severity="high", span=toon, phrase=card.text[toon[0]:toon[1]], fix_set=TYPE_TOON,
                           fix_applied=monster,
                           detail=f"the text has the Toon reminder, but datas.type {_hex(t)} lacks the Toon bit "
                                  f"0x400000{what}"))
    pend = _cue(mt, fam, "pendulum-block")
    if pend and not t & TYPE_PENDULUM:
        out.append(Finding(**base, severity="high", span=pend, phrase=card.text[pend[0]:pend[1]], fix_set=TYPE_PENDULUM,
                           fix_note="the Pendulum Scales (datas.level bytes 2 and 3) must be set too",
                           detail=f"the text has a Pendulum Effect block, but datas.type {_hex(t)} lacks the Pendulum "
                                  f"bit 0x1000000{what}"))
    mat = _material_line(mt, fam)
    if mat and not t & EXTRA_DECK_BITS:
        out.append(Finding(**base, severity="high", span=mat, phrase=card.text[mat[0]:mat[1]],
                           fix_note="which Extra Deck bit (Fusion 0x40, Synchro 0x2000, Xyz 0x800000, Link 0x4000000) "
                                    "needs a reader",
                           detail=f"the text starts with a material line, which only Extra Deck monsters print, but "
                                  f"datas.type {_hex(t)} has no Fusion / Synchro / Xyz / Link bit{what}"))
    return out


def _empty_text(card: Any, t: int | None) -> Finding | None:
    if (card.text or "").strip():
        return None
    base = {"id": card.id, "name": card.name, "check": "empty-text"}
    if t is None:
        return Finding(**base, severity="medium", detail="the text is empty")
    if not t & TYPE_MONSTER:
        return Finding(**base, severity="medium", detail=f"the text is empty (datas.type {_hex(t)}: a Spell/Trap)")
    if t & TYPE_TOKEN or (t & TYPE_NORMAL and not t & 0x20):
        return Finding(**base, severity="low",
                       detail=f"the text is empty (datas.type {_hex(t)}: a Normal Monster or Token; no condition is lost)")
    if t & (TYPE_SPSUMMON | EXTRA_DECK_BITS | 0x80):
        return Finding(**base, severity="medium",
                       detail=f"the text is empty (datas.type {_hex(t)}): its Summoning Conditions cannot be read; "
                              f"the type bits at least keep it from being Normal Summoned")
    return Finding(**base, severity="high",
                   detail=f"the text is empty and datas.type {_hex(t)} has no Special Summon, Ritual or Extra Deck bit: "
                          f"the card looks Normal-Summonable whatever its real conditions")


# ----------------------------------------------------------------------------------------------
# alias groups

def _alias_findings(cid: int, name: str, base_id: int, base_name: str, base_conds: list[Any],
                    conds: list[Any], frame: Any) -> list[Finding]:
    """``alias-conditions-differ`` findings of alternate row ``cid`` against its base row."""
    from .validate import compare_conditions

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


# ----------------------------------------------------------------------------------------------
# the audit

def audit(path: str | Path, lang: str | None = None, *, catalog: Any = None,
          on_card: Callable[[int], None] | None = None) -> AuditReport:
    """Audit the cards.cdb at ``path``.

    Input: the file, the language of its texts (``None``: guessed, as ``tag`` does), a pattern
    catalog (default: the project's), ``on_card(n)`` called after every card (progress).
    Output: :class:`AuditReport`, cards with findings in passcode order.  A record that cannot
    be read or analyzed becomes an ``unreadable`` finding naming the card; the rest goes on.

    Raises:
        InputError: a missing file, a file that is not a cards.cdb (named), an unreadable database.
    """
    import time

    from .normalize import lang_family, normalize
    from .patterns import load_catalog
    from .pipeline import analyze
    from .readers import InputError, detect_format, read_cards

    t0 = time.perf_counter()
    fmt = detect_format(path)
    if fmt != "cdb":
        raise InputError(f"{path}: audit reads a ygopro/EDOPro cards.cdb (SQLite); this file looks like {fmt}")
    datas, problems = _read_datas(path)
    bases = {cid: b for cid, row in datas.items() if (b := _artwork_base(cid, row, datas)) is not None}
    grouped = set(bases) | set(bases.values())
    cat = catalog or load_catalog()
    report = AuditReport(path=str(path), lang=lang)
    cards: dict[Any, CardAudit] = {}
    kept: dict[int, tuple[str, str, list[Any], Any]] = {}  # conditions of rows in alias groups

    def add(cid: Any, name: str, f: Finding, *, lang_: str = "", text: str = "", typ: Any = None,
            alias: Any = 0) -> None:
        key = cid if cid is not None else ("record", len(cards))
        ca = cards.get(key)
        if ca is None:
            ca = cards[key] = CardAudit(id=cid, name=name, lang=lang_, text=text,
                                        type=typ if isinstance(typ, int) else None,
                                        alias=alias if isinstance(alias, int) else 0)
        ca.findings.append(f)

    for p in problems:
        m = re.match(r"card (\d+):", p)
        add(int(m.group(1)) if m else None, "", Finding(id=int(m.group(1)) if m else None, check="unreadable",
                                                          severity="medium", detail=p))
    n = 0
    for item in read_cards(path, lang, "cdb"):
        n += 1
        if on_card is not None:
            on_card(n)
        if item.card is None:
            row = datas.get(item.id) if item.id is not None else None
            if row is not None and isinstance(row.type, int) and row.type & TYPE_MONSTER:
                report.monsters += 1
            add(item.id, item.name, Finding(id=item.id, name=item.name, check="unreadable", severity="high",
                                            detail=item.error or "could not be read"),
                typ=row.type if row else None, alias=row.alias if row else 0)
            continue
        card = item.card
        if report.lang is None:
            report.lang = card.lang
        row = datas.get(card.id) if card.id is not None else None
        t = row.type if row is not None else None
        where = {"lang_": card.lang, "text": card.text, "typ": t, "alias": row.alias if row else 0}
        res = analyze(card, cat)
        if res.error:
            add(card.id, card.name, Finding(id=card.id, name=card.name, check="unreadable", severity="high",
                                            detail=res.error), **where)
            continue
        if row is None:
            add(card.id, card.name, Finding(id=card.id, name=card.name, check="no-datas-row", severity="low",
                                            detail="a texts row with no datas row: no type bits to compare the text "
                                                   "with (the card has no frame)"), **where)
            continue
        if not isinstance(t, int) or isinstance(t, bool):
            add(card.id, card.name, Finding(id=card.id, name=card.name, check="unreadable", severity="high",
                                            detail=f"card {card.id} {card.name!r}: datas.type is {t!r}, not a number; "
                                                   f"its type bits cannot be audited"), **where)
            continue
        if t & TYPE_MONSTER:
            report.monsters += 1
        empty = _empty_text(card, t)
        if empty is not None:
            add(card.id, card.name, empty, **where)
            continue
        fam = lang_family(card.lang)
        mt = normalize(card.text, card.lang) if fam in ("en", "zh") else None
        for f in _flag_checks(card, t, res, mt, fam) + _frame_checks(card, t, res, mt, fam):
            add(card.id, card.name, f, **where)
        if card.id in grouped:
            kept[card.id] = (card.name, card.text, res.conditions, card.frame)
    report.cards = n
    for cid, base_id in sorted(bases.items()):
        if cid not in kept or base_id not in kept:
            continue
        name, text, conds, frame = kept[cid]
        bname, btext, bconds, _ = kept[base_id]
        fs = _alias_findings(cid, name, base_id, bname, bconds, conds, frame)
        for f in fs:
            row = datas[cid]
            add(cid, name, f, lang_=report.lang or "", text=text, typ=row.type, alias=row.alias)
        if fs:
            report.others[base_id] = (bname, btext)
    report.cards_with_findings = sorted(cards.values(), key=lambda c: (c.id is None, c.id or 0))
    report.seconds = time.perf_counter() - t0
    return report


def iter_output(report: AuditReport, min_severity: str = "low",
                checks: frozenset[str] | None = None) -> Iterator[dict[str, Any]]:
    """The JSONL objects of ``audit -o``: one per finding (see :meth:`Finding.output`)."""
    for f in report.findings(min_severity, checks):
        yield f.output()


# ----------------------------------------------------------------------------------------------
# SQL patch

_UNSAFE = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]")


def _comment(s: str) -> str:
    """``s`` made safe inside a ``--`` comment line (no line break can end the comment)."""
    return _UNSAFE.sub(" ", s)


def sql_patch(report: AuditReport, min_severity: str = "low") -> str:
    """SQL that fixes the type-bit findings of ``report`` (at ``min_severity`` or above).

    Output: a script for ``sqlite3 COPY.cdb < PATCH.sql``: one ``UPDATE datas SET type = NEW
    WHERE id = ID AND type = OLD;`` per card with an applied fix (all its applied fixes at once;
    the ``type = OLD`` guard leaves a row alone that changed since the audit), inside one
    transaction, each after a comment naming the card, the checks and ``OLD -> NEW`` in hex.
    Fixes that need a reader (``fix_applied`` false) follow as commented-out statements with the
    reason (a comment alone when the text does not tell which bits, e.g. which Extra Deck kind).  Card names in comments have their line breaks removed.
    """
    applied: list[str] = []
    commented: list[str] = []
    for c in report.cards_with_findings:
        if c.id is None or c.type is None:
            continue
        fs = [f for f in c.findings if f.check in TYPE_BIT_CHECKS and _RANK[f.severity] <= _RANK[min_severity]]
        if not fs:
            continue
        who = _comment(f"{c.id} {c.name!r}")
        ok = [f for f in fs if f.fix_applied]
        if ok:
            new = c.type
            for f in ok:
                new = (new | f.fix_set) & ~f.fix_clear
            if new != c.type:
                checks = ", ".join(sorted({f"{f.check} ({f.severity})" for f in ok}))
                applied.append(f"-- {who}: {checks}: {_hex(c.type)} -> {_hex(new)}\n"
                               f"UPDATE datas SET type = {new} WHERE id = {c.id} AND type = {c.type};\n")
        for f in fs:
            if f.fix_applied:
                continue
            new = (c.type | f.fix_set) & ~f.fix_clear
            note = f"-- {who}: {f.check} ({f.severity}), not applied: {_comment(f.fix_note)}\n"
            if new != c.type:
                note += f"-- UPDATE datas SET type = {new} WHERE id = {c.id} AND type = {c.type};\n"
            commented.append(note)
    head = (f"-- ygo-extractor audit: type-bit fixes for {_comment(Path(report.path).name)}\n"
            f"-- {len(applied)} statement(s); {len(commented)} fix(es) that need a reader are commented out below.\n"
            f"-- Apply to a COPY of the database: sqlite3 COPY.cdb < THIS.sql\n")
    return head + "BEGIN;\n" + "".join(applied) + "COMMIT;\n" + ("\n" + "".join(commented) if commented else "")


# ----------------------------------------------------------------------------------------------
# HTML report

_SCRIPT = """
(function () {
  var boxes = document.querySelectorAll('input.check-filter');
  var rows = document.querySelectorAll('tr.card');
  function apply() {
    var on = {};
    boxes.forEach(function (b) { on[b.value] = b.checked; });
    var shown = 0;
    rows.forEach(function (r) {
      var ks = (r.getAttribute('data-checks') || '').split(' ');
      var vis = ks.some(function (k) { return on[k]; });
      r.hidden = !vis;
      if (vis) { shown += 1; }
    });
    document.getElementById('shown').textContent = String(shown);
  }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  document.getElementById('all').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = true; }); apply();
  });
  document.getElementById('none').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = false; }); apply();
  });
  apply();
})();
"""


def _pieces(text: str, marks: list[tuple[tuple[int, int], str, str]]) -> list[dict[str, Any]]:
    """``text`` cut into pieces ``{"text", "cls", "title"}``; a piece inside a mark gets the
    mark's check as class (the first mark wins where marks overlap)."""
    ms = [(s, e, cls, title) for (s, e), cls, title in marks if 0 <= s < e <= len(text)]
    cuts = sorted({0, len(text), *(m[0] for m in ms), *(m[1] for m in ms)})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        cover = [m for m in ms if m[0] <= a and b <= m[1]]
        out.append({"text": text[a:b], "cls": cover[0][2] if cover else None,
                    "title": "; ".join(m[3] for m in cover)})
    return out


def render_html(report: AuditReport, *, min_severity: str = "low", checks: frozenset[str] | None = None,
                max_cards: int | None = None, title: str | None = None) -> str:
    """A self-contained HTML page of ``report``: a summary table, then one row per card with
    findings (worst severity first, then passcode; at most ``max_cards``): the findings and the
    ORIGINAL text with the phrase that proves each finding in ``<mark>`` (for an alias finding the
    base row's text too).  Jinja2 with autoescape ON (card text is always text); the page's
    Content-Security-Policy allows only its own inline script (by hash) and inline styles.
    """
    import base64
    import hashlib

    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from markupsafe import Markup

    env = Environment(loader=FileSystemLoader(str(Path(__file__).parent / "templates")),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    tpl = env.get_template("audit.html.j2")
    lim = _RANK[min_severity]
    rows = []
    for c in report.cards_with_findings:
        fs = [f for f in c.findings if _RANK[f.severity] <= lim and (checks is None or f.check in checks)]
        if not fs:
            continue
        marks = [(f.span, f.check, f"{f.check} ({f.severity})") for f in fs if f.span]
        others = []
        for oid in dict.fromkeys(f.other_id for f in fs if f.other_id is not None):
            oname, otext = report.others.get(oid, ("", ""))
            omarks = [(f.other_span, f.check, f"{f.check}: base row") for f in fs if f.other_id == oid and f.other_span]
            others.append({"id": oid, "name": oname, "pieces": _pieces(otext, omarks)})
        rows.append({"card": c, "findings": fs, "checks": sorted({f.check for f in fs}),
                     "worst": min(_RANK[f.severity] for f in fs), "pieces": _pieces(c.text, marks), "others": others,
                     "type_hex": _hex(c.type) if c.type is not None else "-"})
    rows.sort(key=lambda r: (r["worst"], r["card"].id is None, r["card"].id or 0))
    total = len(rows)
    if max_cards is not None:
        rows = rows[:max_cards]
    counts = report.counts()
    digest = hashlib.sha256(_SCRIPT.encode("utf-8")).digest()
    return tpl.render(report=report, rows=rows, total=total, counts=counts, checks=CHECKS, severities=SEVERITIES,
                      present=[k for k in CHECKS if any(counts[k].values())], script=Markup(_SCRIPT),
                      script_hash="sha256-" + base64.b64encode(digest).decode("ascii"),
                      title=title or f"Audit: {Path(report.path).name}")
