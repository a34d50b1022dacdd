"""The summoning rules core: ``judge(scenario) -> Verdict``.

A *scenario* (format: ``../shared/rules/SCENARIOS.md``, version 1) asks one question about one
monster card: may it, in a stated state, be Normal Summoned / Set / Tribute Summoned / Tribute
Set / Flip Summoned / Gemini Summoned / Special Summoned in a stated way; or can a negating card
negate a kind of Summon (seed 002).

The card's Summoning Conditions come ONLY from ``card.text`` through the project pipeline
(:func:`extractor.pipeline.analyze_text`: normalizer -> patterns -> condition objects ->
profile), together with the type-line facts ``card.frame``, ``card.level`` and ``card.gemini``.
``card.name`` is never used, and ``expect``, ``source`` and ``note`` are never read.

Seeds (``../shared/seeds/``): 000 = ``000_2cce58483c21c2ec.txt`` (Summoning rules and
conditions), 002 = ``002_e557eadf37fb9071.txt`` (Special Summons, negation, Summoned correctly),
003 = ``003_ce6763b963d390f1.txt`` (Traditional Chinese: Normal / Flip / Special Summon, Fusion
Substitutes, revival limits), 004 = ``004_17e504aecb0a82bd.txt`` (Normal Summon, Set, Tribute,
Gemini, additional Normal Summons).

Errors: a scenario that breaks the format raises :class:`ScenarioError` (a ``ValueError``), whose
message names the offending field (``card.lang``, ``action.tributes`` ...).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict

from .frame import Frame
from .profile import NormalSummonProfile, Profile, SpecialSummonProfile

__all__ = ["Verdict", "ScenarioError", "judge", "card_facts", "CardFacts", "REASONS"]

# --- vocabulary (SCENARIOS.md section 3) ----------------------------------------------------------
LANGS = ("en", "zh-Hans", "zh-Hant")
FRAMES = ("normal", "effect", "ritual", "fusion", "synchro", "xyz", "link", "pendulum")
EXTRA_FRAMES = ("fusion", "synchro", "xyz", "link")
LOCATIONS = ("hand", "deck", "gy", "banished", "extra", "field")
POSITIONS = ("face-up-attack", "face-up-defense", "face-down-defense")
ACTION_POSITIONS = ("face-up-attack", "face-up-defense")
KINDS = ("normal-summon", "normal-set", "tribute-summon", "tribute-set", "flip-summon",
         "gemini-summon", "special-summon", "negate-summon")
NS_FAMILY = ("normal-summon", "normal-set", "tribute-summon", "tribute-set")
SUMMON_KINDS = ("normal-summon", "tribute-summon")
SET_KINDS = ("normal-set", "tribute-set")
SS_BY = ("own-procedure", "effect", "fusion-summon", "ritual-summon", "synchro-summon",
         "xyz-summon", "link-summon")
NEGATORS = ("Solemn Warning", "Solemn Judgment", "Black Horn of Heaven", "Divine Wrath",
            "Thunder King Rai-Oh")
SUMMONS = ("builtin-special-summon", "effect-special-summon-by-spell-trap",
           "effect-special-summon-by-monster-effect", "normal-summon")
REASONS = ("not-applicable", "cannot-normal-summon", "cannot-normal-set", "needs-tributes",
           "wrong-tribute-count", "not-enough-monsters", "position-not-allowed",
           "normal-summon-limit-reached", "flip-too-soon", "position-already-changed",
           "cannot-special-summon", "cannot-special-summon-from-location", "condition-forbids-method",
           "not-summoned-correctly", "condition-not-met", "materials-not-allowed")
#: seed 000: "The only exceptions to this rule are "Advanced Ritual Art", "Contract with the Abyss"
#: and "Earth Chant", which may be used in place of the correct Ritual Spell Card"
RITUAL_EXCEPTIONS = ("Advanced Ritual Art", "Contract with the Abyss", "Earth Chant")
#: the Extra Deck Summon each ``by`` stands for, and the frame it needs
EXTRA_SUMMON_BY = {"fusion-summon": "fusion", "synchro-summon": "synchro", "xyz-summon": "xyz",
                   "link-summon": "link"}

TOP_KEYS = {"id", "source", "note", "card", "state", "action", "expect"}
CARD_KEYS = {"name", "lang", "text", "frame", "level", "gemini"}
STATE_KEYS = {"location", "position", "summoned_correctly", "returned_to_deck_since", "set_this_turn",
              "position_changed_this_turn", "gemini_summoned", "normal_summons_used", "summon_effects",
              "additional_used", "monsters_to_tribute", "text_requirements_met"}


class ScenarioError(ValueError):
    """A scenario that breaks SCENARIOS.md (wrong enum, missing field, impossible state).

    ``field`` names the offending field (``card.lang``, ``state.location`` ...); the message
    starts with it."""

    def __init__(self, field_name: str, problem: str):
        self.field = field_name
        super().__init__(f"{field_name}: {problem}")


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


# =================================================================================================
# Input validation
# =================================================================================================

def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _want(cond: bool, fld: str, problem: str) -> None:
    if not cond:
        raise ScenarioError(fld, problem)


def validate(scenario: Any) -> None:
    """Check the parts of a scenario that :func:`judge` uses (``card``, ``state``, ``action``)
    against SCENARIOS.md sections 2-3, including its impossible states.

    ``source``, ``note`` and ``expect`` are not read (only their keys are allowed).
    Raises:
        ScenarioError: naming the first offending field.
    """
    _want(isinstance(scenario, dict), "scenario", "must be one JSON object")
    for k in scenario:
        _want(k in TOP_KEYS, k, f"unknown top-level key (allowed: {', '.join(sorted(TOP_KEYS))})")
    if "id" in scenario:
        _want(isinstance(scenario["id"], str) and scenario["id"], "id", "non-empty string required")
    card = scenario.get("card")
    _want(isinstance(card, dict), "card", "required object")
    for k in card:
        _want(k in CARD_KEYS, f"card.{k}", "unknown key")
    for k in ("name", "lang", "text", "frame", "level"):
        _want(k in card, f"card.{k}", "missing")
    _want(isinstance(card["name"], str), "card.name", "string required")
    _want(card["lang"] in LANGS, "card.lang", f"{card['lang']!r} not one of {', '.join(LANGS)}")
    _want(isinstance(card["text"], str), "card.text", "string required")
    _want(card["frame"] in FRAMES, "card.frame", f"{card['frame']!r} not one of {', '.join(FRAMES)}")
    _want(_is_int(card["level"]) and 0 <= card["level"] <= 13, "card.level", "int 0-13 required")
    if "gemini" in card:
        _want(isinstance(card["gemini"], bool), "card.gemini", "bool required")
        _want(not card["gemini"] or card["frame"] == "effect", "card.gemini", "a Gemini has frame 'effect'")

    action = scenario.get("action")
    _want(isinstance(action, dict), "action", "required object")
    kind = action.get("kind")
    _want(kind in KINDS, "action.kind", f"{kind!r} not one of {', '.join(KINDS)}")
    _validate_action(action, kind)

    if kind == "negate-summon" and "state" not in scenario:
        return
    st = scenario.get("state")
    _want(isinstance(st, dict), "state", "required object (except for negate-summon)")
    _validate_state(st, card)


def _validate_action(act: dict, kind: str) -> None:
    allowed = {"kind"}
    by = act.get("by")
    if kind in NS_FAMILY or kind == "gemini-summon":
        allowed.add("by")
        ok_by = ("immediate-effect", "mausoleum-of-the-emperor") if kind == "tribute-summon" else ("immediate-effect",)
        _want(by is None or by in ok_by, "action.by", f"{by!r} not allowed for {kind} (use {', '.join(ok_by)} or leave out)")
        if kind in ("tribute-summon", "tribute-set"):
            allowed.add("tributes")
            _want(_is_int(act.get("tributes")) and 1 <= act["tributes"] <= 5, "action.tributes",
                  f"int 1-5 required for {kind}")
        if kind in SUMMON_KINDS:
            allowed.add("position")
            _want(act.get("position", "face-up-attack") in ACTION_POSITIONS, "action.position",
                  f"one of {', '.join(ACTION_POSITIONS)}")
    elif kind == "special-summon":
        allowed |= {"by", "ignoring_conditions", "ritual_spell", "substitutes"}
        _want(isinstance(by, str) and (by in SS_BY or (by.startswith("named-card:") and by[11:].strip())),
              "action.by", f"required for special-summon: one of {', '.join(SS_BY)} or 'named-card:<name>' (got {by!r})")
        if "ignoring_conditions" in act:
            _want(isinstance(act["ignoring_conditions"], bool), "action.ignoring_conditions", "bool required")
            _want(by == "effect", "action.ignoring_conditions", "only with by 'effect'")
        if by == "ritual-summon":
            _want(isinstance(act.get("ritual_spell"), str) and act["ritual_spell"].strip(), "action.ritual_spell",
                  "required with by 'ritual-summon'")
        else:
            _want("ritual_spell" not in act, "action.ritual_spell", "only with by 'ritual-summon'")
        if "substitutes" in act:
            _want(by == "fusion-summon", "action.substitutes", "only with by 'fusion-summon'")
            _want(_is_int(act["substitutes"]) and act["substitutes"] >= 0, "action.substitutes", "int >= 0 required")
    elif kind == "negate-summon":
        allowed |= {"negator", "summon"}
        _want(act.get("negator") in NEGATORS, "action.negator", f"one of {', '.join(NEGATORS)}")
        _want(act.get("summon") in SUMMONS, "action.summon", f"one of {', '.join(SUMMONS)}")
    for k in act:
        _want(k in allowed, f"action.{k}", f"not allowed for kind {kind!r}")


def _validate_state(st: dict, card: dict) -> None:
    for k in st:
        _want(k in STATE_KEYS, f"state.{k}", "unknown key")
    loc = st.get("location")
    _want(loc in LOCATIONS, "state.location", f"required, one of {', '.join(LOCATIONS)} (got {loc!r})")
    if loc == "field":
        _want(st.get("position") in POSITIONS, "state.position", f"required on the field, one of {', '.join(POSITIONS)}")
    else:
        _want("position" not in st, "state.position", "only when location is 'field'")
    for k in ("summoned_correctly", "returned_to_deck_since", "set_this_turn", "position_changed_this_turn",
              "gemini_summoned", "additional_used", "text_requirements_met"):
        if k in st:
            _want(isinstance(st[k], bool), f"state.{k}", "bool required")
    for k in ("set_this_turn", "position_changed_this_turn", "gemini_summoned"):
        _want(not st.get(k) or loc == "field", f"state.{k}", "only on the field")
    _want(not st.get("gemini_summoned") or card.get("gemini"), "state.gemini_summoned", "the card is not a Gemini")
    sc = st.get("summoned_correctly", False)
    _want(not st.get("returned_to_deck_since") or sc, "state.returned_to_deck_since", "requires summoned_correctly true")
    _want(not (sc and loc == "hand"), "state.summoned_correctly", "true in the hand is not covered by the seeds")
    _want(not (sc and loc in ("deck", "extra") and not st.get("returned_to_deck_since")), "state.summoned_correctly",
          "true in the Deck/Extra Deck needs returned_to_deck_since true")
    for k in ("normal_summons_used", "monsters_to_tribute"):
        if k in st:
            _want(_is_int(st[k]) and st[k] >= 0, f"state.{k}", "int >= 0 required")
    effects = st.get("summon_effects", [])
    _want(isinstance(effects, list), "state.summon_effects", "array required")
    for i, e in enumerate(effects):
        where = f"state.summon_effects[{i}]"
        _want(isinstance(e, dict), where, "object required")
        ek = e.get("kind")
        _want(ek in ("set-limit", "additional"), f"{where}.kind", "one of set-limit, additional")
        if "card" in e:
            _want(isinstance(e["card"], str), f"{where}.card", "string required")
        if ek == "set-limit":
            for k in e:
                _want(k in ("kind", "value", "card"), f"{where}.{k}", "unknown key")
            _want(_is_int(e.get("value")) and e["value"] >= 2, f"{where}.value", "int >= 2 required")
        else:
            for k in e:
                _want(k in ("kind", "applies", "card"), f"{where}.{k}", "unknown key")
            _want(isinstance(e.get("applies"), bool), f"{where}.applies", "bool required")
    _want(not st.get("additional_used") or any(e["kind"] == "additional" for e in effects), "state.additional_used",
          "needs an 'additional' entry in summon_effects")
    frame = card["frame"]
    _want(not (frame in EXTRA_FRAMES and loc in ("hand", "deck")), "state.location",
          f"a {frame} monster cannot be in the {loc}")
    _want(not (frame not in EXTRA_FRAMES and loc == "extra"), "state.location",
          f"a {frame} monster cannot be in the Extra Deck")


# =================================================================================================
# Card facts: the card's Profile (pipeline: text -> conditions -> profile) seen by the rules
# =================================================================================================

def frame_of(card: dict) -> Frame:
    """The pipeline :class:`Frame` for a scenario card (``normal``/``effect``/``pendulum`` are
    Main Deck monsters; SCENARIOS.md 4.3: "``pendulum`` behaves like ``effect``")."""
    f = card["frame"]
    kind = f if f in EXTRA_FRAMES or f == "ritual" else "main_monster"
    return Frame(kind=kind, level=card["level"], pendulum=f == "pendulum", gemini=bool(card.get("gemini")),
                 normal=f == "normal")


@lru_cache(maxsize=4096)
def _norm_name(name: str, lang: str) -> str:
    """A card name in the pipeline's normalized form (so a Traditional name quoted in the text
    and the same name in ``action`` compare equal); quotes and spaces are dropped."""
    from .normalize import normalize
    t = normalize(name, lang).text
    return "".join(ch for ch in t if ch not in "\"'「」“”『』《》 \u3000").casefold()


@dataclass(frozen=True)
class CardFacts:
    """The rules' view of one card: its :class:`~extractor.profile.Profile` (the one reading of
    the card for play, shared with ``tag``) and the scenario's type-line facts.

    Every Summoning fact (Tribute counts, Set allowed, Nomi / Semi-Nomi, revive limit, blanket and
    location bans, procedures, named cards) is read from ``profile``; nothing here re-reads the
    conditions.  ``frame``: the scenario frame (``effect``, ``fusion`` ...); ``lang``: the script
    the names are compared in; ``gemini``: a Gemini (type line, or the Gemini reminder text on an
    ``effect`` frame).
    """

    profile: Profile
    frame: str
    lang: str
    gemini: bool

    @property
    def ns(self) -> NormalSummonProfile:
        return self.profile.normal_summon  # type: ignore[return-value]  # a monster always has one

    @property
    def ss(self) -> SpecialSummonProfile:
        return self.profile.special_summon  # type: ignore[return-value]

    @property
    def procedure_locations(self) -> tuple[str, ...]:
        """Where the card's built-in procedures Special Summon it from (empty: no procedure)."""
        return tuple(dict.fromkeys(loc for p in self.ss.procedures for loc in p.locations))

    @property
    def nomi(self) -> bool:
        """Special Summoned only by its stated method, for any frame (SCENARIOS.md 4.3: an Extra
        Deck or Ritual text may forbid other Special Summons too; TAGS.md: "the rules core treats
        it alike in play")."""
        return self.ss.method_limit == "only"

    @property
    def text_condition(self) -> bool:
        """Nomi, Semi-Nomi or Ritual: conditions that also bind a Special Summon from the hand,
        Deck or Extra Deck (SCENARIOS.md 4.4)."""
        return self.ss.method_limit is not None or self.ss.ritual_condition or self.frame == "ritual"

    @property
    def named_cards(self) -> frozenset[str]:
        """The named-card method(s), normalized for comparing with ``named-card:<name>``."""
        return frozenset(_norm_name(n, self.lang) for n in self.ss.named_cards)

    @property
    def ritual_spell(self) -> str | None:
        """The Ritual Spell the text names, normalized (``None``: none named)."""
        return _norm_name(self.ss.ritual_spell, self.lang) if self.ss.ritual_spell else None


@lru_cache(maxsize=4096)
def _facts_cached(text: str, lang: str, frame: str, level: int, gemini: bool) -> CardFacts:
    from .pipeline import analyze_text

    fr = frame_of({"frame": frame, "level": level, "gemini": gemini})
    _conds, profile, _tags, _mt, _seg = analyze_text(text, lang, fr)
    return CardFacts(profile=profile, frame=frame, lang=lang,
                     gemini=gemini or (profile.gemini and frame == "effect"))


def card_facts(card: dict) -> CardFacts:
    """Facts of a scenario ``card`` (keys ``text``, ``lang``, ``frame``, ``level``, ``gemini``;
    ``name`` is ignored).  Runs the pipeline once per distinct card (cached).

    Seed 000: "Summoning Rules ... are primarily dictated by Level, but may also be influenced by
    inherent limitations in their Summoning Conditions": both come from the profile.  Seed 004:
    "In OCG text, "Normal Summon/Set" would be referred to as 通常召喚, while "Normal Summon (but
    not set)" would be referred to as only 召喚" (carried by ``set_allowed`` on the conditions and
    the profile's ``set_counts``).
    """
    return _facts_cached(card["text"], card["lang"], card["frame"], card["level"], bool(card.get("gemini")))


# =================================================================================================
# Rules
# =================================================================================================

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
