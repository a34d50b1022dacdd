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

from functools import lru_cache
from typing import Callable, Literal

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
    ``count`` and ``filter``: how many and what cards the ``kind`` counts, where the text states
    them (``cards-in-gy``, ``opponent-controls-monster``, ``column``): "by having exactly 3 DARK
    monsters in your GY" is ``(3, 3)`` and DARK monsters, "3 or more" / ３体以上 ``(3, None)``, "no
    Spell/Trap Cards" / 不存在 ``(0, 0)``; a count only where a number is written ("a monster",
    有怪兽存在: one or more, ``None``).  With two typed parts they are those of ``kind`` (the first:
    "2 or more "X-Saber" monsters in your GY and control no monsters" is ``(2, None)``); when the
    phrase states two objects, or one the reading cannot place ("only Insect monsters", "3 or less
    cards"), both stay ``None``: not read, which is not "none"; ``whose``: whose cards it speaks of (``you``,
    ``opponent``, ``both``; each once, in text order; empty: it says no one's, "on the field");
    ``parts``: every typed kind the phrase states, in text order (a requirement with two typed
    parts: "If you have 2 or more "X-Saber" monsters in your GY and control no monsters" is
    ``("cards-in-gy", "control-no-monsters")``; ``kind`` is the first); empty when none is typed."""

    kind: Literal["control-no-monsters", "opponent-controls-monster", "control-card", "cards-in-gy",
                  "column", "other"] = "other"
    phrase: str = ""
    whose: tuple[Literal["you", "opponent", "both"], ...] = ()
    filter: CardFilter | None = None
    count: Count | None = None
    parts: tuple[Literal["control-no-monsters", "opponent-controls-monster", "control-card", "cards-in-gy",
                         "column"], ...] = ()


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
    """A lock on a player's Summons (issue 10 §5): "you cannot Special Summon monsters, except ...",
    "Neither player can Special Summon", 自己不是「X」怪兽不能特殊召唤.  A lock binds a PLAYER, not
    the card: seed 000 calls "Cannot be Special Summoned" "a blanket Summon Condition that forbids
    the card from being Special Summoned by any means", which is the card's own condition and never
    a lock.

    ``who``: ``you`` / ``opponent`` / ``both`` ("Neither player", 双方); ``what``:
    ``normal-summon`` (Normal / Tribute Summon or Set), ``special-summon``, ``summon`` (both: "Normal
    or Special Summon", 召唤·特殊召唤); ``from_places``: "from the Extra Deck" (从额外卡组);
    ``summon_kind``: a locked Summon kind ("you cannot Synchro Summon": ``synchro``); ``duration``:
    ``turn`` ("for the rest of this turn", "the turn you activate this card", 直到回合结束时,
    发动的回合), ``while`` ("while that Token is in the Monster Zone", 只要…存在) or ``None`` (not
    stated); ``exception``: the allowed ones ("except Dragon monsters", 不是「X」怪兽, …以外的怪兽;
    "you can only Special Summon Level 3 or higher monsters"); ``locked``: the locked ones when the
    text names them instead ("you cannot Special Summon Level 5 or higher monsters",
    自己不能特殊召唤等级5以上的怪兽); both ``None``: every monster."""

    who: Literal["you", "opponent", "both"]
    what: Literal["normal-summon", "special-summon", "summon"] = "special-summon"
    from_places: tuple[Place, ...] = ()
    summon_kind: str | None = None
    duration: Literal["turn", "while"] | None = None
    exception: CardFilter | None = None
    locked: CardFilter | None = None


# -- reading captured phrases into slot values ---------------------------------------------------
#
# The patterns (``patterns/<lang>/materials.yaml``) find a material line or a Tribute rule and
# capture its words; the pieces inside (counts, Tuner words, Levels, quoted names) are fragments of
# ``patterns/fragments/<lang>.yaml`` (``mat_count``, ``mat_plus``, ``mat_tuner``, ``mat_non_tuner``,
# ``mat_level``, ``mat_named``, ``quoted_name``, ``archetype``), each with its own examples.  The
# functions below only add the numbers up: which words a count is written with is data.
#
# Speed devices (same readings; tests/test_slot_groups_fast.py): groups are read by number
# (:func:`_num`) and every ``regex`` call passes ``concurrent=False`` positionally (no GIL release
# and retake per call; keywords cost more than they save), as ``Catalog.run`` does.

def _frag(lang: str, name: str, _cache: dict = {}):  # noqa: B006 (a cache)
    """The compiled fragment ``name`` of language family ``lang`` (``en`` / ``zh``).  Kept per
    process (:func:`_compiled` compiles it the first time)."""
    rx = _cache.get((lang, name))
    if rx is None:
        rx = _cache[(lang, name)] = _compiled(lang, name)
    return rx


#: Where the compiled fragments come from: a function ``(lang, name) -> expanded regex source``
#: set by :mod:`extractor.patterns` when it is imported (it owns the fragment files and their
#: expansion).  Set from there, not imported from here, so that this module of value objects
#: imports nothing of the project's and the imports point one way (patterns -> conditions -> slots).
fragment_source: "Callable[[str, str], str] | None" = None


def _num(lang: str, name: str, group: str, _cache: dict = {}) -> "int | str":  # noqa: B006 (a cache)
    """The number of group ``group`` of fragment ``name`` of ``lang`` (the name itself when it has
    no such group: ``Match.group`` then fails as it would by name).  A speed device: ``regex``
    reads a group NAME by first trying it as a number and formatting the TypeError that fails
    (~2,000 instructions a name); a number is read at once.  The same group."""
    key = (lang, name, group)
    n = _cache.get(key)
    if n is None:
        n = _cache[key] = _frag(lang, name).groupindex.get(group, group)
    return n


def _compiled(lang: str, name: str, _cache: dict = {}):  # noqa: B006 (a cache)
    key = (lang, name)
    rx = _cache.get(key)
    if rx is None:
        import regex

        if fragment_source is None:
            raise RuntimeError("the slot readers need the pattern catalog: import extractor.patterns first")
        rx = _cache[key] = regex.compile(fragment_source(lang, name))
    return rx


def read_count(text: str, lang: str, default: Count | None = (1, 1)) -> Count | None:
    """The count of one material part or filter phrase: the LAST match of the fragment
    ``mat_count`` in ``text`` (groups ``cmin``; ``cmore`` = "or more" / "+" / 以上; ``cmax`` = "(max.
    5)" / (最多5只)).  "2" -> ``(2, 2)``; "1+" / "1只以上" -> ``(1, None)``; "2 or more (max. 5)" ->
    ``(2, 5)``; no count -> ``default`` (a part such as ``"Elemental HERO Avian"`` is one card).
    Raises nothing."""
    last = None
    for last in _frag(lang, "mat_count").finditer(text, None, None, False, False):
        pass
    if last is None:
        return default
    lo, hi, more = last.group(_num(lang, "mat_count", "cmin"), _num(lang, "mat_count", "cmax"),
                              _num(lang, "mat_count", "cmore"))
    lo = int(lo)
    if hi:
        return (lo, int(hi))
    return (lo, None) if more else (lo, lo)


def _add(a: Count | None, b: Count | None) -> Count | None:
    if a is None:
        return b
    if b is None:
        return a
    return (a[0] + b[0], None if a[1] is None or b[1] is None else a[1] + b[1])


@lru_cache(maxsize=8192)  # (perf) filter phrases repeat (~45 % of the reads of a yaml-yugi run); the result is immutable
def read_filter(text: str, lang: str) -> CardFilter:
    """A filter phrase (one material part without its count, or what a Tribute must be) as a
    :class:`CardFilter`: ``phrase`` (stripped), ``names`` (quoted card names not followed by a
    monster word: fragment ``quoted_name``), ``archetypes`` (quoted names used as an archetype:
    fragment ``archetype``, group ``arch``), ``card_kinds`` ``Tuner`` when the phrase names a Tuner
    (fragment ``mat_tuner``).  Raises nothing.  The same (frozen) object is returned for the same
    phrase."""
    text = text.strip()
    # (names: the fragment decides; the oldest Japanese texts name Fusion Materials without quotes)
    g = _num(lang, "quoted_name", "name")
    names = tuple(dict.fromkeys(m.group(g) for m in _frag(lang, "quoted_name").finditer(text, None, None, False, False)))
    arch = ()
    if '"' in text or "「" in text:  # (a quick test: most parts quote nothing)
        g = _num(lang, "archetype", "arch")
        arch = tuple(dict.fromkeys(m.group(g) for m in _frag(lang, "archetype").finditer(text, None, None, False, False)))
    kinds = ("Tuner",) if _frag(lang, "mat_tuner").search(text, None, None, False) \
        and not _frag(lang, "mat_non_tuner").search(text, None, None, False) else ()
    return CardFilter(phrase=text, names=names, archetypes=arch, card_kinds=kinds)


@lru_cache(maxsize=4096)  # (perf) material lines repeat ("2 Level 4 monsters"); the result is immutable
def read_material_line(summon: str, text: str, lang: str, alternative: bool = False) -> MaterialLine:
    """Read a material line (normalized text of the first line of an Extra Deck monster).

    Input: ``summon`` (``fusion`` / ``synchro`` / ``xyz`` / ``link``: the pattern's reading, later
    replaced by the card's frame), the line ``text``, the language family ``lang``.  Output: a
    :class:`MaterialLine`.  The line is split at the fragment ``mat_plus`` ("+", "＋"); each part has
    a count (:func:`read_count`, default 1) and a filter (:func:`read_filter`):

    - ``count``: the sum of the parts' counts ("2+" makes the sum "or more");
    - Synchro (seed 000's "1 Tuner + 1 or more non-Tuner monsters": one Tuner part, the rest
      non-Tuner): when a part says non-Tuner (fragment ``mat_non_tuner``) it and any other such part
      are the non-Tuners and every other part is a Tuner (""X" + 1+ non-Tuner monsters": "X" is
      the Tuner); when none does, the first part is the Tuner and the others are the non-Tuner
      materials ("1 Tuner + 1+ EARTH monsters", ""Kewl Tune Reco" + 1+ Tuners"), and a single part
      "2+ Tuners" is 1 Tuner and 1+ non-Tuner materials that are Tuners too;
    - Xyz: ``level`` from the fragment ``mat_level`` (group ``lv``), ``None`` when the line gives none
      ("2 Xyz Monsters with the same Rank");
    - Fusion: ``named_materials``: the parts that are only quoted card names (fragment
      ``mat_named``), each name once.
    Raises nothing (an unreadable count counts as one card).
    """
    parts_text = [p for p in _frag(lang, "mat_plus").split(text, 0, False) if p.strip()]
    parts: list[tuple[Count | None, CardFilter]] = []
    total: Count | None = None
    tuner: Count | None = None
    non_tuner: Count | None = None
    named: list[str] = []
    marks = []
    for p in parts_text:
        c, f, mark, is_named = _read_part(p, lang)
        parts.append((c, f))
        total = _add(total, c)
        marks.append(mark)
        if is_named:
            named.extend(f.names)
    out: dict = {"summon": summon, "parts": tuple(parts)}
    if summon == "synchro":
        if "non" in marks:
            for (c, _), m in zip(parts, marks):
                if m == "non":
                    non_tuner = _add(non_tuner, c)
                else:
                    tuner = _add(tuner, c)
        elif len(parts) == 1 and parts[0][0] and parts[0][0][0] >= 2:
            # "2+ Tuners": one of them is the Tuner, the others are the non-Tuner materials
            lo, hi = parts[0][0]
            tuner, non_tuner = (1, 1), (lo - 1, None if hi is None else hi - 1)
        else:
            # no part says non-Tuner: the first part is the Tuner, the others are the non-Tuner
            # materials ("1 Tuner + 1+ EARTH monsters", ""Kewl Tune Reco" + 1+ Tuners")
            tuner = parts[0][0] if parts else None
            for c, _ in parts[1:]:
                non_tuner = _add(non_tuner, c)
        out.update(tuner=tuner, non_tuner=non_tuner)
    else:
        out["count"] = total
    if summon == "xyz":
        lv = _frag(lang, "mat_level").search(text, None, None, False)
        out["level"] = int(lv.group(_num(lang, "mat_level", "lv"))) if lv else None
        out["alternative"] = alternative
    if summon == "fusion":
        out["named_materials"] = tuple(dict.fromkeys(named))
    return _new_material_line(out)


#: dict of fields -> validated :class:`MaterialLine` (its validator called directly: the same object
#: as ``MaterialLine(**out)`` without pydantic's Python-level ``__init__``)
_new_material_line = MaterialLine.__pydantic_validator__.validate_python


@lru_cache(maxsize=4096)  # (perf) parts repeat far more than whole lines ("调整", "1 Tuner"); the result is immutable
def _read_part(part: str, lang: str) -> tuple[Count | None, CardFilter, str, bool]:
    """One ``+``-separated part of a material line, as :func:`read_material_line` reads it: its count
    (:func:`read_count`), its filter (:func:`read_filter`), its Synchro mark (``"non"``: it says
    non-Tuner, fragment ``mat_non_tuner``; ``"tuner"``: it says Tuner, fragment ``mat_tuner``;
    ``""``: neither) and whether it is only quoted card names (fragment ``mat_named``: its names are
    named materials).  A pure function of the part's words and the language, so it is kept (a
    line's parts recur across cards, and :func:`extractor.structure.fit_material_lines` reads a line
    again under the card's own Summon kind).  Raises nothing."""
    f = read_filter(part, lang)
    nt = _frag(lang, "mat_non_tuner").search(part, None, None, False) is not None
    t = not nt and _frag(lang, "mat_tuner").search(part, None, None, False) is not None
    return (read_count(part, lang), f, "non" if nt else "tuner" if t else "",
            _frag(lang, "mat_named").fullmatch(part.strip(), None, None, False) is not None)
