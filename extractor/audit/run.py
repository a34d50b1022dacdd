"""``audit(path)``: read a cards.cdb (its ``datas`` rows read-only, its cards through
:func:`extractor.readers.read_cards`), analyze every card with :func:`extractor.pipeline.analyze`
and run the checks."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..frame import TYPE_MONSTER
from .checks import alias_findings, empty_text, flag_checks, frame_checks
from .report import AuditReport, CardAudit, Finding

#: ygopro's CARD_ARTWORK_VERSIONS_OFFSET: an ``alias`` closer than this to the passcode is an
#: alternate artwork of the same card; farther, it is a name "always treated as" another card.
ARTWORK_OFFSET = 20


@dataclass(frozen=True, slots=True)
class _Row:
    type: Any
    alias: Any


def _read_datas(path: str | Path) -> tuple[dict[int, _Row], list[str]]:
    """``{id: _Row}`` of the ``datas`` table (read-only) and the problems found (duplicate ids).

    Raises:
        InputError: not a readable cards.cdb.
    """
    from ..readers.cdb import open_cdb

    with open_cdb(Path(path), str(path)) as con:
        rows = con.execute("SELECT id, type, alias FROM datas ORDER BY rowid").fetchall()
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

    from ..normalize import lang_family, normalize
    from ..patterns import load_catalog
    from ..pipeline import analyze
    from ..readers import InputError, detect_format, read_cards

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
        empty = empty_text(card, t)
        if empty is not None:
            add(card.id, card.name, empty, **where)
            continue
        fam = lang_family(card.lang)
        mt = normalize(card.text, card.lang) if fam in ("en", "zh") else None
        for f in flag_checks(card, t, res, mt, fam) + frame_checks(card, t, res, mt, fam):
            add(card.id, card.name, f, **where)
        if card.id in grouped:
            kept[card.id] = (card.name, card.text, res.conditions, card.frame)
    report.cards = n
    for cid, base_id in sorted(bases.items()):
        if cid not in kept or base_id not in kept:
            continue
        name, text, conds, frame = kept[cid]
        bname, btext, bconds, _ = kept[base_id]
        fs = alias_findings(cid, name, base_id, bname, bconds, conds, frame)
        for f in fs:
            row = datas[cid]
            add(cid, name, f, lang_=report.lang or "", text=text, typ=row.type, alias=row.alias)
        if fs:
            report.others[base_id] = (bname, btext)
    report.cards_with_findings = sorted(cards.values(), key=lambda c: (c.id is None, c.id or 0))
    report.seconds = time.perf_counter() - t0
    return report
