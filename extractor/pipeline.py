"""The one-way pipeline for one card: read -> normalize -> segment -> match -> conditions ->
profile -> tags.

``analyze(card) -> CardResult``.  ``analyze_text(text, lang, frame)`` for loose text.
"""

import time
from bisect import bisect_left
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, Field, TypeAdapter, ValidationError, WrapValidator

from .card import Card  # re-exported: the model lives in extractor/card.py
from .coverage import coverage_of
from .conditions import CONDITION_CLASSES, Condition, MustBeSpecialSummoned, RitualSummonWith, own_summon_limits
from .frame import Frame
from .langcheck import language_mismatch
from .normalize import lang_family, normalize
from .patterns import ALL_SCOPES, Catalog, RawMatch, load_catalog
from .profile import Profile, build_profile
from .profile import shared as shared_profile
from .segment import Segments, segment
from .structure import fit_material_lines, structure_of
from .tags import tags_from_profile
from .textmap import MappedText
from .jsonbytes import json_dict


_CONDITION_TYPES = frozenset(CONDITION_CLASSES.values())


def _kept_conditions(value: Any, handler: Any) -> Any:
    """The validator of :attr:`CardResult.conditions`: a list of condition objects of exactly the
    condition classes (what :func:`analyze` gives) is kept as it is (a new list of the same
    objects: what pydantic gives for instances, which it does not validate again), without going
    through the discriminated union for each object (~1.4 us a condition); anything else (dicts,
    other types) goes through the union (``handler``) as before."""
    if type(value) is list:
        for c in value:
            if type(c) not in _CONDITION_TYPES:
                return handler(value)
        return value[:]
    return handler(value)


class CardResult(BaseModel):
    """The output for one card (one JSONL line of ``tag``).

    tags: TAGS.md tags (sorted); conditions: condition objects with spans into the ORIGINAL text;
    tributes: Tributes its Normal Summon needs (``None`` if it cannot be Normal Summoned, and for
    Spells/Traps); profile: the summoning profile; registers: Chinese registers found;
    procedures / materials / tribute_rules: the STRUCTURE.md view (:func:`extractor.structure.structure_of`);
    coverage / unread: whether every piece of the summoning wording was read (``complete`` /
    ``partial``; ``None`` when the card could not be read or its language has no coverage rule) and the unread pieces as
    ``[start, end, group]`` into the original text (:func:`extractor.coverage.coverage_of`);
    warnings: problems that did not stop the card; error: set when the card could not be read.
    """

    id: int | None
    name: str
    lang: str
    tags: list[str] = Field(default_factory=list)
    conditions: Annotated[list[Condition], WrapValidator(_kept_conditions)] = Field(default_factory=list)
    tributes: int | None = None
    profile: Profile | None = None
    registers: list[str] | None = None
    procedures: list[dict[str, Any]] = Field(default_factory=list)
    materials: list[dict[str, Any]] = Field(default_factory=list)
    tribute_rules: list[dict[str, Any]] = Field(default_factory=list)
    coverage: Literal["complete", "partial"] | None = None
    unread: list[list[Any]] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    error: str | None = None


#: Texts (normalized characters) longer than this are matched window by window: every window is
#: at most this long and ends at a line break (else after a sentence, else at a space).  The longest
#: real card texts in the shared databases have 1,959 characters (Japanese; English 867, Chinese
#: 294), so a real text is one window and reads exactly as a whole.  A pattern then never looks
#: further than one window: matching costs O(length x WINDOW) at worst (a pattern that scans on to
#: the end of the text from every place where it could match is quadratic in what it sees).
WINDOW = 2500
#: CPU seconds one text may take from the start of :func:`analyze_text` (normalizing included) to
#: the last window matched.  Checked before each window; a window is also stopped by the matcher's
#: own guard (``patterns.REGEX_TIMEOUT``), so a text stops after at most this plus one window's
#: matching (milliseconds for a window of :data:`WINDOW` characters).  With what follows the
#: matching (condition objects, profile, output) a card then takes at most about 1 s.  A text not
#: read in time is an error of that card (:func:`analyze`), never a hang.  Real card texts take well
#: under 1 ms; 1 MB of real card text (UTF-8) ~0.1-0.4 s (``bench/fuzz.py``).
CARD_TIMEOUT = 0.8

_CUTS = ("\n", ". ", "\u3002", " ")  # where a window may end: after a line, a sentence (en, zh/ja), a space


def _windows(text: str, start: int, end: int, size: int | None = None) -> list[tuple[int, int]]:
    """``[start, end)`` of ``text`` cut into consecutive windows of at most ``size`` characters
    (default :data:`WINDOW`).

    Each window but the last ends right after the last line break inside it, else after the last
    ``". "`` or ``。``, else after the last space, else at ``size`` characters.  Output: the
    ``(start, end)`` of each window, together covering ``[start, end)`` exactly (one window when the
    text is no longer than ``size``).  Linear in the length."""
    size = WINDOW if size is None else size
    out: list[tuple[int, int]] = []
    s = start
    while end - s > size:
        limit = s + size
        cut = -1
        for sep in _CUTS:
            i = text.rfind(sep, s, limit)
            if i >= 0:
                cut = i + len(sep)
                break
        if cut <= s:
            cut = limit
        out.append((s, cut))
        s = cut
    out.append((s, end))
    return out


class _Budget:
    """The CPU time one text may still take (:data:`CARD_TIMEOUT`), counted from its creation; or,
    when ``long`` is false (texts too short to need windows unless normalizing doubles them), from
    the first window matched: only windows check it, and reading the clock costs a system call per
    card (a real card text is one window)."""

    __slots__ = ("deadline", "length")

    def __init__(self, long: bool = True) -> None:
        self.deadline = time.process_time() + CARD_TIMEOUT if long else None
        self.length = 0  # of the text being matched, for the messages

    def run(self, cat: Catalog, text: str, lang: str, start: int, end: int,
            scopes: tuple[str, ...]) -> list[RawMatch]:
        """``cat.run`` over ``text[start:end]``, window by window (:func:`_windows`).

        Raises:
            TimeoutError: naming where the matching stopped, when the windows took longer than
                :data:`CARD_TIMEOUT` or one window longer than the matcher's guard."""
        if end - start <= WINDOW:
            return cat.run(text, lang, start, end, scopes=scopes)
        out: list[RawMatch] = []
        if self.deadline is None:
            self.deadline = time.process_time() + CARD_TIMEOUT
        for ws, we in _windows(text, start, end):
            if time.process_time() >= self.deadline:
                raise TimeoutError(f"text too long to read in time: {self.length:,} characters, stopped at "
                                   f"character {ws:,} after {CARD_TIMEOUT:g} s (CPU)")
            try:
                out.extend(cat.run(text, lang, ws, we, scopes=scopes))
            except TimeoutError as e:
                raise TimeoutError(f"{e} at characters {ws:,}-{we:,} of a text of {self.length:,} characters") from e
        return out


# Conditions that the text of an Extra Deck / Ritual monster makes redundant are still kept;
# conditions that overlap (two patterns on the same words for the same kind) are merged.

def _conditions(mt: MappedText, matches: list[RawMatch], lang: str, source: str,
                warnings: list[str]) -> list[Any]:
    if not matches:
        return []
    fields: list[dict] = []
    seen: set[tuple] = set()
    fam = lang_family(lang)
    for m in sorted(matches, key=lambda r: (r.start, -r.end)) if len(matches) > 1 else matches:
        s, e = mt.to_original(m.start, m.end)
        key = (m.fields["kind"], s, e)
        if key in seen:
            continue
        seen.add(key)
        fields.append({**m.fields, "span": (s, e), "phrase": mt.original[s:e], "pattern_id": m.pattern.id,
                       "lang": fam, "source": source})
    try:  # all in one call (each dict goes to the class its kind names, as CONDITION_CLASSES[kind](**fields))
        out = _NEW_CONDITIONS(fields)
    except ValidationError:  # one at a time: the others are kept, the bad one becomes a warning
        out = []
        for d in fields:
            try:
                out.append(_NEW_CONDITION[d["kind"]](d))
            except ValidationError as ex:
                warnings.append(f"pattern {d['pattern_id']}: bad condition ({ex.errors()[0]['msg']})")
    return _suppress(out) if len(out) > 1 else out


#: condition kind -> its class's validator (dict of fields -> validated condition object)
_NEW_CONDITION = {k: cls.__pydantic_validator__.validate_python for k, cls in CONDITION_CLASSES.items()}
#: list of dicts of fields -> list of validated condition objects (each of the class its ``kind``
#: names: the same objects as :data:`_NEW_CONDITION` gives one by one, in one call)
_NEW_CONDITIONS = TypeAdapter(list[Condition]).validator.validate_python


def _either_or(outer: Any, inner: Any) -> bool:
    """A card's own effect named inside a named-card method ("「X」的效果（及此卡的②效果）"): the
    second half of an either/or, not the same words read twice."""
    return (getattr(outer, "method", None) == "named-card" and getattr(inner, "method", None) == "own-effect")


def _suppress(conds: list[Any]) -> list[Any]:
    """Drop a condition whose span lies inside another of the same kind (the longer wins), unless
    the inner one is the card's own effect inside a named-card method: the halves of an either/or ("仅可通过「X」的效果（及此卡的②效果）
    特殊召唤": the named card's effect or its own effect) are two conditions.

    Input: condition objects (any order).  Output: the kept ones, in their input order.  Two
    conditions with the same span never drop each other.  Near-linear (``O(n log n)`` in the
    number of conditions, which grows with the text): per kind, the spans that may hold others
    are sorted by start, and a condition is dropped when a span starting before it ends at or
    after its end (the running maximum of the ends), or one starting at its start ends after it.
    An own-effect condition is looked up among the spans of the kind that are not named-card
    methods (see :func:`_either_or`)."""
    by_kind: dict[str, list[Any]] = {}
    for c in conds:
        by_kind.setdefault(c.kind, []).append(c)
    dropped: set[int] = set()
    for group in by_kind.values():
        if len(group) < 2:
            continue
        own = [c for c in group if _method(c) == "own-effect"]
        others = [c for c in group if _method(c) != "own-effect"] if own else group
        _contained(group, others, dropped)
        if own:
            _contained([o for o in group if _method(o) != "named-card"], own, dropped)
    return [c for c in conds if id(c) not in dropped] if dropped else list(conds)


def _method(c: Any) -> Any:
    """``c.method``, ``None`` for a condition kind without that field (asked of the class: a pydantic
    model answers a missing attribute slowly, through an exception)."""
    cls = type(c)
    has = _HAS_METHOD.get(cls)
    if has is None:  # (once per class: a class's model_fields is itself a slow property)
        fields = getattr(cls, "model_fields", None)
        has = fields is None or "method" in fields
        if len(_HAS_METHOD) < 256:  # the condition classes: a few dozen
            _HAS_METHOD[cls] = has
    return getattr(c, "method", None) if has else None


#: class -> whether :func:`_method` asks its objects for ``method`` (a pydantic model without that
#: field: no; any other class: yes)
_HAS_METHOD: dict[type, bool] = {}


def _contained(outer: list[Any], inner: list[Any], dropped: set[int]) -> None:
    """Add to ``dropped`` the ``id`` of each condition of ``inner`` whose span lies inside the span
    of a condition of ``outer`` and differs from it.  Sort by start and sweep."""
    if not outer:
        return
    at: dict[int, int] = {}  # start -> the largest end of an outer span starting there
    for o in outer:
        s, e = o.span
        if at.get(s, -1) < e:
            at[s] = e
    starts = sorted(at)
    reach: list[int] = []  # reach[i]: the largest end of an outer span starting at or before starts[i]
    m = -1
    for s in starts:
        m = max(m, at[s])
        reach.append(m)
    for c in inner:
        s, e = c.span
        i = bisect_left(starts, s) - 1  # the outer spans that start before s
        if (i >= 0 and reach[i] >= e) or at.get(s, -1) > e:
            dropped.add(id(c))


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
    if not conds:  # (most cards: no generator built)
        return conds
    for c in conds:
        if isinstance(c, RitualSummonWith) and c.ritual_spell:
            break
    else:
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
    A text longer than :data:`WINDOW` characters is matched window by window (:func:`_windows`),
    so the time grows with its length, not with its square.
    Raises:
        ValueError: unsupported language.  TimeoutError: a runaway pattern, or a text not read
        within :data:`CARD_TIMEOUT` seconds of CPU time (the message says how far it got).
    """
    budget = _Budget(len(text or "") + len(pendulum_effect or "") > WINDOW // 2)
    frame = frame or Frame()
    cat = catalog or load_catalog()
    fam = lang_family(lang)
    if warnings is None:
        warnings = []
    if not (cat.has_patterns(fam) if isinstance(cat, Catalog) else fam in cat.by_lang):  # (a catalog read lazily)
        warnings.append(f"no {fam} patterns yet: the text is normalized but no condition is read (frame rules only)")
    if mismatch := language_mismatch(text or pendulum_effect or "", lang):
        warnings.append(mismatch)
    unknown_at = len(warnings) if frame.kind is None else None  # (its wording waits for the Tribute count)
    if unknown_at is not None:
        warnings.append(UNKNOWN_FRAME + " and the Tribute count is unknown")
    mt = normalize(text or "", lang)
    seg = segment(mt.text, fam, extra_deck=frame.extra_deck)
    budget.length = len(mt.text)
    matches: list[RawMatch] = []
    if frame.is_monster:
        ms, me = seg.monster
        # material lines (scope "extra") only where fit_material_lines keeps them
        scopes = ALL_SCOPES if frame.kind is None or frame.extra_deck else ("monster", "any")
        matches.extend(budget.run(cat, mt.text, lang, ms, me, scopes))
        if seg.pendulum:
            matches.extend(budget.run(cat, mt.text, lang, *seg.pendulum, ("any",)))
    else:
        matches.extend(budget.run(cat, mt.text, lang, 0, len(mt.text), ("any",)))
    conds = _conditions(mt, matches, lang, "text", warnings)
    if pendulum_effect:
        pmt = normalize(pendulum_effect, lang)
        budget.length = len(pmt.text)
        conds.extend(_conditions(pmt, budget.run(cat, pmt.text, lang, 0, len(pmt.text), ("any",)), lang,
                                 "pendulum_effect", warnings))
    if conds:  # (most cards have none: each step below returns an empty list as it is)
        if name:
            conds = _drop_self_named_ritual(conds, name, lang)
            conds = own_summon_limits(conds, name, lang)  # a Summon limit of another card's name is no condition
        conds = fit_material_lines(conds, frame)  # material lines only on Extra Deck monsters
    profile = build_profile(conds, frame)  # most cards share theirs (no condition: one per frame)
    if unknown_at is not None and profile.normal_summon is not None and profile.normal_summon.tributes is not None:
        warnings[unknown_at] = UNKNOWN_FRAME  # the text states the count (Obelisk: "Requires 3 Tributes")
    return conds, profile, tags_from_profile(profile), mt, seg


#: the warning of a card whose type is unknown (an i18n file, a JSONL record without ``type``);
#: " and the Tribute count is unknown" follows it unless the text states the count
UNKNOWN_FRAME = "card type unknown: frame rules not applied"


#: ``id`` of a profile :func:`extractor.profile.build_profile` shares (:func:`extractor.profile.shared`:
#: the profile of a card with no condition is one per frame kind and Level, that of a card with
#: conditions one per key of what it reads) -> its JSON form, made once by :func:`dump_result`, with
#: its JSON bytes (:class:`extractor.jsonbytes.JSONDict`: the JSONL writer writes those instead of
#: serializing the dict for every line); the shared profiles stay alive for the whole process, so
#: their ids stay theirs
_SHARED_PROFILE_JSON: dict[int, dict] = {}
#: the same for :func:`json_parts` (``tag``'s JSONL path): ``id`` of a shared profile -> its JSON
#: bytes only (``orjson.Fragment``), made once
_SHARED_PROFILE_BYTES: dict[int, orjson.Fragment] = {}


def analyze(card: Card, catalog: Catalog | None = None, names: dict[str, int] | None = None) -> CardResult:
    """Analyze one :class:`Card`.  Never raises for bad card content: problems become
    ``error`` (nothing could be done) or ``warnings``.

    The error names the card (``card <id> '<name>': ...``) and the problem: an unsupported
    language or a bad value (``ValueError``), a text not read within :data:`CARD_TIMEOUT` or a
    runaway pattern (``TimeoutError``), a text too deeply nested or too large for memory, and, for
    anything else, ``internal error (<exception>)``: a bug to report, which still costs only this
    card.  ``KeyboardInterrupt`` and ``SystemExit`` go through.  ``names``: card names of the input
    database -> passcodes (:func:`extractor.structure.structure_of`), for named Fusion Materials."""
    warnings: list[str] = []
    try:
        conds, profile, tags, mt, seg = analyze_text(card.text, card.lang, card.frame, catalog=catalog,
                                                   pendulum_effect=card.pendulum_effect, name=card.name,
                                                   warnings=warnings)
        reg = mt.registers if card.text else None  # the Chinese normalizer's registers of the card text
        structure = structure_of(conds, card.frame, names) if conds else None
        coverage, unread = coverage_of(mt, card.lang, card.frame, seg, conds)
    except (ValueError, TimeoutError) as e:
        return _failed(card, str(e))
    except (RecursionError, MemoryError) as e:
        return _failed(card, f"text too complex or too large to read ({type(e).__name__})")
    except Exception as e:  # noqa: BLE001 - one card must never stop the batch
        return _failed(card, f"internal error ({type(e).__name__}: {e})")
    if not card.text or card.text.isspace():  # (the same as not text.strip(), without a copy)
        warnings.append("empty text")
    tributes = profile.normal_summon.tributes if profile.normal_summon else None
    # (the model's validator called directly: what CardResult(**fields) does, without its keyword
    # packing and Python-level __init__, ~1.5 us a card)
    if structure is None:  # no condition (the default []): no procedure, material line or Tribute rule
        return _new_result({"id": card.id, "name": card.name, "lang": card.lang, "tags": tags,
                            "tributes": tributes, "profile": profile, "registers": reg, "coverage": coverage,
                            "unread": unread, "warnings": warnings})
    return _new_result({"id": card.id, "name": card.name, "lang": card.lang, "tags": tags, "conditions": conds,
                        "tributes": tributes, "profile": profile, "registers": reg, "coverage": coverage,
                        "unread": unread, "warnings": warnings, **structure})


_new_result = CardResult.__pydantic_validator__.validate_python  # dict of fields -> validated CardResult


#: The fields of :class:`CardResult` by their JSON form, for :func:`dump_result` (a test checks that
#: together they are exactly the model's fields): values that are their own JSON form, lists of such
#: values, ``unread`` (a list of ``[start, end, group]`` lists), the condition objects, the profile,
#: and the structure lists of dicts.
_SCALAR_FIELDS = ("id", "name", "lang", "tributes", "coverage", "error")
_LIST_FIELDS = ("tags", "registers", "warnings")
_OTHER_FIELDS = ("unread", "conditions", "profile", "procedures", "materials", "tribute_rules")
_FIELDS = tuple(CardResult.model_fields)


def dump_result(res: Any, parts: bool = False) -> dict:
    """``res.model_dump(mode="json")``: the JSON form of one result (one ``tag`` output line), the
    same dict, built faster for the usual card.  A result whose profile is shared
    (:func:`extractor.profile.shared`: most cards') gets that profile's JSON form made once and
    shared by those cards' dicts (read it, never change it: ``tag`` writes it at once).  A card
    whose text states no condition (two thirds of a card database) has no conditions, procedures,
    materials or Tribute rules: its dict is built from the fields directly, each already in its JSON
    form; the other fields of a card with conditions go through the serializers of their types in
    :class:`CardResult`.  A result with a profile that is not shared goes through ``model_dump``.

    ``parts``: for a writer that only needs the JSON bytes (``tag``'s JSONL output): the condition
    objects and the profile are given as their JSON bytes (``orjson.Fragment``, see
    :func:`json_parts`), the other values as they are in the result (not copied); orjson then
    writes the same bytes as for the dict without ``parts``.

    Input: a :class:`CardResult` (or anything with ``model_dump(mode="json")``, such as the results
    of ``tag --jobs``).  Output: the dict, keys in :class:`CardResult`'s field order.  Raises
    nothing beyond ``model_dump``.
    """
    if type(res) is not CardResult:
        return res.model_dump(mode="json")
    if parts:
        return json_parts(res)
    d = res.__dict__
    p = d["profile"]
    profile = _SHARED_PROFILE_JSON.get(id(p))
    if profile is None:
        if p is None or not shared_profile(p):
            return res.model_dump(mode="json")
        # (kept alive by build_profile; with its JSON bytes, which the JSONL writer writes as they are)
        profile = _SHARED_PROFILE_JSON[id(p)] = json_dict(p.model_dump(mode="json"))
    registers = d["registers"]
    procs, mats, rules = d["procedures"], d["materials"], d["tribute_rules"]
    conds = d["conditions"]
    if not (conds or procs or mats or rules):  # most cards: every field is already its JSON form
        return {"id": d["id"], "name": d["name"], "lang": d["lang"], "tags": list(d["tags"]), "conditions": [],
                "tributes": d["tributes"], "profile": profile,
                "registers": None if registers is None else list(registers),
                "procedures": [], "materials": [], "tribute_rules": [], "coverage": d["coverage"],
                "unread": [list(u) for u in d["unread"]], "warnings": list(d["warnings"]), "error": d["error"]}
    # a card with conditions whose profile is shared (5 in 6 of them): its profile's JSON is made once;
    # each other field goes through the serializer of its type in CardResult, as model_dump does
    return {"id": d["id"], "name": d["name"], "lang": d["lang"], "tags": list(d["tags"]),
            "conditions": _dump_conditions(conds, mode="json"), "tributes": d["tributes"],
            "profile": profile, "registers": None if registers is None else list(registers),
            "procedures": _dump_dicts(procs, mode="json") if procs else [],
            "materials": _dump_dicts(mats, mode="json") if mats else [],
            "tribute_rules": _dump_dicts(rules, mode="json") if rules else [], "coverage": d["coverage"],
            "unread": [list(u) for u in d["unread"]], "warnings": list(d["warnings"]), "error": d["error"]}


def _model_fields(obj: Any) -> dict:
    """orjson's ``default`` for the pydantic models of a result (conditions, their slot values, the
    profile and its parts): the model's fields, which orjson then writes as a dict.  Their JSON form
    is that dict: these models have no aliases, serializers, computed or excluded fields, and no
    extra fields (``tests/test_fast_paths_objects.py`` checks the bytes on real cards).
    Raises ``TypeError`` for anything else (orjson's ``JSONEncodeError``).

    A model class whose configuration allows no extra fields (its objects'
    ``__pydantic_extra__`` is always ``None``) is noted in :data:`_NO_EXTRA` at its first object,
    and its later objects are answered by that test alone (an ``isinstance`` of ``BaseModel`` goes
    through the ABC machinery, and the attribute through pydantic's ``__getattr__`` hook)."""
    cls = type(obj)
    if cls in _NO_EXTRA:
        return obj.__dict__
    if isinstance(obj, BaseModel) and not obj.__pydantic_extra__:
        if cls.model_config.get("extra") != "allow" and len(_NO_EXTRA) < 256:  # (a few dozen classes)
            _NO_EXTRA.add(cls)
        return obj.__dict__
    raise TypeError(f"not JSON serializable: {type(obj).__name__}")


#: the model classes :func:`_model_fields` has seen whose objects never hold extra fields
_NO_EXTRA: set[type] = set()


def _dumps_models(obj: Any) -> bytes:
    """``orjson.dumps(obj, default=_model_fields)``: the JSON bytes of models (see
    :func:`_model_fields`).  orjson turns any exception raised inside its ``default`` hook into a
    ``JSONEncodeError`` (a ``TypeError``) whose cause is the original; one that is not the hook's
    own ``TypeError`` (Ctrl-C's ``KeyboardInterrupt`` or the command line's ``Terminated`` arriving
    while the hook runs) is raised again as itself, so that a signal during ``tag`` still ends it
    with 128 + the signal's number, not as a failed card.

    Raises:
        TypeError: a value that is not JSON-serializable (orjson's ``JSONEncodeError``).
        BaseException: whatever interrupted the hook, as itself."""
    try:
        return orjson.dumps(obj, default=_model_fields)
    except orjson.JSONEncodeError as e:
        cause = e.__cause__
        if cause is not None and not isinstance(cause, TypeError):
            raise cause
        raise


def json_parts(res: CardResult) -> dict:
    """:func:`dump_result` with ``parts``: ``res``'s fields in order, the conditions and the profile
    as their JSON bytes (``orjson.Fragment``: orjson writes them as they are; a shared profile's
    bytes are made once), every other value as it is in ``res`` (already its JSON form, not copied:
    read it, never change it).  ``orjson.dumps`` of the dict gives the bytes of
    ``orjson.dumps(res.model_dump(mode="json"))``.  Input: a :class:`CardResult`.  Raises nothing
    for a result :func:`analyze` made (``TypeError`` for a value JSON cannot represent)."""
    d = dict(res.__dict__)
    p = d["profile"]
    if p is not None:
        frag = _SHARED_PROFILE_BYTES.get(id(p))
        if frag is None:
            # (the models' fields through orjson: the bytes of model_dump's dict, without building it)
            frag = orjson.Fragment(_dumps_models(p))
            if shared_profile(p):
                _SHARED_PROFILE_BYTES[id(p)] = frag
        d["profile"] = frag
    conds = d["conditions"]
    if conds:
        d["conditions"] = orjson.Fragment(_dumps_models(conds))
    return d


#: the serializers of CardResult's ``conditions`` and structure lists (``procedures`` ...), for
#: :func:`dump_result` (pydantic-core's own ``to_python``: what ``TypeAdapter.dump_python`` calls)
_dump_conditions = TypeAdapter(list[Condition]).serializer.to_python
_dump_dicts = TypeAdapter(list[dict[str, Any]]).serializer.to_python


def _failed(card: Card, problem: str) -> CardResult:
    """The error result of ``card``: its id, name and language, no tags, ``error`` naming both."""
    return CardResult(id=card.id, name=card.name, lang=card.lang, error=f"card {card.id} {card.name!r}: {problem}")
