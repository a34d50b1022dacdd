"""Every example of every cue in patterns/cues/ runs as a test; the unread-wording check."""
import pytest

from extractor.cues import load_cues, unread_cue
from extractor.normalize import normalize

CUES = [c for lang in ("en", "zh") for c in load_cues(lang)]
POS = [(c, t) for c in CUES for t in c.examples_match]
NEG = [(c, t) for c in CUES for t in c.examples_no_match]


@pytest.mark.parametrize("cue,text", POS, ids=[f"{c.lang}.{c.group}+{i}" for i, (c, _) in enumerate(POS)])
def test_cue_matches_its_examples(cue, text):
    assert cue.regex.search(normalize(text, cue.lang).text), f"{cue.lang} {cue.group} does not match {text!r}"


@pytest.mark.parametrize("cue,text", NEG, ids=[f"{c.lang}.{c.group}-{i}" for i, (c, _) in enumerate(NEG)])
def test_cue_rejects_its_negative_examples(cue, text):
    assert not cue.regex.search(normalize(text, cue.lang).text), f"{cue.lang} {cue.group} must not match {text!r}"


def test_cues_exist_for_both_languages():
    assert {c.lang for c in CUES} == {"en", "zh"}


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
