"""Japanese misreadings the round trip found (issue 11 §1-2; development fixes on the yaml-yugi
Japanese texts, which were read to find them): a procedure's requirement keeps both clauses, a cost
filter keeps only the words of the paid cards, a phrase starts at the card's name or after the
connective また、.  Each test reads a whole sentence and checks the object, as English reads it."""
import sys
from pathlib import Path

from extractor.frame import Frame
from extractor.pipeline import analyze_text
from extractor.render import render

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from roundtrip import fold  # noqa: E402


def _procs(text: str, frame: Frame | None = None):
    return [c for c in analyze_text(text, "ja", frame)[0] if c.kind == "builtin-special-summon"]


def _cost(text: str, frame: Frame | None = None):
    (p,) = _procs(text, frame)
    (a,) = p.cost
    return p, a


# -- §2: a requirement of two clauses ("If your opponent controls a monster and all face-up monsters
# you control (min. 1) are Level 4") ------------------------------------------------------------------

def test_a_requirement_keeps_its_second_clause_after_sonzai_shi():
    (p,) = _procs("相手フィールド上にモンスターが存在し、自分フィールド上に表側表示で存在するモンスターがレベル４モンスター"
                  "のみの場合、このカードは手札から特殊召喚できる。")
    assert p.requirement.phrase == "相手フィールドにモンスターが存在し、自分フィールドに表側表示で存在するモンスターがレベル4モンスターのみの場合"
    assert p.requirement.kind == "opponent-controls-monster"


def test_a_requirement_keeps_a_first_clause_in_sezu():
    (p,) = _procs("①：自分のモンスターゾーンに「ダイナミスト・ブラキオン」が存在せず、フィールドの攻撃力が一番高いモンスターが"
                  "相手フィールドに存在する場合、このカードは手札から特殊召喚できる。")
    assert p.requirement.phrase.startswith("自分のモンスターゾーンに「ダイナミスト・ブラキオン」が存在せず、")
    assert p.requirement.kind == "opponent-controls-monster"  # as English reads it


def test_a_requirement_of_two_states_joined_by_mataha():
    (p,) = _procs("①：自分フィールドの表側表示モンスターが、存在しない場合または「Ｒ．Ｂ．」モンスターのみの場合、"
                  "このカードは手札から特殊召喚できる。")
    assert p.requirement.phrase == "自分フィールドの表側表示モンスターが、存在しない場合または「R.B.」モンスターのみの場合"
    assert p.requirement.kind == "control-no-monsters"


def test_a_cost_after_sonzai_shi_stays_the_cost():
    p, a = _cost("このカードは「天空の聖域」がフィールド上に存在し、自分フィールド上に表側表示で存在する「ゼラの戦士」１体を"
                 "生け贄に捧げた場合のみ特殊召喚できる。")
    assert p.requirement.phrase == "「天空の聖域」がフィールドに存在し"
    assert a.action == "tribute" and a.count == (1, 1)


# -- §3: cost filters keep the words of the paid cards only ---------------------------------------------

def test_a_listed_method_leaves_its_bullet_and_the_zone_particle_out_of_the_filter():
    text = ("「Ａ」＋「Ｂ」\nこのカードは融合召喚及び以下の方法でのみ特殊召喚できる。\n"
            "●自分のモンスターゾーンの上記のカードを墓地へ送った場合にＥＸデッキから特殊召喚できる。")
    _, a = _cost(text, Frame(kind="fusion"))
    assert a.filter.phrase == "上記のカード" and a.filter.materials and a.places == ("field",)


def test_a_face_up_mark_after_a_place_is_the_filters_face_up_not_its_words():
    _, a = _cost("このカードは通常召喚できない。自分の手札・フィールド（表側表示）・墓地から「磁石の戦士α」「磁石の戦士β」を"
                 "１体ずつ除外した場合のみ特殊召喚できる。")
    assert a.filter.phrase == "「磁石の戦士α」「磁石の戦士β」"
    assert a.filter.face_up and a.places == ("hand", "field", "gy") and a.count == (2, 2)


def test_the_place_particle_ni_is_no_word_of_the_filter_and_prints_back():
    p, a = _cost("このカードは通常召喚できない。自分フィールド上に表側表示で存在する「ゼラの戦士」１体をリリースした場合のみ"
                 "特殊召喚できる。")
    assert a.filter.phrase == "表側表示で存在する「ゼラの戦士」" and a.filter.face_up
    assert "自分フィールドに表側表示で存在する「ゼラの戦士」" in render(p, "ja")


def test_a_duel_long_requirement_is_not_read_into_the_cost():
    text = ("このカードは通常召喚できない。自分が「究極宝玉神」モンスターの特殊召喚に成功しているデュエル中に、"
            "自分のフィールド・墓地の上記カードを除外した場合のみ特殊召喚できる。")
    p, a = _cost(text)
    assert a.filter.phrase == "上記カード" and a.places == ("field", "gy")
    assert p.requirement.phrase.endswith("デュエル中")
    assert fold(render(p, "ja"), "ja") == fold(p.phrase, "ja")


def test_a_comma_before_the_place_is_no_word_of_the_filter():
    _, a = _cost("このカードは通常召喚できない。自分の手札・フィールド上から、「異次元エスパー・スター・ロビン」「野獣戦士ピューマン」"
                 "「鳳王獣ガイルーダ」「鉄巨人アイアンハンマー」をそれぞれ１体ずつ墓地へ送った場合に特殊召喚できる。")
    assert a.filter.phrase.startswith("「異次元エスパー・スター・ロビン」") and a.count == (4, 4)


def test_the_phrase_starts_at_the_cards_name_not_inside_it():
    text = ("通常召喚できないレベル１０モンスター×３\n「混沌の三幻魔」は１ターンに１度、融合召喚及び以下の方法でのみ特殊召喚"
            "できる。●自分フィールドの上記のカードを墓地へ送った場合にＥＸデッキから特殊召喚できる。")
    (p,) = _procs(text, Frame(kind="fusion"))
    assert p.phrase.startswith("「混沌の三幻魔」は") and p.limit == "once-per-turn" and p.exclusive


def test_the_connective_mata_is_no_part_of_the_procedure():
    text = ("相手フィールド上のモンスターが２体以上の場合、このカードはリリースなしで召喚できる。また、自分フィールド上に"
            "「パンサー・シャーク」が存在する場合、このカードは手札から特殊召喚できる。")
    (p,) = _procs(text)
    assert p.phrase.startswith("自分フィールド") and p.requirement.kind == "control-card"
    assert fold(render(p, "ja"), "ja") == fold(p.phrase, "ja")


def test_one_of_each_of_two_attributes_counts_two():
    _, a = _cost("このカードは通常召喚できない。自分の墓地から光・闇属性モンスターを１体ずつ除外した場合に特殊召喚できる。")
    assert a.count == (2, 2) and set(a.filter.attributes) == {"LIGHT", "DARK"}
