"""Coverage: was every piece of a card's summoning wording read? (issue 10 section 8)

A card's result says ``coverage: "complete"`` when every piece of its summoning wording lies inside
a phrase the pattern catalog read (a condition's ``span``), and ``"partial"`` otherwise, with the
``unread`` pieces as ``[start, end, group]`` (character offsets into the ORIGINAL card text, end
exclusive; ``group`` names the kind of wording: a cue group of ``patterns/cues/<lang>.yaml``,
``summon-sentence`` or ``material-line``).

The rule (:func:`coverage_of`), decided on the seed document's split between a Summoning Condition
and an effect (seed 002: a built-in Special Summon "does not start a Chain"; an effect that
Summons is activated):

0. English, Chinese and Japanese (``patterns/cues/ja.yaml``; a language family without a rule here
   would get ``None``, unknown, never ``complete``).
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
   ダメージ / ドロー, …したターン, この効果で, 限り, 度に, 代わりに: :data:`EFFECT_MARKS`); a Gemini
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
   "also", 这张卡, 此卡, 另外 ...; :data:`FILLER`).  So a cue inside a read phrase is read, and a
   sentence read only in part ("Must be Special Summoned (from your hand)" read, "by banishing 1
   LIGHT ..." not) is partial, pointing at the part that was not read.

Precision was measured by reading partial cards of yaml-yugi en and zh-CN (``bench/coverage.py``).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any, Iterable, Literal, Sequence

import regex

from .cues import load_cues
from .frame import Frame
from .normalize import lang_family
from .segment import Segments
from .textmap import MappedText

__all__ = ["coverage_of", "Coverage", "Unread"]

Coverage = Literal["complete", "partial"]
Unread = list  # [start, end, group]

#: Summon words per language family (on the NORMALIZED text).
SUMMON_WORDS = {
    "en": re.compile(r"\b(?:[Cc]annot|[Mm]ust(?: first)?|can only|can also|can(?:not)? be) (?:be )?(?:\w+ ){0,2}?Summon(?:ed)?\b"
                        r"|\bSummon(?:ed)? (?:this card|it)\b|\b(?:[Tt]his card|[Ii]t)\b[^.:;]*?\b(?:Tribute|Normal|Special"
                        r"|Ritual|Fusion|Synchro|Xyz|Link) Summon(?:ed)?\b|\b[Tt]ribut(?:e|es|ing)\b[^.:;]*\bSummon"),
    "zh": re.compile(r"召唤|解放|祭品|降临"),
    "ja": re.compile(r"召喚|リリース|生け贄|降臨"),
}
#: Words one of which every cue and every Summon word holds (a sentence without any is skipped
#: before the slower tests; a cue must hold one of them: ``tests/test_coverage.py`` checks it).
_PREFILTER = {
    "en": re.compile(r"Summon|Tribut|Ritual|Fusion"),
    "zh": re.compile(r"召唤|解放|祭品|降临|仪式|融合"),
    "ja": re.compile(r"召喚|リリース|生け贄|降臨|儀式|融合"),
}
#: A limit sentence ("You can only Special Summon "X" once per turn this way.", 这个方法的特殊召唤1回合只能有1次):
#: a procedure's ``limit`` is read from it, but the procedure's span does not cover it, so such a
#: sentence counts as read when some condition of the card carries a ``limit``.
_LIMIT = {
    "en": re.compile(r"\bonce per (?:turn|Duel)\b"),
    "zh": re.compile(r"(?:1回合|决斗中)[^。]{0,6}(?:只能|仅可|仅能|只可)[^。]{0,4}1次|1回合1次"),
    "ja": re.compile(r"(?:1ターン|デュエル中)に1(?:度|回)"),
}
#: Marks of an activated or triggered effect: a sentence holding one is not summoning wording.
EFFECT_MARKS = {
    "en": re.compile(r"[:;]|\bactivat(?:e|ed|es|ing|ion)\b|^(?:Once per turn|During|Each time|After)\b"
                        r"|\b(?:[Ii]f|[Ww]hen|[Ee]ach time|[Aa]fter|[Ww]hile)\b[^,.]*\b(?:is|was|are|were)\b[^,.]*\bSummoned\b"
                        r"|^When\b[^.]*\byou can\b|\bcannot attack\b|\bentire Tribute\b|\bbe Tributed\b"
                        r"|\bSpecial Summon (?:\d|up to|an? |that|those|the |them|all|any)|\bSummoned using this card\b|\bunequip|\breturns? to (?:the|its) owner's hand\b"
                        r"|(?-i:\b(?:attacks?|inflicts?|discards?|draws?|gains?|piercing|as a Level)\b)"
                        r"|\bas (?:an? )?(?:\w+ )?Material\b|\bcannot be destroyed\b|\b(?:2|two) Tributes\b|\bsubstitute\b", re.I),
    "zh": re.compile(r"[:;：；]|发动|召唤成功|召唤·[^。]*成功|作为[^。]*素材|为素材|得到以下效果|回到持有者手|召唤使用|再度召唤的状态|装备解除|当作装备卡"
                       r"|(?:破坏|送去墓地|除外|召唤)(?:的场合|时)[，,][^。]*?可以[^。]*?特殊召唤"
                       r"|(?:选择|把|将)(?:(?!解放|除外|送去|丢弃|这张卡|此卡)[^。，,])*?(?:\d+|[一二两])只[^。]*特殊召唤"),
    # (ja) as zh: the colon of ①：, 発動, a Summon as an event (召喚に成功した / 特殊召喚された時),
    # materials (素材として), a trigger that Summons (…時、…特殊召喚), other monsters counted (１体を特殊召喚)
    "ja": re.compile(r"[:;：；]|発動|召喚に成功|召喚成功|召喚され(?:た|る)(?:時|場合|ターン)|素材と(?:し|な)|素材に|以下の効果を得る|持ち主の手札に戻|再度召喚された状態|装備(?:を解除|カード扱い)"
                       r"|(?:破壊|送られ|除外され|召喚され)(?:た|る)?(?:時|場合)、[^。]*?特殊召喚|た時、[^。]*?特殊召喚"
                       r"|(?:られ|され|送っ|捨て|加わっ|破壊し)た場合、[^。]*?特殊召喚"
                       r"|(?:\d+|[一二])体(?:まで)?を(?:(?!場合|リリース|生け贄|除外|墓地へ送|捨て)[^。、]){0,12}?特殊召喚"
                       # what the card does besides, or after it was Summoned (as en: attacks, damage, draws, counters,
                       # "その効果で", "…したターン", a use as material): never a condition of its own Summon
                       r"|攻撃|ダメージ|ドロー|手札に加え|回復|カウンター|素材とする|に使用|したターン|この(?:効果|方法)で|度に|限り|代わりに|として扱"
                       r"|召喚した(?:時|場合|この|$)|^1ターンに1度、"),
}
#: Where sentences end (normalized text): a cut right after a full stop (en: followed by a space or
#: the end), a line break, and right before a ``●`` bullet.  (Plain ``re``: no look-behind, fast.)
_SENT_END = {
    "en": re.compile(r"[.!?](?=\s|$)|\n|●"),
    "zh": re.compile(r"[。!?！？]|\n|●"),
    "ja": re.compile(r"[。!?！？]|\n|●"),
}
#: Words that carry no condition: a residue made only of these (and punctuation) is not unread.
FILLER = {
    "en": re.compile(r"\b(?:and )?cannot be Special Summoned by other ways\b|\b(?:the above )?Fusion Material(?:s| Monsters)?\b|\bRitual Spell(?: Card)?\b|\bbut its original (?:ATK|DEF)(?: and (?:ATK|DEF))? (?:becomes|become) \d+|(?i:\b(?:this|card|monster|it|and|or|also|but|the|a|its|only|further(?:more)?|in addition|however|then)\b)"
                        r"|[^\w\"]|\s"),
    "zh": re.compile(r"这张卡|此卡|這張卡|該卡|这只怪兽|此怪兽|另外|并且|并|且|而|则|这个|此|[^\w「」\"]|\s"),
    "ja": re.compile(r"このカード|このモンスター|また|さらに|および|かつ|[^\w「」\"]|\s"),
}


def _sentences(text: str, start: int, end: int, fam: str) -> list[tuple[int, int]]:
    """``[start, end)`` of normalized ``text`` cut into sentences (each stripped of outer spaces)."""
    # the cuts never go back; two at one place leave an empty piece between them, skipped below
    cuts = [start, *[m.start() if m.group() == "●" else m.end() for m in _SENT_END[fam].finditer(text, start, end)], end]
    out = []
    for s, e in zip(cuts, cuts[1:]):
        chunk = text[s:e]
        words = chunk.strip()  # str.strip() strips what str.isspace() calls a space
        if words:
            s += len(chunk) - len(chunk.lstrip())
            out.append((s, s + len(words)))
    return out


_GEMINI = {"en": re.compile(r"\b(?:Normal|Effect) Monster\b"), "zh": re.compile(r"效果怪兽|通常怪兽|再度召唤"),
           "ja": re.compile(r"効果モンスター|通常モンスター|再度召喚")}
#: (en) A restriction on this card's own Summon keeps its sentence summoning wording even when the
#: sentence also speaks of attacks, damage, draws (" ... cannot be Special Summoned, and cannot attack").
_EN_KEEP = re.compile(r"^(?:This card )?(?:[Cc]annot|[Mm]ust(?: first)?|can only) be (?:\w+ )?Summoned\b")
_ACTIVATED = re.compile(r"[:;]|\bactivat", re.I)
_UNIT_START = re.compile(r"[\n●①②③④⑤⑥⑦⑧⑨⑩]")


#: Marks of an activated effect that no material line holds: a first line holding one is an effect,
#: so the text states no materials there (a fragment of a text, not an unread line).
#: (A label "FUSION:" / 融合: before the materials is no effect mark.)
_NOT_MATERIALS = regex.compile(r"(?<!\b(?i:fusion|synchro|xyz|link)(?: Materials?)?|融合|同调|超量|连接)[:：]|[;；①-⑩●]|发动|発動|\bactivat",
                               regex.I)


def _first_line(text: str, start: int, end: int, fam: str) -> tuple[int, int] | None:
    """(Extra Deck monster with no material line read) Where its materials would be stated: the
    first line of the monster text, or its first sentence when the text is one line; ``None`` for
    an empty text or a first line that is an activated effect (:data:`_NOT_MATERIALS`)."""
    nl = text.find("\n", start, end)
    if nl < 0:
        sents = _sentences(text, start, end, fam)
        s, e = sents[0] if sents else (start, start)
    else:
        s, e = start, nl
    while e > s and text[e - 1].isspace():
        e -= 1
    if e <= s or _NOT_MATERIALS.search(text, s, e):
        return None
    return (s, e)


def _unit_starts(text: str) -> list[int]:
    """(zh) The offsets of the marks that start an effect in normalized ``text`` (line breaks,
    ``●``, circled numbers), in order: :func:`_unit_start` looks them up."""
    return [m.start() for m in _UNIT_START.finditer(text)]


def _unit_start(text: str, s: int, starts: list[int] | None = None) -> int:
    """(zh) Where the effect holding normalized offset ``s`` starts: the last line break, ``●``
    or circled number before it (a Chinese effect is "①：…才能发动。…特殊召唤。": the sentence
    that Summons follows the one that says 发动).  ``starts``: :func:`_unit_starts` of ``text``
    (made here when not given)."""
    if starts is None:
        starts = _unit_starts(text)
    i = bisect_right(starts, s) - 1
    return starts[i] if i >= 0 else 0


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


def _cue_group(text: str, s: int, e: int, fam: str, lang: str) -> str | None:
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
    coverage rule (none of en / zh / ja: not in :data:`SUMMON_WORDS`).
    Raises: ``ValueError`` for an unsupported language (:func:`lang_family`).
    """
    fam = lang_family(lang)
    if fam not in SUMMON_WORDS:
        return None, []  # no coverage rule for this language (ja): unknown, never claimed complete
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
        lead = _first_line(text, ms, me, fam)  # unread is not absent: the materials of an Extra Deck monster
        if lead is not None:
            ms = max(ms, lead[1])
    pre = _PREFILTER[fam]
    sentences = _sentences(text, ms, me, fam) if pre.search(text, ms, me) else ()
    if not sentences and lead is None:
        return "complete", []  # no summoning wording at all (most cards: the cheap test says so)
    own = [c for c in conditions if _field(c, "source", "text") == "text"]
    read = sorted(tuple(c.span) for c in own)
    pieces: list[tuple[int, int]] = []  # normalized spans of summoning wording
    groups: list[str] = []
    if lead is not None:
        pieces.append(lead)
        groups.append("material-line")
    limit_read = any(_field(c, "limit") for c in own)
    units: list[int] | None = None  # (zh) where the effects start, found at the first need
    marks = EFFECT_MARKS[fam]
    for s, e in sentences:
        if not pre.search(text, s, e):
            continue  # neither a cue nor a Summon word can match here (the cheap test first)
        sent = text[s:e]
        effect = (text.startswith("●", s) or ":" in sent or ";" in sent  # the common marks first (plain string tests)
                  or bool(marks.search(sent)))
        if effect and fam == "en" and _EN_KEEP.search(sent) and not _ACTIVATED.search(sent):
            effect = False  # "Cannot be Special Summoned ..., and cannot attack": still its own Summon
        if not effect and fam in ("zh", "ja"):
            if units is None:
                units = _unit_starts(text)
            effect = marks.search(text, _unit_start(text, s, units), e) is not None
        if effect:
            continue
        if frame.gemini and _GEMINI[fam].search(text, s, e):
            continue  # the Gemini reminder: read as a whole by the gemini condition
        if limit_read and _LIMIT[fam].search(sent):
            continue  # the limit sentence, read into a procedure's ``limit``
        pieces.append((s, e))
        groups.append("")  # decided below, only for a piece left unread
    orig = mt.original
    unread: list[list] = []
    for (s, e), g in zip(pieces, groups):
        os_, oe = mt.to_original(s, e)
        for rs, re_ in _minus((os_, oe), read):
            chunk = orig[rs:re_]
            if len(_NOT_WORD.sub("", FILLER[fam].sub("", chunk))) >= 2:
                if not g:
                    g = _cue_group(text, s, e, fam, lang) or ("summon-sentence" if SUMMON_WORDS[fam].search(text, s, e)
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
    the class: a pydantic model answers a missing attribute slowly, through an exception)."""
    fields = getattr(type(c), "model_fields", None)
    if fields is not None and name not in fields:
        return default
    return getattr(c, name, default)
