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
  ``normal-summon-without-tributes`` (``optional``; seed 000 "Normal Summoning Conditions"), and
  ``tribute-rule`` (its ``mode`` and ``count``: "You can Tribute Summon this card by Tributing 1
  Dinosaur monster").  A rule stated twice (the same ``(mode, tributes)``) is listed once
  (STRUCTURE.md: "A Summon version and a Set version of the same rule count as one rule").
- materials: ``material-line`` conditions; a line that only says "You can also Xyz Summon this
  card by using ..." sets ``alternative`` on the card's Xyz line instead of being a line.
  ``named_materials``: the named Fusion Materials resolved to passcodes through ``names`` (the
  input's names, :func:`name_key` on both sides), then through the shipped alias table of older
  names (:mod:`extractor.names`); a name found in neither stays in ``named_names`` only.

:func:`fit_material_lines` ties material lines to the card's frame (used by the pipeline).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .frame import Frame
from .names import NameTable, name_key, name_keys, name_table, one_card, resolve_name
from .slots import read_material_line

__all__ = ["structure_of", "self_summons_of", "place_name", "fit_material_lines", "name_key", "name_keys", "input_names",
           "resolve_names"]


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


def input_names(cards: Sequence[Any]) -> NameTable:
    """The name map of an input for :func:`structure_of`: :func:`name_key` of each card's name
    -> its passcode (cards with an id and a name), a :class:`extractor.names.NameTable`.  A name
    held by several cards: when they are all one card (alternate artworks, a pre-release
    passcode: :func:`extractor.names.one_card`; 36996508 and 46986414 are both "Dark Magician")
    that card's passcode, else the first of them (cards of one name are one material by name:
    the Ritual "Black Luster Soldier" and the Normal one of the same name).  Input: the cards
    (:class:`extractor.pipeline.Card`).  Raises nothing."""
    by_lang: dict[str, list[Any]] = {}
    for c in cards:
        if c.id and c.name:
            by_lang.setdefault(c.lang, []).append(c)
    pairs: list[tuple[str, int]] = []
    for lang, cs in by_lang.items():
        pairs.extend(zip(name_keys([c.name for c in cs], lang), (c.id for c in cs)))
    return name_table(pairs, _first_card)


def _first_card(ids: list[int]) -> int:
    one = one_card(ids)
    return ids[0] if one is None else one


def resolve_names(materials: list[dict], names: Mapping[str, int] | None, lang: str) -> list[dict]:
    """Fill ``named_materials`` of the Fusion entries of ``materials`` (the ``materials`` of
    :func:`structure_of`) from their ``named_names``: each name through ``names``
    (:func:`input_names`), then through the alias table of older names
    (:func:`extractor.names.resolve_name`); a name found in neither is left out of
    ``named_materials`` (it stays in ``named_names``).  The entries are changed in place and
    returned.  ``lang``: the card's language.  ``names`` ``None`` (no input): nothing changes.  Raises nothing."""
    if names is None:
        return materials
    for m in materials:
        if m.get("summon") == "fusion" and m.get("named_names"):
            ids = [resolve_name(n, lang, names) for n in m["named_names"]]
            m["named_materials"] = sorted({i for i in ids if i is not None})
    return materials


def fit_material_lines(conditions: Sequence[Any], frame: Frame) -> list[Any]:
    """The conditions with the material lines fitted to the card's ``frame``.

    A material line is the first line of an Extra Deck monster (Fusion / Synchro / Xyz / Link):
    on a Main Deck monster, a Ritual, a Spell or a Trap it is no material line (a Main Deck
    monster's text may start with "2 ..." or hold "+"): dropped.  On an Extra Deck monster the
    line's Summon kind is the frame's (a line of "2 "Rokket" monsters" reads the same for a Link and
    a Fusion Monster): a line read as another kind is read again as the frame's kind; the Xyz
    alternative flag stays only on Xyz Monsters.  With an unknown frame the patterns' reading is
    kept.  Input and output: condition objects (:mod:`extractor.conditions`).  Raises nothing.
    """
    if not conditions:  # (most cards: no condition at all)
        return []
    if frame.kind is None:
        return list(conditions)
    for c in conditions:  # (a loop: cheaper than any() over a generator for the usual one or two conditions)
        if c.kind == "material-line":
            break
    else:
        return list(conditions)
    out = []
    for c in conditions:
        if c.kind != "material-line":
            out.append(c)
            continue
        if not frame.extra_deck:
            continue
        line = c.line
        if line.alternative or not line.parts:  # the Xyz alternative (its part: the monster overlaid on)
            if frame.kind == "xyz":
                out.append(c)
            continue
        if line.summon != frame.kind:
            text = " + ".join(f.phrase for _, f in line.parts)
            c = c.model_copy(update={"line": read_material_line(frame.kind, text, c.lang, line.alternative)})
        out.append(c)
    return out


def _material(c: Any, names: Mapping[str, int] | None) -> dict:
    line = c.line
    summon = line.summon  # (each kind's dict written out: keys in the order of the output)
    if summon == "synchro":
        return {"summon": summon, "tuner": _count(line.tuner), "non_tuner": _count(line.non_tuner),
                "span": list(c.span), "pattern_id": c.pattern_id}
    if summon == "xyz":
        return {"summon": summon, "level": line.level, "count": _count(line.count), "alternative": line.alternative,
                "span": list(c.span), "pattern_id": c.pattern_id}
    if summon == "link":
        return {"summon": summon, "count": _count(line.count), "span": list(c.span), "pattern_id": c.pattern_id}
    ids = []
    for n in line.named_materials:
        pc = resolve_name(n, c.lang, names)
        if pc is not None:
            ids.append(pc)
    return {"summon": summon, "count": _count(line.count), "named_materials": sorted(set(ids)),
            "named_names": list(line.named_materials), "span": list(c.span), "pattern_id": c.pattern_id}


def self_summons_of(conditions: Sequence[Any]) -> list[dict]:
    """The effects of a card that Special Summon the card itself (``special-summons-itself``
    conditions; issue 10 §4), kept apart from the procedures: seed 002, "some monsters have effects
    that Special Summon themselves but are not considered Built-In Special Summons" (they start a
    Chain).  Input: the card's condition objects.  Output: one dict each, in text order: ``range``
    (where from, STRUCTURE.md's place names; ``[]`` when the text names no place), ``trigger`` (the
    words before the colon, ``None`` when none), ``cost_actions`` (as a procedure's, ``[{"action":
    "none"}]`` when nothing is paid), ``cost`` (the cost actions as read), ``span`` and
    ``pattern_id``.  Raises nothing."""
    out = []
    for c in conditions:
        if getattr(c, "kind", None) != "special-summons-itself":
            continue
        cost = tuple(getattr(c, "cost", ()) or ())
        out.append({"range": sorted(place_name(x) for x in c.locations), "trigger": c.trigger,
                    "cost_actions": _cost(cost), "cost": [a.model_dump(exclude_defaults=True) for a in cost],
                    "span": list(c.span), "pattern_id": c.pattern_id})
    return out


def structure_of(conditions: Sequence[Any], frame: Frame | None = None,
                 names: Mapping[str, int] | None = None) -> dict[str, list[dict]]:
    """The STRUCTURE.md view of one card's conditions.

    Input: the card's condition objects (:mod:`extractor.conditions`), its ``frame`` (for the
    default procedure location), ``names``: :func:`name_key` of a card name -> passcode, from the
    input database (named Fusion Materials are resolved through it, then through the alias table
    of older names, :func:`extractor.names.resolve_name`; a name found in neither is left out of
    ``named_materials`` and kept in ``named_names``; no ``names``: none is resolved).  Output: ``{"procedures", "materials", "tribute_rules"}``, each
    a list of dicts (empty when the card has none).  Raises nothing.
    """
    if not conditions:  # (most cards: nothing to list)
        return {"procedures": [], "materials": [], "tribute_rules": []}
    frame = frame or Frame()
    procs, mats, rules = [], [], []
    alternative = False
    for c in conditions:
        k = c.kind
        if k == "builtin-special-summon":
            procs.append(_procedure(c, frame, conditions))
        elif k == "material-line":
            if c.line.parts and not c.line.alternative:
                mats.append(_material(c, names))
            elif c.line.summon == "xyz" and c.line.alternative:
                alternative = True
        elif k == "tribute-rule":
            rules.append({"mode": c.mode, "tributes": c.count, "span": list(c.span), "pattern_id": c.pattern_id,
                          "filter": c.filter.phrase if c.filter else None})
        elif k == "tributes-required":
            rules.append({"mode": "required", "tributes": c.count, "span": list(c.span), "pattern_id": c.pattern_id})
        elif k == "tribute-summon-optional":
            rules.append({"mode": "optional", "tributes": c.count, "span": list(c.span), "pattern_id": c.pattern_id})
        elif k == "normal-summon-without-tributes":
            rules.append({"mode": "optional", "tributes": 0, "span": list(c.span), "pattern_id": c.pattern_id})
    if alternative:
        for m in mats:
            if m["summon"] == "xyz":
                m["alternative"] = True
    seen: set[tuple] = set()
    unique = []
    for r in rules:
        key = (r["mode"], r["tributes"])
        if key not in seen:
            seen.add(key)
            unique.append(r)
    return {"procedures": procs, "materials": mats, "tribute_rules": unique}
