"""Audit cues (``patterns/cues/audit-<lang>.yaml``): wording the audit checks look for that the
pattern catalog does not read as conditions (frame cues; restrictive "can only be Special
Summoned" wording).  Every regex runs on the NORMALIZED text; every example is a test."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

import regex
import yaml

from ..normalize.common import PATTERNS_DIR

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
