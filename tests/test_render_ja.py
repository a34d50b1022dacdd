"""Japanese rendering (issue 11, DEVELOPERS.md "every object prints back as canonical card text"):
every condition kind prints in current OCG Japanese from patterns/terms/render-ja.yaml, objects
print the expected text (full-width digits), the table's examples run as tests, and parse -> render
-> parse gives the same object for the Japanese pattern examples that are one whole sentence."""
import sys
from pathlib import Path

import pytest
import regex

from extractor.conditions import CONDITION_CLASSES
from extractor.frame import Frame
from extractor.patterns import load_catalog
from extractor.pipeline import analyze_text
from extractor.render import render, render_count, table
from extractor.slots import CardFilter, CostAction, MaterialLine, Requirement

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from roundtrip import fold  # noqa: E402
from test_render import SAMPLES  # noqa: E402

BASE = {"span": (0, 1), "phrase": "x", "pattern_id": "test", "lang": "ja"}
_JA = regex.compile(r"[\p{Hiragana}\p{Katakana}\p{Han}]")


def _obj(kind: str, **kw):
    return CONDITION_CLASSES[kind](**{**BASE, **kw})


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_kind_renders_in_japanese(kind):
    text = render(_obj(kind, **SAMPLES[kind]), "ja")
    assert text and "{" not in text and "}" not in text
    assert _JA.search(text), text
    assert not regex.search(r"[0-9A-Za-z+]", text), f"half-width characters in {text!r}"


def test_counts_are_written_as_the_official_text():
    assert render_count((1, None), "ja") == "1体以上"  # filled into a template, made full width by render()
    line = MaterialLine(summon="synchro", count=(2, None), tuner=(1, 1), non_tuner=(1, None),
                        parts=(((1, 1), CardFilter(phrase="チューナー", card_kinds=("Tuner",))),
                               ((1, None), CardFilter(phrase="チューナー以外のモンスター1体以上"))))
    assert render(_obj("material-line", line=line), "ja") == "チューナー＋チューナー以外のモンスター１体以上"
    xyz = MaterialLine(summon="xyz", count=(2, 2), level=4, parts=(((2, 2), CardFilter(phrase="レベル4モンスター")),))
    assert render(_obj("material-line", line=xyz), "ja") == "レベル４モンスター×２"
    xyz_more = MaterialLine(summon="xyz", count=(3, None), level=4,
                            parts=(((3, None), CardFilter(phrase="レベル4モンスター×3体以上")),))
    assert render(_obj("material-line", line=xyz_more), "ja") == "レベル４モンスター×３体以上"
    link = MaterialLine(summon="link", count=(2, None), parts=(((2, None), CardFilter(phrase="効果モンスター2体以上")),))
    assert render(_obj("material-line", line=link), "ja") == "効果モンスター２体以上"
    fusion = MaterialLine(summon="fusion", count=(2, 2), parts=(
        ((1, 1), CardFilter(phrase="「ブラック・マジシャン」", names=("ブラック・マジシャン",))),
        ((1, 1), CardFilter(phrase="ドラゴン族モンスター", types=("Dragon",)))))
    assert render(_obj("material-line", line=fusion), "ja") == "「ブラック・マジシャン」＋ドラゴン族モンスター"


def test_procedures_nomi_semi_nomi_and_optional():
    banish = CostAction(action="banish", count=(2, 2), places=("gy",),
                        filter=CardFilter(phrase="光属性と闇属性のモンスター", attributes=("LIGHT", "DARK")))
    nomi = _obj("builtin-special-summon", exclusive=True, cost=(banish,))
    assert render(nomi, "ja") == "自分の墓地の光属性と闇属性のモンスターを１体ずつ除外した場合のみ特殊召喚できる。"
    semi = _obj("builtin-special-summon", exclusive=True, first=True, cost=(banish,))
    assert render(semi, "ja") == "自分の墓地から光属性と闇属性のモンスターを１体ずつ除外した場合に特殊召喚できる。"
    limited = _obj("builtin-special-summon", exclusive=True, cost=(banish,), locations=("hand", "extra"),
                   limit="once-per-turn")
    assert render(limited, "ja", name="終焉龍 カオス・エンペラー") == (
        "「終焉龍 カオス・エンペラー」は１ターンに１度、自分の墓地の光属性と闇属性のモンスターを１体ずつ除外した場合のみ"
        "手札・ＥＸデッキから特殊召喚できる。")
    req = Requirement(kind="control-no-monsters", phrase="If you control no monsters")
    optional = _obj("builtin-special-summon", locations=("hand",), requirement=req, limit="once-per-turn")
    assert render(optional, "ja", name="X") == (
        "自分フィールドにモンスターが存在しない場合、このカードは手札から特殊召喚できる。"
        "この方法による「Ｘ」の特殊召喚は１ターンに１度しかできない。")
    discard = CostAction(action="discard", count=(1, 1), places=("hand",), filter=None)
    assert render(_obj("builtin-special-summon", locations=("hand",), cost=(discard,)), "ja") == \
        "このカードは手札を１枚捨てて、手札から特殊召喚できる。"
    tribute = CostAction(action="tribute", count=(2, 2), places=("opp-field",), filter=CardFilter(phrase="モンスター"))
    lava = _obj("builtin-special-summon", exclusive=True, first=True, cost=(tribute,), to_opponent_field=True)
    assert render(lava, "ja") == "相手フィールドのモンスター２体をリリースした場合に相手フィールドに特殊召喚できる。"
    contact = _obj("builtin-special-summon", exclusive=True, first=True, locations=("extra",), cost=(
        CostAction(action="return-to-deck", count=None, places=("field",), filter=CardFilter(phrase="上記のカード")),))
    assert render(contact, "ja") == "自分フィールドの上記のカードをデッキに戻した場合のみＥＸデッキから特殊召喚できる。"
    lp = _obj("builtin-special-summon", locations=("hand",), cost=(CostAction(action="pay-lp", amount=1000),))
    assert render(lp, "ja") == "このカードは１０００ＬＰを払い、手札から特殊召喚できる。"


def test_other_kinds_print_the_official_sentences():
    assert render(_obj("cannot-normal-summon"), "ja") == "このカードは通常召喚できない。"
    assert render(_obj("cannot-special-summon-from", locations=("gy",)), "ja") == "このカードは墓地からの特殊召喚はできない。"
    assert render(_obj("must-be-special-summoned", method="named-card", named_cards=("ダーク・フュージョン",)), "ja") == \
        "このカードは「ダーク・フュージョン」の効果でのみ特殊召喚できる。"
    assert render(_obj("special-summon-only-by", summon="synchro"), "ja") == "このカードはＳ召喚でのみ特殊召喚できる。"
    assert render(_obj("ritual-summon-with", ritual_spell="カオスの儀式"), "ja") == "「カオスの儀式」により降臨。"
    assert render(_obj("tributes-required", count=3, set_allowed=False), "ja") == (
        "このカードは特殊召喚できない。このカードを通常召喚する場合、モンスター３体をリリースして召喚しなければならない。")
    lock = _obj("player-lock", who="you", duration="turn", from_places=("extra",),
                exception_text="融合モンスター")
    assert render(lock, "ja") == "このターン、自分は融合モンスターしかＥＸデッキから特殊召喚できない。"
    lock = _obj("player-lock", who="opponent", duration="while")
    assert render(lock, "ja") == "このカードがモンスターゾーンに存在する限り、相手はモンスターを特殊召喚できない。"


def test_cost_wordings_of_the_table():
    """All / any number / each words after the particle, named cards one of each, a detach without a
    filter, the comma form before a Summon to the opponent's field, a name followed by 以外."""
    allc = CostAction(action="banish", count=None, places=("gy",), filter=CardFilter(phrase="爬虫類族モンスター全て"))
    assert render(_obj("builtin-special-summon", exclusive=True, cost=(allc,)), "ja") == \
        "自分の墓地の爬虫類族モンスターを全て除外した場合のみ特殊召喚できる。"
    names = CostAction(action="tribute", count=(3, 3), places=("hand", "field"), filter=CardFilter(
        phrase="「磁石の戦士α」「磁石の戦士β」「磁石の戦士γ」", names=("磁石の戦士α", "磁石の戦士β", "磁石の戦士γ")))
    assert render(_obj("builtin-special-summon", exclusive=True, first=True, cost=(names,)), "ja") == \
        "自分の手札・フィールドから「磁石の戦士α」「磁石の戦士β」「磁石の戦士γ」を１体ずつリリースした場合に特殊召喚できる。"
    detach = CostAction(action="detach", amount=2, places=())
    assert render(_obj("builtin-special-summon", locations=("hand",), cost=(detach,)), "ja") == \
        "このカードは自分フィールドのＸ素材を２つ取り除き、手札から特殊召喚できる。"
    opp = CostAction(action="tribute", count=(1, 1), places=("opp-field",), filter=CardFilter(phrase="モンスター"))
    kaiju = _obj("builtin-special-summon", locations=("hand",), cost=(opp,), to_opponent_field=True, position="attack")
    assert render(kaiju, "ja") == "このカードは相手フィールドのモンスター１体をリリースし、手札から相手フィールドに攻撃表示で特殊召喚できる。"
    own = CostAction(action="tribute", count=(1, 1), places=("field",), filter=CardFilter(phrase="モンスター"))
    assert render(_obj("builtin-special-summon", locations=("hand",), cost=(own,)), "ja") == \
        "このカードは自分フィールドのモンスター１体をリリースして、手札から特殊召喚できる。"
    link = MaterialLine(summon="link", count=(1, 1), parts=(((1, 1), CardFilter(
        phrase="「トロイメア・マーメイド」以外の「トロイメア」モンスター", names=("トロイメア・マーメイド",),
        archetypes=("トロイメア",))),))
    assert render(_obj("material-line", line=link), "ja") == "「トロイメア・マーメイド」以外の「トロイメア」モンスター１体"


def test_an_english_filter_prints_its_typed_parts_in_japanese():
    cost = CostAction(action="tribute", count=(1, 1), places=("field",),
                      filter=CardFilter(phrase="DARK Dragon monster", attributes=("DARK",), types=("Dragon",)))
    text = render(_obj("builtin-special-summon", exclusive=True, cost=(cost,)), "ja")
    assert text == "自分フィールドの闇属性ドラゴン族モンスター１体をリリースした場合のみ特殊召喚できる。"


@pytest.mark.parametrize("example", table("ja")["examples"], ids=lambda e: e["text"][:30])
def test_render_table_examples(example):
    """The examples of patterns/terms/render-ja.yaml: the text parsed, each object rendered."""
    conds = analyze_text(example["text"], "ja", Frame.from_type_line(example["type"]))[0]
    assert [render(c, "ja") for c in conds] == example["render"]


def _strip(d):
    """A dumped object without what is not a slot (phrases, spans, pattern ids)."""
    if isinstance(d, dict):
        return {k: _strip(v) for k, v in d.items() if k not in ("phrase", "span", "pattern_id", "source")}
    if isinstance(d, (list, tuple)):
        return [_strip(x) for x in d]
    return d


_FRAMES = {k: Frame(kind=k) for k in ("fusion", "synchro", "xyz", "link")}
#: (pattern id, example) whose round trip is known to lose a slot, with what is lost.  Strict: a
#: case that starts to pass must be taken off this list.
KNOWN_LOSSES = {
    ("ja.must-be-special-summoned-kind-effect", "このカードは幻竜族モンスターの効果でしか特殊召喚できない。"):
        "the effect's source (a Wyrm monster) is not kept",
    ("ja.builtin-special-summon-either-lead", "ＥＸデッキの裏側表示のこのカードは、融合召喚及び以下の方法でのみ特殊召喚できる。●自分"
     "フィールドの「A」１体をリリースした場合に特殊召喚できる。"):
        "the lead sentence (融合召喚及び以下の方法でのみ) is not kept; the procedure renders alone",
    ("ja.builtin-special-summon-either-lead", "「混沌の三幻魔」は１ターンに１度、融合召喚及び以下の方法でのみ特殊召喚できる。●自分"
     "フィールドの上記のカードを墓地へ送った場合にＥＸデッキから特殊召喚できる。"):
        "the lead sentence (融合召喚及び以下の方法でのみ) is not kept; the procedure renders alone",
}


def _whole_sentence_examples():
    """The Japanese pattern examples read as exactly one condition whose phrase is the whole example."""
    out = []
    for p in load_catalog().patterns:
        if p.lang != "ja":
            continue
        frame = next((f for k, f in _FRAMES.items() if k in p.id), None)
        for ex in p.examples_match:
            text = ex["text"] if isinstance(ex, dict) else ex
            whole = [c for c in analyze_text(text, "ja", frame)[0] if fold(c.phrase, "ja") == fold(text, "ja")]
            if len(whole) != 1:
                continue
            out.append(pytest.param(p.id, text, frame, id=f"{p.id}:{text[:30]}",
                                    marks=[pytest.mark.xfail(strict=True, reason=KNOWN_LOSSES[(p.id, text)])]
                                    if (p.id, text) in KNOWN_LOSSES else []))
    return out


@pytest.mark.parametrize("pid,text,frame", _whole_sentence_examples())
def test_parse_render_parse_keeps_the_japanese_object(pid, text, frame):
    c = [x for x in analyze_text(text, "ja", frame)[0] if fold(x.phrase, "ja") == fold(text, "ja")][0]
    rendered = render(c, "ja")
    back = [x for x in analyze_text(rendered, "ja", frame)[0] if x.kind == c.kind]
    assert len(back) == 1, (rendered, back)
    assert _strip(back[0].model_dump()) == _strip(c.model_dump()), rendered


def test_most_japanese_whole_sentence_examples_round_trip():
    cases = _whole_sentence_examples()
    keys = {(p.values[0], p.values[1]) for p in cases}
    assert set(KNOWN_LOSSES) <= keys, set(KNOWN_LOSSES) - keys  # no stale entry
    assert len(cases) >= 60 and len(KNOWN_LOSSES) / len(cases) < 0.15


def test_the_round_trip_folds_japanese_effect_numbers_and_the_card_name():
    assert fold("①：「終焉龍」は１ターンに１度、", "ja", "終焉龍") == fold("このカードは1ターンに1度", "ja")
    assert "①" in fold("①这张卡", "zh-CN")


def test_explain_shows_the_japanese_rendering_under_the_phrase():
    from click.testing import CliRunner

    from extractor.cli import main

    text = "このカードは通常召喚できない。自分の墓地の光属性モンスター３体を除外した場合のみ特殊召喚できる。"
    r = CliRunner().invoke(main, ["explain", text, "--lang", "ja", "--type", "Dragon / Effect", "--level", "8"],
                           env={"COLUMNS": "400"})
    assert r.exit_code == 0, r.output
    out = r.output
    assert "= このカードは通常召喚できない。" in out
    # the text above the table, the phrase and its rendering (the full-width count is the renderer's)
    conditions = out[: out.index("procedures")]
    assert conditions.count("自分の墓地の光属性モンスター３体を除外した場合のみ") == 3, out
    # the rendering is printed under its phrase (a later line of the phrase column)
    assert out.index("= このカードは通常召喚できない。") > out.index("│ このカードは通常召喚できない")


def test_an_xyz_alternative_keeps_the_monster_it_is_overlaid_on():
    # issue 11 §1: "このカードは…の上に重ねてＸ召喚する事もできる" names the monster ("by using a Rank 8
    # "Galaxy-Eyes" Xyz Monster you control"); the object keeps it as the line's part and prints it back
    from extractor.structure import structure_of

    text = ("レベル９モンスター×３\nこのカードは自分フィールドのランク８の「ギャラクシーアイズ」Ｘモンスターの上に重ねてＸ召喚"
            "する事もできる。このカードはＸ召喚の素材にできない。")
    conds = analyze_text(text, "ja", Frame(kind="xyz"))[0]
    alt = [c for c in conds if c.kind == "material-line" and c.line.alternative]
    assert len(alt) == 1
    (count, f), = alt[0].line.parts
    assert f.archetypes == ("ギャラクシーアイズ",) and "ランク8" in f.phrase
    assert fold(render(alt[0], "ja"), "ja") == fold(alt[0].phrase, "ja")
    # the alternative is a flag of the card's Xyz line, never a second line
    mats = structure_of(conds, Frame(kind="xyz"))["materials"]
    assert [(m["summon"], m["level"], m["count"], m["alternative"]) for m in mats] == [("xyz", 9, [3, 3], True)]
