"""The shortcuts of the third speed pass (docs/speed.md) give exactly what the long way gives.

- ``pipeline.dump_result`` is ``CardResult.model_dump(mode="json")``, dict for dict;
- a card with no conditions gets the profile and tags of ``build_profile([], frame)``;
- coverage's sentence cutting and effect starts equal the plain loops they replaced;
- a material line read twice gives equal objects (``read_material_line`` keeps its results).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import extractor.pipeline as pl
from extractor.coverage import _sentences, _unit_start, _unit_starts, coverage_rules
from extractor.frame import Frame
from extractor.normalize import normalize
from extractor.pipeline import Card, CardResult, analyze, dump_result
from extractor.profile import build_profile
from extractor.readers import read_cards
from extractor.tags import tags_from_profile

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [ROOT / "corpora/sample" / f for f in ("cards.jsonl", "cards.cdb", "yaml-yugi.jsonl", "ygoprodeck.json",
                                                  "i18n-zh-TW.json")]


def _sample_cards():
    for path in SAMPLES:
        for item in read_cards(path):
            if item.card is not None:
                yield item.card
    for lang in ("zh-CN", "zh-TW", "ja"):
        for item in read_cards(ROOT / "corpora/sample/yaml-yugi.jsonl", lang):
            if item.card is not None:
                yield item.card


def test_dump_result_is_model_dump_for_every_sample_card():
    n = shortcut = 0
    for card in _sample_cards():
        res = analyze(card)
        assert dump_result(res) == res.model_dump(mode="json"), (card.id, card.lang)
        assert list(dump_result(res)) == list(CardResult.model_fields)
        n += 1
        shortcut += not res.conditions and id(res.profile) in pl._SHARED_PROFILE_JSON  # (dumped above)
    assert n > 100 and 0 < shortcut < n  # both ways were taken


def test_dump_result_of_an_error_and_of_a_changed_result():
    res = analyze(Card(id=5, name="X", lang="xx", text="Cannot be Special Summoned."))
    assert res.error and dump_result(res) == res.model_dump(mode="json")
    res = analyze(Card(id=6, name="Y", lang="en", text="A plain monster.", frame=Frame.from_type_line("Dragon", 4)))
    res.warnings.append("added later")  # tag puts the reader's warnings in front: the dict must show it
    res.tags.append("x")
    assert dump_result(res)["warnings"][-1] == "added later" and dump_result(res)["tags"] == ["x"]
    assert dump_result(res) == res.model_dump(mode="json")


def test_the_field_groups_of_dump_result_are_the_model_fields():
    groups = pl._SCALAR_FIELDS + pl._LIST_FIELDS + pl._OTHER_FIELDS
    assert sorted(groups) == sorted(CardResult.model_fields) and len(set(groups)) == len(groups)


@pytest.mark.parametrize("frame", [Frame.from_type_line("Dragon / Effect", 4), Frame.from_type_line("Dragon / Effect", 7),
                                   Frame.from_type_line("Dragon / Synchro / Effect", 8), Frame.from_type_line("Spell"),
                                   Frame.from_type_line("Spellcaster / Gemini / Effect", 5), Frame()])
def test_a_card_with_no_conditions_gets_the_profile_of_its_frame(frame):
    res = analyze(Card(id=1, name="Z", lang="en", text="This monster has no summoning wording at all.", frame=frame))
    assert res.conditions == []
    expected = build_profile([], frame)
    assert res.profile == expected and res.tags == tags_from_profile(expected)
    again = analyze(Card(id=2, name="W", lang="en", text="Nor has this one.", frame=frame))
    assert again.profile is res.profile  # one object per frame, shared
    assert again.tags == res.tags and again.tags is not res.tags  # the tag list is each card's own


def _sentences_reference(text, start, end, fam):
    """The loop :func:`_sentences` had before the third pass."""
    cuts = [start]
    for m in coverage_rules(fam).sentence_end.finditer(text, start, end):
        cut = m.start() if m.group() == "●" else m.end()
        if cut > cuts[-1]:
            cuts.append(cut)
    cuts.append(end)
    out = []
    for s, e in zip(cuts, cuts[1:]):
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


EDGE_TEXTS = ["", " ", "A. B.", "A.\n\nB!", "●x\n●y", "。。", "x.●y", " \u3000a\u3000. b ", "a.\u2028b", "①：a。②：b\n●c",
              "Cannot be Normal Summoned/Set. Must be Special Summoned.", "a!?b", "\n\n", "x. ", ". x"]


def test_sentences_and_unit_starts_equal_the_plain_loops():
    texts = EDGE_TEXTS + [normalize(c.text, c.lang).text for c in _sample_cards() if c.lang != "ja"]
    for t in texts:
        for fam in ("en", "zh"):
            for start, end in ((0, len(t)), (min(1, len(t)), len(t)), (0, len(t) // 2)):
                assert _sentences(t, start, end, coverage_rules(fam)) == _sentences_reference(t, start, end, fam), (t, fam, start, end)
        starts = _unit_starts(t, coverage_rules("zh"))
        for s in range(len(t)):
            plain = max(max(t.rfind(ch, 0, s + 1) for ch in "\n●①②③④⑤⑥⑦⑧⑨⑩"), 0)
            assert _unit_start(t, s, starts) == plain, (t, s)


def test_a_material_line_read_twice_is_equal():
    import extractor.patterns  # noqa: F401 (the slot readers need the catalog's fragments)
    from extractor.slots import read_material_line

    a = read_material_line("synchro", "1 Tuner + 1+ non-Tuner monsters", "en")
    b = read_material_line("synchro", "1 Tuner + 1+ non-Tuner monsters", "en")
    assert a == b and a.tuner == (1, 1) and a.non_tuner == (1, None)
    assert read_material_line("xyz", "2 Level 4 monsters", "en").level == 4


def test_the_budget_of_a_short_text_starts_at_its_first_window(monkeypatch):
    """A short text reads no clock; one that may need windows counts from the start; a short one
    that turns long still has a budget from its first window on."""
    seen = []

    class Spy(pl._Budget):
        def __init__(self, long: bool = True):
            seen.append(long)
            super().__init__(long)

    monkeypatch.setattr(pl, "_Budget", Spy)
    frame = Frame.from_type_line("Fiend", 4)
    analyze(Card(id=1, name="S", lang="en", text="Cannot be Special Summoned.", frame=frame))
    analyze(Card(id=2, name="L", lang="en", text="Cannot be Special Summoned. " * 60, frame=frame))
    assert seen == [False, True]
    b = pl._Budget(long=False)
    assert b.deadline is None
    text = "Cannot be Special Summoned. " * 200  # longer than one window
    out = b.run(pl.load_catalog(), text, "en", 0, len(text), ("monster", "any"))
    assert b.deadline is not None and out
