"""Validate translated card text: do two texts of the same card state the same Summoning
Conditions?

``validate(source, target, source_lang=..., target_lang=...) -> ValidationReport`` pairs the
cards of two inputs by passcode (``id``), extracts the conditions of BOTH texts with
:func:`extractor.pipeline.analyze_text` and compares them slot by slot.  Only conditions read
from the TEXT are compared: the frame (card type, database type bits) is the same on both sides
and says nothing about the translation, so frame-derived facts (profile, tags) are not used.
Wording never matters: both sides are compared as condition objects, after the normalizers
have mapped every Chinese register and script (此卡不可通常召唤 / 这张卡不能通常召唤, 祭品 /
解放, Traditional / Simplified) to one canonical form.

Comparison
----------
Every condition is first put into a *canonical view* (:func:`canonical`): a ``group`` and the
``slots`` that carry its meaning.  Conditions that say the same thing in different words share
a group, e.g. "Must be Fusion Summoned" (``special-summon-only-by``), "Must first be Fusion
Summoned" (``must-first-be-summoned-by``), "Must be Special Summoned by ..." (a built-in
procedure) and "Must be Special Summoned with "X"" all belong to ``special-summon-method``.

Slots (the ``slot`` of a ``slot-differs`` mismatch):

- ``locations``: set of hand/deck/gy/banished/extra/field (Special Summon from / cannot from);
  a procedure that names no location means the hand (Main Deck) or the Extra Deck (Extra Deck
  monster) -- seed 002: "Cards that do not specify the location ... are always Special Summoned
  from the hand" -- so an unstated location and the default one agree; an effect that Special
  Summons the card itself and names no location is not compared on locations (it works from
  wherever its trigger says the card is);
- ``method``: ``own-procedure``, ``named-card``, ``own-effect``, ``card-effect``, ``self-effect``
  (an effect that Special Summons the card itself, ``special-summons-itself``), or a Summon kind
  (``fusion``, ``ritual``, ``synchro``, ``xyz``, ``link``, ``pendulum``);
- ``first_only``: ``first`` ("Must first be ...", Semi-Nomi), ``only`` ("Must be ...", Nomi:
  no other way), ``none`` (an optional procedure, "You can Special Summon this card ...").
  ``first`` and ``none`` AGREE: Chinese (like Japanese) writes a Semi-Nomi as "这张卡不能通常召唤。
  ...的场合可以特殊召唤" -- an optional procedure next to "cannot be Normal Summoned", which is
  compared on its own -- so only ``only`` against ``first``/``none`` is a difference of meaning.
  ``either``: the older English "This card can only be Special Summoned (from ...) by / while ...",
  read as Semi-Nomi for the profile (SCENARIOS 4.2) but worded as "only" and printed by Konami
  for both; it agrees with every value.
  A Chinese procedure that STATES the Extra Deck ("此卡从额外卡组仅可...特殊召唤", "仅在...的情况下
  可从额外牌组特殊召唤": only FROM THE EXTRA DECK by ...) is read as ``first``: it is how English
  "Must first be Special Summoned (from your Extra Deck) by ..." is translated, while English
  "Must be Special Summoned (from your Extra Deck) by ..." (Nomi) is "仅可在...的情况下特殊召唤"
  with no location;
- ``count``: Tributes (tributes-required / tribute-summon-optional);
- ``set_allowed``: whether a Set is allowed (cannot-normal-summon, Tribute conditions,
  Normal Summon without Tributing);

Card names (``named_cards``, ``ritual_spell``) are not compared: they are translated.  Nor is the
sub-kind of an additional-Normal-Summon effect (an effect, not a condition on the card): only
whether the text has one.

English "Cannot be Special Summoned unless you control "X"" next to a procedure is one Chinese
procedure sentence with the situation in it (自己场上有「X」存在的场合才能特殊召唤): such a
summon-condition-while is carried by that procedure, not reported (:func:`_carried_situations`).

Within a group the conditions of the two sides are paired greedily, best slot agreement first
(ties: text order).  A source condition left unpaired is ``missing-in-target``, a target one
``extra-in-target``; a pair that differs in a slot gives one ``slot-differs`` per slot.

Severity
--------
- ``high``: a condition that decides how the card can be Summoned at all is missing or extra:
  cannot-normal-summon, cannot-special-summon, must-be-normal-summoned-by, tributes-required,
  and the Nomi-type ``special-summon-method`` conditions (``first_only`` ``first`` or ``only``:
  "Must (first) be Special Summoned ...", "Must be Fusion Summoned", ...).  Card-level:
  empty text, truncated text (except the weak "no closing punctuation" reason: low).
- ``medium``: any slot difference (except ``set_allowed``); a missing / extra
  cannot-special-summon-from, tribute-summon-optional, normal-summon-without-tributes,
  summon-condition-while, fusion-materials-only, ritual-summon-with, or optional procedure.
- ``low``: ``set_allowed`` slot differences (Chinese 通常召唤 often covers the Set where English
  writes "Normal Summoned/Set", so these are often wording, not meaning); a ``method`` difference
  between ``own-procedure``, ``own-effect`` and ``self-effect`` (procedure or effect: older Chinese
  wording often does not tell them apart); a missing / extra
  Gemini reminder or additional-Normal-Summon effect (not a condition on the card itself);
  a card present on one side only (a coverage gap, not a translation error); an only/first
  difference whose Chinese "only" rests on a bare 才能 (:func:`_weak_only`).
- Also ``low``, whatever the group: a condition on one side only that the game rules already
  impose on the card (:func:`_implied`: "Cannot be Normal Summoned/Set" on a Ritual or Extra Deck
  monster, "Must first be Ritual Summoned" next to a named Ritual Spell, a GY ban next to a Nomi,
  ...), and one whose absence is uncertain because the other side has wording about that kind of
  condition that the patterns did not read (a cue, :mod:`extractor.cues`; the mismatch then
  points at that wording on the other side).  ``min_severity`` (default ``medium``) leaves the
  low ones out; ``"low"`` shows them.

Effects are not Summoning Conditions: a self-Summon effect ("...: You can Special Summon this
card from your hand") or an additional-Normal-Summon effect found on ONE side only is not
reported unless ``include_effects`` (then ``low``); they still take part in pairing, so a
procedure one side reads as an effect is compared (``method`` differs, ``low``), not reported as
missing.

Card-level problems (``kind`` of a :class:`Mismatch` with ``slot`` ``None`` and ``side`` set)
------------------------------------------------------------------------------------------
``card-missing-in-source`` / ``card-missing-in-target`` (no card, or no text in that language,
with that passcode), ``empty-text``, ``truncated-text`` (unbalanced 「」 / brackets / quotes, or a
text that stops mid-clause; see :func:`truncation`).  A card with a missing or empty side is not
compared.  When one side is truncated, the conditions missing from it are not reported (the
truncation explains them); slot differences still are.
"""
from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Literal

import regex
from pydantic import BaseModel, Field

from .cues import unread_cue
from .frame import Frame
from .normalize import lang_family
from .patterns import Catalog, load_catalog
from .pipeline import Card, analyze_text
from .readers import guess_lang, read_cards
from .textmap import MappedText

__all__ = ["validate", "ValidationReport", "CardReport", "Mismatch", "Mark", "canonical", "truncation",
           "render_html", "MISMATCH_KINDS", "CARD_PROBLEM_KINDS"]

Severity = Literal["high", "medium", "low"]
Side = Literal["source", "target"]
Field_ = Literal["text", "pendulum_effect"]

MISMATCH_KINDS: tuple[str, ...] = ("missing-in-target", "extra-in-target", "slot-differs")
CARD_PROBLEM_KINDS: tuple[str, ...] = ("card-missing-in-source", "card-missing-in-target", "empty-text",
                                       "truncated-text")
ALL_KINDS: tuple[str, ...] = MISMATCH_KINDS + CARD_PROBLEM_KINDS


class Mismatch(BaseModel):
    """One difference between the two texts of a card.

    kind: one of :data:`MISMATCH_KINDS` (a condition) or :data:`CARD_PROBLEM_KINDS` (the card).
    slot: for ``slot-differs`` the slot that differs (``locations``, ``method``, ``first_only``,
        ``count``, ``set_allowed``, ``effect``); ``None`` otherwise.
    severity: ``high`` / ``medium`` / ``low`` (see the module docstring).
    condition: the canonical condition group (``cannot-normal-summon``, ``special-summon-method``,
        ...), ``None`` for a card-level problem.
    source_span / target_span: ``[start, end)`` character offsets into the ORIGINAL text of that
        side (the field named by ``source_in`` / ``target_in``); ``None`` when that side has
        nothing to point at.
    source_phrase / target_phrase: the original text of those spans.
    source_value / target_value: the slot values (``slot-differs``), else ``None``.
    source_in / target_in: ``text`` or ``pendulum_effect`` (which text the span indexes).
    side: for a card-level problem, the side it concerns.
    detail: a human-readable explanation.
    """

    kind: str
    slot: str | None = None
    severity: Severity
    condition: str | None = None
    source_span: tuple[int, int] | None = None
    target_span: tuple[int, int] | None = None
    source_phrase: str | None = None
    target_phrase: str | None = None
    source_value: Any = None
    target_value: Any = None
    source_in: Field_ | None = None
    target_in: Field_ | None = None
    side: Side | None = None
    detail: str = ""


class Mark(BaseModel):
    """A condition phrase to highlight: ``span`` into the original ``field`` of one side;
    ``status`` is ``ok`` (paired and equal) or the mismatch kind it takes part in."""

    span: tuple[int, int]
    field: Field_ = "text"
    condition: str
    status: str = "ok"


class CardReport(BaseModel):
    """The validation of one card (kept in the report only when it has a problem).

    id / name: passcode and the source name (the target name when the source is missing);
    mismatches: the problems found; source_text / target_text (and the Pendulum Effects when
    separate): the ORIGINAL texts (``None`` when that side is missing); source_marks /
    target_marks: every condition phrase found on each side.
    """

    id: int
    name: str = ""
    target_name: str = ""
    mismatches: list[Mismatch] = Field(default_factory=list)
    source_text: str | None = None
    target_text: str | None = None
    source_pendulum: str | None = None
    target_pendulum: str | None = None
    source_marks: list[Mark] = Field(default_factory=list)
    target_marks: list[Mark] = Field(default_factory=list)

    @property
    def kinds(self) -> list[str]:
        """Mismatch kinds of this card, in :data:`ALL_KINDS` order."""
        have = {m.kind for m in self.mismatches}
        return [k for k in ALL_KINDS if k in have]

    def output(self) -> dict[str, Any]:
        """The JSONL object of ``validate -o``: id, name, mismatches (no texts)."""
        return {"id": self.id, "name": self.name,
                "mismatches": [m.model_dump(mode="json", exclude_none=False) for m in self.mismatches]}


class ValidationReport(BaseModel):
    """The result of :func:`validate`.

    source / target: descriptions of the inputs; source_lang / target_lang.
    cards_source / cards_target: cards read with a passcode on each side.
    cards_compared: cards present with non-empty text on both sides (their conditions compared).
    cards_agreeing: compared cards with no problem at all.
    cards: every card with at least one problem (compared or not), by passcode.
    read_errors: reader errors that could not be tied to a passcode, each prefixed with its side
        (``source: line 2: not JSON (...)``).
    """

    source: str
    target: str
    source_lang: str
    target_lang: str
    cards_source: int = 0
    cards_target: int = 0
    cards_compared: int = 0
    cards_agreeing: int = 0
    cards: list[CardReport] = Field(default_factory=list)
    read_errors: list[str] = Field(default_factory=list)

    def mismatch_counts(self) -> dict[str, int]:
        """Number of mismatches per kind (every kind of :data:`ALL_KINDS` present)."""
        out = {k: 0 for k in ALL_KINDS}
        for c in self.cards:
            for m in c.mismatches:
                out[m.kind] = out.get(m.kind, 0) + 1
        return out

    def card_counts(self) -> dict[str, int]:
        """Number of cards with at least one mismatch of each kind."""
        out = {k: 0 for k in ALL_KINDS}
        for c in self.cards:
            for k in c.kinds:
                out[k] += 1
        return out

    def severity_counts(self, conditions_only: bool = False) -> dict[str, int]:
        """Mismatches per severity; ``conditions_only``: condition mismatches only (card-level
        problems left out)."""
        out = {"high": 0, "medium": 0, "low": 0}
        for c in self.cards:
            for m in c.mismatches:
                if not conditions_only or m.kind in MISMATCH_KINDS:
                    out[m.severity] += 1
        return out

    @property
    def cards_mismatching(self) -> int:
        """Compared cards with at least one condition mismatch (card-level problems aside)."""
        return sum(1 for c in self.cards if any(m.kind in MISMATCH_KINDS for m in c.mismatches))


# ----------------------------------------------------------------------------------------------
# canonical view of a condition

@dataclass(slots=True)
class View:
    """A condition in canonical form: ``group``, comparable ``slots``, and where it came from."""

    group: str
    slots: dict[str, Any]
    cond: Any

    @property
    def span(self) -> tuple[int, int]:
        return tuple(self.cond.span)  # type: ignore[return-value]

    @property
    def field(self) -> str:
        return self.cond.source


# the Extra Deck as the place of THIS Summon (not a cost: 从额外牌组将5张卡除外)
_ZH_EXTRA = regex.compile(r"[从從](?:额外|額外|融合)[卡牌][组組]中?(?:[仅僅只]|可以?|能|才能|特殊召[唤喚]|[进進]行特殊召[唤喚])")


def _first_only(first: bool, exclusive: bool) -> str:
    return "first" if first else "only" if exclusive else "none"


# older English "This card can only be Special Summoned (from ...) by / while / if ...": the project
# reads it as Semi-Nomi (SCENARIOS 4.2), but the words say "only" and Konami printed it for both;
# against another text it decides neither way (first_only "either")
_EN_CAN_ONLY = regex.compile(r"\b[Cc]an only (?:be )?Special Summoned\b|\b[Yy]ou can only Special Summon this card\b")


def canonical(cond: Any, frame: Frame | None = None) -> View:
    """The canonical :class:`View` of a condition object (see the module docstring).

    ``frame`` only picks the default location of a procedure that names none (hand for a Main
    Deck monster, Extra Deck for an Extra Deck monster, seed 002).
    """
    k = cond.kind
    known = frame is not None and frame.kind is not None
    # unknown card type (a file with no type, e.g. i18n JSON): no default, an unstated location is
    # not compared
    default_loc = (frozenset({"extra"} if frame.extra_deck else {"hand"}) if known  # type: ignore[union-attr]
                   else frozenset())
    if k == "cannot-normal-summon":
        return View(k, {"set_allowed": cond.set_allowed}, cond)
    if k == "cannot-special-summon-from":
        return View(k, {"locations": frozenset(cond.locations)}, cond)
    if k == "builtin-special-summon":
        fo = _first_only(cond.first, cond.exclusive)
        if fo == "first" and cond.lang == "en" and _EN_CAN_ONLY.search(cond.phrase):
            fo = "either"
        if (fo == "only" and cond.lang == "zh" and (frame.extra_deck if known else set(cond.locations) == {"extra"})  # type: ignore[union-attr]
                and set(cond.locations) <= {"extra"} and _ZH_EXTRA.search(cond.phrase)
                and "以下方法" not in cond.phrase):  # "仅可以融合召唤及以下方法特殊召唤。●…": "Must be either"
            fo = "first"  # 从额外卡组仅可...: only from the Extra Deck = must first be (module docstring)
        return View("special-summon-method", {
            "method": "own-procedure", "first_only": fo,
            "locations": frozenset(cond.locations) or default_loc}, cond)
    if k == "must-be-special-summoned":
        return View("special-summon-method", {
            "method": cond.method, "first_only": _first_only(cond.first, cond.exclusive)}, cond)
    if k == "special-summon-only-by":
        return View("special-summon-method", {"method": cond.summon, "first_only": "only"}, cond)
    if k == "must-first-be-summoned-by":
        return View("special-summon-method", {"method": cond.summon, "first_only": "first"}, cond)
    if k == "special-summons-itself":
        return View("special-summon-method", {
            "method": "self-effect", "first_only": "none",
            "locations": frozenset(cond.locations)}, cond)  # unstated: where the card is, unknown
    if k in ("tributes-required", "tribute-summon-optional"):
        return View(k, {"count": cond.count, "set_allowed": cond.set_allowed}, cond)
    if k == "normal-summon-without-tributes":
        return View(k, {"set_allowed": cond.set_allowed}, cond)
    if k == "additional-normal-summon":
        return View(k, {}, cond)  # an effect, not a condition: its presence is compared, not its sub-kind
    # cannot-special-summon, must-be-normal-summoned-by, fusion-materials-only,
    # ritual-summon-with (the Ritual Spell's name is translated), summon-condition-while, gemini;
    # a kind added later: its own group, the generic slots it has
    slots: dict[str, Any] = {}
    fields = type(cond).model_fields
    if "locations" in fields:
        slots["locations"] = frozenset(cond.locations) or (default_loc if k == "special-summons-itself" else frozenset())
    for f in ("method", "count", "set_allowed", "effect", "summon"):
        if f in fields:
            slots["method" if f == "summon" else f] = getattr(cond, f)
    if "first" in fields or "exclusive" in fields:
        slots["first_only"] = _first_only(getattr(cond, "first", False), getattr(cond, "exclusive", False))
    return View(k, slots, cond)


_HIGH_GROUPS = {"cannot-normal-summon", "cannot-special-summon", "must-be-normal-summoned-by",
                "tributes-required"}
_LOW_GROUPS = {"gemini", "additional-normal-summon"}


def _presence_severity(v: View) -> Severity:
    if v.cond.kind in EFFECT_KINDS:
        return "low"
    if v.group in _HIGH_GROUPS:
        return "high"
    if v.group == "special-summon-method" and v.slots.get("first_only") in ("first", "only", "either"):
        return "high"
    if v.group in _LOW_GROUPS:
        return "low"
    return "medium"


_SELF_METHODS = {"own-procedure", "own-effect", "self-effect"}
# what makes a Chinese procedure exclusive on its own: 仅 / 只 / 必须 (只有, 只能, 仅可, 僅能 ...)
_ZH_EXCLUSIVE_WORD = regex.compile(r"[仅僅只祇](?!有?[0-9０-９一二两兩三四五六七八九十])|必[须須]")  # not 只有2只: a count


def _weak_only(v: View) -> bool:
    """A Chinese procedure whose first/only reading rests on 才能 / 才可 alone ("…的场合才能特殊召唤",
    "…的场合才能从额外卡组特殊召唤"): 才能 after a situation is "can only when <situation>" as often as
    "only this way" (older and fan texts write it for the Japanese 場合に特殊召喚できる, a Semi-Nomi,
    and for 場合のみ), and with the Extra Deck stated it is read as "first" (:func:`canonical`)
    though its words say "only"; so an only/first difference that rests on it is weak evidence
    (the module docstring; compare :func:`_carried_situations`)."""
    return (v.cond.kind == "builtin-special-summon" and getattr(v.cond, "lang", "") == "zh"
            and v.slots.get("first_only") in ("only", "first") and "才" in v.cond.phrase
            and not _ZH_EXCLUSIVE_WORD.search(v.cond.phrase))


def _slot_severity(slot: str, x: Any = None, y: Any = None, a: View | None = None, b: View | None = None) -> Severity:
    if slot == "set_allowed" or (slot == "method" and x in _SELF_METHODS and y in _SELF_METHODS):
        return "low"
    if slot == "first_only" and ((a is not None and _weak_only(a)) or (b is not None and _weak_only(b))):
        return "low"
    return "medium"


def _value(v: Any) -> Any:
    if isinstance(v, frozenset):
        return sorted(v)
    return v


def _same(slot: str, x: Any, y: Any) -> bool:
    if slot == "first_only":  # "first" and "none" agree; "either" agrees with all (module docstring)
        return "either" in (x, y) or (x == "only") == (y == "only")
    if slot == "locations" and (not x or not y):  # one side states no location: nothing to compare
        return True
    return x == y


def _differing(a: View, b: View) -> list[str]:
    return [s for s in a.slots if s in b.slots and not _same(s, a.slots[s], b.slots[s])]


def _pair(src: list[View], tgt: list[View]) -> tuple[list[tuple[View, View]], list[View], list[View]]:
    """Greedy pairing within one group: fewest differing slots first, then text order."""
    cands = []
    for i, a in enumerate(src):
        for j, b in enumerate(tgt):
            cands.append((len(_differing(a, b)), abs(i - j), i, j))
    cands.sort()
    used_s: set[int] = set()
    used_t: set[int] = set()
    pairs = []
    for _, _, i, j in cands:
        if i in used_s or j in used_t:
            continue
        used_s.add(i)
        used_t.add(j)
        pairs.append((src[i], tgt[j]))
    pairs.sort(key=lambda p: (p[0].field, p[0].span))
    return (pairs, [a for i, a in enumerate(src) if i not in used_s],
            [b for j, b in enumerate(tgt) if j not in used_t])


def _either_or(a: View, b: View) -> bool:
    """Two "must be Special Summoned by" methods, one inside the other's words, are the two halves
    of an either/or ("仅可通过「X」的效果（及此卡的②效果）特殊召唤" = "except with "X" or its own
    effect"), not the same words read twice."""
    return (a.cond.kind == b.cond.kind == "must-be-special-summoned"
            and {a.slots.get("method"), b.slots.get("method")} == {"named-card", "own-effect"})


def _dedupe(views: list[View]) -> list[View]:
    """Drop a view whose span lies inside another view of the same group (the same words read
    twice, e.g. a procedure and the self-Summon inside it); the longer one stays.  The same words
    read both as a procedure and as the card's own effect ("只能在…被破坏送去墓地时才能从手卡特殊召唤":
    an event, so an effect, seed 002) count once, as the own effect."""
    keep = []
    for v in views:
        if any(o is not v and o.group == v.group and o.field == v.field and o.span != v.span
               and o.span[0] <= v.span[0] and v.span[1] <= o.span[1] and not _either_or(o, v) for o in views):
            continue
        if v.cond.kind == "builtin-special-summon" and any(
                o.field == v.field and o.span == v.span and o.cond.kind == "must-be-special-summoned"
                and o.slots.get("method") == "own-effect" for o in views):
            continue
        keep.append(v)
    return keep


#: kinds that are effects of the card, not Summoning Conditions on it (seed 002: effects that
#: Special Summon the card itself "are not considered Built-In Special Summons"; seed 004: effects
#: that change the Normal Summon count).  By default they are only used to pair a procedure read
#: as an effect on the other side; one present on one side only is not reported.
EFFECT_KINDS = frozenset({"special-summons-itself", "additional-normal-summon"})


# a Chinese procedure sentence that states a situation: 自己场上有「卡通世界」存在的场合才能特殊召唤
_ZH_SITUATION = regex.compile(r"有[^。]{1,40}?存在")
_ZH_ONLY = regex.compile(r"[仅僅只祇]")


def _carried_situations(side: list[View], other: list[View]) -> set[int]:
    """Summon-condition-while views of ``side`` that ``other`` states inside a procedure sentence.

    English writes "Cannot be Special Summoned unless you control "Toon World". Must first be
    Special Summoned (from your hand) by Tributing ..." as two sentences (a summon-condition-while
    and a procedure); Chinese writes one procedure sentence with the situation in it:
    "自己场上有「卡通世界」存在的场合才能特殊召唤（5星以上需要解放）", "自己场上有「卡通世界」存在，把自己场上2只怪兽
    解放的场合可以特殊召唤".  When ``side`` has a summon-condition-while, ``other`` has none and
    ``other`` has a Chinese built-in procedure whose phrase states a situation (有…存在), the
    while is carried by that procedure: its ids are returned (neither paired nor reported), and
    that procedure's 才能 ("only when <situation>") is the while's, not a Nomi, so its
    ``first_only`` ``only`` becomes ``none`` unless the phrase also says 仅 / 只 (then the
    exclusivity is stated on its own).  When ``side`` states no Special Summon method at all, the
    carrying procedures are returned too (the two texts say one thing).  Returns a set of
    ``id(View)``.
    """
    whiles = [v for v in side if v.group == "summon-condition-while"]
    if not whiles or any(v.group == "summon-condition-while" for v in other):
        return set()
    procs = [v for v in other if v.cond.kind == "builtin-special-summon" and getattr(v.cond, "lang", "") == "zh"
             and _ZH_SITUATION.search(v.cond.phrase)]
    if not procs:
        return set()
    for p in procs:
        if p.slots.get("first_only") == "only" and not _ZH_ONLY.search(p.cond.phrase):
            p.slots["first_only"] = "none"
    if not any(v.group == "special-summon-method" for v in side):
        # the while is all ``side`` says of the Special Summon ("This card cannot be Special Summoned
        # except while you control 2 or more "X-Saber" monsters" = 自己场上有…2只以上存在的场合才能特殊召唤):
        # the procedure sentence carries nothing more, so it is not reported either
        return {id(v) for v in whiles} | {id(p) for p in procs}
    return {id(v) for v in whiles}


_SUMMON_KINDS = frozenset({"fusion", "ritual", "synchro", "xyz", "link"})


def _implied(v: View, other: list[View], frame: Frame | None) -> str | None:
    """Why the condition ``v``, stated on one side only, is implied anyway, or ``None``.

    A condition that the game rules already impose on the card is a reminder: the other side's
    silence changes nothing, so it is wording, not meaning (severity ``low``).
    - "Cannot be Normal Summoned/Set" on a Ritual or Extra Deck monster (seed 000, "Cannot be
      Normal Summoned/Set": those monsters are never Normal Summoned), known from the frame or from
      the other side stating a Ritual Spell or a Fusion / Ritual / Synchro / Xyz / Link Summon.
    - A Ritual Spell named on one side of a Ritual Monster (seed 000: "You can Ritual Summon this
      card with "X"" says which Ritual Spell; every Ritual Monster is Ritual Summoned with one).
    - "Cannot be Special Summoned from the GY" where the other side is a Nomi ("Cannot be Special
      Summoned except by ...", "Must be Special Summoned by ...": seed 000, Nomi "cannot be Special
      Summoned by other ways", the GY included).
    - "Must first be Special Summoned by its own effect" where the other side says "Cannot be Normal
      Summoned/Set" and has an effect that Special Summons the card itself: that effect is then the
      only first way (seed 002, "Summoned correctly"; the Semi-Nomi reading of such cards).
    - "Must first be Ritual Summoned" where the other side names the Ritual Spell (seed 000, Ritual
      Summoning Conditions: "Must be Ritual Summoned with [Ritual Spell Card name] ... means that
      such a card must first be Ritual Summoned"), and "Must first be <Fusion / Synchro / Xyz /
      Link / Ritual> Summoned" on a monster of that kind (frame), or where the other side states
      that Summon ("Must be Fusion Summoned" says more, and is compared as a method).
    The frame is never evidence that one side states something; it only says what every card of
    its kind already obeys.
    """
    kinds = {o.slots.get("method") for o in other if o.group == "special-summon-method"} & _SUMMON_KINDS
    if any(o.group == "ritual-summon-with" for o in other):
        kinds.add("ritual")
    if any(o.group == "fusion-materials-only" for o in other):
        kinds.add("fusion")
    fk = frame.kind if frame is not None else None
    if v.group == "cannot-normal-summon":
        if fk in _SUMMON_KINDS:
            return f"a {fk} monster is never Normal Summoned"
        if kinds:
            return f"the other side states a {sorted(kinds)[0]} Summon"
    if v.group == "special-summon-method" and v.slots.get("first_only") == "first":
        m = v.slots.get("method")
        if m in _SUMMON_KINDS and (m == fk or m in kinds):
            return f"a {m} monster must first be {m} Summoned"
    if (v.group == "special-summon-method" and v.slots.get("method") == "own-effect"
            and v.slots.get("first_only") == "first"
            and any(o.group == "cannot-normal-summon" for o in other)
            and any(o.cond.kind == "special-summons-itself" for o in other)):
        return ("the other side cannot be Normal Summoned and Special Summons itself by its effect, which "
                "is how it must first be Special Summoned")
    if v.group == "ritual-summon-with" and (fk == "ritual" or "ritual" in kinds):
        return "a Ritual Monster is Ritual Summoned with a Ritual Spell; naming it is a reminder"
    if v.group == "cannot-special-summon-from" and any(
            o.group == "special-summon-method" and o.slots.get("first_only") == "only" for o in other):
        return "the other side allows only one way to Special Summon it (Nomi), which rules out the rest"
    return None


def compare_conditions(src: list[Any], tgt: list[Any], frame: Frame | None = None, *,
                       source_truncated: bool = False, target_truncated: bool = False,
                       include_effects: bool = False,
                       unread: "Callable[[str, str], tuple[int, int, str] | None] | None" = None,
                       ) -> tuple[list[Mismatch], list[Mark], list[Mark]]:
    """Compare two lists of condition objects (one card, two texts).

    Returns ``(mismatches, source_marks, target_marks)``.  ``source_truncated`` /
    ``target_truncated`` suppress ``extra-in-target`` / ``missing-in-target`` (the conditions
    a cut-off text lost).  ``include_effects``: also report an effect of :data:`EFFECT_KINDS`
    found on one side only (severity low).  ``unread(side, group)``: where that side has wording
    about ``group`` that was not read (:func:`extractor.cues.unread_cue`), as ``(start, end, phrase)``
    in its original text, or ``None``; a condition found on the OTHER side only is then reported
    with severity low, pointing at that wording (the absence is uncertain, not shown).
    """
    sv = _dedupe([canonical(c, frame) for c in src])
    tv = _dedupe([canonical(c, frame) for c in tgt])
    carried = _carried_situations(sv, tv) | _carried_situations(tv, sv)
    groups: list[str] = []
    for v in sv + tv:
        if v.group not in groups:
            groups.append(v.group)
    out: list[Mismatch] = []
    status: dict[int, str] = {}

    def mark_status(v: View, st: str) -> None:
        if status.get(id(v), "ok") == "ok":
            status[id(v)] = st

    for g in groups:
        pairs, only_s, only_t = _pair([v for v in sv if v.group == g and id(v) not in carried],
                                      [v for v in tv if v.group == g and id(v) not in carried])
        for a, b in pairs:
            for slot in _differing(a, b):
                out.append(Mismatch(kind="slot-differs", slot=slot, severity=_slot_severity(slot, a.slots[slot], b.slots[slot], a, b), condition=g,
                                    source_span=a.span, target_span=b.span, source_phrase=a.cond.phrase,
                                    target_phrase=b.cond.phrase, source_value=_value(a.slots[slot]),
                                    target_value=_value(b.slots[slot]), source_in=a.field, target_in=b.field,
                                    detail=f"{g}: {slot} {_value(a.slots[slot])} vs {_value(b.slots[slot])}"))
                mark_status(a, "slot-differs")
                mark_status(b, "slot-differs")
        if not include_effects:
            only_s = [a for a in only_s if a.cond.kind not in EFFECT_KINDS]
            only_t = [b for b in only_t if b.cond.kind not in EFFECT_KINDS]
        # a condition on one side only; a cut-off other side may simply have lost it
        for side, only, other_truncated in (("source", only_s, target_truncated), ("target", only_t, source_truncated)):
            if other_truncated:
                continue
            kind = "missing-in-target" if side == "source" else "extra-in-target"
            others = tv if side == "source" else sv
            other_side = "target" if side == "source" else "source"
            for v in only:
                why = _implied(v, others, frame)
                cue = None if why or unread is None else unread(other_side, g)
                extra: dict[str, Any] = {}
                detail = f"{g} stated in the {side} only"
                if why:
                    detail += f" (implied: {why})"
                elif cue:
                    extra = {f"{other_side}_span": (cue[0], cue[1]), f"{other_side}_phrase": cue[2],
                             f"{other_side}_in": "text"}
                    detail += f" (uncertain: the {other_side} has wording about it that was not read)"
                out.append(Mismatch(kind=kind, severity="low" if (why or cue) else _presence_severity(v), condition=g,
                                    detail=detail,
                                    **{f"{side}_span": v.span, f"{side}_phrase": v.cond.phrase, f"{side}_in": v.field},
                                    **extra))
                mark_status(v, kind)
    out.sort(key=lambda m: ((m.source_in or "", m.source_span or (10**9, 0)), (m.target_in or "", m.target_span or (10**9, 0))))
    smarks, tmarks = ([Mark(span=v.span, field=v.field, condition=v.group, status=status.get(id(v), "ok")) for v in vs]
                      for vs in (sv, tv))
    return out, smarks, tmarks


# ----------------------------------------------------------------------------------------------
# card-level checks

_PAIRS = (("「", "」"), ("『", "』"), ("“", "”"), ("(", ")"), ("（", "）"), ("[", "]"), ("【", "】"), ("《", "》"))
_TERMINAL = set(".。!！?？…)）」』\"”'’]】》♪～~")
_CLAUSE_INTERNAL = set(",，、:：;；(（「『“[【《-—/+＋")
_EN_DANGLING = {"the", "a", "an", "and", "or", "of", "to", "by", "from", "with", "your", "this", "that", "if",
                "in", "on", "for", "its", "their", "then", "but", "except", "when", "while", "as", "at", "you",
                "can", "cannot", "must", "be", "is", "are", "was", "will", "which", "than", "have", "has", "also"}
_ZH_DANGLING = set("的把从将和或以在对于为让被与及向使由并且而其该")
_INVISIBLE = "\u200b\u200c\u200d\ufeff \t\r\n\u3000"
_MATERIAL_HINT = regex.compile(r"[+＋×]|\b[xX]\s*\d|\d\+|^\d+ .*\bmonsters?$|怪兽\s*\d+\s*只|\d+\s*只以上|降临$|^以.*降临")


NO_FINAL_PUNCT = "no closing punctuation (possibly cut off)"


def truncation(text: str, lang: str, frame: Frame | None = None) -> str | None:
    """Why ``text`` looks cut off, or ``None`` when it looks complete.

    Truncated: an unbalanced 「」 / 『』 / “” / () / （） / [] / 【】 / 《》 pair or an odd number of
    ``"``; a last character that only occurs inside a clause (comma, colon, 、, an opening bracket);
    a last word that cannot end a sentence (English "the", "by", "from", ...; Chinese 的, 把, 从,
    将, ...); in English, a last line with no closing punctuation.  Complete: a text ending in
    closing punctuation, a quote or a bracket; a material line (the first line of an Extra Deck or
    Ritual monster, or any line with +, ×, "N monsters", 怪兽N只); a ``●`` list item.  The
    English "no closing punctuation" reason (:data:`NO_FINAL_PUNCT`) is the weakest: most such
    texts are complete sentences that lost their period (Token texts), so it is reported with
    severity ``low``; every other reason with ``high``.
    """
    t = (text or "").rstrip(_INVISIBLE)
    if not t:
        return None
    for o, c in _PAIRS:
        depth = 0
        for ch in t:
            if ch == o:
                depth += 1
            elif ch == c:
                depth -= 1
                if depth < 0:
                    break
        if depth > 0:
            return f"unbalanced {o}{c}: {depth} {o} not closed"
        if depth < 0:
            return f"unbalanced {o}{c}: {c} without {o}"
    if t.count('"') % 2:
        return 'unbalanced quotes: odd number of "'
    last = t[-1]
    if last in _TERMINAL:
        return None
    if last in _CLAUSE_INTERNAL:
        return f"ends mid-clause with {last!r}"
    fam = lang_family(lang)
    if fam == "en":
        m = regex.search(r"([A-Za-z']+)$", t)
        if m and m.group(1).lower() in _EN_DANGLING:
            return f"ends mid-clause with {m.group(1)!r}"
    elif last in _ZH_DANGLING:
        return f"ends mid-clause with {last!r}"
    lines = [ln.strip(_INVISIBLE) for ln in t.split("\n") if ln.strip(_INVISIBLE)]
    last_line = lines[-1]
    if last_line[:1] in "●・•·-":
        return None
    is_material = bool(_MATERIAL_HINT.search(last_line)) or (
        len(lines) == 1 and frame is not None and (frame.extra_deck or frame.kind == "ritual"))
    if is_material:
        return None
    if fam == "en":
        return NO_FINAL_PUNCT
    return None  # Chinese: a missing 。 alone is common in complete texts


# ----------------------------------------------------------------------------------------------
# reading

@dataclass(slots=True)
class _Side:
    cards: dict[int, Card]
    missing: dict[int, tuple[str, str]]  # id -> (name, reader message)
    errors: list[str]
    lang: str


def _guess_lang(cards: list[Card]) -> str:
    g = guess_lang(c.text for c in cards[:50])
    return "zh-CN" if g == "zh-TW" else g  # one Chinese normalizer serves both scripts


def _read_side(inp: str | Path | Iterable[Card], lang: str | None, fmt: str | None) -> _Side:
    cards: dict[int, Card] = {}
    missing: dict[int, tuple[str, str]] = {}
    errors: list[str] = []
    if isinstance(inp, (str, Path)):
        items: Iterable[Any] = read_cards(inp, lang, fmt)
    else:
        items = inp
    raw: list[Card] = []
    for it in items:
        card = it if isinstance(it, Card) else it.card
        if card is None:
            if it.id is not None:
                missing.setdefault(int(it.id), (it.name, it.error or "unreadable"))
            else:
                errors.append(it.error or "unreadable record")
            continue
        if card.id is None:
            errors.append(f"card {card.name!r}: no passcode, cannot be paired")
            continue
        raw.append(card)
    guessed = lang or (raw[0].lang if raw and not isinstance(inp, (str, Path)) else None)
    if lang is None and isinstance(inp, (str, Path)):
        g = _guess_lang(raw)
        if g != "en":  # the reader defaulted to en; the texts say otherwise
            raw = [c.model_copy(update={"lang": g}) if c.lang == "en" else c for c in raw]
        guessed = raw[0].lang if raw else g
    for c in raw:
        if c.id in cards:
            errors.append(f"card {c.id} {c.name!r}: passcode appears twice, second one ignored")
            continue
        cards[c.id] = c
    for cid in list(missing):
        if cid in cards:
            del missing[cid]
    return _Side(cards, missing, errors, guessed or "en")


def _desc(inp: Any) -> str:
    return str(inp) if isinstance(inp, (str, Path)) else "<cards>"


# ----------------------------------------------------------------------------------------------
# the public entry

def validate(source: str | Path | Iterable[Card], target: str | Path | Iterable[Card] | None = None, *,
             source_lang: str | None = None, target_lang: str | None = None,
             source_format: str | None = None, target_format: str | None = None,
             catalog: Catalog | None = None, include_missing: bool = True,
             include_effects: bool = False, min_severity: Severity = "medium") -> ValidationReport:
    """Compare the Summoning Conditions of the cards of ``source`` and ``target``.

    Input: two card inputs -- a path in any format :func:`extractor.readers.read_cards` reads, or
    an iterable of :class:`~extractor.pipeline.Card` -- or ONE multilingual file (``target``
    ``None``, e.g. yaml-yugi ``cards.jsonl``) read once per language.  ``source_lang`` /
    ``target_lang``: ``en``, ``zh-CN``, ``zh-TW``, ...; when not given for a path they are
    guessed from the texts (a JSONL record's own ``lang`` wins).  ``include_missing``: report
    cards present on one side only.  ``include_effects``: also report effects (a self-Summon
    effect, an additional Normal Summon) found on one side only (:data:`EFFECT_KINDS`).
    ``min_severity``: condition mismatches below it are left out (default ``medium``: the ``low``
    ones -- Set allowed under Chinese 通常召唤, procedure vs effect in older Chinese wording, a
    Gemini reminder or an additional-Normal-Summon effect on one side -- are often wording only;
    ``"low"`` reports everything).  Card-level problems are always reported.

    Output: a :class:`ValidationReport` (cards paired by passcode; spans are character offsets
    into the original texts).

    Raises:
        ValueError: one multilingual file without two different languages, or an unsupported
            language.
        extractor.readers.InputError: an input file cannot be read at all.
    """
    if target is None:
        if not source_lang or not target_lang or source_lang == target_lang:
            raise ValueError("one input file: give two different languages (source_lang and target_lang)")
        target = source
        target_format = target_format or source_format
    for lg in (source_lang, target_lang):
        if lg is not None:
            lang_family(lg)
    cat = catalog or load_catalog()
    S = _read_side(source, source_lang, source_format)
    T = _read_side(target, target_lang, target_format)
    rep = ValidationReport(source=_desc(source), target=_desc(target), source_lang=source_lang or S.lang,
                           target_lang=target_lang or T.lang, cards_source=len(S.cards), cards_target=len(T.cards),
                           read_errors=[f"source: {e}" for e in S.errors] + [f"target: {e}" for e in T.errors])
    ids = sorted(set(S.cards) | set(T.cards) | set(S.missing) | set(T.missing))
    for cid in ids:
        sc, tc = S.cards.get(cid), T.cards.get(cid)
        if sc is None and tc is None:
            continue
        cr = _check_card(cid, sc, tc, S, T, cat, include_missing, include_effects)
        if cr is None:
            continue
        if min_severity != "low":
            cut = _SEV_RANK[min_severity]
            cr.mismatches = [m for m in cr.mismatches
                             if m.kind not in CONDITION_MISMATCH_KINDS or _SEV_RANK[m.severity] <= cut]
        if sc is not None and tc is not None and (sc.text or "").strip() and (tc.text or "").strip():
            rep.cards_compared += 1
            if not cr.mismatches:
                rep.cards_agreeing += 1
        if cr.mismatches:
            rep.cards.append(cr)
    return rep


def _conds(card: Card, frame: Frame, cat: Catalog) -> tuple[list[Any], MappedText]:
    conds, _profile, _tags, mt, _seg = analyze_text(card.text, card.lang, frame, catalog=cat,
                                                    pendulum_effect=card.pendulum_effect, name=card.name)
    return conds, mt


def _unread(sides: dict[str, tuple[Card, list[Any], MappedText]]):
    """The ``unread`` callback of :func:`compare_conditions` for one card (cues on the card text)."""
    def check(side: str, group: str) -> tuple[int, int, str] | None:
        card, conds, mt = sides[side]
        read = [tuple(c.span) for c in conds if c.source == "text"]
        span = unread_cue(mt, card.lang, group, read)
        return None if span is None else (span[0], span[1], (card.text or "")[span[0]:span[1]])
    return check


def _check_card(cid: int, sc: Card | None, tc: Card | None, S: _Side, T: _Side, cat: Catalog,
                include_missing: bool, include_effects: bool = False) -> CardReport | None:
    name = (sc.name if sc else "") or (S.missing.get(cid, ("", ""))[0]) or (tc.name if tc else "")
    cr = CardReport(id=cid, name=name, target_name=tc.name if tc else "",
                    source_text=sc.text if sc else None, target_text=tc.text if tc else None,
                    source_pendulum=sc.pendulum_effect if sc else None,
                    target_pendulum=tc.pendulum_effect if tc else None)
    if sc is None or tc is None:
        if not include_missing:
            return None
        side: Side = "source" if sc is None else "target"
        why = (S if sc is None else T).missing.get(cid, ("", "no card with this passcode"))[1]
        cr.mismatches.append(Mismatch(kind=f"card-missing-in-{side}", severity="low", side=side, detail=why))
        return cr
    frame = sc.frame if sc.frame.kind is not None else tc.frame
    empty = False
    truncated = {}
    for side, c in (("source", sc), ("target", tc)):
        if not (c.text or "").strip():
            empty = True
            cr.mismatches.append(Mismatch(kind="empty-text", severity="high", side=side, detail=f"the {side} text is empty"))
            continue
        for fld, txt in (("text", c.text), ("pendulum_effect", c.pendulum_effect)):
            why = truncation(txt, c.lang, frame) if txt else None
            if why:
                truncated[side] = why != NO_FINAL_PUNCT
                cr.mismatches.append(Mismatch(kind="truncated-text", severity="low" if why == NO_FINAL_PUNCT else "high",
                                              side=side,
                                              detail=f"{side} {fld.replace('_', ' ')}: {why}",
                                              **{f"{side}_in": fld}))
                break
    if empty:
        return cr
    try:
        s_conds, s_mt = _conds(sc, frame, cat)
        t_conds, t_mt = _conds(tc, frame, cat)
    except (ValueError, TimeoutError) as e:
        cr.mismatches.append(Mismatch(kind="empty-text", severity="high", side="source",
                                      detail=f"card {cid} {name!r}: could not be analyzed ({e})"))
        return cr
    mm, smarks, tmarks = compare_conditions(s_conds, t_conds, frame, source_truncated=truncated.get("source", False),
                                            target_truncated=truncated.get("target", False),
                                            include_effects=include_effects,
                                            unread=_unread({"source": (sc, s_conds, s_mt), "target": (tc, t_conds, t_mt)}))
    cr.mismatches.extend(mm)
    cr.source_marks, cr.target_marks = smarks, tmarks
    return cr


# ----------------------------------------------------------------------------------------------
# HTML report

def _pieces(text: str | None, marks: list[Mark], field: str) -> list[dict[str, Any]]:
    """Split ``text`` into pieces ``{"text", "marks"}``; ``marks`` is the list of :class:`Mark`
    covering the piece (empty for plain text).  Overlapping marks nest by splitting."""
    if not text:
        return []
    ms = [m for m in marks if m.field == field and 0 <= m.span[0] < m.span[1] <= len(text)]
    cuts = sorted({0, len(text), *(m.span[0] for m in ms), *(m.span[1] for m in ms)})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        cover = [m for m in ms if m.span[0] <= a and b <= m.span[1]]
        out.append({"text": text[a:b], "marks": cover,
                    "status": next((m.status for m in cover if m.status != "ok"), "ok") if cover else None,
                    "title": "; ".join(f"{m.condition} ({m.status})" for m in cover)})
    return out


_SCRIPT = """
(function () {
  var boxes = document.querySelectorAll('input.kind-filter');
  var rows = document.querySelectorAll('tr.card');
  function apply() {
    var on = {};
    boxes.forEach(function (b) { on[b.value] = b.checked; });
    var shown = 0;
    rows.forEach(function (r) {
      var ks = (r.getAttribute('data-kinds') || '').split(' ');
      var vis = ks.some(function (k) { return on[k]; });
      r.hidden = !vis;
      if (vis) { shown += 1; }
    });
    document.getElementById('shown').textContent = String(shown);
  }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  document.getElementById('all').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = true; }); apply();
  });
  document.getElementById('none').addEventListener('click', function () {
    boxes.forEach(function (b) { b.checked = false; }); apply();
  });
  document.querySelectorAll('button.only').forEach(function (btn) {
    btn.addEventListener('click', function () {
      boxes.forEach(function (b) { b.checked = (b.value === btn.getAttribute('data-kind')); }); apply();
    });
  });
  apply();
})();
"""


_SEV_RANK = {"high": 0, "medium": 1, "low": 2}
CONDITION_MISMATCH_KINDS = frozenset({"missing-in-target", "extra-in-target", "slot-differs"})


def _row_order(c: CardReport) -> tuple:
    """Condition mismatches first (worst severity first), then empty / truncated texts, then
    cards present on one side only; by passcode within each."""
    kinds = {m.kind for m in c.mismatches}
    cls = 0 if kinds & set(MISMATCH_KINDS) else 1 if kinds & {"empty-text", "truncated-text"} else 2
    return (cls, min(_SEV_RANK[m.severity] for m in c.mismatches), c.id)


def render_html(report: ValidationReport, *, title: str | None = None, max_cards: int | None = None) -> str:
    """A self-contained HTML page of ``report``: one row per card with a problem (condition
    mismatches first, worst severity first; at most ``max_cards`` rows), the two
    original texts side by side with condition phrases in ``<mark>`` (spans of the original
    texts), filterable by mismatch kind.  Jinja2 with autoescape ON: card text is always text
    (``<script>`` shows as ``<script>``); the page's Content-Security-Policy allows only its own
    inline script (by hash) and inline styles, so even injected markup could not run or load.
    """
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from markupsafe import Markup

    env = Environment(loader=FileSystemLoader(str(Path(__file__).parent / "templates")),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    tpl = env.get_template("validate.html.j2")
    cards = sorted(report.cards, key=_row_order)
    cards = cards if max_cards is None else cards[:max_cards]
    rows = []
    for c in cards:
        rows.append({
            "card": c, "kinds": c.kinds,
            "source": _pieces(c.source_text, c.source_marks, "text"),
            "target": _pieces(c.target_text, c.target_marks, "text"),
            "source_pend": _pieces(c.source_pendulum, c.source_marks, "pendulum_effect"),
            "target_pend": _pieces(c.target_pendulum, c.target_marks, "pendulum_effect"),
        })
    card_counts = report.card_counts()
    digest = hashlib.sha256(_SCRIPT.encode("utf-8")).digest()
    script_hash = "sha256-" + base64.b64encode(digest).decode("ascii")
    return tpl.render(report=report, rows=rows, kinds=[k for k in ALL_KINDS if card_counts.get(k)],
                      card_counts=card_counts, counts=report.mismatch_counts(), script=Markup(_SCRIPT),
                      script_hash=script_hash, title=title or f"Validation: {report.source_lang} vs {report.target_lang}",
                      truncated_list=max_cards is not None and len(report.cards) > max_cards)


def iter_output(report: ValidationReport) -> Iterator[dict[str, Any]]:
    """The JSONL objects of ``validate -o`` (one per card with a problem)."""
    for c in report.cards:
        yield c.output()
