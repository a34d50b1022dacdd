"""Card names -> passcodes: the key a name is looked up by, and the shipped table of older names.

A material line quotes card names ("Elemental HERO Avian" + "Elemental HERO Burstinatrix",
「元素英雄 羽翼侠」＋「元素英雄 爆热女郎」).  They are resolved to passcodes (issue 10, "Named cards are
also resolved to passcodes when the input database holds a card of that name") by :func:`lookup`:

1. the names of the INPUT itself (:func:`extractor.structure.input_names`), keyed by :func:`name_key`;
2. when the input holds no card of that name: the **alias table**, the names a card has had in the
   public card databases of other eras and translations (the community Chinese of the 2005 goat
   database, the 2012 i18n file's zh-CN / zh-TW, Taiwanese names, 2015 English, ...) that differ
   from its current name.  Many Chinese texts quote a material by an older translation than the
   database's own name (「元素英雄 水泡侠」 for 元素－英雄 泡沫人): this step resolves those;
3. then the same two without middle dots and dashes (:func:`loose_key`: 元素英雄 新宇侠 for
   元素－英雄 新宇侠).

A name two different cards share (in the input, in the alias table, or loosely) is ambiguous, and
a name found nowhere stays unresolved: the caller keeps it in ``named_names`` only, never guessed.

The alias table is data, ``patterns/names/aliases.json.gz`` (installed as
``extractor/catalog/names/``), built by ``tools/build_name_aliases.py`` from the card databases in
``../shared/data`` (never from evaluation labels).  It is read lazily: only when a name is not
found in the input (or when the input holds one name under several passcodes, see
:func:`main_passcode`), so a command that resolves nothing never reads it.  Its names keyed by
today's normalizer are kept in the cache folder of the compiled catalog, under the catalog's key
(:func:`_keyed`), so only the first run after an edit keys them.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

__all__ = ["name_key", "name_keys", "fold_name", "loose_key", "NameTable", "name_table", "one_card",
           "alias_passcode", "main_passcode", "lookup", "resolve_name", "lang_group", "ALIAS_FILE"]

#: The alias table inside the catalog package (``patterns/`` in the repository).
ALIAS_FILE = ("names", "aliases.json.gz")

# The middle dots (・ U+30FB, · U+00B7, ‧ U+2027, • U+2022, ∙ U+2219, ⋅ U+22C5; ･ is ・ after NFKC) and
# the hyphens and dashes (- ‐ ‑ ‒ – — ―; － is - after NFKC), each written one way in a key.
_FOLD = str.maketrans({**{c: "·" for c in "\u00b7\u2027\u2022\u30fb\u2219\u22c5"},
                       **{chr(c): "-" for c in range(0x2010, 0x2016)}})
_QUOTES = "「」『』\"“”'‘’"
# a character _FOLD rewrites: ``str.translate`` with a dict looks every character up (and raises and
# clears a KeyError for each one it lacks), so a name is translated only when this finds one
_FOLD_RE = re.compile("[" + "".join(re.escape(chr(c)) for c in sorted(_FOLD)) + "]")


def fold_name(text: str) -> str:
    """The canonical folding of an (already normalized) name, the exact key: NFKC (full-width and
    half-width forms meet: ＡＢＣ / ABC, － / -, ･ / ・), every middle dot written ``·`` (・ ‧ •),
    every dash ``-``, white space removed, the quotes around it (「」 『』 “” "" '') stripped, case
    folded.  Input and output: ``str``.  Raises nothing."""
    text = unicodedata.normalize("NFKC", text)
    if _FOLD_RE.search(text) is not None:  # (else the translation would give the text itself)
        text = text.translate(_FOLD)
    return "".join(text.split()).strip(_QUOTES).casefold()


def loose_key(key: str) -> str:
    """The loose key of an exact key (:func:`name_key`): without its middle dots and dashes, so
    元素英雄 新宇侠 meets 元素－英雄 新宇侠 and 新空间人 大地鼹鼠 meets 新空间人・大地鼹鼠.  Only a fallback
    (:func:`lookup`): it makes some names of different cards meet (黑·魔·导 "Dark Magic Attack" and
    黑魔导 "Dark Magician"; "Raimei" and "Rai-Mei"), and such a loose key resolves to nothing."""
    return key.replace("·", "").replace("-", "")


def name_key(name: str, lang: str) -> str:
    """The key a card name is looked up by, on both sides (the names of a database and the quoted
    names of material lines).

    The name is first normalized as card text of ``lang`` is (:func:`extractor.normalize.normalize`:
    Traditional and Simplified Chinese characters meet, full-width digits and signs, 「」 and “”
    quotes, the registers' term variants), then folded (:func:`fold_name`: full/half width,
    ・ / · / ‧, － / -, spaces, quotes, case).  So "Elemental Hero Neos" names "Elemental HERO Neos",
    「新宇侠」 names 新宇俠 and 新空间人・火焰甲虫 names 新空间人·火焰甲虫; :func:`loose_key` (a fallback) also
    drops the dots and dashes.  A language without a normalizer keys the name folded as written.
    Raises nothing."""
    from .normalize import normalize

    try:
        name = normalize(name, lang).text
    except ValueError:  # unsupported language: the card itself gets the error line
        pass
    return fold_name(name)


def name_keys(names: Sequence[str], lang: str) -> list[str]:
    """:func:`name_key` of many names of one language at once: the names are normalized as ONE
    text, a line each (one normalizer pass instead of one per name: the first pass of ``tag``
    keys every card of the input).  Falls back to one call per name when the lines do not come
    back one for one.  Input: names; output: their keys, in order.  Raises nothing."""
    from .normalize import normalize

    clean = [" ".join(n.split()) for n in names]
    try:
        lines = normalize("\n".join(clean), lang).text.split("\n")
    except ValueError:  # unsupported language: keyed as written
        lines = clean
    if len(lines) != len(clean):
        return [name_key(n, lang) for n in names]
    return [fold_name(x) for x in lines]


def lang_group(lang: str) -> str | None:
    """The part of the alias table a language reads: ``en``, ``zh`` (Simplified and Traditional
    alike: their keys meet) or ``None`` (no aliases: Japanese, an unsupported language)."""
    from .normalize.common import lang_family

    try:
        fam = lang_family(lang)
    except ValueError:
        return None
    return fam if fam in ("en", "zh") else None


class NameTable(dict):
    """A name map: exact key (:func:`name_key`) -> passcode, ``None`` for a key two different
    cards share (ambiguous: never resolved), with its loose keys (:func:`loose_key`) built on
    first use (:attr:`loose`).  Made by :func:`name_table`."""

    _loose: dict[str, int | None] | None = None

    @property
    def loose(self) -> dict[str, int | None]:
        """loose key -> passcode (``None``: cards of different passcodes meet)."""
        if self._loose is None:
            out: dict[str, int | None] = {}
            for key, pc in self.items():
                lk = loose_key(key)
                out[lk] = pc if out.get(lk, pc) == pc else None
            self._loose = out
        return self._loose


def name_table(pairs: Iterable[tuple[str, int]], same: Callable[[list[int]], int | None] | None = None) -> NameTable:
    """A :class:`NameTable` of ``(key, passcode)`` pairs.  A key given with several passcodes gets
    ``same(passcodes)`` (the one card they all are, see :func:`main_passcode`) or, when that is
    ``None`` or no ``same`` is given, ``None``: ambiguous.  Raises nothing."""
    out = NameTable()
    shared: dict[str, list[int]] = {}
    for key, pc in pairs:
        first = out.setdefault(key, pc)
        if first != pc:
            shared.setdefault(key, [first]).append(pc)
    for key, ids in shared.items():
        out[key] = same(ids) if same is not None else None
    return out


def one_card(passcodes: list[int]) -> int | None:
    """The passcode of the one card ``passcodes`` all are (alternate artworks, pre-release ids:
    :func:`main_passcode`), else ``None``."""
    mains = {main_passcode(p) for p in passcodes}
    return mains.pop() if len(mains) == 1 else None


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    """The alias file as read (``{"en": {name: passcode}, "zh": {...}, "passcodes": {alt: main}}``);
    an empty table when the file is missing or unreadable (resolution then uses the input alone)."""
    import gzip

    import orjson

    from .normalize.common import PATTERNS_DIR

    try:
        with PATTERNS_DIR.joinpath(ALIAS_FILE[0]).joinpath(ALIAS_FILE[1]).open("rb") as f:
            return orjson.loads(gzip.decompress(f.read()))
    except (OSError, ValueError, EOFError):
        return {}


def _build_keyed() -> dict[str, Any]:
    """The alias file keyed by today's normalizer: ``{"en": NameTable, "zh": NameTable (their loose
    keys built too), "blocked": {"en": frozenset, "zh": frozenset}, "passcodes": {alt: main}}``.
    The names are keyed here (the file keeps them as written, so the table never goes stale when
    the term tables change); two names that now key alike but name different cards make that key
    ambiguous.  Raises nothing (an unreadable file gives empty tables, see :func:`_table`)."""
    raw = _table()
    out: dict[str, Any] = {"blocked": {}, "passcodes": dict(raw.get("passcodes") or {})}
    for group, lang in (("en", "en"), ("zh", "zh-CN")):
        part: dict[str, int] = raw.get(group) or {}
        names = list(part)
        table = name_table(zip(name_keys(names, lang), (part[n] for n in names)))
        table.loose  # built here, so a cached table holds it too
        out[group] = table
        loose = (raw.get("loose_ambiguous") or {}).get(group) or []
        out["blocked"][group] = frozenset(loose_key(k) for k in name_keys(loose, lang))
    return out


@lru_cache(maxsize=1)
def _keyed() -> dict[str, Any]:
    """The keyed alias table (:func:`_build_keyed`), read on first use from the cache folder of the
    compiled catalog (:func:`extractor.patterns.cache.cached_build`, file ``names-<key>.pickle``),
    where it is kept under the catalog's key: that key changes with the alias file, the term tables
    and every module of the normalizer, so a kept table is never stale.  Keying its ~9,000 names
    costs ~25-50 ms of CPU; reading them kept, ~2 ms.  Raises nothing."""
    from .patterns.cache import cached_build

    return cached_build("names", _build_keyed, dict)


@lru_cache(maxsize=4)
def _aliases(group: str) -> NameTable:
    """The alias table's ``group`` part (``en`` / ``zh``) as a :class:`NameTable` (:func:`_keyed`)."""
    table = _keyed().get(group)
    return table if isinstance(table, NameTable) else NameTable()


@lru_cache(maxsize=4)
def _blocked(group: str) -> frozenset[str]:
    """The loose keys two cards share in the databases the alias table was built from (its
    ``loose_ambiguous`` names, keyed): never resolved loosely."""
    return (_keyed().get("blocked") or {}).get(group) or frozenset()


def alias_passcode(key: str, lang: str) -> int | None:
    """The passcode of the card the alias table knows under the exact ``key`` (a :func:`name_key`
    of ``lang``), else ``None`` (unknown, ambiguous, or a language without aliases).  Reads the
    table on first use.  Raises nothing."""
    group = lang_group(lang)
    return None if group is None else _aliases(group).get(key)


def main_passcode(passcode: int) -> int:
    """The passcode of the card an alternate-artwork or pre-release passcode stands for (36996508
    -> 46986414: "Dark Magician" printed with another artwork), else ``passcode`` itself.  From the
    ``alias`` column of the ygopro databases (rows of one name), the yaml-yugi cards sharing one
    Konami id (of which the older databases hold one) and the ids of older databases yaml-yugi
    lacks whose name is one card's.  Reads the table on first use.  Raises nothing."""
    arts = _keyed().get("passcodes") or {}
    return arts.get(str(passcode), passcode)


def lookup(key: str, lang: str, names: Mapping[str, int | None] | None) -> int | None:
    """The passcode for the exact key ``key`` (:func:`name_key` of a ``lang`` name), in this order:

    1. ``names`` (the input's :class:`NameTable`), 2. the alias table, 3. the loose key
    (:func:`loose_key`) in ``names``, 4. the loose key in the alias table.  The first table that
    holds the key decides: a key it marks ambiguous resolves to ``None`` (never guessed); so does
    a loose key that names of two cards share in the databases the alias table was built from
    (its ``loose_ambiguous`` part: "Raimei" / "Rai-Mei", even when the input holds only one).  With no
    ``names`` (``None``: no input to resolve against, standard input, ``explain TEXT``) nothing is resolved.
    An empty ``names`` (an input holding no card of those names) still reads the alias table.  A
    plain mapping for ``names`` is taken as a :class:`NameTable` (copied).  Raises nothing."""
    if names is None:
        return None
    table = names if isinstance(names, NameTable) else name_table(names.items())
    if key in table:
        return table[key]
    group = lang_group(lang)
    aliases = _aliases(group) if group is not None else NameTable()  # read here, on the first miss
    if key in aliases:
        return aliases[key]
    lk = loose_key(key)
    if group is not None and lk in _blocked(group):  # loosely two cards ("Raimei" / "Rai-Mei")
        return None
    if lk in table.loose:
        return table.loose[lk]
    return aliases.loose.get(lk)


def resolve_name(name: str, lang: str, names: Mapping[str, int | None] | None) -> int | None:
    """The passcode of the card named ``name`` (a quoted name of a ``lang`` text) through the
    input's names and the alias table: :func:`lookup` of its :func:`name_key`; ``None`` when
    neither holds it or the name is ambiguous, or ``names`` is ``None``.  Raises nothing."""
    if names is None:
        return None
    return lookup(name_key(name, lang), lang, names)
