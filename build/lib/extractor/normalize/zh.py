"""Chinese normalizer: Traditional and Simplified, every register, to one canonical Simplified text.

Steps (each keeps the offset map):
1. NFC (never NFKC: ① stays ①).
2. Full-width ASCII forms U+FF01-FF5E (``１０００``, ``：``, ``，``, ``（）``) to ASCII; a pair of
   ASCII double quotes around a name (``"X"``, some community texts) to ``「X」`` like “X”.
3. Traditional -> Simplified with OpenCC's character table (TSCharacters, one character to one)
   -- only when the text holds a character that the table converts (Simplified text is untouched).
4. ``characters`` of ``patterns/terms/zh.yaml``: variant characters (壹 -> 一, seed 003), quotes.
5. ``terms``: generations and registers of game terms to the canonical wording (此卡 -> 这张卡,
   不可 -> 不能, 手牌 -> 手卡, 牌组 -> 卡组, 祭品 -> 解放, 我方 -> 自己, ...); every rewrite records
   the register its source belongs to (see :func:`registers`).
6. ``counters``: a measure word after a digit or a numeral 二..十 to 只 (1体 -> 1只, 三体 -> 三只;
   not after 一, so 一体 "as one" stays).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

import regex

from ..textmap import MappedText, compile_alternation
from .common import load_terms, nfc

_FULLWIDTH = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}
_FULLWIDTH_RE = regex.compile("[\uFF01-\uFF5E]")
# a pair of ASCII (or full-width ＂) double quotes around a name, as some texts write "X" for 「X」
_ASCII_QUOTES_RE = regex.compile(r'"([^"\n]{1,60})"')
# an ASCII full stop right after a Chinese character or a closing bracket ends a Chinese sentence
# ("…进行特殊召唤.这张卡…" in older texts); never between digits ("1.5")
_CJK_PERIOD_RE = regex.compile(r"(?<=\p{Han}|[」』)])\.(?!\d)")


@lru_cache(maxsize=1)
def _opencc():
    """OpenCC's own Traditional->Simplified character table (``TSCharacters.txt``, first candidate)
    as a ``str.translate`` table, and the set of characters it converts.

    Character-level conversion keeps every offset (one character in, one out) and is ~50x faster
    than the pure-Python phrase converter; on the 14k yaml-yugi texts converted with s2tw it
    differs from ``OpenCC("t2s")`` only where t2s turns 覆 into 复 (反覆) and 藉 into 借 -- and
    覆盖 ("Set", older term) must stay 覆 here anyway (藉 is in the ``characters`` table)."""
    import opencc as _pkg

    table: dict[int, str] = {}
    path = Path(_pkg.__file__).parent / "dictionary" / "TSCharacters.txt"
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 2:
                continue
            src, dst = parts[0], parts[1].split(" ")[0]
            if len(src) == 1 and len(dst) == 1 and src != dst:
                table[ord(src)] = dst
    return table, frozenset(chr(c) for c in table)


def _trie_alternation(keys) -> "regex.Pattern[str]":
    """One regex for literal ``keys`` written as a prefix tree (``此(?:卡|怪兽)|不(?:可(?:以)?|得)...``):
    at each position it matches the longest key there, exactly like the flat alternation of
    :func:`extractor.textmap.compile_alternation` (longest first), but the engine follows one
    branch per character instead of trying every key (~1.5x faster on card text)."""
    trie: dict = {}
    for k in set(keys):
        node = trie
        for ch in k:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        alts = [regex.escape(c) + build(n) for c, n in sorted(node.items()) if c]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        # "" marks the end of a key: the longer keys (greedy ?) are tried first
        return "(?:" + body + ")?" if "" in node else body

    return regex.compile(build(trie))


@lru_cache(maxsize=1)
def _tables():
    data = load_terms("zh")
    chars: dict[str, str] = data.get("characters", {})
    terms = {f: t for f, t, _ in data.get("terms", [])}
    register_of = {f: r for f, _, r in data.get("terms", [])}
    counters = data.get("counters", {})
    counter_re = regex.compile(r"(?<=[0-9二两三四五六七八九十])(?:" + "|".join(map(regex.escape, counters)) + ")") if counters else None
    # every key of `characters` is one character: a character class finds the same matches
    if all(len(c) == 1 for c in chars):
        chars_re = regex.compile("[" + "".join(regex.escape(c) for c in chars) + "]")
    else:
        chars_re = compile_alternation(chars)
    return (chars, chars_re, terms, _trie_alternation(terms), register_of, counters, counter_re)


@lru_cache(maxsize=1)
def _chars_by_replace() -> frozenset[str] | None:
    """Whether ``characters`` can be applied one character for one (:func:`_replace_chars`): the
    keys of its entries that change the length (``\r`` -> nothing), which rule that out for a text
    holding them; ``None`` if a key is longer than one character or a value is also a key."""
    chars = _tables()[0]
    if any(len(k) != 1 for k in chars) or set(chars.values()) & set(chars):
        return None
    return frozenset(k for k, v in chars.items() if len(v) != 1)


def _replace_chars(mt: MappedText, rx: "regex.Pattern[str]", table: dict[str, str],
                   found: set[str] | None = None) -> None:
    """Replace each character that ``rx`` finds (or each of ``found``) by ``table[c]``, one
    character for one (no value is a key: the order of the replacements does not matter).
    Offsets are kept (:meth:`MappedText.translate_chars`); ``str.replace`` per distinct character
    is far faster than a callback per occurrence."""
    if found is None:
        found = set(rx.findall(mt.text))
    if found:
        t = mt.text
        for c in found:
            t = t.replace(c, table[c])
        mt.translate_chars(t)


_last_checked: tuple[str | None, bool] = (None, False)


def has_traditional(text: str) -> bool:
    """True if ``text`` holds a character that OpenCC's Traditional->Simplified table converts.
    (The answer for the last text is kept: ``analyze`` asks for the same card text twice, in
    :func:`normalize_zh` and :func:`registers`.)"""
    global _last_checked
    last, found = _last_checked
    if text is last:
        return found
    _, trad = _opencc()
    found = not trad.isdisjoint(text)
    _last_checked = (text, found)
    return found


@lru_cache(maxsize=1)
def _passes_keep_traditional() -> bool:
    """True when the full-width and quote passes neither add nor remove a character of the
    Traditional table (none of U+FF01-FF5E, ASCII, 「 or 」 is in it), so whether a text holds
    Traditional characters can be read before them."""
    _, trad = _opencc()
    return trad.isdisjoint(set(_FULLWIDTH) | set(_FULLWIDTH.values()) | {'"', "「", "」"})


def to_simplified(mt: MappedText) -> MappedText:
    """Traditional -> Simplified, character by character with OpenCC's table (a no-op when ``mt``
    holds no Traditional character).  Offsets are kept one to one."""
    if not has_traditional(mt.text):
        return mt
    table, _ = _opencc()
    return mt.translate_chars(mt.text.translate(table))


def normalize_zh(text: str) -> MappedText:
    """Normalize Chinese text (either script, any register).  Input: original text.
    Output: MappedText with canonical Simplified text."""
    chars, chars_re, terms, terms_re, _, counters, counter_re = _tables()
    length_changing = _chars_by_replace()
    global _last_terms
    mt = nfc(MappedText(text))
    same = mt.text is text  # NFC changed nothing
    traditional = has_traditional(mt.text) if _passes_keep_traditional() else None
    fw = set(_FULLWIDTH_RE.findall(mt.text))
    if fw:
        _replace_chars(mt, _FULLWIDTH_RE, _FULLWIDTH, fw)
    if '"' in mt.text:
        mt.sub(_ASCII_QUOTES_RE, lambda m: "「" + m.group(1) + "」")
    if "." in mt.text:
        mt.sub(_CJK_PERIOD_RE, lambda m: "。")
    if traditional is None:
        to_simplified(mt)
    elif traditional:
        mt.translate_chars(mt.text.translate(_opencc()[0]))
    community = "这张卡" in mt.text or "不能" in mt.text or "手卡" in mt.text or "卡组" in mt.text
    found = set(chars_re.findall(mt.text))
    if found:
        same = same and found <= _neutral_chars()
        if length_changing is not None and length_changing.isdisjoint(found):
            _replace_chars(mt, chars_re, chars, found)  # all one character for one here
        else:
            mt.replace_all(chars, chars_re)
    words: list[str] = []

    def term(m: "regex.Match[str]") -> str:
        w = m.group(0)
        words.append(w)
        return terms[w]

    mt.replace_all(terms, terms_re) if not same else mt.sub(terms_re, term)  # no pass when nothing changes
    # registers() of this text can use what was found here when the terms saw T2S(text) up to
    # characters no term holds (see _terms_alphabet, _neutral_chars)
    _last_terms = (text, words, community) if same and _terms_alphabet().isdisjoint(fw) else (None, [], False)
    if counter_re is not None and counter_re.search(mt.text):
        mt.sub(counter_re, lambda m: counters[m.group(0)])
    return mt


_last_terms: tuple[str | None, list[str], bool] = (None, [], False)


@lru_cache(maxsize=1)
def _terms_alphabet() -> frozenset[str]:
    """Full-width characters whose ASCII form is in a term or a community marker (Ｘ for XYZ召唤):
    when normalization turned one of them into ASCII, a term may have appeared."""
    terms = _tables()[2]
    letters = {c for k in terms for c in k} | set("这张卡不能手卡卡组")
    return frozenset(fw for fw, a in _FULLWIDTH.items() if a in letters)


@lru_cache(maxsize=1)
def _neutral_chars() -> frozenset[str]:
    """``characters`` keys that, like their one-character values, are in no term and no community
    marker (・ -> ·, “ -> 「): rewriting them cannot make or break a term."""
    chars, _, terms = _tables()[:3]
    letters = {c for k in terms for c in k} | set("这张卡不能手卡卡组")
    return frozenset(k for k, v in chars.items() if len(v) == 1 and k not in letters and v not in letters)


def registers(text: str) -> list[str]:
    """The registers whose marker terms occur in ``text`` (after Traditional->Simplified): ``official``, ``old``,
    ``community``; ``community`` alone when no marker of another register is found.
    Recorded from the words present, never guessed."""
    _, _, terms, terms_re, register_of, _, _ = _tables()
    last, words, community = _last_terms
    if text is last:
        # normalize_zh(text) just matched the terms of T2S(text) (only full-width ASCII and quote
        # marks, which no term holds, differed): the same words
        found = {register_of[w] for w in set(words) if terms[w] != w and register_of[w] != "any"}
        if community:
            found.add("community")
        return sorted(found) or ["community"]
    table, _ = _opencc()
    t = text.translate(table) if has_traditional(text) else text
    # identity entries only protect compounds (对方, 原本卡) and mark no register
    found = {register_of[w] for w in set(terms_re.findall(t)) if terms[w] != w and register_of[w] != "any"}
    if "这张卡" in t or "不能" in t or "手卡" in t or "卡组" in t:
        found.add("community")
    return sorted(found) or ["community"]
