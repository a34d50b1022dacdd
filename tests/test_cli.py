import json
import sqlite3
import subprocess
import sys

from click.testing import CliRunner

from extractor.cli import main

from conftest import ROOT

SAMPLE = ROOT / "corpora" / "sample" / "cards.jsonl"


def test_tag_sample_jsonl(tmp_path):
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "-o", str(out)])
    assert r.exit_code == 0, r.output
    rows = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == sum(1 for _ in open(SAMPLE, encoding="utf-8"))
    dad = next(r for r in rows if r["id"] == 65192027 and r["lang"] == "en")
    assert "nomi" in dad["tags"] and dad["tributes"] is None
    c = dad["conditions"][0]
    text = next(json.loads(l)["text"] for l in open(SAMPLE, encoding="utf-8") if '"id": 65192027' in l)
    assert text[c["span"][0]:c["span"][1]] == c["phrase"]
    assert "cards 43" in r.output or "cards" in r.output


def test_bad_lines_become_error_lines_and_the_rest_goes_on(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text('{"id": 1, "name": "A", "text": "Cannot be Special Summoned.", "lang": "en", "type": "Fiend / Effect", "level": 4}\n'
                   'not json\n'
                   '{"id": 2, "name": "B", "lang": "en"}\n'
                   '{"id": 3, "name": "C", "text": "x", "lang": "xx"}\n'
                   '{"id": 4, "name": "D", "text": "Cannot be Normal Summoned/Set.", "lang": "en", "type": "Fiend / Effect", "level": 8}\n',
                   encoding="utf-8")
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["tag", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    rows = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(rows) == 5
    assert rows[0]["tags"] == ["cannot-special-summon"] and "error" not in rows[0]
    assert "line 2" in rows[1]["error"]
    assert "card 2" in rows[2]["error"] and "text" in rows[2]["error"]
    assert "unsupported language" in rows[3]["error"] and "card 3" in rows[3]["error"]
    assert "special-summon-monster" in rows[4]["tags"]
    assert "errors 3" in r.output


def test_csv_and_sqlite_outputs(tmp_path):
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "--format", "sqlite", "-o", str(tmp_path / "o.db")])
    assert r.exit_code == 0, r.output
    con = sqlite3.connect(tmp_path / "o.db")
    assert con.execute("SELECT COUNT(*) FROM cards").fetchone()[0] == 43
    assert con.execute("SELECT COUNT(*) FROM card_tags WHERE tag='nomi'").fetchone()[0] >= 1
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "--format", "csv", "-o", str(tmp_path / "o.csv")])
    assert r.exit_code == 0
    assert (tmp_path / "o.csv").read_text().startswith("id,name,lang,tags")


def test_missing_input_is_a_clear_error(tmp_path):
    r = CliRunner().invoke(main, ["tag", str(tmp_path / "nope.cdb")])
    assert r.exit_code != 0 and "no such file" in r.output


def test_schema_command():
    r = CliRunner().invoke(main, ["schema"])
    assert r.exit_code == 0
    s = json.loads(r.output)
    assert "conditions" in s["properties"] and "tags" in s["properties"]


def test_console_script_runs():
    r = subprocess.run([sys.executable, "-m", "extractor.cli", "explain", "Cannot be Special Summoned.", "--type", "Fiend / Effect", "--level", "4"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "cannot-special-summon" in r.stdout and "en.cannot-special-summon" in r.stdout


def test_explain_shows_profile_facts_with_their_source_span():
    text = ("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by having exactly 3 DARK "
            "monsters in your GY.")
    r = CliRunner().invoke(main, ["explain", text, "--type", "Dragon / Effect", "--level", "7"])
    assert r.exit_code == 0, r.output
    line = next(l for l in r.output.splitlines() if "nomi / semi-nomi" in l)
    assert "nomi" in line and "'Must be Special Summoned (from your hand) by having exactly 3 DARK monsters in your GY.' 31-118" in line
    r = CliRunner().invoke(main, ["explain", "2 Level 4 monsters", "--type", "Warrior / Xyz / Effect", "--level", "4"])
    line = next(l for l in r.output.splitlines() if "revive limit" in l)
    assert "True" in line and "frame rule" in line


def test_language_of_a_cdb_is_guessed_from_its_texts(tmp_path):
    db = tmp_path / "zh.cdb"
    con = sqlite3.connect(db)
    con.execute('CREATE TABLE datas (id INTEGER, ot INTEGER, alias INTEGER, setcode INTEGER, type INTEGER, atk INTEGER, '
                '"def" INTEGER, level INTEGER, race INTEGER, attribute INTEGER, category INTEGER)')
    con.execute('CREATE TABLE texts (id INTEGER, name TEXT, "desc" TEXT)')
    con.execute("INSERT INTO datas VALUES (1, 3, 0, 0, 33, 0, 0, 8, 0, 0, 0)")  # monster + effect, Level 8
    con.execute("INSERT INTO texts VALUES (1, '龍', '此卡不能通常召喚。')")
    con.commit()
    con.close()
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["tag", str(db), "-o", str(out)])
    assert r.exit_code == 0, r.output
    row = json.loads(out.read_text(encoding="utf-8"))
    assert row["lang"] == "zh-TW" and "special-summon-monster" in row["tags"]


def test_unknown_frame_is_warned_and_japanese_is_read(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 5, "name": "x", "lang": "ja", "text": "このカードは通常召喚できない。"}, ensure_ascii=False)
                   + "\n" + json.dumps({"id": "abc", "name": "y", "lang": "en", "text": "Cannot be Special Summoned."}) + "\n",
                   encoding="utf-8")
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["tag", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    ja, bad = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert ja["tributes"] is None
    assert not any("no ja patterns" in w for w in ja["warnings"]) and any("card type unknown" in w for w in ja["warnings"])
    assert [c["kind"] for c in ja["conditions"]] == ["cannot-normal-summon"]
    assert "'id' must be an integer passcode" in bad["error"] and "card 'y'" in bad["error"]


def test_output_folder_is_never_created(tmp_path):
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "-o", str(tmp_path / "missing" / "o.jsonl")])
    assert r.exit_code != 0 and "does not exist" in r.output
    assert not (tmp_path / "missing").exists()


def test_explain_refuses_text_and_id_together():
    r = CliRunner().invoke(main, ["explain", "Cannot be Special Summoned.", "--id", "1", "--input", str(SAMPLE)])
    assert r.exit_code != 0 and "not both" in r.output


def test_sqlite_tags_know_their_language(tmp_path):
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "--format", "sqlite", "-o", str(tmp_path / "o.db")])
    assert r.exit_code == 0, r.output
    con = sqlite3.connect(tmp_path / "o.db")
    langs = {l for (l,) in con.execute("SELECT DISTINCT lang FROM card_tags WHERE id = 65192027")}
    assert langs == {"en", "zh-CN", "zh-TW"}
    assert con.execute("SELECT registers FROM cards WHERE lang = 'zh-CN' AND registers != ''").fetchone()


def test_help_names_every_output_field_and_language_and_has_no_doc_markup():
    """``tag --help`` lists every field of a JSONL line (the CardResult model's fields) and ``ja``
    among the languages; no command's help shows the docstrings' Sphinx markup (:mod:, ``...``),
    which click prints as it is (a new user read ``:mod:`extractor.coverage``` there)."""
    import re

    from extractor.pipeline import CardResult

    runner = CliRunner()
    out = runner.invoke(main, ["tag", "--help"]).output
    flat = " ".join(out.split())
    for f in CardResult.model_fields:
        assert re.search(rf"\b{f}\b", flat), f
    assert "ja" in re.findall(r"[a-z]{2}(?:-[A-Z]{2})?", flat.split("--lang", 1)[1])
    assert "Japanese" in runner.invoke(main, ["--help"]).output
    for cmd in main.commands:
        text = runner.invoke(main, [cmd, "--help"]).output
        assert not re.search(r":(?:mod|func|class|data|meth):`|``", text), cmd
