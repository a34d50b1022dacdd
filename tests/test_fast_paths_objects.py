"""The shortcuts of the fifth speed pass after matching (docs/speed.md) give exactly what the long
way gives.

- ``build_profile`` keeps one profile per key (the frame facts and the condition fields it reads):
  it reads nothing else of the conditions or the frame (checked by recording what it asks), and the
  kept profile equals one built afresh, as do its tags;
- ``dump_result`` of a card with conditions (its profile's JSON kept) is ``model_dump``, byte for
  byte once written;
- the slot readers' kept results equal fresh ones.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import orjson
import pytest

from extractor import conditions as C
from extractor import profile as prof
from extractor.frame import Frame
from extractor.pipeline import CardResult, analyze, dump_result
from extractor.readers import read_cards
from extractor.tags import _tags, tags_from_profile

ROOT = Path(__file__).resolve().parent.parent
YAML_YUGI = ROOT.parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"
from test_fast_paths import _sample_cards  # the bundled samples' cards, every language


def _shared_cards(lang: str, step: int):
    """Every ``step``-th card of yaml-yugi in ``lang`` (or skip when ../shared is absent)."""
    if not YAML_YUGI.is_file():
        pytest.skip("needs ../shared/data")
    items = read_cards(YAML_YUGI, lang)
    return [it.card for it in itertools.islice(items, 0, None, step) if it.card is not None]


def _same_output(res: CardResult) -> None:
    assert orjson.dumps(dump_result(res)) == orjson.dumps(res.model_dump(mode="json")), res.name


def _check_profile(res: CardResult, frame: Frame) -> None:
    fresh = prof._build(res.conditions, frame)
    assert res.profile == fresh, res.name
    assert res.tags == _tags(fresh), res.name


def test_a_kept_profile_equals_a_fresh_one_on_the_samples():
    n = kept = 0
    for card in _sample_cards():
        res = analyze(card)
        if res.error:
            continue
        _check_profile(res, card.frame)
        n += 1
        kept += bool(res.conditions) and prof.shared(res.profile)
    assert n > 100 and kept > 10


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_kept_profiles_and_the_dump_on_yaml_yugi(lang):
    """On a fifth of yaml-yugi: each card's profile and tags equal fresh ones, and its output is
    model_dump's, byte for byte."""
    for card in _shared_cards(lang, 5):
        res = analyze(card)
        if not res.error:
            _check_profile(res, card.frame)
        _same_output(res)


def test_the_profile_of_a_key_is_one_object_and_its_tags_are_each_cards_own():
    frame = Frame(kind="main_monster", level=7)
    k = dict(pattern_id="t", lang="en")
    a = prof.build_profile([C.CannotNormalSummon(span=(0, 5), **k), C.BuiltinSpecialSummon(span=(6, 9), **k)], frame)
    b = prof.build_profile([C.CannotNormalSummon(span=(1, 2), phrase="x", **k),
                            C.BuiltinSpecialSummon(span=(3, 4), cost=(), **k)], frame)
    assert a is b and prof.shared(a)
    # another value of a field the profile reads: another key, another profile
    c = prof.build_profile([C.CannotNormalSummon(span=(0, 5), set_allowed=True, **k),
                            C.BuiltinSpecialSummon(span=(6, 9), **k)], frame)
    assert c is not a and c.normal_summon.set_allowed != a.normal_summon.set_allowed
    # the order counts: the basis lists hold indexes
    d = prof.build_profile([C.BuiltinSpecialSummon(span=(6, 9), **k), C.CannotNormalSummon(span=(0, 5), **k)], frame)
    assert d is not a and d.special_summon.procedures[0].basis == 0
    t1, t2 = tags_from_profile(a), tags_from_profile(a)
    assert t1 == t2 == _tags(a) and t1 is not t2
    # a frame that is not exactly a Frame: built afresh each time
    class MyFrame(Frame):
        pass
    assert prof.build_profile([], MyFrame(kind="main_monster", level=4)) is not \
        prof.build_profile([], MyFrame(kind="main_monster", level=4))


def _recording(cls, seen: set):
    """A subclass of ``cls`` whose instances note every attribute asked of them in ``seen``."""
    def get(self, name, _base=cls):
        if not name.startswith("__") and not name.startswith("model_"):
            seen.add((_base, name))
        return object.__getattribute__(self, name)
    return type("Recording" + cls.__name__, (cls,), {"__getattribute__": get, "__module__": __name__})


def _profile_reads(conditions, frame, seen):
    subs = [_recording(type(c), seen).model_validate(c.model_dump()) for c in conditions]
    f = _recording(Frame, seen).model_validate(frame.model_dump())
    assert prof._key(subs, f) is None  # (subclasses: built afresh, through isinstance)
    return prof.build_profile(subs, f)


def test_build_profile_reads_only_what_its_key_holds():
    """Every attribute build_profile asks of a condition is a field _READS lists for its class (so
    two cards with one key get the same profile); of the frame only kind, Level and Gemini (and the
    properties computed from the kind)."""
    seen: set = set()
    cases = []
    for card in _sample_cards():
        res = analyze(card)
        if res.conditions and not res.error:
            cases.append((res.conditions, card.frame, res.profile))
    if YAML_YUGI.is_file():
        for lang in ("en", "zh-CN", "ja"):
            for card in _shared_cards(lang, 10):
                res = analyze(card)
                if res.conditions and not res.error:
                    cases.append((res.conditions, card.frame, res.profile))
    assert len(cases) > 50
    for conds, frame, expected in cases:
        assert _profile_reads(conds, frame, seen) == expected
    allowed = {(cls, f) for cls, fs in prof._READS.items() for f in fs or ()}
    allowed |= {(Frame, f) for f in ("kind", "level", "gemini", "is_monster", "extra_deck", "frame_locked")}
    assert {(base, name) for base, name in seen} <= allowed
    classes = {base for base, _ in seen}
    assert not classes & {cls for cls, fs in prof._READS.items() if fs is None}  # not read at all


def test_the_classes_the_profile_does_not_read_change_nothing():
    """A condition of a class _READS marks as not read, swapped for another such condition, leaves
    the profile as it was (its place in the list stays)."""
    k = dict(pattern_id="t", lang="en")
    other = C.SummonLimit(span=(0, 1), **k)
    n = 0
    for card in _sample_cards():
        res = analyze(card)
        if res.error or not any(prof._READS.get(type(c), ()) is None for c in res.conditions):
            continue
        swapped = [other if prof._READS.get(type(c), ()) is None else c for c in res.conditions]
        assert prof._build(swapped, card.frame) == prof._build(res.conditions, card.frame), card.name
        n += 1
    assert n > 5
    assert set(prof._READS) == set(C.CONDITION_CLASSES.values())  # every kind is listed


def test_dump_result_of_cards_with_conditions_is_model_dump_byte_for_byte():
    n = direct = 0
    for card in _sample_cards():
        res = analyze(card)
        _same_output(res)
        n += 1
        direct += bool(res.conditions) and prof.shared(res.profile)
    assert n > 100 and direct > 10
    # a result whose profile is not a shared one: model_dump
    res = analyze(next(c for c in _sample_cards() if analyze(c).conditions))
    res.profile = prof._build(res.conditions, Frame(kind="main_monster", level=4))
    assert not prof.shared(res.profile)
    _same_output(res)



def test_kept_filters_and_locks_equal_fresh_ones():
    """read_filter and the player-lock builder keep their (frozen) results: the kept object equals
    one read afresh, on every phrase and lock a run over the samples (and some of yaml-yugi) read."""
    from extractor import slots

    for card in _sample_cards():
        analyze(card)
    if YAML_YUGI.is_file():
        for card in _shared_cards("zh-CN", 10) + _shared_cards("ja", 10) + _shared_cards("en", 10):
            analyze(card)
    assert slots.read_filter.cache_info().hits > 0 and C._player_lock.cache_info().hits > 0
    n = 0
    for card in _sample_cards():
        for c in analyze(card).conditions:
            if c.kind == "player-lock":
                lock = c.lock
                for f in ("exception", "locked"):
                    flt = getattr(lock, f)
                    if flt is not None:
                        assert slots.read_filter.__wrapped__(flt.phrase, c.lang) == flt
                        n += 1
            if c.kind == "tribute-rule" and c.filter is not None:
                assert slots.read_filter.__wrapped__(c.filter.phrase, c.lang) == c.filter
                n += 1
    assert n > 5


def test_a_player_lock_is_the_same_through_the_cache_and_without_it():
    k = dict(span=(0, 9), pattern_id="t", lang="en")
    fields = dict(who="you", what="special-summon", from_places=("extra",), duration="turn",
                  exception_text="Synchro Monsters", locked_text=None)
    a = C.PlayerLockCondition.model_validate({**fields, **k})
    b = C.PlayerLockCondition.model_validate({**fields, **k})
    assert a.lock is b.lock  # kept
    fresh = C._player_lock.__wrapped__("en", "you", "special-summon", ("extra",), None, "turn", "Synchro Monsters", None)
    assert a.lock == fresh and a.lock.exception.phrase == "Synchro Monsters" and a.lock.locked is None
    # a list of places cannot be a key: the lock is built without the cache, the same
    c = C.PlayerLockCondition.model_validate({**fields, "from_places": ["extra"], **k})
    assert c.lock == a.lock
    # blank words are no filter; a bad value is still an error
    d = C.PlayerLockCondition.model_validate({**fields, "exception_text": "  ", **k})
    assert d.lock.exception is None
    with pytest.raises(Exception):
        C.PlayerLockCondition.model_validate({**fields, "who": "nobody", **k})


# -- dump_result(parts=True): the JSONL writer's path (conditions and profile as their JSON bytes) --

def _parts_line(res) -> bytes:
    from extractor.writers import dumps_line

    return dumps_line(dump_result(res, parts=True), newline=True)


def _long_line(res) -> bytes:
    from extractor.writers import dumps_line

    return dumps_line(res.model_dump(mode="json"), newline=True)


def test_dump_result_parts_writes_the_bytes_of_model_dump_on_real_cards():
    """The JSONL path (orjson writing the models' fields through ``default``, the profile's kept
    bytes) against ``model_dump(mode="json")`` written by the same writer: every card of the samples
    and every 3rd card of yaml-yugi in en, zh-CN and ja."""
    cards = list(_sample_cards())
    if YAML_YUGI.is_file():
        cards += _shared_cards("en", 3) + _shared_cards("zh-CN", 3) + _shared_cards("ja", 3)
    n = conds = 0
    for card in cards:
        res = analyze(card)
        assert _parts_line(res) == _long_line(res), (card.id, card.lang)
        n += 1
        conds += bool(res.conditions)
    assert n > 100 and conds > 50
    if YAML_YUGI.is_file():
        assert n > 10000 and conds > 4000


def test_dump_result_parts_of_unshared_profiles_errors_and_changed_results():
    card = next(c for c in _sample_cards() if analyze(c).procedures)
    res = analyze(card)
    res.profile = prof._build(res.conditions, card.frame)  # a profile that is not a kept one
    assert not prof.shared(res.profile)
    assert _parts_line(res) == _long_line(res)
    res.tags = ["x"]
    res.warnings.append("added later \u2028 with a line separator")
    assert _parts_line(res) == _long_line(res)
    assert b"\\u2028" in _parts_line(res)
    bad = CardResult(id=1, name="n", lang="en", error="card 1 'n': broken")
    assert _parts_line(bad) == _long_line(bad)
    assert list(dump_result(res, parts=True)) == list(CardResult.model_fields)


def test_the_models_a_result_holds_serialize_as_their_fields():
    """``_model_fields`` gives a model's ``__dict__``: right only while no model of a result has an
    alias, a serializer, a computed or an excluded field (checked on every such class)."""
    from pydantic import BaseModel

    from extractor import slots
    from extractor.pipeline import _model_fields

    classes = [*C.CONDITION_CLASSES.values(), prof.Profile, prof.NormalSummonProfile, prof.SpecialSummonProfile,
               prof.Procedure, slots.CardFilter, slots.CostAction, slots.Requirement, slots.MaterialLine,
               slots.PlayerLock]
    for cls in classes:
        dec = cls.__pydantic_decorators__
        assert not dec.field_serializers and not dec.model_serializers, cls
        assert not cls.model_computed_fields, cls
        for name, f in cls.model_fields.items():
            assert f.alias is None and f.serialization_alias is None and not f.exclude, (cls, name)
    assert all(issubclass(cls, BaseModel) for cls in classes)
    with pytest.raises(TypeError):
        _model_fields({1, 2})


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, SystemExit])
def test_an_interrupt_inside_the_json_hook_is_raised_as_itself(monkeypatch, interrupt):
    """A signal (Ctrl-C, or the command line's Terminated) that arrives while orjson runs the
    models' hook must end ``tag`` as that signal, not as orjson's JSONEncodeError: CI once saw
    ``tag`` exit 1 instead of 130 that way."""
    import extractor.pipeline as P

    from extractor.card import Card

    res = analyze(Card(id=1, name="X", lang="en", frame=Frame(kind="main_monster", level=8),
                       text="Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing "
                            "3 DARK monsters from your GY."))
    assert res.conditions
    assert orjson.loads(orjson.dumps(dump_result(res, parts=True))) == res.model_dump(mode="json")

    def hook(obj):
        raise interrupt()

    monkeypatch.setattr(P, "_model_fields", hook)
    with pytest.raises(interrupt):
        P._dumps_models(res.conditions)
    with pytest.raises(interrupt):
        dump_result(res, parts=True)


def test_a_value_the_json_hook_refuses_is_still_a_type_error():
    import extractor.pipeline as P

    with pytest.raises(TypeError):
        P._dumps_models([object()])
