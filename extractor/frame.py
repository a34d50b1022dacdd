"""The card frame: what kind of card it is, read from a type line or ygopro type bits.

Frame facts add conditions by rule (TAGS.md and SCENARIOS.md §4.3): Ritual and Extra Deck
(Fusion / Synchro / Xyz / Link) monsters cannot be Normal Summoned or Set and must be Summoned
correctly before they can be revived ("frame-locked").
"""

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

FrameKind = Literal["main_monster", "ritual", "fusion", "synchro", "xyz", "link", "spell", "trap"]
EXTRA_DECK_KINDS = frozenset({"fusion", "synchro", "xyz", "link"})

# ygopro `datas.type` bits (../shared/data/README.md)
TYPE_MONSTER, TYPE_SPELL, TYPE_TRAP = 0x1, 0x2, 0x4
TYPE_NORMAL, TYPE_EFFECT, TYPE_FUSION, TYPE_RITUAL = 0x10, 0x20, 0x40, 0x80
TYPE_GEMINI, TYPE_SYNCHRO, TYPE_TOKEN, TYPE_XYZ = 0x800, 0x2000, 0x4000, 0x800000
TYPE_PENDULUM, TYPE_SPSUMMON, TYPE_LINK = 0x1000000, 0x2000000, 0x4000000
# the other documented bits (spirit, union, tuner, quick-play, continuous, equip, field, counter,
# flip, toon), the Trap Monster bit ygopro sets at run time, and EDOPro's Skill / Action cards
TYPE_TRAPMONSTER, TYPE_SKILL, TYPE_ACTION = 0x100, 0x8000000, 0x10000000
KNOWN_TYPE_BITS = (
    TYPE_MONSTER | TYPE_SPELL | TYPE_TRAP | TYPE_NORMAL | TYPE_EFFECT | TYPE_FUSION | TYPE_RITUAL
    | TYPE_TRAPMONSTER | 0x200 | 0x400 | TYPE_GEMINI | 0x1000 | TYPE_SYNCHRO | TYPE_TOKEN
    | 0x10000 | 0x20000 | 0x40000 | 0x80000 | 0x100000 | 0x200000 | 0x400000 | TYPE_XYZ
    | TYPE_PENDULUM | TYPE_SPSUMMON | TYPE_LINK | TYPE_SKILL | TYPE_ACTION)


def cdb_type_problem(type_bits: int) -> str | None:
    """Why ``type_bits`` cannot be the ``datas.type`` of a card, or ``None`` when it can.

    Input: a ygopro ``datas.type`` value (int).  Output: a message such as ``"type -1 is
    negative: no card has it"``, ``"type 0xffffffff has bits no card has (0xe0008008)"``,
    ``"type 0x6 is both Spell and Trap"``, ``"type 0x40 is not a Monster, Spell or Trap"``;
    ``None`` for a possible type.  The bits are those of ../shared/data/README.md ("type bits"),
    plus 0x100 (Trap Monster) and EDOPro's Skill (0x8000000) and Action (0x10000000) cards, which
    are the only cards that are none of Monster, Spell and Trap.  Raises nothing.
    """
    if type_bits < 0:
        return f"type {type_bits} is negative: no card has it"
    unknown = type_bits & ~KNOWN_TYPE_BITS
    if unknown:
        return f"type {type_bits:#x} has bits no card has ({unknown:#x})"
    kinds = [k for bit, k in ((TYPE_MONSTER, "Monster"), (TYPE_SPELL, "Spell"), (TYPE_TRAP, "Trap")) if type_bits & bit]
    if len(kinds) > 1:
        return f"type {type_bits:#x} is both {' and '.join(kinds)}"
    if not kinds and not type_bits & (TYPE_SKILL | TYPE_ACTION):
        return f"type {type_bits:#x} is not a Monster, Spell or Trap"
    return None


class Frame(BaseModel):
    """A card's frame.

    kind: ``main_monster`` (any Main Deck monster that is not a Ritual), ``ritual``, ``fusion``,
        ``synchro``, ``xyz``, ``link``, ``spell``, ``trap``; ``None`` when unknown.
    level: Level (Rank for Xyz, Link Rating for Link); ``None`` when unknown.
    pendulum, gemini, normal: type-line flags (``normal`` = a Normal Monster, no effect).
    """

    model_config = ConfigDict(frozen=True)
    kind: FrameKind | None = None
    level: int | None = None
    pendulum: bool = False
    gemini: bool = False
    normal: bool = False

    @property
    def is_monster(self) -> bool:
        """True for monster frames, and for an unknown frame (text is then the only evidence)."""
        return self.kind not in ("spell", "trap")

    @property
    def extra_deck(self) -> bool:
        return self.kind in EXTRA_DECK_KINDS

    @property
    def frame_locked(self) -> bool:
        """Ritual or Extra Deck monster: cannot be Normal Summoned/Set, revive limit by rule."""
        return self.kind in EXTRA_DECK_KINDS or self.kind == "ritual"

    # -- constructors -----------------------------------------------------------------------
    @classmethod
    def from_type_line(cls, type_line: str | None, level: int | None = None,
                       card_type: str | None = None) -> "Frame":
        """From a type line such as ``"Dragon / Synchro / Effect"`` or a YGOPRODeck ``type`` such
        as ``"Synchro Pendulum Effect Monster"`` / ``"Spell Card"``.  ``card_type`` is yaml-yugi's
        ``Monster``/``Spell``/``Trap``.  Unknown words are ignored.  Frames are immutable, so equal
        arguments share one cached object."""
        try:
            return _frame_from_type_line(cls, type_line, level, card_type)
        except TypeError:  # unhashable input (malformed record): no caching
            return cls._build_from_type_line(type_line, level, card_type)

    @classmethod
    def _build_from_type_line(cls, type_line: str | None, level: int | None, card_type: str | None) -> "Frame":
        words = set((type_line or "").replace("/", " ").replace("-", " ").lower().split())
        ct = (card_type or "").lower()
        if ct == "spell" or "spell" in words:
            return cls(kind="spell")
        if ct == "trap" or "trap" in words:
            return cls(kind="trap")
        if not words and not ct:
            return cls(kind=None, level=level)
        kind: FrameKind = "main_monster"
        for k in ("fusion", "synchro", "xyz", "link", "ritual"):
            if k in words:
                kind = k  # type: ignore[assignment]
                break
        return cls(kind=kind, level=level, pendulum="pendulum" in words, gemini="gemini" in words,
                   normal="normal" in words and "effect" not in words)

    @classmethod
    def from_cdb(cls, type_bits: int, level_field: int | None) -> "Frame":
        """From ygopro ``datas.type`` and ``datas.level`` (low byte = Level/Rank/Link Rating).
        A type no card can have (:func:`cdb_type_problem`: ``-1``, ``0xFFFFFFFF``, unknown bits,
        Spell and Trap at once, none of Monster / Spell / Trap) gives an unknown frame
        (``kind`` and ``level`` ``None``: the Level of such a row is not trusted either), never a
        Spell; the reader reports the problem as a warning."""
        if cdb_type_problem(type_bits):
            return cls(kind=None, level=None)
        lvl = (level_field or 0) & 0xFF
        if type_bits & TYPE_SPELL:
            return cls(kind="spell")
        if type_bits & TYPE_TRAP:
            return cls(kind="trap")
        if not type_bits & TYPE_MONSTER:
            return cls(kind=None, level=lvl)
        kind: FrameKind = "main_monster"
        for bit, k in ((TYPE_FUSION, "fusion"), (TYPE_SYNCHRO, "synchro"), (TYPE_XYZ, "xyz"),
                       (TYPE_LINK, "link"), (TYPE_RITUAL, "ritual")):
            if type_bits & bit:
                kind = k  # type: ignore[assignment]
                break
        return cls(kind=kind, level=lvl, pendulum=bool(type_bits & TYPE_PENDULUM),
                   gemini=bool(type_bits & TYPE_GEMINI),
                   normal=bool(type_bits & TYPE_NORMAL) and not type_bits & TYPE_EFFECT)


@lru_cache(maxsize=4096)
def _frame_from_type_line(cls: type[Frame], type_line: str | None, level: int | None,
                          card_type: str | None) -> Frame:
    return cls._build_from_type_line(type_line, level, card_type)
