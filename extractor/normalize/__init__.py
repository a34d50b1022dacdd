"""Normalizers: one per language family, each turning card text into one canonical form and
keeping the map back to the original characters (:class:`extractor.textmap.MappedText`).

``normalize(text, lang)`` dispatches on the language: ``en``; ``zh``, ``zh-CN``, ``zh-TW``,
``zh-Hans``, ``zh-Hant`` (all to canonical Simplified); ``ja`` (furigana and ruby stripped).
"""
from __future__ import annotations

from ..textmap import MappedText
from .common import lang_family

__all__ = ["normalize", "lang_family"]


def normalize(text: str, lang: str) -> MappedText:
    """Normalize ``text`` written in ``lang``.

    Returns:
        MappedText whose ``text`` is the canonical form and whose ``to_original`` maps spans back.
    Raises:
        ValueError: for a language this project does not read.
    """
    fam = lang_family(lang)
    if fam == "en":
        from .en import normalize_en
        return normalize_en(text)
    if fam == "zh":
        from .zh import normalize_zh
        return normalize_zh(text)
    from .ja import normalize_ja
    return normalize_ja(text)
