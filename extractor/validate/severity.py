"""How much a difference matters: ``high`` / ``medium`` / ``low``.

- ``high``: a condition that decides how the card can be Summoned at all is missing or extra:
  cannot-normal-summon, cannot-special-summon, must-be-normal-summoned-by, tributes-required, and
  the Nomi-type ``special-summon-method`` conditions (``first_only`` ``first``, ``only`` or
  ``either``: "Must (first) be Special Summoned ...", "Must be Fusion Summoned", ...).
- ``medium``: any slot difference the ``severity`` rules do not lower; a missing / extra
  cannot-special-summon-from, tribute-summon-optional, normal-summon-without-tributes,
  summon-condition-while, fusion-materials-only, ritual-summon-with, or optional procedure.
- ``low``: a missing / extra Gemini reminder or effect; slot differences the ``severity`` rules
  of :mod:`extractor.validate.rules` name; a condition on one side only that is implied or whose
  absence is uncertain (decided in :mod:`extractor.validate.compare`).
"""
from __future__ import annotations

from typing import Iterable

from .report import Severity
from .rules import rules_for
from .views import EFFECT_KINDS, View

__all__ = ["presence_severity", "slot_severity", "HIGH_GROUPS", "LOW_GROUPS"]

HIGH_GROUPS = frozenset({"cannot-normal-summon", "cannot-special-summon", "must-be-normal-summoned-by",
                         "tributes-required"})
LOW_GROUPS = frozenset({"gemini", "additional-normal-summon"})


def presence_severity(v: View) -> Severity:
    """Severity of the condition ``v`` stated on one side only (not implied, not uncertain)."""
    if v.kind in EFFECT_KINDS:
        return "low"
    if v.group in HIGH_GROUPS:
        return "high"
    if v.group == "special-summon-method" and v.slots.get("first_only") in ("first", "only", "either"):
        return "high"
    if v.group in LOW_GROUPS:
        return "low"
    return "medium"


def slot_severity(slot: str, a: View, b: View, skip: Iterable[str] = ()) -> Severity:
    """Severity of a ``slot`` difference between the paired views ``a`` and ``b``: the first
    ``severity`` rule that names one, else ``medium``."""
    for r in rules_for("severity", skip):
        sev = r.fn(slot, a, b)
        if sev is not None:
            return sev
    return "medium"
