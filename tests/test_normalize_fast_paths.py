"""The shortcuts of the fifth speed pass in the normalizers and the language check give exactly what
the long way gives (docs/speed.md):

- ``normalize_ja``: the full-width forms and the one-character ``characters`` replaced together, one
  for one, when the text holds no character that ``characters`` removes (else the two passes one
  after the other, as before); the terms found by a prefix tree compiled with ``re``; the inline
  furigana expression tried only on a text holding a kana-only parenthesis;
- ``trie_alternation`` splits every text as the flat longest-first ``regex`` alternation does;
- ``language_mismatch``: its one-scan usual cases give the verdict of ``looks_like``.

Each is compared with the long way written out here, on constructed texts and on the real texts of
``../shared/data`` (skipped when absent), text, map back of every span of up to two characters
(and random longer ones) included.
"""
from __future__ import annotations

import json
import random
import sqlite3

import regex

from extractor.langcheck import SAMPLE, _prepare, language_mismatch, looks_like
from extractor.normalize import normalize
from extractor.normalize.common import load_terms, nfc
from extractor.normalize.ja import _tables, strip_furigana
from extractor.textmap import MappedText, compile_alternation, split_alternation, trie_alternation

_FW_RE = regex.compile("[\uFF01-\uFF5E]+")
_FW = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_FURIGANA = regex.compile(r"(?<=\p{Han}|々)\s*[(（]\s*[\p{Hiragana}\p{Katakana}ー]+\s*[)）](?:\s+(?=[\p{Han}\p{Hiragana}\p{Katakana}]))?")
_RT = regex.compile(r"<rt>.*?</rt>|</?ruby>|<rp>.*?</rp>", regex.S)


def _long_way_ja(text: str) -> MappedText:
    """normalize_ja as it was before the fifth pass: each step its own scan, every table a
    ``regex`` alternation, the ``characters`` table a recorded pass."""
    data = load_terms("ja")
    chars = data["characters"]
    terms = {str(f): str(t) for f, t in data["terms"]}
    mt = nfc(MappedText(text))
    if "<r" in mt.text:
        mt.sub(_RT, "")
    if "(" in mt.text or "（" in mt.text:
        mt.sub(_FURIGANA, "")
    t = mt.text
    if _FW_RE.search(t):
        mt.translate_chars(_FW_RE.sub(lambda m: m.group(0).translate(_FW), t))
    mt.replace_table(chars, split_alternation(compile_alternation(chars)))
    mt.replace_table(terms, split_alternation(compile_alternation(terms)))
    return mt


def _same_map(a: MappedText, b: MappedText, seed: int = 0) -> None:
    assert a.text == b.text, (a.original, a.text, b.text)
    n = len(a.text)
    for i in range(n + 1):
        for e in (i, min(n, i + 1), min(n, i + 2)):
            assert a.to_original(i, e) == b.to_original(i, e), (a.original, i, e)
    rnd = random.Random(seed)
    for _ in range(10):
        s = rnd.randint(0, n)
        e = rnd.randint(s, n)
        assert a.to_original(s, e) == b.to_original(s, e), (a.original, s, e)


# texts that take each path: nothing to replace; full-width only; one-character `characters` only;
# both; a removed character (\r, U+FEFF) next to a replaced one (the long way); furigana; ruby
_JA_TEXTS = [
    "このカードは通常召喚できない。",
    "①：このカードの攻撃力は１０００アップする。",
    "『ブラック・マジシャン』･「ブラック･マジシャン・ガール」",
    "①：『Ｓ召喚』したＳモンスター\u3000１体を対象として発動できる。",
    "\r\n『Ａ』\r『Ｂ』\ufeff『Ｃ』する事ができる\r",
    "a\r『b",
    "\ufeff生け贄に捧げる。フィールド上の融合デッキ",
    "通 ( つう ) 常 ( じょう ) 召喚する。（このカード名の効果は１ターンに１度しか使用できない）",
    "<ruby>通常<rt>つうじょう</rt></ruby>召喚（ちょう）できる",
    "",
    "Ｘ素材を１つ取り除いて発動できる。ＥＸデッキから",
]


def test_normalize_ja_is_the_long_way_on_constructed_texts():
    for i, text in enumerate(_JA_TEXTS):
        _same_map(normalize(text, "ja"), _long_way_ja(text), i)
    # pinned: what the passes give
    assert normalize("①：『Ｓ召喚』したＳモンスター\u3000１体", "ja").text == "①:「シンクロ召喚」したシンクロモンスター 1体"
    mt = normalize("a\r『b", "ja")
    assert mt.text == "a「b" and mt.to_original(1, 2) == (2, 3) and mt.to_original(1, 1) == (2, 2)
    assert normalize("通 ( つう ) 常 ( じょう ) 召喚", "ja").text == "通常召喚"


def test_ja_one_for_one_table_is_allowed_for_the_shipped_tables():
    """The shipped ``characters`` allow the one-for-one path (else the tests above test nothing
    new): the removed characters are \\r and U+FEFF."""
    tb = _tables()
    assert tb.one_for_one is not None and tb.lengthy == frozenset("\r\ufeff")
    assert tb.one_for_one["Ａ"] == "A" and tb.one_for_one["『"] == "「"


def test_strip_furigana_gate_keeps_every_strip():
    for text in ("通 ( つう ) 常 ( じょう )", "効果（こうか）を", "（このカード名）", "Ａ（1）", "漢（カン）字"):
        a, b = strip_furigana(MappedText(text)), MappedText(text)
        b.sub(_FURIGANA, "")
        _same_map(a, b)


def test_furigana_gate_lets_every_kana_and_space_through():
    """The ``re`` gate before the inline furigana expression holds every character the expression's
    kana class and ``\\s`` hold (``regex``'s Unicode tables), so it never stops a text the expression
    would change."""
    from extractor.normalize.ja import _FURIGANA_GATE

    kana = regex.compile(r"[\p{Hiragana}\p{Katakana}ー]")
    space = regex.compile(r"\s")
    for c in map(chr, range(0x20000)):
        if kana.match(c):
            assert _FURIGANA_GATE.match("(" + c) and _FURIGANA_GATE.match("（" + c), hex(ord(c))
        if space.match(c):
            assert _FURIGANA_GATE.match("（" + c + "あ"), hex(ord(c))
    assert _FURIGANA_GATE.match("(\U0001f200") and not _FURIGANA_GATE.match("(漢")  # 🈀: Hiragana, of the SMP


def test_trie_alternation_splits_as_the_flat_alternation():
    rnd = random.Random(3)
    for table in (load_terms("ja")["terms"], load_terms("zh")["terms"]):
        keys = [str(row[0]) for row in table]
        trie, flat = split_alternation(trie_alternation(keys)), split_alternation(compile_alternation(keys))
        pieces = keys + ["x", "す", "る", "此", "不", "。", "A", "召喚"]
        for _ in range(400):
            text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 10)))
            assert trie.split(text) == flat.split(text), text


def test_trie_alternation_refuses_no_key_and_an_empty_key():
    import pytest

    with pytest.raises(ValueError):
        trie_alternation([])
    with pytest.raises(ValueError):
        trie_alternation(["a", ""])


def _long_way_mismatch(text: str, lang: str) -> str | None:
    fam = {"en": "en", "ja": "ja"}.get(lang, "zh")
    if not text:
        return None
    seen = looks_like(_prepare(text, SAMPLE), limit=None)
    return None if seen in (None, fam) else f"language mismatch: the text looks like {seen}, read as {lang}"


_MIXED = ["このカードは通常召喚できない。", "这张卡不能通常召唤。", "此卡名的②③の效果1回合只能", "悪魔の知恵＋魔天老",
          "「恶魔的智慧」＋「魔天老」", "女王の影武者＋響女", "이 카드는", "This card cannot be Normal Summoned.",
          "通常怪兽×2", "「ヴォルカニック／火山种」这张卡", "発動する效果", "①：此卡可直接攻击。", "<ruby>巨<rt>きょ</rt></ruby>神兵"]


def test_language_mismatch_is_looks_like_on_constructed_texts():
    for text in _MIXED:
        for lang in ("en", "zh-CN", "zh-TW", "ja"):
            assert language_mismatch(text, lang) == _long_way_mismatch(text, lang), (text, lang)
    assert language_mismatch("这张卡不能通常召唤。", "ja") == "language mismatch: the text looks like zh, read as ja"


def _shared_texts(shared) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"en": [], "zh-CN": [], "zh-TW": [], "ja": []}
    with open(shared / "data/yaml-yugi/cards.jsonl", encoding="utf-8") as f:
        for k, line in enumerate(f):
            if k % 3:  # a third of the cards: the test stays a few seconds long
                continue
            d = json.loads(line)
            for field in ("text", "pendulum_effect", "name"):
                for lang, t in (d.get(field) or {}).items():
                    if lang in out and isinstance(t, str) and t:
                        out[lang].append(t)
    for lang in ("ja", "zh-TW"):
        with open(shared / f"data/i18n-2012/cards.{lang}.json", encoding="utf-8") as f:
            out[lang].extend(c["lore"] for c in json.load(f)["cards"] if c.get("lore"))
    con = sqlite3.connect(shared / "data/cdb/goat-zh-CN.cdb")
    out["zh-CN"].extend(t for (t,) in con.execute('select "desc" from texts') if t)
    con.close()
    return out


def test_fast_paths_are_the_long_way_on_shared_texts(shared):
    texts = _shared_texts(shared)
    n = 0
    for i, t in enumerate(texts["ja"]):
        _same_map(normalize(t, "ja"), _long_way_ja(t), i)
        n += 1
    for lang, ts in texts.items():
        for t in ts[::4]:
            for read_as in ("en", "zh-CN", "ja"):
                assert language_mismatch(t, read_as) == _long_way_mismatch(t, read_as), (t[:60], lang, read_as)
    assert n > 5000
