import regex

from extractor.normalize import normalize
from extractor.textmap import MappedText


def test_spans_map_back_through_several_passes():
    mt = MappedText("This card cannot be Special Summoned from the Graveyard.")
    mt.sub(regex.compile("Graveyard"), "GY")
    mt.sub(regex.compile("This card cannot"), "Cannot")
    assert mt.text == "Cannot be Special Summoned from the GY."
    i = mt.text.index("GY")
    s, e = mt.to_original(i, i + 2)
    assert mt.original[s:e] == "Graveyard"
    i = mt.text.index("Special")
    s, e = mt.to_original(i, i + len("Special Summoned"))
    assert mt.original[s:e] == "Special Summoned"
    assert mt.to_original(0, len(mt.text)) == (0, len(mt.original))


def test_chinese_spans_point_into_traditional_original():
    orig = "此卡不能通常召喚。必須把我方場上3體怪獸作為祭品"
    mt = normalize(orig, "zh-TW")
    assert mt.text == "这张卡不能通常召唤。必须把自己场上3只怪兽解放"
    i = mt.text.index("解放")
    s, e = mt.to_original(i, i + 2)
    assert orig[s:e] == "作為祭品"
    i = mt.text.index("通常召唤")
    s, e = mt.to_original(i, i + 4)
    assert orig[s:e] == "通常召喚"


def test_circled_numbers_survive_normalization():
    mt = normalize("①：这张卡可以从手卡特殊召唤。１０００", "zh-CN")
    assert mt.text.startswith("①:") and mt.text.endswith("1000")


def test_japanese_furigana_stripped():
    mt = normalize("通 ( つう ) 常 ( じょう ) 召 ( しょう ) 喚 ( かん ) と<ruby>特殊<rt>とくしゅ</rt></ruby>召喚", "ja")
    assert mt.text == "通常召喚と特殊召喚"


def test_sub_records_only_real_changes_and_takes_re_patterns():
    import re

    mt = MappedText("手牌和对方的手牌")
    mt.sub(re.compile("对方|手牌"), lambda m: {"对方": "对方", "手牌": "手卡"}[m.group()])
    assert mt.text == "手卡和对方的手卡"
    assert len(mt._passes) == 1 and len(mt._passes[0].changes) == 2  # 对方 -> 对方 is no change
    mt.sub(re.compile("不存在"), "x")
    assert len(mt._passes) == 1  # a pass that changes nothing records nothing
    mt.sub(re.compile("(手)卡"), r"\1札卡")  # a template, longer than what it replaces
    assert mt.text == "手札卡和对方的手札卡"
    i = mt.text.rindex("手札卡")
    assert mt.original[slice(*mt.to_original(i, i + 3))] == "手牌"


def test_zh_normalizer_returns_the_registers_with_the_text():
    from extractor.normalize.zh import normalize_zh, registers

    official = "此卡不可从手牌特殊召唤。"
    old = "我方场上3只怪兽作为祭品。"
    community = "这张卡不能通常召唤。"
    assert normalize_zh(official).registers == ["official"]
    assert normalize_zh(old).registers == ["old"]
    assert normalize_zh(community).registers == ["community"]
    assert normalize_zh(old + community).registers == ["community", "old"]
    assert normalize_zh("从手卡或是卡组特殊召唤。").registers == ["community"]  # 或是: a word of no register
    # nothing is kept between calls: the result of a text does not depend on what came before
    a = normalize_zh(official)
    normalize_zh(old)
    assert a.registers == registers(official) == normalize_zh(official).registers == ["official"]


def test_zh_registers_read_from_the_text_not_from_what_other_passes_made():
    from extractor.normalize.zh import normalize_zh, registers

    # full-width ＸＹＺ becomes XYZ, and XYZ召唤 is an old term: the text itself holds no old term
    # (registers are read after Traditional->Simplified alone), as registers() of the same text says
    for text in ("ＸＹＺ召唤这张卡", "XYZ召唤这张卡", "此\u200b卡不能", "此卡\r\n不得", "「此卡」不能。", "本卡.此卡",
                 "此卡不能從手牌特殊召喚", "貳體祭品"):
        mt = normalize_zh(text)
        assert mt.registers == registers(text), text
    assert normalize_zh("ＸＹＺ召唤这张卡").registers == ["community"]
    assert normalize_zh("XYZ召唤这张卡").registers == ["community", "old"]
    # a zero-width space splits 此卡: the term is not in the text (the normalized text has it)
    mt = normalize_zh("此\u200b卡不能")
    assert mt.text == "这张卡不能" and mt.registers == ["community"]


def test_replace_table_is_sub_with_the_table_map_included():
    """MappedText.replace_table (split, no callback per match) rewrites and maps back exactly as
    sub with a table lookup does, for every span, with identity entries and length changes."""
    import random
    import re

    from extractor.textmap import split_alternation

    table = {"对方": "对方", "手牌": "手卡", "我方": "自己", "祭品": "解放", "此卡": "这张卡", "不可以": "不能", "ab": ""}
    alt = re.compile("不可以|对方|手牌|我方|祭品|此卡|ab")
    rnd = random.Random(7)
    pieces = list(table) + ["x", "怪兽", "。", "不可", "a", "b"]
    for _ in range(300):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12)))
        by_sub, by_split = MappedText(text), MappedText(text)
        by_sub.sub(alt, lambda m: table[m.group()])
        words = by_split.replace_table(table, split_alternation(alt))
        assert by_split.text == by_sub.text
        assert words == alt.findall(text)
        assert len(by_split._passes) == len(by_sub._passes)  # nothing recorded when nothing changed
        n = len(by_sub.text)
        for s in range(n + 1):
            for e in range(s, n + 1):
                assert by_split.to_original(s, e) == by_sub.to_original(s, e), (text, s, e)


def test_split_alternation_refuses_a_capturing_group():
    import re

    import pytest

    from extractor.textmap import split_alternation

    assert split_alternation(re.compile("a|b")).split("xay") == ["x", "a", "y"]
    assert split_alternation(regex.compile("a|b")).split("xby") == ["x", "b", "y"]
    with pytest.raises(ValueError, match="capturing"):
        split_alternation(re.compile("(a)|b"))
