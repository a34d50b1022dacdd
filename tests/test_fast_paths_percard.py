"""The shortcuts of the sixth speed pass around matching (docs/speed.md) give exactly what the long
way gives.

- ``analyze`` of a card whose text states no condition skips the steps that return an empty list
  as they get it (the self-named Ritual line, the Summon limits of other cards, the material-line
  fit, the structure view): its result equals the one the general steps build;
- ``build_profile`` with no condition looks the kept profile up by the frame's facts alone: the same
  object the general key finds, equal to one built afresh;
- the JSONL writer writes a shared profile's JSON bytes (:class:`extractor.jsonbytes.JSONDict`) made
  once: every line is the line orjson writes for the plain dict of ``model_dump``.
"""
from __future__ import annotations


import orjson
import pytest

from extractor import profile as prof
from extractor.conditions import own_summon_limits
from extractor.frame import Frame
from extractor.pipeline import CardResult, _drop_self_named_ritual, analyze, dump_result
from extractor.structure import fit_material_lines, structure_of
from extractor.jsonbytes import JSONDict, json_dict
from extractor.writers import Writer, dumps_line

from test_fast_paths import _sample_cards  # the bundled samples' cards, every language
from test_fast_paths_objects import _shared_cards  # every step-th yaml-yugi card (skips without ../shared)


def _long_way(card, res: CardResult) -> dict:
    """The JSON form of ``res`` rebuilt by the general steps, each called as before the shortcut
    (on the card's empty condition list)."""
    conds: list = []
    conds = _drop_self_named_ritual(conds, card.name, card.lang)
    conds = own_summon_limits(conds, card.name, card.lang)
    conds = fit_material_lines(conds, card.frame)
    profile = prof._build(conds, card.frame)
    fields = {k: getattr(res, k) for k in CardResult.model_fields}
    fields.update(conditions=conds, profile=profile, **structure_of(conds, card.frame, None))
    return CardResult(**fields).model_dump(mode="json")


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_a_card_without_conditions_gets_what_the_general_steps_give(lang):
    n = 0
    for card in _shared_cards(lang, 7):
        res = analyze(card)
        if res.error or res.conditions:
            continue
        assert res.model_dump(mode="json") == _long_way(card, res), card.name
        assert res.procedures == [] and res.materials == [] and res.tribute_rules == []
        n += 1
    assert n > 500


def test_the_samples_without_conditions_get_what_the_general_steps_give():
    n = 0
    for card in _sample_cards():
        res = analyze(card)
        if res.error or res.conditions:
            continue
        assert res.model_dump(mode="json") == _long_way(card, res), (card.id, card.lang)
        n += 1
    assert n > 20


def test_structure_of_no_condition_is_the_empty_view_each_time():
    a, b = structure_of([], Frame.from_type_line("Warrior / Effect", 4)), structure_of([])
    assert a == b == {"procedures": [], "materials": [], "tribute_rules": []}
    a["procedures"].append("x")  # each call's lists are its own
    assert structure_of([])["procedures"] == []


def test_the_profile_of_no_condition_is_the_kept_one_of_its_frame():
    frames = [Frame.from_type_line(t, lv) for t, lv in (
        ("Warrior / Effect", 4), ("Dragon / Effect", 7), ("Spellcaster / Gemini / Effect", 5),
        ("Fiend / Fusion / Effect", 8), ("Machine / Link / Effect", None), ("Zombie / Ritual / Effect", 6),
        ("Spell", None), ("Trap", None), (None, None))] + [Frame()]
    for frame in frames:
        first = prof.build_profile([], frame)
        again = prof.build_profile([], frame)
        assert again is first and prof.shared(first), frame
        assert first == prof._build([], frame), frame
        assert prof._SHARED[prof._key([], frame)] is first  # the key the general path looks up


def _lines_written(tmp_path, objs) -> list[bytes]:
    out = tmp_path / "out.jsonl"
    with Writer(str(out), "jsonl") as w:
        for obj in objs:
            w.write(obj)
    return out.read_bytes().splitlines(keepends=True)


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_writer_writes_a_shared_profile_as_the_plain_dict(tmp_path, lang):
    cards = _shared_cards(lang, 5)
    results = [analyze(c) for c in cards]
    objs = [dump_result(r) for r in results]
    assert sum(type(o["profile"]) is JSONDict for o in objs) > len(objs) // 2  # the shortcut is taken
    lines = _lines_written(tmp_path, objs)
    assert len(lines) == len(results)
    for line, res in zip(lines, results):
        assert line == dumps_line(res.model_dump(mode="json")) + b"\n", res.name


def test_json_dict_is_a_plain_dict_to_readers_and_keeps_line_separators_escaped(tmp_path):
    plain = {"ritual_spell": "A\u2028B\u0085", "named_cards": ["x\u2029"], "n": 1}
    shared = json_dict(plain)
    assert shared == plain and orjson.dumps(shared) == orjson.dumps(plain)
    assert orjson.dumps(shared.fragment) == orjson.dumps(plain)
    obj = {"id": 1, "profile": shared}
    (line,) = _lines_written(tmp_path, [obj])
    assert line == dumps_line({"id": 1, "profile": plain}) + b"\n"
    assert b"\\u2028" in line and b"\\u0085" in line and b"\\u2029" in line and line.count(b"\n") == 1
    assert obj["profile"] is shared  # the writer leaves the caller's dict as it was


def _escaped_the_long_way(obj) -> bytes:
    """The line with every U+2028 / U+2029 / U+0085 escaped, each searched for unconditionally."""
    data = orjson.dumps(obj)
    for raw, escaped in ((b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"), (b"\xc2\x85", b"\\u0085")):
        data = data.replace(raw, escaped)
    return data


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_dumps_line_gates_escape_what_the_long_way_escapes_on_real_lines(lang):
    cards = _shared_cards(lang, 9)
    seen = 0
    for card in cards:
        obj = dump_result(analyze(card))
        line = dumps_line(obj)
        assert line == _escaped_the_long_way(obj), card.name
        assert dumps_line(obj, newline=True) == line + b"\n"
        seen += not line.isascii()
    assert seen > (0 if lang == "en" else len(cards) // 2)


def test_dumps_line_gates_on_lookalike_bytes():
    # E2 without E2 80 (circled numbers, bullets), E2 80 without a separator (quotes), C2 without 85
    for s in ("①●★", "“x”…", "A\u2028", "\u2029", "x\u0085y", "·\u00a0", "plain ascii", "①\u2028“”\u0085"):
        obj = {"t": s, "n": [s]}
        assert dumps_line(obj) == _escaped_the_long_way(obj), s
