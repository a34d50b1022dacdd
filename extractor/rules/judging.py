"""The rules: :class:`Verdict` and :func:`judge` (SCENARIOS.md sections 4-5): the Normal Summon
family, Gemini, Flip, Special Summons and negation, each judged from the card's facts and the
scenario's state."""
from __future__ import annotations

from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict

from ..profile import NormalSummonProfile, SpecialSummonProfile
from .facts import CardFacts, _norm_name, card_facts
from .scenario import ScenarioError, validate
from .vocabulary import (EXTRA_SUMMON_BY, NS_FAMILY, RITUAL_EXCEPTIONS, SET_KINDS)


class Verdict(BaseModel):
    """The answer to one scenario (SCENARIOS.md section 5).

    legal: the action is allowed / the negator can negate that Summon.
    reason: ``None`` when legal (and for negation questions), else the code of the first failed
        check of SCENARIOS.md 4.6 (one of :data:`REASONS`).
    tributes_required: Normal Summon family and Gemini Summon only: the smallest number of
        Tributes with which this card can be Summoned face-up (Summon kinds) or Set (Set kinds),
        from the Level and the text; ``None`` when it cannot be Summoned/Set that way at all.
    counts_as_normal_summon: the action uses up one of the turn's Normal Summons/Sets
        (``None`` when illegal or a negation question).
    considered_summoned: after the action the card counts as Summoned (``None`` when illegal).
    normal_summon_limit: the turn's Normal Summon/Set limit (seed 004; ``None`` for negation).

    Also readable like a dict: ``verdict["legal"]``.
    """

    model_config = ConfigDict(frozen=True)
    legal: bool
    reason: str | None = None
    tributes_required: int | None = None
    counts_as_normal_summon: bool | None = None
    considered_summoned: bool | None = None
    normal_summon_limit: int | None = None

    def __getitem__(self, key: str) -> Any:
        if key not in type(self).model_fields:
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in type(self).model_fields else default

    def keys(self):
        return type(self).model_fields.keys()

    def as_dict(self) -> dict[str, Any]:
        """The verdict as a plain dict with exactly the six keys."""
        return self.model_dump()



def normal_summon_limit(state: dict) -> int:
    """The turn's Normal Summon/Set limit ``L + A`` (SCENARIOS.md 4.5).

    Seed 004 (``004_17e504aecb0a82bd.txt``): set-limit effects "do not stack, and the one that
    grant the highest number will apply (e.g. If a player applied both the Effect of "Double
    Summon" and "Chain Summoning", the limit number would be 3)"; additional effects: "even the
    player applies multiple of these effects, they will get a total of 1 additional Normal
    Summon"; "these effects will stack with the first group ... making the summon limit 2+1".
    """
    effects = state.get("summon_effects", [])
    base = max([1] + [e["value"] for e in effects if e["kind"] == "set-limit"])
    return base + (1 if any(e["kind"] == "additional" for e in effects) else 0)


def summon_left(state: dict) -> bool:
    """Whether a counting Normal Summon/Set is still available this turn (SCENARIOS.md 4.5).

    Seed 004: "The turn player can only Normal Summon or Set once per turn"; the additional
    Normal Summon may be used when its effect fits this monster and action (``applies``) and it
    has not been used.  Seed 004 on the third kind: "the action does not count toward the turn's
    Normal Summon/Set limit" (handled by the caller: ``by: immediate-effect`` never counts).
    """
    effects = state.get("summon_effects", [])
    base = max([1] + [e["value"] for e in effects if e["kind"] == "set-limit"])
    if state.get("normal_summons_used", 0) < base:
        return True
    return any(e["kind"] == "additional" and e["applies"] for e in effects) and not state.get("additional_used", False)


def _requirement_unmet(state: dict) -> bool:
    """The game-state requirement of the card's own text does not hold (``text_requirements_met``
    false).  Seed 000: "This requires that a certain condition be met whenever the card is first
    Summoned. It allows the monster to be Set but nothing beyond that."; seed 002: built-in
    Special Summons "happen when the monster has a Condition that Special Summons itself"."""
    return state.get("text_requirements_met", True) is False


def judge_normal_family(facts: CardFacts, state: dict, action: dict) -> tuple[str | None, int | None]:
    """Normal Summon, Normal Set, Tribute Summon, Tribute Set (SCENARIOS.md 4.6, first list).

    Returns ``(reason or None, tributes_required)``.  Sources:
    seed 000: "Cannot be Normal Summoned or Set. Blanket statement: In no circumstances can the
    card either be Set face-down, or Normal Summoned/Tribute Summoned." / "Cannot be Normal
    Summoned. Slightly different to the first condition, a monster can still be Set face-down
    with this limitation." / "It prevents you from Normal Summoning or Setting this card except
    by Tributing 3 monsters. It also prevents you from using the effect of "Mausoleum of the
    Emperor" to Normal Summon the monster by paying 3000 Life Points." / "You must only Tribute 3
    monsters if the card allows it ... or the card's Summoning Conditions require it" / "You can
    summon them without any Tributes" / "It allows the monster to be Set but nothing beyond that."
    Seed 004: "Monsters cannot be Normal Summoned in face-up Defense Position, unless stated
    otherwise." / "The turn player can only Normal Summon or Set once per turn".
    """
    kind = action["kind"]
    is_set = kind in SET_KINDS
    counts = facts.ns.set_counts if is_set else facts.ns.summon_counts
    forbidden = not (facts.ns.set_allowed if is_set else facts.ns.allowed)
    tributes_required = None if forbidden or not counts else min(counts)
    by = action.get("by")
    mausoleum = by == "mausoleum-of-the-emperor"
    if forbidden:
        return ("cannot-normal-set" if is_set else "cannot-normal-summon"), tributes_required
    if state["location"] != "hand":
        return "not-applicable", tributes_required
    n = action.get("tributes", 0)
    if mausoleum and (not facts.ns.mausoleum_allowed or n == 3):
        return "condition-forbids-method", tributes_required
    if kind in ("normal-summon", "normal-set"):
        if 0 not in counts:
            return "needs-tributes", tributes_required
    elif n not in counts:
        return "wrong-tribute-count", tributes_required
    if not mausoleum and "monsters_to_tribute" in state and state["monsters_to_tribute"] < n:
        return "not-enough-monsters", tributes_required
    if not is_set and facts.ns.while_condition and _requirement_unmet(state):
        return "condition-not-met", tributes_required
    if not is_set and action.get("position", "face-up-attack") == "face-up-defense":
        return "position-not-allowed", tributes_required
    if by != "immediate-effect" and not summon_left(state):
        return "normal-summon-limit-reached", tributes_required
    return None, tributes_required


def judge_gemini(facts: CardFacts, state: dict, action: dict) -> str | None:
    """Gemini Summon (SCENARIOS.md 4.6).

    Seed 004: "Gemini monsters are a type of monster that are treated as Normal Monsters on the
    field, but they can be Normal Summoned again while already face-up on the field to make them
    Effect Monster" / "(This Normal Summon counts as the player's one Normal Summon/Set per
    turn). If the monster in question is Level 5 or higher, no tribute is required for the
    second Normal Summon."
    """
    if (not facts.gemini or state["location"] != "field" or state.get("position") == "face-down-defense"
            or state.get("gemini_summoned", False)):
        return "not-applicable"
    if action.get("by") != "immediate-effect" and not summon_left(state):
        return "normal-summon-limit-reached"
    return None


def judge_flip(facts: CardFacts, state: dict) -> str | None:
    """Flip Summon (SCENARIOS.md 4.6).

    Seed 003: "由蓋伏守備表示轉為翻開攻擊表示" / "不能在Main Phase(1)的時候以蓋伏守備表示上場，然後在
    Main Phase(2)的時候反轉召喚。因為反轉召喚也屬於改變表示形式" (not the turn it came to the field,
    and a Flip Summon is the one position change of the turn).  Seed 000: "Must be Normal
    Summoned, Flip Summoned, or Special Summoned if/when..." (Guardian style).
    """
    if state["location"] != "field" or state.get("position") != "face-down-defense":
        return "not-applicable"
    if state.get("set_this_turn", False):
        return "flip-too-soon"
    if state.get("position_changed_this_turn", False):
        return "position-already-changed"
    if facts.ns.while_condition and _requirement_unmet(state):
        return "condition-not-met"
    return None


def _proper_methods(facts: CardFacts, by: str, lang: str) -> bool:
    """Whether ``by`` is one of the card's *proper* methods (SCENARIOS.md 4.4): its own
    procedure, the named card, the Summon its frame needs, ``ritual-summon`` for a Ritual.

    Seed 002: "If any monster that must first be Special Summoned by fulfilling its normal
    Summoning conditions is not successfully Summoned with those conditions fulfilled, or if a
    Synchro, Fusion, Ritual or Xyz Monster is not Special Summoned through the normal methods,
    those monsters are not considered to be "Summoned Correctly"".
    """
    if by == "own-procedure" and facts.procedure_locations:
        return True
    if by.startswith("named-card:") and _norm_name(by[11:], lang) in facts.named_cards:
        return True
    if by in EXTRA_SUMMON_BY and (EXTRA_SUMMON_BY[by] == facts.frame or EXTRA_SUMMON_BY[by] in facts.ss.only_by
                                  or EXTRA_SUMMON_BY[by] in facts.ss.must_first_be):
        return True
    if by == "ritual-summon" and (facts.frame == "ritual" or facts.ss.ritual_condition):
        return True
    return False


def _nomi_methods_ok(facts: CardFacts, by: str, lang: str) -> bool:
    """For a nomi or "only by <Summon>" card: ``by`` is its stated method.

    Seed 000: "Must be Special Summoned by [...] and cannot be Special Summoned by other ways ...
    it prevents the card from being Special Summoned by any effect other than the one on its
    effect, preventing it from being Special Summoned by cards such as "Monster Reborn"." /
    "This card cannot be Special Summoned except by Fusion Summon." ... "even if you Fusion
    Summon the card correctly first, you cannot Special Summon it again afterward."
    """
    if facts.ss.only_by:
        kinds = {EXTRA_SUMMON_BY.get(by), "ritual" if by == "ritual-summon" else None} - {None}
        if kinds & set(facts.ss.only_by):
            return True
        if not facts.nomi:
            return False
    if by == "own-procedure" and facts.procedure_locations:
        return True
    if by.startswith("named-card:"):
        return _norm_name(by[11:], lang) in facts.named_cards
    return False


def judge_special(facts: CardFacts, state: dict, action: dict, lang: str) -> str | None:
    """Special Summon (SCENARIOS.md 4.6, ``special-summon``; 4.4 revival).

    Seed 000: "Cannot be Special Summoned ... forbids the card from being Special Summoned by any
    means" / "This allows cards to be Special Summoned from the hand, Deck, or Banished Zone, but
    not from the Graveyard." / "The card cannot be Special Summoned by an external effect until
    the summoning condition has been properly fulfilled, after which, the monster in question may
    be Summoned with cards such as "Monster Reborn"." / "if the card was Special Summoned
    correctly the first time, but is then sent from the field or the Graveyard back to the Deck,
    the Summoning Conditions are then reset." / "even with this restriction lifted, such cards
    can only Special Summoned from the Graveyard if they have been properly Summoned first.
    "Level Up!" is able to bypass this completely, since it Special Summons directly from the
    Deck." / "All Fusion Monsters that do not include contrary Summon conditions must be Fusion
    Summoned properly first or else they cannot be Special Summoned again from the Graveyard or
    Banished Zone." / "you can still Special Summon the monster directly from the Fusion Deck with
    cards such as "Metamorphosis"" / "you cannot use Fusion Substitute Monsters" / "must first be
    Ritual Summoned using the correct Ritual Spell Card before it can be Special Summoned by any
    other effect" / "The only exceptions to this rule are "Advanced Ritual Art", "Contract with
    the Abyss" and "Earth Chant"".
    Seed 002: "Cards that do not specify the location from where they are Special Summoned are
    always Special Summoned from the hand." / "if a Synchro, Fusion, Ritual or Xyz Monster is not
    Special Summoned through the normal methods, those monsters are not considered to be
    "Summoned Correctly", thus preventing them from being Special Summoned from the Graveyard."
    Seed 003: "但是在壹次融合中只能用壹張代用品" (one Fusion Substitute per Fusion).
    """
    loc = state["location"]
    by = action["by"]
    ignoring = bool(action.get("ignoring_conditions", False))
    # 1. not-applicable
    if loc == "field":
        return "not-applicable"
    if by == "own-procedure" and not facts.procedure_locations:
        return "not-applicable"
    if by in EXTRA_SUMMON_BY and (facts.frame != EXTRA_SUMMON_BY[by] or loc != "extra"):
        return "not-applicable"
    if by == "ritual-summon" and (facts.frame != "ritual" or loc != "hand"):
        return "not-applicable"
    # 2. blanket "Cannot be Special Summoned"
    if facts.ss.cannot_special_summon:
        return "cannot-special-summon"
    # 3. location
    if by == "own-procedure":
        if loc not in facts.procedure_locations:
            return "cannot-special-summon-from-location"
    elif loc in facts.ss.cannot_from:
        return "cannot-special-summon-from-location"
    # 4. the condition forbids this method
    if not ignoring:
        if (facts.nomi or facts.ss.only_by) and not _nomi_methods_ok(facts, by, lang):
            return "condition-forbids-method"
        if by == "ritual-summon":
            spell = action["ritual_spell"]
            if facts.ritual_spell and spell not in RITUAL_EXCEPTIONS and facts.ritual_spell not in _norm_name(spell, lang):
                # the quoted name may be an archetype ("with any "Vendread" Ritual Spell",
                # 以"仇尸"仪式魔法卡降临): a Ritual Spell whose name holds it is that card
                return "condition-forbids-method"
    # 5. Summoned correctly first (revival limit)
    effectively_correct = state.get("summoned_correctly", False) and not state.get("returned_to_deck_since", False)
    if facts.ss.revive_limit and not _proper_methods(facts, by, lang) and not effectively_correct:
        if loc in ("gy", "banished"):
            return "not-summoned-correctly"
        if facts.text_condition and not (ignoring and loc in ("hand", "deck")):
            return "not-summoned-correctly"
    # 6. the text's game-state requirement
    if _requirement_unmet(state) and (facts.ns.while_condition or by == "own-procedure"):
        return "condition-not-met"
    # 7. Fusion Materials
    if by == "fusion-summon":
        subs = action.get("substitutes", 0)
        if (facts.ss.fusion_materials_only and subs >= 1) or subs >= 2:
            return "materials-not-allowed"
    return None


#: SCENARIOS.md 4.7, from seed 002 only
NEGATION_TABLE: dict[tuple[str, str], bool] = {
    ("Solemn Warning", "builtin-special-summon"): True,
    ("Solemn Warning", "effect-special-summon-by-spell-trap"): True,
    ("Solemn Warning", "effect-special-summon-by-monster-effect"): True,
    ("Solemn Judgment", "builtin-special-summon"): True,
    ("Solemn Judgment", "effect-special-summon-by-spell-trap"): True,
    ("Solemn Judgment", "effect-special-summon-by-monster-effect"): False,
    ("Black Horn of Heaven", "builtin-special-summon"): True,
    ("Black Horn of Heaven", "effect-special-summon-by-spell-trap"): False,
    ("Black Horn of Heaven", "effect-special-summon-by-monster-effect"): False,
    ("Thunder King Rai-Oh", "builtin-special-summon"): True,
    ("Thunder King Rai-Oh", "effect-special-summon-by-spell-trap"): False,
    ("Thunder King Rai-Oh", "effect-special-summon-by-monster-effect"): False,
    ("Divine Wrath", "builtin-special-summon"): False,
}


def judge_negation(action: dict) -> bool:
    """Can ``action.negator`` negate ``action.summon`` (SCENARIOS.md 4.7)?

    Seed 002: "Built-In Special Summons are important because they can be negated by any card
    that negates Summons, including Solemn Warning, Solemn Judgment, and Black Horn of Heaven.
    Cards such as Divine Wrath cannot negate Built-In Special Summons" / "Cards such as Black Horn
    of Heaven and Thunder King Rai-Oh cannot negate Special Summons due to card effects" /
    "Solemn Judgment can negate a Spell or Trap that Special Summons, and it can negate Built-In
    Special Summons, but it cannot negate monster effects that Special Summon. Solemn Warning can
    negate any effect that Special Summons, as well as Built-In Special Summons."
    Raises:
        ScenarioError: for a pair seed 002 does not decide (reserved).
    """
    key = (action["negator"], action["summon"])
    if key not in NEGATION_TABLE:
        raise ScenarioError("action.summon", f"the pair {key} is not decided by seed 002 (reserved)")
    return NEGATION_TABLE[key]


def judge(scenario: dict) -> Verdict:
    """Judge one scenario (SCENARIOS.md section 1).

    Input: the whole scenario object (``card``, ``state``, ``action``; ``expect``, ``source`` and
    ``note`` are not read).  Output: :class:`Verdict`.
    Raises:
        ScenarioError: the scenario breaks the format (the message names the field).
    """
    validate(scenario)
    card, action = scenario["card"], scenario["action"]
    kind = action["kind"]
    if kind == "negate-summon":
        return Verdict(legal=judge_negation(action))
    state = scenario["state"]
    facts = card_facts(card)
    limit = normal_summon_limit(state)
    tributes: int | None = None
    if kind in NS_FAMILY:
        reason, tributes = judge_normal_family(facts, state, action)
    elif kind == "gemini-summon":
        reason, tributes = judge_gemini(facts, state, action), 0
    elif kind == "flip-summon":
        reason = judge_flip(facts, state)
    else:
        reason = judge_special(facts, state, action, card["lang"])
    if reason is not None:
        return Verdict(legal=False, reason=reason, tributes_required=tributes, normal_summon_limit=limit)
    counts = kind in NS_FAMILY + ("gemini-summon",) and action.get("by") != "immediate-effect"
    summoned = kind not in SET_KINDS
    return Verdict(legal=True, tributes_required=tributes, counts_as_normal_summon=counts,
                   considered_summoned=summoned, normal_summon_limit=limit)


def judge_all(scenarios: Iterable[dict]) -> list[Verdict | ScenarioError]:
    """Judge many scenarios; a malformed one yields its :class:`ScenarioError` in its place."""
    out: list[Verdict | ScenarioError] = []
    for s in scenarios:
        try:
            out.append(judge(s))
        except ScenarioError as e:
            out.append(e)
    return out

