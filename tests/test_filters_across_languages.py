"""The same filter values in every language (issue 10, "Every language gives the same objects"):
a cost filter's monster Types and card kinds are the English terms whether the text is English,
Simplified or Traditional Chinese (the vocab tables of patterns/terms/zh.yaml, read by
extractor/patterns/captures.py), so ``validate`` compares them as values (cost.filter and
Tribute-rule filters: extractor/validate/views.py ``_typed_filter``, validate/rules.py ``_filters_agree``)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from extractor.frame import Frame
from extractor.patterns.captures import _Vocab
from extractor.pipeline import analyze_text
from extractor.validate.compare import compare_conditions
from extractor.validate.rules import _filters_agree

ROOT = Path(__file__).resolve().parents[1]
EFFECT = Frame.from_type_line("Fiend / Effect", 8)


def _cost_filter(text: str, lang: str):
    conds, _profile, _tags, _mt, _seg = analyze_text(text, lang, EFFECT)
    proc = next(c for c in conds if c.kind == "builtin-special-summon")
    (cost,) = proc.cost
    assert cost.filter is not None, (lang, text)
    return cost.filter


@pytest.mark.parametrize("text,lang,types", [
    ("You can Special Summon this card (from your hand) by banishing 2 Dragon monsters from your GY.", "en",
     ("Dragon",)),
    ("这张卡可以把自己墓地2只龙族怪兽除外，从手卡特殊召唤。", "zh-CN", ("Dragon",)),
    ("這張卡可以把自己墓地2隻龍族怪獸除外，從手卡特殊召喚。", "zh-TW", ("Dragon",)),
    ("这张卡可以把自己墓地2只恐龙族怪兽除外，从手卡特殊召唤。", "zh-CN", ("Dinosaur",)),
    ("這張卡可以把自己墓地2隻恐龍族怪獸除外，從手卡特殊召喚。", "zh-TW", ("Dinosaur",)),
    ("这张卡可以把自己墓地1只魔法师族怪兽除外，从手卡特殊召唤。", "zh-CN", ("Spellcaster",)),
    ("这张卡可以把自己墓地1只兽战士族怪兽除外，从手卡特殊召唤。", "zh-CN", ("Beast-Warrior",)),
    ("这张卡可以把自己墓地1只鸟兽族怪兽除外，从手卡特殊召唤。", "zh-CN", ("Winged Beast",)),
])
def test_a_cost_filter_gives_the_english_monster_type_in_every_language(text, lang, types):
    assert _cost_filter(text, lang).types == types


@pytest.mark.parametrize("text,lang", [
    ("这张卡可以把自己墓地1只调整除外，从手卡特殊召唤。", "zh-CN"),
    ("這張卡可以把自己墓地1隻調整除外，從手卡特殊召喚。", "zh-TW"),
])
def test_a_cost_filter_gives_the_english_card_kind(text, lang):
    assert "Tuner" in _cost_filter(text, lang).card_kinds


def test_the_zh_tables_cover_traditional_simplified_and_older_type_names():
    voc = _Vocab(yaml.safe_load((ROOT / "patterns" / "terms" / "zh.yaml").read_text(encoding="utf-8")))
    for word, want in [("龙", "Dragon"), ("龍", "Dragon"), ("恐龙", "Dinosaur"), ("恐龍", "Dinosaur"),
                       ("魔法使", "Spellcaster"), ("电子界", "Cyberse"), ("不死", "Zombie")]:
        assert voc.type_words[word] == want
    for word, want in [("陷阱卡", "Trap"), ("融合怪兽", "Fusion Monster"), ("衍生物", "Token")]:
        assert voc.kind_words[word] == want
    # every value is a Type / kind English writes (no Chinese left as a value)
    assert all(v.isascii() for v in voc.type_words.values())
    assert all(v.isascii() for v in voc.kind_words.values())


EN_DRAGON = "You can Special Summon this card (from your hand) by banishing 2 Dragon monsters from your GY."
EN_MACHINE = "You can Special Summon this card (from your hand) by banishing 2 Machine monsters from your GY."
ZH_DRAGON = "这张卡可以把自己墓地2只龙族怪兽除外，从手卡特殊召唤。"
TW_DRAGON = "這張卡可以把自己墓地2隻龍族怪獸除外，從手卡特殊召喚。"


def _conds(text: str, lang: str):
    return analyze_text(text, lang, EFFECT)[0]


@pytest.mark.parametrize("zh,lang", [(ZH_DRAGON, "zh-CN"), (TW_DRAGON, "zh-TW")])
def test_validate_finds_a_chinese_and_an_english_type_filter_the_same(zh, lang):
    mismatches, _, _ = compare_conditions(_conds(EN_DRAGON, "en"), _conds(zh, lang), EFFECT)
    assert mismatches == [], [(m.slot, m.detail) for m in mismatches]


def test_validate_compares_the_type_of_a_cost_filter():
    # the same card with another Type is a cost.filter difference: the Types are compared as values
    mismatches, _, _ = compare_conditions(_conds(EN_MACHINE, "en"), _conds(ZH_DRAGON, "zh-CN"), EFFECT)
    assert [m.slot for m in mismatches] == ["cost.filter"]


def test_a_type_filter_read_in_part_agrees():
    # one side's Types among the other's (a list read in part) and an unstated part agree
    assert _filters_agree(((), None, ("Dragon",), ()), ((), None, ("Dragon", "Machine"), ()))
    assert _filters_agree(((), None, (), ("Tuner",)), ((), None, ("Dragon",), ()))
    assert not _filters_agree(((), None, ("Dragon",), ()), ((), None, ("Machine",), ()))
    assert not _filters_agree(((), None, (), ("Spell",)), ((), None, (), ("Trap",)))
