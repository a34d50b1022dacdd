"""Condition objects: the Summoning Conditions a card's text states about the card itself.

One pydantic class per condition kind of seed 000 (``000_2cce58483c21c2ec.txt``) and seed 002
(``002_e557eadf37fb9071.txt``).  Every condition carries where it came from: ``span`` (character
offsets ``[start, end)`` into the ORIGINAL card text), ``phrase`` (that original text),
``pattern_id`` (the catalog pattern that matched) and ``lang``.

:data:`Condition` is the discriminated union of all kinds (discriminator ``kind``); use
:data:`ConditionAdapter` to validate a dict into the right class.

Readings
--------
Some fields say how a statement was worded, as far as its meaning depends on it: whether a
procedure states a situation, whether its "only" rests on a bare 才能, whether older English
"can only be Special Summoned" was used.  They are set when the text is read, never later from
``phrase`` or ``lang``: by the pattern's ``yields`` (a fixed value for every match of that
pattern) or, where one pattern covers both wordings, by a *reading* of that language
(``patterns/terms/readings-<lang>.yaml``, :func:`readings`): a regex tested on the matched phrase
when the condition is built.  A value given explicitly (``yields``, a JSON round trip) wins.
"""

from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal, Union

import regex
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .slots import CostAction, Limit, Position, Requirement

Location = Literal["hand", "deck", "gy", "banished", "extra", "field"]
SummonKind = Literal["fusion", "synchro", "xyz", "link", "ritual", "pendulum"]
Method = Literal["own-procedure", "named-card", "card-effect", "own-effect", "fusion", "synchro",
                 "xyz", "link", "ritual", "pendulum"]

LOCATIONS: tuple[str, ...] = ("hand", "deck", "gy", "banished", "extra", "field")
SUMMON_KINDS: tuple[str, ...] = ("fusion", "synchro", "xyz", "link", "ritual", "pendulum")


@dataclass(frozen=True)
class Reading:
    """One reading of a language: ``field`` of the condition kinds ``kinds`` is true when
    ``regex`` finds something in the matched phrase and ``unless`` (if any) finds nothing.

    ``means`` / ``seed``: what the field says and the seed sentence (or the pattern of real pairs)
    it rests on.  ``examples_match`` / ``examples_no_match``: phrases for which the field must be
    true / false (every one runs as a test, ``tests/test_validate.py``).
    """

    field: str
    kinds: tuple[str, ...]
    regex: "regex.Pattern[str]"
    unless: "regex.Pattern[str] | None" = None
    means: str = ""
    seed: str = ""
    examples_match: tuple[str, ...] = ()
    examples_no_match: tuple[str, ...] = ()

    def read(self, phrase: str) -> bool:
        """Whether ``phrase`` (original text of a match) has this reading."""
        return self.regex.search(phrase) is not None and (self.unless is None or self.unless.search(phrase) is None)


class ReadingError(ValueError):
    """A readings file is malformed (the message names the file and the entry)."""


@lru_cache(maxsize=8)
def readings(fam: str) -> tuple[Reading, ...]:
    """The readings of language family ``fam`` (``en``, ``zh``) from
    ``patterns/terms/readings-<fam>.yaml``; an empty tuple when there is no such file.

    File format: ``language`` and a list ``readings`` of ``{field, kinds, regex, unless, means,
    seed, examples: {match, no_match}}``; ``field`` must be a boolean field of every kind listed.

    Raises:
        ReadingError: the file is malformed, a regex does not compile, or a field is unknown.
    """
    from .normalize.common import PATTERNS_DIR, load_yaml

    path = PATTERNS_DIR.joinpath("terms", f"readings-{fam}.yaml")
    if not path.is_file():
        return ()
    where = f"patterns/terms/readings-{fam}.yaml"
    return parse_readings(load_yaml(path, invalid=ReadingError, where=where) or {}, where)


def parse_readings(doc: Any, where: str) -> tuple[Reading, ...]:
    """The readings of one parsed readings file (see :func:`readings`); ``where`` names it in
    errors.

    Raises:
        ReadingError: an entry without ``field`` / ``kinds`` / ``seed`` / examples, a field that is not a boolean field
            of a kind, a missing or bad regex (the message names ``where`` and the field).
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("readings"), list):
        raise ReadingError(f"{where}: needs a list 'readings'")
    out = []
    for i, d in enumerate(doc["readings"]):
        if not isinstance(d, dict):
            raise ReadingError(f"{where}: reading #{i + 1} is not a mapping")
        fld, kinds = d.get("field"), tuple(d.get("kinds") or ())
        if not fld or not kinds:
            raise ReadingError(f"{where}: reading #{i + 1} needs 'field' and 'kinds'")
        for k in kinds:
            cls = CONDITION_CLASSES.get(k)
            if cls is None or cls.model_fields.get(fld) is None or cls.model_fields[fld].annotation not in (bool, "bool"):
                raise ReadingError(f"{where}: reading {fld!r}: {k!r} has no boolean field {fld!r}")
        try:
            rx = regex.compile(d["regex"])
            unless = regex.compile(d["unless"]) if d.get("unless") else None
        except (KeyError, regex.error) as e:
            raise ReadingError(f"{where}: reading {fld!r}: bad or missing regex ({e})") from e
        ex = d.get("examples") or {}
        if not ex.get("match") or not ex.get("no_match") or not d.get("seed"):
            raise ReadingError(f"{where}: reading {fld!r}: needs 'seed' and examples (match and no_match)")
        out.append(Reading(fld, kinds, rx, unless, d.get("means", ""), d.get("seed", ""),
                           tuple(ex.get("match") or ()), tuple(ex.get("no_match") or ())))
    return tuple(out)


def _apply_readings(kind: str, data: Any) -> Any:
    """``data`` (the keyword arguments of a condition) with every reading of its language for
    ``kind`` filled in, unless given explicitly."""
    if not isinstance(data, dict) or not data.get("phrase") or not data.get("lang"):
        return data
    rs = [r for r in readings(data["lang"]) if kind in r.kinds and r.field not in data]
    if not rs:
        return data
    return {**data, **{r.field: r.read(data["phrase"]) for r in rs}}


class _Base(BaseModel):
    """Fields every condition has.

    span: ``[start, end]`` character offsets into the original text (end exclusive).
    phrase: the original text of that span.
    pattern_id: id of the ``patterns/`` entry that produced it.
    lang: ``en``, ``zh`` (Simplified or Traditional input) or ``ja``.
    source: which text the span indexes: the card ``text`` or its separate ``pendulum_effect``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    span: tuple[int, int]
    phrase: str = ""
    pattern_id: str
    lang: str
    source: Literal["text", "pendulum_effect"] = "text"


class CannotNormalSummon(_Base):
    """"Cannot be Normal Summoned/Set." (``set_allowed`` false) or "Cannot be Normal Summoned."
    with Set still allowed (``set_allowed`` true).  Seed 000, "Normal Summoning Conditions":
    "Cannot be Normal Summoned or Set." / "Slightly different to the first condition, a monster
    can still be Set face-down with this limitation."
    """

    kind: Literal["cannot-normal-summon"] = "cannot-normal-summon"
    set_allowed: bool = False


class CannotSpecialSummon(_Base):
    """"Cannot be Special Summoned." Seed 000: "a blanket Summon Condition that forbids the card
    from being Special Summoned by any means"."""

    kind: Literal["cannot-special-summon"] = "cannot-special-summon"


class CannotSpecialSummonFrom(_Base):
    """"Cannot be Special Summoned from the GY/Deck/..." Seed 000: "Cannot be Special Summoned
    from the Graveyard. A less limiting restriction than the one above." ``locations`` lists the
    forbidden locations."""

    kind: Literal["cannot-special-summon-from"] = "cannot-special-summon-from"
    locations: tuple[Location, ...]


class MustBeSpecialSummoned(_Base):
    """"Must be (first) Special Summoned by ..." (seed 000).

    first: "Must first be ..." (Semi-Nomi: afterwards it can be revived) vs "Must be ..."
        without "first" (Nomi: "cannot be Special Summoned by other ways").
    method: ``own-procedure`` (a built-in procedure: Tributing, banishing, having ...),
        ``named-card`` (the effect of a quoted card, of an archetype's card or of a kind of
        monster: "with the effect of a "Drytron" card", "by a Wyrm monster's effect"),
        ``own-effect`` ("by its own effect", "by the following effect"),
        ``card-effect`` ("by a card effect": neither Nomi nor Semi-Nomi).
    named_cards: card names quoted as the method.
    exclusive: the text says it cannot be Special Summoned any other way (Nomi).
    """

    kind: Literal["must-be-special-summoned"] = "must-be-special-summoned"
    first: bool = False
    method: Method = "own-procedure"
    named_cards: tuple[str, ...] = ()
    exclusive: bool = True


class SpecialSummonOnlyBy(_Base):
    """"Cannot be Special Summoned except by Fusion Summon" / "Must be Fusion Summoned" (seed 000,
    Fusion Summoning Conditions: "even if you Fusion Summon the card correctly first, you cannot
    Special Summon it again afterward")."""

    kind: Literal["special-summon-only-by"] = "special-summon-only-by"
    summon: SummonKind


class MustFirstBeSummonedBy(_Base):
    """"Must first be Fusion Summoned" / "Must first be Xyz Summoned": the card must be Summoned
    correctly by that Summon before other Special Summons (seed 000, "Must be (first) Special
    Summoned by...")."""

    kind: Literal["must-first-be-summoned-by"] = "must-first-be-summoned-by"
    summon: SummonKind


class MustBeNormalSummonedBy(_Base):
    """"Must be Normal Summoned or Set by [...] and cannot be Normal Summoned or Set by other
    ways" (seed 000)."""

    kind: Literal["must-be-normal-summoned-by"] = "must-be-normal-summoned-by"


class TributesRequired(_Base):
    """"To Tribute Summon this card, you must Tribute 3 monsters" (seed 000): the only allowed
    Tribute count; "Mausoleum of the Emperor" cannot be used.  ``set_allowed`` is false when the
    text forbids a Set ("cannot be Normal Set", Chinese 召唤 alone)."""

    kind: Literal["tributes-required"] = "tributes-required"
    count: int = 3
    set_allowed: bool = True


class TributeSummonOptional(_Base):
    """"If you Tribute Summon this card by Tributing 3 monsters..." / "You can Tribute 3 monsters
    to Tribute Summon (but not Set) this card" (seed 000): 3 becomes an extra allowed count."""

    kind: Literal["tribute-summon-optional"] = "tribute-summon-optional"
    count: int = 3
    set_allowed: bool = False


class NormalSummonWithoutTributes(_Base):
    """"You can Normal Summon this card without Tributing" (seed 000, "You can Tribute Summon
    this card without Tributes..."); ``set_allowed`` when the wording says "Summon/Set" or
    Chinese 通常召唤."""

    kind: Literal["normal-summon-without-tributes"] = "normal-summon-without-tributes"
    set_allowed: bool = False


class FusionMaterialsOnly(_Base):
    """"A Fusion Summon of this card can only be conducted with the above Fusion Material
    Monsters" (seed 000): no Fusion Substitutes."""

    kind: Literal["fusion-materials-only"] = "fusion-materials-only"


class RitualSummonWith(_Base):
    """"Must be Ritual Summoned with [Ritual Spell Card name]" / "You can Ritual Summon this card
    with "X"" (seed 000, Ritual Summoning Conditions).  ``ritual_spell`` is the quoted name."""

    kind: Literal["ritual-summon-with"] = "ritual-summon-with"
    ritual_spell: str | None = None


class SummonConditionWhile(_Base):
    """Guardian style: "Must be Normal Summoned, Flip Summoned, or Special Summoned if/when..."
    (seed 000, Common Summoning Conditions) or "Cannot be Normal Summoned unless you control..."."""

    kind: Literal["summon-condition-while"] = "summon-condition-while"


class BuiltinSpecialSummon(_Base):
    """A built-in (inherent) Special Summon procedure that starts no Chain (seed 002: "These
    happen when the monster has a Condition that Special Summons itself without starting a
    chain").  ``locations``: where it Special Summons from; empty when the text names none, and
    then the hand (Main Deck) or the Extra Deck applies (seed 002: "Cards that do not specify
    the location ... are always Special Summoned from the hand").  ``exclusive``: the text marks
    it as the only way (Nomi); ``first``: "Must first be ..." (Semi-Nomi).

    The rest of the procedure sentence (issue 10 §1; filled by the capture converters of
    :mod:`extractor.patterns` from the language's fragments):

    - ``cost``: what is paid, in text order (seed 002: "requires a cost ... such as Tributing,
      banishing or discarding"); empty = nothing is paid ("If you control no monsters, you can
      Special Summon this card (from your hand)").
    - ``requirement``: a precondition other than the cost ("If you control no monsters", "while
      you control "Toon World"", "by having exactly 3 DARK monsters in your GY"); ``None``: none.
    - ``limit``: "You can only Special Summon "X" once per turn (this way)" -> ``once-per-turn``,
      "... once per Duel this way" -> ``once-per-duel``.
    - ``to_opponent_field``: "Special Summon this card to your opponent's field".
    - ``position``: a forced position ("in Defense Position"), ``None`` = not forced.
    - ``zone_restricted``: "to your zone a Link Monster points to", "in that column", "to your
      center Main Monster Zone".
    How it was worded, where the meaning depends on it (set when read: ``yields`` or a reading
    of the language, see the module docstring):

    either: older English "This card can only be Special Summoned (from ...) by / while ...":
        read as Semi-Nomi (``first``, SCENARIOS 4.2), but the words say "only" and Konami printed
        them for Nomi and Semi-Nomi cards alike, so against another text it decides neither way.
    extra_deck_first: the text says it can be Special Summoned only FROM THE EXTRA DECK this way
        (Chinese 从额外卡组仅可…特殊召唤): how "Must first be Special Summoned (from your Extra
        Deck) by ..." is translated, while the Nomi "Must be Special Summoned (from your Extra
        Deck) by ..." names no location (仅可在…的情况下特殊召唤).  False for a lead sentence over
        a list (…及以下方法特殊召唤: "Must be either ...", exclusive).
    weak: the "only" rests on a bare "can only when" (Chinese …的场合才能特殊召唤 with no 仅 / 只 /
        必须), worded as often for "can when <situation>" (a Semi-Nomi) as for "only this way".
    situation: the procedure sentence states a situation the card needs (Chinese 自己场上有「X」
        存在的场合…), which English writes as a separate "Cannot be Special Summoned unless you
        control ..." (a summon-condition-while).
    """

    kind: Literal["builtin-special-summon"] = "builtin-special-summon"
    locations: tuple[Location, ...] = ()
    exclusive: bool = False
    first: bool = False
    cost: tuple[CostAction, ...] = ()
    requirement: Requirement | None = None
    limit: Limit | None = None
    to_opponent_field: bool = False
    position: Position | None = None
    zone_restricted: bool = False
    either: bool = False
    extra_deck_first: bool = False
    weak: bool = False
    situation: bool = False

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        return _apply_readings("builtin-special-summon", data)


class SpecialSummonsItself(_Base):
    """An effect of the card that Special Summons the card itself ("...: You can Special Summon
    this card from your hand", older "When ..., you can Special Summon this card").  Not a
    built-in procedure: it starts a Chain (seed 002, "some monsters have effects that Special
    Summon themselves but are not considered Built-In Special Summons").  ``locations``: where
    from, when stated.  With "Cannot be Normal Summoned/Set" and no stated method, the card is a
    Semi-Nomi (eval README mapping rules: Synchro Magnet).  ``trigger``: the words before the
    colon ("If a monster is Tributed or banished"), ``None`` when the text gives none (an older
    "you can ... to Special Summon this card" or an ignition effect with no condition);
    ``cost``: what is paid before the Summon (the part between the colon and the semicolon,
    "You can Tribute 1 DARK monster to ..."), in the shape of a procedure's cost."""

    kind: Literal["special-summons-itself"] = "special-summons-itself"
    locations: tuple[Location, ...] = ()
    trigger: str | None = None
    cost: tuple[CostAction, ...] = ()


class Gemini(_Base):
    """Gemini reminder text: "This card is treated as a Normal Monster while face-up on the field
    or in the GY. While this card is face-up on the field, you can Normal Summon it to have it
    become an Effect Monster" (seed 004, Gemini Summon)."""

    kind: Literal["gemini"] = "gemini"


class AdditionalNormalSummon(_Base):
    """An effect that changes the Normal Summon count (seed 004, the three kinds):
    ``set-limit`` (the limit becomes a number), ``additional`` (one more Normal Summon),
    ``immediate`` (performs a Normal Summon outside the limit)."""

    kind: Literal["additional-normal-summon"] = "additional-normal-summon"
    effect: Literal["set-limit", "additional", "immediate"] = "additional"


#: the kinds above; the slot-carrying kinds, the player lock and the Summon limit follow below, and
#: :data:`Condition` (the union of all) is built after the last of them
_BASE_KINDS = (CannotNormalSummon, CannotSpecialSummon, CannotSpecialSummonFrom, MustBeSpecialSummoned,
               SpecialSummonOnlyBy, MustFirstBeSummonedBy, MustBeNormalSummonedBy, TributesRequired,
               TributeSummonOptional, NormalSummonWithoutTributes, FusionMaterialsOnly, RitualSummonWith,
               SummonConditionWhile, BuiltinSpecialSummon, Gemini, AdditionalNormalSummon,
               SpecialSummonsItself)


# -- slot-carrying conditions (issue 10) ---------------------------------------------------------

from pydantic import model_validator  # noqa: E402

from . import slots  # noqa: E402


class MaterialLineCondition(_Base):
    """The material line of an Extra Deck monster (its first line): "1 Tuner + 1+ non-Tuner
    monsters", "2 Level 4 monsters", ""Elemental HERO Avian" + "Elemental HERO Burstinatrix"",
    调整+调整以外的怪兽1只以上, 4星怪兽×2.  Seed 000, Fusion Summoning Conditions: a Fusion Monster
    is Summoned with "the above Fusion Material Monsters"; Xyz: "You can also Xyz Summon this card
    by using ..." is the ``alternative`` flag of the Xyz line.

    ``line``: the :class:`extractor.slots.MaterialLine`.  A pattern gives ``summon`` (its reading
    of the line; the pipeline replaces it by the card's frame), ``line_text`` (the words of the
    line, read by :func:`extractor.slots.read_material_line`) and ``alternative``; a pattern that
    only reads the Xyz alternative gives no ``line_text``.  Only read on Extra Deck monsters (and
    on cards of unknown frame).
    """

    kind: Literal["material-line"] = "material-line"
    line: slots.MaterialLine

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data):
        if isinstance(data, dict) and "line" not in data and "summon" in data:
            data = dict(data)
            summon = data.pop("summon")
            text = data.pop("line_text", None)
            alt = bool(data.pop("alternative", False))
            if text is None:
                data["line"] = slots.MaterialLine(summon=summon, alternative=alt)
            else:
                data["line"] = slots.read_material_line(summon, text, data.get("lang", "en"), alt)
        return data


class TributeRule(_Base):
    """A Tribute rule with a count and what must be Tributed (seed 000, Normal Summoning
    Conditions: "Must be Normal Summoned/Set by [...] and cannot be Normal Summoned or Set by
    other ways"; Summon Monster Effects: "the few monsters that require specific monster(s) as
    Tribute(s)").  ``mode``: ``optional`` ("You can Tribute Summon this card by Tributing 1
    Dinosaur monster": an extra way) or ``required`` ("can only be Normal Summoned/Set by Tributing
    1 "Flamvell" monster", "Must be Normal Summoned/Set by Tributing N ..."); ``count``: Tributes
    (``None``: not stated, "any number"); ``filter``: what they must be.

    Kept apart from ``tributes-required`` / ``tribute-summon-optional`` (the 3-Tribute rules the
    profile reads): the profile does not read this kind, so the Tribute counts of the profile and
    the tags are unchanged.  A pattern gives ``filter_text`` (read by
    :func:`extractor.slots.read_filter`).
    """

    kind: Literal["tribute-rule"] = "tribute-rule"
    mode: Literal["optional", "required"] = "optional"
    count: int | None = None
    filter: slots.CardFilter | None = None

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data):
        if isinstance(data, dict) and "filter_text" in data:
            data = dict(data)
            text = data.pop("filter_text")
            data["filter"] = None if text is None else slots.read_filter(text, data.get("lang", "en"))
        return data




class PlayerLockCondition(_Base):
    """A lock on a player's Summons read as an object of its own (issue 10 §5): "you cannot
    Special Summon monsters, except "X" monsters", "Neither player can Special Summon monsters",
    "the turn you activate this card, you cannot Special Summon from the Extra Deck", 自己不是「X」
    怪兽不能特殊召唤, 这个回合，自己不能从额外卡组特殊召唤…以外的怪兽, 双方不能特殊召唤.

    NOT a Summoning Condition on the card: seed 000's "Cannot be Special Summoned" is "a blanket
    Summon Condition that forbids the card from being Special Summoned by any means" (the card),
    while a lock binds a player, mostly for a turn, as part of an effect.  The profile, the tags and
    the structure view do not read this kind; ``validate`` compares it only where one side's
    card condition is the other side's lock (rule ``card-condition-or-player-lock``: a ``scope``
    difference).

    ``lock``: the :class:`extractor.slots.PlayerLock`.  A pattern gives the flat fields ``who``,
    ``what`` (names of the groups of the fragments ``lock_who`` / ``lock_what``, read ``as:
    choice:...``), ``from_places``, ``summon_kind``, ``duration`` (fragment ``lock_duration``) and
    the words ``exception_text`` / ``locked_text`` (read by :func:`extractor.slots.read_filter`);
    the validator builds the lock from them.

    Raises:
        pydantic.ValidationError: ``who`` missing or any value outside the
            :class:`extractor.slots.PlayerLock` literals (the pattern's captures are wrong).
    """

    kind: Literal["player-lock"] = "player-lock"
    lock: slots.PlayerLock

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data):
        if isinstance(data, dict) and "lock" not in data and "who" in data:
            data = dict(data)
            args = (data.get("lang", "en"), data.pop("who"), *[data.pop(f, None) for f in _LOCK_ARGS])
            try:
                data["lock"] = _player_lock(*args)
            except TypeError:  # a value that cannot be a key (a list of places): built without the cache
                data["lock"] = _player_lock.__wrapped__(*args)
        return data


#: the flat fields of a player-lock pattern after ``who``, in :func:`_player_lock`'s order
_LOCK_ARGS = ("what", "from_places", "summon_kind", "duration", "exception_text", "locked_text")


@lru_cache(maxsize=4096)  # (perf) locks repeat (~40 distinct in 100 of a yaml-yugi run); the lock is immutable
def _player_lock(lang: str, who, what, from_places, summon_kind, duration, exception_text, locked_text) -> slots.PlayerLock:
    """The :class:`extractor.slots.PlayerLock` of a player-lock pattern's flat fields (``None``: not
    given, the lock's default); ``exception_text`` / ``locked_text`` read by
    :func:`extractor.slots.read_filter` unless blank.  Raises pydantic.ValidationError (a value
    outside the lock's literals)."""
    lock: dict = {"who": who}
    for f, v in (("what", what), ("from_places", from_places), ("summon_kind", summon_kind), ("duration", duration)):
        if v is not None:
            lock[f] = v
    for key, text in (("exception", exception_text), ("locked", locked_text)):
        if text is not None and text.strip():
            lock[key] = slots.read_filter(text, lang)
    return slots.PlayerLock(**lock)




class SummonLimit(_Base):
    """The card-wide Summon limit of a card's name: "You can only Special Summon "X" once per turn",
    "You can only Link Summon "X" once per turn", 「X」1回合只能特殊召唤1次 / 自己1回合仅可特殊召唤1次“X”,
    自分は「X」を１ターンに１度しか特殊召喚できない (issue 10 §1 "limit", issue 11 §1
    「～は１ターンに１度しかできない」).

    It limits how often cards of this NAME are Summoned that way by a player, by any method, and
    holds even while the card's effects are negated (the engine's card scripts state it as
    SetSPSummonOnce, not as an effect): a condition on the card's Summons (seed 000: "Summoning
    Conditions refer to specific conditions that must exist before certain monsters can be
    Summoned").  Not the limit of one procedure ("... once per turn this way",
    この方法による特殊召喚は…, 这个方法的特殊召唤…: the procedure's ``limit``), not a limit on an
    effect ("You can only use this effect of "X" once per turn") and not a player lock ("you can
    only Special Summon monsters ...").  Only the card's own name counts: a limit that names
    another card is dropped by :func:`own_summon_limits` when the card's name is known.

    ``summon``: which Summon is limited (``special``, or a Summon kind: ``link``, ``synchro`` ...);
    ``limit``: ``once-per-turn`` or ``once-per-duel``; ``name``: the card name as written (without
    its quotes).  A pattern may give ``per_duel`` (the "once per Duel" group matched) instead of
    ``limit``.  The profile, the tags and the structure view do not read this kind (the structure
    keeps a procedure's own ``limit``, ../shared/eval/STRUCTURE.md ``once_per_turn``).

    Raises:
        pydantic.ValidationError: a ``summon`` or ``limit`` outside the literals (the pattern's
            captures are wrong).
    """

    kind: Literal["summon-limit"] = "summon-limit"
    summon: Literal["special", "fusion", "synchro", "xyz", "link", "ritual", "pendulum"] = "special"
    limit: Limit = "once-per-turn"
    name: str = ""

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data):
        if isinstance(data, dict) and "per_duel" in data:
            data = dict(data)
            if data.pop("per_duel") and "limit" not in data:
                data["limit"] = "once-per-duel"
        return data


_KINDS = _BASE_KINDS + (MaterialLineCondition, TributeRule, PlayerLockCondition, SummonLimit)
#: every condition kind: a discriminated union on ``kind``
Condition = Annotated[Union[_KINDS], Field(discriminator="kind")]  # type: ignore[valid-type]
ConditionAdapter: TypeAdapter[Condition] = TypeAdapter(Condition)
#: kind string -> class
CONDITION_CLASSES: dict[str, type[_Base]] = {c.model_fields["kind"].default: c for c in _KINDS}  # type: ignore[misc]


def own_summon_limits(conds: list[Any], name: str | None, lang: str) -> list[Any]:
    """``conds`` without the ``summon-limit`` conditions that name another card than the card
    itself.

    Input: the conditions of one text; ``name``: the card's own name in ``lang`` (``None`` or empty:
    unknown, every limit is kept).  Output: the conditions in their order.  The limit "You can only
    Special Summon "X" once per turn" speaks of the card when X is its own name (the engine reads it
    as the card's Summon count, SetSPSummonOnce); names are compared after the text's own
    normalization (script, width, quotes), ignoring spaces, dashes, middle dots and the plural mark
    "(s)" of current English ("You can only Special Summon "Sky Striker Ace - Kagari(s)" once per
    turn"), as
    :func:`extractor.pipeline._drop_self_named_ritual` compares them.
    """
    if not conds or not name:
        return conds
    for c in conds:  # (a loop: cheaper than any() over a generator for the usual one or two conditions)
        if c.kind == "summon-limit":
            break
    else:
        return conds
    from .normalize import normalize

    def key(s: str) -> str:
        return regex.sub(r'\(s\)|[\s・·•\-－「」"“”]', "", normalize(s, lang).text).casefold()
    own = key(name)
    return [c for c in conds if c.kind != "summon-limit" or not c.name or key(c.name) == own
            or not _another_card(c.name, name, lang)]


def _another_card(quoted: str, own: str, lang: str) -> bool:
    """Whether ``quoted`` (a name not written as the card's own name ``own``) names another card.
    No when the two are alike (``difflib`` ratio of their :func:`extractor.names.name_key` keys
    >= 0.75: an older Chinese translation writes 伊休妲姆 for today's 伊修妲姆), or when the alias
    table of older names (:mod:`extractor.names`) gives both the same passcode; yes otherwise (the
    sentence then limits another card's Summons: no condition of this card).  Raises nothing."""
    from difflib import SequenceMatcher

    from .names import alias_passcode, main_passcode, name_key

    qk, ok = name_key(quoted, lang), name_key(own, lang)
    if SequenceMatcher(None, qk, ok).ratio() >= 0.75:
        return False
    q, o = alias_passcode(qk, lang), alias_passcode(ok, lang)
    return q is None or o is None or main_passcode(q) != main_passcode(o)
