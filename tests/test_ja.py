"""Japanese: the normalizer (extractor/normalize/ja.py + patterns/terms/ja.yaml), spans into the
ORIGINAL text (ruby markup and inline furigana included in the offsets), and the same condition
objects as English for the same card (issue 11 §2)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.frame import Frame
from extractor.normalize import normalize
from extractor.pipeline import analyze_text
from extractor.validate.compare import compare_conditions

EFFECT = Frame.from_type_line("Fiend / Effect", 8)


def _read(text: str, lang: str, frame: Frame = EFFECT):
    conds, _profile, tags, _mt, _seg = analyze_text(text, lang, frame)
    return conds, tags


@pytest.mark.parametrize("text,want", [
    ("ＥＸデッキから１０００", "EXデッキから1000"),
    ("エクストラデッキから", "EXデッキから"),
    ("フィールド上に存在する", "フィールドに存在する"),
    ("ゲームから除外する事ができる", "除外できる"),
    ("生け贄に捧げた", "リリースした"),
    ("Ｓ召喚でしか", "シンクロ召喚でしか"),
    ("\ufeffこのカード\r\n", "このカード\n"),
])
def test_normalizer_rewrites_widths_and_older_wordings(text, want):
    assert normalize(text, "ja").text == want


def test_full_width_and_term_rewrites_map_back_to_the_original():
    orig = "このカードはＳ召喚でしか特殊召喚できない。"
    mt = normalize(orig, "ja")
    i = mt.text.index("シンクロ召喚")
    s, e = mt.to_original(i, i + len("シンクロ召喚"))
    assert orig[s:e] == "Ｓ召喚"


RUBY = ("このカードは<ruby>通常<rt>つうじょう</rt></ruby><ruby>召喚<rt>しょうかん</rt></ruby>できない。"
        "<ruby>自分<rt>じぶん</rt></ruby>の<ruby>墓地<rt>ぼち</rt></ruby>の<ruby>闇<rt>やみ</rt></ruby>属性モンスターが"
        "３体の場合のみ特殊召喚できる。")
FURIGANA = "このカードは通 ( つう ) 常 ( じょう ) 召 ( しょう ) 喚 ( かん ) できない。"


def test_spans_index_the_original_text_with_ruby_markup():
    conds, tags = _read(RUBY, "ja")
    by_kind = {c.kind: c for c in conds}
    cns = by_kind["cannot-normal-summon"]
    assert cns.phrase == RUBY[cns.span[0]:cns.span[1]]
    assert cns.phrase == "このカードは<ruby>通常<rt>つうじょう</rt></ruby><ruby>召喚<rt>しょうかん</rt></ruby>できない"
    proc = by_kind["builtin-special-summon"]
    assert proc.exclusive and RUBY[proc.span[0]:proc.span[1]].startswith("<ruby>自分")
    assert RUBY[proc.span[0]:proc.span[1]].endswith("場合のみ特殊召喚できる")
    assert "nomi" in tags


def test_spans_index_the_original_text_with_inline_furigana():
    conds, _tags = _read(FURIGANA, "ja")
    assert [c.kind for c in conds] == ["cannot-normal-summon"]
    c = conds[0]
    assert FURIGANA[c.span[0]:c.span[1]] == c.phrase == "このカードは通 ( つう ) 常 ( じょう ) 召 ( しょう ) 喚 ( かん ) できない"


# the same card in English and Japanese (yaml-yugi texts): the same condition objects
PAIRS = [
    ("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by having exactly 3 DARK monsters in your GY.",
     "このカードは通常召喚できない。自分の墓地の闇属性モンスターが３体の場合のみ特殊召喚できる。", EFFECT),
    ("Cannot be Normal Summoned/Set. Must first be Special Summoned (from your hand) by banishing 1 LIGHT and 1 DARK monster from your GY.",
     "このカードは通常召喚できない。自分の墓地から光属性と闇属性のモンスターを１体ずつ除外した場合に特殊召喚できる。", EFFECT),
    ("Cannot be Normal Summoned/Set. Must be Special Summoned with \"Polymerization\".",
     "このカードは通常召喚できず、「融合」の効果でのみ特殊召喚できる。", EFFECT),
    ("Cannot be Special Summoned from the GY.", "このカードは墓地からの特殊召喚はできない。", EFFECT),
    ("You can Normal Summon this card without Tributing.", "①：このカードはリリースなしで召喚できる。", EFFECT),
    ("2 Zombie monsters\nMust first be Fusion Summoned.", "アンデット族モンスター×２\nこのカードは融合召喚でのみＥＸデッキから特殊召喚できる。",
     Frame.from_type_line("Zombie / Fusion / Effect", 8)),
    ("You can Special Summon this card (from your hand) by Tributing 1 \"Sky Paladin Parshath\".",
     "①：このカードは自分フィールドの「天空騎士パーシアス」１体をリリースして手札から特殊召喚できる。", EFFECT),
    ("Cannot be Normal Summoned/Set. Must be Special Summoned by its own effect.",
     "このカードは通常召喚できず、このカードの効果でのみ特殊召喚できる。", EFFECT),
    ("Cannot be Special Summoned.", "このカードは特殊召喚できない。", EFFECT),
]


@pytest.mark.parametrize("en,ja,frame", PAIRS, ids=[f"pair{i}" for i in range(len(PAIRS))])
def test_japanese_gives_the_same_conditions_and_tags_as_english(en, ja, frame):
    """Same kinds, same slots as validate compares them (a location the Japanese leaves unstated is
    the hand for a Main Deck monster, seed 002), same tags."""
    en_conds, en_tags = _read(en, "en", frame)
    ja_conds, ja_tags = _read(ja, "ja", frame)
    assert ja_conds and sorted(c.kind for c in ja_conds) == sorted(c.kind for c in en_conds)
    mismatches, _, _ = compare_conditions(en_conds, ja_conds, frame)
    assert mismatches == [], [(m.kind, m.slot, m.detail) for m in mismatches]
    assert ja_tags == en_tags


def test_a_player_lock_is_no_condition_on_the_card():
    conds, tags = _read("①：このカードが召喚に成功した場合に発動できる。デッキから「A」１体を特殊召喚する。"
                        "この効果の発動後、ターン終了時まで自分は「A」モンスターしか特殊召喚できない。", "ja")
    # the lock is read as an object of its own (issue 10 §5): a player-lock, no condition on the card
    assert [c.kind for c in conds] == ["player-lock"] and tags == []
    assert conds[0].lock.who == "you" and conds[0].lock.duration == "turn"
    assert conds[0].lock.exception is not None and conds[0].lock.exception.phrase == "「A」モンスター"


def test_explain_reads_a_japanese_sentence():
    r = CliRunner().invoke(main, ["explain", "このカードは通常召喚できない。自分の墓地の闇属性モンスターが３体の場合のみ特殊召喚できる。",
                                  "--lang", "ja", "--type", "Dragon / Effect", "--level", "7", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert {c["pattern_id"] for c in out["conditions"]} == {"ja.cannot-normal-summon-set", "ja.builtin-special-summon-only"}
    assert "nomi" in out["tags"]


# the same card in English and Japanese (yaml-yugi texts): the same STRUCTURE.md objects
# (procedures with their costs, counts, places, requirement, limit, position and field; material
# lines; Tribute rules) and the same player locks (issue 11 §1, §2)
STRUCTURE_PAIRS = [
    ("Cannot be Normal Summoned/Set. Must first be Special Summoned (from your hand) by banishing 1 LIGHT and 1 DARK monster from your GY.",
     "このカードは通常召喚できない。自分の墓地から光属性と闇属性のモンスターを１体ずつ除外した場合に特殊召喚できる。", EFFECT),
    ("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) to your opponent's field by Tributing 2 monsters they control.",
     "このカードは通常召喚できない。相手フィールドのモンスター２体をリリースした場合に相手フィールドに特殊召喚できる。", EFFECT),
    ("If you control a Synchro Monster, you can Special Summon this card (from your hand). You can only Special Summon \"Junk Dragonlet\" once per turn this way.",
     "このカード名の、①の方法による特殊召喚は１ターンに１度しかできない。①：自分フィールドにＳモンスターが存在する場合、このカードは手札から特殊召喚できる。", EFFECT),
    ("You can Special Summon this card (from your hand) by discarding 1 card.",
     "①：このカードは手札を１枚捨てて、手札から特殊召喚できる。", EFFECT),
    ("You can Special Summon this card (from your hand) in Attack Position.",
     "①：このカードは手札から攻撃表示で特殊召喚できる。", EFFECT),
    ("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by sending 3 face-up Continuous Spells you control to the GY.",
     "このカードは通常召喚できない。自分フィールドの表側表示の永続魔法カード３枚を墓地へ送った場合のみ特殊召喚できる。", EFFECT),
    ("1 Tuner + 1+ non-Tuner monsters", "チューナー＋チューナー以外のモンスター１体以上", Frame.from_type_line("Dragon / Synchro / Effect", 8)),
    ("2 Level 4 monsters", "レベル４モンスター×２", Frame.from_type_line("Warrior / Xyz / Effect", 4)),
    ("2+ Effect Monsters", "効果モンスター２体以上", Frame.from_type_line("Cyberse / Link / Effect", 3)),
    ("You can Tribute Summon this card by Tributing 1 Dinosaur monster.",
     "このカードは恐竜族モンスター１体をリリースしてアドバンス召喚できる。", EFFECT),
]
_EXTRA = ("span", "pattern_id", "requirement", "cost", "filter", "named_names")


def _plain(x):
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items() if k not in _EXTRA}
    if isinstance(x, list):
        return [_plain(v) for v in x]
    return x


@pytest.mark.parametrize("en,ja,frame", STRUCTURE_PAIRS, ids=[f"pair{i}" for i in range(len(STRUCTURE_PAIRS))])
def test_japanese_gives_the_same_structure_as_english(en, ja, frame):
    from extractor.structure import structure_of

    en_conds, _ = _read(en, "en", frame)
    ja_conds, _ = _read(ja, "ja", frame)
    want = _plain(structure_of(en_conds, frame))
    got = _plain(structure_of(ja_conds, frame))
    assert any(want.values()), want  # the English card has something to compare
    assert got == want


def test_a_japanese_cost_keeps_count_places_and_filter():
    conds, _ = _read("このカードは通常召喚できない。自分の手札・墓地の「インフェルノイド」モンスター３体を除外した場合のみ手札・墓地から特殊召喚できる。", "ja")
    proc = next(c for c in conds if c.kind == "builtin-special-summon")
    (cost,) = proc.cost
    assert (cost.action, cost.count, cost.places) == ("banish", (3, 3), ("hand", "gy"))
    assert cost.filter is not None and cost.filter.archetypes == ("インフェルノイド",)
    assert proc.requirement is None and set(proc.locations) == {"hand", "gy"}


@pytest.mark.parametrize("en,ja", [
    ("You cannot Special Summon monsters from the Extra Deck for the rest of this turn, except Synchro Monsters.",
     "ターン終了時まで自分はシンクロモンスターしかＥＸデッキから特殊召喚できない。"),
    ("Neither player can Special Summon monsters.", "お互いにモンスターを特殊召喚できない。"),
])
def test_japanese_player_locks_match_english(en, ja):
    def locks(text, lang):
        conds, _ = _read(text, lang)
        return [(c.lock.who, c.lock.what, c.lock.from_places, c.lock.duration) for c in conds if c.kind == "player-lock"]
    assert locks(ja, "ja") == locks(en, "en") != []
