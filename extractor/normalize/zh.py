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
from typing import NamedTuple

import regex

from ..textmap import MappedText, split_alternation, trie_alternation
from .common import load_terms, nfc

_FULLWIDTH = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}
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


def _build_opencc(path: Path) -> tuple[dict[int, str], frozenset[str], bool]:
    """OpenCC's table read from ``path`` (see :func:`_opencc`): ``(table, trad, astral)``."""
    table: dict[int, str] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 2:
                continue
            src, dst = parts[0], parts[1].split(" ")[0]
            if len(src) == 1 and len(dst) == 1 and src != dst:
                table[ord(src)] = dst
    trad = frozenset(chr(c) for c in table)
    return table, trad, any(c > 0xFFFF for c in table)


@lru_cache(maxsize=1)
def _trad_bmp_re() -> "re.Pattern[str]":
    """The characters of OpenCC's table (:func:`_opencc`) in the Basic Multilingual Plane as one
    ``re`` class: ~5x faster than a set test over the text (the few astral ones are tested apart,
    see :func:`has_traditional`).  Compiled on first use (a few ms): :func:`normalize_zh` finds
    these characters with its own scan (:func:`_scan`).  Kept with the other tables
    (:func:`_bundle`)."""
    return _bundle()[3]


def _build_trad_bmp_re(trad: frozenset[str]) -> "re.Pattern[str]":
    """The class of :func:`_trad_bmp_re` for OpenCC's characters ``trad``."""
    return re.compile("[" + "".join(re.escape(c) for c in sorted(trad) if ord(c) <= 0xFFFF) + "]")


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


class _Tables(NamedTuple):
    """The compiled tables of ``patterns/terms/zh.yaml``."""

    chars: dict[str, str]                 # ``characters``: one character -> its canonical form
    chars_re: "re.Pattern[str]"           # finds any key of ``chars``
    chars_length: frozenset[str] | None   # keys of ``chars`` whose value is not one character
    terms: dict[str, str]                 # ``terms``: wording -> canonical wording
    terms_re: "re.Pattern[str]"           # the keys of ``terms`` as one prefix tree
    terms_split: "re.Pattern[str]"        # the same in one group (MappedText.replace_table)
    register_of: dict[str, str]           # wording -> register (official, old, community, any)
    numerals: dict[str, str]              # ``numerals.digits``: Chinese numeral -> digits
    numeral_re: "regex.Pattern[str] | None"  # a numeral before a measure word (``numerals``)
    numeral_pre: "re.Pattern[str] | None"    # the same without its lookarounds (a stdlib ``re`` test first)
    counters: dict[str, str]              # ``counters``: measure word -> 只
    counter_re: "regex.Pattern[str] | None"
    counter_pre: "re.Pattern[str] | None"    # the same without its lookbehind (a stdlib ``re`` test first)
    marks: dict[str, str | None]          # term wording -> the register it marks (None: identity or ``any``)
    # for reading the registers from the terms pass itself (see normalize_zh): a pass before it
    # that only rewrites characters found in no term and no community marker, one for one, leaves
    # the terms' matches where they were
    fullwidth_touching: frozenset[str]     # full-width forms that are, or whose ASCII form is, such a letter
    neutral_chars: frozenset[str]          # ``chars`` keys rewritten one for one, neither side such a letter
    marks_neutral: bool                    # the quote and full-stop passes touch no such letter
    # the full-width, quote and full-stop passes neither add nor remove a character of OpenCC's
    # Traditional table (none of U+FF01-FF5E, their ASCII forms, 「, 」, . or 。 is in it)
    passes_keep_traditional: bool


_COUNT_BEFORE = "[0-9二两三四五六七八九十]"  # what a counter (``counters``) follows: a digit or a numeral 二..十


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """The compiled tables of ``patterns/terms/zh.yaml`` (kept: :func:`_bundle`)."""
    return _bundle()[1]


def _build_tables(trad: frozenset[str]) -> _Tables:
    """:func:`_tables` built from ``patterns/terms/zh.yaml``, ``trad``: OpenCC's characters."""
    data = load_terms("zh")
    chars: dict[str, str] = data.get("characters", {})
    terms = {f: t for f, t, _ in data.get("terms", [])}
    register_of = {f: r for f, _, r in data.get("terms", [])}
    counters = data.get("counters", {})
    num = data.get("numerals") or {}
    numerals = {str(k): str(v) for k, v in (num.get("digits") or {}).items()}
    numeral_re = numeral_pre = counter_pre = None
    if numerals and num.get("measures"):
        alt = "|".join(map(regex.escape, numerals))
        after = "".join(f"(?<!{regex.escape(w)})" for w in num.get("not_after", []))
        before = "".join(f"(?!{regex.escape(w)})" for w in num.get("not_before", []))
        measures = "|".join(map(regex.escape, num["measures"]))
        # (never inside a longer numeral: 十二只, 二十只 stay as written)
        numeral_re = regex.compile(f"{after}(?<!{alt})(?:{alt})(?=(?:{measures})){before}")
        # every match of numeral_re is a numeral followed by a measure word: a text without one needs
        # no regex scan with lookbehinds (stdlib re scans the plain pair ~2x faster)
        numeral_pre = re.compile("(?:" + "|".join(map(re.escape, numerals)) + ")(?:"
                                 + "|".join(map(re.escape, num["measures"])) + ")")
    counter_re = regex.compile(r"(?<=" + _COUNT_BEFORE + ")(?:" + "|".join(map(regex.escape, counters)) + ")") if counters else None
    if counters:  # likewise: a counter right after a digit or a numeral
        counter_pre = re.compile(_COUNT_BEFORE + "(?:" + "|".join(map(re.escape, counters)) + ")")
    if all(len(c) == 1 for c in chars):
        # every key of `characters` is one character: a character class finds the same matches
        chars_re = re.compile("[" + "".join(re.escape(c) for c in chars) + "]")
        # one-for-one replacement (see _replace_chars) is possible unless a value is also a key;
        # the keys that change the length (\r -> nothing) rule it out for a text holding them
        chars_length = None if set(chars.values()) & set(chars) else frozenset(k for k, v in chars.items() if len(v) != 1)
    else:
        chars_re = re.compile("|".join(re.escape(k) for k in sorted(chars, key=len, reverse=True)))
        chars_length = None
    letters = {c for k in terms for c in k} | {c for m in _COMMUNITY for c in m}
    fullwidth_touching = frozenset(fw for fw, a in _FULLWIDTH.items() if fw in letters or a in letters)
    neutral = frozenset(k for k, v in chars.items() if len(k) == 1 and len(v) == 1 and k not in letters and v not in letters)
    marks_neutral = letters.isdisjoint('"「」.。')
    keep = trad.isdisjoint(set(_FULLWIDTH) | set(_FULLWIDTH.values()) | set('「」.。'))
    terms_re = trie_alternation(terms)
    marks = {w: (r if terms[w] != w and r != "any" else None) for w, r in register_of.items()}
    return _Tables(chars, chars_re, chars_length, terms, terms_re, split_alternation(terms_re), register_of, numerals, numeral_re,
                   numeral_pre, counters, counter_re, counter_pre, marks,
                   fullwidth_touching, neutral, marks_neutral, keep)


class _Scan(NamedTuple):
    """The scans that sort a text before the passes, and the tables of the usual way (see
    :func:`normalize_zh`)."""

    slow_re: "re.Pattern[str]"    # a character that needs the passes one by one or the translation (see slow)
    slow: frozenset[str]          # OpenCC's Traditional characters, " and . (and their full-width
                                  # forms), the ``characters`` keys that are removed; slow_re also
                                  # finds every astral character
    fast_re: "re.Pattern[str]"    # a full-width form or a one-for-one ``characters`` key
    table: dict[str, str]         # such a character -> its replacement
    aligned: frozenset[str]       # the replaced characters that leave the registers readable from the terms pass
    trad: frozenset[str]          # OpenCC's characters
    common: tuple[tuple[str, str], ...]  # (form, replacement) of _COMMON_FULLWIDTH, each in table and aligned
    fast_slow_re: "re.Pattern[str]"   # a character of fast_re or of slow_re: one scan finds both
    fast_only: frozenset[str]         # the keys of table that are not in slow
    fast_other_re: "re.Pattern[str]"  # a character of fast_re or of slow_re but OpenCC's (BMP) ones:
                                      # the scan of a translated text
    words: dict[str, str]         # the terms, and each numeral and counter (``numerals.digits``,
                                  # ``counters``) that is no term as itself: the words of split
    split: "re.Pattern[str]"      # their prefix tree in one group (MappedText.replace_table)
    marks: dict[str, "str | None"]  # word -> the register it marks (None: none)
    numeral_words: frozenset[str]   # the words whose replacement holds a numeral
    counter_words: frozenset[str]   # the words whose replacement holds a counter
    # the replaced characters outside ``aligned`` that are in no term and no community marker and
    # whose replacement is in no community marker -> the words holding that replacement: when the
    # terms pass matched none of those words, it matched what it matches in the text before the
    # replacements (see normalize_zh)
    soft_words: dict[str, frozenset[str]]


#: the full-width forms that most texts hold, several times (yaml-yugi zh-CN: ， in 84 % of the texts,
#: 1.9 a text; ： in 72 %, 1.4): replaced by ``str.replace`` before the scan for the others, which then
#: makes no string for them
_COMMON_FULLWIDTH = ("，", "：")

#: how far into a text :func:`normalize_zh` looks for a character of ``_Scan.slow_re`` before it
#: scans the text whole for both kinds at once: a Traditional text nearly always holds one of
#: OpenCC's characters among its first characters (yaml-yugi zh-TW, s2tw: 14,442 of the 14,459
#: Traditional texts within 24), a Simplified one takes one scan instead of two
_LOOK_AHEAD = 24


def _class(chars: "set[str] | frozenset[str]", astral: bool = False) -> "re.Pattern[str]":
    """One ``re`` class of ``chars`` (Basic Multilingual Plane), plus every astral character as one
    range when ``astral``: ``re`` tests the BMP characters with one bitmap, but astral ones listed
    one by one in turn on every character of the text."""
    body = "".join(re.escape(c) for c in sorted(chars) if ord(c) <= 0xFFFF)
    return re.compile("[" + body + ("\U00010000-\U0010FFFF" if astral else "") + "]")


@lru_cache(maxsize=1)
def _scan() -> _Scan | None:
    """The tables of the usual text's way (:func:`_build_scan`; kept: :func:`_bundle`)."""
    return _bundle()[2]


def _build_scan(oc: tuple[dict[int, str], frozenset[str], bool], tb: _Tables) -> _Scan | None:
    """The tables of the usual text's way, or ``None`` when the shipped tables do not allow it:
    every ``characters`` key one character, replaced one for one by a character that is no key
    (``chars_length``), no key a full-width form or the ASCII form of one, no replacement a
    full-width form (the two tables then replace together in any order), and the full-width,
    quote and full-stop passes keep the Traditional characters (``passes_keep_traditional``).

    Traditional text takes the same way once translated when OpenCC's table gives none of the
    characters that the passes before the translation replace or remove (those passes then find
    only what they find in the untranslated text).  The numerals and counters are words of the
    terms' prefix tree (one character each, no term's first part: a word of one character matches
    only where no term does, so the terms' matches stay as they were): every numeral and counter of
    the text after the terms is then in the replacement of a word, and a text without such a word
    needs no test for steps 6 and 7.  Input: :func:`_build_opencc`'s tables and ``tb``."""
    fwk, fwv = set(_FULLWIDTH), set(_FULLWIDTH.values())
    if (tb.chars_length is None or not all(len(k) == 1 for k in tb.chars) or not tb.passes_keep_traditional
            or not set(tb.chars).isdisjoint(fwk | fwv) or not set(tb.chars.values()).isdisjoint(fwk)):
        return None
    trad = oc[1]
    marks = set('".') | {"\uFF02", "\uFF0E"}  # (the full-width forms of " and . become them)
    if not set(oc[0].values()).isdisjoint(fwk | marks | tb.chars_length):
        return None
    if not all(len(c) == 1 for c in (*tb.numerals, *tb.counters)):
        return None
    slow = frozenset(trad | marks | tb.chars_length)
    one = {k: v for k, v in tb.chars.items() if k not in tb.chars_length}
    both = {**_FULLWIDTH, **one}
    for c in marks & set(both):
        del both[c]
    aligned = frozenset((fwk - tb.fullwidth_touching) | tb.neutral_chars)
    common = tuple((c, both[c]) for c in _COMMON_FULLWIDTH if c in both and c in aligned)
    words = dict(tb.terms)
    marks_of: dict[str, str | None] = dict(tb.marks)
    for c in (*tb.numerals, *tb.counters):
        if c not in words:
            words[c], marks_of[c] = c, None
    return _Scan(_class(slow, astral=True), slow, _class(set(both)), both, aligned, trad, common,
                 _class(slow | set(both), astral=True), frozenset(set(both) - slow),
                 _class((slow - trad) | set(both), astral=True),
                 words, split_alternation(trie_alternation(words)), marks_of,
                 frozenset(w for w, r in words.items() if any(n in r for n in tb.numerals)),
                 frozenset(w for w, r in words.items() if any(n in r for n in tb.counters)),
                 _soft_words(tb, both, aligned, words))


def _soft_words(tb: _Tables, both: dict[str, str], aligned: frozenset[str],
                words: dict[str, str]) -> dict[str, frozenset[str]]:
    """``_Scan.soft_words``: for each character ``c`` of ``both`` outside ``aligned`` that is in no
    term and no community marker, with ``both[c]`` in no marker, the words of ``words`` holding
    ``both[c]`` (yaml-yugi zh-CN: ``１`` -> ``1``, in 移除1个, in a quarter of the texts)."""
    letters = {c for k in tb.terms for c in k} | {c for m in _COMMUNITY for c in m}
    marker = {c for m in _COMMUNITY for c in m}
    return {c: frozenset(w for w in words if r in w) for c, r in both.items()
            if c not in aligned and c not in letters and len(r) == 1 and r not in marker}


class _ReCode(NamedTuple):
    """A compiled stdlib ``re`` pattern as ``re`` itself compiles it (``re._compiler.compile``): the
    arguments of ``_sre.compile``.  ``re.Pattern`` pickles as its source and is compiled again on
    loading; this keeps the compiled code."""

    pattern: str
    flags: int
    code: list[int]
    groups: int
    groupindex: dict[str, int]
    indexgroup: tuple


#: bumped when the layout of what :func:`_bundle` keeps changes
_BUNDLE_FORMAT = 1


def _freeze_re(p: "re.Pattern[str]") -> "_ReCode | re.Pattern[str]":
    """``p`` as a :class:`_ReCode`, or ``p`` itself (recompiled from its source on loading) when the
    code made here is not exactly ``p``'s (``==`` compares flags, code and source)."""
    import _sre
    from re import _compiler, _parser

    for flags in (0, p.flags):  # (the flags given to re.compile: 0 for ours, or p.flags)
        try:
            parsed = _parser.parse(p.pattern, flags)
            code = _compiler._code(parsed, flags)
            groupindex = dict(parsed.state.groupdict)
            indexgroup = [None] * parsed.state.groups
            for k, i in groupindex.items():
                indexgroup[i] = k
            rc = _ReCode(p.pattern, int(flags | parsed.state.flags), [int(c) for c in code], parsed.state.groups - 1,
                         groupindex, tuple(indexgroup))
            if _sre.compile(*rc) == p:
                return rc
        except Exception:  # (another Python's internals: keep the source)
            pass
    return p


def _freeze(value):
    """``value`` (a table tuple) with each ``re`` pattern in it made a :class:`_ReCode`."""
    if isinstance(value, re.Pattern):
        return _freeze_re(value)
    if isinstance(value, tuple) and not isinstance(value, _ReCode):
        items = [_freeze(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    return value


def _thaw(value):
    """:func:`_freeze` undone: each :class:`_ReCode` compiled by ``_sre.compile`` (no parsing)."""
    if isinstance(value, _ReCode):
        import _sre

        return _sre.compile(*value)
    if isinstance(value, tuple):
        items = [_thaw(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    return value


def _build_bundle(path: Path) -> tuple:
    """Every table of this module, built from OpenCC's file ``path`` and ``patterns/terms/zh.yaml``:
    ``((table, trad, astral), tables, scan, trad_bmp_re)`` (see :func:`_bundle`)."""
    oc = _build_opencc(path)
    tb = _build_tables(oc[1])
    return oc, tb, _build_scan(oc, tb), _build_trad_bmp_re(oc[1])


def _opencc_stamp(path: Path) -> tuple:
    """What tells a changed OpenCC table file: its path, size and modification time."""
    st = path.stat()
    return str(path), st.st_size, st.st_mtime_ns


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
    code (:class:`_ReCode`, checked equal to ``re.compile``'s when it is made), with the size and
    time of OpenCC's file, which the key does not cover: a file that changed since is read again
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


# markers of the community register (its canonical wording): present in a text, they record it
_COMMUNITY = ("这张卡", "不能", "手卡", "卡组")
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
