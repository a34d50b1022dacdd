"""Material lines and Tribute rules as objects (issue 10 §2, §3): the ``material-line`` and
``tribute-rule`` conditions, their STRUCTURE.md view, the frame rules (only on Extra Deck monsters,
the frame's Summon kind), named Fusion Materials resolved through the input's names, and the
profile left as it was."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.conditions import ConditionAdapter, MaterialLineCondition, TributeRule
from extractor.frame import Frame
from extractor.pipeline import Card, analyze, analyze_text
from extractor.slots import read_count, read_material_line


def _res(text: str, type_line: str, level: int, lang: str = "en", names=None):
    return analyze(Card(id=1, name="x", lang=lang, text=text, frame=Frame.from_type_line(type_line, level)),
                   names=names)


def _mat(text: str, type_line: str, level: int = 8, lang: str = "en") -> dict:
    r = _res(text, type_line, level, lang)
    assert len(r.materials) == 1, (text, r.materials)
    return {k: v for k, v in r.materials[0].items() if k not in ("span", "pattern_id", "named_names")}


# -- counts (fragment mat_count) ---------------------------------------------------------------

@pytest.mark.parametrize("text,lang,want", [
    ("2", "en", (2, 2)), ("1+ non-Tuner monsters", "en", (1, None)), ("2 or more Level 4 monsters", "en", (2, None)),
    ("2 or more (max. 5) Level 4 monsters", "en", (2, 5)), ("4 Dragon monsters (1 Fusion, 1 Synchro)", "en", (4, 4)),
    ("\"Elemental HERO Avian\"", "en", (1, 1)),
    ("协调以外的怪兽1只以上", "zh", (1, None)), ("等级4怪兽×2", "zh", (2, 2)), ("4星怪兽×2只以上(最多5只)", "zh", (2, 5)),
    ("「青眼白龙」", "zh", (1, 1)),
])
def test_read_count(text, lang, want):
    assert read_count(text, lang) == want


# -- the four kinds, en and zh (both registers, older wordings) -------------------------------

@pytest.mark.parametrize("text,lang", [
    ("1 Tuner + 1+ non-Tuner monsters\nDraw 1 card.", "en"),
    ("1 Tuner + 1 or more non-Tuner monsters\nDraw 1 card.", "en"),
    ("协调+协调以外的怪兽1只以上\n①:抽1张。", "zh-CN"),
    ("调整＋调整以外的怪兽１只以上\n①:抽1张。", "zh-CN"),
    ("协调＋１只以上协调以外的怪兽\n①:抽1张。", "zh-CN"),
    ("協調＋協調以外的怪獸1隻以上\n①:抽1張。", "zh-TW"),
])
def test_synchro_tuner_and_non_tuner(text, lang):
    assert _mat(text, "Dragon / Synchro / Effect", lang=lang) == {"summon": "synchro", "tuner": [1, 1], "non_tuner": [1, None]}


def test_synchro_without_a_non_tuner_part():
    assert _mat('"Kewl Tune Reco" + 1+ Tuners\nDraw 1 card.', "Machine / Synchro / Tuner / Effect") == \
        {"summon": "synchro", "tuner": [1, 1], "non_tuner": [1, None]}
    assert _mat("2 Tuners + 1 non-Tuner monster\nDraw 1 card.", "Dragon / Synchro / Effect") == \
        {"summon": "synchro", "tuner": [2, 2], "non_tuner": [1, 1]}


@pytest.mark.parametrize("text,lang,level,count", [
    ("2 Level 4 monsters\nDraw 1 card.", "en", 4, [2, 2]),
    ("2+ Level 3 monsters\nDraw 1 card.", "en", 3, [2, None]),
    ("2 or more (max. 5) Level 4 monsters\nDraw 1 card.", "en", 4, [2, 5]),
    ("等级4怪兽×2\n①:抽1张。", "zh-CN", 4, [2, 2]),
    ("4星怪兽×2。这张卡1回合1次可以抽1张。", "zh-CN", 4, [2, 2]),
    ("等级3怪兽×2只以上\n①:抽1张。", "zh-CN", 3, [2, None]),
])
def test_xyz_level_and_count(text, lang, level, count):
    assert _mat(text, "Warrior / Xyz / Effect", level, lang) == {"summon": "xyz", "level": level, "count": count,
                                                                 "alternative": False}


def test_xyz_without_a_level_and_the_alternative():
    assert _mat("3 Xyz Monsters with the same Rank\nDraw 1 card.", "Dragon / Xyz / Effect")["level"] is None
    m = _mat("2 Level 7 monsters\nYou can also Xyz Summon this card by using a Rank 5 Xyz Monster you control as "
             "material.", "Dragon / Xyz / Effect", 7)
    assert m["alternative"] is True and m["count"] == [2, 2]
    z = _mat("等级8怪兽×2\n这张卡也能在自己场上的「No.39 希望皇 霍普」上面重叠来超量召唤。", "Warrior / Xyz / Effect", 8, "zh-CN")
    assert z["alternative"] is True


@pytest.mark.parametrize("text,lang,count", [
    ("2+ Effect Monsters\nDraw 1 card.", "en", [2, None]),
    ("2 monsters, including a \"Salamangreat\" monster\nDraw 1 card.", "en", [2, 2]),
    ("1 Level 4 or lower Cyberse monster\nDraw 1 card.", "en", [1, 1]),
    ("效果怪兽2只以上\n①:抽1张。", "zh-CN", [2, None]),
    ("包括「废铁」怪兽在内的2只怪兽\n①:抽1张。", "zh-CN", [2, 2]),
])
def test_link_count(text, lang, count):
    assert _mat(text, "Cyberse / Link / Effect", 2, lang) == {"summon": "link", "count": count}


def test_fusion_count_and_named_materials_resolved_through_names():
    names = {"elementalheroavian": 21844576, "elementalheroburstinatrix": 58932615}
    r = _res('"Elemental HERO Avian" + "Elemental HERO Burstinatrix"\nA Fusion Summon of this card can only be '
             'done with the above Fusion Materials.', "Warrior / Fusion / Effect", 6, names=names)
    m = r.materials[0]
    assert m["count"] == [2, 2] and m["named_materials"] == [21844576, 58932615]
    # a name the database does not hold is kept as a name, not guessed
    r = _res('"Elemental HERO Avian" + "Nobody"\nDraw 1 card.', "Warrior / Fusion / Effect", 6, names=names)
    assert r.materials[0]["named_materials"] == [21844576] and "Nobody" in r.materials[0]["named_names"]


@pytest.mark.parametrize("text,lang,count,named", [
    ('"Gladiator Beast Augustus" + 2 "Gladiator Beast" monsters\nDraw 1 card.', "en", [3, 3], ["Gladiator Beast Augustus"]),
    ('3 "Ancient Gear" monsters\nDraw 1 card.', "en", [3, 3], []),
    ('"Dark Magician" or "Dark Magician Girl" + 1 Spellcaster monster\nDraw 1 card.', "en", [2, 2], []),
    ('"Chimera the Flying Mythical Beast" + 1+ Illusion monsters\nDraw 1 card.', "en", [2, None],
     ["Chimera the Flying Mythical Beast"]),
    ("“剑斗兽 奥古斯都尔”＋“剑斗兽”怪兽×２\n①:抽1张。", "zh-CN", [3, 3], ["剑斗兽 奥古斯都尔"]),
    ("「地缚」怪兽×2\n①:抽1张。", "zh-CN", [2, 2], []),
    ("「元素英雄 羽翼侠」+「元素英雄 爆热女郎」\n这张卡不用融合召唤不能特殊召唤。", "zh-CN", [2, 2], ["元素英雄 羽翼侠", "元素英雄 爆热女郎"]),
])
def test_fusion_parts(text, lang, count, named):
    r = _res(text, "Fiend / Fusion / Effect", 8, lang)
    assert r.materials[0]["count"] == count and r.materials[0]["named_names"] == named


# -- only the first line of an Extra Deck monster ------------------------------------------------

def test_main_deck_plus_text_is_no_material_line():
    conds, *_ = analyze_text('"Polymerization" + 1 monster\nDraw 1 card.', "en", Frame.from_type_line("Warrior / Effect", 4))
    assert not any(c.kind == "material-line" for c in conds)
    r = _res("2 Level 4 monsters\nDraw 1 card.", "Warrior / Effect", 4)
    assert r.materials == []


def test_the_line_must_open_the_text():
    r = _res("Draw 1 card.\n1 Tuner + 1+ non-Tuner monsters", "Dragon / Synchro / Effect", 8)
    assert r.materials == []


def test_frame_decides_the_summon_kind():
    # the same words are Link Materials on a Link Monster and Fusion Materials on a Fusion Monster
    assert _mat('2 "Rokket" monsters\nDraw 1 card.', "Dragon / Link / Effect", 2) == {"summon": "link", "count": [2, 2]}
    f = _mat('2 "Rokket" monsters\nDraw 1 card.', "Dragon / Fusion / Effect", 6)
    assert f["summon"] == "fusion" and f["count"] == [2, 2] and f["named_materials"] == []


def test_pendulum_effect_is_not_read_for_materials():
    r = analyze(Card(id=1, name="x", lang="en", text="2 Level 4 monsters\nDraw 1 card.",
                     pendulum_effect="1 Tuner + 1+ non-Tuner monsters",
                     frame=Frame.from_type_line("Dragon / Xyz / Pendulum / Effect", 4)))
    assert [m["summon"] for m in r.materials] == ["xyz"]


def test_material_line_round_trips_through_the_union():
    conds, *_ = analyze_text("1 Tuner + 1+ non-Tuner monsters\nDraw 1 card.", "en", Frame.from_type_line("Dragon / Synchro / Effect", 8))
    c = next(c for c in conds if c.kind == "material-line")
    assert isinstance(c, MaterialLineCondition)
    back = ConditionAdapter.validate_python(c.model_dump(mode="json"))
    assert back == c and back.line.tuner == (1, 1)


def test_read_material_line_parts_keep_filters():
    line = read_material_line("fusion", '1 "Metalfoes" monster + 1 monster with 3000 or less ATK', "en")
    assert line.count == (2, 2) and [f.archetypes for _, f in line.parts] == [("Metalfoes",), ()]


# -- Tribute rules with a count and a filter ---------------------------------------------------

@pytest.mark.parametrize("text,lang,mode,count,phrase", [
    ("You can Tribute Summon this card by Tributing 1 Dinosaur monster.", "en", "optional", 1, "Dinosaur monster"),
    ("This card can only be Normal Summoned by Tributing 1 \"Flamvell\" monster you control.", "en", "required", 1,
     "\"Flamvell\" monster you control"),
    ("You can Tribute 5 monsters to Tribute Summon (but not Set) this card.", "en", "optional", 5, "monsters"),
    ("这张卡可以把1只恐龙族怪兽解放表侧攻击表示上级召唤。", "zh-CN", "optional", 1, "恐龙族怪兽"),
    ("此卡可通过解放1只魔法师族怪兽来以攻击表示上级召唤。", "zh-CN", "optional", 1, "魔法师族怪兽"),
    ("這張卡可以把1隻恐龍族怪獸解放表側攻擊表示上級召喚。", "zh-TW", "optional", 1, "恐龙族怪兽"),
    ("这张卡只能把自己场上1只「炎狱」怪兽解放作召唤。", "zh-CN", "required", 1, "「炎狱」怪兽"),
])
def test_tribute_rule(text, lang, mode, count, phrase):
    conds, *_ = analyze_text(text, lang, Frame.from_type_line("Dinosaur / Effect", 7))
    rules = [c for c in conds if isinstance(c, TributeRule)]
    assert len(rules) == 1 and (rules[0].mode, rules[0].count) == (mode, count)
    assert rules[0].filter is not None and rules[0].filter.phrase == phrase


def test_tribute_rule_leaves_the_profile_alone():
    frame = Frame.from_type_line("Dinosaur / Effect", 7)
    with_rule = analyze_text("You can Tribute Summon this card by Tributing 1 Dinosaur monster.", "en", frame)
    without = analyze_text("Draw 1 card.", "en", frame)
    assert with_rule[1] == without[1] and with_rule[2] == without[2]


def test_a_special_summon_by_tributing_is_no_tribute_rule():
    conds, *_ = analyze_text("①:此卡可解放自己场上的1只机械族怪兽从手牌特殊召唤。", "zh-CN", Frame.from_type_line("Machine / Effect", 7))
    assert not any(c.kind == "tribute-rule" for c in conds)


def test_a_rule_stated_twice_is_listed_once():
    r = _res("Requires 3 Tributes to Normal Summon (cannot be Normal Set).", "Divine-Beast / Effect", 10)
    assert [(t["mode"], t["tributes"]) for t in r.tribute_rules] == [("required", 3)]


# -- tag builds the name map from the input file ---------------------------------------------

def test_tag_resolves_named_materials_from_the_input(tmp_path):
    src = tmp_path / "cards.jsonl"
    rows = [
        {"id": 21844576, "name": "Elemental HERO Avian", "lang": "en", "text": "A winged HERO.", "type": "Warrior / Normal", "level": 3},
        {"id": 58932615, "name": "Elemental HERO Burstinatrix", "lang": "en", "text": "A fiery HERO.", "type": "Warrior / Normal", "level": 3},
        {"id": 35809262, "name": "Elemental HERO Flame Wingman", "lang": "en", "type": "Warrior / Fusion / Effect", "level": 6,
         "text": "\"Elemental HERO Avian\" + \"Elemental HERO Burstinatrix\"\nMust be Fusion Summoned."},
    ]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["tag", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = {d["id"]: d for d in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert lines[35809262]["materials"][0]["named_materials"] == [21844576, 58932615]
    assert lines[21844576]["materials"] == []
