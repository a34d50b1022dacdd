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

import regex

from ..textmap import MappedText, compile_alternation, split_alternation
from .common import load_terms, nfc

_RT = regex.compile(r"<rt>.*?</rt>|</?ruby>|<rp>.*?</rp>", regex.S)
# the same expression on the standard ``re`` engine for :func:`plain_name` (a name, not a MappedText:
# the same matches, ~1.4x faster on the 9,000 yaml-yugi ja names that hold ruby markup)
_RT_NAME = re.compile(_RT.pattern, re.S)
_FURIGANA = regex.compile(r"(?<=\p{Han}|々)\s*[(（]\s*[\p{Hiragana}\p{Katakana}ー]+\s*[)）](?:\s+(?=[\p{Han}\p{Hiragana}\p{Katakana}]))?")
_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_FULLWIDTH_RE = regex.compile("[\uFF01-\uFF5E]+")


def strip_furigana(mt: MappedText) -> MappedText:
    """Remove ruby markup and inline furigana from ``mt`` (keeps the offset map)."""
    if "<r" in mt.text:
        mt.sub(_RT, "")
    if "(" in mt.text or "（" in mt.text:
        mt.sub(_FURIGANA, "")
    return mt


def plain_name(name: str) -> str:
    """A card name as it is read and shown: its ruby markup removed (yaml-yugi writes Japanese
    names as ``オベリスクの<ruby>巨<rt>きょ</rt></ruby><ruby>神<rt>しん</rt></ruby>兵``, seed 004 shows
    the printed name without the reading: ``オベリスクの巨神兵``).  Only the markup goes: a name
    holding parentheses keeps them (names are not searched for inline furigana).  Input and
    output: ``str``; a name without markup comes back unchanged.  Raises nothing."""
    return _RT_NAME.sub("", name) if "<r" in name else name


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], "regex.Pattern[str] | None", dict[str, str], "regex.Pattern[str] | None"]:
    """``characters`` and ``terms`` of ``patterns/terms/ja.yaml``, each with its alternation in one
    capturing group (the splitter of :meth:`MappedText.replace_table`)."""
    data = load_terms("ja")
    chars: dict[str, str] = data.get("characters") or {}
    terms = {str(f): str(t) for f, t in data.get("terms") or []}
    return (chars, split_alternation(compile_alternation(chars)) if chars else None,
            terms, split_alternation(compile_alternation(terms)) if terms else None)


def normalize_ja(text: str) -> MappedText:
    """Normalize Japanese text.

    Input: the original text (ruby markup and furigana allowed).  Output: :class:`MappedText`
    whose ``text`` is the canonical form (steps in the module docstring) and whose
    ``to_original`` maps spans back to ``text``.  Raises nothing for any string.
    """
    mt = strip_furigana(nfc(MappedText(text)))
    t = mt.text
    if _FULLWIDTH_RE.search(t):  # one character for one: offsets stay (translate_chars)
        mt.translate_chars(_FULLWIDTH_RE.sub(lambda m: m.group(0).translate(_FULLWIDTH), t))
    chars, chars_re, terms, terms_re = _tables()
    if chars_re is not None:
        mt.replace_table(chars, chars_re)
    if terms_re is not None:
        mt.replace_table(terms, terms_re)
    return mt
