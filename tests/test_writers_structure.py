"""Structure (procedures, materials, tribute_rules) in every output: the JSON Schema, CSV, SQLite
and explain (issue 10 §6)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.structure_models import StructureView, output_schema

SAMPLE = Path(__file__).resolve().parent.parent / "corpora" / "sample" / "cards.jsonl"
KEYS = ("procedures", "materials", "tribute_rules")


@pytest.fixture(scope="module")
def sample_jsonl(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("ws") / "out.jsonl"
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


# ---------------------------------------------------------------- JSON Schema

def test_schema_describes_structure_items():
    r = CliRunner().invoke(main, ["schema"])
    assert r.exit_code == 0
    schema = json.loads(r.stdout)
    props, defs = schema["properties"], schema["$defs"]
    assert props["procedures"]["items"] == {"$ref": "#/$defs/ProcedureItem"}
    assert props["tribute_rules"]["items"] == {"$ref": "#/$defs/TributeRuleItem"}
    assert props["materials"]["items"]["discriminator"]["propertyName"] == "summon"
    proc = defs["ProcedureItem"]
    assert proc["additionalProperties"] is False
    assert {"range", "once_per_turn", "cost_actions", "requires_condition", "requirement", "cost"} <= set(proc["properties"])
    assert "from" in defs["CostActionItem"]["properties"]  # the alias, as written in the output
    assert defs["SynchroMaterial"]["properties"]["summon"]["const"] == "synchro"
    assert schema == output_schema()


def test_real_output_fits_the_models_exactly(sample_jsonl):
    items = 0
    for rec in sample_jsonl:
        view = StructureView.model_validate({k: rec.get(k, []) for k in KEYS})
        # a round trip through the models gives the written items back: no key is unknown or lost
        assert view.model_dump(mode="json", by_alias=True, exclude_unset=True) == {k: rec.get(k, []) for k in KEYS}
        items += sum(len(rec.get(k, [])) for k in KEYS)
    assert items >= 15


def test_models_refuse_an_unknown_key():
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        StructureView.model_validate({"tribute_rules": [{"mode": "required", "tributes": 3, "span": [0, 1],
                                                         "pattern_id": "x", "colour": "red"}]})


# ---------------------------------------------------------------- CSV

def test_csv_cells_read_like_the_card():
    from extractor.writers import csv_materials, csv_procedures, csv_tribute_rules

    proc = {"range": ["hand"], "once_per_turn": True, "once_per_duel": False, "to_opponent_field": False,
            "position": "defense", "zone_restricted": False, "requires_condition": False,
            "cost_actions": [{"action": "banish", "count": [1, 1], "from": ["grave"]},
                             {"action": "banish", "count": [1, 1], "from": ["grave"]}]}
    assert csv_procedures([proc]) == "hand: banish 1 (gy) + banish 1 (gy); once per turn; in defense position"
    free = {"range": ["grave", "hand"], "cost_actions": [{"action": "none"}], "requires_condition": True,
            "requirement": {"kind": "control-no-monsters", "phrase": "If you control no monsters"}}
    lp = {"range": ["extra"], "cost_actions": [{"action": "pay_lp", "count": None}], "to_opponent_field": True}
    assert csv_procedures([free, lp]) == ("gy, hand: no cost; if: If you control no monsters"
                                          " | extra: pay LP (half); to the opponent's field")
    assert csv_materials([{"summon": "synchro", "tuner": [1, 1], "non_tuner": [1, None]}]) == "synchro: tuner 1, non-tuner 1+"
    assert csv_materials([{"summon": "xyz", "level": 4, "count": [2, 2], "alternative": True},
                          {"summon": "link", "count": [2, 4]}]) == "xyz: level 4, 2 (or alternative) | link: 2-4"
    assert csv_materials([{"summon": "fusion", "count": [3, 3], "named_materials": [89631139],
                           "named_names": ["Blue-Eyes White Dragon"]}]) == \
        "fusion: 3; named: Blue-Eyes White Dragon (89631139)"
    assert csv_tribute_rules([{"mode": "optional", "tributes": 1, "filter": "1 Dinosaur monster"},
                              {"mode": "required", "tributes": None}]) == "optional 1 (1 Dinosaur monster) | required ?"


def test_csv_output_has_the_structure_columns(tmp_path, sample_jsonl):
    import csv

    out = tmp_path / "out.csv"
    assert CliRunner().invoke(main, ["tag", str(SAMPLE), "-o", str(out)]).exit_code == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    assert {"procedures", "materials", "tribute_rules"} <= set(rows[0])
    assert len(rows) == len(sample_jsonl)
    for row, rec in zip(rows, sample_jsonl):
        assert row["id"] == str(rec["id"])
        assert (row["procedures"] != "") == bool(rec["procedures"])
        assert row["procedures"].count(" | ") == max(len(rec["procedures"]) - 1, 0)
        assert (row["materials"] != "") == bool(rec["materials"])
        assert (row["tribute_rules"] != "") == bool(rec["tribute_rules"])
    blue = next(r for r in rows if r["name"] == "Blue-Eyes Ultimate Dragon")
    assert blue["materials"] == "fusion: 3; named: Blue-Eyes White Dragon (89631139)"
    obelisk = next(r for r in rows if r["name"] == "Obelisk the Tormentor")
    assert obelisk["tribute_rules"] == "required 3"


# ---------------------------------------------------------------- SQLite

@pytest.fixture(scope="module")
def sample_db(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wsdb") / "out.db"
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


def test_sqlite_structure_is_related_tables(sample_db, sample_jsonl):
    con = sqlite3.connect(sample_db)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"cards", "card_tags", "procedures", "cost_actions", "materials", "material_names", "tribute_rules"} <= tables
    cols = {r[1] for r in con.execute("PRAGMA table_info(cards)")}
    assert "procedures" not in cols and "materials" not in cols  # no JSON text for the structure
    fks = {t: {(r[2], r[3], r[4]) for r in con.execute(f"PRAGMA foreign_key_list({t})")}
           for t in ("procedures", "cost_actions", "materials", "material_names", "tribute_rules")}
    assert fks["procedures"] == {("cards", "card_rowid", "card_rowid")}
    assert fks["cost_actions"] == {("procedures", "procedure_id", "procedure_id")}
    assert fks["material_names"] == {("materials", "material_id", "material_id")}
    assert fks["tribute_rules"] == {("cards", "card_rowid", "card_rowid")}
    indexes = {r[0] for r in con.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'index'")}
    assert {"procedures", "cost_actions", "materials", "material_names", "tribute_rules"} <= indexes
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    # one row per item of the JSONL output
    for table, key in (("procedures", "procedures"), ("materials", "materials"), ("tribute_rules", "tribute_rules")):
        assert con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == sum(len(r[key]) for r in sample_jsonl)
    n_costs = sum(len(p["cost_actions"]) for r in sample_jsonl for p in r["procedures"])
    assert con.execute("SELECT COUNT(*) FROM cost_actions").fetchone()[0] == n_costs


def test_sqlite_rows_say_what_the_jsonl_says(sample_db, sample_jsonl):
    con = sqlite3.connect(sample_db)
    by_card = {(r["id"], r["lang"]): r for r in sample_jsonl}
    # a SQL question a database user asks: Synchro Monsters with 1 Tuner and 1+ non-Tuners
    got = {(i, lg) for i, lg in con.execute(
        "SELECT c.id, c.lang FROM materials m JOIN cards c USING (card_rowid) "
        "WHERE m.summon = 'synchro' AND m.tuner_min = 1 AND m.non_tuner_min = 1 AND m.non_tuner_max IS NULL")}
    want = {k for k, r in by_card.items() if any(m["summon"] == "synchro" and m["tuner"] == [1, 1]
                                                 and m["non_tuner"] == [1, None] for m in r["materials"])}
    assert got == want != set()
    # procedures that Tribute from the field, with their counts
    got = {(i, lg, lo, hi) for i, lg, lo, hi in con.execute(
        "SELECT c.id, c.lang, a.count_min, a.count_max FROM cost_actions a JOIN procedures p USING (procedure_id) "
        "JOIN cards c USING (card_rowid) WHERE a.action = 'tribute' AND a.places = 'field'")}
    want = {(k[0], k[1], *(a["count"] or [None, None])) for k, r in by_card.items() for p in r["procedures"]
            for a in p["cost_actions"] if a["action"] == "tribute" and a.get("from") == ["field"]}
    assert got == want != set()
    # requirements and ranges
    for (cid, lang, rng, reqk, req) in con.execute(
            "SELECT c.id, c.lang, p.range, p.requirement_kind, p.requirement FROM procedures p JOIN cards c USING (card_rowid)"):
        (proc,) = by_card[(cid, lang)]["procedures"]
        assert rng.split() == proc["range"]
        assert req == (proc["requirement"] or {}).get("phrase")
        assert (reqk is None) == (proc["requirement"] is None)
    # named Fusion Materials: names with the passcodes the JSONL resolved
    got = {}
    for cid, lang, pc, name in con.execute(
            "SELECT c.id, c.lang, n.passcode, n.name FROM material_names n JOIN materials m USING (material_id) "
            "JOIN cards c USING (card_rowid)"):
        got.setdefault((cid, lang), []).append((pc, name))
    want = {k: r["materials"][0] for k, r in by_card.items() if r["materials"] and r["materials"][0].get("named_names")}
    assert set(got) == set(want) != set()
    for k, m in want.items():
        assert [n for _, n in got[k]] == m["named_names"]
        assert sorted(pc for pc, _ in got[k] if pc is not None) == m["named_materials"]
    assert (89631139, "Blue-Eyes White Dragon") in got[(23995346, "en")]
    # Tribute rules
    rules = {(i, lg, mode, t) for i, lg, mode, t in con.execute(
        "SELECT c.id, c.lang, r.mode, r.tributes FROM tribute_rules r JOIN cards c USING (card_rowid)")}
    assert rules == {(k[0], k[1], t["mode"], t["tributes"]) for k, r in by_card.items() for t in r["tribute_rules"]}


def test_query_reads_the_tables_as_the_jsonl(sample_db, sample_jsonl, tmp_path):
    from extractor.query import iter_records

    jsonl = tmp_path / "out.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in sample_jsonl), encoding="utf-8")
    from_db = {(r["id"], r["lang"]): r for r, _ in iter_records(str(sample_db))}
    assert len(from_db) == len(sample_jsonl)
    for rec in sample_jsonl:
        got = from_db[(rec["id"], rec["lang"])]
        for key in KEYS:
            assert len(got[key]) == len(rec[key])
        for g, w in zip(got["procedures"], rec["procedures"]):
            for f in ("range", "once_per_turn", "once_per_duel", "to_opponent_field", "position", "zone_restricted",
                      "requires_condition", "cost_actions"):
                assert g[f] == w[f], f
        for g, w in zip(got["materials"], rec["materials"]):
            assert {k: g[k] for k in g} == {k: w[k] for k in g}
    for expr in ("cost:tribute", "cost:none", "summon:synchro", "summon:fusion", "-cost:none is:nomi"):
        r_db = CliRunner().invoke(main, ["query", str(sample_db), expr, "--count"])
        r_js = CliRunner().invoke(main, ["query", str(jsonl), expr, "--count"])
        assert r_db.exit_code == r_js.exit_code == 0, expr
        assert r_db.stdout == r_js.stdout, expr
        assert expr.startswith("-") or r_db.stdout.split()[0] != "0", expr


# ---------------------------------------------------------------- explain

def _table_text(tab) -> str:
    from rich.console import Console

    import io

    con = Console(width=250, record=True, file=io.StringIO())
    con.print(tab)
    return con.export_text()


def test_explain_shows_the_procedure_table():
    text = ('Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT and 1 DARK '
            'monster from your GY. You can only Special Summon "Chaos Sorcerer" once per turn this way.')
    r = CliRunner().invoke(main, ["explain", text])
    assert r.exit_code == 0, r.output
    out = " ".join(r.stdout.split())
    assert "procedures (built-in Special Summons)" in out
    assert "banish 2 from gy: LIGHT and DARK monster" in out
    assert "once per turn" in out


def test_structure_tables_show_each_slot():
    from types import SimpleNamespace

    from extractor.explain import structure_tables

    res = SimpleNamespace(
        procedures=[{"range": ["grave", "hand"], "once_per_turn": False, "once_per_duel": True, "position": "defense",
                     "to_opponent_field": True, "zone_restricted": False, "requires_condition": True,
                     "requirement": {"kind": "control-no-monsters", "phrase": "If you control no monsters"},
                     "cost_actions": [{"action": "pay_lp", "count": 1000},
                                      {"action": "discard", "count": [1, None], "from": ["hand"]}],
                     "cost": [{"action": "pay-lp", "amount": 1000},
                              {"action": "discard", "places": ["hand"], "filter": {"phrase": "Spell"}}],
                     "span": [3, 40], "pattern_id": "en.x"}],
        materials=[{"summon": "synchro", "tuner": [2, 2], "non_tuner": [1, 1], "span": [0, 5], "pattern_id": "en.s"},
                   {"summon": "xyz", "level": 4, "count": [2, None], "alternative": True, "span": [0, 5], "pattern_id": "en.x"},
                   {"summon": "fusion", "count": [2, 2], "named_materials": [89631139], "span": [0, 5], "pattern_id": "en.f",
                    "named_names": ["Blue-Eyes White Dragon", "Nobody"]}],
        tribute_rules=[{"mode": "optional", "tributes": 1, "filter": "1 Dinosaur monster", "span": [0, 9], "pattern_id": "en.t"}])
    procs, mats, rules = (_table_text(t) for t in structure_tables(res))
    for want in ("gy, hand", "pay LP 1000", "discard 1+ from hand: Spell", "control-no-monsters: If you control no monsters",
                 "once per Duel", "to the opponent's field, defense position", "3-40"):
        assert want in procs, want
    for want in ("tuner 2, non-tuner 1", "2+", "yes", "Blue-Eyes White Dragon, Nobody (89631139)"):
        assert want in mats, want
    assert "optional" in rules and "1 Dinosaur monster" in rules
    assert structure_tables(SimpleNamespace(procedures=[], materials=[], tribute_rules=[])) == []


# ---------------------------------------------------------------- real databases

@pytest.mark.parametrize("db", ["goat-en-US.cdb", "goat-zh-CN.cdb", "prerelease-2026-zh-TW.cdb"])
def test_real_databases_fit_the_models_and_the_tables(shared, tmp_path, db):
    src = shared / "data" / "cdb" / db
    if not src.is_file():
        pytest.skip(f"no {db} in ../shared")
    jsonl, sqlite = tmp_path / "out.jsonl", tmp_path / "out.db"
    for out in (jsonl, sqlite):
        r = CliRunner().invoke(main, ["tag", str(src), "-o", str(out), "--no-progress"])
        assert r.exit_code == 0, r.output
    recs = [json.loads(x) for x in jsonl.read_text(encoding="utf-8").splitlines()]
    for rec in recs:
        view = StructureView.model_validate({k: rec.get(k, []) for k in KEYS})
        assert view.model_dump(mode="json", by_alias=True, exclude_unset=True) == {k: rec.get(k, []) for k in KEYS}
    con = sqlite3.connect(sqlite)
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    n_procs = sum(len(r.get("procedures", [])) for r in recs)
    assert n_procs > 20
    assert con.execute("SELECT COUNT(*) FROM procedures").fetchone()[0] == n_procs
    assert con.execute("SELECT COUNT(*) FROM materials").fetchone()[0] == sum(len(r.get("materials", [])) for r in recs)
    assert con.execute("SELECT COUNT(*) FROM cost_actions").fetchone()[0] == sum(
        len(p["cost_actions"]) for r in recs for p in r.get("procedures", []))


def test_sqlite_keeps_each_slot_of_a_procedure(tmp_path):
    from extractor.writers import Writer

    rec = {"id": 7, "name": "Test Card", "lang": "en", "tags": ["nomi"], "conditions": [], "profile": None,
           "procedures": [{"kind": "builtin", "range": ["grave", "hand"], "once_per_turn": True, "once_per_duel": False,
                           "to_opponent_field": False, "position": "defense", "zone_restricted": True,
                           "requires_condition": True,
                           "requirement": {"kind": "cards-in-gy", "phrase": "exactly 3 DARK monsters in your GY",
                                           "count": [3, 3]},
                           "cost_actions": [{"action": "banish", "count": [1, 2], "from": ["field", "grave"]},
                                            {"action": "pay_lp", "count": 1000},
                                            {"action": "detach", "count": [2, 2]}],
                           "cost": [{"action": "banish", "count": [1, 2], "places": ["field", "gy"],
                                     "filter": {"phrase": "face-up Level 5 or higher LIGHT Winged Beast monster",
                                                "attributes": ["LIGHT"], "types": ["Winged Beast"],
                                                "card_kinds": ["Effect Monster"], "levels": [5, None], "face_up": True,
                                                "names": ["Harpie Lady"], "archetypes": ["Harpie"]}},
                                    {"action": "pay-lp", "amount": 1000}, {"action": "detach", "amount": 2}],
                           "span": [0, 10], "pattern_id": "en.test"}],
           "materials": [{"summon": "xyz", "level": 4, "count": [2, None], "alternative": True, "span": [0, 3],
                          "pattern_id": "en.m"}],
           "tribute_rules": [{"mode": "optional", "tributes": 1, "filter": "1 Dinosaur monster", "span": [4, 9],
                              "pattern_id": "en.t"}]}
    out = tmp_path / "one.db"
    with Writer(str(out), "sqlite") as w:
        w.write(rec)
    con = sqlite3.connect(out)
    assert con.execute("SELECT range, once_per_turn, position, zone_restricted, requires_condition, requirement_kind, "
                       "requirement, requirement_count_min, requirement_count_max FROM procedures").fetchall() == [
        ("grave hand", 1, "defense", 1, 1, "cards-in-gy", "exactly 3 DARK monsters in your GY", 3, 3)]
    assert con.execute("SELECT action, count_min, count_max, amount, places, attributes, types, card_kinds, "
                       "level_min, level_max, face_up FROM cost_actions ORDER BY n").fetchall() == [
        ("banish", 1, 2, None, "field grave", "LIGHT", "Winged Beast", "Effect Monster", 5, None, 1),
        ("pay_lp", None, None, 1000, None, None, None, None, None, None, None),
        ("detach", None, None, 2, None, None, None, None, None, None, None)]
    assert con.execute("SELECT name, archetype FROM cost_action_names ORDER BY archetype").fetchall() == [
        ("Harpie Lady", 0), ("Harpie", 1)]
    assert con.execute("SELECT summon, level, count_min, count_max, alternative FROM materials").fetchall() == [
        ("xyz", 4, 2, None, 1)]
    assert con.execute("SELECT mode, tributes, filter FROM tribute_rules").fetchall() == [("optional", 1, "1 Dinosaur monster")]
    con.close()
    from extractor.query import iter_records

    ((back, _),) = list(iter_records(str(out)))
    assert back["procedures"][0]["cost_actions"] == rec["procedures"][0]["cost_actions"]
    assert back["materials"] == [{k: v for k, v in rec["materials"][0].items() if k not in ("span", "pattern_id")}]
