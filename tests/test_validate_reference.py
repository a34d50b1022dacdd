"""The reference mode of ``validate`` (issue 11 §3): every translation compared with the Japanese
original, saying which translation departs (extractor/validate/reference.py, the CLI's
``--reference``, the HTML report with the texts side by side)."""
from __future__ import annotations

import json

import orjson
import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.validate import (REFERENCE_FORMAT, ReferenceReport, iter_reference_output, reference_line_schema,
                                render_reference_html, validate_reference)
from extractor.frame import Frame
from extractor.patterns import load_catalog
from extractor.validate import Mismatch
from extractor.validate.reference import Finding

try:  # the headless-Chromium fixture of the two-text report's browser test
    from test_validate_html import browser  # noqa: F401
except pytest.skip.Exception:  # websocket-client missing: that test skips
    @pytest.fixture
    def browser():
        pytest.skip("websocket-client is not installed")

JA_NS = "このカードは通常召喚できない。"
EN_NS = "Cannot be Normal Summoned/Set."
ZH_NS = "这张卡不能通常召唤。"
JA_GY = "このカードは墓地からの特殊召喚はできない。"
EN_GY = "Cannot be Special Summoned from the GY."
ZH_GY = "这张卡不能从墓地特殊召唤。"
EN_DECK = "Cannot be Special Summoned from the Deck."
ZH_BANISHED = "这张卡不能从除外状态特殊召唤。"
HOSTILE = '<script>window.__xss = 1</script>"><img src=x onerror="window.__xss = 2">'

CARDS = [
    # 1: every text states the same: nothing reported
    (1, {"ja": JA_NS, "en": EN_NS, "zh-CN": ZH_NS}),
    # 2: the English drops "Cannot be Normal Summoned/Set": en departs alone; zh-CN agrees
    (2, {"ja": JA_NS + JA_GY, "en": EN_GY, "zh-CN": ZH_NS + ZH_GY}),
    # 3: both translations add the GY ban the Japanese does not state: they agree against ja
    (3, {"ja": JA_NS, "en": EN_NS + " " + EN_GY, "zh-CN": ZH_NS + ZH_GY}),
    # 4: the English names the Deck where the Japanese says the GY: en departs in `locations`
    (4, {"ja": JA_GY, "en": EN_DECK + " " + HOSTILE + " Once per turn: You can draw 1 card.", "zh-CN": ZH_GY}),
    # 5: both depart from the GY, each to another place
    (5, {"ja": JA_GY, "en": EN_DECK, "zh-CN": ZH_BANISHED}),
    # 6: the zh-CN text is the Japanese one (shared Han characters): a language mismatch, not compared
    (6, {"ja": JA_NS, "en": EN_NS, "zh-CN": JA_NS + JA_GY}),
]


def _yaml_yugi(path, cards=CARDS):
    with open(path, "wb") as f:
        for cid, texts in cards:
            ja_name = "<ruby>竜<rt>りゅう</rt></ruby>騎士" if cid == 2 else f"J{cid}"
            f.write(orjson.dumps({"password": cid, "konami_id": cid, "name": {"en": f"N{cid}", "ja": ja_name},
                                  "text": texts, "card_type": "Monster", "monster_type_line": "Fiend / Effect",
                                  "level": 8}) + b"\n")
    return path


@pytest.fixture
def rep(tmp_path) -> ReferenceReport:
    return validate_reference(_yaml_yugi(tmp_path / "cards.jsonl"), [None, None], reference_lang="ja",
                              translation_langs=["en", "zh-CN"])


def _by_id(rep):
    return {c.id: c for c in rep.cards}


def test_only_the_departing_translation_is_named(rep):
    cards = _by_id(rep)
    assert 1 not in cards
    assert cards[2].name == "竜騎士"  # the reference name without its furigana
    (f,) = cards[2].findings
    assert (f.kind, f.condition, f.verdict, f.departs) == ("missing-in-translation", "cannot-normal-summon", "one",
                                                            ["en"])
    assert f.reference.states and f.reference.phrase == "このカードは通常召喚できない"
    en, zh = f.translations
    assert (en.lang, en.departs, en.states) == ("en", True, False)
    # the agreeing translation points at its own phrase, paired with the same Japanese phrase
    assert (zh.lang, zh.departs, zh.states, zh.phrase) == ("zh-CN", False, True, "这张卡不能通常召唤")
    assert CARDS[1][1]["zh-CN"][zh.span[0]:zh.span[1]] == zh.phrase


def test_a_slot_difference_carries_the_values_of_all_three(rep):
    (f,) = _by_id(rep)[4].findings
    assert (f.kind, f.slot, f.verdict, f.departs) == ("slot-differs", "locations", "one", ["en"])
    assert f.reference.value == ["gy"]
    assert [(t.lang, t.value, t.departs) for t in f.translations] == [("en", ["deck"], True), ("zh-CN", ["gy"], False)]
    en_text = CARDS[3][1]["en"]
    assert en_text[f.translations[0].span[0]:f.translations[0].span[1]] == f.translations[0].phrase


def test_both_translations_agreeing_against_the_japanese(rep):
    (f,) = _by_id(rep)[3].findings
    assert (f.kind, f.condition, f.verdict, f.departs) == ("extra-in-translation", "cannot-special-summon-from",
                                                            "all-agree", ["en", "zh-CN"])
    assert not f.reference.states and f.reference.span is None
    assert all(t.departs and t.states for t in f.translations)
    assert "misreading of the ja text or an errata" in f.detail


def test_both_translations_departing_differently(rep):
    (f,) = _by_id(rep)[5].findings
    assert (f.slot, f.verdict, f.departs) == ("locations", "all-differ", ["en", "zh-CN"])
    assert [t.value for t in f.translations] == [["deck"], ["banished"]]


def test_japanese_text_read_as_chinese_is_a_warning_not_a_comparison(rep):
    c = _by_id(rep)[6]
    assert [(f.kind, f.side, f.verdict, f.severity) for f in c.findings] == [
        ("language-mismatch", "zh-CN", "card", "high")]
    assert "looks like ja, read as zh-CN" in c.findings[0].detail
    assert rep.compared == {"en": 6, "zh-CN": 5}  # card 6's zh-CN text was not compared


def test_summary_counts_per_translation(rep):
    s = rep.summary()
    en, zh = s["translations"]["en"], s["translations"]["zh-CN"]
    assert (en["departs_alone"], en["departs_with_others"]) == (2, 2)
    assert en["findings_alone"] == {"missing-in-translation": 1, "extra-in-translation": 0, "slot-differs": 1}
    assert (zh["departs_alone"], zh["departs_with_others"], zh["card_problems"]) == (0, 2, 1)
    assert s["verdicts"] == {"one": 2, "all-agree": 1, "all-differ": 1, "some": 0}
    assert rep.agreeing == {"en": 2, "zh-CN": 3}  # en: cards 1 and 6; zh-CN: 1, 2 and 4 (en departs alone there)


def test_one_translation_alone_is_that_translation():
    cards = [(2, {"ja": JA_NS + JA_GY, "en": EN_GY})]
    rep = validate_reference(cards_of(cards, "ja"), [cards_of(cards, "en")])
    (f,) = rep.cards[0].findings
    assert (f.verdict, f.departs, rep.reference_lang, rep.translation_langs) == ("one", ["en"], "ja", ["en"])


def test_what_a_language_never_reads_is_counted_apart(monkeypatch):
    """A material line the reference language cannot read at all (no pattern yields it) is no
    departure of the translation: it is counted in ``not_read``."""
    from extractor.validate import reference as ref_mod

    real = ref_mod.readable
    monkeypatch.setattr(ref_mod, "readable", lambda cat, lang: {
        k: v for k, v in real(cat, lang).items() if not (lang == "ja" and k == "material-line")})
    cards = [(7, {"ja": "このカードは戦闘では破壊されない。", "en": '"A" + "B"\nCannot be destroyed by battle.'})]
    fusion = [c.model_copy(update={"frame": Frame.from_type_line("Fiend / Fusion / Effect", 8)})
              for c in cards_of(cards, "en")]
    ja = [c.model_copy(update={"frame": fusion[0].frame}) for c in cards_of(cards, "ja")]
    rep = validate_reference(ja, [fusion])
    assert rep.cards == [] and rep.not_read == {"en": {"materials": 1}}
    monkeypatch.setattr(ref_mod, "readable", real)
    assert ref_mod._can_state(real(load_catalog(), "en"), Mismatch(kind="extra-in-target", condition="materials",
                                                                     severity="medium"))


def cards_of(cards, lang):
    from extractor.card import Card
    from extractor.frame import Frame
    return [Card(id=cid, name=f"N{cid}", lang=lang, text=t[lang], frame=Frame.from_type_line("Fiend / Effect", 8))
            for cid, t in cards if lang in t]


def test_errors(tmp_path):
    p = _yaml_yugi(tmp_path / "cards.jsonl")
    with pytest.raises(ValueError, match="at least one translation"):
        validate_reference(p, [], reference_lang="ja")
    with pytest.raises(ValueError, match="multilingual"):
        validate_reference(p, [None], reference_lang="ja")
    with pytest.raises(ValueError, match="different languages"):
        validate_reference(p, [None, None], reference_lang="ja", translation_langs=["en", "en"])


def test_output_lines_follow_the_documented_schema(rep):
    lines = list(iter_reference_output(rep))
    assert [ln["id"] for ln in lines] == [2, 3, 4, 5, 6]
    schema = reference_line_schema()
    assert set(schema["required"]) >= {"format", "id", "findings"}
    for ln in lines:
        assert ln["format"] == REFERENCE_FORMAT == "validate-reference/1"
        assert ln["reference_lang"] == "ja" and ln["translation_langs"] == ["en", "zh-CN"]
        for f in ln["findings"]:
            assert Finding.model_validate(f).model_dump(mode="json") == f
        json.dumps(ln)  # plain JSON


# -- CLI -----------------------------------------------------------------------------------------

def test_cli_one_multilingual_file(tmp_path):
    p = _yaml_yugi(tmp_path / "cards.jsonl")
    out, html = tmp_path / "ref.jsonl", tmp_path / "ref.html"
    r = CliRunner().invoke(main, ["validate", str(p), "--reference", "ja", "--target-lang", "en", "--target-lang",
                                  "zh-CN", "-o", str(out), "--html", str(html), "--no-progress"])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert {ln["id"]: [f["verdict"] for f in ln["findings"]] for ln in lines} == {
        2: ["one"], 3: ["all-agree"], 4: ["one"], 5: ["all-differ"], 6: ["card"]}
    assert (tmp_path / "ref.jsonl.meta.json").exists() and (tmp_path / "ref.html.meta.json").exists()
    assert "validate against the ja reference" in r.output
    assert "one translation departs 2, all agree against ja 1, all differ 1" in " ".join(r.output.split())


def test_cli_three_files(tmp_path):
    files = []
    for lg in ("ja", "en", "zh-CN"):
        f = tmp_path / f"{lg}.jsonl"
        f.write_text("".join(json.dumps({"id": cid, "name": f"N{cid}", "lang": lg, "text": t[lg],
                                         "type": "Fiend / Effect", "level": 8}, ensure_ascii=False) + "\n"
                             for cid, t in CARDS), encoding="utf-8")
        files.append(str(f))
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["validate", *files, "--reference", "ja", "--target-lang", "en", "--target-lang",
                                  "zh-CN", "-o", str(out), "--no-progress", "--fail-on", "high"])
    assert r.exit_code == 1, r.output  # the language mismatch is high
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [(ln["id"], ln["findings"][0]["departs"]) for ln in lines] == [
        (2, ["en"]), (3, ["en", "zh-CN"]), (4, ["en"]), (5, ["en", "zh-CN"]), (6, ["zh-CN"])]


@pytest.mark.parametrize("args, message", [
    (["--target-lang", "en", "--target-lang", "zh-CN"], "need --reference"),
    (["--reference", "ja"], "give each translation with --target-lang"),
    (["--reference", "ja", "--target-lang", "ja"], "same texts"),
    (["--reference", "ja", "--source-lang", "en", "--target-lang", "zh-CN"], "give its language once"),
    (["--reference", "xx", "--target-lang", "en"], "--reference"),
])
def test_cli_usage_errors(tmp_path, args, message):
    p = _yaml_yugi(tmp_path / "cards.jsonl")
    r = CliRunner().invoke(main, ["validate", str(p), *args, "--no-progress"])
    assert r.exit_code == 2 and message in r.output, r.output


def test_help_documents_the_reference_mode():
    r = CliRunner().invoke(main, ["validate", "--help"])
    text = " ".join(r.output.split())
    assert "--reference LANG" in text and "validate-reference/1" in text and "--reference ja" in text


# -- HTML ----------------------------------------------------------------------------------------

def test_html_shows_the_three_texts_with_the_differing_phrases_marked(rep):
    from html.parser import HTMLParser

    page = render_reference_html(rep)

    class Rows(HTMLParser):
        def __init__(self):
            super().__init__()
            self.row, self.cell, self.cells, self.marks, self.attrs = None, None, {}, {}, {}
            self.in_mark = None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "tr" and "card" in (a.get("class") or "").split():
                self.row = a["data-id"]
                self.attrs[self.row] = a
            elif tag == "td" and a.get("class") == "text" and self.row:
                self.cell = a["data-lang"]
                self.cells.setdefault((self.row, self.cell), "")
            elif tag == "mark" and self.cell:
                self.in_mark = [a["class"], ""]

        def handle_endtag(self, tag):
            if tag == "td":
                self.cell = None
            elif tag == "mark" and self.in_mark:
                self.marks.setdefault((self.row, self.cell), []).append(tuple(self.in_mark))
                self.in_mark = None

        def handle_data(self, data):
            if self.cell:
                self.cells[(self.row, self.cell)] += data
                if self.in_mark:
                    self.in_mark[1] += data

    p = Rows()
    p.feed(page)
    # the three texts, whole and as text (the hostile markup is escaped, never markup)
    for lg in ("ja", "en", "zh-CN"):
        assert p.cells[("4", lg)] == CARDS[3][1][lg]
    assert "<script>window" not in page and "&lt;script&gt;" in page
    assert 'class="name">N4</small>' in page  # the translations' names under the reference name
    # the differing phrases: the Japanese phrase, the departing English one, the agreeing Chinese one
    assert p.marks[("4", "ja")] == [("reference", "このカードは墓地からの特殊召喚はできない")]
    assert p.marks[("4", "en")] == [("departs", "Cannot be Special Summoned from the Deck")]
    assert p.marks[("4", "zh-CN")] == [("agrees", "这张卡不能从墓地特殊召唤")]
    assert ("departs", "Cannot be Special Summoned from the GY") in p.marks[("3", "en")]
    assert ("ok", "这张卡不能通常召唤") in p.marks[("3", "zh-CN")]
    # the filter keys of each row: departing texts, slots or kinds, verdicts
    assert (p.attrs["4"]["data-langs"], p.attrs["4"]["data-slots"], p.attrs["4"]["data-verdicts"]) == (
        "en", "locations", "one")
    assert p.attrs["3"]["data-langs"] == "en zh-CN" and p.attrs["6"]["data-slots"] == "card"
    # cards where one translation departs come first
    assert list(p.attrs)[:2] == ["2", "4"]
    # the page's only script is allowed by its hash
    import re
    from extractor.report_html import script_hash
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    assert f"script-src '{script_hash(script)}'" in page


def test_multi_filter_script_refuses_names_that_are_not_plain():
    from extractor.report_html import multi_filter_script
    assert "lang-filter" in multi_filter_script([("lang-filter", "data-langs")])
    with pytest.raises(ValueError):
        multi_filter_script([("x'); alert(1); ('", "data-langs")])


def test_reference_report_in_headless_chromium(browser, tmp_path):
    from test_validate_html import _click, _errors, _visible_ids

    p = _yaml_yugi(tmp_path / "cards.jsonl")
    html = tmp_path / "ref.html"
    r = CliRunner().invoke(main, ["validate", str(p), "--reference", "ja", "--target-lang", "en", "--target-lang",
                                  "zh-CN", "--html", str(html), "--no-progress"])
    assert r.exit_code == 0, r.output
    cdp = browser
    cdp.send("Page.navigate", url=html.resolve().as_uri())
    cdp.wait_event("Page.loadEventFired")
    cdp.pump(0.5)
    assert _errors(cdp) == []
    assert sorted(_visible_ids(cdp)) == [2, 3, 4, 5, 6]
    assert cdp.js("typeof window.__xss") == "undefined"
    marks = cdp.js("Array.from(document.querySelectorAll('#card-4 mark')).map(m => [m.className, m.textContent])")
    assert ["departs", "Cannot be Special Summoned from the Deck"] in marks and ["agrees", "这张卡不能从墓地特殊召唤"] in marks
    # by translation: only zh-CN departs -> 3, 5 (with en) and 6 (its text is not Chinese)
    _click(cdp, "button.only[data-group='lang-filter'][data-kind='zh-CN']")
    assert sorted(_visible_ids(cdp)) == [3, 5, 6]
    # and by slot: zh-CN departing in `locations`
    _click(cdp, "button.only[data-group='slot-filter'][data-kind='locations']")
    assert _visible_ids(cdp) == [5]
    assert cdp.js("document.getElementById('shown').textContent") == "1"
    _click(cdp, "button.all[data-group='lang-filter']")
    assert sorted(_visible_ids(cdp)) == [4, 5]
    _click(cdp, "button.only[data-group='verdict-filter'][data-kind='one']")
    assert _visible_ids(cdp) == [4]
    cdp.pump(0.3)
    assert _errors(cdp) == []


def test_three_translations_some_depart(tmp_path):
    """With three translations, two departing the same way and one agreeing with the Japanese is
    ``some``; all three the same way is ``all-agree``."""
    p = _yaml_yugi(tmp_path / "cards.jsonl", [
        (8, {"ja": JA_GY, "en": EN_DECK, "zh-CN": "这张卡不能从卡组特殊召唤。", "zh-TW": "這張卡不能從墓地特殊召喚。"}),
        (9, {"ja": JA_GY, "en": EN_DECK, "zh-CN": "这张卡不能从卡组特殊召唤。", "zh-TW": "這張卡不能從牌組特殊召喚。"}),
    ])
    rep = validate_reference(p, [None, None, None], reference_lang="ja", translation_langs=["en", "zh-CN", "zh-TW"])
    got = {c.id: [(f.verdict, f.departs, [t.value for t in f.translations]) for f in c.findings] for c in rep.cards}
    assert got == {8: [("some", ["en", "zh-CN"], [["deck"], ["deck"], ["gy"]])],
                   9: [("all-agree", ["en", "zh-CN", "zh-TW"], [["deck"], ["deck"], ["deck"]])]}
    assert rep.summary()["verdicts"] == {"one": 0, "all-agree": 1, "all-differ": 0, "some": 1}


def test_a_departure_the_other_translation_does_not_see_is_said(tmp_path):
    """Agreement is not transitive: the zh-TW text (no place for the banished monster) agrees with
    the reference (from the GY) and with zh-CN (from the hand), which conflict.  zh-CN departs, and
    the finding says that zh-TW agrees with it when compared directly."""
    en = "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 monster from your GY."
    p = _yaml_yugi(tmp_path / "cards.jsonl", [(10, {
        "en": en, "zh-CN": "这张卡不能通常召唤。从自己手卡把1只怪兽除外的场合才能从手卡特殊召唤。",
        "zh-TW": "這張卡不能通常召喚。把1隻怪獸除外的場合才能從手卡特殊召喚。"})])
    rep = validate_reference(p, [None, None], reference_lang="en", translation_langs=["zh-CN", "zh-TW"])
    (f,) = rep.cards[0].findings
    assert (f.slot, f.verdict, f.departs, f.departing_agrees_with) == ("cost.from", "one", ["zh-CN"], ["zh-TW"])
    assert [t.model_dump(mode="json")["value"] for t in f.translations] == [[["banish", ["hand"]]], [["banish", []]]]
    assert "zh-TW agrees with zh-CN when compared directly" in f.detail
    # a departure the others do see says nothing of the kind
    (g,) = _by_id(validate_reference(_yaml_yugi(tmp_path / "c2.jsonl"), [None, None], reference_lang="ja",
                                     translation_langs=["en", "zh-CN"]))[4].findings
    assert g.departing_agrees_with == [] and "compared directly" not in g.detail


def test_a_translation_with_no_text_is_not_compared_not_agreeing(tmp_path):
    """A card with no zh-CN text: the English departure is ``one`` and the zh-CN reading says it
    was not compared (it neither states nor agrees)."""
    rep = validate_reference(_yaml_yugi(tmp_path / "c.jsonl", [(11, {"ja": JA_GY, "en": EN_DECK})]), [None, None],
                             reference_lang="ja", translation_langs=["en", "zh-CN"], min_severity="medium")
    (f,) = [f for f in rep.cards[0].findings if f.verdict != "card"]
    assert (f.verdict, f.departs) == ("one", ["en"])
    assert [(t.lang, t.compared, t.states) for t in f.translations] == [("en", True, True), ("zh-CN", False, False)]
    assert "zh-CN not compared" in f.detail
    assert rep.compared == {"en": 1, "zh-CN": 0}


def test_every_slot_read_from_a_procedure_field_is_mapped_to_it():
    """Each slot of a built-in Special Summon's view that is read from one of its fields names that
    field in ``SLOT_FIELDS``, so a language that never reads the field (no pattern captures it) is
    not blamed for a difference in that slot (``_can_state``).  The slots come from a real reading
    (en: README's example, a requirement with its count and filter), so a slot added to the view later
    without its field fails here."""
    from extractor.pipeline import analyze_text
    from extractor.validate import reference as ref_mod
    from extractor.validate.views import canonical

    text = "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by having exactly 3 DARK monsters in your GY."
    frame = Frame.from_type_line("Dragon / Effect", 7)
    conds, *_ = analyze_text(text, "en", frame)
    proc = next(c for c in conds if c.kind == "builtin-special-summon")
    assert proc.requirement is not None and proc.requirement.count is not None
    slots = set(canonical(proc, frame).slots) - {"method", "first_only", "locations"}
    assert slots <= set(ref_mod.SLOT_FIELDS), slots - set(ref_mod.SLOT_FIELDS)
    model_fields = type(proc).model_fields
    assert all(f in model_fields for f in ref_mod.SLOT_FIELDS.values())
    reads = {"builtin-special-summon": frozenset({"cost", "limit"})}  # a language that never reads a requirement
    for slot in ("requirement", "requirement.count", "requirement.filter"):
        assert not ref_mod._can_state(reads, Mismatch(kind="slot-differs", condition="builtin-special-summon",
                                                      slot=slot, severity="medium"))
    assert ref_mod._can_state(reads, Mismatch(kind="slot-differs", condition="builtin-special-summon",
                                              slot="cost.count", severity="medium"))
