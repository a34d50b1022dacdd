"""The validation of two inputs, card by card (:func:`validate`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

from ..coverage import _LIMIT, coverage_of
from ..cues import unread_cue
from ..frame import Frame
from ..langcheck import language_mismatch
from ..normalize import lang_family, normalize
from ..patterns import Catalog, load_catalog
from ..pipeline import Card, analyze_text
from ..segment import segment
from ..textmap import MappedText
from .compare import compare_conditions
from .inputs import Side, describe, read_side
from .report import CONDITION_MISMATCH_KINDS, SEV_RANK, CardReport, Mismatch, Severity, ValidationReport
from .text_checks import NO_FINAL_PUNCT, truncation

__all__ = ["validate", "check_card"]


def validate(source: str | Path | Iterable[Card], target: str | Path | Iterable[Card] | None = None, *,
             source_lang: str | None = None, target_lang: str | None = None,
             source_format: str | None = None, target_format: str | None = None,
             catalog: Catalog | None = None, include_missing: bool = True,
             include_effects: bool = False, min_severity: Severity = "medium",
             progress: Callable[[int, int], None] | None = None) -> ValidationReport:
    """Compare the Summoning Conditions of the cards of ``source`` and ``target``.

    Input: two card inputs -- a path in any format :func:`extractor.readers.read_cards` reads, or
    an iterable of :class:`~extractor.pipeline.Card` -- or ONE multilingual file (``target``
    ``None``, e.g. yaml-yugi ``cards.jsonl``) read once per language.  ``source_lang`` /
    ``target_lang``: ``en``, ``zh-CN``, ``zh-TW``, ...; when not given for a path they are
    guessed from the texts (a JSONL record's own ``lang`` wins).  ``include_missing``: report
    cards present on one side only.  ``include_effects``: also report effects (a self-Summon
    effect, an additional Normal Summon) found on one side only.  ``min_severity``: condition
    mismatches below it are left out (default ``medium``; ``"low"`` reports everything).
    Card-level problems are always reported.  ``progress(done, total)`` is called after each
    card (passcodes of both sides).

    Output: a :class:`ValidationReport` (cards paired by passcode; spans are character offsets
    into the original texts).

    Slots stated with different detail (issue 10 §9; the ``agree`` and ``severity`` rules of
    :mod:`extractor.validate.rules`): two texts often say the same thing, one with more detail.
    A slot is a difference only when BOTH sides state it and the values conflict; per slot:

    - ``cost.action``: the SET of actions when both state a cost (one verb written twice is one
      action: ``cost-actions-as-a-set``); a cost on one side only is ``low``
      (``cost-on-one-side-is-weak``; seed 002: a Built-In Special Summon "requires a cost ...
      such as Tributing, banishing or discarding", and older texts state it by reference: "(but
      Tributes are required if it is Level 5 or higher)");
    - ``cost.count`` / ``cost.from`` / ``cost.filter``: per action both state; an unstated count,
      place or typed filter part agrees with any; Attributes agree when one side's are among the
      other's (``cost-parts-per-shared-action``; issue 10 §1: each action "with its count, where
      the paid cards come from and what they must be ... where stated");
    - ``requirement``: none on one side agrees with any; typed parts differ only when neither
      side's are all among the other's ("If only your opponent controls a monster" against
      对手场上存在怪兽,自己场上不存在怪兽 says less, not something else); whose cards, likewise, and
      ``both`` is you and the opponent (``requirement-typed-parts``; seed 000, Common Summoning
      Conditions);
    - ``requirement.count`` / ``requirement.filter``: the count and typed filter of the cards the
      requirement's kind counts (cards in the GY, monsters the opponent controls, a column), compared
      only when both sides read the same kind with them; an unread count or filter on either side
      agrees (``requirement-count-and-filter``; issue 10 §1: the requirement "exactly 3 DARK
      monsters in your GY");
    - ``position``: unstated on one side is ``low`` (``unread-position-is-weak``);
    - material counts, Tuner counts, Level and Tribute-rule counts: unstated agrees
      (``unread-count-not-compared``); named materials by passcode, else by how many
      (``named-materials-by-passcode``);
    - ``limit`` and ``to_opponent_field`` stay differences when one side states them: "You can only
      Special Summon "X" once per turn this way" (seed 002: a procedure without it may be used any
      number of times) and "to your opponent's field" change what the procedure allows, and a
      text without them says the procedure is free of them (older texts before an errata DO differ).
    A side with summoning wording it did not read next to the slot is uncertain: the difference is
    ``low`` (:func:`_uncertain`).  Unread is not absent (DEVELOPERS.md): a material line, Tribute
    rule or procedure stated on one side only is ``low`` when the side lacking it has summoning
    wording it did not read (for materials: its first line, when no material line was read from
    an Extra Deck monster's text; :data:`UNREAD_SUMMONING_GROUPS`, :func:`_unread`).

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
    S = read_side(source, source_lang, source_format)
    T = read_side(target, target_lang, target_format)
    rep = ValidationReport(source=describe(source), target=describe(target), source_lang=source_lang or S.lang,
                           target_lang=target_lang or T.lang, cards_source=len(S.cards), cards_target=len(T.cards),
                           read_errors=[f"source: {e}" for e in S.errors] + [f"target: {e}" for e in T.errors])
    ids = sorted(set(S.cards) | set(T.cards) | set(S.missing) | set(T.missing))
    names = (_resolver(S), _resolver(T))  # named materials are compared by passcode
    cut = SEV_RANK[min_severity]
    for n, cid in enumerate(ids, 1):
        sc, tc = S.cards.get(cid), T.cards.get(cid)
        cr = None if sc is None and tc is None else check_card(cid, sc, tc, S, T, cat, include_missing, include_effects,
                                                               names)
        if progress is not None:
            progress(n, len(ids))
        if cr is None:
            continue
        cr.mismatches = [m for m in cr.mismatches
                         if m.kind not in CONDITION_MISMATCH_KINDS or SEV_RANK[m.severity] <= cut]
        if (sc is not None and tc is not None and (sc.text or "").strip() and (tc.text or "").strip()
                and not any(m.kind == "language-mismatch" for m in cr.mismatches)):
            rep.cards_compared += 1
            if not cr.mismatches:
                rep.cards_agreeing += 1
        if cr.mismatches:
            rep.cards.append(cr)
    return rep


def _resolver(side: Side) -> Callable[[str], int | None]:
    """card name -> passcode in ``side``'s input (:func:`extractor.structure.input_names`, built
    on first use), else through the alias table of older names (:func:`extractor.names.resolve_name`)."""
    from ..names import resolve_name
    from ..structure import input_names
    table: dict[str, int] | None = None

    def resolve(name: str) -> int | None:
        nonlocal table
        if table is None:
            table = input_names(list(side.cards.values()))
        return resolve_name(name, side.lang, table)
    return resolve


def _conds(card: Card, frame: Frame, cat: Catalog) -> tuple[list[Any], MappedText]:
    conds, _profile, _tags, mt, _seg = analyze_text(card.text, card.lang, frame, catalog=cat,
                                                    pendulum_effect=card.pendulum_effect, name=card.name)
    return conds, mt


#: Groups whose absence on a side is uncertain when that side has ANY summoning wording it did not
#: read (unread is not absent, DEVELOPERS.md): a material line, a Tribute rule or a procedure is
#: wording the catalog may fail to read (an old line "等級5怪獸x2", 「解放…升級召喚」).
#: ``materials`` counts only an unread piece of the group ``material-line``; a card-wide Summon limit
#: (``summon-limit``) whose sentence names the card otherwise than its name field is left unread.
UNREAD_SUMMONING_GROUPS = frozenset({"materials", "tribute-rule", "special-summon-method", "summon-limit"})


def _coverage_frame(frame: Frame, *conds: list[Any]) -> Frame:
    """The frame coverage is computed with: ``frame``, or -- when the card type is unknown (the
    i18n JSON has none) and a side read a material line -- an Extra Deck frame of that line's
    Summon kind (only Extra Deck monsters have a material line: seed 000, "the above Fusion
    Material Monsters"), so the other side's unread first line counts as its materials."""
    if frame.kind is not None:
        return frame
    for cs in conds:
        for c in cs:
            if c.kind == "material-line" and getattr(c, "source", "text") == "text":
                return Frame(kind=c.line.summon, level=frame.level)
    return frame


def _unread(sides: dict[str, tuple[Card, list[Any], MappedText]], frame: Frame | None = None):
    """The ``unread`` callback of :func:`compare_conditions` for one card: a cue of the group on
    the card text that was not read; else, for a group of :data:`UNREAD_SUMMONING_GROUPS`, the first
    piece of summoning wording :func:`extractor.coverage.coverage_of` finds unread on that side
    (with ``frame``; for ``materials`` only a ``material-line`` piece)."""
    pieces: dict[str, list[list]] = {}

    def check(side: str, group: str) -> tuple[int, int, str] | None:
        card, conds, mt = sides[side]
        read = [tuple(c.span) for c in conds if c.source == "text"]
        span = unread_cue(mt, card.lang, group, read)
        if span is None and frame is not None and group in UNREAD_SUMMONING_GROUPS:
            if side not in pieces:
                seg = segment(mt.text, lang_family(card.lang), extra_deck=frame.extra_deck)
                pieces[side] = coverage_of(mt, card.lang, frame, seg, conds)[1]
            span = next(((u[0], u[1]) for u in pieces[side]
                         if group != "materials" or u[2] == "material-line"), None)
        return None if span is None else (span[0], span[1], (card.text or "")[span[0]:span[1]])
    return check


#: Slots an unread piece anywhere in the text may state (a limit is a sentence of its own:
#: "You can only Special Summon "X" once per turn this way.", 此卡名以①方法的特殊召唤1回合仅可进行1次).
ANYWHERE_SLOTS = frozenset({"limit"})
#: Slots the read phrase states itself ("Must first be Synchro Summoned": the method is in what was
#: read): unread wording next to it cannot change them, so their differences keep their severity.
PHRASE_SLOTS = frozenset({"method", "first_only", "locations", "set_allowed", "effect"})
_SENTENCE_END = ".\u3002\n"


def _same_sentence(text: str, span: tuple[int, int], piece: list) -> bool:
    """Whether the unread ``piece`` ``[start, end, group]`` and the read ``span`` lie in one
    sentence of the original ``text``: no ``.`` / ``。`` / line break between them (a full stop that
    ends the read phrase itself counts as between)."""
    if piece[0] < span[1] and span[0] < piece[1]:
        return True  # they overlap
    if span[1] <= piece[0]:
        between = text[max(span[0], span[1] - 1):piece[0]]
    else:
        between = text[piece[1]:span[0]]
    return not any(ch in _SENTENCE_END for ch in between)


def _uncertain(mm: list[Mismatch], sides: dict[str, tuple[Card, list[Any], MappedText]],
               frame: Frame) -> list[Mismatch]:
    """Slot differences that may lie in what was not read, made uncertain (issue 10 section 8).

    A side whose summoning wording was not all read (:func:`extractor.coverage.coverage_of`:
    ``partial``) may state, in the part not read, the very value the other side has: "Must be
    Special Summoned (from your hand)" read, "by banishing 1 LIGHT ..." not, gives a cost that
    differs only because it was not read.  A ``slot-differs`` in a slot that unread words can add
    to (cost, count, requirement, limit, materials ...; not the :data:`PHRASE_SLOTS` that the read
    phrase states itself) becomes ``low`` when, on one side,
    an unread piece lies in the same sentence as that side's read phrase (for a ``limit``, also an
    unread limit sentence anywhere in the text: :data:`ANYWHERE_SLOTS`); its ``detail`` says so and names the unread words and
    their ``[start, end]`` (the spans stay the read phrases').  A difference inside two fully read
    sentences keeps its severity.  Other mismatches are returned unchanged.
    Input and output: lists of :class:`Mismatch`."""
    unread: dict[str, list[list]] = {}
    for side, (card, conds, mt) in sides.items():
        seg = segment(mt.text, lang_family(card.lang), extra_deck=frame.extra_deck)
        unread[side] = coverage_of(mt, card.lang, frame, seg, conds)[1]
    out = []
    for m in mm:
        if m.kind == "slot-differs" and m.slot not in PHRASE_SLOTS and (unread["source"] or unread["target"]):
            for side in ("source", "target"):
                span = getattr(m, f"{side}_span")
                if span is None or getattr(m, f"{side}_in") not in (None, "text"):
                    continue
                text = sides[side][0].text or ""
                near = next((u for u in unread[side] if _same_sentence(text, span, u) or (
                    m.slot in ANYWHERE_SLOTS and _LIMIT[lang_family(sides[side][0].lang)].search(
                        normalize(text[u[0]:u[1]], sides[side][0].lang).text))), None)
                if near is not None:
                    m = m.model_copy(update={"severity": "low", "detail": m.detail + (
                        f" (uncertain: the {side} has summoning wording there that was not read: "
                        f"{text[near[0]:near[1]]!r} at [{near[0]}, {near[1]}])")})
                    break
        out.append(m)
    return out


def check_card(cid: int, sc: Card | None, tc: Card | None, S: Side, T: Side, cat: Catalog,
               include_missing: bool, include_effects: bool = False,
               names: tuple[Callable[[str], int | None], Callable[[str], int | None]] | None = None,
               cache: dict | None = None) -> CardReport | None:
    """The :class:`CardReport` of one passcode (``None`` when nothing is to be reported about a
    card on one side only and ``include_missing`` is false).

    Card-level problems: a card on one side only (``card-missing-in-*``, low), an empty text
    (``empty-text``, high; not compared), a text that looks cut off (``truncated-text``), a text
    in another language than it is read as (``language-mismatch``, high, with the side and the
    warning of :func:`extractor.langcheck.language_mismatch`: Japanese read as Chinese or the
    reverse share Han characters and would give conditions read from the wrong language; not
    compared), and a text that could not be analyzed (``analysis-failed``, high, with the side
    and the error; not compared).  ``names``: the two sides' card name -> passcode look-ups (named materials).
    ``cache``: a dict kept by the caller for one run, in which the conditions read from a card
    are kept by card and frame (the reference mode compares one original with several
    translations and reads it once); the cards must outlive it."""
    name = (sc.name if sc else "") or (S.missing.get(cid, ("", ""))[0]) or (tc.name if tc else "")
    cr = CardReport(id=cid, name=name, target_name=tc.name if tc else "",
                    source_text=sc.text if sc else None, target_text=tc.text if tc else None,
                    source_pendulum=sc.pendulum_effect if sc else None,
                    target_pendulum=tc.pendulum_effect if tc else None)
    if sc is None or tc is None:
        if not include_missing:
            return None
        side = "source" if sc is None else "target"
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
                                              side=side, detail=f"{side} {fld.replace('_', ' ')}: {why}",
                                              **{f"{side}_in": fld}))
                break
    if empty:
        return cr
    for side, c in (("source", sc), ("target", tc)):
        warn = language_mismatch(c.text or c.pendulum_effect or "", c.lang)
        if warn:  # Japanese read as Chinese (shared Han characters) or the reverse: not compared
            cr.mismatches.append(Mismatch(kind="language-mismatch", severity="high", side=side,
                                          detail=f"the {side} text of card {cid} {c.name!r}: {warn}; not compared"))
    if any(m.kind == "language-mismatch" for m in cr.mismatches):
        return cr
    analyzed: dict[str, tuple[list[Any], MappedText]] = {}
    for side, c in (("source", sc), ("target", tc)):
        try:
            if cache is None:
                analyzed[side] = _conds(c, frame, cat)
            else:
                key = (id(c), frame)
                if key not in cache:
                    cache[key] = _conds(c, frame, cat)
                analyzed[side] = cache[key]
        except (ValueError, TimeoutError) as e:
            cr.mismatches.append(Mismatch(kind="analysis-failed", severity="high", side=side,
                                          detail=f"the {side} text of card {cid} {c.name!r} could not be analyzed: {e}"))
    if len(analyzed) < 2:
        return cr
    (s_conds, s_mt), (t_conds, t_mt) = analyzed["source"], analyzed["target"]
    cov_frame = _coverage_frame(frame, s_conds, t_conds)
    mm, smarks, tmarks = compare_conditions(s_conds, t_conds, frame, source_truncated=truncated.get("source", False),
                                            target_truncated=truncated.get("target", False),
                                            include_effects=include_effects,
                                            unread=_unread({"source": (sc, s_conds, s_mt), "target": (tc, t_conds, t_mt)},
                                                           cov_frame),
                                            source_names=names[0] if names else None,
                                            target_names=names[1] if names else None)
    cr.mismatches.extend(_uncertain(mm, {"source": (sc, s_conds, s_mt), "target": (tc, t_conds, t_mt)}, cov_frame))
    cr.source_marks, cr.target_marks = smarks, tmarks
    return cr
