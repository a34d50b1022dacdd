"""The structured view of a card's conditions: ``procedures``, ``materials`` and ``tribute_rules``
in the shape of ``../shared/eval/STRUCTURE.md`` (issue 10 §6), so ``score_structure.py`` reads
``tag`` output as it is.

``structure_of(conditions, frame, names=None) -> {"procedures": [...], "materials": [...],
"tribute_rules": [...]}``.  Plain dicts (JSON-ready).  Extra keys beyond STRUCTURE.md are kept
(``span``, ``pattern_id``) so a reader can find the words each item came from.

Mapping (the project's names to STRUCTURE.md's): place ``gy`` -> ``grave``, ``opp-field`` ->
``opp_field``; cost action ``send-to-gy`` -> ``send_to_gy`` (hyphens to underscores); a Count
``(min, max)`` -> ``[min, max]``.  Sources:

- procedures: ``builtin-special-summon`` conditions (seed 002, built-in Special Summons).  ``range``
  is the stated locations, else seed 002's default: "Cards that do not specify the location ... are
  always Special Summoned from the hand" (the Extra Deck for Extra Deck monsters).
- tribute_rules: ``tributes-required`` (``required``), ``tribute-summon-optional`` and
  ``normal-summon-without-tributes`` (``optional``; seed 000 "Normal Summoning Conditions").
- materials: ``material-line`` conditions.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .frame import Frame

__all__ = ["structure_of", "place_name"]


def place_name(place: str) -> str:
    """A project place name in STRUCTURE.md's spelling: ``gy`` -> ``grave``, ``opp-gy`` ->
    ``opp_grave``; others unchanged (hyphens become underscores)."""
    opp = place.startswith("opp-")
    base = place[4:] if opp else place
    base = "grave" if base == "gy" else base
    return ("opp_" if opp else "") + base


def _count(c: Any) -> list | None:
    return None if c is None else [c[0], c[1]]


def _material_count(conditions: Sequence[Any]) -> Any:
    """The count of the card's material line (a ``material-line`` condition), ``None`` if none."""
    for m in conditions:
        if getattr(m, "kind", None) == "material-line":
            return getattr(getattr(m, "line", m), "count", None)
    return None


def _cost(actions: Sequence[Any], materials: Any = None) -> list[dict]:
    """STRUCTURE.md ``cost_actions`` of a procedure's cost.  ``materials``: the card's material
    count, the count of "the above cards" (a contact Fusion pays its own Fusion Materials)."""
    if not actions:
        return [{"action": "none"}]
    out = []
    for a in actions:
        d: dict[str, Any] = {"action": a.action.replace("-", "_")}
        if a.action == "pay-lp":
            d["count"] = a.amount
        elif a.action in ("detach", "remove-counter"):
            d["count"] = None if a.amount is None else [a.amount, a.amount]
        else:
            count = a.count
            if count is None and a.filter is not None and a.filter.materials:
                count = materials
            d["count"] = _count(count)
            d["from"] = [place_name(p) for p in a.places] or None
        out.append(d)
    return out


def _procedure(c: Any, frame: Frame, conditions: Sequence[Any] = ()) -> dict:
    locs = list(c.locations) or (["extra"] if frame.extra_deck else ["hand"])
    limit = getattr(c, "limit", None)
    return {
        "kind": "builtin",
        "range": sorted(place_name(x) for x in locs),
        "once_per_turn": limit == "once-per-turn",
        "once_per_duel": limit == "once-per-duel",
        "to_opponent_field": bool(getattr(c, "to_opponent_field", False)),
        "position": getattr(c, "position", None),
        "zone_restricted": bool(getattr(c, "zone_restricted", False)),
        "cost_actions": _cost(getattr(c, "cost", ()) or (), _material_count(conditions)),
        "requires_condition": getattr(c, "requirement", None) is not None,
        "requirement": None if getattr(c, "requirement", None) is None else c.requirement.model_dump(exclude_defaults=True),
        "cost": [a.model_dump(exclude_defaults=True) for a in getattr(c, "cost", ()) or ()],
        "span": list(c.span), "pattern_id": c.pattern_id,
    }


def _material(c: Any, names: Mapping[str, int] | None) -> dict:
    d: dict[str, Any] = {"summon": c.summon}
    if c.summon == "synchro":
        d.update(tuner=_count(c.tuner), non_tuner=_count(c.non_tuner))
    elif c.summon == "xyz":
        d.update(level=c.level, count=_count(c.count), alternative=c.alternative)
    elif c.summon == "link":
        d.update(count=_count(c.count))
    else:
        ids = [names[n] for n in c.named_materials if names and n in names]
        d.update(count=_count(c.count), named_materials=sorted(set(ids)), named_names=list(c.named_materials))
    d.update(span=list(c.span), pattern_id=c.pattern_id)
    return d


def structure_of(conditions: Sequence[Any], frame: Frame | None = None,
                 names: Mapping[str, int] | None = None) -> dict[str, list[dict]]:
    """The STRUCTURE.md view of one card's conditions.

    Input: the card's condition objects (:mod:`extractor.conditions`), its ``frame`` (for the
    default procedure location), ``names``: card name -> passcode of the input database (named
    Fusion Materials are resolved through it; a name it lacks is left out of ``named_materials``
    and kept in ``named_names``).  Output: ``{"procedures", "materials", "tribute_rules"}``, each
    a list of dicts (empty when the card has none).  Raises nothing.
    """
    frame = frame or Frame()
    procs, mats, rules = [], [], []
    for c in conditions:
        k = c.kind
        if k == "builtin-special-summon":
            procs.append(_procedure(c, frame, conditions))
        elif k == "material-line":
            mats.append(_material(c, names))
        elif k == "tributes-required":
            rules.append({"mode": "required", "tributes": c.count, "span": list(c.span), "pattern_id": c.pattern_id})
        elif k == "tribute-summon-optional":
            rules.append({"mode": "optional", "tributes": c.count, "span": list(c.span), "pattern_id": c.pattern_id})
        elif k == "normal-summon-without-tributes":
            rules.append({"mode": "optional", "tributes": 0, "span": list(c.span), "pattern_id": c.pattern_id})
    return {"procedures": procs, "materials": mats, "tribute_rules": rules}
