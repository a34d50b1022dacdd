"""The STRUCTURE.md view of tag output (extractor.structure): shape and the mapping of names."""
from extractor.frame import Frame
from extractor.pipeline import Card, analyze
from extractor.structure import place_name


def _res(text: str, type_line: str, level: int):
    return analyze(Card(id=1, name="x", lang="en", text=text, frame=Frame.from_type_line(type_line, level)))


def test_procedure_default_range_and_shape():
    r = _res("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT and "
             "1 DARK monster from your GY.", "Warrior / Effect", 8)
    assert len(r.procedures) == 1
    p = r.procedures[0]
    assert p["range"] == ["hand"] and p["kind"] == "builtin"
    assert set(p) >= {"once_per_turn", "to_opponent_field", "position", "zone_restricted", "cost_actions",
                      "requires_condition", "span", "pattern_id"}


def test_extra_deck_default_range():
    r = _res("Must first be Special Summoned by shuffling the above cards you control into the Deck. "
             "(You do not use \"Polymerization\".)", "Warrior / Fusion / Effect", 8)
    assert [p["range"] for p in r.procedures] in ([["extra"]], [])


def test_tribute_rules():
    r = _res("You can Normal Summon this card without Tributing.", "Dragon / Effect", 5)
    assert {"mode": "optional", "tributes": 0} == {k: r.tribute_rules[0][k] for k in ("mode", "tributes")}
    r = _res("Requires 3 Tributes to Normal Summon (cannot be Normal Set).", "Divine-Beast / Effect", 10)
    assert [(t["mode"], t["tributes"]) for t in r.tribute_rules] == [("required", 3)]


def test_place_names():
    assert place_name("gy") == "grave" and place_name("opp-field") == "opp_field" and place_name("hand") == "hand"
