"""``ygo-extractor query`` (issue 12 §2): every term kind against a direct computation on real
``tag`` output (the sample files, and the shared yaml-yugi when present), the boolean syntax,
errors that point at the character, the inputs (tag JSONL / SQLite / stdin, card databases tagged
on the fly) and the three output forms."""
from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.query import TAG_NAMES, QueryError, iter_records, parse

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "corpora" / "sample"


def _tag(args: list[str]) -> None:
    r = CliRunner().invoke(main, ["tag", *args, "--no-progress"])
    assert r.exit_code == 0, r.output


@pytest.fixture(scope="module")
def tagged(tmp_path_factory) -> Path:
    """The sample inputs tagged into one JSONL file (English, Chinese, four input kinds)."""
    d = tmp_path_factory.mktemp("q")
    parts = []
    for i, args in enumerate([[str(SAMPLE / "cards.jsonl")], [str(SAMPLE / "cards.cdb")],
                              [str(SAMPLE / "yaml-yugi.jsonl"), "--lang", "zh-CN"],
                              [str(SAMPLE / "yaml-yugi.jsonl"), "--lang", "zh-TW"],
                              [str(SAMPLE / "ygoprodeck.json")]]):
        out = d / f"part{i}.jsonl"
        _tag([*args, "-o", str(out)])
        parts.append(out.read_bytes())
    all_ = d / "all.jsonl"
    all_.write_bytes(b"".join(parts))
    return all_


@pytest.fixture(scope="module")
def records(tagged) -> list[dict]:
    """The cards of ``tagged`` that are cards (a line with an ``error`` is not queried)."""
    recs = [json.loads(line) for line in tagged.read_text(encoding="utf-8").splitlines()]
    assert any("error" in r for r in recs)  # the zh-TW column of the yaml-yugi sample has gaps
    return [r for r in recs if "error" not in r]


@pytest.fixture(scope="module")
def tagged_db(tmp_path_factory) -> Path:
    """The JSONL sample (English and Chinese) tagged into tag's SQLite output."""
    d = tmp_path_factory.mktemp("qdb")
    out = d / "cards.db"
    _tag([str(SAMPLE / "cards.jsonl"), "--format", "sqlite", "-o", str(out)])
    return out


def _keys(recs) -> list[tuple]:
    return [(r.get("id"), r.get("lang"), r.get("name")) for r in recs]


def _query(path, expr, **kw) -> list[tuple]:
    q = parse(expr)
    return _keys(o for o, _ in iter_records(str(path), needs=q.needs, **kw) if q.matches(o))


def _procs(r):
    return ((r.get("profile") or {}).get("special_summon") or {}).get("procedures") or []


# term -> the same selection computed directly from the record (no code of extractor.query)
DIRECT = {
    "is:nomi": lambda r: "nomi" in r["tags"],
    "is:semi-nomi": lambda r: "semi-nomi" in r["tags"],
    "tag:revive-limit": lambda r: "revive-limit" in r["tags"],
    "tag:cannot-normal-summon": lambda r: "cannot-normal-summon" in r["tags"],
    "tag:special-summon-only-by": lambda r: any(t.startswith("special-summon-only-by:") for t in r["tags"]),
    "tag:special-summon-only-by:fusion": lambda r: "special-summon-only-by:fusion" in r["tags"],
    "tag:builtin-special-summon-from:hand": lambda r: "builtin-special-summon-from:hand" in r["tags"],
    "kind:builtin-special-summon": lambda r: any(c["kind"] == "builtin-special-summon" for c in r["conditions"]),
    "kind:cannot-normal-summon": lambda r: any(c["kind"] == "cannot-normal-summon" for c in r["conditions"]),
    "kind:tributes-required": lambda r: any(c["kind"] == "tributes-required" for c in r["conditions"]),
    "from:hand": lambda r: any("hand" in p["locations"] for p in _procs(r)),
    "from:gy": lambda r: any("gy" in p["locations"] for p in _procs(r)),
    "from:graveyard": lambda r: any("gy" in p["locations"] for p in _procs(r)),
    "cost:none": lambda r: any(a["action"] == "none" for p in r["procedures"] for a in p["cost_actions"]),
    "cost:banish": lambda r: any(a["action"] == "banish" for p in r["procedures"] for a in p["cost_actions"]),
    "tributes:0": lambda r: r["tributes"] == 0,
    "tributes:2": lambda r: r["tributes"] == 2,
    "tributes>=1": lambda r: r["tributes"] is not None and r["tributes"] >= 1,
    "tributes<2": lambda r: r["tributes"] is not None and r["tributes"] < 2,
    "tributes!=0": lambda r: r["tributes"] is not None and r["tributes"] != 0,
    "tributes:none": lambda r: r["tributes"] is None,
    "summon:fusion": lambda r: any(m["summon"] == "fusion" for m in r["materials"]),
    "summon:synchro": lambda r: any(m["summon"] == "synchro" for m in r["materials"]),
    "summon:xyz": lambda r: any(m["summon"] == "xyz" for m in r["materials"]),
    "summon:link": lambda r: any(m["summon"] == "link" for m in r["materials"]),
    "summon:ritual": lambda r: r["profile"]["card_kind"] == "ritual" or any(m["summon"] == "ritual"
                                                                            for m in r["materials"]),
    "lang:en": lambda r: r["lang"] == "en",
    "lang:zh": lambda r: r["lang"].startswith("zh"),
    "lang:zh-TW": lambda r: r["lang"] == "zh-TW",
    "name:dragon": lambda r: "dragon" in r["name"].lower(),
    "dragon": lambda r: "dragon" in r["name"].lower(),
    'name:"dark armed"': lambda r: "dark armed" in r["name"].lower(),
    "IS:NOMI": lambda r: "nomi" in r["tags"],
}
# terms the sample must select some but not all cards for (so the comparison can fail)
PROPER = {"is:nomi", "is:semi-nomi", "tag:revive-limit", "tag:special-summon-only-by", "kind:builtin-special-summon",
          "from:hand", "cost:none", "tributes:2", "tributes>=1", "tributes:none", "lang:en", "lang:zh", "lang:zh-TW",
          "name:dragon", "dragon", "tag:special-summon-only-by:fusion", "kind:tributes-required"}


@pytest.mark.parametrize("expr", sorted(DIRECT))
def test_term_agrees_with_direct_computation(expr, tagged, records):
    want = _keys(r for r in records if DIRECT[expr](r))
    assert _query(tagged, expr) == want
    if expr in PROPER:
        assert 0 < len(want) < len(records), f"{expr}: the sample does not tell matching from not matching"


def test_tag_output_carries_only_known_tags(records):
    """TAG_NAMES (used to reject typos) covers every tag tag writes on the samples."""
    assert {t.split(":")[0] for r in records for t in r["tags"]} <= set(TAG_NAMES)


def test_sqlite_output_agrees_with_jsonl(tmp_path, tagged_db):
    src = tmp_path / "same.jsonl"
    _tag([str(SAMPLE / "cards.jsonl"), "-o", str(src)])
    recs = [json.loads(x) for x in src.read_text().splitlines()]
    for expr in ("is:nomi", "from:hand", "cost:none", "tributes>=2", "kind:builtin-special-summon", "lang:zh",
                 "-is:nomi dragon", "summon:fusion or summon:ritual"):
        got = _query(tagged_db, expr)
        assert got == _query(src, expr), expr
    assert _query(tagged_db, "is:nomi") == _keys(r for r in recs if "nomi" in r["tags"]) != []


def test_card_database_is_tagged_on_the_fly(tmp_path):
    out = tmp_path / "cdb.jsonl"
    _tag([str(SAMPLE / "cards.cdb"), "-o", str(out)])
    for expr in ("is:nomi or from:hand", "tributes:none", "-tag:revive-limit"):
        assert _query(SAMPLE / "cards.cdb", expr) == _query(out, expr), expr
    # a raw JSONL ({id, name, text, lang}) is a card database too, not tag output
    raw = _query(SAMPLE / "cards.jsonl", "is:nomi")
    assert raw and all(k[0] for k in raw)


def test_from_reads_the_tags_of_compact_output(tmp_path, records):
    """tag --compact leaves the profile out; from: then reads the builtin-special-summon-from tags."""
    full, compact = tmp_path / "full.jsonl", tmp_path / "compact.jsonl"
    _tag([str(SAMPLE / "cards.jsonl"), "-o", str(full)])
    _tag([str(SAMPLE / "cards.jsonl"), "-o", str(compact), "--compact"])
    assert all("profile" not in json.loads(x) for x in compact.read_text().splitlines())
    for loc in ("hand", "gy"):
        assert _query(compact, f"from:{loc}") == _query(full, f"from:{loc}")
    assert _query(compact, "from:hand")


def test_cost_and_summon_terms_on_records(tmp_path):
    """The cost and material fields are filled by other parts of the pipeline as they grow: the
    terms read them in tag's output shape (procedures[].cost_actions[].action, materials[].summon)."""
    recs = [
        {"id": 1, "name": "A", "lang": "en", "tags": [], "conditions": [], "tributes": None, "profile": None,
         "procedures": [{"cost_actions": [{"action": "banish"}, {"action": "send_to_gy"}]}], "materials": []},
        {"id": 2, "name": "B", "lang": "en", "tags": [], "conditions": [], "tributes": None,
         "profile": {"card_kind": "synchro"}, "procedures": [], "materials": [{"summon": "synchro"}]},
        {"id": 3, "name": "C", "lang": "en", "tags": [], "conditions": [], "tributes": None,
         "profile": {"card_kind": "ritual"}, "procedures": [{"cost_actions": [{"action": "none"}]}], "materials": []},
    ]
    p = tmp_path / "t.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    ids = lambda e: [k[0] for k in _query(p, e)]  # noqa: E731
    assert ids("cost:banish") == [1]
    assert ids("cost:send-to-gy") == ids("cost:send_to_gy") == [1]
    assert ids("cost:none") == [3]
    assert ids("summon:synchro") == [2]
    assert ids("summon:ritual") == [3]
    assert ids("summon:xyz") == []


# ---------------------------------------------------------------- boolean syntax

def _bag(path, expr) -> Counter:
    """The matches as a multiset: the sample holds some cards twice (one per input kind)."""
    return Counter(_query(path, expr))


def test_negation_is_the_complement(tagged, records):
    pos, neg = _bag(tagged, "is:nomi"), _bag(tagged, "-is:nomi")
    assert pos and neg and not pos & neg and pos + neg == Counter(_keys(records))
    assert _bag(tagged, "-(is:nomi or lang:en)") == Counter(_keys(records)) - _bag(tagged, "is:nomi or lang:en")


def test_side_by_side_is_and_or_is_union(tagged, records):
    pred = {"tag:revive-limit": DIRECT["tag:revive-limit"], "lang:en": DIRECT["lang:en"]}
    both = Counter(_keys(r for r in records if all(p(r) for p in pred.values())))
    either = Counter(_keys(r for r in records if any(p(r) for p in pred.values())))
    assert _bag(tagged, "tag:revive-limit lang:en") == both
    assert _bag(tagged, "tag:revive-limit or lang:en") == either
    assert _bag(tagged, "tag:revive-limit OR lang:en") == either
    assert both != either


def test_or_binds_looser_than_side_by_side_and_parentheses_group(tagged, records):
    nomi, rl, zh = DIRECT["is:nomi"], DIRECT["tag:revive-limit"], DIRECT["lang:zh"]
    loose = _bag(tagged, "is:nomi or tag:revive-limit lang:zh")
    grouped = _bag(tagged, "(is:nomi or tag:revive-limit) lang:zh")
    assert loose == Counter(_keys(r for r in records if nomi(r) or (rl(r) and zh(r))))
    assert grouped == Counter(_keys(r for r in records if (nomi(r) or rl(r)) and zh(r)))
    assert loose != grouped


def test_or_inside_a_word_is_a_word():
    q = parse("order")
    assert q.matches({"name": "Ordeal"}) is False and q.matches({"name": "Disorder"}) is True
    assert parse('"or"').matches({"name": "Sword or Shield"})


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("expr,pos,msg", [
    ("is:nomi or (from:gy", 19, "ends too early"),
    ("is:nomi )", 8, "')' without '('"),
    ("is:nomi or", 10, "ends too early"),
    ("or is:nomi", None, None),  # a leading 'or' is a word, not an error
    ('name:"great moth', 5, "unclosed quote"),
    ("foo:bar is:nomi", 0, "unknown keyword 'foo'"),
    ("lang:en is:nomii", 11, "did you mean 'nomi'"),
    ("kind:cannot-normal", 5, "unknown condition kind"),
    ("from:hnad", 5, "did you mean 'hand'"),
    ("summon:pendulum", 7, "unknown Summon"),
    ("from>gy", 4, "tributes only"),
    ("tributes>=two", 10, "needs a number"),
    ("is:", 3, "ends too early"),
    ("", 0, "empty query"),
    ("()", 1, "unexpected ')' (a term was expected)"),
    ('"(" )', 4, "')' without '('"),
])
def test_error_points_at_the_character(expr, pos, msg):
    if pos is None:
        parse(expr)
        return
    with pytest.raises(QueryError) as ei:
        parse(expr)
    e = ei.value
    assert e.pos == pos and msg in e.message
    lines = str(e).splitlines()
    assert lines[1] == "  " + expr and lines[2] == "  " + " " * pos + "^"


def test_cli_bad_query_exits_2_with_a_caret(tagged):
    r = CliRunner().invoke(main, ["query", str(tagged), "is:nomi or (from:gy"])
    assert r.exit_code == 2
    lines = r.output.splitlines()
    i = lines.index("  is:nomi or (from:gy")
    assert lines[i + 1].index("^") == 2 + len("is:nomi or (from:gy")


def test_cli_missing_input_is_a_usage_error(tmp_path):
    r = CliRunner().invoke(main, ["query", str(tmp_path / "nope.jsonl"), "is:nomi"])
    assert r.exit_code == 2 and "nope.jsonl" in r.output


# ---------------------------------------------------------------- outputs and inputs

def test_cli_count_json_and_lines(tagged, records):
    want = [r for r in records if "nomi" in r["tags"] or any("gy" in p["locations"] for p in _procs(r))]
    assert want
    r = CliRunner().invoke(main, ["query", str(tagged), "is:nomi or from:gy", "--count"])
    assert r.exit_code == 0 and r.stdout == f"{len(want)}\n"
    r = CliRunner().invoke(main, ["query", str(tagged), "is:nomi or from:gy", "--json"])
    assert r.exit_code == 0 and [json.loads(x) for x in r.stdout.splitlines()] == want
    r = CliRunner().invoke(main, ["query", str(tagged), "is:nomi or from:gy"])
    rows = [x.split("\t") for x in r.stdout.splitlines()]
    assert rows == [[str(w["id"]), w["name"], w["lang"], " ".join(w["tags"])] for w in want]
    r = CliRunner().invoke(main, ["query", str(tagged), "is:nomi", "--json", "--count"])
    assert r.exit_code == 2


def test_cli_json_from_a_card_database_is_tag_output(tmp_path):
    out = tmp_path / "t.jsonl"
    _tag([str(SAMPLE / "cards.cdb"), "-o", str(out)])
    want = [json.loads(x) for x in out.read_text().splitlines() if "nomi" in json.loads(x)["tags"]]
    r = CliRunner().invoke(main, ["query", str(SAMPLE / "cards.cdb"), "is:nomi", "--json"])
    assert r.exit_code == 0 and want and [json.loads(x) for x in r.output.splitlines()] == want


def test_table_on_a_terminal_shows_names_as_text(capsys):
    from extractor.query_cli import _table

    _table([{"id": 5, "name": "[bold]Moth[/bold]", "lang": "en", "tags": ["nomi"]}])
    out = capsys.readouterr().out
    assert "[bold]Moth[/bold]" in out and "nomi" in out and "1 card" in out


def test_standard_input_is_tag_jsonl(tagged, records):
    proc = subprocess.run([sys.executable, "-m", "extractor.cli", "query", "-", "is:nomi", "--count"],
                          input=tagged.read_bytes(), capture_output=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) == sum("nomi" in r["tags"] for r in records) > 0


def test_bad_lines_and_error_records_are_named_and_the_rest_is_queried(tmp_path, tagged, records):
    lines = tagged.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], "{not json", json.dumps({"id": 9, "name": "Broken", "lang": "en",
                                                                  "tags": [], "error": "card 9 'Broken': no text"}),
                              *lines[1:]]) + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["query", str(bad), "-is:nomi", "--count"])
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0] == str(sum("nomi" not in x["tags"] for x in records))
    assert "line 2: not JSON" in r.stderr and "card 9 'Broken': no text" in r.stderr


def test_old_sqlite_output_without_structure_columns(tmp_path, tagged_db):
    old = tmp_path / "old.db"
    con = sqlite3.connect(old)
    con.execute("CREATE TABLE cards (id INTEGER, name TEXT, lang TEXT, tags TEXT, tributes INTEGER, "
                "conditions TEXT, profile TEXT, registers TEXT, warnings TEXT, error TEXT)")
    src = sqlite3.connect(tagged_db)
    con.executemany("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?)", src.execute(
        "SELECT id, name, lang, tags, tributes, conditions, profile, registers, warnings, error FROM cards"))
    con.commit()
    con.close()
    assert _query(old, "is:nomi") == _query(tagged_db, "is:nomi") != []
    r = CliRunner().invoke(main, ["query", str(old), "cost:banish"])
    assert r.exit_code == 1 and "no procedures column" in r.output


# ---------------------------------------------------------------- the shared yaml-yugi

@pytest.fixture(scope="module")
def yaml_yugi(shared, tmp_path_factory) -> Path:
    src = shared / "data" / "yaml-yugi" / "cards.jsonl"
    if not src.is_file():
        pytest.skip("no yaml-yugi in ../shared")
    out = tmp_path_factory.mktemp("yy") / "yy.jsonl"
    _tag([str(src), "-o", str(out)])
    return out


def test_yaml_yugi_terms_agree(yaml_yugi):
    recs = [json.loads(x) for x in yaml_yugi.read_text(encoding="utf-8").splitlines()]
    assert len(recs) > 10000
    assert {t.split(":")[0] for r in recs for t in r["tags"]} <= set(TAG_NAMES)
    direct = {
        "is:nomi": lambda r: "nomi" in r["tags"],
        "tag:builtin-special-summon-from:gy": lambda r: "builtin-special-summon-from:gy" in r["tags"],
        "kind:special-summons-itself": lambda r: any(c["kind"] == "special-summons-itself" for c in r["conditions"]),
        "tributes:3": lambda r: r["tributes"] == 3,
        "from:gy": lambda r: any("gy" in p["locations"] for p in _procs(r)),
        "from:extra": lambda r: any("extra" in p["locations"] for p in _procs(r)),
        "summon:ritual": lambda r: r["profile"] is not None and r["profile"]["card_kind"] == "ritual",
        "cost:none": lambda r: any(a["action"] == "none" for p in r["procedures"] for a in p["cost_actions"]),
        "-is:nomi tributes>=2 dragon": lambda r: ("nomi" not in r["tags"] and (r["tributes"] or 0) >= 2
                                                  and "dragon" in r["name"].lower()),
    }
    for expr, pred in direct.items():
        want = _keys(r for r in recs if pred(r))
        assert 0 < len(want) < len(recs), expr
        assert _query(yaml_yugi, expr) == want, expr


def test_grammar_is_lark_lalr():
    from extractor.query import _parser

    assert _parser().options.parser == "lalr"
    assert re.search(r"_OR", _parser().source_grammar)
