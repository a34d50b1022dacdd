"""Every example of every cue in patterns/cues/ runs as a test; the unread-wording check."""
import pytest

from extractor.cues import load_cues, unread_cue
from extractor.normalize import normalize

CUES = [c for lang in ("en", "zh", "ja") for c in load_cues(lang)]
POS = [(c, t) for c in CUES for t in c.examples_match]
NEG = [(c, t) for c in CUES for t in c.examples_no_match]


@pytest.mark.parametrize("cue,text", POS, ids=[f"{c.lang}.{c.group}+{i}" for i, (c, _) in enumerate(POS)])
def test_cue_matches_its_examples(cue, text):
    assert cue.regex.search(normalize(text, cue.lang).text), f"{cue.lang} {cue.group} does not match {text!r}"


@pytest.mark.parametrize("cue,text", NEG, ids=[f"{c.lang}.{c.group}-{i}" for i, (c, _) in enumerate(NEG)])
def test_cue_rejects_its_negative_examples(cue, text):
    assert not cue.regex.search(normalize(text, cue.lang).text), f"{cue.lang} {cue.group} must not match {text!r}"


def test_cues_exist_for_every_language():
    assert {c.lang for c in CUES} == {"en", "zh", "ja"}


def test_ja_cues_have_the_groups_of_zh():
    assert {c.group for c in load_cues("ja")} == {c.group for c in load_cues("zh")}


def test_unread_ja_cue_maps_to_the_original():
    # full-width digits in the original: the span must point into the original text
    text = "このカードは通常召喚できない。自分の墓地の光属性モンスター１体を除外した場合のみ特殊召喚できる。"
    mt = normalize(text, "ja")
    span = unread_cue(mt, "ja", "special-summon-method", [])
    assert span is not None and text[span[0]:span[1]].startswith("自分の墓地") and text[span[1] - 1] == "る"
    assert unread_cue(mt, "ja", "special-summon-method", [span]) is None
    assert text[slice(*unread_cue(mt, "ja", "cannot-normal-summon", []))] == "通常召喚できない"


def test_unread_cue_skips_read_phrases_and_maps_to_the_original():
    text = "此卡不可通常召喚。僅能將自己場上存在的上述卡片從遊戲除外，才可以從融合牌組特殊召喚。"
    mt = normalize(text, "zh-TW")
    span = unread_cue(mt, "zh-TW", "special-summon-method", [])
    assert span is not None and text[span[0]:span[1]].startswith("僅能")
    # the same words read as a condition: no cue left; only a part of them read: the cue stays
    assert unread_cue(mt, "zh-TW", "special-summon-method", [span]) is None
    assert unread_cue(mt, "zh-TW", "special-summon-method", [(span[1] - 6, span[1])]) == span
    assert unread_cue(mt, "zh-TW", "cannot-normal-summon", [(0, 8)]) is None
    assert text[slice(*unread_cue(mt, "zh-TW", "cannot-normal-summon", []))] == "不可通常召喚"
