"""The shortcuts of the sixth speed pass in the Chinese normalizer give exactly what the long way
gives (docs/speed.md):

- ``normalize_zh``: one scan (``_Scan.slow_re``) finds OpenCC's Traditional characters, ASCII " and
  . and the removed ``characters``; a usual text (NFC, none of those) gets the full-width forms and
  the one-for-one ``characters`` found by one more scan and replaced together, then the terms; any
  other text the passes one by one, told by the first scan whether it is Traditional;
- the two most common full-width forms (，：) replaced before that scan; the counters pass tried only
  on a text holding a counter (体, 位);
- Traditional -> Simplified by ``str.translate`` of a list (``_to_simplified_text``) instead of a dict;
- the registers read with four substring tests for the community markers and a word -> register
  table; the registers of a text the passes do not keep aligned read without testing its script again.

Each is compared with the long way written out here (``normalize_zh`` as it was on main 812a4a1:
every pass its own scan), on constructed texts and on the real Chinese texts of ``../shared/data``
(skipped when absent): text, registers and the map back of every span of up to two characters (and
random longer ones).
"""
from __future__ import annotations

import json
import re
import sqlite3

import pytest

from extractor.normalize.common import nfc
from extractor.normalize import zh as Z
from extractor.normalize import zh_tables as ZT
from extractor.textmap import MappedText
from test_normalize_fast_paths import _same_map


def _long_way_registers(text: str) -> list[str]:
    tb = Z._tables()
    table, trad = Z._opencc()[0], Z._opencc()[1]
    t = text.translate(table) if not trad.isdisjoint(text) else text
    found = {tb.register_of[w] for w in set(tb.terms_re.findall(t))
             if tb.terms[w] != w and tb.register_of[w] != "any"}
    if Z._COMMUNITY_RE.search(t):
        found.add("community")
    return sorted(found) or ["community"]


def _long_way_zh(text: str) -> MappedText:
    """normalize_zh as it was before the sixth pass: every pass its own scan, Traditional ->
    Simplified by a set test and ``str.translate`` of the dict, the registers read from the
    Simplified text made apart."""
    tb = Z._tables()
    table, trad = Z._opencc()[0], Z._opencc()[1]
    mt = nfc(MappedText(text))
    fw = set(Z._FULLWIDTH_RE.findall(mt.text))
    if fw:
        Z._replace_chars(mt, ZT._FULLWIDTH, fw)
    if '"' in mt.text:
        mt.sub(Z._ASCII_QUOTES_RE, lambda m: "「" + m.group(1) + "」")
    if "." in mt.text:
        mt.sub(Z._CJK_PERIOD_RE, lambda m: "。")
    if not trad.isdisjoint(mt.text):
        mt.translate_chars(mt.text.translate(table))
    mt.replace_all(tb.chars, tb.chars_re)
    mt.replace_table(tb.terms, tb.terms_split)
    mt.registers = _long_way_registers(text)
    if tb.numeral_re is not None:
        mt.sub(tb.numeral_re, lambda m: tb.numerals[m.group()])
    if tb.counter_re is not None:
        mt.sub(tb.counter_re, lambda m: tb.counters[m.group()])
    return mt


def _same(text: str, seed: int = 0) -> None:
    a, b = Z.normalize_zh(text), _long_way_zh(text)
    _same_map(a, b, seed)
    assert a.registers == b.registers, (text, a.registers, b.registers)


# texts that take each path: nothing to replace; full-width forms (some that touch a term: ＸＹＺ, １);
# `characters` one for one; a removed character (\u200b, \r); " and . (the quote and full-stop
# passes); Traditional; an astral character (Traditional or not); a text NFC changes; numerals
# and counters; registers of every kind
_ZH_TEXTS = [
    "这张卡不能通常召唤。",
    "①：此卡不可从手牌特殊召唤，１只。",
    "①：此卡不可從手牌特殊召喚。祭品召喚",
    "ＸＹＺ召唤这张卡", "XYZ召唤这张卡", "移除１个超量素材", "移除1个超量素材",
    "“青眼白龙”・『黑魔术师』\u3000壹只", "此\u200b卡不能", "\r\n此卡\r不可", "a\r“b",
    '把"青眼白龙"加入手牌.这张卡', "攻击力1.5倍", "把＂X＂加入手牌．此卡",
    "貳體以上", "二体以上", "三体以上的怪兽", "一体化", "第一只", "十二只", "1体", "各一只",
    "𠀾此卡", "𠁞不可", "Ｃ\u0327此卡", "e\u0301", "", "a", "１", "Ａ", "我方场上", "从游戏中除外", "或是",
]


def test_normalize_zh_is_the_long_way_on_constructed_texts():
    for i, t in enumerate(_ZH_TEXTS):
        _same(t, i)
    assert Z.normalize_zh("ＸＹＺ召唤这张卡").registers == ["community"]
    assert Z.normalize_zh("XYZ召唤这张卡").registers == ["community", "old"]


def test_the_one_scan_is_allowed_for_the_shipped_tables_and_takes_the_usual_text(monkeypatch):
    sc = Z._scan()
    assert sc is not None  # else every text would take the passes one by one
    assert "此" not in sc.slow and "從" in sc.slow and '"' in sc.slow and "\u200b" in sc.slow
    assert dict(sc.common) == {"，": ",", "：": ":"}  # replaced before the scan for the other forms

    def refuse(text, traditional):
        raise AssertionError(f"the usual text took the passes one by one: {text}")

    monkeypatch.setattr(Z, "_normalize_steps", refuse)
    mt = Z.normalize_zh("①：此卡不可从手牌特殊召唤，１只。“青眼白龙”")
    assert mt.text == "①:这张卡不能从手卡特殊召唤,1只。「青眼白龙」" and mt.registers == ["official"]
    # Traditional text takes the usual way once translated (eighth pass); a quote still the passes
    assert Z.normalize_zh("此卡不可從手牌特殊召喚。").text == "这张卡不能从手卡特殊召唤。"
    with pytest.raises(AssertionError):
        Z.normalize_zh('把"青眼白龙"加入手牌')


def test_list_translation_is_the_dict_translation():
    table = Z._opencc()[0]
    for t in _ZH_TEXTS + ["".join(chr(c) for c in sorted(table))]:
        assert Z._to_simplified_text(t) == t.translate(table), t


def test_community_marker_test_is_the_regex():
    for t in _ZH_TEXTS + ["这张", "卡组", "手卡", "不能", "这张卡", "不 能"]:
        assert Z._has_community_marker(t) == (Z._COMMUNITY_RE.search(t) is not None), t
    assert set(ZT._COMMUNITY) == {"这张卡", "不能", "手卡", "卡组"}  # the four that the test names


def _shared_zh(shared) -> list[str]:
    out: list[str] = []
    with open(shared / "data/yaml-yugi/cards.jsonl", encoding="utf-8") as f:
        for k, line in enumerate(f):
            if k % 4:  # a quarter of the cards: the test stays a few seconds long
                continue
            d = json.loads(line)
            for field in ("text", "pendulum_effect", "name"):
                for lang, t in (d.get(field) or {}).items():
                    if lang in ("zh-CN", "zh-TW") and isinstance(t, str) and t:
                        out.append(t)
    with open(shared / "data/i18n-2012/cards.zh-TW.json", encoding="utf-8") as f:
        out.extend(c["lore"] for c in json.load(f)["cards"] if c.get("lore"))
    for db in ("goat-zh-CN", "prerelease-2026-zh-TW"):
        con = sqlite3.connect(shared / f"data/cdb/{db}.cdb")
        out.extend(t for (t,) in con.execute('select "desc" from texts') if t)
        con.close()
    return out


def test_normalize_zh_is_the_long_way_on_shared_texts(shared):
    texts = _shared_zh(shared)
    table = Z._opencc()[0]
    traditional = 0
    for i, t in enumerate(texts):
        _same(t, i)
        traditional += Z._to_simplified_text(t) != t
        if i % 7 == 0:
            assert Z._to_simplified_text(t) == t.translate(table)
    assert len(texts) > 10000 and traditional > 3000  # both scripts were read
