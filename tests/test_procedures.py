"""Procedures with their costs, requirements and limits (issue 10 §1, §4): the slots of
``builtin-special-summon`` read by the capture converters of ``extractor.patterns`` (the words are
fragments of ``patterns/fragments/<lang>.yaml``) and their STRUCTURE.md view."""
from types import SimpleNamespace

import pytest

from extractor.conditions import BuiltinSpecialSummon, SpecialSummonsItself
from extractor.frame import Frame
from extractor.patterns import PatternError, load_catalog
from extractor.pipeline import analyze_text
from extractor.slots import CostAction
from extractor.structure import _cost, _material_count, structure_of

MONSTER = Frame(kind="main_monster")
FUSION = Frame(kind="fusion")


def _procs(text: str, lang: str = "en", frame: Frame = MONSTER) -> list[BuiltinSpecialSummon]:
    conds = analyze_text(text, lang, frame)[0]
    return [c for c in conds if isinstance(c, BuiltinSpecialSummon)]


def _one(text: str, lang: str = "en") -> BuiltinSpecialSummon:
    ps = _procs(text, lang)
    assert len(ps) == 1, (text, ps)
    return ps[0]


# --- English ------------------------------------------------------------------------------------

def test_cost_count_places_filter_and_limit_of_a_must_be_procedure():
    p = _one('Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT and 1 DARK '
             'monster from your GY. You can only Special Summon "Chaos Sorcerer" once per turn this way.')
    assert p.locations == ("hand",)
    assert [a.action for a in p.cost] == ["banish"]
    a = p.cost[0]
    assert a.count == (2, 2) and a.places == ("gy",)
    assert a.filter is not None and a.filter.attributes == ("LIGHT", "DARK")
    assert p.limit == "once-per-turn" and p.requirement is None
    # the phrase is the whole procedure sentence with its limit, not just "(from your hand)"
    assert p.phrase.endswith("once per turn this way.")


def test_opponent_field_and_their_monsters():
    p = _one("Cannot be Normal Summoned/Set. Must first be Special Summoned (from your hand) to your opponent's "
             "field by Tributing 2 monsters they control.")
    assert p.to_opponent_field and p.first
    assert p.cost == (CostAction(action="tribute", count=(2, 2), places=("opp-field",),
                                 filter=p.cost[0].filter),)


def test_requirement_typed_and_no_cost():
    p = _one("If you control no monsters, you can Special Summon this card (from your hand).")
    assert p.cost == ()
    assert p.requirement is not None and p.requirement.kind == "control-no-monsters"
    assert p.requirement.phrase == "If you control no monsters"


def test_requirement_kept_as_phrase_when_not_a_common_one():
    p = _one("Cannot be Normal Summoned/Set. Must first be Special Summoned (from your hand) by banishing 1 Thunder "
             "monster from your hand, during the turn a Thunder monster's effect was activated in the hand.")
    assert p.requirement is not None and p.requirement.kind == "other"
    assert "during the turn" in p.requirement.phrase
    assert p.cost[0].action == "banish" and p.cost[0].places == ("hand",)


def test_if_you_do_is_not_a_requirement():
    p = _one("You can Special Summon this card (from your hand) by Tributing 1 Warrior monster, and if you do, it "
             "gains ATK equal to the Tributed monster's original ATK.")
    assert p.requirement is None
    assert p.cost[0].action == "tribute" and p.cost[0].places == ("field",)  # a Tribute is from the field
    assert p.cost[0].filter.types == ("Warrior",)


def test_two_cost_actions_in_order():
    p = _one('Must be either Fusion Summoned, or Special Summoned (from your Extra Deck) by discarding 1 Spell/Trap and '
             'Tributing 1 Level 7 or higher "Artmage" monster from your hand or field.')
    assert [a.action for a in p.cost] == ["discard", "tribute"]
    assert p.cost[0].places == ("hand",)
    assert p.cost[1].places == ("hand", "field")
    assert p.cost[1].filter.levels == (7, None) and p.cost[1].filter.archetypes == ("Artmage",)


def test_position_zone_and_card_wide_limit_later_in_the_text():
    p = _one('You can Special Summon this card (from your hand) in Defense Position to your zone a Link Monster '
             'points to. If Summoned this way, draw 1 card. You can only Special Summon "X" once per turn this way.')
    assert p.position == "defense" and p.zone_restricted and not p.to_opponent_field
    assert p.limit == "once-per-turn"


def test_limit_of_an_effect_later_in_the_text_is_not_taken_through_a_colon():
    p = _one('You can Special Summon this card (from your hand). During your Main Phase: You can draw 1 card. '
             'You can only Special Summon "X" once per turn this way.')
    assert p.limit is None


def test_once_per_duel():
    p = _one('Must be Special Summoned (from your hand) by paying 2000 LP. You can only Special Summon "X" once per '
             'Duel this way.')
    assert p.limit == "once-per-duel"
    assert p.cost[0].action == "pay-lp" and p.cost[0].amount == 2000


def test_quoted_names_each_count_one_and_a_period_inside_a_name_does_not_end_the_cost():
    p = _one('Must first be Special Summoned (from your hand) by sending 1 "D.D. Esper", "Puma", and "Gairuda" from '
             'your hand and/or face-up from your side of the field to the GY.')
    a = p.cost[0]
    assert a.action == "send-to-gy" and a.count == (3, 3) and a.places == ("hand", "field")
    assert a.filter.names == ("D.D. Esper", "Puma", "Gairuda")


def test_up_to_and_or_more_counts():
    p = _one("You can Special Summon this card (from your hand) by returning 1 or 2 monsters you control to the hand.")
    assert p.cost[0].action == "return-to-hand" and p.cost[0].count == (1, 2)
    p = _one("Must be Special Summoned (from your hand) by shuffling 3 of your banished Insect monsters into the Deck.")
    assert p.cost[0].action == "return-to-deck" and p.cost[0].places == ("banished",)


def test_structure_view_of_a_procedure():
    conds = analyze_text("Cannot be Normal Summoned/Set. Must first be Special Summoned (from your hand) to your "
                         "opponent's field by Tributing 2 monsters they control.", "en", MONSTER)[0]
    (proc,) = structure_of(conds, MONSTER)["procedures"]
    assert proc["to_opponent_field"] is True and proc["requires_condition"] is False
    assert proc["cost_actions"] == [{"action": "tribute", "count": [2, 2], "from": ["opp_field"]}]


def test_the_above_cards_take_the_material_count():
    conds = analyze_text("Must first be Special Summoned (from your Extra Deck) by shuffling the above cards you "
                         "control into the Deck.", "en", FUSION)[0]
    procs = [c for c in conds if c.kind == "builtin-special-summon"]
    assert procs[0].cost[0].filter.materials and procs[0].cost[0].count is None
    line = SimpleNamespace(kind="material-line", line=SimpleNamespace(count=(2, 2)))
    assert _material_count([*procs, line]) == (2, 2)
    assert _cost(procs[0].cost, (2, 2)) == [{"action": "return_to_deck", "count": [2, 2], "from": ["field"]}]
    (alone,) = structure_of(procs, FUSION)["procedures"]
    assert alone["cost_actions"][0]["count"] is None  # no material line: not read


def test_unknown_fragment_in_a_capture_is_a_pattern_error(tmp_path):
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "x.yaml").write_text(
        "language: en\npatterns:\n  - id: en.x\n    regex: 'Special Summon'\n"
        "    yields: {kind: builtin-special-summon}\n"
        "    captures:\n      limit: {group: _, as: 'choice:no_such_fragment'}\n"
        "    examples: {match: ['Special Summon']}\n", encoding="utf-8")
    with pytest.raises(PatternError, match="no_such_fragment"):
        load_catalog(str(tmp_path))


# --- effects that Special Summon the card itself (issue 10 §4): kept apart from procedures -----

def _self_summons(text: str, lang: str = "en") -> list[SpecialSummonsItself]:
    return [c for c in analyze_text(text, lang, MONSTER)[0] if isinstance(c, SpecialSummonsItself)]


def test_self_summoning_effect_has_trigger_cost_and_place_and_is_no_procedure():
    text = "If this card is in your hand: You can banish 1 LIGHT monster from your GY; Special Summon this card."
    (e,) = _self_summons(text)
    assert e.trigger == "If this card is in your hand"
    assert [(a.action, a.count, a.places) for a in e.cost] == [("banish", (1, 1), ("gy",))]
    assert _procs(text) == []


def test_older_self_summoning_effect_with_a_comma_and_a_tribute():
    (e,) = _self_summons("After 1 Counter Trap Card you control has been activated and has resolved, you can Tribute 1 "
                         "DARK monster to Special Summon this card from your hand.")
    assert e.trigger.startswith("After 1 Counter Trap Card") and e.locations == ("hand",)
    assert e.cost[0].action == "tribute" and e.cost[0].filter.attributes == ("DARK",)


def test_self_summoning_effect_without_trigger_or_cost():
    (e,) = _self_summons("During your Main Phase: You can Special Summon this card from your hand.")
    assert e.trigger == "During your Main Phase" and e.cost == ()


def test_chinese_self_summoning_effect():
    (e,) = _self_summons("①:自己场上有怪兽存在的场合,把自己墓地1只怪兽除外才能发动。这张卡从手卡特殊召唤。", "zh-CN")
    assert e.trigger == "自己场上有怪兽存在"
    assert [(a.action, a.count, a.places) for a in e.cost] == [("banish", (1, 1), ("gy",))]
    (e,) = _self_summons("①:从手卡丢弃1张卡才能发动。这张卡从手卡特殊召唤。", "zh-CN")
    assert e.trigger is None and e.cost[0].action == "discard"


# --- Chinese procedures: the same objects as English ----------------------------------------------

@pytest.mark.parametrize("lang", ["zh-CN", "zh-TW"])
def test_chinese_procedure_same_slots_as_english(lang):
    zh = ("此卡不可通常召唤。仅可在将自己墓地的光属性和暗属性怪兽各１只除外的情况下，从手牌・额外牌组特殊召唤。"
          "自己１回合仅可以此方法特殊召唤１次“终焉龙 混沌帝”。")
    if lang == "zh-TW":
        zh = ("此卡不可通常召喚。僅可在將自己墓地的光屬性和暗屬性怪獸各１只除外的情況下，從手牌・額外牌組特殊召喚。"
              "自己１回合僅可以此方法特殊召喚１次“終焉龍 混沌帝”。")
    en = ('Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand or Extra Deck) by banishing 1 LIGHT '
          'and 1 DARK monster from your GY. You can only Special Summon "Chaos Emperor" once per turn this way.')
    z, e = _one(zh, lang), _one(en)
    for p in (z, e):
        assert [(a.action, a.count, a.places) for a in p.cost] == [("banish", (2, 2), ("gy",))]
        assert p.cost[0].filter.attributes == ("LIGHT", "DARK")
        assert p.limit == "once-per-turn" and p.requirement is None
    assert set(z.locations) == set(e.locations) == {"hand", "extra"}


def test_chinese_requirement_opponent_field_and_position():
    p = _one("①:此卡可以解放对手场上１只怪兽，以攻击表示从手牌特殊召唤至对手场上。", "zh-CN")
    assert p.to_opponent_field and p.position == "attack"
    assert [(a.action, a.count, a.places) for a in p.cost] == [("tribute", (1, 1), ("opp-field",))]
    p = _one("自己场上没有怪兽存在的场合，这张卡可以从手卡特殊召唤。", "zh-CN")
    assert p.cost == () and p.requirement is not None and p.requirement.kind == "control-no-monsters"
