"""A procedure's requirement read whole: the count and filter of the cards its kind counts
(extractor/patterns/captures.py ``SlotReader._requirement_object``, fragments ``requirement_object``),
in English, Chinese and Japanese; printed back (extractor/render.py ``render_requirement``); compared
by validate (slots ``requirement.count`` / ``requirement.filter``, rule
``requirement-count-and-filter``)."""
from __future__ import annotations

import pytest

from extractor.frame import Frame
from extractor.pipeline import Card, analyze_text
from extractor.render import render, render_requirement
from extractor.slots import CardFilter, Requirement
from extractor.validate import compare_conditions, validate

MAIN = Frame(kind="main_monster", level=7)
B = "builtin-special-summon"


def _req(text: str, lang: str) -> Requirement:
    procs = [c for c in analyze_text(text, lang, MAIN)[0] if c.kind == B and c.requirement is not None]
    assert procs, f"no procedure with a requirement read in {text!r}"
    return procs[0].requirement


# (text, lang, kind, count, attributes, types, card kinds)
READ = [
    # README's first explain example: "exactly 3" is (3, 3)
    ("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by having exactly 3 DARK monsters "
     "in your GY.", "en", "cards-in-gy", (3, 3), ("DARK",), (), ()),
    ("这张卡不能通常召唤。仅可在自己墓地的暗属性怪兽为3只的场合特殊召唤。", "zh-CN", "cards-in-gy", (3, 3), ("DARK",), (), ()),
    ("このカードは通常召喚できない。自分の墓地の闇属性モンスターが３体の場合のみ特殊召喚できる。", "ja", "cards-in-gy", (3, 3),
     ("DARK",), (), ()),
    # "N or more" is (N, None); 以上 after 种类 / 種類 too
    ("Must be Special Summoned (from your hand) by having 5 or more LIGHT monsters with different names in your GY.",
     "en", "cards-in-gy", (5, None), ("LIGHT",), (), ()),
    ("自己墓地的光属性怪兽是5种类以上的场合,这张卡可以从手卡特殊召唤。", "zh-CN", "cards-in-gy", (5, None), ("LIGHT",), (), ()),
    ("自分の墓地の光属性モンスターが５種類以上の場合、このカードは手札から特殊召喚できる。", "ja", "cards-in-gy", (5, None),
     ("LIGHT",), (), ()),
    ("自己墓地有怪兽10只以上存在的场合,这张卡可以从手卡特殊召唤。", "zh-CN", "cards-in-gy", (10, None), (), (), ()),
    # 以上 after 种类 (a count of kinds, the cost count reads 3种类 as 3): 3 or more (i18n-2012 zh-CN, Laval Coatl)
    ("自己墓地有名字带有「熔岩」的怪兽3种类以上存在的场合，这张卡可以从手卡特殊召唤。", "zh-CN", "cards-in-gy", (3, None), (), (), ()),
    ("自分の墓地にモンスターが１０体以上存在する場合、このカードは手札から特殊召喚できる。", "ja", "cards-in-gy", (10, None),
     (), (), ()),
    ("If you have exactly 4 Fairy monsters in your GY, you can Special Summon this card (from your hand).", "en",
     "cards-in-gy", (4, 4), (), ("Fairy",), ()),
    ("自己墓地的天使族怪兽仅有4只的场合,这张卡可以从手卡特殊召唤。", "zh-CN", "cards-in-gy", (4, 4), (), ("Fairy",), ()),
    # "no" is (0, 0)
    ("If you have no Spell/Trap Cards in your GY, you can Special Summon this card (from your hand).", "en",
     "cards-in-gy", (0, 0), (), (), ("Spell", "Trap")),
    ("自己的墓地不存在魔法·陷阱卡的场合,这张卡可以从手卡特殊召唤。", "zh-CN", "cards-in-gy", (0, 0), (), (), ("Spell", "Trap")),
    ("自分の墓地に魔法・罠カードが存在しない場合、このカードは手札から特殊召喚できる。", "ja", "cards-in-gy", (0, 0), (), (), ()),
    ("If your opponent controls 2 or more monsters, you can Special Summon this card (from your hand).", "en",
     "opponent-controls-monster", (2, None), (), (), ()),
    ("相手フィールドにモンスターが２体以上存在する場合、このカードは手札から特殊召喚できる。", "ja",
     "opponent-controls-monster", (2, None), (), (), ()),
    ("If 2 or more cards are in the same column, you can Special Summon this card (from your hand).", "en", "column",
     (2, None), (), (), ()),
    ("同一纵列有2张以上的卡存在的场合,这张卡可以从手卡特殊召唤。", "zh-CN", "column", (2, None), (), (), ()),
    ("同じ縦列にカードが２枚以上存在する場合、このカードは手札から特殊召喚できる。", "ja", "column", (2, None), (), (), ()),
]


@pytest.mark.parametrize("text,lang,kind,count,attrs,types,kinds", READ)
def test_count_and_filter_are_read_where_the_text_states_them(text, lang, kind, count, attrs, types, kinds):
    r = _req(text, lang)
    assert r.kind == kind
    assert r.count == count
    assert r.filter is not None
    assert (r.filter.attributes, r.filter.types, r.filter.card_kinds) == (attrs, types, kinds)
    assert r.filter.phrase and not any(ch.isdigit() for ch in r.filter.phrase)  # the count is not the filter's


def test_the_filter_keeps_its_words_and_archetype():
    r = _req('If you have 2 or more "X-Saber" monsters in your GY and control no monsters, you can Special Summon '
             'this card (from your hand).', "en")
    assert r.filter.phrase == '"X-Saber" monsters' and r.filter.archetypes == ("X-Saber",)
    assert _req("这张卡不能通常召唤。仅可在自己墓地的暗属性怪兽为3只的场合特殊召唤。", "zh-CN").filter.phrase == "暗属性怪兽"
    assert _req("このカードは通常召喚できない。自分の墓地の闇属性モンスターが３体の場合のみ特殊召喚できる。", "ja").filter.phrase == \
        "闇属性モンスター"


@pytest.mark.parametrize("text,lang", [
    ("If you have 2 or more \"X-Saber\" monsters in your GY and control no monsters, you can Special Summon this "
     "card (from your hand).", "en"),
    ("自己墓地存在2只以上「X-军刀」怪兽,且自己场上不存在怪兽的场合,这张卡可以从手卡特殊召唤。", "zh-CN"),
    ("自分の墓地に「X-セイバー」と名のついたモンスターが２体以上存在し、自分フィールドにモンスターが存在しない場合、"
     "このカードは手札から特殊召喚できる。", "ja"),
])
def test_two_typed_parts_the_count_is_the_first_parts(text, lang):
    """A requirement of two typed parts: the count and filter are those of ``kind`` (the first part);
    the second (you control no monsters) has none of its own."""
    r = _req(text, lang)
    assert r.parts == ("cards-in-gy", "control-no-monsters") and r.kind == "cards-in-gy"
    assert r.count == (2, None)


def test_a_second_object_makes_both_unread():
    """Two objects in one requirement ("...2 or more monsters ... and you have 3 or more cards in your GY"):
    which is the kind's is not said, so neither count nor filter is read."""
    r = _req("If your opponent controls 2 or more monsters and you have 3 or more cards in your GY, you can "
             "Special Summon this card (from your hand).", "en")
    assert r.kind == "opponent-controls-monster" and r.count is None and r.filter is None


@pytest.mark.parametrize("text,lang", [
    ("If only your opponent controls a monster, you can Special Summon this card (from your hand).", "en"),
    ("仅有对手场上才存在怪兽的场合,这张卡可以从手卡特殊召唤。", "zh-CN"),
    ("相手フィールドにのみモンスターが存在する場合、このカードは手札から特殊召喚できる。", "ja"),
])
def test_no_number_no_count(text, lang):
    """"a monster" / 有怪兽存在: one or more, no number written: the count is not read (None), the filter is."""
    r = _req(text, lang)
    assert r.count is None and r.filter is not None


@pytest.mark.parametrize("text,lang", [
    ("If you have only Insect-Type monsters in your GY, you can Special Summon this card (from your hand).", "en"),
    ("自己墓地存在的怪兽只有昆虫族的场合,这张卡可以从手卡特殊召唤。", "zh-CN"),
    ("自分の墓地のモンスターが機械族モンスターのみの場合、このカードは手札から特殊召喚できる。", "ja"),
    ("If your opponent controls 2 or more monsters including a LIGHT monster, you can Special Summon this card "
     "(from your hand).", "en"),
])
def test_what_is_not_a_count_of_cards_stays_unread(text, lang):
    """"only Insect monsters" (all of them are), a filter of one of them ("including a LIGHT monster"):
    not read (unread is not absent)."""
    r = _req(text, lang)
    assert r.count is None and r.filter is None


def test_a_requirement_of_another_kind_reads_no_count():
    r = _req("If you control no monsters, you can Special Summon this card (from your hand).", "en")
    assert r.kind == "control-no-monsters" and r.count is None and r.filter is None


# -- rendering --------------------------------------------------------------------------------

def test_the_kept_phrase_is_printed_in_its_own_language():
    text = ("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by having exactly 3 DARK "
            "monsters in your GY.")
    proc = [c for c in analyze_text(text, "en", MAIN)[0] if c.kind == B][0]
    assert render(proc, "en") == text.split(". ", 1)[1]


def test_a_counted_requirement_prints_in_another_language_from_its_count_and_filter():
    en = _req("Must be Special Summoned (from your hand) by having exactly 3 DARK monsters in your GY.", "en")
    assert render_requirement(en, "zh") == "自己墓地的暗属性怪兽是3只的场合"
    assert render_requirement(en, "ja") == "自分の墓地の闇属性モンスターが3体の場合"
    zh = _req("自己墓地有怪兽10只以上存在的场合,这张卡可以从手卡特殊召唤。", "zh-CN")
    assert render_requirement(zh, "en") == "If you have 10 or more monsters in your GY"
    assert render_requirement(zh, "ja") == "自分の墓地にモンスターが10体以上存在する場合"
    ja = _req("相手フィールドにモンスターが２体以上存在する場合、このカードは手札から特殊召喚できる。", "ja")
    assert render_requirement(ja, "en") == "If your opponent controls 2 or more monsters"
    none = Requirement(kind="cards-in-gy", phrase="自己墓地没有怪兽存在的场合", whose=("you",), count=(0, 0),
                       filter=CardFilter(phrase="怪兽"))
    assert render_requirement(none, "en") == "If you have no monsters in your GY"


LANGS = {"en": "en", "zh": "zh-CN", "ja": "ja"}


@pytest.mark.parametrize("text,lang,kind,count,attrs,types,kinds", READ)
def test_printed_in_another_language_it_reads_back_the_same(text, lang, kind, count, attrs, types, kinds):
    """Parse, print in each other language, parse again: the same kind, count and typed filter.  Not
    printed (the phrase is kept, so not read back): card kinds outside English (no table of them);
    not read back: zh 对方场上有怪兽2只以上存在 (the Chinese reading types no counted opponent's monsters)."""
    proc = [c for c in analyze_text(text, lang, MAIN)[0] if c.kind == B][0]
    done = 0
    for fam, other in LANGS.items():
        if other == lang or (kinds and fam != "en") or (kind == "opponent-controls-monster" and fam == "zh"):
            continue
        printed = render(proc, fam)
        back = _req(printed, other)
        assert (back.kind, back.count, back.filter.attributes, back.filter.types) == (kind, count, attrs, types), printed
        done += 1
    assert done >= 1 or (kinds and lang == "en")


def test_what_the_tables_cannot_say_keeps_the_phrase():
    # a second typed part, a count not read, a Level, card kinds outside English: the phrase (or the kind's sentence)
    two = _req("自己墓地存在2只以上「X-军刀」怪兽,且自己场上不存在怪兽的场合,这张卡可以从手卡特殊召唤。", "zh-CN")
    assert render_requirement(two, "en") == two.phrase
    a = _req("If only your opponent controls a monster, you can Special Summon this card (from your hand).", "en")
    assert render_requirement(a, "zh") == "对方场上有怪兽存在的场合"
    spells = _req("If you have no Spell/Trap Cards in your GY, you can Special Summon this card (from your hand).", "en")
    assert render_requirement(spells, "zh") == spells.phrase
    assert render_requirement(Requirement(kind="opponent-controls-monster", phrase="x", count=(1, None),
                                          filter=CardFilter(phrase="x", levels=(5, None))), "zh") == "对方场上有怪兽存在的场合"


# -- validate ---------------------------------------------------------------------------------

def _c(**kw):
    from extractor.conditions import CONDITION_CLASSES
    return CONDITION_CLASSES[B](span=(0, 4), phrase="", pattern_id="t", lang="xx", locations=("hand",), **kw)


def _slots(src, tgt):
    return sorted((m.slot, m.severity) for m in compare_conditions(src, tgt, MAIN)[0])


GY3 = {"kind": "cards-in-gy", "whose": ("you",), "count": (3, 3), "filter": {"phrase": "x", "attributes": ("DARK",)}}


def test_validate_compares_count_and_filter_of_the_same_kind():
    assert _slots([_c(requirement=GY3)], [_c(requirement=GY3)]) == []
    assert _slots([_c(requirement=GY3)], [_c(requirement={**GY3, "count": (5, 5)})]) == [("requirement.count", "medium")]
    assert _slots([_c(requirement=GY3)], [_c(requirement={**GY3, "count": (3, None)})]) == [
        ("requirement.count", "medium")]
    assert _slots([_c(requirement=GY3)], [_c(requirement={**GY3, "filter": {"phrase": "y", "attributes": ("LIGHT",)}})]
                  ) == [("requirement.filter", "medium")]
    # Attributes in part, an unstated typed part: agree (as cost filters)
    assert _slots([_c(requirement=GY3)], [_c(requirement={**GY3, "filter": {"phrase": "y", "attributes": ("DARK", "LIGHT")}})]
                  ) == []
    assert _slots([_c(requirement=GY3)], [_c(requirement={**GY3, "filter": {"phrase": "y"}})]) == []


def test_validate_unread_or_other_kind_agrees():
    """A side that did not read them (None) agrees with any (uncertain); another kind is the requirement
    slot's difference, its count is not compared."""
    assert _slots([_c(requirement=GY3)], [_c(requirement={**GY3, "count": None, "filter": None})]) == []
    assert _slots([_c(requirement=GY3)], [_c()]) == []
    other = {**GY3, "kind": "opponent-controls-monster", "whose": ("you",), "count": (2, None)}
    assert _slots([_c(requirement=GY3)], [_c(requirement=other)]) == [("requirement", "medium")]


EN = "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by having exactly 3 DARK monsters in your GY."
ZH = "这张卡不能通常召唤。自己墓地的暗属性怪兽是3只的场合才能特殊召唤。"
JA = "このカードは通常召喚できない。自分の墓地の闇属性モンスターが３体の場合のみ特殊召喚できる。"


def _pair(src_text, src_lang, tgt_text, tgt_lang):
    rep = validate([Card(id=1, name="x", lang=src_lang, text=src_text, frame=MAIN)],
                   [Card(id=1, name="x", lang=tgt_lang, text=tgt_text, frame=MAIN)])
    return sorted((m.condition, m.slot) for c in rep.cards for m in c.mismatches)


def test_validate_on_real_sentences():
    assert _pair(EN, "en", ZH, "zh-CN") == []
    assert _pair(EN, "en", JA, "ja") == []
    assert _pair(EN, "en", ZH.replace("3只", "5只"), "zh-CN") == [("special-summon-method", "requirement.count")]
    assert _pair(EN, "en", JA.replace("闇属性", "光属性"), "ja") == [("special-summon-method", "requirement.filter")]
    # a count written on one side only ("exactly 3" against 有暗属性怪兽存在): uncertain, not reported
    assert _pair(EN, "en", "这张卡不能通常召唤。自己墓地有暗属性怪兽存在的场合才能特殊召唤。", "zh-CN") == []
