"""The spaCy component ``summoning_conditions`` (extractor/spacy_component.py)."""
import subprocess
import sys

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin

import extractor.spacy_component as sc
from extractor.conditions import CONDITION_CLASSES, CannotNormalSummon, MustBeSpecialSummoned
from extractor.frame import Frame
from extractor.patterns import load_catalog
from extractor.pipeline import analyze_text

from conftest import ROOT

EN = ("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT "
      "and 1 DARK monster from your GY. Cannot be Special Summoned from the GY.")
EN_OVERLAP = "Cannot be Normal Summoned/Set. Must be Special Summoned by card effect."
ZH_CN = "这张卡不能通常召唤。用把自己墓地的光属性和暗属性的怪兽各1只除外的方式才能从手卡特殊召唤。"
ZH_TW = "這張卡不能通常召喚。用把自己墓地的光屬性和暗屬性的怪獸各1隻除外的方式才能從手卡特殊召喚。"
NONE_EN = "A legendary dragon that is a powerful engine of destruction."
NONE_ZH = "以高攻击力著称的传说之龙。任何对手都能粉碎，其破坏力不可估量。"


def _nlp(spacy_lang="en", **config):
    nlp = spacy.blank(spacy_lang)
    nlp.add_pipe("summoning_conditions", config=config)
    return nlp


def _has_zh_patterns() -> bool:
    return bool(load_catalog().by_lang.get("zh"))


needs_zh = pytest.mark.skipif(not _has_zh_patterns(), reason="no Chinese patterns in patterns/zh yet")


def _check_against_pipeline(doc, lang, frame=None):
    """The spans are exactly the conditions of analyze_text (same matcher), token-aligned."""
    conds = analyze_text(doc.text, lang, frame)[0]
    spans = list(doc.spans["summoning_conditions"])
    assert len(spans) == len(conds)
    for span, c in zip(spans, conds):
        s, e = c.span
        assert doc.text[s:e] == c.phrase
        # spaCy keeps whitespace outside tokens: compare with the phrase's non-blank characters
        s += len(c.phrase) - len(c.phrase.lstrip())
        e -= len(c.phrase) - len(c.phrase.rstrip())
        assert span.label_ == c.kind
        assert span._.pattern_id == c.pattern_id
        assert span._.condition == c
        assert isinstance(span._.condition, CONDITION_CLASSES[c.kind])
        assert span.start_char <= s < e <= span.end_char
        # "expand": the span starts in the token holding the first character, ends with the last one
        assert span[0].idx <= s < span[0].idx + len(span[0].text) + 1
        assert span[-1].idx < e <= span[-1].idx + len(span[-1].text)
    return spans, conds


def test_import_registers_the_factory():
    assert Language.has_factory("summoning_conditions")
    assert Span_has("pattern_id") and Span_has("condition")


def Span_has(name):
    from spacy.tokens import Span
    return Span.has_extension(name)


def test_entry_point_works_without_importing_the_module():
    code = ("import spacy, sys; nlp = spacy.blank('en'); nlp.add_pipe('summoning_conditions'); "
            "d = nlp('Cannot be Special Summoned.'); "
            "print([s.label_ for s in d.spans['summoning_conditions']])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT / "tests")
    assert r.returncode == 0, r.stderr
    assert "cannot-special-summon" in r.stdout


def test_english_spans_labels_and_extensions():
    doc = _nlp("en")(EN)
    spans, conds = _check_against_pipeline(doc, "en")
    kinds = {s.label_ for s in spans}
    assert "cannot-normal-summon" in kinds and "cannot-special-summon-from" in kinds
    cns = next(s for s in spans if s.label_ == "cannot-normal-summon")
    assert isinstance(cns._.condition, CannotNormalSummon) and cns._.condition.set_allowed is False
    assert cns.text.startswith("Cannot be Normal Summoned")
    assert "nomi" in doc._.summoning_tags
    assert doc._.summoning_tags == analyze_text(EN, "en")[2]


def test_overlapping_conditions_are_all_kept():
    doc = _nlp("en")(EN_OVERLAP)
    spans, conds = _check_against_pipeline(doc, "en")
    assert any(isinstance(c, MustBeSpecialSummoned) for c in conds)
    overlapping = [(a, b) for i, a in enumerate(spans) for b in spans[i + 1:]
                   if a.start < b.end and b.start < a.end]
    conds_overlap = [(a, b) for i, a in enumerate(conds) for b in conds[i + 1:]
                     if a.span[0] < b.span[1] and b.span[0] < a.span[1]]
    assert len(overlapping) == len(conds_overlap)


def test_overlaps_on_identical_offsets_keep_their_own_condition(monkeypatch):
    """Two kinds on exactly the same characters: each span still finds its own condition."""
    text = "Cannot be Normal Summoned/Set."
    a = CannotNormalSummon(span=(0, 29), phrase=text[:29], pattern_id="t.a", lang="en")
    b = MustBeSpecialSummoned(span=(0, 29), phrase=text[:29], pattern_id="t.b", lang="en")
    c = CannotNormalSummon(span=(10, 16), phrase=text[10:16], pattern_id="t.c", lang="en", set_allowed=True)
    monkeypatch.setattr(sc, "analyze_text", lambda *a_, **k: ([a, b, c], None, ["x"], None, None))
    doc = _nlp("en")(text)
    spans = list(doc.spans["summoning_conditions"])
    assert [s._.pattern_id for s in spans] == ["t.a", "t.b", "t.c"]
    assert [s.label_ for s in spans] == ["cannot-normal-summon", "must-be-special-summoned", "cannot-normal-summon"]
    assert spans[0]._.condition == a and spans[1]._.condition == b and spans[2]._.condition == c
    assert spans[2].text == "Normal"


def test_no_condition_gives_an_empty_group():
    doc = _nlp("en")(NONE_EN)
    assert len(doc.spans["summoning_conditions"]) == 0
    assert doc._.summoning_tags == []


def test_frame_type_config_and_per_doc_override():
    text = "2 Tuners + 1+ non-Tuner monsters"
    plain = _nlp("en")(text)
    synchro = _nlp("en", frame_type="Dragon / Synchro / Effect", level=10)(text)
    assert "revive-limit" not in plain._.summoning_tags
    assert "revive-limit" in synchro._.summoning_tags
    nlp = _nlp("en")
    doc = nlp.make_doc(text)
    doc._.summoning_frame = "Dragon / Synchro / Effect"
    assert "revive-limit" in nlp(doc)._.summoning_tags


def test_bad_language_is_refused():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match="unsupported language"):
        nlp.add_pipe("summoning_conditions", config={"lang": "fr"})


def test_shares_the_catalog_of_tag():
    nlp = _nlp("en")
    assert nlp.get_pipe("summoning_conditions").catalog is load_catalog()
    assert not hasattr(sc, "Catalog")  # no second copy of the rules in the component


def test_doc_serialization_keeps_spans_and_conditions():
    nlp = _nlp("en")
    doc = nlp(EN)
    back = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert [(s.start, s.end, s.label_, s._.pattern_id) for s in back.spans["summoning_conditions"]] == \
           [(s.start, s.end, s.label_, s._.pattern_id) for s in doc.spans["summoning_conditions"]]
    assert [s._.condition for s in back.spans["summoning_conditions"]] == \
           [s._.condition for s in doc.spans["summoning_conditions"]]
    db = DocBin(store_user_data=True, docs=[doc])
    again = list(DocBin().from_bytes(db.to_bytes()).get_docs(nlp.vocab))[0]
    assert len(again.spans["summoning_conditions"]) == len(doc.spans["summoning_conditions"])


def test_tag_path_does_not_import_spacy():
    code = ("import sys, extractor.cli, extractor.pipeline, extractor.readers, extractor.writers; "
            "from extractor.pipeline import analyze_text; analyze_text('Cannot be Special Summoned.', 'en'); "
            "print('spacy' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_blank_zh_works_offline_with_the_char_segmenter():
    nlp = _nlp("zh")
    assert nlp.tokenizer.segmenter == "char"
    assert nlp.get_pipe("summoning_conditions").lang == "zh"
    doc = nlp(ZH_CN)
    _check_against_pipeline(doc, "zh")


@needs_zh
@pytest.mark.parametrize("lang,text", [("zh", ZH_CN), ("zh-CN", ZH_CN), ("zh-TW", ZH_TW), ("zh", ZH_TW)])
def test_chinese_simplified_and_traditional(lang, text):
    doc = _nlp("zh", lang=lang)(text)
    spans, conds = _check_against_pipeline(doc, lang)
    cns = [s for s in spans if s.label_ == "cannot-normal-summon"]
    assert cns, [s.label_ for s in spans]
    # offsets index the ORIGINAL text: a Traditional doc keeps its Traditional characters
    assert "不能通常召" in cns[0].text and cns[0].text[-1] in "唤喚"
    assert (cns[0].text[-1] == "喚") == (text == ZH_TW)
    assert cns[0]._.condition.lang == "zh"


@needs_zh
def test_chinese_text_with_no_condition():
    doc = _nlp("zh")(NONE_ZH)
    assert len(doc.spans["summoning_conditions"]) == 0 and doc._.summoning_tags == []


def test_frame_object_override():
    nlp = _nlp("en")
    doc = nlp.make_doc("This card is a plain card.")
    doc._.summoning_frame = Frame(kind="fusion", level=8)
    assert "revive-limit" in nlp(doc)._.summoning_tags
