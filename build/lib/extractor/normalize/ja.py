"""Japanese pre-normalizer: furigana and ruby markup stripped (Japanese patterns come later).

- ``<ruby>通常<rt>つうじょう</rt></ruby>`` -> ``通常``
- inline furigana as in seed 004: ``通 ( つう ) 常 ( じょう )`` -> ``通常`` (a kana-only
  parenthesis right after a kanji is dropped, with the spaces around it).
"""
from __future__ import annotations

import regex

from ..textmap import MappedText
from .common import nfc

_RT = regex.compile(r"<rt>.*?</rt>|</?ruby>|<rp>.*?</rp>", regex.S)
_FURIGANA = regex.compile(r"(?<=\p{Han}|々)\s*[(（]\s*[\p{Hiragana}\p{Katakana}ー]+\s*[)）](?:\s+(?=[\p{Han}\p{Hiragana}\p{Katakana}]))?")


def strip_furigana(mt: MappedText) -> MappedText:
    """Remove ruby markup and inline furigana from ``mt`` (keeps the offset map)."""
    if "<r" in mt.text:
        mt.sub(_RT, "")
    if "(" in mt.text or "（" in mt.text:
        mt.sub(_FURIGANA, "")
    return mt


def normalize_ja(text: str) -> MappedText:
    """Normalize Japanese text.  Input: original text.  Output: MappedText."""
    return strip_furigana(nfc(MappedText(text)))
