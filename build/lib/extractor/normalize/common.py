"""Helpers shared by the normalizers: language codes and the terminology data files."""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import yaml

from ..textmap import MappedText

#: The pattern catalog: the repository's ``patterns/`` folder, installed as the package
#: ``extractor.catalog`` (``pyproject.toml`` maps the one onto the other, so the files are edited in
#: ``patterns/`` and ship inside the wheel and sdist).  A :class:`Traversable`: it also works when the
#: package is imported from a zip.  Use ``joinpath``/``iterdir``/``open``, not ``pathlib`` methods.
PATTERNS_DIR: Traversable = resources.files("extractor.catalog")

# language code -> family; looked up as given first (the common spellings are listed), then
# stripped and lower-cased
_LANGS = {
    "en": "en", "en-us": "en", "en-gb": "en", "en-US": "en", "en-GB": "en",
    "zh": "zh", "zh-cn": "zh", "zh-tw": "zh", "zh-hans": "zh", "zh-hant": "zh", "zh-hk": "zh",
    "zh-CN": "zh", "zh-TW": "zh", "zh-Hans": "zh", "zh-Hant": "zh", "zh-HK": "zh",
    "ja": "ja", "ja-jp": "ja", "ja-JP": "ja",
}


def lang_family(lang: str) -> str:
    """``en`` / ``zh`` / ``ja`` for a language code (case-insensitive).

    Raises:
        ValueError: naming the code, for any other language.
    """
    fam = _LANGS.get(lang)
    if fam is None:
        fam = _LANGS.get((lang or "").strip().lower()) if isinstance(lang, str) else None
    if fam is None:
        raise ValueError(f"unsupported language {lang!r} (use en, zh-CN, zh-TW, zh-Hans, zh-Hant or ja)")
    return fam


@lru_cache(maxsize=None)
def load_terms(name: str) -> dict[str, Any]:
    """The terminology table ``patterns/terms/<name>.yaml`` as a dict."""
    path = PATTERNS_DIR.joinpath("terms", f"{name}.yaml")
    with path.open(encoding="utf-8") as f:
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def nfc(mt: MappedText) -> MappedText:
    """Unicode NFC (never NFKC: that would turn ① into 1 and 「」 stays as is)."""
    t = mt.text
    if t.isascii():
        return mt
    n = unicodedata.normalize("NFC", t)
    if n == t:
        return mt
    if len(n) == len(t):
        return mt.translate_chars(n)
    # rare: composition changed the length; rewrite per grapheme-ish run
    import regex
    return mt.sub(regex.compile(r"\X"), lambda m: unicodedata.normalize("NFC", m.group(0)))
