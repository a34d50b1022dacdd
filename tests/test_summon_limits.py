"""The card-wide Summon limit of a card's name as an object of its own (``summon-limit``, issue 10
§1 "limit", issue 11 §1): read alike in English, Chinese and Japanese, only for the card's own name,
compared by ``validate``, rendered back, and leaving the tags, the profile and the structure as
they were."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from extractor.conditions import ConditionAdapter, SummonLimit, own_summon_limits
from extractor.frame import Frame
from extractor.pipeline import Card, analyze, analyze_text
from extractor.render import render
from extractor.validate import validate

MAIN = Frame(kind="main_monster", level=4)
LINK = Frame(kind="link", level=None)

ALONE = {
    "en": 'You can only Special Summon "Sky Striker Ace - Kagari(s)" once per turn. If this card is Special '
          'Summoned: You can add 1 "Sky Striker" Spell from your GY to your hand.',
    "zh-CN": "自己1回合仅可特殊召唤1次“闪刀姬-燎里”。①:这张卡特殊召唤的场合才能发动。从自己墓地选1张「闪刀」魔法卡加入手卡。",
    "ja": "自分は「閃刀姫－カガリ」を１ターンに１度しか特殊召喚できない。①：このカードが特殊召喚に成功した場合に発動できる。"
          "自分の墓地の「閃刀」魔法カード１枚を選んで手札に加える。",
}
NAMES = {"en": "Sky Striker Ace - Kagari", "zh-CN": "闪刀姬-燎里", "ja": "閃刀姫－カガリ"}


def _res(text, lang, name, frame=MAIN):
    return analyze(Card(id=1, name=name, lang=lang, text=text, frame=frame))


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_the_limit_is_one_object_alike_in_three_languages_and_its_sentence_is_read(lang):
    res = _res(ALONE[lang], lang, NAMES[lang])
    lims = [c for c in res.conditions if c.kind == "summon-limit"]
    assert [(c.summon, c.limit) for c in lims] == [("special", "once-per-turn")]
    assert res.coverage == "complete", res.unread
    s, e = lims[0].span
    assert ALONE[lang][s:e] == lims[0].phrase and lims[0].pattern_id.endswith(".summon-limit")


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_a_limit_naming_another_card_is_no_condition_of_this_card(lang):
    res = _res(ALONE[lang], lang, "Some Other Card")
    assert not [c for c in res.conditions if c.kind == "summon-limit"]
    assert res.coverage == "partial"  # the sentence is not read: unread, as before


def test_own_name_is_compared_without_the_plural_mark_spaces_and_quotes():
    c = SummonLimit(span=(0, 1), pattern_id="t", lang="en", name="Servant(s) of Endymion")
    assert own_summon_limits([c], "Servant of Endymion", "en") == [c]
    assert own_summon_limits([c], "Magister of Endymion", "en") == []
    assert own_summon_limits([c], None, "en") == [c]  # name unknown (explain TEXT): kept


@pytest.mark.parametrize("lang,text,summon", [
    ("en", '2 Effect Monsters\nYou can only Link Summon "X(s)" once per turn.', "link"),
    ("zh-CN", "效果怪兽2只\n自己1回合仅可连接召唤“X”1次。", "link"),
    ("ja", "効果モンスター２体\n自分は「X」を１ターンに１度しかリンク召喚できない。", "link"),
    ("ja", "効果モンスター２体\n自分は「X」を１ターンに１度しかＬ召喚できない。", "link"),
])
def test_which_summon_is_limited(lang, text, summon):
    res = _res(text, lang, "X", LINK)
    assert [c.summon for c in res.conditions if c.kind == "summon-limit"] == [summon]


@pytest.mark.parametrize("lang,text", [
    ("en", 'You can only Special Summon "X" once per Duel.'),
    ("zh-CN", "「X」在决斗中只能特殊召唤1次。"),
    ("ja", "自分は「X」をデュエル中に１度しか特殊召喚できない。"),
])
def test_once_per_duel(lang, text):
    res = _res(text, lang, "X")
    assert [c.limit for c in res.conditions if c.kind == "summon-limit"] == ["once-per-duel"]


@pytest.mark.parametrize("lang,text", [
    ("en", 'You can only use this effect of "X" once per turn.'),
    ("en", "You can only Special Summon monsters from the Extra Deck once per turn."),
    ("en", 'Must be Special Summoned (from your hand) by banishing 1 LIGHT monster from your GY. You can only '
           'Special Summon "X" once per turn this way.'),
    ("zh-CN", "这个卡名的①的方法的特殊召唤1回合只能有1次。"),
    ("zh-CN", "「X」的效果1回合只能使用1次。"),
    ("ja", "このカード名の①の方法による特殊召喚は１ターンに１度しかできない。"),
    ("ja", "自分は「X」モンスターしか特殊召喚できない。"),
])
def test_procedure_limits_effect_limits_and_player_locks_are_no_summon_limit(lang, text):
    assert not [c for c in _res(text, lang, "X").conditions if c.kind == "summon-limit"]


def test_fields_are_checked():
    assert SummonLimit(span=(0, 1), pattern_id="t", lang="ja", per_duel=True).limit == "once-per-duel"
    assert SummonLimit(span=(0, 1), pattern_id="t", lang="ja", per_duel=False).limit == "once-per-turn"
    with pytest.raises(ValidationError):
        SummonLimit(span=(0, 1), pattern_id="t", lang="en", summon="normal")
    c = SummonLimit(span=(0, 1), pattern_id="t", lang="en", summon="link", name="X")
    assert ConditionAdapter.validate_python(c.model_dump()) == c


@pytest.mark.parametrize("lang,want", [
    ("en", 'You can only Link Summon "X" once per turn.'),
    ("zh", "「X」1回合只能连接召唤1次。"),
    ("ja", "自分は「Ｘ」を１ターンに１度しかＬ召喚できない。"),
])
def test_render_and_read_back(lang, want):
    c = SummonLimit(span=(0, 1), pattern_id="t", lang="en", summon="link", name="X")
    assert render(c, lang) == want
    back = [x for x in analyze_text(want, {"zh": "zh-CN"}.get(lang, lang), LINK)[0] if x.kind == "summon-limit"]
    assert [(x.summon, x.limit, x.name) for x in back] == [("link", "once-per-turn", "X")]


def test_tags_profile_and_structure_do_not_read_it():
    proc = ('Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT monster '
            'from your GY.')
    lim = ' You can only Special Summon "X" once per turn.'
    a, b = _res(proc, "en", "X"), _res(proc + lim, "en", "X")
    assert [c.kind for c in b.conditions] == ["cannot-normal-summon", "builtin-special-summon", "summon-limit"]
    assert a.tags == b.tags and a.tributes == b.tributes
    assert a.profile.model_dump() == b.profile.model_dump()
    # the procedure keeps the card-wide limit as its own limit (STRUCTURE.md once_per_turn), as before
    assert [p["once_per_turn"] for p in b.procedures] == [True]
    assert [p["once_per_turn"] for p in a.procedures] == [False]


def _mismatches(src, src_lang, tgt, tgt_lang):
    rep = validate([Card(id=1, name="X", lang=src_lang, text=src, frame=MAIN)],
                   [Card(id=1, name="X", lang=tgt_lang, text=tgt, frame=MAIN)], source_lang=src_lang,
                   target_lang=tgt_lang, min_severity="low")
    return [(m.kind, m.condition, m.slot) for c in rep.cards for m in c.mismatches]


def test_validate_pairs_the_limit_across_languages():
    en = 'You can only Special Summon "X" once per turn.'
    assert _mismatches(en, "en", "自分は「X」を１ターンに１度しか特殊召喚できない。", "ja") == []
    assert _mismatches(en, "en", "「X」1回合只能特殊召唤1次。", "zh-CN") == []
    assert _mismatches(en, "en", "自分は「X」をデュエル中に１度しか特殊召喚できない。", "ja") == [
        ("slot-differs", "summon-limit", "limit")]
    assert _mismatches(en, "en", "自分は「X」を１ターンに１度しかリンク召喚できない。", "ja") == [
        ("slot-differs", "summon-limit", "summon")]
    assert _mismatches(en + " This card cannot attack.", "en", "这张卡不能攻击。", "zh-CN") == [
        ("missing-in-target", "summon-limit", None)]


def test_a_limit_left_unread_on_the_other_side_is_uncertain_not_a_difference():
    # the Chinese sentence names the card otherwise than its name field: not read there (unread is not
    # absent), so the English limit alone is low, and left out at the default severity
    en = [Card(id=1, name="X", lang="en", text='You can only Special Summon "X" once per turn.', frame=MAIN)]
    zh = [Card(id=1, name="甲", lang="zh-CN", text="「乙」1回合只能特殊召唤1次。", frame=MAIN)]
    low = validate(en, zh, source_lang="en", target_lang="zh-CN", min_severity="low")
    assert [(m.kind, m.condition, m.severity) for c in low.cards for m in c.mismatches] == [
        ("missing-in-target", "summon-limit", "low")]
    assert not [m for c in validate(en, zh, source_lang="en", target_lang="zh-CN").cards for m in c.mismatches]


def test_an_older_spelling_of_the_own_name_is_the_card_itself():
    # an older Chinese translation writes 伊休妲姆 for today's 伊修妲姆 (Darklord Ixchel): alike names
    text = "自己1回合仅可特殊召唤1次“堕天使 伊休妲姆”，其①②效果1回合仅可各使用1次。"
    res = _res(text, "zh-CN", "堕天使 伊修妲姆")
    assert [(c.summon, c.limit) for c in res.conditions if c.kind == "summon-limit"] == [("special", "once-per-turn")]
    # the same sentence on a card of an unlike name limits another card: no condition of this one
    assert not [c for c in _res(text, "zh-CN", "青眼白龙").conditions if c.kind == "summon-limit"]
