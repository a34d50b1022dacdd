"""Japanese normalizer: one canonical form of OCG text, with the map back to the original.

Steps (each keeps the offset map, so spans index the ORIGINAL text, markup included):

1. NFC (never NFKC: ① stays ①).
2. Ruby markup and inline furigana stripped:
   ``<ruby>通常<rt>つうじょう</rt></ruby>`` -> ``通常``; inline furigana as in seed 004:
   ``通 ( つう ) 常 ( じょう )`` -> ``通常`` (a kana-only parenthesis right after a kanji is
   dropped, with the spaces around it).
3. Full-width ASCII forms U+FF01-FF5E (``１０００``, ``ＥＸ``, ``：``, ``（）``, ``＋``) to ASCII.
4. ``characters`` then ``terms`` of ``patterns/terms/ja.yaml``: older wordings to the current
   ones (``する事ができる`` -> ``できる``, ``フィールド上`` -> ``フィールド``, ``ゲームから除外`` ->
   ``除外``, ``生け贄`` -> ``リリース``, ``エクストラデッキ`` / ``融合デッキ`` -> ``EXデッキ``) and
   lettered Summon kinds to words (``Ｓ召喚`` -> ``シンクロ召喚``).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

import regex

from ..textmap import MappedText, compile_alternation, split_alternation, trie_alternation
from .common import load_terms, nfc

_RT = regex.compile(r"<rt>.*?</rt>|</?ruby>|<rp>.*?</rp>", regex.S)
# the same expression on the standard ``re`` engine for :func:`plain_name` (a name, not a MappedText:
# the same matches, ~1.4x faster on the 9,000 yaml-yugi ja names that hold ruby markup)
_RT_NAME = re.compile(_RT.pattern, re.S)
_FURIGANA = regex.compile(r"(?<=\p{Han}|々)\s*[(（]\s*[\p{Hiragana}\p{Katakana}ー]+\s*[)）](?:\s+(?=[\p{Han}\p{Hiragana}\p{Katakana}]))?")
# every match of _FURIGANA holds an opening parenthesis, spaces and a kana: a text without one needs
# no scan with the lookbehind at each of its characters.  Compiled by the standard `re` (no `regex`
# parser at import): its \s holds every character `regex`'s \s holds and its class every Hiragana
# and Katakana character of any Unicode version (the blocks whole: a larger gate only lets more
# texts through to the same expression)
_FURIGANA_GATE = re.compile("[(\uff08]\\s*[\u3040-\u30ff\u31f0-\u31ff\u32d0-\u32ff\u3300-\u33ff"
                            "\uff61-\uff9f\U0001aff0-\U0001b2ff\U0001f200]")
_FULLWIDTH = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}
_FULLWIDTH_RE = re.compile("[\uFF01-\uFF5E]")


def strip_furigana(mt: MappedText) -> MappedText:
    """Remove ruby markup and inline furigana from ``mt`` (keeps the offset map)."""
    if "<r" in mt.text:
        mt.sub(_RT, "")
    if ("(" in mt.text or "（" in mt.text) and _FURIGANA_GATE.search(mt.text):
        mt.sub(_FURIGANA, "")
    return mt


def plain_name(name: str) -> str:
    """A card name as it is read and shown: its ruby markup removed (yaml-yugi writes Japanese
    names as ``オベリスクの<ruby>巨<rt>きょ</rt></ruby><ruby>神<rt>しん</rt></ruby>兵``, seed 004 shows
    the printed name without the reading: ``オベリスクの巨神兵``).  Only the markup goes: a name
    holding parentheses keeps them (names are not searched for inline furigana).  Input and
    output: ``str``; a name without markup comes back unchanged.  Raises nothing."""
    return _RT_NAME.sub("", name) if "<r" in name else name


class _Tables(NamedTuple):
    """The compiled tables of ``patterns/terms/ja.yaml``."""

    chars: dict[str, str]                       # ``characters``: character -> its canonical form
    chars_split: "regex.Pattern[str] | None"    # their alternation in one group (replace_table)
    terms: dict[str, str]                       # ``terms``: older wording -> current wording
    terms_split: "re.Pattern[str] | None"       # their prefix tree in one group (replace_table)
    one_for_one: dict[str, str] | None          # full-width forms and the one-character ``characters``
    one_for_one_re: "re.Pattern[str] | None"    # finds a key of one_for_one or of chars
    lengthy: frozenset[str]                     # keys of ``chars`` whose value is not one character


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """``characters`` and ``terms`` of ``patterns/terms/ja.yaml``, each with its alternation in one
    capturing group (the splitter of :meth:`MappedText.replace_table`; the terms as a prefix tree
    compiled by the standard ``re``, which finds the same words ~2.5x faster than the flat
    ``regex`` alternation), and the one-for-one table of the full-width and characters passes.

    ``one_for_one`` (``None`` when the tables do not allow it): the full-width forms and every
    one-character entry of ``characters`` in one table, replaced together (one scan, one
    ``str.replace`` per distinct character found).  Allowed when every key of ``characters`` is
    one character that is no full-width form and no value of either table is a key of either: the
    passes then commute and no replacement is replaced again.  A text holding none of
    ``lengthy`` (``\r``, U+FEFF: removed) gets from ``characters`` only one-character edits in
    place, which map every offset to itself, as :meth:`MappedText.translate_chars` does."""
    data = load_terms("ja")
    chars: dict[str, str] = data.get("characters") or {}
    terms = {str(f): str(t) for f, t in data.get("terms") or []}
    one = lengthy = finder = None
    if all(len(k) == 1 for k in chars):
        simple = {k: v for k, v in chars.items() if len(v) == 1}
        keys = set(chars) | set(_FULLWIDTH)
        values = set(chars.values()) | set(_FULLWIDTH.values())
        if set(chars).isdisjoint(_FULLWIDTH) and keys.isdisjoint(values):
            one = {**_FULLWIDTH, **simple}
            lengthy = frozenset(k for k, v in chars.items() if len(v) != 1)
            finder = re.compile("[" + "".join(re.escape(k) for k in sorted(keys)) + "]")
    return _Tables(chars, split_alternation(compile_alternation(chars)) if chars else None,
                   terms, split_alternation(trie_alternation(terms)) if terms else None,
                   one, finder, lengthy or frozenset())


def normalize_ja(text: str) -> MappedText:
    """Normalize Japanese text.

    Input: the original text (ruby markup and furigana allowed).  Output: :class:`MappedText`
    whose ``text`` is the canonical form (steps in the module docstring) and whose
    ``to_original`` maps spans back to ``text``.  Raises nothing for any string.
    """
    mt = strip_furigana(nfc(MappedText(text)))
    tb = _tables()
    t = mt.text
    if tb.one_for_one is not None:
        found = set(tb.one_for_one_re.findall(t))
        if not found:
            pass
        elif tb.lengthy.isdisjoint(found):  # steps 3 and 4's characters at once, one for one
            one = tb.one_for_one
            for c in found:
                t = t.replace(c, one[c])
            mt.translate_chars(t)
        else:
            _fullwidth_then_chars(mt, tb, found)
    else:
        _fullwidth_then_chars(mt, tb, set(_FULLWIDTH_RE.findall(t)))
    if tb.terms_split is not None:
        mt.replace_table(tb.terms, tb.terms_split)
    return mt


def _fullwidth_then_chars(mt: MappedText, tb: _Tables, found: set[str]) -> None:
    """Steps 3 and 4's ``characters`` one after the other (a text holding a character that
    ``characters`` removes): the full-width forms of ``found`` to ASCII, one for one (offsets
    kept), then the ``characters`` table as a recorded pass."""
    t = mt.text
    for c in found:
        if c in _FULLWIDTH:
            t = t.replace(c, _FULLWIDTH[c])
    mt.translate_chars(t)
    if tb.chars_split is not None:
        mt.replace_table(tb.chars, tb.chars_split)
