"""The shortcuts of the eighth speed pass on the objects after matching (docs/speed.md) give exactly
what the long way gives.

- ``json_parts`` writes a shared profile's bytes made by orjson from the models' fields (not from
  ``model_dump``'s dict): the same bytes, checked for every profile kept after real cards;
- ``_model_fields`` answers a model class that allows no extra fields from a set of classes: a class
  that allows them is still asked about each object;
- ``_method`` answers from a per-class note: the same answer as asking the class's ``model_fields``.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import orjson
import pytest
from pydantic import BaseModel, ConfigDict

import extractor.pipeline as P
from extractor import profile as prof
from extractor.pipeline import analyze, dump_result
from extractor.readers import read_cards
from test_fast_paths import _sample_cards

ROOT = Path(__file__).resolve().parent.parent
YAML_YUGI = ROOT.parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"


def _cards(step: int = 4) -> list:
    """The samples' cards, and every ``step``-th card of yaml-yugi in en, zh-CN and ja when
    ../shared is there."""
    cards = list(_sample_cards())
    if YAML_YUGI.is_file():
        for lang in ("en", "zh-CN", "ja"):
            items = itertools.islice(read_cards(YAML_YUGI, lang), 0, None, step)
            cards += [it.card for it in items if it.card is not None]
    return cards


def _old_method(c):
    """``_method`` as it was: the class asked each time."""
    fields = getattr(type(c), "model_fields", None)
    if fields is not None and "method" not in fields:
        return None
    return getattr(c, "method", None)


def test_shared_profile_bytes_are_model_dump_bytes_on_real_cards():
    results = [analyze(c) for c in _cards()]
    seen = 0
    for res in results:
        d = dump_result(res, parts=True)
        if res.profile is None:
            assert d["profile"] is None
            continue
        assert bytes(orjson.dumps(d["profile"])) == orjson.dumps(res.profile.model_dump(mode="json")), res.name
        seen += prof.shared(res.profile)
    assert seen > len(results) // 2  # the kept bytes were used
    kept = [p for p in prof._SHARED.values() if id(p) in P._SHARED_PROFILE_BYTES]
    assert len(kept) > 10
    for p in kept:  # every kept profile's bytes, whichever card made them
        assert orjson.dumps(P._SHARED_PROFILE_BYTES[id(p)]) == orjson.dumps(p.model_dump(mode="json"))


def test_model_fields_asks_each_object_of_a_class_that_allows_extra_fields():
    class Open(BaseModel):
        model_config = ConfigDict(extra="allow")
        a: int = 1

    class Closed(BaseModel):
        a: int = 1

    assert P._model_fields(Open()) == {"a": 1}  # no extra field: its fields
    assert Open not in P._NO_EXTRA
    with pytest.raises(TypeError):
        P._model_fields(Open(b=2))  # an extra field: refused, after a clean object of its class
    assert P._model_fields(Closed(a=3)) == {"a": 3}
    assert Closed in P._NO_EXTRA
    assert P._model_fields(Closed(a=4)) == {"a": 4}  # answered from the set
    with pytest.raises(TypeError):
        P._model_fields(object())


def test_method_is_the_answer_of_the_class_on_real_conditions():
    conds = [c for card in _cards(6) for c in analyze(card).conditions]
    assert len(conds) > 500
    kinds = set()
    for c in conds:
        assert P._method(c) == _old_method(c), c
        kinds.add((c.kind, P._method(c) is None))
    assert ("must-be-special-summoned", False) in kinds  # a kind with the field ...
    assert any(k != "must-be-special-summoned" and none for k, none in kinds)  # ... and kinds without it

    class Plain:
        method = "named-card"

    assert P._method(Plain()) == _old_method(Plain()) == "named-card"  # not a pydantic model: asked
