"""Slot values of condition objects: what a Summoning Condition says beyond its class (issue 10).

Value objects only (pydantic, frozen); no reading and no rules here.  The patterns fill them
(captures of ``patterns/<lang>/*.yaml``), :mod:`extractor.conditions` holds them as fields, and
:mod:`extractor.structure` turns them into the shape of ``../shared/eval/STRUCTURE.md``.

- :data:`Count`: ``(min, max)`` of cards; ``max`` ``None`` = "or more" ("2+": ``(2, None)``; "2":
  ``(2, 2)``; "up to 3": ``(1, 3)``).
- :class:`CostAction`: one action of a procedure's cost ("by Tributing 2 monsters"; seed 002: a
  built-in Special Summon "requires a cost ... such as Tributing, banishing or discarding").
- :class:`Requirement`: a precondition of a procedure other than its cost ("If you control no
  monsters", "while you control "Toon World"", "by having exactly 3 DARK monsters in your GY").
- :class:`MaterialLine`: the material line of an Extra Deck monster (Fusion, Synchro, Xyz, Link).
- :class:`PlayerLock`: "you cannot Special Summon monsters, except ..." (a lock on a player, not a
  condition on the card itself).

Place names are the project's (``hand``, ``deck``, ``gy``, ``banished``, ``extra``, ``field``) with
``opp-`` in front for the opponent's (``opp-field``: "a monster your opponent controls").
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Count = tuple[int, int | None]

CostActionKind = Literal["tribute", "banish", "send-to-gy", "discard", "return-to-deck", "return-to-hand",
                         "reveal", "pay-lp", "detach", "remove-counter"]
Place = Literal["hand", "deck", "gy", "banished", "extra", "field",
                "opp-hand", "opp-deck", "opp-gy", "opp-banished", "opp-extra", "opp-field"]


class _Value(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CardFilter(_Value):
    """What the cards must be: ``phrase`` (the filter as written, normalized text, e.g. "LIGHT
    Fairy monster"), and the typed parts where stated: ``attributes`` (``LIGHT`` ...), ``types``
    (monster Types: ``Dragon`` ...), ``levels`` (``(min, max)``), ``card_kinds`` (``Tuner``,
    ``Effect``, ``Spell`` ...), ``names`` (quoted card names), ``archetypes`` (quoted names used as
    an archetype: ""Fluffal" monsters"), ``face_up``; ``materials``: the card's own materials
    ("the above cards" of a contact Fusion: how many is the material line's count)."""

    phrase: str = ""
    attributes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    levels: Count | None = None
    card_kinds: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    archetypes: tuple[str, ...] = ()
    face_up: bool = False
    materials: bool = False


class CostAction(_Value):
    """One action of a cost.  ``action``; ``count``: cards (``None`` = not stated or not read:
    "all monsters you control"); ``amount``: LP for ``pay-lp`` (``None`` = "half your LP"), counters
    for ``remove-counter``, materials for ``detach``; ``places``: where the paid cards come from;
    ``filter``: what they must be."""

    action: CostActionKind
    count: Count | None = None
    amount: int | None = None
    places: tuple[Place, ...] = ()
    filter: CardFilter | None = None


class Requirement(_Value):
    """A procedure's precondition.  ``kind``: a common one typed (``control-no-monsters``,
    ``opponent-controls-monster``, ``control-card`` (a named card), ``cards-in-gy`` (a count of
    cards in a GY), ``column``) or ``other``; ``phrase``: the words (normalized text);
    ``filter``, ``count``: where the kind has them."""

    kind: Literal["control-no-monsters", "opponent-controls-monster", "control-card", "cards-in-gy",
                  "column", "other"] = "other"
    phrase: str = ""
    filter: CardFilter | None = None
    count: Count | None = None


Limit = Literal["once-per-turn", "once-per-duel"]
Position = Literal["attack", "defense"]


class MaterialLine(_Value):
    """An Extra Deck monster's materials (the first line of its text).

    ``summon``: ``fusion`` / ``synchro`` / ``xyz`` / ``link``; ``count``: all materials (Fusion, Xyz,
    Link); ``tuner`` / ``non_tuner``: Synchro counts ("1 Tuner + 1+ non-Tuner monsters": ``(1, 1)``,
    ``(1, None)``); ``level``: Xyz "Level 4" (``None`` = no Level given); ``alternative``: "You can
    also Xyz Summon this card by using ..."; ``named_materials``: materials named by card name
    (each once; archetype names do not count); ``parts``: each ``+``-separated part with its count
    and filter."""

    summon: Literal["fusion", "synchro", "xyz", "link"]
    count: Count | None = None
    tuner: Count | None = None
    non_tuner: Count | None = None
    level: int | None = None
    alternative: bool = False
    named_materials: tuple[str, ...] = ()
    parts: tuple[tuple[Count | None, CardFilter], ...] = ()


class PlayerLock(_Value):
    """A lock on a player's Summons ("you cannot Special Summon monsters, except ...",
    "Neither player can Special Summon", 自己不是「X」怪兽不能特殊召唤).  ``who``: ``you`` /
    ``opponent`` / ``both``; ``what``: ``normal-summon`` / ``special-summon`` / ``summon``;
    ``from_places``: "from the Extra Deck"; ``summon_kind``: a locked Summon kind; ``duration``:
    ``turn`` ("for the rest of this turn", "the turn you activate"), ``while`` (while face-up) or
    ``None``; ``exception``: the allowed ones ("except Dragon monsters")."""

    who: Literal["you", "opponent", "both"]
    what: Literal["normal-summon", "special-summon", "summon"] = "special-summon"
    from_places: tuple[Place, ...] = ()
    summon_kind: str | None = None
    duration: Literal["turn", "while"] | None = None
    exception: CardFilter | None = None
