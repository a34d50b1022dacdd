"""Which writing a card text is in, and a warning when it is not the language it is read as.

``looks_like(text)`` -> ``"ja"`` / ``"zh"`` / ``"en"`` / ``"ko"`` / ``None``;
``language_mismatch(text, lang)`` -> the warning ``"language mismatch: the text looks like zh,
read as en"`` or ``None``.  The check runs on every card, so it is cheap: a text in the language
it is read as is settled by C-level string operations and one or two regex searches; only a text
that may be in another language is counted character by character (at most the first
:data:`SAMPLE` characters).  :func:`extractor.readers.guess_lang` guesses a whole file's language
with :func:`looks_like`.
"""
from __future__ import annotations

import re

#: characters of a text looked at (a 1 MB text is judged by its start)
SAMPLE = 4000


class _Lazy:
    """A module-level expression compiled on its first use, which then takes its place in the
    module (so every later use is the compiled pattern itself, at no cost).

    A class of characters beyond Latin-1 makes ``re`` build a 64 K-entry map when it compiles:
    ~0.03-1.7 ms each (the Han and Hangul ranges the most), ~6 ms for all the classes below at
    every start, while a run in one language needs few of them (an English run none, a Chinese one
    mostly one).  Input: the module-level name and the source of the expression.  Raises what
    ``re.compile`` raises, at the first use."""

    __slots__ = ("name", "source", "rx")

    def __init__(self, name: str, source: str):
        self.name, self.source, self.rx = name, source, None

    def __getattr__(self, attr: str):  # search, findall, sub, pattern ...
        if self.rx is None:
            self.rx = globals()[self.name] = re.compile(self.source)
        return getattr(self.rx, attr)


def _lazy(name: str, source: str) -> "re.Pattern[str]":
    return _Lazy(name, source)  # type: ignore[return-value]  # answers as a pattern


_KANA = _lazy("_KANA", "[\u3041-\u3096\u30a1-\u30fa]")  # kana, but not ・ and ー (Chinese texts use them)
_HAN = _lazy("_HAN", r"[\u4e00-\u9fff]")
_HANGUL = _lazy("_HANGUL", "[\uac00-\ud7a3]")
_KANA_OR_HANGUL = _lazy("_KANA_OR_HANGUL", "[\u3041-\u3096\u30a1-\u30fa\uac00-\ud7a3]")
_CJK_OR_HANGUL = _lazy("_CJK_OR_HANGUL", "[\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fff\uac00-\ud7a3]")
_MARKUP = re.compile(r"<[^>\n]*>")  # <ruby>…<rt>…</rt></ruby> in Japanese texts
# quoted card names say nothing about the language of the sentence (Chinese texts quote Japanese
# names: 「ヴォルカニック／火山种」)
_QUOTED = _lazy("_QUOTED", r"「[^」\n]*」|『[^』\n]*』|“[^”\n]*”")
_NOT_LETTERS = bytes(b for b in range(128) if not chr(b).isalpha())

#: Simplified Chinese forms that Japanese never writes (its forms: 獣 撃 発 動 場 対 ...; Traditional
#: Chinese writes neither): one of them tells a SHORT Han text (fewer than :data:`MIN_HAN`, such as
#: 通常怪兽×2 or ①：此卡可直接攻击。) as Chinese
SIMPLIFIED_ONLY = frozenset("兽击发动场对张从为将组时仅况坏这该个战阶斗备选结级伤区无变给进额择视计调弃连开过态带龙转离灵"
                            "复恶杀鱼鸟骑龟觉类们说临气两见长门间头实亲书")
#: Japanese forms (shinjitai) that Chinese never writes, Simplified (发 效 恶 黑 龙 ...) or Traditional
#: (發 效 惡 黑 龍 ...): one of them, and no :data:`SIMPLIFIED_ONLY` form, tells a short Han text with
#: little or no kana (悪魔の知恵＋魔天老) as Japanese
JAPANESE_ONLY = frozenset("発効悪黒竜獣戦撃壊対闘択払戻済気変転続処剣広辺図団読売帰桜亜姫拡覚齢")
_SIMPLIFIED_ONLY = _lazy("_SIMPLIFIED_ONLY", "[" + "".join(sorted(SIMPLIFIED_ONLY)) + "]")
_JAPANESE_ONLY = _lazy("_JAPANESE_ONLY", "[" + "".join(sorted(JAPANESE_ONLY)) + "]")
# one scan for what language_mismatch's usual cases must not hold: a Japanese text no Simplified form
# and no Hangul; a Chinese text no kana, no Hangul and no Japanese form (each class the union of two
# or three above: the text holds none of it exactly when it holds none of each)
_SIMPLIFIED_OR_HANGUL = _lazy("_SIMPLIFIED_OR_HANGUL", "[" + "".join(sorted(SIMPLIFIED_ONLY)) + "\uac00-\ud7a3]")
_KANA_HANGUL_OR_JAPANESE = _lazy("_KANA_HANGUL_OR_JAPANESE",
                                 "[\u3041-\u3096\u30a1-\u30fa\uac00-\ud7a3" + "".join(sorted(JAPANESE_ONLY)) + "]")

#: a text is ``ja`` when kana are at least this share of its kana + Han characters (outside quotes);
#: Japanese card texts have 40-85 %, Chinese ones 0 % outside quoted Japanese names
KANA_SHARE = 0.2
#: a text with Han and no kana is ``zh`` only with at least this many Han characters (short
#: Japanese material lines such as 神魚＋舌魚 have no kana)
MIN_HAN = 8


def _prepare(text: str, limit: int | None) -> str:
    t = text if limit is None else text[:limit]
    return _MARKUP.sub("", t) if "<" in t else t


def _latin(t: str) -> bool:
    """ASCII letters outweigh all non-ASCII characters three to one: a Latin-script text
    (English, and the other European languages: their accented letters are few)."""
    a = t.encode("ascii", "ignore")
    other = 3 * (len(t) - len(a))
    # the letters are a part of the ASCII characters: too few of those settle it without counting
    return len(a) > other and len(a.translate(None, _NOT_LETTERS)) > other


def looks_like(text: str, *, min_han: int = MIN_HAN, limit: int | None = SAMPLE) -> str | None:
    """The writing of one text: ``en`` (a Latin-script text: its ASCII letters outweigh its
    non-ASCII characters three to one), ``ja`` (kana are >= :data:`KANA_SHARE` of its kana + Han
    characters), ``zh`` (at least ``min_han`` Han characters and no kana), ``ko`` (more Hangul than
    kana + Han), or ``None`` when it cannot tell (no letters, a few Han characters, a little
    kana).  ``<…>`` markup is left out; so are quoted names (「…」, 『…』, “…”) when the CJK
    characters are counted.  A short text that none of these settles is told by its forms: a
    :data:`SIMPLIFIED_ONLY` character makes a text ``zh`` (with kana under the share too: a
    stray kana in a Chinese text), a :data:`JAPANESE_ONLY`
    one (and no Simplified form) makes it ``ja``, so does kana outside quotes in a text with fewer
    than ``min_han`` Han characters and no Simplified form (女王の影武者＋響女); last, a Simplified form inside a quoted name of
    a text with no kana outside quotes makes it ``zh`` (Japanese never writes those forms, even in
    names; Chinese texts do quote Japanese names, so Japanese forms in quotes tell nothing).

    Input: a card text (or several joined); ``min_han`` replaces :data:`MIN_HAN` (a whole file's
    sample is judged with 1); ``limit``: characters looked at (``None``: all).  Output: one of the
    five values.  Raises nothing.
    """
    t = _prepare(text, limit)
    if _latin(t):
        return "en"
    if not _CJK_OR_HANGUL.search(t):
        return None
    whole = t
    t = _QUOTED.sub("", t)
    kana = len(_KANA.findall(t))
    han = len(_HAN.findall(t))
    cjk = kana + han
    if len(_HANGUL.findall(t)) > cjk:
        return "ko"
    if not cjk:
        return "zh" if _SIMPLIFIED_ONLY.search(whole) else None  # only quoted names: 「恶魔的智慧」＋「魔天老」
    if kana >= KANA_SHARE * cjk:
        return "ja"
    if not kana and han >= min_han:
        return "zh"
    if _SIMPLIFIED_ONLY.search(t):
        return "zh"  # (with a stray kana too: 此卡名的②③の效果…, a typo in a Chinese text)
    if _JAPANESE_ONLY.search(t) or (kana and han < min_han and not _SIMPLIFIED_ONLY.search(whole)):
        return "ja"  # 女王の影武者＋響女: kana outside quotes in a short text with no Simplified form
    if not kana and _SIMPLIFIED_ONLY.search(whole):  # 「恶魔的智慧」＋「魔天老」: Japanese never writes 恶
        return "zh"
    return None


def language_mismatch(text: str, lang: str) -> str | None:
    """The warning for a text read in another language than it is written in, else ``None``.

    Input: the card ``text`` and the ``lang`` it is read as (``en``, ``zh-CN``, ``ja``, ...).
    Output: ``"language mismatch: the text looks like <ja|zh|en|ko>, read as <lang>"`` when
    :func:`looks_like` is sure and names another family than ``lang``'s (``zh-CN`` and ``zh-TW``
    are one family: the Chinese normalizer reads both scripts), else ``None``; also ``None`` for a
    language this project does not read (that is reported elsewhere).  The usual case is settled
    before :func:`looks_like` counts anything: an English text that is Latin script, a Chinese
    one that is not Latin script, holds no kana and no Hangul outside quoted names, and has
    :data:`MIN_HAN` Han characters or no :data:`JAPANESE_ONLY` form (``looks_like`` can then only
    say ``zh`` or ``None``), a Japanese one that is not Latin script and holds kana, no
    :data:`SIMPLIFIED_ONLY` form and no Hangul (it can then only say ``ja`` or ``None``).
    """
    if not text:
        return None
    fam = _FAMILY.get(lang, "") if isinstance(lang, str) else None
    if fam == "":
        fam = _family(lang)
    if fam is None:
        return None
    t = _prepare(text, SAMPLE)
    if fam == "en" and _latin(t):
        return None
    if fam == "zh" and not _latin(t) and not _KANA_HANGUL_OR_JAPANESE.search(t):
        return None  # the usual Chinese text: the test below holds (no kana or Hangul, no Japanese form)
    if fam == "zh" and not _latin(t) and (not _KANA_OR_HANGUL.search(t)
                                          or not _KANA_OR_HANGUL.search(_QUOTED.sub("", t))) and (
            not _JAPANESE_ONLY.search(t) or len(_HAN.findall(t)) >= MIN_HAN):
        return None
    if fam == "ja" and not _latin(t) and _KANA.search(t) and not _SIMPLIFIED_OR_HANGUL.search(t):
        return None  # with kana, no Simplified form and no Hangul, looks_like can only say ja or None
    seen = looks_like(t, limit=None)
    return None if seen in (None, fam) else f"language mismatch: the text looks like {seen}, read as {lang}"


_FAMILY: dict[str, str | None] = {}  # language code -> family (None: not read by this project)


def _family(lang: str) -> str | None:
    from .normalize import lang_family

    try:
        fam: str | None = lang_family(lang)
    except ValueError:
        fam = None
    if len(_FAMILY) < 256:
        _FAMILY[lang] = fam
    return fam
