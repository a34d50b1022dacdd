"""Helpers shared by the normalizers: language codes and the terminology data files."""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

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
    """The terminology table ``patterns/terms/<name>.yaml`` as a dict (:func:`load_yaml`).

    Raises:
        FileNotFoundError: there is no such file.
        yaml.YAMLError: the file is not valid YAML."""
    return load_yaml(PATTERNS_DIR.joinpath("terms", f"{name}.yaml"))


def load_yaml(path: Traversable, invalid: type[Exception] | None = None, where: str = "") -> Any:
    """The parsed YAML document in the file ``path`` (a term, cue or coverage table).

    PyYAML is imported and a file of the shipped catalog parsed only for a cold build: its
    document is kept in the cache folder of the compiled catalog under the catalog's key
    (:func:`extractor.patterns.cache.cached_build`, file ``yaml-<its path under patterns/ without
    .yaml, / as ->-<key>.pickle``; the key hashes every catalog file, so an edited file is parsed
    again), and a warm run reads it back with :mod:`pickle` (importing PyYAML alone costs ~7 ms of
    a ``tag`` start-up).  A file outside the catalog folder, or any file with the cache off or
    unusable, is parsed as without the cache.

    Input: the file; the exception class to raise for a file that is not valid YAML and the name
    of the file in its message (default: its path under ``patterns/``).
    Output: the document (dicts, lists, strings, numbers, booleans, ``None``).
    Raises:
        FileNotFoundError: there is no such file.
        yaml.YAMLError: the file is not valid YAML and ``invalid`` is None; else
            ``invalid("<where>: not valid YAML (<the parser's message>)")``."""
    rel = None
    if isinstance(path, Path) and isinstance(PATTERNS_DIR, Path):
        try:
            rel = path.relative_to(PATTERNS_DIR).as_posix()
        except ValueError:  # not in the catalog folder
            pass

    def parse() -> dict[str, Any]:
        import yaml

        with path.open(encoding="utf-8") as f:
            try:
                return {"doc": yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))}
            except yaml.YAMLError as e:
                if invalid is None:
                    raise
                raise invalid(f"{where or 'patterns/' + (rel or path.name)}: not valid YAML ({e})") from e

    if rel is None:
        return parse()["doc"]
    from ..patterns.cache import cached_build

    return cached_build("yaml-" + rel.removesuffix(".yaml").replace("/", "-"), parse, dict)["doc"]


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
