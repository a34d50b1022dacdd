"""The shortcuts of the sixth speed pass in capture reading and condition objects (docs/speed.md)
give exactly what the long way gives, on real card texts of ../shared/data (skipped without it) and
on the bundled samples.

- ``slots.read_material_line`` reads each ``+``-separated part once (``_read_part`` keeps it): the
  line equals the one read part by part afresh (the loop written out below, no cache);
- ``captures._read_fields`` keeps each capture's value per (capture type, captured words) across
  patterns (``_Vocab.reads``): every match's fields equal those read afresh (no memo at all);
- ``SlotReader._requirement`` takes the kind from its one scan of ``requirement_kind``: equal to the
  reading with the separate ``choice`` search (written out below);
- ``pipeline._drop_self_named_ritual`` and ``conditions.own_summon_limits`` return early (no
  generator) where nothing can be dropped: the same conditions as the plain tests.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from extractor import slots
from extractor.normalize import lang_family, normalize
from extractor.readers import read_cards

ROOT = Path(__file__).resolve().parent.parent
YAML_YUGI = ROOT.parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"
LANGS = ("en", "zh-CN", "ja")


def _shared_cards(lang: str, step: int = 1):
    """Every ``step``-th card of yaml-yugi in ``lang`` (or skip when ../shared is absent)."""
    if not YAML_YUGI.is_file():
        pytest.skip("needs ../shared/data")
    items = read_cards(YAML_YUGI, lang)
    return [it.card for it in itertools.islice(items, 0, None, step) if it.card is not None]


# -- material lines -------------------------------------------------------------------------------

def _material_line_plain(summon: str, text: str, lang: str, alternative: bool = False) -> slots.MaterialLine:
    """``read_material_line`` as it was before the part cache: every part read in the loop, no kept
    result anywhere (``read_filter`` read afresh too)."""
    frag = slots._compiled
    parts_text = [p for p in frag(lang, "mat_plus").split(text) if p.strip()]
    parts, marks, named = [], [], []
    total = tuner = non_tuner = None
    for p in parts_text:
        c = slots.read_count(p, lang)
        f = slots.read_filter.__wrapped__(p, lang)
        parts.append((c, f))
        total = slots._add(total, c)
        nt = bool(frag(lang, "mat_non_tuner").search(p))
        t = not nt and bool(frag(lang, "mat_tuner").search(p))
        marks.append("non" if nt else "tuner" if t else "")
        if frag(lang, "mat_named").fullmatch(p.strip()):
            named.extend(f.names)
    out: dict = {"summon": summon, "parts": tuple(parts)}
    if summon == "synchro":
        if "non" in marks:
            for (c, _), m in zip(parts, marks):
                if m == "non":
                    non_tuner = slots._add(non_tuner, c)
                else:
                    tuner = slots._add(tuner, c)
        elif len(parts) == 1 and parts[0][0] and parts[0][0][0] >= 2:
            lo, hi = parts[0][0]
            tuner, non_tuner = (1, 1), (lo - 1, None if hi is None else hi - 1)
        else:
            tuner = parts[0][0] if parts else None
            for c, _ in parts[1:]:
                non_tuner = slots._add(non_tuner, c)
        out.update(tuner=tuner, non_tuner=non_tuner)
    else:
        out["count"] = total
    if summon == "xyz":
        lv = frag(lang, "mat_level").search(text)
        out["level"] = int(lv.group("lv")) if lv else None
        out["alternative"] = alternative
    if summon == "fusion":
        out["named_materials"] = tuple(dict.fromkeys(named))
    return slots.MaterialLine(**out)


def _first_lines(cards, lang):
    """(Summon kind, normalized first line) of every Extra Deck monster of ``cards``."""
    for card in cards:
        if card.frame.extra_deck and card.text:
            yield card.frame.kind, normalize(card.text, lang).text.split("\n")[0]


def _check_lines(lines, fam) -> int:
    n = 0
    for kind, line in lines:
        for summon in dict.fromkeys((kind, "fusion", "synchro", "xyz", "link")):  # each rule of the reading
            want = _material_line_plain(summon, line, fam)
            assert slots.read_material_line.__wrapped__(summon, line, fam) == want, (summon, line)
            assert slots.read_material_line(summon, line, fam) == want, (summon, line)
            n += 1
    return n


def test_a_material_line_read_part_by_part_equals_the_plain_loop_on_the_samples():
    from test_fast_paths import _sample_cards

    n = sum(_check_lines(_first_lines([c], c.lang), lang_family(c.lang)) for c in _sample_cards())
    assert n > 20 and slots._read_part.cache_info().hits > 0


@pytest.mark.parametrize("lang", LANGS)
def test_a_material_line_read_part_by_part_equals_the_plain_loop_on_yaml_yugi(lang):
    cards = _shared_cards(lang)
    n = _check_lines(_first_lines(cards, lang), lang_family(lang))
    assert n > 1000


# -- capture reading ------------------------------------------------------------------------------

def _texts(lang: str, every: int) -> list[str]:
    """The normalized texts of every ``every``-th yaml-yugi card in ``lang``."""
    return [normalize(c.text, lang).text for c in _shared_cards(lang, every) if c.text]


@pytest.mark.parametrize("lang", LANGS)
def test_fields_read_through_the_memos_equal_fields_read_afresh_on_yaml_yugi(lang):
    from extractor.patterns import load_catalog as load

    fam = lang_family(lang)
    kept, plain = load.__wrapped__(None), load.__wrapped__(None)
    plain.vocabs[fam].fields_memo = None  # no memo: every capture read afresh
    n = 0
    for text in _texts(lang, 2):
        got = [(m.pattern.id, m.start, m.fields) for m in kept.run(text, lang)]
        assert got == [(m.pattern.id, m.start, m.fields) for m in plain.run(text, lang)], text
        n += len(got)
    assert n > 2000 and len(kept.vocabs[fam].reads) > 100


def _requirement_plain(sr, text):
    """``SlotReader._requirement`` with the kind read by its own ``choice`` search (as before)."""
    m = sr.find("requirement_clause", text)
    if m is None:
        return None
    phrase = m.group(0).strip(" ,")
    kind = sr.choice("requirement_kind", phrase) or "other"
    whose = []
    rx = sr.can("requirement_whose", phrase)
    for w in (rx.finditer(phrase) if rx is not None else ()):
        g = next((g for g in ("you", "opponent", "both") if w.groupdict().get(g)), None)
        if g and g not in whose:
            whose.append(g)
    kinds = sr.can("requirement_kind", phrase)
    parts = list(dict.fromkeys(g.replace("_", "-") for k in (kinds.finditer(phrase) if kinds is not None else ())
                               for g, v in k.groupdict().items() if v is not None))
    req = {"kind": kind, "phrase": phrase, "whose": whose}
    if len(parts) > 1:
        req["parts"] = parts
    if kind != "other":  # the count and filter of the kind (their reading: tests/test_requirement_parts.py)
        count, filt = sr._requirement_object(phrase, kind)
        if count is not None:
            req["count"] = count
        if filt is not None:
            req["filter"] = filt
    return req


@pytest.mark.parametrize("lang", LANGS)
def test_a_requirement_read_with_one_kind_scan_equals_the_plain_reading_on_yaml_yugi(lang):
    from extractor.patterns import load_catalog

    sr = load_catalog().vocabs[lang_family(lang)].slots
    n = 0
    for text in _texts(lang, 3):
        # every sentence and every clause before a comma: what the procedure patterns capture
        for piece in {p for s in text.replace("\n", "。").split("。") for p in (s, *s.split(","), *s.split(", "))}:
            want = _requirement_plain(sr, piece)
            assert sr._requirement(piece) == want, piece
            n += want is not None
    assert n > 300


# -- the per-card filters after the conditions ---------------------------------------------------

def _drop_plain(conds, name, lang):
    """``pipeline._drop_self_named_ritual`` as it was (``any`` over generators, no early return)."""
    from extractor.conditions import MustBeSpecialSummoned, RitualSummonWith
    from extractor.pipeline import _drop_self_named_ritual

    if not any(isinstance(c, RitualSummonWith) and c.ritual_spell for c in conds):
        return conds
    if not any(isinstance(c, MustBeSpecialSummoned) and c.method == "own-effect" for c in conds):
        return conds
    return _drop_self_named_ritual(conds, name, lang)


def _limits_plain(conds, name, lang):
    """``conditions.own_summon_limits`` as it was (``any`` over a generator first)."""
    from extractor.conditions import own_summon_limits

    if not conds or not name or not any(c.kind == "summon-limit" for c in conds):
        return conds
    return own_summon_limits(conds, name, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_ritual_and_summon_limit_filters_equal_the_plain_ones_on_yaml_yugi(lang):
    from extractor.conditions import own_summon_limits
    from extractor.pipeline import _drop_self_named_ritual, analyze_text

    n = 0
    for card in _shared_cards(lang, 2):
        conds = analyze_text(card.text, lang, card.frame, pendulum_effect=card.pendulum_effect)[0]
        assert _drop_self_named_ritual(conds, card.name, lang) == _drop_plain(conds, card.name, lang)
        assert own_summon_limits(conds, card.name, lang) == _limits_plain(conds, card.name, lang)
        n += bool(conds)
    assert n > 1000
