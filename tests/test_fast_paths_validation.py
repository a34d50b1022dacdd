"""The validation shortcuts of the seventh speed pass give exactly what the long way gives.

- ``pipeline._conditions`` validates a text's conditions in one call (the list validator of the
  discriminated union) and, when one is bad, one at a time: the same objects and warnings as
  validating each dict with its kind's class;
- ``CardResult.conditions`` keeps a list of condition objects of the condition classes as it is:
  the same result as the discriminated union's validation of the same objects, of their dicts, and
  the same errors for anything else.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from pydantic import ValidationError

import extractor.pipeline as pl
from extractor import conditions as C
from extractor.normalize import normalize
from extractor.patterns import RawMatch, load_catalog
from extractor.pipeline import CardResult, analyze
from extractor.readers import read_cards

from test_fast_paths import _sample_cards

ROOT = Path(__file__).resolve().parent.parent
YAML_YUGI = ROOT.parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"


def _conditions_one_by_one(mt, matches, lang, source, warnings):
    """``_conditions`` as it was before the seventh pass: each dict validated by its kind's class."""
    if not matches:
        return []
    out = []
    seen: set[tuple] = set()
    fam = pl.lang_family(lang)
    for m in sorted(matches, key=lambda r: (r.start, -r.end)) if len(matches) > 1 else matches:
        s, e = mt.to_original(m.start, m.end)
        kind = m.fields["kind"]
        key = (kind, s, e)
        if key in seen:
            continue
        seen.add(key)
        try:
            out.append(C.CONDITION_CLASSES[kind](**{**m.fields, "span": (s, e), "phrase": mt.original[s:e],
                                                    "pattern_id": m.pattern.id, "lang": fam, "source": source}))
        except ValidationError as ex:
            warnings.append(f"pattern {m.pattern.id}: bad condition ({ex.errors()[0]['msg']})")
    return pl._suppress(out) if len(out) > 1 else out


def _cards():
    cards = list(_sample_cards())
    if YAML_YUGI.is_file():
        for lang in ("en", "zh-CN", "ja"):
            cards += [it.card for it in itertools.islice(read_cards(YAML_YUGI, lang), 0, None, 4) if it.card]
    return cards


def test_conditions_in_one_call_equal_one_by_one_on_real_cards(monkeypatch):
    calls = []
    fast = pl._conditions

    def record(mt, matches, lang, source, warnings):
        calls.append((mt, list(matches), lang, source))
        return fast(mt, matches, lang, source, warnings)

    monkeypatch.setattr(pl, "_conditions", record)
    cat = load_catalog()
    for card in _cards():
        analyze(card, cat)
    monkeypatch.undo()
    n = 0
    for mt, matches, lang, source in calls:
        w1: list[str] = []
        w2: list[str] = []
        got = fast(mt, matches, lang, source, w1)
        want = _conditions_one_by_one(mt, matches, lang, source, w2)
        assert got == want and [type(c) for c in got] == [type(c) for c in want], mt.original
        assert w1 == w2
        n += len(got)
    assert n > 100
    if YAML_YUGI.is_file():
        assert n > 3000


def test_a_bad_condition_becomes_a_warning_and_the_others_are_kept():
    cat = load_catalog()
    pattern = cat.by_lang["en"][0]
    text = "Cannot be Normal Summoned/Set. Cannot be Special Summoned from the GY."
    mt = normalize(text, "en")
    matches = [RawMatch(pattern, 0, 29, {"kind": "cannot-normal-summon", "set_allowed": False}),
               RawMatch(pattern, 31, 70, {"kind": "cannot-special-summon-from", "locations": ("moon",)}),
               RawMatch(pattern, 31, 70, {"kind": "cannot-special-summon", "unknown_field": 1})]
    w1: list[str] = []
    w2: list[str] = []
    got = pl._conditions(mt, matches, "en", "text", w1)
    assert got == _conditions_one_by_one(mt, matches, "en", "text", w2)
    assert [c.kind for c in got] == ["cannot-normal-summon"]
    assert w1 == w2 and len(w1) == 2 and all(w.startswith(f"pattern {pattern.id}: bad condition (") for w in w1)
    with pytest.raises(KeyError):  # an unknown kind is a bug of the catalog: the card's error, as before
        pl._conditions(mt, [RawMatch(pattern, 0, 29, {"kind": "no-such-kind"})], "en", "text", [])


def test_card_result_keeps_condition_objects_as_the_union_validates_them():
    n = 0
    for card in _cards()[:3000]:
        res = analyze(card)
        if not res.conditions:
            continue
        fields = {k: getattr(res, k) for k in CardResult.model_fields}
        kept = CardResult(**fields)
        assert kept.conditions is not res.conditions  # a new list, as pydantic gives
        assert all(a is b for a, b in zip(kept.conditions, res.conditions))
        via_dicts = CardResult(**{**fields, "conditions": [c.model_dump() for c in res.conditions]})
        assert via_dicts == kept and via_dicts.model_dump(mode="json") == res.model_dump(mode="json")
        n += 1
    assert n > 50


def test_card_result_conditions_other_than_condition_objects_go_through_the_union():
    c = C.Gemini(span=(0, 1), pattern_id="p", lang="en")

    class Sub(C.Gemini):
        pass

    s = Sub(span=(0, 1), pattern_id="p", lang="en")
    r = CardResult(id=1, name="n", lang="en", conditions=[c, s, {"kind": "gemini", "span": [2, 3], "pattern_id": "q",
                                                                  "lang": "en"}])
    assert r.conditions[0] is c and r.conditions[1] is s and r.conditions[2] == C.Gemini(span=(2, 3), pattern_id="q",
                                                                                          lang="en")
    assert CardResult(id=1, name="n", lang="en").conditions == []
    assert CardResult(id=1, name="n", lang="en", conditions=(c,)).conditions == [c]
    for bad in ([1], [{"kind": "gemini"}], "x", [c, None]):
        with pytest.raises(ValidationError):
            CardResult(id=1, name="n", lang="en", conditions=bad)


# -- structure.py: the material dicts written out, fit_material_lines' first test as a loop ----------

def _material_as_it_was(c, names):
    from extractor.structure import _count, resolve_name

    line = c.line
    d = {"summon": line.summon}
    if line.summon == "synchro":
        d.update(tuner=_count(line.tuner), non_tuner=_count(line.non_tuner))
    elif line.summon == "xyz":
        d.update(level=line.level, count=_count(line.count), alternative=line.alternative)
    elif line.summon == "link":
        d.update(count=_count(line.count))
    else:
        ids = [pc for n in line.named_materials if (pc := resolve_name(n, c.lang, names)) is not None]
        d.update(count=_count(line.count), named_materials=sorted(set(ids)), named_names=list(line.named_materials))
    d.update(span=list(c.span), pattern_id=c.pattern_id)
    return d


def _fit_as_it_was(conditions, frame):
    from extractor.slots import read_material_line

    if not conditions:
        return []
    if frame.kind is None or not any(c.kind == "material-line" for c in conditions):
        return list(conditions)
    out = []
    for c in conditions:
        if c.kind != "material-line":
            out.append(c)
            continue
        if not frame.extra_deck:
            continue
        line = c.line
        if line.alternative or not line.parts:
            if frame.kind == "xyz":
                out.append(c)
            continue
        if line.summon != frame.kind:
            text = " + ".join(f.phrase for _, f in line.parts)
            c = c.model_copy(update={"line": read_material_line(frame.kind, text, c.lang, line.alternative)})
        out.append(c)
    return out


def test_material_dicts_and_fitted_lines_equal_the_old_code_on_real_cards():
    from extractor import structure
    from extractor.frame import Frame

    n = fitted = 0
    names = {"x": 1}
    for card in _cards():
        res = analyze(card)
        for c in res.conditions:
            if c.kind == "material-line" and c.line.parts:
                got, want = structure._material(c, names), _material_as_it_was(c, names)
                assert got == want and list(got) == list(want), card.name
                n += 1
        for frame in (card.frame, Frame(kind="fusion"), Frame(kind="xyz"), Frame(kind="main_monster"), Frame()):
            got, want = structure.fit_material_lines(res.conditions, frame), _fit_as_it_was(res.conditions, frame)
            assert got == want, card.name
            fitted += any(c.kind == "material-line" for c in got)
    assert n > 20 and fitted > 20
    if YAML_YUGI.is_file():
        assert n > 1000
