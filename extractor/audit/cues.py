"""Audit cues (``patterns/cues/audit-<lang>.yaml``): wording the audit checks look for that the
pattern catalog does not read as conditions (frame cues; restrictive "can only be Special
Summoned" wording).  Every regex runs on the NORMALIZED text; every example is a test."""
from __future__ import annotations

from typing import Any, Callable

from ..cues import Cue, CueError, load_cues

#: kept for callers of the audit's former names: one cue loader serves every cue file
AuditCueError = CueError
AuditCue = Cue


def load_audit_cues(fam: str) -> tuple[Cue, ...]:
    """The audit cues of language family ``fam`` (``patterns/cues/audit-<fam>.yaml``): frame cues
    ``material-line``, ``pendulum-block``, ``toon-reminder``, ``monster-block`` and
    ``special-summon-only``; empty when it has none.

    Raises:
        CueError: the file is malformed or a regex does not compile.
    """
    return load_cues(fam, "audit-")


def find_cue(mt: Any, fam: str, group: str, accept: Callable[[Any], bool] | None = None) -> tuple[int, int] | None:
    """The ORIGINAL span of the first match of a ``group`` cue in normalized ``mt`` (that
    ``accept`` allows), or ``None``."""
    for cue in load_audit_cues(fam):
        if cue.group != group:
            continue
        for m in cue.regex.finditer(mt.text):
            if m.end() > m.start() and (accept is None or accept(m)):
                return mt.to_original(m.start(), m.end())
    return None


def material_line(mt: Any, fam: str) -> tuple[int, int] | None:
    """A material line among the first three lines of the monster text (the text's start, or
    the line after a monster-block header that ends a Pendulum block)."""
    text = mt.text
    starts = [0] + [m.end() for c in load_audit_cues(fam) if c.group == "monster-block" for m in c.regex.finditer(text)]

    def near_start(m: Any) -> bool:
        return any(s <= m.start() and text.count("\n", s, m.start()) <= 2 for s in starts)
    return find_cue(mt, fam, "material-line", near_start)
