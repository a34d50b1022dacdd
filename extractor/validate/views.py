"""The canonical view of a condition: what the comparison sees of it.

A :class:`View` is a ``group`` (conditions that say the same thing in different words share one,
e.g. "Must be Fusion Summoned", "Must first be Fusion Summoned" and a built-in procedure are all
``special-summon-method``) and the ``slots`` that carry its meaning:

- ``locations``: set of hand / deck / gy / banished / extra / field;
- ``method``: ``own-procedure``, ``named-card``, ``own-effect``, ``card-effect``, ``self-effect``
  (an effect that Special Summons the card itself) or a Summon kind (``fusion`` ...);
- ``first_only``: ``first`` ("Must first be ...", Semi-Nomi), ``only`` ("Must be ...", Nomi),
  ``none`` (an optional procedure), ``either`` (decides neither way);
- ``count``: Tributes; ``set_allowed``: whether a Set is allowed.

The slots of a built-in procedure (issue 10 §1 / §9; seed 002: a Built-In Special Summon "requires
a cost ... such as Tributing, banishing or discarding"), named as the report names them:

- ``cost.action``: the cost actions, sorted (a multiset: "banishing 1 LIGHT and 1 DARK" is one
  ``banish``); ``cost.count``: ``(action, count)`` per action (LP for ``pay-lp``);
  ``cost.from``: ``(action, places)``; ``cost.filter``: ``(action, attributes, levels, types, card kinds)`` --
  only the TYPED parts of a filter (its phrase and names are words of one language; Types and card
  kinds are the English terms in every language);
- ``requirement``: ``(parts, whose)``: the typed kinds the precondition states (``()`` when none is
  typed) and whose cards it speaks of (``you`` / ``opponent`` / ``both``, sorted);
  ``requirement.count``: ``(kind, count)`` and ``requirement.filter``: ``(kind, attributes, levels,
  types, card kinds)``: the count and the typed filter of the cards the requirement's kind counts
  ("exactly 3 DARK monsters in your GY": ``("cards-in-gy", (3, 3))``, ``("cards-in-gy", ("DARK",),
  None, (), ())``), ``None`` when not read (:func:`requirement_parts_slots`);
- ``limit`` (once per turn / Duel), ``to_opponent_field``, ``position``, ``zone`` (restricted).

A material line (group ``materials``; seed 000: a Fusion Monster is Summoned with "the above Fusion
Material Monsters"): ``materials.summon``, ``materials.count``, ``materials.tuner``,
``materials.non_tuner``, ``materials.level``, ``materials.alternative`` and ``materials.named``:
``(how many materials are named, their passcodes)`` -- the passcodes (sorted) when every name is
the name of a card of that side's input (``resolve``), else ``()``: names are words of one
language, so two sides are compared on passcodes when both have them, else on the number.  A Tribute rule
(group ``tribute-rule``): ``mode``, ``count`` and ``filter`` (typed parts).  The card-wide Summon
limit of a card name (group ``summon-limit``): ``summon`` (special, link ...) and ``limit`` (once per
turn / Duel); a limit on one side only is ``missing-in-target`` / ``extra-in-target``.

The comparison reads a condition only through :attr:`View.facts`: a projection of the condition
object WITHOUT its wording (``phrase``), language (``lang``), ``span``, ``pattern_id`` and
``source``.  Where the text is (``span``, ``field``) and what it says (``phrase``) are kept
apart in :attr:`View.where`, for the report only.  So no rule can depend on how a condition was
worded or in which language, except through the fields the reading set
(:mod:`extractor.conditions`, "Readings").
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType, SimpleNamespace
from typing import Any, Callable, Mapping

from ..frame import Frame

__all__ = ["View", "Where", "canonical", "facts_of", "cost_slots", "requirement_slot", "requirement_parts_slots",
           "material_slots", "EFFECT_KINDS", "SUMMON_KINDS", "SELF_METHODS",
           "NOT_FACTS"]

#: the parts of a condition object that are wording or provenance, never meaning
NOT_FACTS = frozenset({"phrase", "lang", "span", "pattern_id", "source"})

#: kinds that are effects of the card, not Summoning Conditions on it (seed 002: effects that
#: Special Summon the card itself "are not considered Built-In Special Summons"; seed 004: effects
#: that change the Normal Summon count)
EFFECT_KINDS = frozenset({"special-summons-itself", "additional-normal-summon"})
SUMMON_KINDS = frozenset({"fusion", "ritual", "synchro", "xyz", "link"})
#: methods by which the card Summons itself (a procedure or an effect)
SELF_METHODS = frozenset({"own-procedure", "own-effect", "self-effect"})


@dataclass(frozen=True, slots=True)
class Where:
    """Where a condition was read: ``span`` (``[start, end)`` into the ORIGINAL text named by
    ``field``: ``text`` or ``pendulum_effect``) and ``phrase`` (that text), for the report."""

    span: tuple[int, int]
    field: str
    phrase: str


@dataclass(frozen=True, slots=True, eq=False)
class View:
    """A condition in canonical form: ``group``, comparable ``slots`` (read-only), ``facts`` (the
    condition object without its wording, see the module docstring) and ``where`` it was read.
    Views are never changed: a rule that reads a slot differently makes a new view
    (:meth:`with_slot`).  Identity (``is``) tells views apart."""

    group: str
    slots: Mapping[str, Any]
    facts: SimpleNamespace
    where: Where = field(repr=False)

    @property
    def kind(self) -> str:
        """The condition kind (``builtin-special-summon``, ...)."""
        return self.facts.kind

    @property
    def span(self) -> tuple[int, int]:
        return self.where.span

    @property
    def field(self) -> str:
        return self.where.field

    def with_slot(self, slot: str, value: Any) -> "View":
        """A copy of this view with ``slot`` set to ``value``."""
        return replace(self, slots=MappingProxyType({**self.slots, slot: value}))


def facts_of(cond: Any) -> SimpleNamespace:
    """The meaning fields of a condition object (``kind`` and its fields), without
    :data:`NOT_FACTS`."""
    return SimpleNamespace(**{k: getattr(cond, k) for k in type(cond).model_fields if k not in NOT_FACTS})


def _first_only(first: bool, exclusive: bool) -> str:
    return "first" if first else "only" if exclusive else "none"


def _view(group: str, slots: dict[str, Any], cond: Any) -> View:
    return View(group, MappingProxyType(slots), facts_of(cond),
                Where(tuple(cond.span), cond.source, cond.phrase))  # type: ignore[arg-type]


def _typed_filter(f: Any) -> tuple:
    """The typed, language-free parts of a :class:`extractor.slots.CardFilter`:
    ``(attributes sorted, levels, types sorted, card kinds sorted)``; ``((), None, (), ())`` for
    no filter.  Types and card kinds are the English terms in every language (the ``vocab.types`` /
    ``vocab.kinds`` tables of patterns/terms/zh.yaml and ja.yaml; issue 10, "Every language gives
    the same objects")."""
    if f is None:
        return ((), None, (), ())
    return (tuple(sorted(set(f.attributes))), f.levels, tuple(sorted(set(f.types))),
            tuple(sorted(set(f.card_kinds))))


def cost_slots(cost: Any) -> dict[str, tuple]:
    """The ``cost.*`` slots of a cost (a tuple of :class:`extractor.slots.CostAction`), see the
    module docstring.  Per-action slots are sorted by action, text order within one action."""
    acts = sorted(enumerate(cost), key=lambda ia: (ia[1].action, ia[0]))
    return {
        "cost.action": tuple(a.action for _, a in acts),
        "cost.count": tuple((a.action, a.amount if a.action == "pay-lp" else a.count) for _, a in acts),
        "cost.from": tuple((a.action, tuple(sorted(a.places))) for _, a in acts),
        "cost.filter": tuple((a.action, *_typed_filter(a.filter)) for _, a in acts),
    }


def requirement_slot(req: Any) -> tuple | None:
    """The ``requirement`` slot: ``(typed parts, whose)``, both sorted; the typed parts are
    :attr:`extractor.slots.Requirement.parts` (every typed kind the phrase states), else its
    ``kind`` when typed, else ``()`` (``other``: words of one language).  ``None`` for none."""
    if req is None:
        return None
    parts = tuple(getattr(req, "parts", ()) or ()) or ((req.kind,) if req.kind != "other" else ())
    return (tuple(sorted(set(parts))), tuple(sorted(set(getattr(req, "whose", ()) or ()))))


def requirement_parts_slots(req: Any) -> dict[str, tuple | None]:
    """The ``requirement.count`` and ``requirement.filter`` slots of a requirement (a
    :class:`extractor.slots.Requirement` or ``None``): ``(kind, count)`` and ``(kind, *typed filter)``
    (:func:`_typed_filter`: attributes, levels, types, card kinds; the phrase and names are words of
    one language), each ``None`` when there is no requirement or its count / filter was not read
    (``Requirement.count`` / ``filter`` are those of its ``kind``, the first typed part)."""
    if req is None:
        return {"requirement.count": None, "requirement.filter": None}
    count = getattr(req, "count", None)
    filt = getattr(req, "filter", None)
    return {"requirement.count": None if count is None else (req.kind, tuple(count)),
            "requirement.filter": None if filt is None else (req.kind, *_typed_filter(filt))}


Resolve = Callable[[str], "int | None"]


def material_slots(line: Any, resolve: Resolve | None = None) -> dict[str, Any]:
    """The ``materials.*`` slots of a :class:`extractor.slots.MaterialLine` (module docstring);
    ``resolve(name)``: the passcode of the card of that name in the side's input, or ``None``."""
    named = tuple(line.named_materials)
    ids = [resolve(n) for n in named] if resolve is not None else []
    ids_t = tuple(sorted(ids)) if named and ids and all(i is not None for i in ids) else ()
    return {"materials.summon": line.summon, "materials.count": line.count, "materials.tuner": line.tuner,
            "materials.non_tuner": line.non_tuner, "materials.level": line.level,
            "materials.alternative": line.alternative, "materials.named": (len(named), ids_t)}


def canonical(cond: Any, frame: Frame | None = None, resolve: Resolve | None = None) -> View:
    """The canonical :class:`View` of a condition object, before the meaning rules
    (:mod:`extractor.validate.rules`, stage ``view``) read it further.

    ``frame`` only picks the default location of a procedure that names none (seed 002: "Cards
    that do not specify the location ... are always Special Summoned from the hand"; the Extra
    Deck for an Extra Deck monster).  With no card type (a file with none, e.g. the i18n JSON) an
    unstated location is left empty and not compared.  ``resolve``: card name -> passcode in this
    side's input (named materials, :func:`material_slots`).
    """
    k = cond.kind
    known = frame is not None and frame.kind is not None
    default_loc = (frozenset({"extra"} if frame.extra_deck else {"hand"}) if known  # type: ignore[union-attr]
                   else frozenset())
    if k == "cannot-normal-summon":
        return _view(k, {"set_allowed": cond.set_allowed}, cond)
    if k == "cannot-special-summon-from":
        return _view(k, {"locations": frozenset(cond.locations)}, cond)
    if k == "builtin-special-summon":
        return _view("special-summon-method", {
            "method": "own-procedure", "first_only": _first_only(cond.first, cond.exclusive),
            "locations": frozenset(cond.locations) or default_loc, **cost_slots(cond.cost),
            "requirement": requirement_slot(cond.requirement), **requirement_parts_slots(cond.requirement),
            "limit": cond.limit,
            "to_opponent_field": cond.to_opponent_field, "position": cond.position,
            "zone": cond.zone_restricted}, cond)
    if k == "must-be-special-summoned":
        return _view("special-summon-method", {
            "method": cond.method, "first_only": _first_only(cond.first, cond.exclusive)}, cond)
    if k == "special-summon-only-by":
        return _view("special-summon-method", {"method": cond.summon, "first_only": "only"}, cond)
    if k == "must-first-be-summoned-by":
        return _view("special-summon-method", {"method": cond.summon, "first_only": "first"}, cond)
    if k == "special-summons-itself":
        return _view("special-summon-method", {
            "method": "self-effect", "first_only": "none",
            "locations": frozenset(cond.locations)}, cond)  # unstated: where the card is, unknown
    if k in ("tributes-required", "tribute-summon-optional"):
        return _view(k, {"count": cond.count, "set_allowed": cond.set_allowed}, cond)
    if k == "normal-summon-without-tributes":
        return _view(k, {"set_allowed": cond.set_allowed}, cond)
    if k == "material-line":
        slots = material_slots(cond.line, resolve)
        if not known and str(getattr(cond, "pattern_id", "")).endswith(".material-line-count"):
            # "デュアルモンスター×２" / "2 Gemini monsters" with no card type: a line of N monsters is
            # a Fusion or a Link line as the frame says (the pattern's Link is a default), so the
            # Summon kind is not stated (None agrees with any: rule unread-count-not-compared)
            slots["materials.summon"] = None
        return _view("materials", slots, cond)
    if k == "tribute-rule":
        return _view(k, {"mode": cond.mode, "count": cond.count, "filter": _typed_filter(cond.filter)}, cond)
    if k == "summon-limit":  # the card-wide limit of its name: which Summon, how often (the name is words of one language)
        return _view(k, {"summon": cond.summon, "limit": cond.limit}, cond)
    if k == "additional-normal-summon":
        return _view(k, {}, cond)  # an effect, not a condition: its presence is compared, not its sub-kind
    # cannot-special-summon, must-be-normal-summoned-by, fusion-materials-only,
    # ritual-summon-with (the Ritual Spell's name is translated), summon-condition-while, gemini;
    # a kind added later: its own group, the generic slots it has
    slots: dict[str, Any] = {}
    fields = type(cond).model_fields
    if "locations" in fields:
        slots["locations"] = frozenset(cond.locations)
    for f in ("method", "count", "set_allowed", "effect", "summon"):
        if f in fields:
            slots["method" if f == "summon" else f] = getattr(cond, f)
    if "first" in fields or "exclusive" in fields:
        slots["first_only"] = _first_only(getattr(cond, "first", False), getattr(cond, "exclusive", False))
    return _view(k, slots, cond)
