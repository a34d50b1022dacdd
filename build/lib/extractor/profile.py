"""The summoning profile: what a card's conditions and frame mean for play.

``build_profile(conditions, frame) -> Profile``.  The flat tags of ``TAGS.md`` are computed FROM
the profile (:mod:`extractor.tags`), so the two never disagree.  Every fact lists the indexes of
the conditions it came from (``basis``), so ``explain`` can show the text span behind it.
"""
from __future__ import annotations

from typing import Literal, Sequence

from pydantic import BaseModel, Field

from .conditions import (CONDITION_CLASSES, AdditionalNormalSummon, BuiltinSpecialSummon, CannotNormalSummon,
                         CannotSpecialSummon, CannotSpecialSummonFrom, FusionMaterialsOnly, Gemini,
                         MustBeNormalSummonedBy, MustBeSpecialSummoned, MustFirstBeSummonedBy,
                         NormalSummonWithoutTributes, RitualSummonWith, SpecialSummonOnlyBy,
                         SpecialSummonsItself, SummonConditionWhile, TributeSummonOptional,
                         TributesRequired)
from .frame import Frame


class Procedure(BaseModel):
    """A built-in Special Summon procedure (seed 002).

    locations: where it Special Summons from (the hand for a Main Deck monster and the Extra Deck
        for an Extra Deck monster when the text names none: seed 002, "Cards that do not specify
        the location ... are always Special Summoned from the hand").
    negated_by_summon_negation: seed 002, "Built-In Special Summons are important because they
        can be negated by any card that negates Summons" -- always true for a procedure.
    basis: index of the condition in the card's ``conditions`` list.
    """

    locations: list[str]
    location_stated: bool
    negated_by_summon_negation: bool = True
    exclusive: bool = False
    first: bool = False
    basis: int


class NormalSummonProfile(BaseModel):
    """Normal Summon facts (seeds 000, 003, 004).

    allowed: a face-up Normal Summon (Tribute Summon included) is possible at all.
    set_allowed: a Normal Set / Tribute Set is possible.
    tributes: Tributes the Level needs (0 / 1 / 2) or 3 when required; ``None`` when it cannot be
        Normal Summoned (nor Set).
    alternative_tributes: further allowed counts (0 "without Tributing", 3 optional).
    mausoleum_allowed: "Mausoleum of the Emperor" may be used (not with 3 required/optional).
    while_condition: Guardian style requirement on Summons.
    """

    allowed: bool
    set_allowed: bool
    tributes: int | None
    alternative_tributes: list[int] = Field(default_factory=list)
    mausoleum_allowed: bool = True
    while_condition: bool = False
    must_be_normal_summoned_by: bool = False
    basis: list[int] = Field(default_factory=list)


class SpecialSummonProfile(BaseModel):
    """Special Summon facts (seeds 000, 002).

    procedures: built-in procedures of the text.
    only_by: Summon kinds it can only be Special Summoned by ("Must be Fusion Summoned").
    must_first_be: Summon kinds it must first be Summoned by.
    cannot_from: locations it cannot be Special Summoned from.
    cannot_special_summon: no Special Summon at all.
    nomi / semi_nomi: Special Summon Monster classes of seed 000 (Main Deck only).
    special_summon_monster: a Main Deck, non-Ritual monster that cannot be Normal Summoned/Set.
    revive_limit: must be Summoned correctly before it can be revived (seed 002).
    named_cards: cards named as the only (first) method.
    self_summon_effects: indexes of effects that Special Summon the card itself (not procedures).
    method_card_effect: the text says "Must be Special Summoned by a card effect" (any effect).
    """

    procedures: list[Procedure] = Field(default_factory=list)
    only_by: list[str] = Field(default_factory=list)
    must_first_be: list[str] = Field(default_factory=list)
    cannot_from: list[str] = Field(default_factory=list)
    cannot_special_summon: bool = False
    special_summon_monster: bool = False
    nomi: bool = False
    semi_nomi: bool = False
    revive_limit: bool = False
    named_cards: list[str] = Field(default_factory=list)
    self_summon_effects: list[int] = Field(default_factory=list)
    method_card_effect: bool = False
    fusion_materials_only: bool = False
    ritual_spell: str | None = None
    basis: list[int] = Field(default_factory=list)


class Profile(BaseModel):
    """A card's summoning profile; ``None`` parts for Spells and Traps."""

    card_kind: Literal["main_monster", "ritual", "fusion", "synchro", "xyz", "link", "spell", "trap"] | None
    normal_summon: NormalSummonProfile | None = None
    special_summon: SpecialSummonProfile | None = None
    gemini: bool = False
    grants_additional_normal_summon: bool = False


_CONDITION_TYPES = frozenset(CONDITION_CLASSES.values())


def _tributes_for_level(level: int | None) -> int | None:
    """Seed 000: Level 4 or lower none, 5-6 one, 7 or higher two; ``None`` for an unknown Level."""
    if level is None:
        return None
    if level <= 4:
        return 0
    return 1 if level <= 6 else 2


def build_profile(conditions: Sequence[object], frame: Frame) -> Profile:
    """Profile of one card from its conditions (from the text) and its frame.

    Input: the card's condition objects (any order) and its :class:`Frame`.
    Output: :class:`Profile`.
    """
    grants = any(isinstance(c, AdditionalNormalSummon) for c in conditions)
    if not frame.is_monster:
        return Profile(card_kind=frame.kind, grants_additional_normal_summon=grants)

    main = frame.kind in ("main_monster", None)
    locked = frame.frame_locked
    if not conditions:
        # most cards: exactly what the general code below gives without conditions (frame only)
        return Profile(card_kind=frame.kind,
                       normal_summon=NormalSummonProfile(allowed=not locked, set_allowed=not locked,
                                                         tributes=None if locked else _tributes_for_level(frame.level)),
                       special_summon=SpecialSummonProfile(revive_limit=locked),
                       gemini=frame.gemini, grants_additional_normal_summon=grants)
    idx = {id(c): i for i, c in enumerate(conditions)}
    # the conditions of each class, in order (grouped once: this runs for every card)
    by: dict[type, list] = {}
    for c in conditions:
        by.setdefault(type(c), []).append(c)
    if by.keys() <= _CONDITION_TYPES:
        def of(cls):
            return by.get(cls, ())
    else:  # subclasses of condition classes: isinstance
        def of(cls):
            return [c for c in conditions if isinstance(c, cls)]

    cns = of(CannotNormalSummon)
    no_ns = locked or bool(cns)
    no_set = locked or any(not c.set_allowed for c in cns)
    req3 = of(TributesRequired)
    opt3 = of(TributeSummonOptional)
    wot = of(NormalSummonWithoutTributes)
    mbns = of(MustBeNormalSummonedBy)
    whilec = of(SummonConditionWhile)
    tributes: int | None
    if no_ns and no_set:
        tributes = None
    elif req3:
        tributes = req3[0].count
    else:
        tributes = _tributes_for_level(frame.level)
    alts: list[int] = []
    if wot and tributes:
        alts.append(0)
    if opt3 and tributes is not None and tributes != 3:
        alts.append(3)
    ns = NormalSummonProfile(
        allowed=not no_ns, set_allowed=not no_set and all(c.set_allowed for c in req3), tributes=tributes,
        alternative_tributes=alts, mausoleum_allowed=not req3 and not mbns,
        while_condition=bool(whilec), must_be_normal_summoned_by=bool(mbns),
        basis=[idx[id(c)] for c in (*cns, *req3, *opt3, *wot, *mbns, *whilec)])

    ssm = main and frame.kind != "ritual" and bool(cns) and any(not c.set_allowed for c in cns)
    mbss = of(MustBeSpecialSummoned)
    # "Must be Special Summoned by its own effect" / "cannot be Special Summoned except by its own
    # effect": the text's own Special Summon of itself is that effect (it starts a Chain, seed
    # 002), so a plain "you can Special Summon this card" there is no procedure.
    own_effect = any(c.method == "own-effect" for c in mbss)
    procs = []
    demoted: list[int] = []
    for c in of(BuiltinSpecialSummon):
        if own_effect and not c.exclusive and not c.first:
            demoted.append(idx[id(c)])
            continue
        locs = list(c.locations) or (["extra"] if frame.extra_deck else ["hand"])
        procs.append(Procedure(locations=locs, location_stated=bool(c.locations), exclusive=c.exclusive,
                               first=c.first, basis=idx[id(c)]))
    only_by = sorted({c.summon for c in of(SpecialSummonOnlyBy)})
    first_by = sorted({c.summon for c in of(MustFirstBeSummonedBy)})
    proc_locs = {l for p in procs for l in p.locations}
    cannot_from = sorted({l for c in of(CannotSpecialSummonFrom) for l in c.locations} - proc_locs)
    css = of(CannotSpecialSummon)
    named = [n for c in mbss for n in c.named_cards]

    selfs = of(SpecialSummonsItself)
    card_effect = any(c.method == "card-effect" for c in mbss)
    nomi = semi = False
    if ssm:
        # seed 000: "Must be Special Summoned by [...] and cannot be Special Summoned by other
        # ways" (Nomi) vs "Must (first) be Special Summoned by..." (Semi-Nomi); "by a card
        # effect" names no method, so it is neither (eval README, mapping rules).
        strict = [c for c in mbss if c.method != "card-effect"]
        if any(not c.first and c.exclusive for c in strict) or any(p.exclusive and not p.first for p in procs):
            nomi = True
        elif any(c.first for c in strict) or any(p.first for p in procs):
            semi = True
        elif css and (procs or strict):
            nomi = True  # "Cannot be Special Summoned, except by ..." with its own way
        elif procs:
            semi = True
        elif selfs and not mbss:
            semi = True  # "Cannot be Normal Summoned/Set" next to an effect that summons itself
    cannot_ss = bool(css) and not procs and not ssm and not locked and not mbss and not only_by
    # A Pendulum Summon from the hand is not a "proper Summon" that a revival needs
    # (Mayosenju: "Cannot be Special Summoned, except by Pendulum Summon").
    revive = locked or nomi or semi or (main and bool([k for k in (*only_by, *first_by) if k != "pendulum"]))
    ss = SpecialSummonProfile(
        procedures=procs, only_by=only_by, must_first_be=first_by, cannot_from=cannot_from,
        cannot_special_summon=cannot_ss, special_summon_monster=ssm, nomi=nomi, semi_nomi=semi,
        revive_limit=revive, named_cards=named, self_summon_effects=sorted([idx[id(c)] for c in selfs] + demoted),
        method_card_effect=card_effect,
        fusion_materials_only=bool(of(FusionMaterialsOnly)),
        ritual_spell=next((c.ritual_spell for c in of(RitualSummonWith) if c.ritual_spell), None),
        basis=[idx[id(c)] for c in conditions if isinstance(c, (BuiltinSpecialSummon, MustBeSpecialSummoned,
               SpecialSummonOnlyBy, MustFirstBeSummonedBy, CannotSpecialSummonFrom, CannotSpecialSummon,
               FusionMaterialsOnly, RitualSummonWith, SpecialSummonsItself))])
    return Profile(card_kind=frame.kind, normal_summon=ns, special_summon=ss,
                   gemini=frame.gemini or bool(of(Gemini)), grants_additional_normal_summon=grants)
