"""Scenario input: :class:`ScenarioError` and :func:`validate`, the checks of a scenario's
``card``, ``state`` and ``action`` against ``../shared/rules/SCENARIOS.md`` sections 2-3 (its
enums, required fields and impossible states)."""
from __future__ import annotations

from typing import Any

from .vocabulary import (ACTION_POSITIONS, CARD_KEYS, EXTRA_FRAMES, FRAMES, KINDS, LANGS, LOCATIONS, NEGATORS, NS_FAMILY, POSITIONS, SS_BY, STATE_KEYS, SUMMONS, SUMMON_KINDS, TOP_KEYS)


class ScenarioError(ValueError):
    """A scenario that breaks SCENARIOS.md (wrong enum, missing field, impossible state).

    ``field`` names the offending field (``card.lang``, ``state.location`` ...); the message
    starts with it."""

    def __init__(self, field_name: str, problem: str):
        self.field = field_name
        super().__init__(f"{field_name}: {problem}")



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


