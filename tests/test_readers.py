"""Readers (extractor/readers.py): every input format, bad records, format detection."""
import json
import sqlite3

import pytest

from extractor.readers import InputError, detect_format, read_cards

# ygopro type bits (../shared/data/README.md)
MONSTER, EFFECT, FUSION, SPELL, SPSUMMON = 0x1, 0x20, 0x40, 0x2, 0x2000000


def make_cdb(path, datas, texts):
    """A small cards.cdb: ``datas`` rows (id, type, level), ``texts`` rows (id, name, desc)."""
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE datas (id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER, setcode INTEGER, "
                "type INTEGER, atk INTEGER, def INTEGER, level INTEGER, race INTEGER, attribute INTEGER, "
                "category INTEGER)")
    cols = ", ".join(f"str{i} TEXT" for i in range(1, 17))
    con.execute(f'CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, "desc" TEXT, {cols})')
    for cid, typ, level in datas:
        con.execute("INSERT INTO datas VALUES (?,3,0,0,?,0,0,?,0,0,0)", (cid, typ, level))
    for cid, name, desc in texts:
        con.execute('INSERT INTO texts (id, name, "desc") VALUES (?,?,?)', (cid, name, desc))
    con.commit()
    con.close()
    return path


def items(path, lang=None, fmt=None):
    return list(read_cards(path, lang, fmt))


# -- cdb ----------------------------------------------------------------------------------------

@pytest.fixture
def cdb(tmp_path):
    return make_cdb(
        tmp_path / "cards.cdb",
        datas=[(100, MONSTER | EFFECT | SPSUMMON, 8), (200, MONSTER | FUSION, 7), (300, SPELL, 0),
               (400, MONSTER | EFFECT, 4)],  # 400: a datas row without texts
        texts=[(100, "Dragon A", "Cannot be Normal Summoned/Set."), (200, "Fusion B", "2 monsters"),
               (300, "Spell C", "Draw 2 cards."),
               (500, "Orphan D", "Cannot be Special Summoned.")])  # 500: a texts row without datas


def test_cdb_reads_cards_frames_and_gaps(cdb):
    got = items(cdb, "en")
    by_id = {(it.card.id if it.card else it.id): it for it in got}
    assert sorted(by_id) == [100, 200, 300, 400, 500]
    a = by_id[100].card
    assert (a.name, a.lang, a.text) == ("Dragon A", "en", "Cannot be Normal Summoned/Set.")
    assert a.frame.kind == "main_monster" and a.frame.level == 8
    assert by_id[200].card.frame.kind == "fusion" and by_id[200].card.frame.level == 7
    assert by_id[300].card.frame.kind == "spell"
    # a datas row with no texts row: an error naming the card, the batch goes on
    assert by_id[400].card is None and "400" in by_id[400].error and "texts" in by_id[400].error
    # a texts row with no datas row: read, with an unknown frame
    orphan = by_id[500].card
    assert orphan.text == "Cannot be Special Summoned." and orphan.frame.kind is None
    assert [i.card.id if i.card else i.id for i in got] == sorted(by_id)  # ordered by id


def test_cdb_lang_is_passed_on(cdb):
    assert {it.card.lang for it in items(cdb, "zh-CN") if it.card} == {"zh-CN"}


def test_cdb_is_opened_read_only_even_with_uri_characters_in_the_path(tmp_path):
    odd = tmp_path / "a#b?c%20d.cdb"
    make_cdb(odd, [(1, MONSTER | EFFECT, 4)], [(1, "X", "Cannot be Special Summoned.")])
    before = sorted(p.name for p in tmp_path.iterdir())
    got = items(odd, "en")
    assert [it.card.id for it in got] == [1]
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no stray database created


def test_sqlite_without_card_tables_is_an_input_error(tmp_path):
    p = tmp_path / "other.db"
    con = sqlite3.connect(p)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    assert detect_format(p) == "cdb"
    with pytest.raises(InputError, match="not a readable cards.cdb"):
        items(p)


# -- yaml-yugi ----------------------------------------------------------------------------------

def yy(password, en=None, zh=None, type_line="Dragon / Effect", card_type="Monster", level=8, **extra):
    d = {"konami_id": 1000 + (password or 0), "password": password,
         "name": {"en": f"Card {password}", "zh-CN": f"卡{password}"},
         "text": {k: v for k, v in (("en", en), ("zh-CN", zh)) if v is not None},
         "card_type": card_type, "monster_type_line": type_line, "level": level}
    d.update(extra)
    return json.dumps(d, ensure_ascii=False)


def test_yaml_yugi_picks_the_language_and_reports_missing_texts(tmp_path):
    p = tmp_path / "cards.jsonl"
    p.write_text("\n".join([
        yy(1, en="Cannot be Special Summoned.", zh="不能特殊召唤。"),
        yy(2, en="Only English here."),
        yy(None, en="A god.", fake_password=10000000),
        yy(3, en="Draw 1 card.", type_line=None, card_type="Spell", level=None),
        yy(4, en="2 Tuners", type_line="Dragon / Synchro / Effect", level=None, rank=None,
           pendulum_effect={"en": "Pendulum text."}),
        "{not json",
        "[1, 2]",
    ]) + "\n\n", encoding="utf-8")
    assert detect_format(p) == "yaml-yugi"
    en = items(p, "en")
    assert len(en) == 7  # the blank line is skipped
    assert [it.card.id for it in en[:5]] == [1, 2, 10000000, 3, 4]
    assert en[0].card.frame.kind == "main_monster" and en[0].card.frame.level == 8
    assert en[3].card.frame.kind == "spell"
    assert en[4].card.frame.kind == "synchro" and en[4].card.pendulum_effect == "Pendulum text."
    assert "line 6" in en[5].error and "JSON" in en[5].error
    assert "line 7" in en[6].error and "object" in en[6].error
    zh = items(p, "zh-CN")
    assert zh[0].card.text == "不能特殊召唤。" and zh[0].card.name == "卡1" and zh[0].card.lang == "zh-CN"
    # card 2 has no zh-CN text: an error naming the card and the language
    assert zh[1].card is None and zh[1].id == 2 and "zh-CN" in zh[1].error and "Card 2" not in zh[1].error
    assert "卡2" in zh[1].error


# -- YGOPRODeck, i18n, JSONL --------------------------------------------------------------------

YGOPRODECK = {"data": [
    {"id": 10, "name": "Syn", "type": "Synchro Monster", "desc": "1 Tuner + 1+ non-Tuner monsters", "level": 8},
    {"id": 11, "name": "Spl", "type": "Spell Card", "desc": "Draw 2 cards."},
    {"id": 12, "name": "Pend", "type": "Pendulum Effect Monster", "desc": "Monster text.", "pend_desc": "Scale text.",
     "level": 4},
    {"id": 13, "name": "NoText", "type": "Effect Monster"},
    "junk",
]}


@pytest.mark.parametrize("indent", [None, 2])
def test_ygoprodeck_compact_and_pretty(tmp_path, indent):
    p = tmp_path / "cardinfo.json"
    p.write_text(json.dumps(YGOPRODECK, indent=indent), encoding="utf-8")
    assert detect_format(p) == "ygoprodeck"
    got = items(p, "en")
    assert [it.card.id for it in got[:3]] == [10, 11, 12]
    assert got[0].card.frame.kind == "synchro" and got[0].card.frame.level == 8
    assert got[1].card.frame.kind == "spell"
    assert got[2].card.frame.pendulum and got[2].card.pendulum_effect == "Scale text."
    assert got[3].card is None and "13" in got[3].error and "text" in got[3].error
    assert got[4].card is None and "record 5" in got[4].error


def test_ygoprodeck_bare_list(tmp_path):
    p = tmp_path / "list.json"
    p.write_text(json.dumps(YGOPRODECK["data"][:2]), encoding="utf-8")
    assert detect_format(p) == "ygoprodeck"
    assert [it.card.id for it in items(p)] == [10, 11]


@pytest.mark.parametrize("indent", [None, 1])
def test_i18n_json(tmp_path, indent):
    p = tmp_path / "cards.zh-TW.json"
    p.write_text(json.dumps({"source": "x", "cards": [
        {"id": 1, "name": "甲", "lore": "這張卡不能通常召喚。"},
        {"id": "2", "name": "乙", "lore": None},
        7,
    ]}, ensure_ascii=False, indent=indent), encoding="utf-8")
    assert detect_format(p) == "i18n"
    got = items(p, "zh-TW")
    assert got[0].card.id == 1 and got[0].card.lang == "zh-TW" and got[0].card.frame.kind is None
    assert got[1].card is None and got[1].id == 2 and "乙" in got[1].error
    assert got[2].card is None and "record 3" in got[2].error


def test_i18n_without_a_card_list_is_an_input_error(tmp_path):
    p = tmp_path / "x.json"
    p.write_text('{\n "cards": {"a": 1}\n}', encoding="utf-8")
    with pytest.raises(InputError, match="cards"):
        items(p, "en", "i18n")


def test_jsonl_with_bad_lines(tmp_path):
    p = tmp_path / "in.jsonl"
    p.write_text("\n".join([
        '{"id": 1, "name": "A", "text": "Cannot be Special Summoned.", "lang": "en", "type": "Fiend / Effect", "level": 4}',
        'not json',
        '{"id": 2, "name": "B", "lang": "en"}',
        '["a list"]',
        '{"id": 3, "name": "C", "text": "x"}',
        '{"id": 4, "name": "D", "text": "x", "lang": 5}',
        '{"id": "5", "name": "E", "desc": "old field", "lang": "zh-TW", "type": ["odd"]}',
    ]) + "\n", encoding="utf-8")
    assert detect_format(p) == "jsonl"
    got = items(p)  # no --lang
    assert got[0].card.id == 1 and got[0].card.frame.kind == "main_monster" and got[0].card.frame.level == 4
    assert got[1].card is None and "line 2" in got[1].error
    assert got[2].card is None and "line 3" in got[2].error and "text" in got[2].error
    assert got[3].card is None and "line 4" in got[3].error
    assert got[4].card is None and "lang" in got[4].error  # no lang in the record nor on the command line
    assert got[5].card is None and "card 4" in got[5].error and "lang" in got[5].error
    assert got[6].card.id == 5 and got[6].card.text == "old field" and got[6].card.lang == "zh-TW"
    assert got[6].card.frame.kind is None
    # with --lang the record without one is read; a record's own lang still wins
    again = items(p, "en")
    assert again[4].card.lang == "en" and again[6].card.lang == "zh-TW"


def test_detect_format_errors(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        detect_format(tmp_path / "missing.cdb")
    with pytest.raises(InputError, match="directory"):
        detect_format(tmp_path)
    p = tmp_path / "x.txt"
    p.write_text("hello", encoding="utf-8")
    with pytest.raises(InputError, match="unknown format"):
        detect_format(p)
    with pytest.raises(InputError, match="unknown format"):
        read_cards(p, "en", "nope")


def test_detect_one_line_jsonl_with_a_long_first_line(tmp_path):
    p = tmp_path / "long.jsonl"
    p.write_text(json.dumps({"id": 1, "name": "A", "text": "x" * 6000, "lang": "en"}) + "\n", encoding="utf-8")
    assert detect_format(p) == "jsonl"
    assert items(p)[0].card.id == 1


# -- real data ----------------------------------------------------------------------------------

def test_real_goat_cdb_first_cards(shared):
    path = shared / "data" / "cdb" / "goat-en-US.cdb"
    if not path.exists():
        pytest.skip("goat-en-US.cdb is not present")
    assert detect_format(path) == "cdb"
    it = read_cards(path, "en")
    first = [next(it) for _ in range(20)]
    cards = [x.card for x in first if x.card]
    assert len(cards) >= 15
    assert all(c.text and c.name and c.lang == "en" for c in cards)
    assert all(isinstance(c.id, int) and c.id > 0 for c in cards)
    assert {c.frame.kind for c in cards} - {None} <= {"main_monster", "ritual", "fusion", "spell", "trap"}
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    (n_texts,) = con.execute("SELECT COUNT(*) FROM texts").fetchone()
    con.close()
    assert sum(1 for x in read_cards(path, "en") if x.card) == n_texts


# -- dependencies point one way -------------------------------------------------------------------

def test_readers_do_not_import_the_pipeline():
    """issue 9 §5: ``readers`` is the first stage; importing it must not load ``pipeline``."""
    import subprocess
    import sys
    code = ("import sys, extractor.readers, extractor.card; "
            "print('extractor.pipeline' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    from extractor.card import Card
    from extractor.pipeline import Card as PipelineCard
    assert PipelineCard is Card  # re-exported, one model
