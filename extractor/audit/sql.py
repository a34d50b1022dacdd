"""The ``--sql`` patch: ``UPDATE datas SET type = ...`` statements for the type-bit findings."""
from __future__ import annotations

import re
from pathlib import Path

from .checks import hex_type
from .report import RANK, TYPE_BIT_CHECKS, AuditReport

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
        fs = [f for f in c.findings if f.check in TYPE_BIT_CHECKS and RANK[f.severity] <= RANK[min_severity]]
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
                applied.append(f"-- {who}: {checks}: {hex_type(c.type)} -> {hex_type(new)}\n"
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
