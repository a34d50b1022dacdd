"""Coverage: was every piece of a card's summoning wording read? (issue 10 section 8)

A card's result says ``coverage: "complete"`` when every piece of its summoning wording lies inside
a phrase the pattern catalog read (a condition's ``span``), and ``"partial"`` otherwise, with the
``unread`` pieces as ``[start, end, group]`` (character offsets into the ORIGINAL card text, end
exclusive; ``group`` names the kind of wording: a cue group of ``patterns/cues/<lang>.yaml``,
``summon-sentence`` or ``material-line``).

The rule (:func:`coverage_of`), decided on the seed document's split between a Summoning Condition
and an effect (seed 002: a built-in Special Summon "does not start a Chain"; an effect that
Summons is activated):

0. Every table of the rule is data: the ``coverage`` section of ``patterns/cues/<lang>.yaml`` (named
   entries with examples; :func:`coverage_rules`): English, Chinese and Japanese have one; a language
   family without one gets ``None``, unknown, never ``complete``.
1. Only the card text of a monster counts (a Spell, a Trap, a Normal Monster's flavor text and a
   Pendulum Effect state no Summoning Condition of the card): their coverage is ``complete``.
2. The text is cut into sentences (``.`` / ``。`` / ``!`` followed by a space or the end, and line
   breaks, on the NORMALIZED text; a ``●`` bullet starts a sentence).
3. A sentence is summoning wording when it holds a cue of the language (wording that MAY state a
   Summoning Condition) or a Summon word (en: Normal / Special / Tribute / Ritual / Fusion /
   Synchro / Xyz / Link Summon, Tribute; zh: 召唤, 解放, 祭品, 降临; ja: 召喚, リリース, 生け贄, 降臨) -- unless it is part of an
   activated or triggered effect: it holds a colon or semicolon (``:`` / ``;`` / ``：`` / ``；``:
   the trigger-or-cost mark of current card text), mentions activation ("activate", 发动), is a
   ``●`` choice of an effect, starts as an old-style effect ("Once per turn", "During", "When ...,
   you can"), speaks of a Summon as an event ("If this card is Special Summoned"), of materials
   ("as Synchro Material", 作为…素材), of Tributes it counts as or of being Tributed, of a Spirit's
   return, of what the card does besides (attacks, inflicts, discards, draws, gains, piercing, "as a
   Level": unless it also says the card cannot / must / can only be Summoned), of a Union's equip /
   unequip, or Special Summons other monsters ("Special Summon 1 ...",
   选择/把…1只…特殊召唤), or (zh) is an event-triggered Summon (…被破坏/送去墓地/除外…的场合/时，…可以…特殊召唤:
   the older wording of a trigger effect, the counterpart of English "When ..., you can"), or (ja)
   the same marks in Japanese (：/発動, 召喚に成功, 素材として, …時、…特殊召喚, …１体を特殊召喚, 攻撃 /
   ダメージ / ドロー, …したターン, この効果で, 限り, 度に, 代わりに: entry ``effect-marks``); a Gemini
   reminder is read by the gemini condition as a whole.  In Chinese and Japanese the effect holding the sentence
   (from the last line break, ``●`` or circled number) counts: "①：…才能发动。…特殊召唤。".  A limit
   sentence ("once per turn this way", 1回合只能有1次) counts as read when a condition carries a
   ``limit`` (the limit is read into the procedure without a span of its own).  Or (zh) says the card "was Summoned" (召唤成功, an event that triggers
   an effect, never a condition).  The material line of an Extra Deck monster
   (:func:`extractor.segment.segment`) is summoning wording as a whole.  Unread is not absent
   (DEVELOPERS.md): an Extra Deck monster from whose text no material line was read has its first
   line (or, in a one-line text, its first sentence) as summoning wording of the group
   ``material-line``, unless that line is an activated effect (a colon, 发动, ①: a text that
   lacks its material line, which is a real difference) (seed 000: a Fusion Monster is Summoned with "the above Fusion Material
   Monsters", so its text states them; a line the catalog could not read, "等級5怪獸x2", is
   unread, never "no materials").
4. The pieces of a summoning sentence outside every read phrase are unread when they hold more than
   filler: punctuation, spaces, the ATK a Normal Summon without Tributing leaves ("but its original
   ATK becomes 1900"), the tail of a phrase read up to its last noun ("... with the above Fusion
   Material|s", "Ritual Spell"), a single letter or character left at a phrase's edge, and a few
   words that carry no condition ("this card", "and",
   "also", 这张卡, 此卡, 另外 ...; entry ``filler``).  So a cue inside a read phrase is read, and a
   sentence read only in part ("Must be Special Summoned (from your hand)" read, "by banishing 1
   LIGHT ..." not) is partial, pointing at the part that was not read.

Precision was measured by reading partial cards of yaml-yugi en and zh-CN (``bench/coverage.py``).
"""

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Literal, Sequence

import regex

from .cues import CUES_DIR, CueError, load_cues
from .frame import Frame
from .normalize import lang_family
from .normalize.common import load_yaml
from .segment import Segments
from .textmap import MappedText

__all__ = ["coverage_of", "Coverage", "Unread"]

Coverage = Literal["complete", "partial"]
Unread = list  # [start, end, group]

#: The per-language tables of the rule, in ``patterns/cues/<fam>.yaml`` under ``coverage`` (data:
#: adding a language is adding its files).  Entry names -> attributes of :class:`CoverageRules`.
_ENTRIES = {
    "summon-words": "summon_words",    # Summon words (en: Normal / Special / ... Summon, Tribute; zh: 召唤, 解放 ...)
    "prefilter": "prefilter",          # one of these is in every cue and Summon word (the cheap test first)
    "limit": "limit",                  # a limit sentence ("once per turn this way", 1回合只能有1次)
    "effect-marks": "effect_marks",    # marks of an activated or triggered effect
    "sentence-end": "sentence_end",    # where sentences end (plain ``re``: no look-behind, fast)
    "filler": "filler",                # words that carry no condition
    "gemini": "gemini",                # the Gemini reminder
    "not-materials": "not_materials",  # marks of an activated effect no material line holds
}
_OPTIONAL = {
    "unit-start": "unit_start",        # (zh, ja) where an effect starts: the effect holding a sentence counts
    "sentence-marks": "sentence_marks",  # marks of an effect searched in the sentence alone, not its whole effect
    "keep": "keep",                    # (en) a restriction on the card's own Summon: summoning wording despite a mark
    "activated": "activated",          # (en) an activated effect: ``keep`` does not hold against it
}


@dataclass(frozen=True)
class CoverageRules:
    """The compiled coverage tables of one language family (``patterns/cues/<fam>.yaml``, section
    ``coverage``; every regex runs on the NORMALIZED text, ``filler`` on the original pieces).
    ``examples``: entry name -> (must match, must not match), run by ``tests/test_coverage.py``."""

    fam: str
    summon_words: Any
    prefilter: Any
    limit: Any
    effect_marks: Any
    sentence_end: Any
    filler: Any
    gemini: Any
    not_materials: Any
    unit_start: Any = None
    sentence_marks: Any = None
    keep: Any = None
    activated: Any = None
    examples: dict = field(default_factory=dict)
    #: (derived at load, :func:`_lone_chars`) ``":"`` and ``";"`` each match ``effect_marks`` wherever
    #: they stand (a top-level alternative of the expression is that character alone, or a class
    #: holding it): a Chinese or Japanese effect holding either one is an effect without a search
    colon_marks: bool = False
    #: (derived at load, :func:`_one_char_marks`) the characters that every ``sentence_end`` match is
    #: one of, when each match is exactly one character; ``None`` otherwise.  With them the
    #: sentence around a word is found from the word (the nearest marks before and after it), not
    #: by cutting the whole text
    end_chars: Any = None
    #: (derived at load) the plain-``re`` class of the ``unit-start`` marks, when ``unit-start`` is
    #: one character of a listed set and nothing else (no lookaround or anchor: :func:`_one_char_marks`
    #: with ``bare``), ``colon_marks`` holds, there is no ``keep`` and ``end_chars`` is known; ``None``
    #: otherwise.  With it a Summon word that follows a colon of the effect holding it is passed over
    #: before its sentence is found (:func:`_word_sentences`, ``open_only``)
    unit_class: Any = None


@lru_cache(maxsize=8)
def coverage_rules(lang: str) -> CoverageRules | None:
    """The coverage tables of ``lang``'s family, ``None`` when its cue file has no ``coverage``
    section (no rule: coverage unknown).

    Raises:
        CueError: an entry is missing or malformed, or its regex does not compile (names the file
            and the entry).
        ValueError: an unsupported language (:func:`lang_family`).
    """
    fam = lang_family(lang)
    name = f"{fam}.yaml"
    path = CUES_DIR.joinpath(name)
    if not path.is_file():
        return None
    doc = load_yaml(path) or {}
    sec = doc.get("coverage")
    if not sec:
        return None
    if not isinstance(sec, dict):
        raise CueError(f"patterns/cues/{name}: coverage: a mapping of named entries expected")
    unknown = set(sec) - set(_ENTRIES) - set(_OPTIONAL)
    if unknown:
        raise CueError(f"patterns/cues/{name}: coverage: unknown entries {sorted(unknown)}")
    kw: dict[str, Any] = {"fam": fam, "examples": {}}
    for key, attr in (*_ENTRIES.items(), *_OPTIONAL.items()):
        d = sec.get(key)
        if d is None:
            if key in _ENTRIES:
                raise CueError(f"patterns/cues/{name}: coverage: entry {key!r} missing")
            continue
        try:
            engine = d.get("engine", "re")
            if engine not in ("re", "regex"):
                raise ValueError(f"engine {engine!r} is neither re nor regex")
            rx = (regex if engine == "regex" else re).compile(d["regex"])
        except (AttributeError, KeyError, TypeError, ValueError, re.error, regex.error) as e:
            raise CueError(f"patterns/cues/{name}: coverage: {key}: {e}") from None
        kw[attr] = rx
        ex = d.get("examples") or {}
        kw["examples"][key] = (tuple(ex.get("match") or ()), tuple(ex.get("no_match") or ()))
    if (kw.get("keep") is None) != (kw.get("activated") is None):
        raise CueError(f"patterns/cues/{name}: coverage: 'keep' and 'activated' go together")
    kw["colon_marks"] = _lone_chars(kw["effect_marks"], ":;")
    chars = _one_char_marks(kw["sentence_end"])
    if chars is not None:
        kw["end_chars"] = (chars, re.compile("[" + "".join(re.escape(c) for c in sorted(chars)) + "]"))
    units = _one_char_marks(kw["unit_start"], bare=True) if kw.get("unit_start") is not None else None
    if units is not None and kw["colon_marks"] and kw.get("keep") is None and chars is not None:
        kw["unit_class"] = re.compile("[" + "".join(re.escape(c) for c in sorted(units)) + "]")
    return CoverageRules(**kw)


def _one_char_marks(rx: Any, bare: bool = False) -> str | None:
    """The characters the compiled plain-``re`` expression ``rx`` can match, when every match of it
    is exactly one character (its width is (1, 1)) and that character is a literal of each
    alternative (a character or a class of characters, not negated; lookarounds and anchors around
    it allowed, unless ``bare``): then ``rx`` matches at ``p`` of a text searched up to ``end`` exactly when
    ``rx.match(text, p, end)`` does, and only where one of these characters stands (with ``bare``:
    wherever one of them stands).  ``None`` for a ``regex``-engine expression or any other shape."""
    if not isinstance(rx, re.Pattern):
        return None
    import re._parser as sre_parse  # (the standard library's parser, only to read the shape)
    from re._constants import ASSERT, ASSERT_NOT, AT, BRANCH, IN, LITERAL
    try:
        tree = sre_parse.parse(rx.pattern, rx.flags)
        if tree.getwidth() != (1, 1):
            return None
    except (re.error, OverflowError):  # pragma: no cover - it compiled already
        return None
    items = list(tree.data)
    alts = items[0][1][1] if len(items) == 1 and items[0][0] is BRANCH else [items]
    chars: set[str] = set()
    for alt in alts:
        eaten = [(op, av) for op, av in alt if op not in (ASSERT, ASSERT_NOT, AT)]
        if len(eaten) != 1 or (bare and len(alt) != 1):
            return None
        op, av = eaten[0]
        if op is LITERAL:
            chars.add(chr(av))
        elif op is IN and all(o is LITERAL for o, _ in av):
            chars.update(chr(a) for _, a in av)
        else:
            return None
    if rx.flags & re.IGNORECASE and any(c.lower() != c.upper() for c in chars):
        return None  # a cased letter: its other case would match too
    return "".join(sorted(chars))


def _lone_chars(rx: Any, chars: str) -> bool:
    """Whether every character of ``chars`` matches the compiled plain-``re`` expression ``rx``
    wherever it stands in a text searched (``rx.search(text, pos, endpos)`` finds a match whenever
    one of them lies in ``[pos, endpos)``): the expression, or one of its top-level alternatives,
    is that character alone or a character class (not negated) holding it, so no anchor,
    lookaround or neighbour decides.  Read from the standard library's parse of the expression;
    ``False`` for a ``regex``-engine expression or any other shape (the search then decides)."""
    if not isinstance(rx, re.Pattern):
        return False
    import re._parser as sre_parse  # (the standard library's parser, only to read the shape)
    from re._constants import BRANCH, IN, LITERAL, NEGATE
    try:
        tree = sre_parse.parse(rx.pattern, rx.flags)
    except re.error:  # pragma: no cover - it compiled already
        return False
    items = list(tree.data)
    alts = items[0][1][1] if len(items) == 1 and items[0][0] is BRANCH else [items]
    lone: set[int] = set()
    for alt in alts:
        alt = list(alt)
        if len(alt) != 1:
            continue
        op, av = alt[0]
        if op is LITERAL:
            lone.add(av)
        elif op is IN and all(o is LITERAL for o, _ in av) and not any(o is NEGATE for o, _ in av):
            lone.update(a for _, a in av)
    return all(ord(c) in lone for c in chars)


class _LimitTable:
    """``_LIMIT[fam]``: the ``limit`` regex of a language family (:func:`coverage_rules`), for
    ``extractor.validate.check`` (a limit sentence read into a procedure's ``limit``)."""

    def __getitem__(self, fam: str):
        rules = coverage_rules(fam)
        if rules is None:
            raise KeyError(fam)
        return rules.limit


_LIMIT = _LimitTable()


def _cuts(text: str, start: int, end: int, rules: CoverageRules) -> list[int]:
    """Where the sentences of normalized ``text[start:end]`` start and end: ``start``, a cut at each
    ``sentence-end`` mark of ``rules`` (after it; before a ``●``), ``end``, in order (two cuts at one
    place leave an empty piece between them)."""
    it = rules.sentence_end.finditer(text, start, end)
    if text.find("●", start, end) < 0:  # no bullet: every cut is after its mark (no per-mark test)
        return [start, *map(_END, it), end]
    return [start, *[m.start() if m.group() == "●" else m.end() for m in it], end]


def _END(m: Any) -> int:  # noqa: N802 - ``Match.end`` of either engine, for ``map``
    return m.end()


def _sentences(text: str, start: int, end: int, rules: CoverageRules) -> list[tuple[int, int]]:
    """``[start, end)`` of normalized ``text`` cut into sentences (each stripped of outer spaces)
    at the ``sentence-end`` marks of ``rules``."""
    # the cuts never go back; two at one place leave an empty piece between them, skipped below
    cuts = _cuts(text, start, end, rules)
    out = []
    for s, e in zip(cuts, cuts[1:]):
        chunk = text[s:e]
        words = chunk.strip()  # str.strip() strips what str.isspace() calls a space
        if words:
            s += len(chunk) - len(chunk.lstrip())
            out.append((s, s + len(words)))
    return out


def _word_sentences(text: str, start: int, end: int, rules: CoverageRules,
                    open_only: bool = False) -> list[tuple[int, int]]:
    """The sentences of :func:`_sentences` that hold a ``prefilter`` word, found from the words:
    for each word, the sentence around it (a prefilter word holds no sentence end, so it lies
    inside one sentence), and only those sentences are stripped.  Equal to
    ``[(s, e) for s, e in _sentences(...) if rules.prefilter.search(text, s, e)]`` (the prefilter
    is plain words: no look-around, no anchors; ``tests/test_coverage.py`` checks both).  A text
    with no prefilter word is not cut at all; when every sentence end is one character
    (``end_chars`` of ``rules``) the text is not cut either: the sentence of a word reaches from
    the nearest end before it (searched backwards, in the reversed text) to the next one.

    ``open_only`` (only with ``unit_class`` of ``rules``: Chinese and Japanese): a word with a
    ``:`` or ``;`` before it in the effect holding it (no ``unit-start`` mark between that colon
    and the word) is passed over, with every word after it up to the next ``unit-start`` mark:
    its sentence is one :func:`coverage_of` skips in any case (a colon of its effect stands
    before the sentence's end).  So the sentences of ``"①：…才能发动。…特殊召唤。"`` are not
    looked for; the result is the list above without some of the sentences so skipped
    (``tests/test_coverage_paths.py`` checks both sides on real texts)."""
    m = rules.prefilter.search(text, start, end)
    if m is not None and open_only:
        m = _open_word(text, m, end, rules)
    if m is None:
        return []
    if rules.end_chars is None:
        return _word_sentences_cut(text, start, end, rules, m)
    se = rules.sentence_end
    back = rules.end_chars[1].search
    rev = text[::-1]
    n = len(text)
    out = []
    while True:
        h = m.start()
        # the last sentence end before the word (cuts[i] <= h of the cut list; ``start`` if none)
        s, q = start, n - h
        while True:
            c = back(rev, q, n - start)  # a character a sentence end can be, nearest before ``h``
            if c is None:
                break
            p = n - 1 - c.start()
            mm = se.match(text, p, end)
            if mm is not None:
                s = mm.start() if mm.group() == "●" else mm.end()
                break
            q = c.start() + 1
        # the first one after it (cuts[i + 1] > h; ``end`` if none)
        mm = se.search(text, h, end)
        e = end if mm is None else (mm.start() if mm.group() == "●" else mm.end())
        if e <= h:  # pragma: no cover - a word that starts with a sentence end: cut the text
            return _word_sentences_cut(text, start, end, rules, rules.prefilter.search(text, start, end))
        out.append(_trimmed(text, s, e))
        m = rules.prefilter.search(text, max(e, m.end()), end)
        if m is not None and open_only:
            m = _open_word(text, m, end, rules)
        if m is None:
            return out


def _open_word(text: str, m: Any, end: int, rules: CoverageRules) -> Any:
    """(``open_only`` of :func:`_word_sentences`) The first ``prefilter`` match from ``m`` on
    (``m`` itself or a later one, searched up to ``end``) that no ``:`` / ``;`` of the effect
    holding it precedes, ``None`` when there is none.  A word at ``h`` with a colon at ``c < h``
    and no ``unit-start`` mark in ``(c, h]`` lies in an effect (from the last mark) that holds
    that colon before the word, and so before the end of the word's sentence: the sentence is
    an effect (:func:`coverage_of`'s first tests); so is every later word before the next mark."""
    unit = rules.unit_class.search
    find = rules.prefilter.search
    while True:
        h = m.start()
        c = max(text.rfind(":", 0, h), text.rfind(";", 0, h))
        if c < 0 or unit(text, c + 1, h) is not None:
            return m
        u = unit(text, h, end)  # the next effect: its words may be open
        if u is None:
            return None
        m = find(text, u.start(), end)
        if m is None:
            return None


def _trimmed(text: str, s: int, e: int) -> tuple[int, int]:
    """``(start, end)`` of ``text[s:e]`` without the white space at either end."""
    chunk = text[s:e]
    s += len(chunk) - len(chunk.lstrip())
    return s, s + len(chunk.strip())


def _word_sentences_cut(text: str, start: int, end: int, rules: CoverageRules, m: Any) -> list[tuple[int, int]]:
    """:func:`_word_sentences` by cutting the text at every sentence end (any ``sentence-end``):
    each word, from the first one ``m``, looked up among the cuts."""
    cuts = _cuts(text, start, end, rules)
    out = []
    h = m.start()
    while True:
        i = bisect_right(cuts, h) - 1  # cuts[i] <= h < cuts[i + 1]
        s, e = cuts[i], cuts[i + 1]
        out.append(_trimmed(text, s, e))
        # the next word after this sentence (the words inside it change nothing)
        m = rules.prefilter.search(text, max(e, m.end()), end)
        if m is None:
            return out
        h = m.start()


def _first_line(text: str, start: int, end: int, rules: CoverageRules) -> tuple[int, int] | None:
    """(Extra Deck monster with no material line read) Where its materials would be stated: the
    first line of the monster text, or its first sentence when the text is one line; ``None`` for
    an empty text or a first line that is an activated effect (``not-materials`` of ``rules``)."""
    nl = text.find("\n", start, end)
    if nl < 0:
        sents = _sentences(text, start, end, rules)
        s, e = sents[0] if sents else (start, start)
    else:
        s, e = start, nl
    while e > s and text[e - 1].isspace():
        e -= 1
    if e <= s or rules.not_materials.search(text, s, e):
        return None
    return (s, e)


def _unit_starts(text: str, rules: CoverageRules) -> list[int]:
    """(zh, ja) The offsets of the marks that start an effect in normalized ``text`` (``unit-start``
    of ``rules``: line breaks, ``●``, circled numbers), in order: :func:`_unit_start` looks them up."""
    return [m.start() for m in rules.unit_start.finditer(text)]


#: characters an effect is looked back over from a sentence (:func:`_unit_start`): more than any
#: real effect holds (the longest real card text has 1,959 characters, the matcher's window is
#: 2,500), so a real text reads as without the bound; a long text with no effect break (a sentence
#: repeated 10,000 times) is then searched in time linear in its length, not quadratic
#: (``bench/fuzz.py`` found 20-27k-character texts of repeated fragments taking 1.2-2.2 s in
#: coverage alone; issue 8 §2: no card slower than 1 s)
MAX_EFFECT = 2500


def _unit_start(text: str, s: int, starts: list[int]) -> int:
    """(zh) Where the effect holding normalized offset ``s`` starts: the last line break, ``●``
    or circled number before it (a Chinese effect is "①：…才能发动。…特殊召唤。": the sentence
    that Summons follows the one that says 发动), but never more than :data:`MAX_EFFECT`
    characters before ``s``.  ``starts``: :func:`_unit_starts` of ``text``."""
    i = bisect_right(starts, s) - 1
    u = starts[i] if i >= 0 else 0
    return u if s - u <= MAX_EFFECT else s - MAX_EFFECT


def _minus(span: tuple[int, int], read: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``span`` outside every ``read`` span."""
    parts = [span]
    for rs, re_ in read:
        nxt = []
        for s, e in parts:
            if re_ <= s or e <= rs:
                nxt.append((s, e))
                continue
            if s < rs:
                nxt.append((s, rs))
            if re_ < e:
                nxt.append((re_, e))
        parts = nxt
    return parts


def _cue_group(text: str, s: int, e: int, lang: str) -> str | None:
    """The group of the first cue matching inside normalized ``text[s:e]``, else ``None``."""
    for cue in load_cues(lang):
        if cue.regex.search(text, s, e):
            return cue.group
    return None


def coverage_of(mt: MappedText, lang: str, frame: Frame | None, seg: Segments,
                conditions: Iterable[Any]) -> tuple[Coverage | None, list[list]]:
    """Whether the summoning wording of one card text was read (rule: module docstring).

    Input: the normalized card text with its map to the original (``mt``), the language, the card
    frame, the text's segments and the conditions read from it (each with ``span`` into the
    ORIGINAL text and ``source``; only ``source == "text"`` ones count).
    Output: ``("complete", [])`` or ``("partial", [[start, end, group], ...])``: the unread pieces
    in text order, original offsets, end exclusive; ``(None, [])`` for a language family with no
    coverage rule (no ``coverage`` section in its ``patterns/cues/<fam>.yaml``: :func:`coverage_rules`).
    Raises: ``ValueError`` for an unsupported language (:func:`lang_family`); :class:`CueError` for
    a malformed ``coverage`` section.
    """
    rules = coverage_rules(lang)
    if rules is None:
        return None, []  # no coverage rule for this language: unknown, never claimed complete
    if frame is None or not frame.is_monster or frame.normal:
        return "complete", []
    text = mt.text
    ms, me = seg.monster
    mat = seg.material
    lead: tuple[int, int] | None = None  # the material line, read or not
    if mat is not None and mat[1] > mat[0]:
        lead = mat
        ms = max(ms, mat[1])
    elif frame.extra_deck and not any(getattr(c, "kind", None) == "material-line" and _field(c, "source", "text") == "text"
                                      for c in conditions):
        lead = _first_line(text, ms, me, rules)  # unread is not absent: the materials of an Extra Deck monster
        if lead is not None:
            ms = max(ms, lead[1])
    # only the sentences holding a prefilter word (zh, ja: and no colon of their effect before it)
    sentences = _word_sentences(text, ms, me, rules, rules.unit_class is not None)
    if not sentences and lead is None:
        return "complete", []  # no summoning wording at all (most cards: the cheap test says so)
    own: list | None = None  # the conditions read from the text, listed at the first need
    pieces: list[tuple[int, int]] = []  # normalized spans of summoning wording
    groups: list[str] = []
    if lead is not None:
        pieces.append(lead)
        groups.append("material-line")
    units: list[int] | None = None  # (zh, ja) where the effects start, found at the first need
    marks = rules.effect_marks
    keep, unit_start, smarks = rules.keep, rules.unit_start, rules.sentence_marks
    colon = rules.colon_marks and keep is None
    for s, e in sentences:
        sent = text[s:e]
        if keep is None:
            # an effect: a mark in the sentence or in the effect holding it (whichever says so first)
            if text.startswith("●", s) or ":" in sent or ";" in sent:  # the common marks first (plain string tests)
                continue
            if unit_start is not None:
                if units is None:
                    units = _unit_starts(text, rules)
                u = _unit_start(text, s, units)
                if colon and (text.find(":", u, s) >= 0 or text.find(";", u, s) >= 0):
                    continue  # "①：…发动。…特殊召唤。": the search of the effect would find its colon
            if marks.search(sent) or (smarks is not None and smarks.search(sent) is not None):
                continue
            if unit_start is not None and marks.search(text, u, e) is not None:
                continue
        else:
            # "Cannot be Special Summoned ..., and cannot attack": still its own Summon, whatever
            # marks it holds (so they are not searched for)
            effect = not (keep.search(sent) and not rules.activated.search(sent)) and (
                text.startswith("●", s) or ":" in sent or ";" in sent
                or bool(marks.search(sent)) or (smarks is not None and smarks.search(sent) is not None))
            if not effect and unit_start is not None:
                if units is None:
                    units = _unit_starts(text, rules)
                effect = marks.search(text, _unit_start(text, s, units), e) is not None
            if effect:
                continue
        if frame.gemini and rules.gemini.search(text, s, e):
            continue  # the Gemini reminder: read as a whole by the gemini condition
        if rules.limit.search(sent):
            if own is None:
                own = [c for c in conditions if _field(c, "source", "text") == "text"]
            if any(_field(c, "limit") for c in own):
                continue  # the limit sentence, read into a procedure's ``limit``
        pieces.append((s, e))
        groups.append("")  # decided below, only for a piece left unread
    if not pieces:
        return "complete", []
    if own is None:
        own = [c for c in conditions if _field(c, "source", "text") == "text"]
    read = sorted(tuple(c.span) for c in own)
    orig = mt.original
    filler, summon_words = rules.filler, rules.summon_words
    unread: list[list] = []
    for (s, e), g in zip(pieces, groups):
        os_, oe = mt.to_original(s, e)
        for rs, re_ in _minus((os_, oe), read):
            chunk = orig[rs:re_]
            if len(_NOT_WORD.sub("", filler.sub("", chunk))) >= 2:
                if not g:
                    g = _cue_group(text, s, e, lang) or ("summon-sentence" if summon_words.search(text, s, e)
                                                             else "")
                    if not g:
                        break  # neither a cue nor a Summon word: not summoning wording after all
                # trim outer spaces / punctuation so the span points at the words
                m = _WORDS.search(chunk)
                if m:
                    unread.append([rs + m.start(), rs + m.end(), g])
    return ("partial" if unread else "complete"), unread


_NOT_WORD = regex.compile(r"\W")
#: the words of an unread piece: from its first to its last word character, quote or bracket
_WORDS = regex.compile(r"[\w\"「」“”].*[\w\"」”)）]|[\w\"「」“”]", regex.S)


def _field(c: Any, name: str, default: Any = None) -> Any:
    """The field ``name`` of condition ``c``, ``default`` when its class has no such field (asked of
    the class, once per class: a pydantic model answers a missing attribute slowly, through an
    exception, and its class's ``model_fields`` is itself a slow property)."""
    cls = type(c)
    fields = _CLASS_FIELDS.get(cls, _UNSEEN)
    if fields is _UNSEEN:
        fields = getattr(cls, "model_fields", None)
        if len(_CLASS_FIELDS) < 256:  # the condition classes: a few dozen
            _CLASS_FIELDS[cls] = fields
    if fields is not None and name not in fields:
        return default
    return getattr(c, name, default)


_UNSEEN = object()
#: class -> its pydantic ``model_fields`` (``None``: not a pydantic model), for :func:`_field`
_CLASS_FIELDS: dict[type, Any] = {}
