"""Round 6 (development): the two causes of the round-4 fresh judge (docs/validate-judged/
slots-fresh4-judged.md), read right by PHRASING (patterns/ja, patterns/fragments/ja.yaml), each
with a case that fails when the phrasing is read the old way.  The texts are written for the test
(test names, not the cards'); the cards the wording comes from are named in docs/validate.md
("round 6, development")."""
from __future__ import annotations

import pytest

from extractor.frame import Frame
from extractor.pipeline import Card, analyze_text
from extractor.validate import validate

UNKNOWN = Frame()  # the 2012 texts carry no card type
SYNCHRO = Frame(kind="synchro", level=8)
MAIN = Frame(kind="main_monster", level=4)


def _kinds(text, lang, frame=UNKNOWN):
    return [c.kind for c in analyze_text(text, lang, frame)[0]]


def _mismatches(a, la, b, lb, frame=UNKNOWN, sev="medium"):
    rep = validate([Card(id=1, name="x", lang=la, text=a, frame=frame)],
                   [Card(id=1, name="x", lang=lb, text=b, frame=frame)], min_severity=sev)
    return sorted((m.kind, m.condition, m.slot) for c in rep.cards for m in c.mismatches)


# an effect's cost or target that names a Tuner, and the same sentence in Chinese (调整 / 協調)
TUNER_COSTS = [
    ("自分フィールド上に存在するチューナー１体をリリースして発動する。\nリリースしたモンスターと同じレベルのモンスター１体を自分の墓地から特殊召喚する。",
     "把自己场上存在的1只调整怪兽解放发动。从自己墓地把和解放的怪兽相同等级的1只怪兽特殊召唤。", "zh-CN"),
    ("フィールド上に表側表示で存在するチューナー１体を選択して発動する。\n選択したモンスターのカード名は「テスト」として扱う。",
     "選擇場上表側表示存在的1體協調發動。選擇的怪獸的卡名當作「測試」使用。", "zh-TW"),
    ("手札から攻撃力１０００以下のドラゴン族チューナー１体を捨てて発動する。\n自分のデッキからカードを２枚ドローする。",
     "丢弃1只攻击力1000以下的龙族调整发动。从自己卡组抽2张卡。", "zh-CN"),
    ("自分フィールド上に表側表示で存在する「テスト」と名のついたチューナー２体をゲームから除外して発動する。\n自分のデッキからカードを２枚ドローする。",
     "2隻冠有「測試」之名的協調從遊戲中除外來發動。從自己卡組抽2張卡。", "zh-TW"),
]


@pytest.mark.parametrize("ja, zh, lang", TUNER_COSTS, ids=["tribute-cost", "target", "discard-cost", "banish-cost"])
def test_a_tuner_in_an_effect_cost_is_no_material_line(ja, zh, lang):
    assert "material-line" not in _kinds(ja, "ja")
    assert "material-line" not in _kinds(zh, lang)  # as the Chinese of the same sentence
    assert _mismatches(ja, "ja", zh, lang) == []


def test_synchro_material_lines_are_still_read():
    for line, last in [("チューナー＋チューナー以外のモンスター１体以上", (1, None)),
                       ("「テスト」チューナー＋チューナー以外の「テスト」モンスター１体以上", (1, None)),
                       ("チューナー２体以上", (2, None))]:
        text = line + "\n①：このカードがＳ召喚に成功した場合に発動できる。"
        for frame in (SYNCHRO, UNKNOWN):  # also with no card type, as the 2012 texts
            [cond] = [c for c in analyze_text(text, "ja", frame)[0] if c.kind == "material-line"]
            assert cond.line.summon == "synchro" and cond.line.parts[-1][0] == last


SELF_REVIVAL_JA = ("自分フィールド上に存在する「テスト」と名のついたモンスターが戦闘によって破壊され墓地へ送られた時、"
                   "５００ライフポイントを払う事で、このカードを墓地から特殊召喚する。")


def test_older_self_revival_with_a_cost_is_an_effect_that_summons_the_card():
    [cond] = analyze_text(SELF_REVIVAL_JA, "ja", MAIN)[0]
    assert cond.kind == "special-summons-itself" and set(cond.locations) == {"gy"}
    # the same with the zh-CN sentence: read as an effect on both sides
    zh = "自己场上存在的名字带有「测试」的怪兽被战斗破坏送去墓地时，可以支付500基本分，这张卡从墓地特殊召唤。"
    assert [c.kind for c in analyze_text(zh, "zh-CN", MAIN)[0]] == ["special-summons-itself"]
    assert _mismatches(SELF_REVIVAL_JA, "ja", zh, "zh-CN", MAIN, "low") == []
    # never a procedure: at the default severity nothing against the zh-TW reading either
    tw = "我方場上冠有「測試」之名的怪獸被戰鬥破壞送入墓地時，支付500點生命值，此卡可以從墓地特殊召喚。"
    assert _mismatches(SELF_REVIVAL_JA, "ja", tw, "zh-TW", UNKNOWN) == []
    # another card Summoned, or a state (存在する場合): not this reading
    other = SELF_REVIVAL_JA.replace("このカードを墓地から", "自分の墓地から「Ａ」１体を")
    assert "special-summons-itself" not in _kinds(other, "ja", MAIN)
    state = "このカードが墓地に存在する場合、手札を１枚捨てる事で、このカードを墓地から特殊召喚できる。"
    assert "special-summons-itself" not in _kinds(state, "ja", MAIN)


def test_a_chinese_banish_cost_or_search_naming_a_tuner_is_no_material_line():
    # the Chinese side, once the Japanese is read right, must not keep its own misreading:
    # 2012 zh-TW with a misprinted 發動 (除外發來動) and a search that adds a Tuner to the hand
    for text, lang in [("將我方墓地存在1體協調從遊戲中除外發來動。此卡從手牌特殊召喚。", "zh-TW"),
                       ("从自己卡组把1只名字带有「测试」的调整加入手卡。", "zh-CN"),
                       ("從我方牌組將1體冠有「測試」之名的協調加入手牌並洗牌。", "zh-TW")]:
        assert "material-line" not in _kinds(text, lang)
    ja = "自分のデッキから「テスト」と名のついたチューナー１体を手札に加える。"
    assert _mismatches(ja, "ja", "从自己卡组把1只名字带有「测试」的调整加入手卡。", "zh-CN", UNKNOWN, "low") == []
    # a Synchro line still is one
    [cond] = [c for c in analyze_text("协调+协调以外的怪兽1只以上\n这张卡不会被战斗破坏。", "zh-CN")[0]
              if c.kind == "material-line"]
    assert cond.line.summon == "synchro"
