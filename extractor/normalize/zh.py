"""Chinese normalizer: Traditional and Simplified, every register, to one canonical Simplified text.

Steps (each keeps the offset map):
1. NFC (never NFKC: ① stays ①).
2. Full-width ASCII forms U+FF01-FF5E (``１０００``, ``：``, ``，``, ``（）``) to ASCII; a pair of
   ASCII double quotes around a name (``"X"``, some community texts) to ``「X」`` like “X”.
3. Traditional -> Simplified with OpenCC's character table (TSCharacters, one character to one)
   -- only when the text holds a character that the table converts (Simplified text is untouched).
4. ``characters`` of ``patterns/terms/zh.yaml``: variant characters (壹 -> 一, seed 003), quotes.
5. ``terms``: generations and registers of game terms to the canonical wording (此卡 -> 这张卡,
   不可 -> 不能, 手牌 -> 手卡, 牌组 -> 卡组, 祭品 -> 解放, 我方 -> 自己, ...); every rewrite records
   the register its source belongs to (see :func:`registers`).
6. ``numerals``: a Chinese numeral before a measure word to digits (三体 -> 3体, 各一只 -> 各1只, 二体以上
   -> 2体以上; not 一体化 / 合为一体, not 第一只): every reader of counts sees digits.
7. ``counters``: a measure word after a digit or a numeral 二..十 to 只 (1体 -> 1只, 三体 -> 三只;
   not after 一, so 一体 "as one" stays).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import regex

from ..textmap import MappedText
from .common import nfc
from .frozen_re import _freeze, _thaw
from .zh_tables import (_COMMUNITY, _FULLWIDTH, _build_opencc, _build_scan, _build_tables, _build_trad_bmp_re, _Scan,
                        _Tables)

_FULLWIDTH_RE = re.compile("[\uFF01-\uFF5E]")
# a pair of ASCII (or full-width ＂) double quotes around a name, as some texts write "X" for 「X」
_ASCII_QUOTES_RE = regex.compile(r'"([^"\n]{1,60})"')
# an ASCII full stop right after a Chinese character or a closing bracket ends a Chinese sentence
# ("…进行特殊召唤.这张卡…" in older texts); never between digits ("1.5")
_CJK_PERIOD_RE = regex.compile(r"(?<=\p{Han}|[」』)])\.(?!\d)")


@lru_cache(maxsize=1)
def _opencc():
    """OpenCC's own Traditional->Simplified character table (``TSCharacters.txt``, first candidate)
    as a ``str.translate`` table, and the set of characters it converts.

    Character-level conversion keeps every offset (one character in, one out) and is ~50x faster
    than the pure-Python phrase converter; on the 14k yaml-yugi texts converted with s2tw it
    differs from ``OpenCC("t2s")`` only where t2s turns 覆 into 复 (反覆) and 藉 into 借 -- and
    覆盖 ("Set", older term) must stay 覆 here anyway (藉 is in the ``characters`` table).

    Output: ``(table, trad, _trad_bmp_re, astral)``: code point -> Simplified character, the
    converted characters, the function giving their BMP class, whether one is astral.  Read from
    the kept tables (:func:`_bundle`)."""
    return _bundle()[0]


def _opencc_file() -> Path:
    """The path of OpenCC's ``TSCharacters.txt``, found without importing the package (its
    ``__init__`` imports :mod:`json`)."""
    from importlib.util import find_spec

    spec = find_spec("opencc")
    where = spec.submodule_search_locations if spec is not None else None
    if not where:
        import opencc as _pkg

        return Path(_pkg.__file__).parent / "dictionary" / "TSCharacters.txt"
    return Path(list(where)[0]) / "dictionary" / "TSCharacters.txt"


@lru_cache(maxsize=1)
def _trad_bmp_re() -> "re.Pattern[str]":
    """The characters of OpenCC's table (:func:`_opencc`) in the Basic Multilingual Plane as one
    ``re`` class: ~5x faster than a set test over the text (the few astral ones are tested apart,
    see :func:`has_traditional`).  Compiled on first use (a few ms): :func:`normalize_zh` finds
    these characters with its own scan (:func:`_scan`).  Kept with the other tables
    (:func:`_bundle`)."""
    return _bundle()[3]


_ASTRAL_RE = re.compile("[\U00010000-\U0010FFFF]")


@lru_cache(maxsize=1)
def _bmp_list() -> list[int]:
    """OpenCC's table (:func:`_opencc`) for ``str.translate`` as a list indexed by code point over
    the Basic Multilingual Plane (every entry set, most to itself).  ``str.translate`` with a dict
    raises and clears a ``KeyError`` for every character the dict lacks; with this list it only
    indexes: 2-2.5x faster on a card text.  Characters beyond the list (astral) are left as they
    are: :func:`_to_simplified_text` translates a text holding one with the dict."""
    table = _opencc()[0]
    out = list(range(0x10000))
    for k, v in table.items():
        if k < 0x10000:
            out[k] = ord(v)
    return out


def _to_simplified_text(text: str) -> str:
    """``text.translate`` of OpenCC's table (:func:`_opencc`): the same string, faster."""
    if _opencc()[3] and _ASTRAL_RE.search(text) is not None:
        return text.translate(_opencc()[0])
    return text.translate(_bmp_list())


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """The compiled tables of ``patterns/terms/zh.yaml`` (kept: :func:`_bundle`)."""
    return _bundle()[1]


#: how far into a text :func:`normalize_zh` looks for a character of ``_Scan.slow_re`` before it
#: scans the text whole for both kinds at once: a Traditional text nearly always holds one of
#: OpenCC's characters among its first characters (yaml-yugi zh-TW, s2tw: 14,442 of the 14,459
#: Traditional texts within 24), a Simplified one takes one scan instead of two
_LOOK_AHEAD = 24


@lru_cache(maxsize=1)
def _scan() -> _Scan | None:
    """The tables of the usual text's way (:func:`_build_scan`; kept: :func:`_bundle`)."""
    return _bundle()[2]


#: bumped when the layout of what :func:`_bundle` keeps changes
_BUNDLE_FORMAT = 1


def _build_bundle(path: Path) -> tuple:
    """Every table of this module, built from OpenCC's file ``path`` and ``patterns/terms/zh.yaml``:
    ``((table, trad, astral), tables, scan, trad_bmp_re)`` (see :func:`_bundle`)."""
    oc = _build_opencc(path)
    tb = _build_tables(oc[1])
    return oc, tb, _build_scan(oc, tb), _build_trad_bmp_re(oc[1])


def _opencc_stamp(path: Path) -> tuple:
    """What tells a changed OpenCC table file: its path and stat stamp
    (:func:`extractor.patterns.cache.stat_stamp`, the one the catalog key uses)."""
    from ..patterns.cache import stat_stamp

    return (str(path), *stat_stamp(path.stat()))


@lru_cache(maxsize=1)
def _bundle() -> tuple:
    """``(opencc, tables, scan, trad_bmp_re)``: what :func:`_opencc`, :func:`_tables`,
    :func:`_scan` and :func:`_trad_bmp_re` give, kept across processes.

    A speed device: building them costs ~190 M instructions at a process's first Chinese text
    (OpenCC's file read, the terms' prefix trees and four classes of ~4,000 characters compiled by
    ``re``'s pure-Python parser), about 4 % of a ``tag`` run of 3,000 zh-CN cards (instruction
    counts of the whole run).  They are kept in the cache folder of the compiled catalog
    (:func:`extractor.patterns.cache.cached_build`, ``zh-normalizer-<key>.pickle``; the key hashes
    the catalog's files, this module and the Python version), each ``re`` pattern as its compiled
    code (:class:`_ReCode`, checked equal to ``re.compile``'s when it is made), with the stat stamp
    of OpenCC's file (:func:`_opencc_stamp`), which the key does not cover: a file that changed since is read again
    (the tables are then built in the process, as without the cache)."""
    from ..patterns.cache import cached_build

    path = _opencc_file()
    stamp = _opencc_stamp(path)
    kept = cached_build("zh-normalizer", lambda: (_BUNDLE_FORMAT, stamp, _freeze(_build_bundle(path))), tuple)
    try:
        if kept[0] == _BUNDLE_FORMAT and kept[1] == stamp:
            (table, trad, astral), tb, sc, trad_re = _thaw(kept[2])
        else:
            (table, trad, astral), tb, sc, trad_re = _build_bundle(path)
    except Exception:  # (a file of another layout: build)
        (table, trad, astral), tb, sc, trad_re = _build_bundle(path)
    return (table, trad, _trad_bmp_re, astral), tb, sc, trad_re


def _traditional_from(sc: _Scan, text: str, m: "re.Match[str] | None") -> bool:
    """Whether ``text`` holds a character of OpenCC's table, given ``m``, the first match of
    ``sc.slow_re`` in it: the matches are read on until one is such a character (a text holding "
    or . has only a few of those before it)."""
    while m is not None:
        if m.group() in sc.trad:
            return True
        m = sc.slow_re.search(text, m.end())
    return False


def _replace_chars(mt: MappedText, table: dict[str, str], found: set[str]) -> None:
    """Replace each character of ``found`` by ``table[c]``, one character for one (no value is a
    key: the order of the replacements does not matter).  Offsets are kept
    (:meth:`MappedText.translate_chars`); ``str.replace`` per distinct character is far faster
    than a callback per occurrence."""
    t = mt.text
    for c in found:
        t = t.replace(c, table[c])
    mt.translate_chars(t)


def has_traditional(text: str) -> bool:
    """True if ``text`` holds a character that OpenCC's Traditional->Simplified table converts."""
    _, trad, _, astral = _opencc()
    if _trad_bmp_re().search(text) is not None:
        return True
    return astral and _ASTRAL_RE.search(text) is not None and not trad.isdisjoint(text)


def to_simplified(mt: MappedText) -> MappedText:
    """Traditional -> Simplified, character by character with OpenCC's table (a no-op when ``mt``
    holds no Traditional character).  Offsets are kept one to one."""
    if not has_traditional(mt.text):
        return mt
    return mt.translate_chars(_to_simplified_text(mt.text))


_COMMUNITY_RE = re.compile("|".join(_COMMUNITY))  # the four markers as one expression


def _has_community_marker(text: str) -> bool:
    """True if ``text`` holds a marker of the community register (:data:`_COMMUNITY`): four
    substring tests, ~3x cheaper than one scan of :data:`_COMMUNITY_RE` over a card text."""
    return "这张卡" in text or "不能" in text or "手卡" in text or "卡组" in text


def _registers_of(words: list[str], simplified: str) -> list[str]:
    """The registers of the term wordings ``words`` found in ``simplified`` (the card text after
    Traditional->Simplified), plus ``community`` when one of its markers is in that text;
    ``community`` alone when nothing else is found.  Identity entries (对方 -> 对方) only protect
    compounds and mark no register, nor does a wording of register ``any``."""
    marks = _tables().marks
    found = {marks[w] for w in words}
    found.discard(None)
    if _has_community_marker(simplified):
        found.add("community")
    return sorted(found) or ["community"]


def normalize_zh(text: str) -> MappedText:
    """Normalize Chinese text (either script, any register).

    Input: the original text.  Output: a :class:`MappedText` with the canonical Simplified text
    and ``registers``: the registers whose marker terms occur in the text after
    Traditional->Simplified (``official``, ``old``, ``community``; ``community`` alone when no
    marker of another register is found; recorded from the words present, never guessed).
    Nothing is kept between calls.

    One scan (``_Scan.slow_re``) tells the usual text (NFC already, no Traditional character, no
    ASCII " or ., nothing that ``characters`` removes) from the others: it takes one more scan for
    the full-width forms and ``characters`` (replaced together, one for one: the same text and map
    as the two passes) and then the terms; any other text takes the passes one by one
    (:func:`_normalize_steps`), told by the first scan whether it is Traditional."""
    sc = _scan()
    if sc is None or (not text.isascii() and unicodedata.normalize("NFC", text) != text):
        return _normalize_steps(text, None)
    mt = MappedText(text)
    m = sc.slow_re.search(text, 0, _LOOK_AHEAD)
    if m is None:  # (most Simplified texts) the rest in one scan for the characters of both kinds
        t = _common_replaced(text, sc)
        found = set(sc.fast_slow_re.findall(t))
        if not found <= sc.fast_only:
            if not found - sc.fast_only <= sc.trad or max(found) > "\uffff":
                return _normalize_steps(text, not sc.trad.isdisjoint(found))
            t, found = _translated(mt, sc)
    elif m.group() in sc.trad:
        t, found = _translated(mt, sc)
    else:
        return _normalize_steps(text, _traditional_from(sc, text, m))
    if found is None:  # (Traditional text holding a character that the passes one by one take)
        return _normalize_steps(text, True)
    raw = mt.text  # (the text after Traditional -> Simplified)
    if found:
        table = sc.table
        for c in found:
            t = t.replace(c, table[c])
    # one for one (see _Scan): every offset maps to itself, as translate_chars records
    mt.text = t
    words = mt.replace_table(sc.words, sc.split)
    if not words:  # (no numeral and no counter either: each is a word)
        mt.registers = ["community"]  # community alone, whether one of its markers is there or not
        return mt
    if found <= sc.aligned or _untouched(sc, found, words):
        marks = set(map(sc.marks.__getitem__, words))
        marks.discard(None)
        if _has_community_marker(t):
            marks.add("community")
        mt.registers = sorted(marks) or ["community"]
    else:  # registers(text), knowing whether the text holds a Traditional character
        mt.registers = _registers_of(_tables().terms_re.findall(raw), raw)
    if not sc.numeral_words.isdisjoint(words) or not sc.counter_words.isdisjoint(words):
        _counts(mt, _tables())
    return mt


def _untouched(sc: _Scan, found: set[str], words: list[str]) -> bool:
    """Whether the terms pass over the text with the characters ``found`` replaced matched the
    words it matches in the text before (``found``: the characters replaced; False when one is
    neither in ``sc.aligned`` nor in ``sc.soft_words``).

    A speed device: the registers are then read from ``words`` instead of a second scan of the
    terms' prefix tree over the text before the replacements (yaml-yugi zh-CN: 3,856 of 14,469
    texts, those holding ``１``..``４``).  Why it is the same: such a character ``c`` is in no term,
    so no match in the text before covers it; where no match covers ``sc.table[c]`` either (none of
    ``words`` holds it), the two texts agree on every span the scan matched, and at each position
    the longest word there is the same (the matches possible in the text before are a part of
    those in the text after); neither the character nor its replacement is in a community
    marker, so the marker test reads the same too."""
    aligned = sc.aligned
    soft = sc.soft_words
    for c in found:
        if c not in aligned:
            held = soft.get(c)
            if held is None or not held.isdisjoint(words):
                return False
    return True


def _common_replaced(text: str, sc: _Scan) -> str:
    """``text`` with the full-width forms of :data:`_COMMON_FULLWIDTH` replaced."""
    for c, r in sc.common:
        text = text.replace(c, r)
    return text


def _translated(mt: MappedText, sc: _Scan) -> tuple[str, "set[str] | None"]:
    """Traditional -> Simplified of ``mt.text`` (one for one: every offset maps to itself, as
    ``translate_chars`` records), then what the usual way needs: the text with the common
    full-width forms replaced and the characters of ``fast_re`` in it; ``None`` for those when it
    holds a character that only the passes one by one take (" and ., a character ``characters``
    removes, an astral character)."""
    mt.text = mt.text.translate(_bmp_list())
    t = _common_replaced(mt.text, sc)
    found = set(sc.fast_other_re.findall(t))
    return t, (found if found <= sc.table.keys() else None)


def _normalize_steps(text: str, traditional: bool | None) -> MappedText:
    """:func:`normalize_zh` one pass after the other (steps 1-7 of the module).  ``traditional``:
    whether ``text`` holds a character of OpenCC's table, when it is known and ``text`` is NFC
    already, else ``None``."""
    known = traditional
    tb = _tables()
    mt = nfc(MappedText(text))
    # `aligned`: every pass before the terms rewrites only characters that are in no term and no
    # community marker, one for one: the terms pass then matches the same words, and the markers
    # stand in the same places, as in the card text after Traditional->Simplified alone (what the
    # registers are read from), so that text need not be made
    aligned = mt.text is text and tb.passes_keep_traditional
    # whether the text holds Traditional characters, tested before the passes below when they
    # neither add nor remove one (see _Tables.passes_keep_traditional)
    if known is None:
        traditional = has_traditional(mt.text) if tb.passes_keep_traditional else None
    fw = set(_FULLWIDTH_RE.findall(mt.text))
    if fw:
        _replace_chars(mt, _FULLWIDTH, fw)
        aligned = aligned and tb.fullwidth_touching.isdisjoint(fw)
    if '"' in mt.text or "." in mt.text:
        before = mt.text
        if '"' in mt.text:
            mt.sub(_ASCII_QUOTES_RE, lambda m: "「" + m.group(1) + "」")
        if "." in mt.text:
            mt.sub(_CJK_PERIOD_RE, lambda m: "。")
        aligned = aligned and (tb.marks_neutral or mt.text is before)
    if traditional is None:
        to_simplified(mt)
    elif traditional:
        mt.translate_chars(_to_simplified_text(mt.text))
    found = set(tb.chars_re.findall(mt.text))
    if found:
        aligned = aligned and found <= tb.neutral_chars
        if tb.chars_length is not None and tb.chars_length.isdisjoint(found):
            _replace_chars(mt, tb.chars, found)  # all one character for one here
        else:
            mt.replace_all(tb.chars, tb.chars_re)
    before_terms = mt.text
    words = mt.replace_table(tb.terms, tb.terms_split)
    if aligned:
        mt.registers = _registers_of(words, before_terms)
    elif known is not None:  # registers(text), knowing whether the text holds a Traditional character
        simplified = _to_simplified_text(text) if traditional else text
        mt.registers = _registers_of(tb.terms_re.findall(simplified), simplified)
    else:
        mt.registers = registers(text)
    _counts(mt, tb)
    return mt


def _holds_any(text: str, words: "dict[str, str]") -> bool:
    """True if ``text`` holds one of ``words`` (a few substring tests: the counters 体 and 位 are in
    ~1 % of the texts, cheaper to rule out than to scan for with ``counter_pre``)."""
    for w in words:
        if w in text:
            return True
    return False


def _counts(mt: MappedText, tb: _Tables) -> None:
    """Steps 6 and 7: numerals before a measure word to digits, then measure words after a count to
    只, each behind the stdlib ``re`` test of its plain pair (``numeral_pre``, ``counter_pre``)."""
    if tb.numeral_re is not None and tb.numeral_pre.search(mt.text) and tb.numeral_re.search(mt.text):
        numerals = tb.numerals
        mt.sub(tb.numeral_re, lambda m: numerals[m.group()])
    if tb.counter_re is not None and _holds_any(mt.text, tb.counters) and tb.counter_pre.search(mt.text) \
            and tb.counter_re.search(mt.text):
        counters = tb.counters
        mt.sub(tb.counter_re, lambda m: counters[m.group()])


def registers(text: str) -> list[str]:
    """The registers whose marker terms occur in ``text`` (after Traditional->Simplified): ``official``, ``old``,
    ``community``; ``community`` alone when no marker of another register is found.
    Recorded from the words present, never guessed.  (``normalize_zh(text).registers`` gives the
    same list together with the normalized text.)"""
    t = _to_simplified_text(text) if has_traditional(text) else text
    return _registers_of(_tables().terms_re.findall(t), t)
