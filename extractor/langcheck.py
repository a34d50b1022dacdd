"""Which writing a card text is in, and a warning when it is not the language it is read as.

``looks_like(text)`` -> ``"ja"`` / ``"zh"`` / ``"en"`` / ``"ko"`` / ``None``; ``language_mismatch(text, lang)``
-> the warning ``"language mismatch: the text looks like zh, read as en"`` or ``None``.  Both are
cheap (a few regex passes over at most the first :data:`SAMPLE` characters): the check runs on
every card.  :func:`extractor.readers.guess_lang` guesses a whole file's language with
:func:`looks_like`.
"""
from __future__ import annotations

import re

#: characters of a text looked at (a 1 MB text is judged by its start)
SAMPLE = 4000

_KANA = re.compile("[\u3041-\u3096\u30a1-\u30fa]")  # kana, but not ・ and ー (Chinese texts use them)
_HAN = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_HANGUL = re.compile("[\uac00-\ud7a3]")
# quoted card names (Chinese texts quote Japanese names: 「ヴォルカニック／火山种」) and markup
# (<ruby>…<rt>…</rt></ruby> in Japanese texts) say nothing about the language of the sentence
_QUOTED = re.compile(r"「[^」\n]*」|『[^』\n]*』|“[^”\n]*”|<[^>\n]*>")

#: a text is ``ja`` when kana are at least this share of its kana + Han characters (outside quotes);
#: Japanese card texts have 40-85 %, Chinese ones 0 % outside quoted Japanese names
KANA_SHARE = 0.2
#: a text with Han and no kana is ``zh`` only with at least this many Han characters (short
#: Japanese material lines such as 神魚＋舌魚 have no kana)
MIN_HAN = 8


def looks_like(text: str, *, min_han: int = MIN_HAN, limit: int | None = SAMPLE) -> str | None:
    """The writing of one text: ``ja`` (kana are >= :data:`KANA_SHARE` of its CJK characters),
    ``zh`` (at least :data:`MIN_HAN` Han characters and no kana), ``en`` (Latin letters outweigh
    the CJK characters three to one: any Latin-script text), ``ko`` (more Hangul than Latin
    letters and than CJK characters), or ``None`` when it cannot tell
    (no letters, a few Han characters, a little kana).  Quoted names (「…」, 『…』, “…”) and
    ``<…>`` markup are left out.

    Input: a card text (or several joined); ``min_han`` replaces :data:`MIN_HAN` (a whole file's
    sample is judged with 1); ``limit``: characters looked at (``None``: all).  Output: one of the
    five values.  Raises nothing.
    """
    t = _QUOTED.sub("", text if limit is None else text[:limit])
    kana = len(_KANA.findall(t))
    han = len(_HAN.findall(t))
    cjk = kana + han
    latin = len(_LATIN.findall(t))
    if len(_HANGUL.findall(t)) > max(latin, cjk):
        return "ko"
    if latin > 3 * cjk:
        return "en"
    if not cjk:
        return None
    if kana >= KANA_SHARE * cjk:
        return "ja"
    if not kana and han >= min_han:
        return "zh"
    return None


def language_mismatch(text: str, lang: str) -> str | None:
    """The warning for a text read in another language than it is written in, else ``None``.

    Input: the card ``text`` and the ``lang`` it is read as (``en``, ``zh-CN``, ``ja``, ...).
    Output: ``"language mismatch: the text looks like <ja|zh|en>, read as <lang>"`` when
    :func:`looks_like` is sure and names another family than ``lang``'s (``zh-CN`` and ``zh-TW``
    are one family: the Chinese normalizer reads both scripts), else ``None``; also ``None`` for a
    language this project does not read (that is reported elsewhere).
    """
    from .normalize import lang_family

    seen = looks_like(text) if text else None
    if seen is None:
        return None
    try:
        fam = lang_family(lang)
    except ValueError:
        return None
    return None if seen == fam else f"language mismatch: the text looks like {seen}, read as {lang}"
