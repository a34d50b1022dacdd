"""Tests of extractor.validate (translation validation) and the `validate` command."""
from __future__ import annotations

import json

import orjson
import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.frame import Frame
from extractor.patterns import load_catalog
from extractor.pipeline import Card, analyze_text
from extractor.validate import render_html, truncation, validate

MAIN = Frame(kind="main_monster", level=8)
FUSION = Frame(kind="fusion", level=8)


def en(cid, text, frame=MAIN, name=None, lang="en"):
    return Card(id=cid, name=name or f"card {cid}", lang=lang, text=text, frame=frame)


def one(src_text, tgt_text, frame=MAIN, src_lang="en", tgt_lang="en"):
    rep = validate([en(1, src_text, frame, lang=src_lang)], [en(1, tgt_text, frame, lang=tgt_lang)])
    assert rep.cards_compared == 1
    return rep.cards[0].mismatches if rep.cards else []


def has_zh(kind: str) -> bool:
    return any(p.lang == "zh" and p.yields.get("kind") == kind for p in load_catalog().patterns)


# -- conditions ------------------------------------------------------------------------------

def test_same_text_agrees():
    t = "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by Tributing 1 monster."
    assert one(t, t) == []


def test_missing_and_extra_in_target_with_spans_in_original_texts():
    src = "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by Tributing 1 monster."
    tgt = "  Must be Special Summoned (from your hand) by Tributing 1 monster. Cannot be Special Summoned."
    mm = one(src, tgt)
    kinds = sorted((m.kind, m.condition) for m in mm)
    assert kinds == [("extra-in-target", "cannot-special-summon"), ("missing-in-target", "cannot-normal-summon")]
    miss = next(m for m in mm if m.kind == "missing-in-target")
    assert miss.severity == "high" and miss.target_span is None and miss.target_phrase is None
    assert src[miss.source_span[0]:miss.source_span[1]] == miss.source_phrase == "Cannot be Normal Summoned/Set"
    extra = next(m for m in mm if m.kind == "extra-in-target")
    assert extra.source_span is None and tgt[extra.target_span[0]:extra.target_span[1]] == extra.target_phrase


def test_locations_slot_differs():
    mm = one("Cannot be Special Summoned from the GY.", "Cannot be Special Summoned from the Deck.")
    assert [(m.kind, m.slot, m.source_value, m.target_value, m.severity) for m in mm] == [
        ("slot-differs", "locations", ["gy"], ["deck"], "medium")]


def test_first_versus_only_differs_but_first_and_optional_agree():
    first = "Cannot be Normal Summoned/Set. Must first be Special Summoned (from your hand) by banishing 1 LIGHT monster from your GY."
    only = first.replace("Must first be", "Must be")
    mm = one(first, only)
    assert [(m.kind, m.slot, m.source_value, m.target_value) for m in mm] == [
        ("slot-differs", "first_only", "first", "only")]
    optional = "Cannot be Normal Summoned/Set. You can Special Summon this card (from your hand) by banishing 1 LIGHT monster from your GY."
    assert one(first, optional) == []  # a Semi-Nomi written as an optional procedure (Chinese style)


def test_method_differs_between_summon_kinds():
    mm = one("Must be Fusion Summoned.", "Must be Synchro Summoned.", frame=FUSION)
    assert [(m.slot, m.source_value, m.target_value) for m in mm] == [("method", "fusion", "synchro")]
    assert one("Must be Fusion Summoned.", "Must first be Fusion Summoned.", frame=FUSION)[0].slot == "first_only"


def test_unstated_location_is_the_default_one():
    a = "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by Tributing 1 monster."
    b = "Cannot be Normal Summoned/Set. Must be Special Summoned by Tributing 1 monster."
    assert one(a, b) == []
    c = a.replace("hand", "GY")
    assert [(m.slot, m.target_value) for m in one(a, c)] == [("locations", ["gy"])]


def test_frame_is_not_evidence():
    # a Fusion frame says "cannot be Normal Summoned" by rule; only the TEXT is compared
    rep = validate([en(1, "Must be Fusion Summoned.", FUSION)], [en(1, "Must be Fusion Summoned.", FUSION)])
    assert rep.cards == [] and rep.cards_agreeing == 1


def test_chinese_registers_are_never_reported():
    if not has_zh("cannot-normal-summon"):
        pytest.skip("no Chinese cannot-normal-summon pattern yet")
    pairs = [("这张卡不能通常召唤。", "此卡不可通常召唤。"), ("这张卡不能通常召唤。", "這張卡不能通常召喚。")]
    for a, b in pairs:
        ca, *_ = analyze_text(a, "zh-CN", MAIN)
        cb, *_ = analyze_text(b, "zh-TW", MAIN)
        assert ca and cb, (a, b)  # the comparison below means something
        assert one(a, b, src_lang="zh-CN", tgt_lang="zh-TW") == []


def test_tribute_register_old_and_new_agree():
    if not has_zh("tributes-required"):
        pytest.skip("no Chinese tributes-required pattern yet")
    new = "这张卡不能特殊召唤。这张卡通常召唤的场合，必须把3只解放作召唤。"
    old = "此卡不可特殊召唤。此卡通常召唤的场合，必须把3只作为祭品作召唤。"
    cn, *_ = analyze_text(new, "zh-CN", MAIN)
    co, *_ = analyze_text(old, "zh-CN", MAIN)
    if not any(c.kind == "tributes-required" for c in cn):
        pytest.skip("this 3-Tribute wording is not read by the Chinese patterns")
    assert sorted(c.kind for c in cn) == sorted(c.kind for c in co)
    assert one(new, old, src_lang="zh-CN", tgt_lang="zh-CN") == []


def test_english_against_chinese():
    if not has_zh("cannot-normal-summon"):
        pytest.skip("no Chinese cannot-normal-summon pattern yet")
    mm = one("Cannot be Normal Summoned/Set. Cannot be Special Summoned from the GY.",
             "这张卡不能从墓地特殊召唤。", tgt_lang="zh-CN")
    assert [(m.kind, m.condition) for m in mm] == [("missing-in-target", "cannot-normal-summon")]


# -- card-level problems ---------------------------------------------------------------------

def test_card_level_problems_are_not_condition_mismatches():
    S = [en(1, "Cannot be Special Summoned."), en(2, "Cannot be Special Summoned."), en(3, "Cannot be Special Summoned.")]
    T = [en(1, "   "), en(3, "Cannot be Special Summoned."), en(4, "Cannot be Special Summoned.")]
    rep = validate(S, T)
    by = {c.id: [(m.kind, m.side) for m in c.mismatches] for c in rep.cards}
    assert by == {1: [("empty-text", "target")], 2: [("card-missing-in-target", "target")],
                  4: [("card-missing-in-source", "source")]}
    assert rep.cards_compared == 1 and rep.cards_agreeing == 1 and rep.cards_mismatching == 0
    assert {c.id for c in validate(S, T, include_missing=False).cards} == {1}


@pytest.mark.parametrize("text, lang", [
    ("Cannot be Normal Summoned/Set. Must be Special Summoned by", "en"),
    ("Cannot be Special Summoned from the GY, and", "en"),
    ('You can target 1 "Dark Magician', "en"),
    ("Once per turn (Quick Effect): you can", "en"),
    ("这张卡不能通常召唤。从自己墓地把1只「黑魔术师", "zh-CN"),
    ("这张卡不能通常召唤。把自己场上2只怪兽解放的场合，", "zh-CN"),
    ("①：这张卡召唤成功时才能发动。从卡组把", "zh-CN"),
    ("(This card is always treated as a card", "en"),
    ('Treated as an "Archf', "en"),
    ("这张卡不能通常召唤。（需要「融合", "zh-CN"),
])
def test_truncated_texts(text, lang):
    assert truncation(text, lang, MAIN)


@pytest.mark.parametrize("text, lang, frame", [
    ('"Blue-Eyes White Dragon" + "Blue-Eyes White Dragon"', "en", FUSION),
    ("2 Level 4 monsters", "en", Frame(kind="xyz", level=4)),
    ("「小天使」＋「催眠羊」", "zh-CN", FUSION),
    ("4星怪兽×2", "zh-CN", Frame(kind="xyz", level=4)),
    ('You can only use this effect of "Dark Magician" once per turn.', "en", MAIN),
    ("(This card is always treated as a \"Archfiend\" card.)", "en", MAIN),
    ("奸诈狡猾的蛇，注意其用粗长的身体束缚攻击！", "zh-CN", MAIN),
    ("①：把1只怪兽加入手卡。\n●「白骨」\n●「白骨薯烤王」", "zh-CN", MAIN),
    ("这张卡不能通常召唤。这张卡可以从手卡特殊召唤\u200b\u200b", "zh-CN", MAIN),
    # mixed curly and straight quotes (Summoned Skull in the goat cdb)
    ('Among the Fiend-Type monsters, this monster boasts considerable force.\r\n\r\n'
     '(This card is always treated as an \u201fArchfiend" card.)', "en", MAIN),
    ("(This card is always treated as an \u201cArchfiend\" card.)", "en", MAIN),
    # a reminder left unclosed in a complete text (Armed Ninja in the goat cdb): a typo, not a cut
    ("FLIP: Target 1 Spell Card on the field; destroy that target. (If the target is Set, reveal it, and "
     "destroy it if it is a Spell Card. Otherwise, return it to its original position.", "en", MAIN),
    # a closing bracket with no opening one, a parenthesis closed by a full-width one
    ("increase the ATK of all DARK monsters by 500 points and decrease the ATK of all LIGHT monsters]by 400 points.",
     "en", MAIN),
    ("把自己场上的上记卡送去墓地的场合才能特殊召唤（不需要「融合」)。", "zh-CN", FUSION),
    ("这张卡不能通常召唤。自己场上有「卡通世界」存在的场合才能特殊召唤(5星以上需要解放）。", "zh-CN", MAIN),
    # a last word ending in a dangling character (在) that ends the clause; no 。
    ("场地魔法卡不能发动。「场地防护罩」在自己场上只能有1张表侧表示存在", "zh-CN", MAIN),
    # a reminder in brackets at the end
    ("Cannot be Normal Summoned/Set. [This card is always treated as a \"Toon\" card.]", "en", MAIN),
])
def test_complete_texts(text, lang, frame):
    assert truncation(text, lang, frame) is None


def test_truncated_target_reports_truncation_not_the_conditions_it_lost():
    mm = one("Cannot be Special Summoned from the GY. Cannot be Normal Summoned/Set.",
             "Cannot be Special Summoned from the GY. Cannot be")
    assert [(m.kind, m.side) for m in mm] == [("truncated-text", "target")]


# -- inputs ----------------------------------------------------------------------------------

def _yaml_yugi(path, cards):
    with open(path, "wb") as f:
        for cid, texts in cards:
            f.write(orjson.dumps({"password": cid, "konami_id": cid, "name": {"en": f"N{cid}"}, "text": texts,
                                  "card_type": "Monster", "monster_type_line": "Fiend / Effect", "level": 8}) + b"\n")


def test_one_multilingual_file(tmp_path):
    p = tmp_path / "cards.jsonl"
    _yaml_yugi(p, [(1, {"en": "Cannot be Special Summoned from the GY.", "ja": "このカードは攻撃できない。"}),
                   (2, {"en": "Cannot be Special Summoned from the GY.", "fr": "Ne peut pas ..."})])
    rep = validate(p, None, source_lang="en", target_lang="ja")
    assert rep.cards_compared == 1
    assert [(c.id, [m.kind for m in c.mismatches]) for c in rep.cards] == [
        (1, ["missing-in-target"]), (2, ["card-missing-in-target"])]
    assert "no ja text" in rep.cards[1].mismatches[0].detail
    with pytest.raises(ValueError):
        validate(p, None, source_lang="en")


def test_cli_jsonl_summary_and_html(tmp_path):
    src, tgt = tmp_path / "s.jsonl", tmp_path / "t.jsonl"
    src.write_text(json.dumps({"id": 7, "name": "Seven", "lang": "en", "type": "Fiend / Effect", "level": 8,
                               "text": "Cannot be Normal Summoned/Set. Cannot be Special Summoned from the GY."}) + "\n"
                   + json.dumps({"id": 8, "name": "Eight", "lang": "en", "text": "Cannot be Special Summoned."}) + "\n")
    tgt.write_text(json.dumps({"id": 7, "name": "Seven", "lang": "en", "type": "Fiend / Effect", "level": 8,
                               "text": "Cannot be Special Summoned from the Deck."}) + "\n"
                   + json.dumps({"id": 8, "name": "Eight", "lang": "en", "text": "Cannot be Special Summoned."}) + "\n")
    out, html = tmp_path / "out" / "o.jsonl", tmp_path / "r.html"
    out.parent.mkdir()  # output folders are never created (a typo in a path is an error)
    r = CliRunner().invoke(main, ["validate", str(src), str(tgt), "-o", str(out), "--html", str(html)])
    assert r.exit_code == 0, r.output
    rows = [json.loads(l) for l in out.read_text().splitlines()]
    assert [(d["id"], d["name"]) for d in rows] == [(7, "Seven")]
    mm = rows[0]["mismatches"]
    assert {(m["kind"], m["slot"]) for m in mm} == {("missing-in-target", None), ("slot-differs", "locations")}
    for m in mm:
        assert set(m) >= {"kind", "slot", "severity", "source_span", "target_span", "source_phrase", "target_phrase"}
    assert "cards compared" in r.output and "missing-in-target" in r.output
    assert sorted(p.name for p in out.parent.iterdir()) == ["o.jsonl", "o.jsonl.meta.json"]  # atomic: no temporary left
    page = html.read_text()
    assert "<mark class=\"missing-in-target\"" in page and 'data-kinds="missing-in-target slot-differs"' in page


def test_cli_needs_two_languages_for_one_file(tmp_path):
    p = tmp_path / "cards.jsonl"
    _yaml_yugi(p, [(1, {"en": "Cannot be Special Summoned."})])
    r = CliRunner().invoke(main, ["validate", str(p), "--source-lang", "en"])
    assert r.exit_code != 0 and "--target-lang" in r.output


def test_html_escapes_card_text():
    evil = 'Cannot be Special Summoned. <script>alert(1)</script> "><img src=x onerror=alert(2)>'
    rep = validate([en(1, evil, name="<b>n</b>")], [en(1, "Cannot be Normal Summoned/Set.")])
    page = render_html(rep)
    assert "<script>alert(1)" not in page and "<img src=x" not in page and "<b>n</b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;b&gt;n&lt;/b&gt;" in page


# -- real data (skips without ../shared) ------------------------------------------------------

def test_great_moth_in_goat_cdbs(shared):
    d = shared / "data" / "cdb"
    rep = validate(d / "goat-en-US.cdb", d / "goat-zh-CN.cdb", source_lang="en", target_lang="zh-CN")
    assert rep.cards_compared > 1800
    moth = next((c for c in rep.cards if c.id == 14141448), None)
    assert moth is not None
    m = next(m for m in moth.mismatches if m.condition == "cannot-normal-summon")
    assert m.kind == "missing-in-target" and m.severity == "high"
    assert moth.source_text[m.source_span[0]:m.source_span[1]] == m.source_phrase


# -- meaning rules of the comparison ---------------------------------------------------------

def _cond(kind, span=(0, 4), phrase="xxxx", lang="en", **kw):
    from extractor.conditions import CONDITION_CLASSES
    return CONDITION_CLASSES[kind](span=span, phrase=phrase, pattern_id="t", lang=lang, **kw)


def test_chinese_only_from_the_extra_deck_is_must_first():
    from extractor.validate import compare_conditions
    en_first = _cond("builtin-special-summon", locations=("extra",), exclusive=True, first=True)
    en_only = _cond("builtin-special-summon", locations=("extra",), exclusive=True)
    zh_ed = _cond("builtin-special-summon", phrase="此卡从额外牌组仅可在将上述卡除外的情况下特殊召唤", lang="zh", exclusive=True)
    zh_plain = _cond("builtin-special-summon", phrase="仅可在将上述卡除外的情况下特殊召唤", lang="zh", exclusive=True)
    assert compare_conditions([en_first], [zh_ed], FUSION)[0] == []
    assert compare_conditions([en_only], [zh_plain], FUSION)[0] == []
    assert [m.slot for m in compare_conditions([en_only], [zh_ed], FUSION)[0]] == ["first_only"]
    assert [m.slot for m in compare_conditions([en_first], [zh_plain], FUSION)[0]] == ["first_only"]


def test_self_summon_effect_without_location_and_nested_reading():
    from extractor.validate import compare_conditions
    eff_gy = _cond("special-summons-itself", locations=("gy",))
    eff_any = _cond("special-summons-itself", span=(10, 20))
    assert compare_conditions([eff_gy], [eff_any], MAIN)[0] == []
    # the same words read twice on one side (a procedure and the self-Summon inside it) count once
    proc = _cond("builtin-special-summon", span=(0, 30), locations=("hand",))
    inner = _cond("special-summons-itself", span=(20, 30), locations=("hand",))
    assert compare_conditions([proc], [proc, inner], MAIN)[0] == []
    # procedure against effect: a low-severity method difference, not two mismatches
    mm = compare_conditions([proc], [_cond("special-summons-itself", span=(0, 9), locations=("hand",))], MAIN)[0]
    assert [(m.kind, m.slot, m.severity) for m in mm] == [("slot-differs", "method", "low")]


def test_cli_unwritable_output_is_a_clear_error(tmp_path):
    src = tmp_path / "s.jsonl"
    src.write_text(json.dumps({"id": 1, "name": "A", "lang": "en", "text": "Cannot be Special Summoned."}) + "\n")
    (tmp_path / "out").mkdir()
    r = CliRunner().invoke(main, ["validate", str(src), str(src), "-o", str(tmp_path / "out")])
    assert r.exit_code == 2 and "cannot write the output" in r.output  # refused before any work, as tag does
    assert "Traceback" not in r.output


def test_effects_on_one_side_only_are_reported_only_on_request():
    from extractor.validate import compare_conditions
    eff = _cond("special-summons-itself", locations=("gy",))
    ans = _cond("additional-normal-summon", span=(5, 9))
    assert compare_conditions([eff, ans], [], MAIN)[0] == []
    mm = compare_conditions([eff, ans], [], MAIN, include_effects=True)[0]
    assert sorted((m.kind, m.severity) for m in mm) == [("missing-in-target", "low")] * 2


def test_cost_from_the_extra_deck_is_not_the_summon_location():
    from extractor.validate import compare_conditions
    en_only = _cond("builtin-special-summon", locations=("hand",), exclusive=True)
    zh_cost = _cond("builtin-special-summon", lang="zh", exclusive=True,
                    phrase="仅可在从自己的手牌・场上・额外牌组将5张以上的卡以里侧除外的情况下特殊召唤")
    assert compare_conditions([en_only], [zh_cost], MAIN)[0] == []


def test_chinese_situation_in_the_procedure_carries_the_english_summon_condition_while():
    """English 'Cannot be Special Summoned unless you control "X"' + a procedure is one Chinese
    procedure sentence with the situation (有「X」存在的场合才能 / 存在，…的场合可以特殊召唤)."""
    en_text = ('Cannot be Normal Summoned/Set. Cannot be Special Summoned unless you control "Toon World". '
               "Must first be Special Summoned (from your hand) by Tributing the same number of monsters "
               "needed for a Tribute Summon (normally 2).")
    for zh_text in ("这张卡不能通常召唤。自己场上有「卡通世界」存在的场合才能特殊召唤（5星以上需要解放）。",
                    "这张卡不能通常召唤。自己场上有「卡通世界」存在，把自己场上2只怪兽解放的场合可以特殊召唤。"):
        assert one(en_text, zh_text, tgt_lang="zh-CN") == []
        assert one(zh_text, en_text, src_lang="zh-CN") == []
    # a Chinese procedure with no situation in it does not carry the while: still reported
    mm = one(en_text, "这张卡不能通常召唤。把自己场上2只怪兽解放的场合可以特殊召唤。", tgt_lang="zh-CN")
    assert [(m.kind, m.condition) for m in mm] == [("missing-in-target", "summon-condition-while")]


def test_carried_situation_keeps_a_stated_only():
    from extractor.validate import compare_conditions
    en_while = _cond("summon-condition-while", span=(0, 10))
    en_first = _cond("builtin-special-summon", span=(20, 30), locations=("hand",), exclusive=True, first=True)
    zh_cai = _cond("builtin-special-summon", lang="zh", exclusive=True, phrase="自己场上有「卡通世界」存在的场合才能特殊召唤")
    zh_only = _cond("builtin-special-summon", lang="zh", exclusive=True,
                    phrase="仅在自己场上有「卡通世界」存在的场合可以特殊召唤")
    assert compare_conditions([en_while, en_first], [zh_cai], MAIN)[0] == []
    mm = compare_conditions([en_while, en_first], [zh_only], MAIN)[0]
    assert [(m.kind, m.slot) for m in mm] == [("slot-differs", "first_only")]
    # without a while on the other side the 才能 stays 'only' (nothing is carried)
    assert [m.slot for m in compare_conditions([en_first], [zh_cai], MAIN)[0]] == ["first_only"]


def test_low_severity_condition_mismatches_only_on_request():
    """A Gemini reminder missing on one side is low severity: left out by default, reported with
    min_severity="low"; card-level problems are never filtered."""
    from extractor.frame import Frame
    from extractor.pipeline import Card
    from extractor.validate import validate

    f = Frame.from_type_line("Fiend / Effect", 4)
    src = [Card(id=1, name="a", lang="en", frame=f,
                text="This card is treated as a Normal Monster while face-up on the field or in the GY. While this "
                     "card is face-up on the field, you can Normal Summon it to have it become an Effect Monster "
                     "with this effect."),
           Card(id=2, name="b", lang="en", frame=f, text="Cannot be Special Summoned.")]
    tgt = [Card(id=1, name="a", lang="zh-CN", frame=f, text="这张卡不会被战斗破坏。")]
    default = validate(src, tgt)
    assert [(c.id, [m.kind for m in c.mismatches]) for c in default.cards] == [(2, ["card-missing-in-target"])]
    full = validate(src, tgt, min_severity="low")
    kinds = {(c.id, m.kind, m.severity) for c in full.cards for m in c.mismatches}
    assert (1, "missing-in-target", "low") in kinds and (2, "card-missing-in-target", "low") in kinds


def test_named_card_that_has_fulfilled_the_condition_is_that_cards_effect():
    """Old English "can only be Special Summoned from your hand or your Deck by Tributing 1 "X" that
    has fulfilled the condition" is X's effect (named-card, Semi-Nomi), as the Chinese prints it
    (「X」的效果可以特殊召唤; oldest 满足条件的「X」做祭品特殊召唤): no method or location mismatch."""
    src = ('This card cannot be Normal Summoned or Set. This card can only be Special Summoned from your hand or '
           'your Deck by Tributing 1 "Great Dezard" that has fulfilled the condition.')
    for tgt in ("这张卡不能通常召唤。「大神官 迪·扎德」的效果可以特殊召唤。",
                "这张卡不能通常召唤。满足条件的「大神官 迪·扎德」做祭品特殊召唤。",
                "此卡不能通常召喚。必須解放滿足條件的「大神官 德那杜」來特殊召喚。"):
        assert one(src, tgt, tgt_lang="zh-CN") == [], tgt
    # a plain Tribute of a named card stays this card's own procedure: against the named card's effect
    # it is a method difference
    plain = ('This card cannot be Normal Summoned or Set. This card can only be Special Summoned by Tributing 1 '
             '"Great Dezard".')
    mm = one(plain, "这张卡不能通常召唤。「大神官 迪·扎德」的效果可以特殊召唤。", tgt_lang="zh-CN")
    assert [(m.kind, m.slot) for m in mm] == [("slot-differs", "method")]


RITUAL_PENDULUM = Frame.from_type_line("Dragon / Ritual / Pendulum / Effect", 10)


def test_self_named_ritual_line_over_an_own_effect_summon_is_not_a_ritual_spell():
    """OCG 以“<this card>”降临 over 此卡仅可以此卡的效果特殊召唤 restates the own effect (the English has
    no Ritual Spell); the same self-named line over 仅可以仪式召唤方式特殊召唤 is a real Ritual Spell
    (a Pendulum Ritual Monster whose Pendulum Effect Ritual Summons it)."""
    def pair(en_text, zh_text, en_name, zh_name):
        return validate([Card(id=1, name=en_name, lang="en", text=en_text, frame=RITUAL_PENDULUM)],
                        [Card(id=1, name=zh_name, lang="zh-CN", text=zh_text, frame=RITUAL_PENDULUM)])
    own = pair("Must be Special Summoned by its own effect. You can only Special Summon \"Star Dragon\" once per turn.",
               "以“星之龙”降临\n此卡仅可以此卡的效果特殊召唤。自己１回合仅可特殊召唤１次“星之龙”。", "Star Dragon", "星之龙")
    assert own.cards == []
    raven = pair('You can Ritual Summon this card with "Star Raven". Must be Ritual Summoned.',
                 "以“星之鸦”降临\n此卡仅可以仪式召唤方式特殊召唤。", "Star Raven", "星之鸦")
    assert raven.cards == []
    # the Ritual Spell kept on the Chinese side: dropping it from the English text shows it as extra,
    # low (a Ritual Monster's Ritual Spell named on one side only is a reminder)
    en_c = Card(id=1, name="Star Raven", lang="en", text="Must be Ritual Summoned.", frame=RITUAL_PENDULUM)
    zh_c = Card(id=1, name="星之鸦", lang="zh-CN", text="以“星之鸦”降临\n此卡仅可以仪式召唤方式特殊召唤。", frame=RITUAL_PENDULUM)
    assert validate([en_c], [zh_c]).cards == []
    low = validate([en_c], [zh_c], min_severity="low")
    assert [(m.kind, m.condition, m.severity) for c in low.cards for m in c.mismatches] == [
        ("extra-in-target", "ritual-summon-with", "low")]


def test_self_named_ritual_line_needs_the_cards_name():
    from extractor.conditions import RitualSummonWith
    text = "以“星之龙”降临\n此卡仅可以此卡的效果特殊召唤。"
    kinds = lambda **kw: [type(c) for c in analyze_text(text, "zh-CN", RITUAL_PENDULUM, **kw)[0]]
    assert RitualSummonWith in kinds()
    assert RitualSummonWith in kinds(name="别的龙")
    assert RitualSummonWith not in kinds(name="星之龙")


RITUAL = Frame.from_type_line("Aqua / Ritual / Effect", 8)
FUSION_TYPE = Frame.from_type_line("Machine / Fusion / Effect", 8)


def test_conditions_the_cards_kind_imposes_are_low_on_one_side_only():
    """Seed 000: a Ritual Monster's "Cannot be Normal Summoned or Set. Must first be Ritual Summoned."
    against a Chinese text that only names the Ritual Spell is wording; on a Main Deck monster the same
    missing "Cannot be Normal Summoned/Set" is a real (high) difference."""
    src = ('Cannot be Normal Summoned or Set. Must first be Ritual Summoned. You can Ritual Summon this card with '
           'any "Gishki" Ritual Spell Card.')
    tgt = "名字带有「遗式」的仪式魔法卡降临。1回合1次,可以从手卡把1只名字带有「遗式」的怪兽丢弃。"
    assert one(src, tgt, RITUAL, tgt_lang="zh-CN") == []
    low = validate([en(1, src, RITUAL)], [en(1, tgt, RITUAL, lang="zh-CN")], min_severity="low")
    got = sorted((m.kind, m.condition, m.severity) for c in low.cards for m in c.mismatches)
    assert got == [("missing-in-target", "cannot-normal-summon", "low"),
                   ("missing-in-target", "special-summon-method", "low")]
    # with no card type, the Chinese Ritual Spell line says the same
    assert one(src, tgt, Frame(), tgt_lang="zh-CN") == []
    # a Main Deck monster: still high
    mm = one("Cannot be Normal Summoned/Set. Must be Special Summoned by \"X\".",
             "这张卡用「X」的效果才能特殊召唤。", tgt_lang="zh-CN")
    assert [(m.kind, m.condition, m.severity) for m in mm] == [("missing-in-target", "cannot-normal-summon", "high")]


def test_no_gy_ban_difference_next_to_a_nomi():
    """"cannot be Special Summoned except by ..." (Nomi) already rules out the GY: the Chinese
    此卡不可从墓地特殊召唤 next to it is not reported as extra (the only/first difference still is)."""
    src = ('"X-Head Cannon" + "Z-Metal Tank"\nThis card cannot be Special Summoned except by banishing the above '
           'monsters on your side of the field; then you can Special Summon this card from your Extra Deck.')
    tgt = "“X－首领加农”＋“Z－金属履带”\n此卡从额外牌组仅可在将自己场上的上述卡除外的情况下特殊召唤。此卡不可从墓地特殊召唤。"
    mm = one(src, tgt, FUSION_TYPE, tgt_lang="zh-CN")
    assert [(m.kind, m.slot) for m in mm] == [("slot-differs", "first_only")]


def test_unknown_card_type_has_no_default_location():
    """With no card type (i18n JSON), an unstated procedure location is not compared, and a Chinese
    procedure that states the Extra Deck is still "must first"."""
    src = ("This card can only be Special Summoned from your Extra Deck by banishing the above cards you control. "
           "(You do not use \"Polymerization\".)")
    # 只有…才能 with no Extra Deck is "only"; the older English "can only be Special Summoned" decides
    # neither way (first_only "either"); no locations slot either
    assert one(src, "这张卡只有将自己场上存在的上述卡从游戏中除外才能特殊召唤。", Frame(), tgt_lang="zh-CN") == []
    assert one(src, "把自己场上存在的上记的卡除外的场合才能从融合卡组特殊召唤。", Frame(), tgt_lang="zh-CN") == []


def test_a_while_alone_against_the_chinese_procedure_that_carries_it():
    """Older English "cannot be Special Summoned except while you control ..." is all it says of the
    Special Summon; the Chinese procedure sentence with that situation (有…存在的场合才能特殊召唤)
    says the same: nothing reported."""
    src = ('Cannot be Normal Summoned or Set. This card cannot be Special Summoned except while you control 2 '
           'or more face-up "X-Saber" monsters.')
    tgt = "这张卡不能通常召唤。自己场上有名字带有「X-剑士」的怪兽表侧表示2只以上存在的场合才能特殊召唤。"
    assert one(src, tgt, tgt_lang="zh-CN") == []


def test_either_or_halves_inside_one_chinese_phrase_are_both_kept():
    src = ('Cannot be Normal Summoned/Set. This card cannot be Special Summoned except with its own effect or with '
           '"Assault Mode Activate".')
    tgt = "此卡不可通常召唤，仅可通过“爆裂模式”的效果（及此卡的②效果）特殊召唤。"
    assert one(src, tgt, tgt_lang="zh-CN") == []


def test_must_first_by_own_effect_is_implied_by_cannot_normal_summon_and_a_self_summon_effect():
    src = ("Cannot be Normal Summoned/Set. When you Normal Summon a Level 4 monster: You can Special Summon this "
           "card from your hand.")
    tgt = "此卡不可通常召唤，以此卡的效果可特殊召唤。①：自己把4星怪兽通常召唤时才能发动。此卡从手牌特殊召唤。"
    assert one(src, tgt, tgt_lang="zh-CN") == []
    # without "Cannot be Normal Summoned/Set" on the English side it is reported
    mm = one("When you Normal Summon a Level 4 monster: You can Special Summon this card from your hand.", tgt,
             tgt_lang="zh-CN")
    assert ("extra-in-target", "cannot-normal-summon") in [(m.kind, m.condition) for m in mm]


def test_cli_names_every_unreadable_record_with_its_side(tmp_path):
    """Bad lines on either side are listed on the terminal (side and line), all of them in
    --errors FILE; the readable cards are still compared."""
    good = {"id": 7, "name": "Seven", "lang": "en", "text": "Cannot be Special Summoned."}
    src, tgt = tmp_path / "s.jsonl", tmp_path / "t.jsonl"
    src.write_text(json.dumps(good) + "\n{not json\n")
    tgt.write_text(json.dumps(good) + "\n" + json.dumps({"name": "No Id", "lang": "en", "text": "x."}) + "\n[1, 2\n")
    errs = tmp_path / "errors.txt"
    r = CliRunner().invoke(main, ["validate", str(src), str(tgt), "--errors", str(errs)])
    assert r.exit_code == 0, r.output
    assert "3 records could not be read or paired" in r.output
    assert "source: line 2" in r.output and "target: line 3" in r.output and "No Id" in r.output
    lines = errs.read_text().splitlines()
    assert len(lines) == 3 and lines[0].startswith("source: line 2") and all(l.startswith(("source:", "target:")) for l in lines)
    import re
    assert re.search(r"cards compared\s*│\s*1\b", r.output)  # the good card was still compared


def test_a_condition_the_other_side_may_state_in_unread_words_is_low_and_points_there():
    """The Chinese has 只能…特殊召唤 wording the catalog does not read: the English procedure
    missing there is uncertain (low, pointing at that wording); a Chinese text with no such
    wording at all keeps the high mismatch."""
    src = "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 2 monsters."
    odd = "这张卡不能通常召唤。只要有2只怪兽被除外了这张卡就只能那样特殊召唤。"
    mm = one(src, odd, tgt_lang="zh-CN")
    assert mm == []
    low = validate([en(1, src)], [en(1, odd, lang="zh-CN")], min_severity="low").cards[0].mismatches
    m = next(m for m in low if m.kind == "missing-in-target")
    assert m.severity == "low" and "uncertain" in m.detail
    assert odd[m.target_span[0]:m.target_span[1]] == m.target_phrase and "只能" in m.target_phrase
    silent = one(src, "这张卡不能通常召唤。这张卡的攻击力上升500。", tgt_lang="zh-CN")
    assert [(m.kind, m.severity) for m in silent] == [("missing-in-target", "high")]


def test_or_written_two_ways_is_one_location_list_and_no_register():
    """或是 and 或者 both mean "or": 从手牌或是牌组 / 从手卡或者卡组 are the same locations, and 或是
    marks no register."""
    from extractor.normalize.zh import registers
    a = "这张卡可以把自己场上1只「火灵使 比达」和1只炎属性怪兽送去墓地,从手卡或者卡组特殊召唤。"
    b = "此卡可以將我方場上存在的1隻「火靈使 比達」與其他1隻炎屬性怪獸送入墓地，從手牌或是牌組特殊召喚。"
    assert one(a, b, src_lang="zh-CN", tgt_lang="zh-TW") == []
    assert "或是" in b and registers("从手卡或是卡组特殊召唤。这张卡不能通常召唤。") == ["community"]


def test_older_can_only_be_special_summoned_decides_neither_first_nor_only():
    old = ('This card cannot be Normal Summoned or Set. This card can only be Special Summoned while you control '
           '"Toon World".')
    for zh in ("这张卡不能通常召唤。仅能在自己场上有「卡通世界」存在的场合才能特殊召唤。",
               "这张卡不能通常召唤。自己场上有「卡通世界」存在的场合可以特殊召唤。"):
        assert [m.slot for m in one(old, zh, tgt_lang="zh-CN")] == [], zh
    # "Must first be" against 仅能 is still a difference
    new = 'Cannot be Normal Summoned/Set. Must first be Special Summoned (from your hand) while you control "Toon World".'
    assert [m.slot for m in one(new, "这张卡不能通常召唤。仅能在自己场上有「卡通世界」存在的场合才能特殊召唤。",
                                tgt_lang="zh-CN")] == ["first_only"]


# -- the rule registry: one case per rule, with the rule and without it -------------------------

RITUAL = Frame(kind="ritual", level=6)


def C(kind, span=(0, 4), **kw):
    """A condition with NO phrase and a meaningless language: rules must decide from the fields."""
    from extractor.conditions import CONDITION_CLASSES
    return CONDITION_CLASSES[kind](span=span, phrase="", pattern_id="t", lang="xx", **kw)


def _rule_cases():
    B, M = "builtin-special-summon", "must-be-special-summoned"
    return {
        "either-only-or-first": ([C(B, locations=("hand",), first=True, either=True)],
                                 [C(B, locations=("hand",), exclusive=True)], MAIN, {}, []),
        "only-from-extra-deck-is-first": ([C(B, locations=("extra",), first=True)],
                                          [C(B, exclusive=True, extra_deck_first=True)], FUSION, {}, []),
        "same-words-once": ([C(B, span=(0, 30))], [C(B, span=(0, 30)), C(B, span=(20, 30))], MAIN, {}, []),
        "event-summon-is-own-effect": ([C(M, method="own-effect")],
                                       [C(B, span=(0, 4)), C(M, span=(0, 4), method="own-effect")], MAIN, {}, []),
        "situation-carried-by-procedure": (
            [C("summon-condition-while"), C(B, span=(10, 20), locations=("hand",), first=True)],
            [C(B, exclusive=True, situation=True, weak=True)], MAIN, {}, []),
        "situation-only-when-is-not-nomi": (
            [C("summon-condition-while"), C(B, span=(10, 20), locations=("hand",), first=True)],
            [C(B, exclusive=True, situation=True, weak=True)], MAIN, {}, []),
        "first-and-none-agree": ([C(B, first=True)], [C(B)], MAIN, {}, []),
        "unstated-location-not-compared": ([C("special-summons-itself", locations=("gy",))],
                                           [C("special-summons-itself")], MAIN, {}, []),
        "extra-deck-never-normal-summoned": ([C("cannot-normal-summon")], [], FUSION, {},
                                             [("missing-in-target", None, "low")]),
        "must-first-be-its-own-summon": ([C("must-first-be-summoned-by", summon="fusion")], [], FUSION, {},
                                         [("missing-in-target", None, "low")]),
        "own-effect-first-is-self-summon": (
            [C(B), C(M, span=(10, 14), method="own-effect", first=True)],
            [C("cannot-normal-summon"), C("special-summons-itself", span=(10, 14))], MAIN, {},
            [("missing-in-target", None, "low"), ("extra-in-target", None, "high"), ("slot-differs", "method", "low")]),
        "ritual-spell-named": ([C("ritual-summon-with")], [], RITUAL, {}, [("missing-in-target", None, "low")]),
        "nomi-rules-out-the-gy": ([C("cannot-special-summon-from", locations=("gy",))],
                                  [C(M, span=(10, 14), method="named-card")], MAIN, {},
                                  [("missing-in-target", None, "low"), ("extra-in-target", None, "high")]),
        "effects-are-not-conditions": ([C("special-summons-itself")], [], MAIN, {}, []),
        "cut-off-text-lost-it": ([C("cannot-special-summon")], [], MAIN, {"target_truncated": True}, []),
        "set-allowed-is-wording": ([C("cannot-normal-summon", set_allowed=True)], [C("cannot-normal-summon")],
                                   MAIN, {}, [("slot-differs", "set_allowed", "low")]),
        "procedure-or-effect-is-wording": ([C(B, locations=("hand",))],
                                           [C("special-summons-itself", locations=("hand",))], MAIN, {},
                                           [("slot-differs", "method", "low")]),
        "bare-cai-only-is-weak": ([C(B, first=True)], [C(B, exclusive=True, weak=True)], MAIN, {},
                                  [("slot-differs", "first_only", "low")]),
        # the slot rules (issue 10 §9): their cases are in tests/test_validate_slots.py
        **__import__("test_validate_slots").slot_rule_cases(C, MAIN),
        "card-condition-or-player-lock": ([C("cannot-special-summon")], [C("player-lock", span=(0, 9), who="you")],
                                          MAIN, {}, [("slot-differs", "scope", "medium")]),
    }


def _summary(mm):
    return sorted(((m.kind, m.slot, m.severity) for m in mm), key=str)


def test_every_registered_rule_has_a_case_seed_and_decision():
    from extractor.validate import RULES
    assert sorted(RULES) == sorted(_rule_cases())
    for r in RULES.values():
        assert r.seed.strip() and r.decides.strip() and r.name == r.name.lower()


@pytest.mark.parametrize("name", sorted(_rule_cases()))
def test_rule_decides_its_case(name):
    """With the rule the case gives the expected mismatches; without it, something else."""
    from extractor.validate import compare_conditions
    src, tgt, frame, kw, expected = _rule_cases()[name]
    on = compare_conditions(src, tgt, frame, **kw)[0]
    off = compare_conditions(src, tgt, frame, skip_rules={name}, **kw)[0]
    assert _summary(on) == sorted(expected, key=str)
    assert _summary(off) != _summary(on)


def test_comparison_never_reads_phrase_or_language():
    """Changing the phrase and language of every condition changes no comparison result."""
    from extractor.validate import compare_conditions
    for name, (src, tgt, frame, kw, _exp) in _rule_cases().items():
        base = _summary(compare_conditions(src, tgt, frame, **kw)[0])
        scramble = [c.model_copy(update={"phrase": "仅只才有存在 can only be Special Summoned", "lang": "zh"})
                    for c in src]
        other = [c.model_copy(update={"phrase": "此卡从额外卡组仅可", "lang": "en"}) for c in tgt]
        assert _summary(compare_conditions(scramble, other, frame, **kw)[0]) == base, name


def test_comparison_source_has_no_phrase_or_lang_tests():
    """The comparison modules read conditions only through the view's facts: no `.phrase` (other
    than the report's `where.phrase`) and no `.lang` in them."""
    import re
    from pathlib import Path

    import extractor.validate as pkg
    root = Path(pkg.__file__).parent
    for mod in ("rules", "pairing", "severity", "compare", "views"):
        src = (root / f"{mod}.py").read_text(encoding="utf-8")
        code = "\n".join(ln for ln in src.splitlines() if not ln.lstrip().startswith(("#", '"', "-", "``")))
        assert not re.search(r"\.lang\b", code), mod
        uses = re.findall(r"[\w.]*\.phrase\b", code)
        allowed = {"where.phrase", "a.where.phrase", "b.where.phrase", "v.where.phrase", "cond.phrase"}
        assert set(uses) <= allowed, (mod, uses)
        if "cond.phrase" in uses:
            assert mod == "views" and src.count("cond.phrase") == 1  # only to build Where (the report)


def test_comparison_is_pure_and_symmetric():
    """Inputs are not changed, a second call gives the same result, and swapping the sides swaps
    missing and extra (the carried situation is found whichever side states the while)."""
    from extractor.validate import compare_conditions
    en_side = [C("summon-condition-while"), C("builtin-special-summon", span=(10, 20), locations=("hand",), first=True),
               C("cannot-special-summon", span=(30, 40))]
    zh_side = [C("builtin-special-summon", exclusive=True, situation=True, weak=True)]
    before = [c.model_dump() for c in en_side + zh_side]
    a = compare_conditions(en_side, zh_side, MAIN)[0]
    b = compare_conditions(zh_side, en_side, MAIN)[0]
    assert compare_conditions(en_side, zh_side, MAIN)[0] == a
    assert [c.model_dump() for c in en_side + zh_side] == before
    flip = {"missing-in-target": "extra-in-target", "extra-in-target": "missing-in-target"}
    assert sorted((flip.get(m.kind, m.kind), m.condition) for m in b) == sorted((m.kind, m.condition) for m in a)
    assert [(m.kind, m.condition) for m in a] == [("missing-in-target", "cannot-special-summon")]


# -- readings: fields set when the text is read ---------------------------------------------------

def _readings():
    from extractor.conditions import readings
    return [(r, ex, want) for fam in ("en", "zh") for r in readings(fam)
            for want, exs in ((True, r.examples_match), (False, r.examples_no_match)) for ex in exs]


@pytest.mark.parametrize("reading,phrase,want", _readings(),
                         ids=[f"{r.field}-{w}-{i}" for i, (r, _p, w) in enumerate(_readings())])
def test_reading_example(reading, phrase, want):
    from extractor.conditions import CONDITION_CLASSES
    assert reading.read(phrase) is want
    for kind in reading.kinds:  # and the field is set when such a condition is built
        c = CONDITION_CLASSES[kind](span=(0, len(phrase)), phrase=phrase, pattern_id="t", lang="zh")
        assert getattr(c, reading.field) is want


def test_readings_are_read_from_the_text_and_explicit_values_win():
    conds = analyze_text("这张卡不能通常召唤。自己场上有「卡通世界」存在的场合才能特殊召唤。", "zh-CN", MAIN)[0]
    proc = next(c for c in conds if c.kind == "builtin-special-summon")
    assert proc.situation and proc.weak and not proc.extra_deck_first
    from extractor.conditions import BuiltinSpecialSummon
    c = BuiltinSpecialSummon(span=(0, 2), phrase="自己场上有「X」存在的场合才能特殊召唤", pattern_id="t", lang="zh", weak=False)
    assert c.weak is False and c.situation is True
    en_old = analyze_text("This card can only be Special Summoned by Tributing 1 monster.", "en", MAIN)[0]
    assert [c.either for c in en_old if c.kind == "builtin-special-summon"] == [True]


def test_failed_analysis_is_reported_with_its_side(monkeypatch):
    import extractor.validate.check as chk
    real = chk._conds

    def flaky(card, frame, cat):
        if card.lang == "zh-CN":
            raise ValueError("regex search over 1.0 s")
        return real(card, frame, cat)
    monkeypatch.setattr(chk, "_conds", flaky)
    rep = validate([en(1, "Cannot be Special Summoned.")], [en(1, "这张卡不能特殊召唤。", lang="zh-CN")])
    [m] = rep.cards[0].mismatches
    assert (m.kind, m.side, m.severity) == ("analysis-failed", "target", "high")
    assert "target text" in m.detail and "regex search over 1.0 s" in m.detail
    assert "empty-text" not in rep.mismatch_counts() or rep.mismatch_counts()["empty-text"] == 0


# -- the command line: --fail-on, --input-format, --ignore-missing, missing files, Ctrl-C ----------

def _pair_files(tmp_path):
    src, tgt = tmp_path / "s.jsonl", tmp_path / "t.jsonl"
    rec = {"lang": "en", "type": "Fiend / Effect", "level": 8}
    src.write_text("\n".join(json.dumps({**rec, **d}) for d in (
        {"id": 7, "name": "Seven", "text": "Cannot be Normal Summoned/Set. Cannot be Special Summoned from the GY."},
        {"id": 8, "name": "Eight", "text": "Cannot be Special Summoned."},
        {"id": 9, "name": "Nine", "text": "Cannot be Special Summoned."})) + "\n")
    tgt.write_text("\n".join(json.dumps({**rec, **d}) for d in (
        {"id": 7, "name": "Seven", "text": "Cannot be Normal Summoned/Set. Cannot be Special Summoned from the Deck."},
        {"id": 8, "name": "Eight", "text": "Cannot be Special Summoned."})) + "\n")
    return src, tgt


def test_cli_fail_on_exits_1_at_or_above_the_severity(tmp_path):
    src, tgt = _pair_files(tmp_path)  # card 7: a locations difference (medium); card 9: one side only (low)
    base = ["validate", str(src), str(tgt), "--ignore-missing"]
    r = CliRunner().invoke(main, base + ["--fail-on", "medium"])
    assert r.exit_code == 1, r.output
    assert "1 mismatch of severity medium or worse (--fail-on medium)" in r.output
    assert CliRunner().invoke(main, base + ["--fail-on", "high"]).exit_code == 0
    assert CliRunner().invoke(main, base).exit_code == 0
    # a card on one side only is a low card problem: it fails --fail-on low unless --ignore-missing
    low = ["validate", str(src), str(tgt), "--min-severity", "low", "--fail-on", "low"]
    r = CliRunner().invoke(main, low)
    assert r.exit_code == 1 and "2 mismatches of severity low or worse" in r.output
    r = CliRunner().invoke(main, ["validate", str(src), str(tgt), "--fail-on", "low"])
    assert r.exit_code == 2 and "--min-severity" in r.output  # low mismatches are not reported at medium


def test_cli_ignore_missing_keeps_one_side_cards_out(tmp_path):
    src, tgt = _pair_files(tmp_path)
    out = tmp_path / "o.jsonl"
    # a card on one side only is a low card problem: reported from --min-severity low
    r = CliRunner().invoke(main, ["validate", str(src), str(tgt), "-o", str(out), "--min-severity", "low"])
    assert r.exit_code == 0 and sorted(json.loads(l)["id"] for l in out.read_text().splitlines()) == [7, 9]
    r = CliRunner().invoke(main, ["validate", str(src), str(tgt), "-o", str(out), "--ignore-missing",
                                  "--min-severity", "low"])
    assert r.exit_code == 0 and [json.loads(l)["id"] for l in out.read_text().splitlines()] == [7]
    assert "card-missing" not in r.output


def test_cli_input_format_applies_to_both_sides_and_is_overridden(tmp_path):
    src, tgt = _pair_files(tmp_path)
    r = CliRunner().invoke(main, ["validate", str(src), str(tgt), "--input-format", "jsonl", "--ignore-missing",
                                  "--fail-on", "medium"])
    assert r.exit_code == 1 and "cards compared" in r.output
    # the wrong format for both sides is an error; a per-side format overrides it
    r = CliRunner().invoke(main, ["validate", str(src), str(tgt), "--input-format", "cdb"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["validate", str(src), str(tgt), "--input-format", "cdb", "--source-format", "jsonl",
                                  "--target-format", "jsonl", "--ignore-missing"])
    assert r.exit_code == 0, r.output


def test_cli_missing_input_file_is_named(tmp_path):
    src, _tgt = _pair_files(tmp_path)
    for args, name in ((["validate", str(tmp_path / "nope.cdb"), str(src)], "nope.cdb"),
                       (["validate", str(src), str(tmp_path / "gone.jsonl")], "gone.jsonl")):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and f"no such file: {tmp_path / name}" in r.output, r.output


def test_cli_ctrl_c_exits_130_with_one_line(tmp_path, monkeypatch):
    import extractor.validate as pkg
    src, tgt = _pair_files(tmp_path)

    def interrupted(*a, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(pkg, "validate", interrupted)
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["validate", str(src), str(tgt), "-o", str(out)])
    assert r.exit_code == 130 and r.output.strip().splitlines() == ["interrupted: no output written"]
    assert not out.exists()


def test_progress_callback_counts_every_passcode(tmp_path):
    src, tgt = _pair_files(tmp_path)
    seen = []
    validate(str(src), str(tgt), progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("entry, message", [
    ({"kinds": ["builtin-special-summon"], "regex": "x"}, "needs 'field' and 'kinds'"),
    ({"field": "weak", "kinds": ["cannot-normal-summon"], "regex": "x"}, "'cannot-normal-summon' has no boolean field"),
    ({"field": "locations", "kinds": ["builtin-special-summon"], "regex": "x"}, "has no boolean field 'locations'"),
    ({"field": "weak", "kinds": ["builtin-special-summon"], "regex": "("}, "bad or missing regex"),
    ({"field": "weak", "kinds": ["builtin-special-summon"], "regex": "才", "seed": "s",
      "examples": {"match": ["才能"]}}, "needs 'seed' and examples"),
])
def test_malformed_reading_is_a_clear_error(entry, message):
    from extractor.conditions import ReadingError, parse_readings
    with pytest.raises(ReadingError, match=message) as e:
        parse_readings({"language": "zh", "readings": [entry]}, "patterns/terms/readings-zh.yaml")
    assert "patterns/terms/readings-zh.yaml" in str(e.value)


def test_a_text_in_another_language_is_a_card_problem_not_a_comparison(tmp_path):
    """Japanese text in the zh-CN slot (shared Han characters, issue 11 §4): reported with the
    side and the warning, and not compared (its conditions would be read from the wrong language)."""
    p = tmp_path / "cards.jsonl"
    ja = "このカードは通常召喚できない。このカードは墓地からの特殊召喚はできない。"
    _yaml_yugi(p, [(1, {"en": "Cannot be Normal Summoned/Set.", "zh-CN": ja}),
                   (2, {"en": "Cannot be Normal Summoned/Set.", "zh-CN": "这张卡不能通常召唤。"})])
    rep = validate(p, None, source_lang="en", target_lang="zh-CN")
    assert [(c.id, [(m.kind, m.side, m.severity) for m in c.mismatches]) for c in rep.cards] == [
        (1, [("language-mismatch", "target", "high")])]
    assert "looks like ja, read as zh-CN" in rep.cards[0].mismatches[0].detail
    assert (rep.cards_compared, rep.cards_agreeing) == (1, 1)
