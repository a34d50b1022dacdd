"""Normalizers: one per language family, each turning card text into one canonical form and
keeping the map back to the original characters (:class:`extractor.textmap.MappedText`).

``normalize(text, lang)`` dispatches on the language: ``en``; ``zh``, ``zh-CN``, ``zh-TW``,
``zh-Hans``, ``zh-Hant`` (all to canonical Simplified); ``ja`` (furigana and ruby stripped).
"""
from __future__ import annotations

from typing import Callable

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
    fn = _BY_LANG.get(lang)
    if fn is None:
        fam = lang_family(lang)
        if fam == "en":
            from .en import normalize_en as fn
        elif fam == "zh":
            from .zh import normalize_zh as fn
        else:
            from .ja import normalize_ja as fn
        _BY_LANG[lang] = fn
    return fn(text)


_BY_LANG: dict[str, Callable[[str], MappedText]] = {}  # language code -> normalizer (imported on first use)
