"""Effects that Special Summon the card itself (issue 10 §4; conditions.SpecialSummonsItself): from
where, the trigger phrase and the cost, kept apart from the procedures (seed 002: they start a
Chain), in the structured view (structure.self_summons_of), explain's tables and the rendering."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.frame import Frame
from extractor.pipeline import analyze_text
from extractor.render import render
from extractor.structure import self_summons_of, structure_of

MONSTER = Frame.from_type_line("Fiend / Effect", 7)

EN = "If you control no monsters: You can Tribute 1 DARK monster; Special Summon this card from your hand or GY."
ZH = "①：自己场上没有怪兽存在的场合，把1只暗属性怪兽解放才能发动。这张卡从手卡特殊召唤。"


def _selfs(text: str, lang: str):
    return [c for c in analyze_text(text, lang, MONSTER)[0] if c.kind == "special-summons-itself"]


def test_the_structured_view_keeps_from_where_trigger_and_cost_apart_from_procedures():
    conds = analyze_text(EN, "en", MONSTER)[0]
    assert structure_of(conds, MONSTER)["procedures"] == []  # an effect, not a procedure
    (e,) = self_summons_of(conds)
    assert e["range"] == ["grave", "hand"] and e["trigger"] == "If you control no monsters"
    assert e["cost_actions"] == [{"action": "tribute", "count": [1, 1], "from": ["field"]}]
    assert e["cost"][0]["filter"]["attributes"] == ("DARK",)
    (z,) = self_summons_of(analyze_text(ZH, "zh-CN", MONSTER)[0])
    assert z["range"] == ["hand"] and z["trigger"] == "自己场上没有怪兽存在"
    assert [a["action"] for a in z["cost_actions"]] == ["tribute"]
    (n,) = self_summons_of(analyze_text("Draw 1 card, then you can Special Summon this card from your hand.", "en",
                                        MONSTER)[0])
    assert n["trigger"] is None and n["cost_actions"] == [{"action": "none"}] and n["range"] == ["hand"]


@pytest.mark.parametrize("text,lang,want", [
    (EN, "en", EN),
    ("You can discard 1 card; Special Summon this card from your hand.", "en",
     "You can discard 1 card; Special Summon this card from your hand."),
    ("You can pay 1000 LP; Special Summon this card from your GY.", "en",
     "You can pay 1000 LP; Special Summon this card from your GY."),
    ("After 1 Counter Trap Card you control has been activated and has resolved, you can Tribute 1 DARK monster "
     "to Special Summon this card from your hand.", "en",
     "After 1 Counter Trap Card you control has been activated and has resolved: You can Tribute 1 DARK monster; "
     "Special Summon this card from your hand."),
    (ZH, "zh-CN", "自己场上没有怪兽存在的场合，把自己场上1只暗属性怪兽解放才能发动。这张卡从手卡特殊召唤。"),
    ("①:这张卡在手卡存在的场合才能发动。这张卡特殊召唤。", "zh-CN", "这张卡在手卡存在的场合才能发动。这张卡特殊召唤。"),
])
def test_rendering_prints_the_trigger_and_the_cost(text, lang, want):
    (c,) = _selfs(text, lang)
    assert render(c, lang) == want


@pytest.mark.parametrize("text,lang", [
    (EN, "en"), (ZH, "zh-CN"),
    ("When you Normal Summon a Warrior monster: You can Special Summon this card from your hand.", "en"),
    ("You can banish 1 LIGHT monster from your hand or GY; Special Summon this card from your hand.", "en"),
    ("将手牌3张冠有「魔导书」之名的魔法卡给对手观看才能发动。从手牌特殊召唤此卡。", "zh-CN"),
])
def test_the_rendering_reads_back_as_the_same_effect(text, lang):
    (c,) = _selfs(text, lang)
    (back,) = _selfs(render(c, lang), lang)
    assert (back.locations, back.trigger) == (c.locations, c.trigger)
    assert [(a.action, a.count, a.places, a.amount) for a in back.cost] == \
        [(a.action, a.count, a.places, a.amount) for a in c.cost]


def test_a_trigger_kept_in_another_language_is_printed_untranslated_in_brackets():
    (c,) = _selfs(EN, "en")
    assert render(c, "zh").startswith("〔If you control no monsters〕的场合，")
    (z,) = _selfs(ZH, "zh-CN")
    assert render(z, "en").startswith("[自己场上没有怪兽存在]: You can Tribute 1 ")


def test_without_trigger_or_cost_the_rendering_is_the_plain_sentence():
    (c,) = _selfs("Draw 1 card, then you can Special Summon this card from your hand.", "en")
    assert render(c, "en") == "You can Special Summon this card from your hand."
    (z,) = _selfs("抽1张卡。那之后，这张卡从手卡特殊召唤。", "zh-CN")
    assert render(z, "zh") == "这张卡从手卡特殊召唤。"


@pytest.mark.parametrize("text,lang,words", [
    (EN, "en", ["effects that Special Summon this card", "If you control no monsters", "tribute 1 from field: DARK",
                "gy, hand"]),
    (ZH, "zh-CN", ["effects that Special Summon this card", "自己场上没有怪兽存在", "tribute 1 from field: 暗属性怪兽"]),
])
def test_explain_shows_from_where_trigger_and_cost(text, lang, words):
    r = CliRunner().invoke(main, ["explain", text, "--lang", lang, "--type", "Fiend / Effect", "--level", "7"],
                           env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    table = r.output[r.output.index("effects that Special Summon this card"):]
    for w in words:
        assert w in table, (w, table)
    assert "procedures (built-in Special Summons)" not in r.output
