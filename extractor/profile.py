"""The summoning profile: what a card's conditions and frame mean for play.

``build_profile(conditions, frame) -> Profile``.  The profile is the ONE reading of a card for
play: the flat tags of ``TAGS.md`` are computed from it (:mod:`extractor.tags`) and the rules
core (:mod:`extractor.rules`, ``judge``) reads its Tribute counts, Nomi / Semi-Nomi, revive limit
and Special Summon facts from it, so ``tag`` and ``judge`` cannot read a card two ways
(``tests/test_tag_judge_agree.py`` checks it on every card of yaml-yugi).  Every fact lists the
indexes of the conditions it came from (``basis``), so ``explain`` can show the text behind it.

Seeds (``../shared/seeds/``): 000 = ``000_2cce58483c21c2ec.txt``, 002 = ``002_e557eadf37fb9071.txt``,
004 = ``004_17e504aecb0a82bd.txt``.
"""

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
        Normal Summoned (nor Set), or the Level is unknown.
    alternative_tributes: further counts the text allows (0 "without Tributing", 3 optional).
    summon_counts / set_counts: every Tribute count with which a face-up Normal / Tribute Summon
        / a Set is allowed (sorted; empty when that is not allowed or the Level is unknown).
        Seed 000: "Level 5 or 6 monsters can be Tribute Summoned by Tributing 1 monster", "Level 7
        or higher ... Tributing 2 monsters"; "To Tribute Summon this card, you must Tribute 3
        monsters ... prevents you from Normal Summoning or Setting this card except by Tributing 3
        monsters"; "If you Tribute Summon this card by Tributing 3 monsters ... you still can Tribute
        Summon these cards by offering two Tributes"; "You can summon them without any Tributes
        ... They can still be summoned by Tributing monsters".  A "without Tributing" or optional
        3-Tribute wording adds its count to the Set only when it says so ("Normal Summon/Set",
        Chinese 通常召唤: seed 004, "Normal Summon/Set" = 通常召喚, "Normal Summon (but not set)" =
        召喚).
    mausoleum_allowed: "Mausoleum of the Emperor" may be used (not with 3 required, not with "Must
        be Normal Summoned/Set by"; seed 000).
    while_condition: Guardian style requirement on Summons.
    """

    allowed: bool
    set_allowed: bool
    tributes: int | None
    alternative_tributes: list[int] = Field(default_factory=list)
    summon_counts: list[int] = Field(default_factory=list)
    set_counts: list[int] = Field(default_factory=list)
    mausoleum_allowed: bool = True
    while_condition: bool = False
    must_be_normal_summoned_by: bool = False
    basis: list[int] = Field(default_factory=list)


class SpecialSummonProfile(BaseModel):
    """Special Summon facts (seeds 000, 002).

    procedures: built-in procedures of the text.
    only_by: Summon kinds it can only be Special Summoned by ("Must be Fusion Summoned").
    must_first_be: Summon kinds it must first be Summoned by.
    cannot_from: locations it cannot be Special Summoned from (not those its own procedure uses).
    cannot_special_summon: the text forbids every Special Summon and states no way it can be
        Special Summoned (no procedure, no "Must be Special Summoned by", no "except by Fusion
        Summon"); seed 000: "a blanket Summon Condition that forbids the card from being Special
        Summoned by any means".  For any frame (the tag has a narrower scope: :mod:`extractor.tags`).
    method_limit: the text limits Special Summons to the method(s) it states, for any frame:
        ``"only"`` (seed 000, "Must be Special Summoned by [...] and cannot be Special Summoned by
        other ways ... preventing it from being Special Summoned by cards such as "Monster
        Reborn"") or ``"first"`` (seed 000, "Must be (first) Special Summoned by... The card cannot
        be Special Summoned by an external effect until the summoning condition has been properly
        fulfilled"); ``None`` when it states no such limit.
    nomi / semi_nomi: the Special Summon Monster classes of seed 000 (Main Deck, non-Ritual, cannot
        be Normal Summoned/Set): ``method_limit`` "only" / "first" of such a card.
    special_summon_monster: a Main Deck, non-Ritual monster that cannot be Normal Summoned/Set.
    revive_limit: must be Summoned correctly before it can be revived (seed 002: "If any monster that
        must first be Special Summoned by fulfilling its normal Summoning conditions is not
        successfully Summoned with those conditions fulfilled, or if a Synchro, Fusion, Ritual or Xyz
        Monster is not Special Summoned through the normal methods ... preventing them from being
        Special Summoned from the Graveyard"): every Ritual and Extra Deck frame, Nomi / Semi-Nomi,
        a ``"first"`` method limit or a Ritual Spell condition on any frame (also when the frame is
        unknown), "only by <Summon>" other than a Pendulum Summon on a Main Deck monster.
    ritual_condition: the text names the Ritual Spell it is Ritual Summoned with (seed 000,
        "Must be Ritual Summoned with [Ritual Spell Card name]... must first be Ritual Summoned
        using the correct Ritual Spell Card before it can be Special Summoned by any other effect").
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
    method_limit: Literal["only", "first"] | None = None
    nomi: bool = False
    semi_nomi: bool = False
    revive_limit: bool = False
    ritual_condition: bool = False
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
_SS_BASIS = (BuiltinSpecialSummon, MustBeSpecialSummoned, SpecialSummonOnlyBy, MustFirstBeSummonedBy,
             CannotSpecialSummonFrom, CannotSpecialSummon, FusionMaterialsOnly, RitualSummonWith,
             SpecialSummonsItself)


# The models' validators called directly (dict of fields -> validated object): the same objects as
# Model(**fields), without pydantic's Python-level __init__ (build_profile runs for every card
# with conditions and builds up to four of them)
_profile = Profile.__pydantic_validator__.validate_python
_normal_summon_profile = NormalSummonProfile.__pydantic_validator__.validate_python
_special_summon_profile = SpecialSummonProfile.__pydantic_validator__.validate_python
_procedure = Procedure.__pydantic_validator__.validate_python


def tributes_for_level(level: int | None) -> int | None:
    """Tributes a Normal Summon needs by Level; ``None`` for an unknown Level.

    Seed 000: "Level 4 or lower monsters can be Normal Summoned to the field or Set", "Level 5 or 6
    monsters can be Tribute Summoned by Tributing 1 monster", "Level 7 or higher monsters can be
    Tribute Summoned by Tributing 2 monsters".
    """
    if level is None:
        return None
    if level <= 4:
        return 0
    return 1 if level <= 6 else 2


#: What :func:`build_profile` reads of each condition class: the names of the fields it reads, or
#: ``None`` for a class it reads nothing of (neither a field nor the class itself: the material
#: lines, Tribute rules, player locks and Summon limits, which the profile does not read; they only
#: hold a place in the list, whose indexes the ``basis`` lists give).  ``tests/test_fast_paths.py``
#: checks, by recording every attribute :func:`build_profile` asks of the conditions and of the
#: frame, that it reads nothing else.  A condition of a class not listed here (a subclass) makes
#: the profile be built afresh.
_READS: dict[type, tuple[str, ...] | None] = {
    CannotNormalSummon: ("set_allowed",), CannotSpecialSummon: (), CannotSpecialSummonFrom: ("locations",),
    MustBeSpecialSummoned: ("first", "method", "named_cards", "exclusive"), SpecialSummonOnlyBy: ("summon",),
    MustFirstBeSummonedBy: ("summon",), MustBeNormalSummonedBy: (), TributesRequired: ("count", "set_allowed"),
    TributeSummonOptional: ("count", "set_allowed"), NormalSummonWithoutTributes: ("set_allowed",),
    FusionMaterialsOnly: (), RitualSummonWith: ("ritual_spell",), SummonConditionWhile: (),
    BuiltinSpecialSummon: ("locations", "exclusive", "first"), Gemini: (), AdditionalNormalSummon: (),
    SpecialSummonsItself: (),
    **{cls: None for cls in CONDITION_CLASSES.values() if cls.model_fields["kind"].default in
       ("material-line", "tribute-rule", "player-lock", "summon-limit")},
}
#: condition class -> a function of the condition's ``__dict__`` giving its part of the key
#: (:func:`_key`); ``None`` for the classes the profile does not read
_KEY_PART: dict[type, object] = {}
for _cls, _fields in _READS.items():
    if _fields is None:
        _KEY_PART[_cls] = None
    elif not _fields:
        _KEY_PART[_cls] = (lambda cls: lambda d: cls)(_cls)
    else:
        _KEY_PART[_cls] = (lambda cls, fs: lambda d: (cls, *[d[f] for f in fs]))(_cls, _fields)
_NOT_LISTED = object()

#: key (:func:`_key`) -> the profile built for it, SHARED by every card with that key (read it,
#: never change it); ``id`` -> profile of the same objects (:func:`shared`).  Bounded: the profiles
#: kept stay alive, so their ids stay theirs.
_SHARED: dict[tuple, "Profile"] = {}
_SHARED_BY_ID: dict[int, "Profile"] = {}
_SHARED_MAX = 4096  # yaml-yugi: ~850 distinct keys among ~5,100 cards with conditions a language (~4 MiB kept with their JSON)


def _key(conditions: Sequence[object], frame: Frame) -> tuple | None:
    """What the profile of ``conditions`` and ``frame`` depends on: the frame's kind, Level and
    Gemini flag, and per condition (in order: the ``basis`` lists hold indexes) its class and the
    fields :data:`_READS` lists, ``None`` for a class the profile does not read.  ``None`` (no
    key: build afresh) for a frame or a condition of a class that is not exactly one of
    :class:`Frame` / :data:`_READS`."""
    if type(frame) is not Frame:
        return None
    parts = []
    for c in conditions:
        f = _KEY_PART.get(type(c), _NOT_LISTED)
        if f is _NOT_LISTED:
            return None
        parts.append(None if f is None else f(c.__dict__))  # type: ignore[operator]
    return (frame.kind, frame.level, frame.gemini, *parts)


def shared(profile: object) -> bool:
    """Whether ``profile`` is one of the profiles :func:`build_profile` keeps and returns for every
    card alike (read-only, alive for the whole process): its derived forms (tags, JSON) may be
    kept by its ``id``."""
    return _SHARED_BY_ID.get(id(profile)) is profile


def build_profile(conditions: Sequence[object], frame: Frame) -> Profile:
    """Profile of one card from its conditions (from the text) and its frame.

    Input: the card's condition objects (any order) and its :class:`Frame`.
    Output: :class:`Profile` (for a Spell or Trap only ``card_kind`` and
    ``grants_additional_normal_summon``).  Raises nothing for any list of condition objects.
    Frame rules (*general*, SCENARIOS.md 4.3; TAGS.md): Ritual and Extra Deck monsters cannot be
    Normal Summoned or Set and must be Summoned correctly before they can be revived.

    The profile is built once per key (:func:`_key`: the frame facts and the condition fields it
    reads) and the same object is returned for every later card with that key (~5 in 6 of the cards
    with conditions in yaml-yugi): read it, never change it (:func:`shared`).
    """
    if not conditions and type(frame) is Frame:  # most cards: the key is the frame's facts alone
        got = _SHARED.get((frame.kind, frame.level, frame.gemini))
        if got is not None:
            return got
    key = _key(conditions, frame)
    if key is not None:
        got = _SHARED.get(key)
        if got is not None:
            return got
    profile = _build(conditions, frame)
    if key is not None and len(_SHARED) < _SHARED_MAX:
        _SHARED[key] = profile
        _SHARED_BY_ID[id(profile)] = profile
    return profile


def _build(conditions: Sequence[object], frame: Frame) -> Profile:
    """:func:`build_profile` without its kept profiles: a new object each call."""
    grants = any(isinstance(c, AdditionalNormalSummon) for c in conditions)
    if not frame.is_monster:
        return _profile({"card_kind": frame.kind, "grants_additional_normal_summon": grants})

    locked = frame.frame_locked
    if not conditions:
        # most cards: exactly what the general code below gives without conditions (frame only)
        t = None if locked else tributes_for_level(frame.level)
        counts = [] if t is None else [t]
        return _profile({"card_kind": frame.kind,
                         "normal_summon": _normal_summon_profile({"allowed": not locked, "set_allowed": not locked,
                                                                  "tributes": t, "summon_counts": counts,
                                                                  "set_counts": counts}),
                         "special_summon": _special_summon_profile({"revive_limit": locked}),
                         "gemini": frame.gemini, "grants_additional_normal_summon": grants})
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

    ns = _normal_summon(of, idx, frame)
    ss = _special_summon(of, idx, frame, conditions)
    return _profile({"card_kind": frame.kind, "normal_summon": ns, "special_summon": ss,
                     "gemini": frame.gemini or bool(of(Gemini)), "grants_additional_normal_summon": grants})


def _normal_summon(of, idx: dict[int, int], frame: Frame) -> NormalSummonProfile:
    """The Normal Summon part of :func:`build_profile` (sources in :class:`NormalSummonProfile`)."""
    cns = of(CannotNormalSummon)
    no_ns = frame.frame_locked or bool(cns)
    no_set = frame.frame_locked or any(not c.set_allowed for c in cns)
    req3, opt3, wot = of(TributesRequired), of(TributeSummonOptional), of(NormalSummonWithoutTributes)
    mbns, whilec = of(MustBeNormalSummonedBy), of(SummonConditionWhile)
    tributes: int | None
    alts: list[int] = []
    if req3:
        # seed 000: "prevents you from Normal Summoning or Setting this card except by Tributing 3"
        tributes = max(c.count for c in req3)
        summon, set_ = {tributes}, ({tributes} if all(c.set_allowed for c in req3) else set())
    else:
        tributes = tributes_for_level(frame.level)
        summon, set_ = ({tributes}, {tributes}) if tributes is not None else (set(), set())
        if tributes:  # "without Tributing" matters only when the Level needs Tributes
            if wot:
                alts.append(0)
            summon.update(0 for _ in wot)
            set_.update(0 for c in wot if c.set_allowed)
        if tributes is not None:
            for c in opt3:
                if c.count != tributes:
                    alts.append(c.count)
                summon.add(c.count)
                if c.set_allowed:
                    set_.add(c.count)
    allowed = not no_ns
    set_allowed = not no_set and (bool(set_) or tributes is None)
    return _normal_summon_profile({
        "allowed": allowed, "set_allowed": set_allowed, "tributes": None if no_ns and no_set else tributes,
        "alternative_tributes": sorted(set(alts)),
        "summon_counts": sorted(summon) if allowed else [], "set_counts": sorted(set_) if set_allowed else [],
        "mausoleum_allowed": not req3 and not mbns, "while_condition": bool(whilec),
        "must_be_normal_summoned_by": bool(mbns),
        "basis": [idx[id(c)] for c in (*cns, *req3, *opt3, *wot, *mbns, *whilec)]})


def _special_summon(of, idx: dict[int, int], frame: Frame, conditions: Sequence[object]) -> SpecialSummonProfile:
    """The Special Summon part of :func:`build_profile` (sources in :class:`SpecialSummonProfile`)."""
    main = frame.kind in ("main_monster", None)
    locked = frame.frame_locked
    cns = of(CannotNormalSummon)
    ssm = main and frame.kind != "ritual" and any(not c.set_allowed for c in cns)
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
        procs.append(_procedure({"locations": locs, "location_stated": bool(c.locations), "exclusive": c.exclusive,
                                 "first": c.first, "basis": idx[id(c)]}))
    only_by = sorted({c.summon for c in of(SpecialSummonOnlyBy)})
    first_by = sorted({c.summon for c in of(MustFirstBeSummonedBy)})
    proc_locs = {l for p in procs for l in p.locations}
    cannot_from = sorted({l for c in of(CannotSpecialSummonFrom) for l in c.locations} - proc_locs)
    css = of(CannotSpecialSummon)
    selfs = of(SpecialSummonsItself)
    rsw = of(RitualSummonWith)
    # "by a card effect" names no method: it limits nothing (eval README, mapping rules)
    strict = [c for c in mbss if c.method != "card-effect"]

    limit: Literal["only", "first"] | None = None
    if any(not c.first and c.exclusive for c in strict) or any(p.exclusive and not p.first for p in procs):
        limit = "only"
    elif any(c.first for c in strict) or any(p.first for p in procs):
        limit = "first"
    elif ssm:
        # a Special Summon Monster whose text marks no method as the only / first one (seed 000)
        if css and (procs or strict):
            limit = "only"  # "Cannot be Special Summoned, except by ..." with its own way
        elif procs:
            limit = "first"
        elif selfs and not mbss:
            limit = "first"  # "Cannot be Normal Summoned/Set" next to an effect that summons itself
    nomi, semi = ssm and limit == "only", ssm and limit == "first"
    ritual = bool(rsw)
    # A Pendulum Summon from the hand is not a "proper Summon" that a revival needs
    # (Mayosenju: "Cannot be Special Summoned, except by Pendulum Summon").
    revive = (locked or nomi or semi or ritual or (main and limit == "first")
              or (main and any(k != "pendulum" for k in (*only_by, *first_by))))
    return _special_summon_profile({
        "procedures": procs, "only_by": only_by, "must_first_be": first_by, "cannot_from": cannot_from,
        "cannot_special_summon": bool(css) and not procs and not mbss and not only_by,
        "special_summon_monster": ssm, "method_limit": limit, "nomi": nomi, "semi_nomi": semi, "revive_limit": revive,
        "ritual_condition": ritual, "named_cards": [n for c in mbss for n in c.named_cards],
        "self_summon_effects": sorted([idx[id(c)] for c in selfs] + demoted),
        "method_card_effect": any(c.method == "card-effect" for c in mbss),
        "fusion_materials_only": bool(of(FusionMaterialsOnly)),
        "ritual_spell": next((c.ritual_spell for c in rsw if c.ritual_spell), None),
        "basis": [idx[id(c)] for c in conditions if isinstance(c, _SS_BASIS)]})
