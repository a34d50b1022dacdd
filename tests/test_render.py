"""Canonical rendering (issue 10 §7): every condition kind prints in English and Simplified
Chinese, the issue's examples print as written, and parse -> render -> parse gives the same object
for the pattern examples that are one whole sentence."""
import sys
from pathlib import Path

import pytest

from extractor.conditions import CONDITION_CLASSES
from extractor.frame import Frame
from extractor.patterns import load_catalog
from extractor.pipeline import analyze_text
from extractor.render import NAME_PLACEHOLDER, RenderError, render, render_count
from extractor.slots import CardFilter, CostAction, MaterialLine, Requirement

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from roundtrip import diff, fold  # noqa: E402

BASE = {"span": (0, 1), "phrase": "x", "pattern_id": "test", "lang": "en"}
FRAMES = {k: Frame(kind=k) for k in ("fusion", "synchro", "xyz", "link")}


def _obj(kind: str, **kw):
    return CONDITION_CLASSES[kind](**{**BASE, **kw})


# one object of every condition kind, with the fields its class needs
SAMPLES = {
    "cannot-normal-summon": {},
    "cannot-special-summon": {},
    "cannot-special-summon-from": {"locations": ("gy",)},
    "must-be-special-summoned": {"method": "own-effect"},
    "special-summon-only-by": {"summon": "fusion"},
    "must-first-be-summoned-by": {"summon": "synchro"},
    "must-be-normal-summoned-by": {},
    "tributes-required": {"count": 3, "set_allowed": False},
    "tribute-summon-optional": {"count": 3},
    "normal-summon-without-tributes": {},
    "fusion-materials-only": {},
    "ritual-summon-with": {"ritual_spell": "Black Luster Ritual"},
    "summon-condition-while": {},
    "builtin-special-summon": {"locations": ("hand",)},
    "special-summons-itself": {"locations": ("gy",)},
    "gemini": {},
    "additional-normal-summon": {},
    "material-line": {"line": MaterialLine(summon="link", count=(2, None),
                                           parts=(((2, None), CardFilter(phrase="2+ Effect Monsters")),))},
    "tribute-rule": {"mode": "optional", "count": 1, "filter": CardFilter(phrase="Dinosaur monster",
                                                                         types=("Dinosaur",))},
    "player-lock": {"who": "you", "duration": "turn", "from_places": ("extra",)},
    "summon-limit": {"summon": "link", "limit": "once-per-turn", "name": "X"},
}


def test_every_condition_class_has_a_sample():
    assert set(SAMPLES) == set(CONDITION_CLASSES)


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_every_kind_renders_in_both_languages(kind, lang):
    text = render(_obj(kind, **SAMPLES[kind]), lang)
    assert text and "{" not in text and "}" not in text
    if lang == "en":
        assert text.isascii(), text
    else:
        assert any("\u4e00" <= ch <= "\u9fff" for ch in text), text


CHAOS = ('Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT and 1 DARK '
         'monster from your GY.')


def test_the_issue_procedure_renders_as_card_text_in_english_and_chinese():
    conds = analyze_text(CHAOS, "en")[0]
    assert [c.kind for c in conds] == ["cannot-normal-summon", "builtin-special-summon"]
    assert " ".join(render(c, "en") for c in conds) == CHAOS
    assert "".join(render(c, "zh") for c in conds) == "这张卡不能通常召唤。这张卡从自己墓地把光属性和暗属性的怪兽各1只除外的场合才能从手卡特殊召唤。"


def test_a_procedure_with_requirement_limit_position_and_opponent_field():
    p = _obj("builtin-special-summon", locations=("hand",), position="defense",
             requirement=Requirement(kind="control-no-monsters", phrase=""), limit="once-per-turn")
    assert render(p, "en", name="Wheeleder") == (
        'If you control no monsters, you can Special Summon this card (from your hand) in Defense Position. '
        'You can only Special Summon "Wheeleder" once per turn this way.')
    assert render(p, "zh", name="轮人") == (
        "自己场上没有怪兽存在的场合，这张卡可以从手卡守备表示特殊召唤。「轮人」的这个方法的特殊召唤1回合只能有1次。")
    lava = _obj("builtin-special-summon", locations=("hand",), exclusive=True, first=True, to_opponent_field=True,
                cost=(CostAction(action="tribute", count=(2, 2), places=("opp-field",),
                                 filter=CardFilter(phrase="monsters")),))
    assert render(lava, "en") == ("Must first be Special Summoned (from your hand) to your opponent's field by "
                                  "Tributing 2 monsters they control.")


def test_the_card_name_is_a_placeholder_when_not_given():
    p = _obj("builtin-special-summon", locations=("hand",), limit="once-per-duel")
    assert render(p, "en").endswith(f'"{NAME_PLACEHOLDER}" once per Duel this way.')


def test_material_lines_in_both_languages():
    conds = analyze_text("1 Tuner + 1+ non-Tuner monsters", "en", FRAMES["synchro"])[0]
    line = [c for c in conds if c.kind == "material-line"][0]
    assert render(line, "en") == "1 Tuner + 1+ non-Tuner monsters"
    zh = [c for c in analyze_text("调整＋调整以外的怪兽1只以上", "zh-CN", FRAMES["synchro"])[0] if c.kind == "material-line"][0]
    assert render(zh, "zh") == "调整＋调整以外的怪兽1只以上"
    xyz = [c for c in analyze_text("2 Level 4 monsters", "en", FRAMES["xyz"])[0] if c.kind == "material-line"][0]
    assert render(xyz, "en") == "2 Level 4 monsters"


def test_named_fusion_materials_print_without_a_count():
    line = MaterialLine(summon="fusion", count=(2, 2), parts=(
        ((1, 1), CardFilter(phrase='"Elemental HERO Avian"', names=("Elemental HERO Avian",))),
        ((1, 1), CardFilter(phrase='"Elemental HERO Burstinatrix"', names=("Elemental HERO Burstinatrix",)))))
    assert render(_obj("material-line", line=line), "en") == '"Elemental HERO Avian" + "Elemental HERO Burstinatrix"'


def test_tribute_rules_and_fixed_sentences():
    assert render(_obj("tribute-rule", mode="optional", count=1, filter=CardFilter(phrase="Dinosaur monster")),
                  "en") == "You can Tribute Summon this card by Tributing 1 Dinosaur monster."
    assert render(_obj("cannot-special-summon-from", locations=("gy",)), "en") == "Cannot be Special Summoned from the GY."
    assert render(_obj("cannot-special-summon-from", locations=("gy",)), "zh") == "这张卡不能从墓地特殊召唤。"
    assert render(_obj("special-summon-only-by", summon="ritual"), "en") == "Must be Ritual Summoned."


def test_an_english_filter_prints_its_typed_parts_in_chinese():
    a = CostAction(action="banish", count=(2, 2), places=("gy",),
                   filter=CardFilter(phrase="WATER monsters", attributes=("WATER",)))
    p = _obj("builtin-special-summon", exclusive=True, cost=(a,))
    assert render(p, "zh") == "这张卡从自己墓地把2只水属性怪兽除外的场合才能特殊召唤。"


def test_counts():
    assert render_count((2, 2), "en") == "2" and render_count((1, None), "en") == "1+"
    assert render_count((3, 5), "en") == "3+ (max. 5)" and render_count(None, "en") == ""
    assert render_count((1, None), "zh") == "1只以上"


def test_unknown_kinds_and_languages_are_clear_errors():
    with pytest.raises(RenderError, match="nonsense"):
        render({"kind": "nonsense"}, "en")
    with pytest.raises(RenderError, match="'ko'"):
        render(_obj("gemini"), "ko")


def test_a_dumped_object_renders_like_the_object():
    c = _obj("cannot-special-summon-from", locations=("deck",))
    assert render(c.model_dump(mode="json"), "en") == render(c, "en") == "Cannot be Special Summoned from the Deck."


def test_roundtrip_fold_and_diff_show_what_was_lost():
    assert fold('You can only Special Summon "Moon" once per turn this way. 2 or more', "en", "Moon") == \
        "you can only special summon this card once per turn this way 2+"
    text, lost = diff("must be special summoned by tributing monsters you control",
                      "must be special summoned by tributing monsters", "en")
    assert lost == ["you control"] and "-[you control]" in text


# --- parse -> render -> parse -------------------------------------------------------------------

def _without_phrases(v):
    """An object's slots without its words (``phrase`` at any depth: the words of the original text,
    which a canonical rendering rewrites) and without where it came from."""
    if isinstance(v, dict):
        return {k: _without_phrases(x) for k, x in v.items() if k not in ("phrase", "span", "pattern_id", "source")}
    if isinstance(v, (list, tuple)):
        return tuple(_without_phrases(x) for x in v)
    return v


def _whole_sentence_examples():
    """The pattern examples (``examples.match`` of every pattern) that are read as exactly one
    condition whose phrase is the whole example (folded as ``bench/roundtrip.py`` does)."""
    out = []
    for p in load_catalog().patterns:
        lang = "en" if p.lang == "en" else "zh-CN"
        frame = next((f for k, f in FRAMES.items() if k in p.id), None)
        for ex in p.examples_match:
            text = ex["text"] if isinstance(ex, dict) else ex
            whole = [c for c in analyze_text(text, lang, frame)[0] if fold(c.phrase, lang) == fold(text, lang)]
            if len(whole) != 1:
                continue  # not one whole-sentence condition (a phrase inside a longer text)
            out.append(pytest.param(p.id, text, lang, frame, id=f"{p.id}:{text[:40]}",
                                    marks=[pytest.mark.xfail(strict=True, reason=KNOWN_LOSSES[(p.id, text)])]
                                    if (p.id, text) in KNOWN_LOSSES else []))
    return out


_EITHER = "an alternative method (\"Must be either ... or ...\") is not kept on the object"
_ZH_SET = "the Chinese readings of set_allowed differ between these wordings and the canonical one"
_ZH_LEAD = "a lead sentence (仅可通过融合召唤及以下方法特殊召唤) is not kept; the procedure renders alone"
#: (pattern id, example) whose round trip is known to lose a slot, with what is lost.  The test is
#: strict: a case that starts to pass must be taken off this list.
KNOWN_LOSSES = {
    ("en.tribute-rule-tribute-first", "You can Tribute any number of WATER monsters for the Tribute Summon of this card."):
        "the canonical any-number wording is not read back",
    ("en.must-be-special-summoned-named-card", 'Must be either Special Summoned by "Dark Element", or Special Summoned '
     '(from your hand or GY) by shuffling into the Deck, 1 each of your "Sanga of the Thunder", "Kazejin", and "Suijin".'): _EITHER,
    ("en.must-be-special-summoned-procedure", 'Must be either Special Summoned by "Dark Element", or Special Summoned '
     '(from your hand or GY) by shuffling into the Deck, 1 each of your "Sanga of the Thunder", "Kazejin", and "Suijin".'): _EITHER,
    ("en.must-be-special-summoned-procedure", "Must be either Fusion Summoned, or Special Summoned (from your Extra Deck) "
     "to your opponent's Main Monster Zone by sending the above cards you control to the GY."):
        "zone_restricted has no wording of its own (which zone is not kept)",
    ("en.cannot-special-summon-except-method", "Cannot be Special Summoned, except by the effect of a Wyrm monster."):
        "the effect's source (a Wyrm monster) is not kept",
    ("en.cannot-special-summon-except-method", "Cannot be Special Summoned, except by a Wyrm monster's effect."):
        "the effect's source (a Wyrm monster) is not kept",
    ("en.builtin-special-summon-you-can", "You can Special Summon this card (from your hand) in Defense Position to your "
     'zone a Link Monster points to. You can only Special Summon "X" once per turn this way.'):
        "zone_restricted has no wording of its own (which zone is not kept)",
    ("en.builtin-special-summon-you-can", "You can discard Machine monster(s) whose total Levels equal 8 or more, then "
     "Special Summon this card (from your hand or GY)."): "the cost filter swallows the rest of the sentence",
    ("zh.tribute-rule-with-tributes", "这张卡召唤的场合,可以用1只祭品或者不用祭品作召唤。"): _ZH_SET,
    ("zh.normal-summon-without-tributes", "此卡可以不解放怪獸來召喚。"): _ZH_SET,
    ("zh.normal-summon-without-tributes", "此卡可以不必解放怪獸來通常召喚。"): _ZH_SET,
    ("zh.normal-summon-without-tributes", "这张卡召唤的场合,可以用1只解放或者不用解放作召唤。"): _ZH_SET,
    ("zh.summon-condition-while-only", "仅在自己场上有「鬼计」怪兽存在的场合,这张卡才能以表侧表示召唤。"):
        "summon-condition-while keeps no condition words",
    ("zh.summon-condition-while-only", "这张卡仅在自己场上没有等级5以上的怪兽存在的场合可以召唤。"):
        "summon-condition-while keeps no condition words",
    ("zh.additional-normal-summon-verb-first", "然后,可从手卡召唤1只「黑蔷薇之魔女」。"):
        "the immediate Summon is rendered as an additional Normal Summon",
    ("zh.builtin-special-summon-either-lead", "「DDDD 伟次元王巨弧危机」1回合1次,仅可通过融合召唤及以下方法特殊召唤。●将自己场上·墓地"
     "的上述卡除外的场合,可从额外卡组(里侧)特殊召唤。"): _ZH_LEAD,
    ("zh.builtin-special-summon-either-lead", "此卡仅可通过融合召唤及以下方法特殊召唤。●有雷族怪兽的效果在手牌发动过的回合,解放自己场上"
     "的1只雷族效果怪兽的情况下可从额外牌组特殊召唤。"): _ZH_LEAD,
    ("zh.builtin-special-summon-cost-then", "装备了「进化之茧」的「幼虫宝宝」4回合后（用自己的回合来数）作祭品来特殊召唤。"):
        "the requirement phrase is cut at the full-width parenthesis",
}


@pytest.mark.parametrize("pid,text,lang,frame", _whole_sentence_examples())
def test_parse_render_parse_gives_the_same_object(pid, text, lang, frame):
    whole = [c for c in analyze_text(text, lang, frame)[0] if fold(c.phrase, lang) == fold(text, lang)]
    c = whole[0]
    rendered = render(c, lang)
    back = [x for x in analyze_text(rendered, lang, frame)[0] if x.kind == c.kind]
    assert len(back) == 1, (rendered, back)
    assert _without_phrases(back[0].model_dump()) == _without_phrases(c.model_dump()), rendered


def test_most_whole_sentence_examples_round_trip():
    """The known losses stay a small share of the whole-sentence examples."""
    cases = _whole_sentence_examples()
    keys = {(p.values[0], p.values[1]) for p in cases}
    assert set(KNOWN_LOSSES) <= keys, set(KNOWN_LOSSES) - keys  # no stale entry
    assert len(cases) >= 150 and len(KNOWN_LOSSES) / len(cases) < 0.15


def test_explain_shows_the_rendering_under_the_original_phrase():
    from click.testing import CliRunner

    from extractor.cli import main

    old = "This card can only be Special Summoned by removing 2 WATER monsters in your Graveyard from play."
    r = CliRunner().invoke(main, ["explain", old, "--type", "Beast / Effect", "--level", "4"],
                           env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    out = r.output
    # the rendering starts in the phrase column on a later line than the original phrase
    assert out.index("│ = Can only be Special Summoned by banishing 2") > out.index("│ This card can only be Special Summoned"), out
    r = CliRunner().invoke(main, ["explain", "这张卡不能通常召唤。", "--lang", "zh-CN"], env={"COLUMNS": "250"})
    assert r.exit_code == 0 and "= 这张卡不能通常召唤。" in r.output
