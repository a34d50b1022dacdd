"""The meaning rules of the comparison, as a registry.

Each rule is a :class:`Rule`: a ``name``, the ``stage`` of the comparison it acts in, the
``seed`` sentence (or the pattern of real pairs) it comes from, what it ``decides``, and the
function.  :data:`RULES` holds them all by name; ``tests/test_validate.py`` runs one case per rule
with the rule on and off (``compare_conditions(..., skip_rules={name})``) and checks that every
registered rule has such a case.

Stages, in the order :func:`extractor.validate.compare.compare_conditions` runs them:

- ``view`` ``fn(view, frame) -> View | None``: reads a slot of one condition differently (a new
  view; ``None``: the rule does not apply);
- ``drop`` ``fn(view, same_side_views) -> bool``: the view is the same words read twice on one
  side, not compared;
- ``cross`` ``fn(side, other) -> Cross``: what one side's views mean given the other side's (run
  both ways on the ORIGINAL views; the results are merged, so the order never matters);
- ``agree`` ``fn(slot, x, y) -> bool | None``: whether two slot values agree (``None``: no
  opinion; plain equality when no rule has one);
- ``implied`` ``fn(view, other_views, frame) -> str | None``: why a condition stated on one side
  only is implied anyway (a reminder: severity ``low``);
- ``silent`` ``fn(view, ctx) -> str | None``: why a condition on one side only is not reported;
- ``severity`` ``fn(slot, a, b) -> Severity | None``: a slot difference that is weaker evidence.

Every rule reads views only (slots and :attr:`View.facts`): never a phrase or a language.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Callable, Iterable

from ..frame import Frame
from .views import EFFECT_KINDS, SELF_METHODS, SUMMON_KINDS, View

__all__ = ["Rule", "Cross", "RULES", "STAGES", "rule", "rules_for"]

STAGES = ("view", "drop", "cross", "agree", "implied", "silent", "severity")


@dataclass(frozen=True)
class Rule:
    """One meaning rule (see the module docstring)."""

    name: str
    stage: str
    seed: str
    decides: str
    fn: Callable[..., Any]


@dataclass(frozen=True)
class Cross:
    """What a ``cross`` rule found: views not compared (``drop``, by ``id``) and views read
    differently (``read``: ``id`` of the old view -> the new view)."""

    drop: frozenset[int] = frozenset()
    read: dict[int, View] = field(default_factory=dict)


RULES: dict[str, Rule] = {}


def rule(name: str, *, stage: str, seed: str, decides: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the rule ``name`` of ``stage``.

    Raises:
        ValueError: an unknown stage, or a name registered twice.
    """
    if stage not in STAGES:
        raise ValueError(f"rule {name}: unknown stage {stage!r} (one of {STAGES})")

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in RULES:
            raise ValueError(f"rule {name} is registered twice")
        RULES[name] = Rule(name, stage, seed, decides, fn)
        return fn
    return deco


def rules_for(stage: str, skip: Iterable[str] = ()) -> list[Rule]:
    """The rules of ``stage`` in registration order, less those named in ``skip``."""
    skip = frozenset(skip)
    return [r for r in RULES.values() if r.stage == stage and r.name not in skip]


# -- view: how a slot of one condition reads ---------------------------------------------------

@rule("either-only-or-first", stage="view",
      seed='SCENARIOS 4.2 reads "This card can only be Special Summoned by ..." as Semi-Nomi; '
           'Konami printed the wording for Nomi and Semi-Nomi cards alike',
      decides='an older English "can only be Special Summoned" procedure (field either) is first_only '
              '"either", which agrees with first, only and none')
def _either(v: View, frame: Frame | None) -> View | None:
    if v.kind == "builtin-special-summon" and v.facts.either and v.slots["first_only"] == "first":
        return v.with_slot("first_only", "either")
    return None


@rule("only-from-extra-deck-is-first", stage="view",
      seed='Seed 000, "Must be (first) Special Summoned by...": "Must first be Special Summoned (from your Extra '
           'Deck) by" is translated 此卡从额外卡组仅可…特殊召唤, the Nomi "Must be" with no location',
      decides="a procedure that is the only way FROM THE EXTRA DECK (field extra_deck_first) of an Extra Deck "
              "monster (or, with no card type, one that names only the Extra Deck) is first, not only")
def _extra_first(v: View, frame: Frame | None) -> View | None:
    if v.kind != "builtin-special-summon" or not v.facts.extra_deck_first or v.slots["first_only"] != "only":
        return None
    locs = set(v.facts.locations)
    extra_monster = frame.extra_deck if frame is not None and frame.kind is not None else locs == {"extra"}
    if extra_monster and locs <= {"extra"}:
        return v.with_slot("first_only", "first")
    return None


# -- drop: the same words read twice on one side ----------------------------------------------

def _either_or(a: View, b: View) -> bool:
    methods = {a.slots.get("method"), b.slots.get("method")}
    if a.kind == b.kind == "must-be-special-summoned" and methods == {"named-card", "own-effect"}:
        return True
    # "Must be Fusion Summoned with the above ... or with "X"" / 融合召喚及び、「X」の効果でのみ: a Summon
    # kind and a named card are the two halves of one either/or (both only methods)
    return ("named-card" in methods and bool(methods & SUMMON_KINDS)
            and {a.kind, b.kind} <= {"must-be-special-summoned", "special-summon-only-by"})


@rule("same-words-once", stage="drop",
      seed="Seed 002: a monster's effect that Special Summons itself is not a second Built-In Special Summon; "
           "one sentence states one condition",
      decides="a view whose span lies inside another view of the same group on the same side (a procedure and "
              "the self-Summon inside it) is not compared; the longer one stays.  Two named-card / own-effect "
              "methods are the halves of an either/or (仅可通过「X」的效果（及此卡的②效果）特殊召唤) and both stay; so are a "
              "Summon kind and a named card (融合召喚及び、「X」の効果でのみ特殊召喚できる)")
def _inside(v: View, same: list[View]) -> bool:
    return any(o is not v and o.group == v.group and o.field == v.field and o.span != v.span
               and o.span[0] <= v.span[0] and v.span[1] <= o.span[1] and not _either_or(o, v) for o in same)


@rule("event-summon-is-own-effect", stage="drop",
      seed="Seed 002: a Special Summon that answers an event starts a Chain: an effect, not a Built-In Special Summon",
      decides="the same words read both as a procedure and as the card's own effect "
              "(只能在…被破坏送去墓地时才能从手卡特殊召唤) count once, as the own effect")
def _event_summon(v: View, same: list[View]) -> bool:
    return v.kind == "builtin-special-summon" and any(
        o.field == v.field and o.span == v.span and o.kind == "must-be-special-summoned"
        and o.slots.get("method") == "own-effect" for o in same)


# -- cross: what one side means given the other -----------------------------------------------

def _situation_procs(side: list[View], other: list[View]) -> list[View]:
    """Procedures of ``other`` that state a situation, when ``side`` states it as a
    summon-condition-while and ``other`` has none."""
    if not any(v.group == "summon-condition-while" for v in side) or any(
            v.group == "summon-condition-while" for v in other):
        return []
    return [v for v in other if v.kind == "builtin-special-summon" and v.facts.situation]


@rule("situation-carried-by-procedure", stage="cross",
      seed='Seed 000, Common Summoning Conditions ("Cannot be Normal Summoned unless ..."); English "Cannot be '
           'Special Summoned unless you control "Toon World". Must first be Special Summoned ..." is one Chinese '
           'procedure sentence 自己场上有「卡通世界」存在的场合才能特殊召唤',
      decides="a summon-condition-while on one side only, where the other side has a procedure stating a "
              "situation (field situation), is carried by that procedure: not reported.  When the while is all "
              "that side says of the Special Summon, the procedure is not reported either")
def _carried(side: list[View], other: list[View]) -> Cross:
    procs = _situation_procs(side, other)
    if not procs:
        return Cross()
    whiles = {id(v) for v in side if v.group == "summon-condition-while"}
    if not any(v.group == "special-summon-method" for v in side):
        return Cross(drop=frozenset(whiles | {id(p) for p in procs}))
    return Cross(drop=frozenset(whiles))


@rule("situation-only-when-is-not-nomi", stage="cross",
      seed='Seed 000, Nomi: "cannot be Special Summoned by other ways" must be said; the 才能 of '
           '…存在的场合才能特殊召唤 is the situation\'s "only when"',
      decides="a procedure that carries the other side's summon-condition-while and whose only rests on a bare "
              "才能 (field weak) is first_only none, not only")
def _only_when(side: list[View], other: list[View]) -> Cross:
    return Cross(read={id(p): p.with_slot("first_only", "none") for p in _situation_procs(side, other)
                       if p.slots.get("first_only") == "only" and p.facts.weak})


# -- agree: when two slot values agree -----------------------------------------------------------

@rule("first-and-none-agree", stage="agree",
      seed='Seed 000: a Semi-Nomi "must first be Special Summoned" and can be revived afterwards; Chinese (like '
           'Japanese) writes it as 这张卡不能通常召唤。…的场合可以特殊召唤, an optional procedure next to '
           '"cannot be Normal Summoned" (compared on its own)',
      decides='first_only "first" and "none" agree; only "only" against "first"/"none" differs; "either" agrees '
              "with every value")
def _first_none(slot: str, x: Any, y: Any) -> bool | None:
    if slot != "first_only":
        return None
    return "either" in (x, y) or (x == "only") == (y == "only")


@rule("unstated-location-not-compared", stage="agree",
      seed='Seed 002: "Cards that do not specify the location ... are always Special Summoned from the hand"; '
           "an effect's location is where its trigger finds the card",
      decides="a locations slot that is empty on one side (nothing stated and no default) agrees with any")
def _unstated_location(slot: str, x: Any, y: Any) -> bool | None:
    if slot == "locations" and (not x or not y):
        return True
    return None


def _by_action(parts: Any) -> dict[str, list[tuple]]:
    out: dict[str, list[tuple]] = {}
    for p in parts:
        out.setdefault(p[0], []).append(tuple(p[1:]))
    return out


def _filters_agree(x: tuple, y: tuple) -> bool:
    """Two typed filters ``(attributes, levels, types, card kinds)`` agree: one side's Attributes,
    Types or card kinds may be a part of the other's (a list read in part), an unstated part agrees
    with any."""
    (ax, lx, *rx), (ay, ly, *ry) = x, y

    def in_part(p: tuple, q: tuple) -> bool:
        return not p or not q or set(p) <= set(q) or set(q) <= set(p)
    return (in_part(ax, ay) and all(in_part(p, q) for p, q in zip(rx, ry))
            and (lx is None or ly is None or lx == ly))


def _part_agrees(slot: str, x: tuple, y: tuple) -> bool:
    if slot == "cost.count":
        return x[0] is None or y[0] is None or x[0] == y[0]
    if slot == "cost.from":
        return not x[0] or not y[0] or x[0] == y[0]
    return _filters_agree(x, y)


@rule("cost-parts-per-shared-action", stage="agree",
      seed='Seed 002: a Built-In Special Summon "requires a cost ... such as Tributing, banishing or discarding"; '
           "issue 10 §1: each cost action has its count, where the paid cards come from and what they must be",
      decides="cost.count / cost.from / cost.filter are compared action by action, only for actions both sides "
              "state (an action on one side only is a cost.action difference); an unstated count (or LP amount), "
              "place or typed filter part agrees with any; Attributes, Types and card kinds agree when one side's are part of the other's")
def _cost_parts(slot: str, x: Any, y: Any) -> bool | None:
    if slot not in ("cost.count", "cost.from", "cost.filter"):
        return None
    bx, by = _by_action(x), _by_action(y)
    for act in bx.keys() & by.keys():
        if not all(_part_agrees(slot, a, b) for a, b in zip(bx[act], by[act])):
            return False
    return True


@rule("cost-actions-as-a-set", stage="agree",
      seed='Seed 002: a Built-In Special Summon "requires a cost ... such as Tributing, banishing or discarding": '
           "what is done to the paid cards; issue 10 §1: each action with its count",
      decides="cost.action compares the SET of actions when both sides state a cost: one verb written twice "
              "(舍弃手卡的…(舍弃自身的场合…)) against once is the same action, its amount is cost.count")
def _cost_action_set(slot: str, x: Any, y: Any) -> bool | None:
    if slot != "cost.action" or not x or not y:
        return None
    return set(x) == set(y)


@rule("requirement-typed-parts", stage="agree",
      seed="Issue 10 §1: a procedure's requirement, common ones typed, any other kept as its phrase (words of one "
           'language); seed 000, Common Summoning Conditions ("Cannot be Special Summoned unless you control ...") '
           "states a requirement as a condition of its own in some texts",
      decides="requirements are compared on their typed parts: they differ only when both sides state typed parts "
              "and neither side's parts are all among the other's (a side that states one part of a two-part "
              "requirement, \"If only your opponent controls a monster\" against 对手场上存在怪兽,自己场上不存在怪兽, "
              "says less, not something else), or when both say whose cards they speak of and neither is part of "
              "the other; a procedure with no requirement agrees with any (the other text may state it as a "
              "summon-condition-while); ``both`` is you and the opponent")
def _requirement(slot: str, x: Any, y: Any) -> bool | None:
    if slot != "requirement":
        return None
    if x is None or y is None:
        return True
    (px, wx), (py, wy) = x, y
    if px and py and not (set(px) <= set(py) or set(py) <= set(px)):
        return False
    sx, sy = _parties(wx), _parties(wy)  # "either player's GY" = 自己或对手墓地
    return not sx or not sy or sx <= sy or sy <= sx


@rule("requirement-count-and-filter", stage="agree",
      seed='Issue 10 §1: the requirement "exactly 3 DARK monsters in your GY", typed, with its count and filter '
           "where the kind has them (extractor.slots.Requirement); seed 002: a Built-In Special Summon's "
           "conditions are what the text states",
      decides="requirement.count and requirement.filter (the count and typed filter of the cards the requirement's "
              "kind counts) differ only when both sides read them for the same kind: \"exactly 3 DARK monsters\" "
              "against 自己墓地的暗属性怪兽是5只 is a count difference, against 自己墓地有暗属性怪兽3只以上存在 too "
              "((3, 3) is not (3, None)); a side that did not read them (None: no number written, or not read) or "
              "a requirement of another kind (a requirement difference of its own) agrees with any; typed filter "
              "parts agree as cost filters do (Attributes, Types and card kinds in part, an unstated part agrees)")
def _requirement_parts(slot: str, x: Any, y: Any) -> bool | None:
    if slot not in ("requirement.count", "requirement.filter"):
        return None
    if x is None or y is None or x[0] != y[0]:
        return True
    if slot == "requirement.count":
        return x[1] == y[1]
    return _filters_agree(tuple(x[1:]), tuple(y[1:]))


def _parties(whose: Any) -> set[str]:
    out = set(whose)
    return (out - {"both"}) | {"you", "opponent"} if "both" in out else out


@rule("unread-count-not-compared", stage="agree",
      seed="Issue 10 §2 / §3: a material line's counts and Level, a Tribute rule's count, where stated "
           "(None: not stated or not read)",
      decides="a materials.count / tuner / non_tuner / level or Tribute-rule count that is None on one side agrees "
              "with any, and so does a materials.summon that is None (a line of N monsters on a card of unknown "
              "type: its words do not say Fusion or Link, views.canonical); Tribute-rule filters agree as cost "
              "filters do (typed parts, Attributes, Types and card kinds in part)")
def _unread_count(slot: str, x: Any, y: Any) -> bool | None:
    if slot in ("materials.count", "materials.tuner", "materials.non_tuner", "materials.level", "count",
                "materials.summon"):
        return True if x is None or y is None else None
    if slot == "filter" and isinstance(x, tuple) and isinstance(y, tuple):
        return _filters_agree(x, y)
    return None


@rule("named-materials-by-passcode", stage="agree",
      seed="Issue 10 §2: named materials are resolved to passcodes when the input database holds a card of that "
           "name; seed 000, Fusion Summoning Conditions: a Fusion Monster is Summoned with the above Fusion "
           "Material Monsters",
      decides="materials.named ((count, passcodes)) agrees on the passcodes when both sides resolved every name, "
              "else on how many materials are named (names are words of one language)")
def _named(slot: str, x: Any, y: Any) -> bool | None:
    if slot != "materials.named":
        return None
    (nx, ix), (ny, iy) = x, y
    return ix == iy if ix and iy else nx == ny


# -- implied: a condition on one side only that the rules impose anyway -------------------------

def _summon_kinds(other: list[View]) -> set[str]:
    kinds = {o.slots.get("method") for o in other if o.group == "special-summon-method"} & SUMMON_KINDS
    if any(o.group == "ritual-summon-with" for o in other):
        kinds.add("ritual")
    if any(o.group == "fusion-materials-only" for o in other):
        kinds.add("fusion")
    return kinds


@rule("extra-deck-never-normal-summoned", stage="implied",
      seed='Seed 000, "Cannot be Normal Summoned/Set": Ritual and Extra Deck monsters are never Normal Summoned',
      decides='"Cannot be Normal Summoned/Set" on a Ritual or Extra Deck monster (from the card type, or the other '
              "side stating a Ritual Spell or a Fusion / Ritual / Synchro / Xyz / Link Summon) is a reminder")
def _never_normal(v: View, other: list[View], frame: Frame | None) -> str | None:
    if v.group != "cannot-normal-summon":
        return None
    fk = frame.kind if frame is not None else None
    if fk in SUMMON_KINDS:
        return f"a {fk} monster is never Normal Summoned"
    kinds = _summon_kinds(other)
    return f"the other side states a {sorted(kinds)[0]} Summon" if kinds else None


@rule("must-first-be-its-own-summon", stage="implied",
      seed='Seed 000, Ritual Summoning Conditions: "Must be Ritual Summoned with [Ritual Spell Card name] ... means '
           'that such a card must first be Ritual Summoned"',
      decides='"Must first be <Fusion / Synchro / Xyz / Link / Ritual> Summoned" on a monster of that kind, or '
              "where the other side states that Summon, is a reminder")
def _first_own_summon(v: View, other: list[View], frame: Frame | None) -> str | None:
    if v.group != "special-summon-method" or v.slots.get("first_only") != "first":
        return None
    m = v.slots.get("method")
    fk = frame.kind if frame is not None else None
    if m in SUMMON_KINDS and (m == fk or m in _summon_kinds(other)):
        return f"a {m} monster must first be {m} Summoned"
    return None


@rule("own-effect-first-is-self-summon", stage="implied",
      seed='Seed 002, "Summoned correctly": a monster that cannot be Normal Summoned and Special Summons itself by '
           "its effect must first be Special Summoned that way",
      decides='"Must first be Special Summoned by its own effect" where the other side says "Cannot be Normal '
              'Summoned/Set" and has an effect that Special Summons the card itself is a reminder')
def _own_effect_first(v: View, other: list[View], frame: Frame | None) -> str | None:
    if (v.group == "special-summon-method" and v.slots.get("method") == "own-effect"
            and v.slots.get("first_only") == "first"
            and any(o.group == "cannot-normal-summon" for o in other)
            and any(o.kind == "special-summons-itself" for o in other)):
        return ("the other side cannot be Normal Summoned and Special Summons itself by its effect, which "
                "is how it must first be Special Summoned")
    return None


@rule("ritual-spell-named", stage="implied",
      seed='Seed 000: "You can Ritual Summon this card with "X"" says which Ritual Spell; every Ritual Monster is '
           "Ritual Summoned with one",
      decides="a Ritual Spell named on one side of a Ritual Monster is a reminder")
def _ritual_spell(v: View, other: list[View], frame: Frame | None) -> str | None:
    fk = frame.kind if frame is not None else None
    if v.group == "ritual-summon-with" and (fk == "ritual" or "ritual" in _summon_kinds(other)):
        return "a Ritual Monster is Ritual Summoned with a Ritual Spell; naming it is a reminder"
    return None


@rule("nomi-rules-out-the-gy", stage="implied",
      seed='Seed 000, Nomi: "cannot be Special Summoned by other ways", the GY included',
      decides='"Cannot be Special Summoned from <somewhere>" where the other side allows only one way (Nomi) is a '
              "reminder")
def _nomi_gy(v: View, other: list[View], frame: Frame | None) -> str | None:
    if v.group == "cannot-special-summon-from" and any(
            o.group == "special-summon-method" and o.slots.get("first_only") == "only" for o in other):
        return "the other side allows only one way to Special Summon it (Nomi), which rules out the rest"
    return None


@rule("token-comes-from-its-card", stage="implied",
      seed='A Token is made by the effect of the card that names it and is in no Deck (a Token card only '
           'describes it: "由「X」特殊召唤" / "Summoned by the effect of "X""); card databases type Tokens as '
           "Normal Monsters, whose text states no Summoning Condition (extractor.coverage, rule 1)",
      decides='"Can only be Special Summoned by the effect of "X"" on one side of a Normal Monster frame (a Token) '
              "is a reminder")
def _token_origin(v: View, other: list[View], frame: Frame | None) -> str | None:
    if (frame is not None and frame.normal and v.group == "special-summon-method"
            and v.slots.get("method") == "named-card"):
        return "a Token (a Normal Monster frame) comes only from the effect of the card that makes it"
    return None


# -- silent: a condition on one side only that is not reported -----------------------------------

@rule("effects-are-not-conditions", stage="silent",
      seed='Seed 002: effects that Special Summon the card itself "are not considered Built-In Special Summons"; '
           "seed 004: effects that change the Normal Summon count",
      decides="a self-Summon or additional-Normal-Summon effect on one side only is not reported (unless "
              "include_effects); effects still take part in pairing")
def _effects(v: View, ctx: dict[str, Any]) -> str | None:
    if v.kind in EFFECT_KINDS and not ctx.get("include_effects"):
        return "an effect, not a Summoning Condition"
    return None


@rule("cut-off-text-lost-it", stage="silent",
      seed="A truncated text (truncated-text, high) lost its end: what it lacks is explained by the cut",
      decides="a condition on one side only is not reported when the other side's text is truncated")
def _cut_off(v: View, ctx: dict[str, Any]) -> str | None:
    return "the other text is cut off" if ctx.get("other_truncated") else None


@rule("spell-trap-has-no-summoning-condition", stage="silent",
      seed="Seed 000: Summoning Conditions are printed on monsters; a Spell/Trap that Special Summons monsters "
           "(\"Special Summon 1 Level 1 Tuner from your GY\") applies an effect, not a condition of its own",
      decides="a Special Summon method read on one side only of a Spell or Trap card (frame spell / trap) is not "
              "reported: it is that card's effect Summoning other monsters (a Trap Monster's own Summon is "
              "special-summons-itself, an effect kind, and stays as it is)")
def _spell_trap(v: View, ctx: dict[str, Any]) -> str | None:
    frame = ctx.get("frame")
    if (frame is not None and frame.kind in ("spell", "trap") and v.group == "special-summon-method"
            and v.kind not in EFFECT_KINDS):
        return "a Spell/Trap has no Summoning Condition of its own"
    return None


# -- severity: weaker evidence -------------------------------------------------------------------

@rule("set-allowed-is-wording", stage="severity",
      seed='Seed 000: "Cannot be Normal Summoned" (Set allowed) differs from "Cannot be Normal Summoned/Set"; '
           "Chinese 通常召唤 often covers the Set where English writes Summoned/Set",
      decides="a set_allowed difference is low")
def _set_allowed(slot: str, a: View, b: View) -> str | None:
    return "low" if slot == "set_allowed" else None


@rule("procedure-or-effect-is-wording", stage="severity",
      seed="Seed 002 tells a Built-In Special Summon from an effect by whether it starts a Chain; older Chinese "
           "wording often does not say",
      decides="a method difference between own-procedure, own-effect and self-effect is low")
def _self_methods(slot: str, a: View, b: View) -> str | None:
    if slot == "method" and a.slots.get("method") in SELF_METHODS and b.slots.get("method") in SELF_METHODS:
        return "low"
    return None


@rule("bare-cai-only-is-weak", stage="severity",
      seed='Seed 000, Nomi: "cannot be Special Summoned by other ways" must be said; …的场合才能特殊召唤 is as '
           'often "can when <situation>" as "only this way"',
      decides="a first_only difference where a procedure's first/only rests on a bare 才能 (field weak) is low")
def _weak_only(slot: str, a: View, b: View) -> str | None:
    if slot == "first_only" and any(v.kind == "builtin-special-summon" and v.facts.weak
                                    and v.slots.get("first_only") in ("only", "first") for v in (a, b)):
        return "low"
    return None


@rule("cost-on-one-side-is-weak", stage="severity",
      seed='Seed 002: a Built-In Special Summon "requires a cost"; older texts state it by reference ("(but '
           'Tributes are required if it is Level 5 or higher)") or in a sentence of their own',
      decides="a cost.action difference where one side states no cost at all is low (one side states the cost, "
              "the other omits it: not a conflict of two stated costs)")
def _cost_one_side(slot: str, a: View, b: View) -> str | None:
    if slot == "cost.action" and (not a.slots.get("cost.action") or not b.slots.get("cost.action")):
        return "low"
    return None


@rule("unread-position-is-weak", stage="severity",
      seed='Issue 10 §1: a forced position ("in Defense Position"); Chinese writes it inside the Summon verb '
           "(表侧守备表示特殊召唤), where a reading may miss it",
      decides="a position difference where one side states none is low")
def _unread_position(slot: str, a: View, b: View) -> str | None:
    if slot == "position" and (a.slots.get("position") is None or b.slots.get("position") is None):
        return "low"
    return None


# -- scope: a condition on the card against a lock on a player (issue 10 §5) ----------------------

def _card_scope_locks(side: list[View], other: list[View]) -> list[tuple[View, View]]:
    """Pairs (card condition of ``side``, player lock of ``other``) where ``side`` states
    "Cannot be Special Summoned" more often than ``other`` and ``other`` has a plain lock on a
    player's Special Summons (no exception, no place, no Summon kind) that ``side`` lacks."""
    cards = [v for v in side if v.group == "cannot-special-summon"]
    n_other_cards = sum(1 for v in other if v.group == "cannot-special-summon")

    def plain(v: View) -> bool:
        lk = getattr(v.facts, "lock", None)
        return (v.kind == "player-lock" and lk is not None and lk.what in ("special-summon", "summon")
                and lk.exception is None and not lk.from_places and lk.summon_kind is None)

    locks = [v for v in other if plain(v)]
    extra_locks = len(locks) - sum(1 for v in side if plain(v))
    k = min(len(cards) - n_other_cards, extra_locks)
    return list(zip(cards[n_other_cards:][:k], locks[-k:])) if k > 0 else []


@rule("card-condition-or-player-lock", stage="cross",
      seed='Seed 000: "Cannot be Special Summoned. This is a blanket Summon Condition that forbids the card from being '
           'Special Summoned by any means" (the card), not a lock on the player ("you cannot Special Summon monsters")',
      decides='a "Cannot be Special Summoned" on one side where the other side has, instead, a plain lock on a '
              'player\'s Special Summons (player-lock) is one condition read with a different scope: both are '
              'compared in the group cannot-special-summon with the slot scope (card / player), so the difference '
              'is reported as a scope slot difference, not as a missing condition.  Every other player lock is '
              'not compared: a lock binds a player, it is not a Summoning Condition on the card')
def _scope(side: list[View], other: list[View]) -> Cross:
    pairs = _card_scope_locks(side, other) + _card_scope_locks(other, side)
    read: dict[int, View] = {}
    for card, lock in pairs:
        read[id(card)] = card.with_slot("scope", "card")
        read[id(lock)] = replace(lock, group="cannot-special-summon", slots=MappingProxyType({"scope": "player"}))
    read_ids = set(read)
    drop = frozenset(id(v) for v in side if v.kind == "player-lock" and id(v) not in read_ids)
    mine = {id(v) for v in side}
    return Cross(drop=drop, read={i: v for i, v in read.items() if i in mine})
