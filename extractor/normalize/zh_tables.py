"""The tables of the Chinese normalizer (:mod:`.zh`), built from their files: OpenCC's
Traditional->Simplified character table (:func:`_build_opencc`), the compiled tables of
``patterns/terms/zh.yaml`` (:class:`_Tables`, :func:`_build_tables`) and the scans of the usual
text's way (:class:`_Scan`, :func:`_build_scan`).  :mod:`.zh` keeps them across processes and
normalizes each text with them."""
from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import regex

from ..textmap import split_alternation, trie_alternation
from .common import load_terms


_FULLWIDTH = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}


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


def _build_trad_bmp_re(trad: frozenset[str]) -> "re.Pattern[str]":
    """The class of :func:`_trad_bmp_re` for OpenCC's characters ``trad``."""
    return re.compile("[" + "".join(re.escape(c) for c in sorted(trad) if ord(c) <= 0xFFFF) + "]")


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


def _class(chars: "set[str] | frozenset[str]", astral: bool = False) -> "re.Pattern[str]":
    """One ``re`` class of ``chars`` (Basic Multilingual Plane), plus every astral character as one
    range when ``astral``: ``re`` tests the BMP characters with one bitmap, but astral ones listed
    one by one in turn on every character of the text."""
    body = "".join(re.escape(c) for c in sorted(chars) if ord(c) <= 0xFFFF)
    return re.compile("[" + body + ("\U00010000-\U0010FFFF" if astral else "") + "]")


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


# markers of the community register (its canonical wording): present in a text, they record it
_COMMUNITY = ("这张卡", "不能", "手卡", "卡组")
