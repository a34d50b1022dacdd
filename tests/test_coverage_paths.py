"""The fast paths of :func:`extractor.coverage.coverage_of` give what the plain reading of the rule gives.

``_coverage_plain`` below is the rule read plainly (the loop of ``coverage_of`` before the fifth speed
pass, on every sentence of :func:`_sentences`, each searched in full): the module's ``coverage_of``
must agree with it on every card of real card texts (../shared yaml-yugi in en, zh-CN and ja; skipped
when ../shared is absent) and on the sample corpus.  A fast path that changed one verdict or one
unread piece fails here.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from extractor import coverage as cov
from extractor.coverage import (_NOT_WORD, _WORDS, _cue_group, _field, _first_line, _lone_chars, _minus,
                                _sentences, _unit_start, _unit_starts, coverage_of, coverage_rules)
from extractor.pipeline import analyze_text
from extractor.readers import read_cards

ROOT = Path(__file__).resolve().parent.parent


def _coverage_plain(mt, lang, frame, seg, conditions):
    """The rule of :mod:`extractor.coverage`, read plainly: every sentence cut, tested with the
    prefilter, each mark searched in the sentence and then in the effect holding it."""
    rules = coverage_rules(lang)
    if rules is None:
        return None, []
    if frame is None or not frame.is_monster or frame.normal:
        return "complete", []
    text = mt.text
    ms, me = seg.monster
    mat = seg.material
    lead = None
    if mat is not None and mat[1] > mat[0]:
        lead = mat
        ms = max(ms, mat[1])
    elif frame.extra_deck and not any(getattr(c, "kind", None) == "material-line" and _field(c, "source", "text") == "text"
                                      for c in conditions):
        lead = _first_line(text, ms, me, rules)
        if lead is not None:
            ms = max(ms, lead[1])
    sentences = [(s, e) for s, e in _sentences(text, ms, me, rules) if rules.prefilter.search(text, s, e)]
    own = [c for c in conditions if _field(c, "source", "text") == "text"]
    pieces, groups = ([lead], ["material-line"]) if lead is not None else ([], [])
    units = _unit_starts(text, rules) if rules.unit_start is not None else None
    for s, e in sentences:
        sent = text[s:e]
        effect = (text.startswith("●", s) or ":" in sent or ";" in sent
                  or bool(rules.effect_marks.search(sent))
                  or (rules.sentence_marks is not None and rules.sentence_marks.search(sent) is not None))
        if effect and rules.keep is not None and rules.keep.search(sent) and not rules.activated.search(sent):
            effect = False
        if not effect and units is not None:
            effect = rules.effect_marks.search(text, _unit_start(text, s, units), e) is not None
        if effect:
            continue
        if frame.gemini and rules.gemini.search(text, s, e):
            continue
        if rules.limit.search(sent) and any(_field(c, "limit") for c in own):
            continue
        pieces.append((s, e))
        groups.append("")
    read = sorted(tuple(c.span) for c in own)
    unread = []
    for (s, e), g in zip(pieces, groups):
        os_, oe = mt.to_original(s, e)
        for rs, re_ in _minus((os_, oe), read):
            chunk = mt.original[rs:re_]
            if len(_NOT_WORD.sub("", rules.filler.sub("", chunk))) >= 2:
                if not g:
                    g = _cue_group(text, s, e, lang) or ("summon-sentence" if rules.summon_words.search(text, s, e) else "")
                    if not g:
                        break
                m = _WORDS.search(chunk)
                if m:
                    unread.append([rs + m.start(), rs + m.end(), g])
    return ("partial" if unread else "complete"), unread


def _check(cards, step=1):
    n = partial = 0
    for i, card in enumerate(cards):
        if i % step:
            continue
        conds, _p, _t, mt, seg = analyze_text(card.text, card.lang, card.frame, pendulum_effect=card.pendulum_effect,
                                              name=card.name, warnings=[])
        got = coverage_of(mt, card.lang, card.frame, seg, conds)
        assert got == _coverage_plain(mt, card.lang, card.frame, seg, conds), (card.id, card.lang, card.text)
        n += 1
        partial += got[0] == "partial"
    return n, partial


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_coverage_equals_the_plain_rule_on_the_samples(lang):
    cards = [it.card for it in read_cards(ROOT / "corpora/sample/yaml-yugi.jsonl", lang) if it.card is not None]
    n, _ = _check(cards)
    assert n == len(cards) > 10


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_coverage_equals_the_plain_rule_on_yaml_yugi(shared, lang):
    cards = [it.card for it in read_cards(shared / "data/yaml-yugi/cards.jsonl", lang) if it.card is not None]
    n, partial = _check(cards, step=4)
    assert n > 2000 and partial > 10, (n, partial)  # real texts, summoning wording left unread among them


def test_lone_chars_reads_the_shape_of_the_expression():
    assert coverage_rules("zh").colon_marks and coverage_rules("ja").colon_marks
    assert not coverage_rules("en").colon_marks  # a ``regex``-engine expression: the search decides
    assert _lone_chars(re.compile(r"[:;]|发动"), ":;") and _lone_chars(re.compile(r"发动|:|;"), ":;")
    assert _lone_chars(re.compile(r"[:;]"), ":;")
    assert not _lone_chars(re.compile(r"(?<!x)[:;]|发动"), ":;")  # a lookbehind decides
    assert not _lone_chars(re.compile(r"[^:;]|发动"), ":;")
    assert not _lone_chars(re.compile(r"[:]|发动"), ":;")
    assert not _lone_chars(re.compile(r"^[:;]"), ":;")
    assert not _lone_chars(re.compile(r"[:;]x"), ":;")
    # what the flag promises: a colon anywhere in the searched stretch is found
    rx = coverage_rules("ja").effect_marks
    for t in ("abc:def", ";", "このカードは;", "通常召喚できない:"):
        for pos in range(len(t)):
            assert (rx.search(t, pos) is not None) >= (":" in t[pos:] or ";" in t[pos:]), (t, pos)


def test_field_answers_alike_for_every_class_asked_again():
    # _field keeps each class's model_fields: the second answer for a class is the first one
    from extractor.conditions import CONDITION_CLASSES

    class Plain:
        span = (0, 1)
        limit = "once-per-turn"

    plain = Plain()
    for _ in range(2):
        assert _field(plain, "limit") == "once-per-turn" and _field(plain, "source", "text") == "text"
        for kind, cls in CONDITION_CLASSES.items():
            fields = cls.model_fields
            c = cls.model_construct(**{"span": (0, 1)})
            assert (_field(c, "source", "?") != "?") == ("source" in fields), kind
            assert _field(c, "limit", "no-such") == (getattr(c, "limit", None) if "limit" in fields else "no-such"), kind
    assert Plain in cov._CLASS_FIELDS and cov._CLASS_FIELDS[Plain] is None


def test_one_char_marks_reads_the_shape_of_the_sentence_end():
    from extractor.coverage import _one_char_marks
    assert coverage_rules("en").end_chars[0] == "\n!.?●"  # [.!?](?=\s|$)|\n|●: a lookahead after one character
    assert coverage_rules("zh").end_chars[0] == coverage_rules("ja").end_chars[0] == "\n!?●。！？"
    assert _one_char_marks(re.compile(r"[。!]|\n")) == "\n!。"
    assert _one_char_marks(re.compile(r"(?<=x)\.")) == "."
    assert _one_char_marks(re.compile(r"\.\s")) is None  # two characters
    assert _one_char_marks(re.compile(r"\.|")) is None  # an empty match
    assert _one_char_marks(re.compile(r"[^。]")) is None  # every other character
    assert _one_char_marks(re.compile(r"\s")) is None  # a class of unlisted characters
    assert _one_char_marks(re.compile(r"(?i)a")) is None and _one_char_marks(re.compile(r"(?i)\.")) == "."


@pytest.mark.parametrize("fam,lang", [("en", "en"), ("zh", "zh-CN"), ("ja", "ja")])
def test_sentences_of_words_found_from_the_words_equal_the_cut_text(shared, fam, lang):
    # the sentence of each word from the nearest sentence ends around it (end_chars) against
    # cutting the whole text (the path of a sentence end of another shape), on real texts and on
    # texts with bullets, marks that are no sentence end ("e.g.Summon", "1.5") and ranges
    import dataclasses

    from extractor.coverage import _word_sentences
    from extractor.normalize import normalize
    rules = coverage_rules(fam)
    cut = dataclasses.replace(rules, end_chars=None)
    texts = ["●Summon.●x", "a.Summon b. Tribute!\n●Fusion", "Level 1.5 Summon. x", "召唤。●解放\n", "。●召喚！？融合",
             "x!Summon?y.\n", "   Ritual  .  Fusion  "]
    texts += [normalize(it.card.text, lang).text
              for i, it in enumerate(read_cards(shared / "data/yaml-yugi/cards.jsonl", lang)) if it.card is not None and i % 3 == 0]
    n = 0
    for t in texts:
        for start, end in ((0, len(t)), (min(5, len(t)), len(t)), (0, len(t) * 2 // 3)):
            got = _word_sentences(t, start, end, rules)
            assert got == _word_sentences(t, start, end, cut), (t, start, end)
            assert got == [(s, e) for s, e in _sentences(t, start, end, rules) if rules.prefilter.search(t, s, e)], (t, start, end)
            n += len(got)
    assert n > 1000


@pytest.mark.parametrize("fam,lang", [("zh", "zh-CN"), ("ja", "ja")])
def test_words_after_a_colon_of_their_effect_leave_only_skipped_sentences(shared, fam, lang):
    # open_only passes over the words that follow a colon of the effect holding them: the sentences
    # it leaves out must all be ones coverage_of skips for a colon (or a bullet), and it must keep
    # every other sentence of the full list, in order, on every real text and on edge texts
    from extractor.coverage import _word_sentences
    from extractor.normalize import normalize
    rules = coverage_rules(fam)
    assert rules.unit_class is not None and coverage_rules("en").unit_class is None
    texts = ["①:召唤。②召唤", "召唤:①召唤;\n融合", "x:y\n召唤。z:召唤", "这张卡①的效果:召唤。", ";召唤\n●召唤:", "召唤:召唤"]
    texts += [normalize(it.card.text, lang).text
              for it in read_cards(shared / "data/yaml-yugi/cards.jsonl", lang) if it.card is not None]
    kept = dropped = 0
    for t in texts:
        units = _unit_starts(t, rules)
        for start, end in ((0, len(t)), (min(4, len(t)), len(t)), (0, len(t) * 2 // 3)):
            full = _word_sentences(t, start, end, rules)
            got = _word_sentences(t, start, end, rules, open_only=True)

            def skipped(s, e):
                u = _unit_start(t, s, units)
                return t.startswith("●", s) or ":" in t[u:e] or ";" in t[u:e]
            assert got == [x for x in full if x in got], (t, start, end)  # a subsequence
            assert all(skipped(*x) for x in full if x not in got), (t, start, end)
            assert all(x in got for x in full if not skipped(*x)), (t, start, end)
            kept += len(got)
            dropped += len(full) - len(got)
    assert kept > 1000 and dropped > 5000, (kept, dropped)
