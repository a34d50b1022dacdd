"""Card names come out of the readers as printed: yaml-yugi's ruby markup on Japanese names is
removed (new-user finding: `query 'name:巨神兵'` found nothing), and `validate` labels the two
values of a slot difference with their sides."""
from __future__ import annotations

import json

from extractor.normalize.ja import plain_name
from extractor.readers import read_cards


def test_plain_name_removes_ruby_markup_only():
    assert plain_name("オベリスクの<ruby>巨<rt>きょ</rt></ruby><ruby>神<rt>しん</rt></ruby>兵") == "オベリスクの巨神兵"
    assert plain_name("<ruby>青眼<rp>(</rp><rt>ブルーアイズ</rt><rp>)</rp></ruby>の白龍") == "青眼の白龍"
    assert plain_name("E・HERO (Elemental)") == "E・HERO (Elemental)"


def test_yaml_yugi_japanese_names_are_read_without_markup(tmp_path):
    line = {"password": 10000000, "card_type": "Monster", "monster_type_line": "Divine-Beast / Effect",
            "name": {"en": "Obelisk the Tormentor", "ja": "オベリスクの<ruby>巨<rt>きょ</rt></ruby>神兵"},
            "text": {"en": "Requires 3 Tributes to Normal Summon (cannot be Normal Set).",
                     "ja": "このカードを通常召喚する場合、３体をリリースして召喚しなければならない。"}}
    src = tmp_path / "cards.jsonl"
    src.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    items = [i for i in read_cards(src, "ja")]
    names = [getattr(i, "name", None) or getattr(getattr(i, "card", None), "name", None) for i in items]
    assert names == ["オベリスクの巨神兵"]


def test_a_slot_difference_labels_its_two_values_with_their_sides():
    from extractor.conditions import CONDITION_CLASSES
    from extractor.frame import Frame
    from extractor.validate import compare_conditions

    def c(count):
        return CONDITION_CLASSES["builtin-special-summon"](
            span=(0, 4), phrase="", pattern_id="t", lang="xx", locations=("hand",),
            cost=({"action": "banish", "count": count, "places": ("gy",)},))

    (m,), _ = compare_conditions([c((1, 1))], [c((2, 2))], Frame(kind="main_monster", level=8))[:2]
    assert m.slot == "cost.count"
    assert "source" in m.detail and "target" in m.detail
    assert m.detail.index("source") < m.detail.index("(1, 1)") < m.detail.index("target") < m.detail.index("(2, 2)")
