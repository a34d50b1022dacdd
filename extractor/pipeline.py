"""The one-way pipeline for one card: read -> normalize -> segment -> match -> conditions ->
profile -> tags.

``analyze(card) -> CardResult``.  ``analyze_text(text, lang, frame)`` for loose text.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, ValidationError

from .card import Card  # re-exported: the model lives in extractor/card.py
from .conditions import CONDITION_CLASSES, Condition, MustBeSpecialSummoned, RitualSummonWith
from .frame import Frame
from .langcheck import language_mismatch
from .normalize import lang_family, normalize
from .patterns import Catalog, RawMatch, load_catalog
from .profile import Profile, build_profile
from .segment import Segments, segment
from .structure import structure_of
from .tags import tags_from_profile
from .textmap import MappedText


class CardResult(BaseModel):
    """The output for one card (one JSONL line of ``tag``).

    tags: TAGS.md tags (sorted); conditions: condition objects with spans into the ORIGINAL text;
    tributes: Tributes its Normal Summon needs (``None`` if it cannot be Normal Summoned, and for
    Spells/Traps); profile: the summoning profile; registers: Chinese registers found;
    procedures / materials / tribute_rules: the STRUCTURE.md view (:func:`extractor.structure.structure_of`);
    warnings: problems that did not stop the card; error: set when the card could not be read.
    """

    id: int | None
    name: str
    lang: str
    tags: list[str] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)
    tributes: int | None = None
    profile: Profile | None = None
    registers: list[str] | None = None
    procedures: list[dict[str, Any]] = Field(default_factory=list)
    materials: list[dict[str, Any]] = Field(default_factory=list)
    tribute_rules: list[dict[str, Any]] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    error: str | None = None


# Conditions that the text of an Extra Deck / Ritual monster makes redundant are still kept;
# conditions that overlap (two patterns on the same words for the same kind) are merged.

def _conditions(mt: MappedText, matches: list[RawMatch], lang: str, source: str,
                warnings: list[str]) -> list[Any]:
    out: list[Any] = []
    seen: set[tuple] = set()
    for m in sorted(matches, key=lambda r: (r.start, -r.end)):
        s, e = mt.to_original(m.start, m.end)
        kind = m.fields["kind"]
        key = (kind, s, e)
        if key in seen:
            continue
        seen.add(key)
        try:
            out.append(CONDITION_CLASSES[kind](span=(s, e), phrase=mt.original[s:e], pattern_id=m.pattern.id,
                                               lang=lang_family(lang), source=source, **m.fields))
        except ValidationError as ex:
            warnings.append(f"pattern {m.pattern.id}: bad condition ({ex.errors()[0]['msg']})")
    return _suppress(out)


def _either_or(outer: Any, inner: Any) -> bool:
    """A card's own effect named inside a named-card method ("「X」的效果（及此卡的②效果）"): the
    second half of an either/or, not the same words read twice."""
    return (getattr(outer, "method", None) == "named-card" and getattr(inner, "method", None) == "own-effect")


def _suppress(conds: list[Any]) -> list[Any]:
    """Drop a condition whose span lies inside another of the same kind (the longer wins), unless
    the inner one is the card's own effect inside a named-card method: the halves of an either/or ("仅可通过「X」的效果（及此卡的②效果）
    特殊召唤": the named card's effect or its own effect) are two conditions."""
    keep = []
    for c in conds:
        if any(o is not c and o.kind == c.kind and o.span[0] <= c.span[0] and c.span[1] <= o.span[1]
               and (o.span != c.span) and not _either_or(o, c) for o in conds):
            continue
        keep.append(c)
    return keep


def _drop_self_named_ritual(conds: list[Any], name: str, lang: str) -> list[Any]:
    """Drop a ``ritual-summon-with`` that names the card itself when the text also says the card
    can only be Special Summoned by its own effect.

    Input: the conditions of one text, the card's own ``name`` in that language.  Output: the
    conditions, that one left out.  OCG Ritual Monsters open with "「<Ritual Spell>」により降臨"
    (Chinese 以「X」降临).  A monster Ritual Summoned by its OWN effect prints its own name there
    ("以“<this card>”降临" over "此卡仅可以此卡的效果特殊召唤", English "Must be Special Summoned by its
    own effect ... treated as a Ritual Summon"): that line restates the own-effect condition and names
    no Ritual Spell (seed 000, Ritual Summoning Conditions).  Without an own-effect condition a
    self-named Ritual Spell is real and kept: a Pendulum Ritual Monster whose Pendulum Effect Ritual
    Summons it ("You can Ritual Summon this card with "<this card>"" / 以“<this card>”降临 +
    仅可以仪式召唤方式特殊召唤).  Names are compared after the text's own normalization (script,
    width, quotes), ignoring spaces.
    """
    if not any(isinstance(c, RitualSummonWith) and c.ritual_spell for c in conds):
        return conds
    if not any(isinstance(c, MustBeSpecialSummoned) and c.method == "own-effect" for c in conds):
        return conds

    def key(s: str) -> str:
        return "".join(normalize(s, lang).text.split()).strip('「」"“”')
    own = key(name)
    return [c for c in conds if not (isinstance(c, RitualSummonWith) and c.ritual_spell and key(c.ritual_spell) == own)]


def analyze_text(text: str, lang: str, frame: Frame | None = None, *, catalog: Catalog | None = None,
                 pendulum_effect: str | None = None, name: str | None = None,
                 warnings: list[str] | None = None) -> tuple[list[Any], Profile, list[str], MappedText, Segments]:
    """Conditions, profile and tags of one text.

    Input: original ``text``, its ``lang``, the card ``frame`` (unknown when ``None``);
    ``name``: the card's own name in ``lang`` (optional; a Ritual line that names the card itself,
    OCG 「<this card>」により降臨 / 以「<this card>」降临, next to "can only be Special Summoned by its
    own effect" is then not read as a Ritual Spell: see :func:`_drop_self_named_ritual`); ``warnings``: a list that collects problems that did not stop
    the analysis.
    Output: ``(conditions, profile, tags, mapped_text, segments)``.
    Raises:
        ValueError: unsupported language.  TimeoutError: a runaway pattern.
    """
    frame = frame or Frame()
    cat = catalog or load_catalog()
    fam = lang_family(lang)
    if warnings is None:
        warnings = []
    if fam not in cat.by_lang:
        warnings.append(f"no {fam} patterns yet: the text is normalized but no condition is read (frame rules only)")
    if mismatch := language_mismatch(text or pendulum_effect or "", lang):
        warnings.append(mismatch)
    if frame.kind is None:
        warnings.append("card type unknown: frame rules not applied and the Tribute count is unknown")
    mt = normalize(text or "", lang)
    seg = segment(mt.text, fam, extra_deck=frame.extra_deck)
    matches: list[RawMatch] = []
    if frame.is_monster:
        ms, me = seg.monster
        matches.extend(cat.run(mt.text, lang, ms, me, scopes=("monster", "any")))
        if seg.pendulum:
            matches.extend(cat.run(mt.text, lang, *seg.pendulum, scopes=("any",)))
    else:
        matches.extend(cat.run(mt.text, lang, scopes=("any",)))
    conds = _conditions(mt, matches, lang, "text", warnings)
    if pendulum_effect:
        pmt = normalize(pendulum_effect, lang)
        conds.extend(_conditions(pmt, list(cat.run(pmt.text, lang, scopes=("any",))), lang, "pendulum_effect", warnings))
    if name:
        conds = _drop_self_named_ritual(conds, name, lang)
    profile = build_profile(conds, frame)
    return conds, profile, tags_from_profile(profile), mt, seg


def analyze(card: Card, catalog: Catalog | None = None) -> CardResult:
    """Analyze one :class:`Card`.  Never raises for bad card content: problems become
    ``error`` (nothing could be done) or ``warnings``."""
    warnings: list[str] = []
    try:
        conds, profile, tags, mt, _ = analyze_text(card.text, card.lang, card.frame, catalog=catalog,
                                                   pendulum_effect=card.pendulum_effect, name=card.name,
                                                   warnings=warnings)
    except (ValueError, TimeoutError) as e:
        return CardResult(id=card.id, name=card.name, lang=card.lang, error=f"card {card.id} {card.name!r}: {e}")
    if not (card.text or "").strip():
        warnings.append("empty text")
    reg = None
    if lang_family(card.lang) == "zh" and card.text:
        from .normalize.zh import registers
        reg = registers(card.text)
    tributes = profile.normal_summon.tributes if profile.normal_summon else None
    return CardResult(id=card.id, name=card.name, lang=card.lang, tags=tags, conditions=conds,
                      tributes=tributes, profile=profile, registers=reg, warnings=warnings,
                      **structure_of(conds, card.frame))
