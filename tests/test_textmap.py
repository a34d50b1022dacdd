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
