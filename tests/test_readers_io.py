"""Readers that never lose a card (issue 8 §2, the input half): standard input and pipes, the
byte-order mark, lenient JSON(L) decoding, cdb quirks, ids that are always int or None."""
import io
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from extractor.frame import Frame, cdb_type_problem
from extractor.readers import InputError, detect_format, read_cards

from test_readers import FUSION, MONSTER, EFFECT, SPELL, make_cdb

ROOT = Path(__file__).resolve().parent.parent


def summary(items):
    """What a reader gave, comparable across inputs: (id, name, lang, text, frame kind) or the error."""
    return [(it.card.id, it.card.name, it.card.lang, it.card.text, it.card.frame.kind) if it.card
            else ("error", it.id, it.error) for it in items]


# -- inputs of every kind, small (under the 4 KB detection head) and large ------------------------

def jsonl_input(n):
    return "".join(json.dumps({"id": i, "name": f"Card {i}", "text": f"Cannot be Special Summoned. {i}",
                               "lang": "en", "type": "Fiend / Effect", "level": 4}) + "\n" for i in range(1, n + 1))


def yaml_yugi_input(n):
    return "".join(json.dumps({"konami_id": i, "password": i, "name": {"en": f"Card {i}"},
                               "text": {"en": f"Cannot be Normal Summoned/Set. {i}"}, "card_type": "Monster",
                               "monster_type_line": "Dragon / Effect", "level": 8}) + "\n" for i in range(1, n + 1))


def ygoprodeck_input(n):
    return json.dumps({"data": [{"id": i, "name": f"Card {i}", "type": "Effect Monster", "desc": f"Text {i}.",
                                 "level": 4} for i in range(1, n + 1)]}, indent=1)


def i18n_input(n):
    return json.dumps({"cards": [{"id": i, "name": f"卡{i}", "lore": "这张卡不能通常召唤。" * 2}
                                 for i in range(1, n + 1)]}, ensure_ascii=False)


KINDS = {"jsonl": jsonl_input, "yaml-yugi": yaml_yugi_input, "ygoprodeck": ygoprodeck_input, "i18n": i18n_input}


def through_pipe(data: bytes):
    """A path like bash's ``<(cat f)`` (/dev/fd/N of a pipe), fed by a thread; and the thread."""
    r, w = os.pipe()

    def feed():
        with os.fdopen(w, "wb") as f:
            f.write(data)
    t = threading.Thread(target=feed, daemon=True)
    t.start()
    return r, t


@pytest.mark.parametrize("n", [2, 300])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_pipe_gives_the_same_cards_as_the_file(tmp_path, kind, n):
    """``tag <(cat f)``: format detection must not eat the first 4 KB (small inputs lost
    everything, large ones their first cards)."""
    data = KINDS[kind](n).encode("utf-8")
    assert (len(data) < 4096) == (n == 2)  # both sides of the detection head
    f = tmp_path / "in.txt"
    f.write_bytes(data)
    assert detect_format(f) == kind
    from_file = summary(read_cards(f))
    assert len(from_file) == n
    r, t = through_pipe(data)
    try:
        from_pipe = summary(read_cards(f"/dev/fd/{r}"))
    finally:
        os.close(r)
        t.join(5)
    assert from_pipe == from_file


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_dash_reads_standard_input(monkeypatch, tmp_path, kind):
    data = KINDS[kind](150).encode("utf-8")
    f = tmp_path / "in.txt"
    f.write_bytes(data)
    r, t = through_pipe(data)
    stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(r, "rb")))
    monkeypatch.setattr(sys, "stdin", stdin)
    got = summary(read_cards("-"))
    t.join(5)
    assert got == summary(read_cards(f)) and len(got) == 150
    assert not stdin.closed  # standard input is not ours to close
    stdin.close()


def run_cli(args, stdin_bytes):
    exe = Path(sys.executable).parent / "ygo-extractor"
    return subprocess.run([str(exe), *args], input=stdin_bytes, capture_output=True, timeout=120)


@pytest.mark.parametrize("path", ["/dev/stdin", "-"])
def test_cli_tag_from_a_pipe(path):
    """``cat x.jsonl | ygo-extractor tag /dev/stdin`` gave ``cards 0``."""
    sample = ROOT / "corpora" / "sample" / "cards.jsonl"
    data = sample.read_bytes()
    n = sum(1 for line in data.splitlines() if line.strip())
    p = run_cli(["tag", path, "--no-progress", "--compact"], data)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(lines) == n and n > 10
    assert [x["id"] for x in lines] == [json.loads(x)["id"] for x in data.splitlines() if x.strip()]
    assert f"cards {n}," in p.stderr.decode()


def test_sqlite_from_a_pipe_is_a_clear_input_error(tmp_path, monkeypatch):
    db = make_cdb(tmp_path / "c.cdb", [(1, MONSTER | EFFECT, 4)], [(1, "X", "Cannot be Special Summoned.")])
    data = db.read_bytes()
    r, t = through_pipe(data)
    try:
        with pytest.raises(InputError, match="cannot be read from a pipe or standard input"):
            read_cards(f"/dev/fd/{r}")
        # the same with the format given
    finally:
        os.close(r)
        t.join(5)
    r, t = through_pipe(data)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.FileIO(r, "rb"))))
    with pytest.raises(InputError, match="standard input"):
        read_cards("-", "en", "cdb")
    t.join(5)
    p = run_cli(["tag", "-"], data)
    assert p.returncode != 0 and b"pipe or standard input" in p.stderr and b"Traceback" not in p.stderr


# -- byte-order mark ----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_utf8_bom_is_accepted(tmp_path, kind):
    data = KINDS[kind](3).encode("utf-8")
    plain, bom = tmp_path / "plain.txt", tmp_path / "bom.txt"
    plain.write_bytes(data)
    bom.write_bytes(b"\xef\xbb\xbf" + data)
    assert detect_format(bom) == kind
    got = summary(read_cards(bom))
    assert got == summary(read_cards(plain)) and len(got) == 3
    assert all(x[0] != "error" for x in got)
    r, t = through_pipe(b"\xef\xbb\xbf" + data)
    try:
        assert summary(read_cards(f"/dev/fd/{r}")) == got
    finally:
        os.close(r)
        t.join(5)


def test_utf16_is_named(tmp_path):
    p = tmp_path / "u16.jsonl"
    p.write_bytes(jsonl_input(1).encode("utf-16"))
    with pytest.raises(InputError, match="UTF-16"):
        detect_format(p)


# -- lenient JSONL / JSON -----------------------------------------------------------------------

def test_jsonl_lines_that_are_not_strict_keep_their_id(tmp_path):
    p = tmp_path / "in.jsonl"
    p.write_bytes(b"\n".join([
        b'{"id": 1, "name": "Lone", "text": "Cannot be Special Summoned.\\udc00", "lang": "en"}',
        b'{"id": 2, "name": "Bytes", "text": "Cannot be Special Summoned.\xff\xfe", "lang": "en"}',
        b'{"id": 3, "name": "Tab", "text": "Cannot be\tSpecial Summoned.", "lang": "en"}',
        b'{"id": 4, "name": "Pair", "text": "\\ud83d\\ude00 ok", "lang": "en"}',
        b'{"id": 5, "name": "Broken", "text": "Cannot be',
        b'garbage "id" : "6" more garbage',
        b'no id here',
    ]) + b"\n")
    got = list(read_cards(p, "en"))
    assert len(got) == 7
    lone, bad, tab, pair, broken, garbage, noid = got
    assert lone.card.id == 1 and lone.card.text == "Cannot be Special Summoned.\ufffd"
    assert any("surrogate" in w and "line 1" in w for w in lone.warnings)
    assert bad.card.id == 2 and bad.card.text.startswith("Cannot be Special Summoned.\ufffd")
    assert any("invalid UTF-8" in w and "line 2" in w for w in bad.warnings)
    assert tab.card.id == 3 and tab.card.text == "Cannot be\tSpecial Summoned." and tab.warnings
    assert pair.card.text == "\U0001F600 ok" and pair.warnings == []  # a valid pair is strict JSON
    assert broken.card is None and broken.id == 5 and "line 5" in broken.error and "not JSON" in broken.error
    assert garbage.card is None and garbage.id == 6 and "line 6" in garbage.error
    assert noid.card is None and noid.id is None and "line 7" in noid.error


def test_yaml_yugi_line_that_is_not_strict_keeps_its_passcode(tmp_path):
    p = tmp_path / "cards.jsonl"
    good = json.dumps({"konami_id": 9, "password": 12345, "name": {"en": "A"}, "text": {"en": "Text.\\udc00"},
                       "card_type": "Monster", "monster_type_line": "Dragon / Effect", "level": 4})
    p.write_text(good.replace("\\\\udc00", "\\udc00") + "\n" + '{"konami_id": 10, "password": 777, "name": {"en"\n',
                 encoding="utf-8")
    assert detect_format(p) == "yaml-yugi"
    a, b = read_cards(p, "en")
    assert a.card.id == 12345 and a.card.text == "Text.\ufffd" and "surrogate" in a.warnings[0]
    assert b.card is None and b.id == 777 and "line 2" in b.error  # konami_id is not the passcode


def test_json_document_with_a_lone_surrogate_is_read_leniently(tmp_path):
    p = tmp_path / "cards.json"
    p.write_text('{"cards": [{"id": 1, "name": "A", "lore": "x\\udc00"}, {"id": 2, "name": "B", "lore": "fine"}]}',
                 encoding="utf-8")
    a, b = read_cards(p, "en")
    assert (a.card.id, a.card.text) == (1, "x\ufffd") and "surrogate" in a.warnings[0]
    assert (b.card.id, b.card.text, b.warnings) == (2, "fine", [])  # only the record that changed is flagged


def test_lenient_cards_still_tag_and_write(tmp_path):
    """The replaced characters never reach the writer as lone surrogates (orjson would refuse them)."""
    from extractor.pipeline import analyze
    import orjson
    p = tmp_path / "in.jsonl"
    p.write_bytes(b'{"id": 1, "name": "A\\udc00", "text": "Cannot be Special Summoned.\\udc00", "lang": "en"}\n')
    (it,) = read_cards(p)
    res = analyze(it.card)
    assert "cannot-special-summon" in res.tags
    assert orjson.loads(orjson.dumps(res.model_dump(mode="json")))["id"] == 1


# -- ids are int or None ------------------------------------------------------------------------

def test_error_ids_are_int_or_none(tmp_path):
    p = tmp_path / "in.json"
    p.write_text(json.dumps({"data": [
        {"id": "123", "name": "Str", "desc": "a", "type": "Spell Card"},
        {"id": 1.0, "name": "Float", "desc": "b", "type": "Spell Card"},
        {"id": "abc", "name": "Bad", "desc": "c", "type": "Spell Card"},
        {"id": 1.5, "name": "Half", "desc": "d"},
        {"id": "77", "name": "NoText"},
    ]}), encoding="utf-8")
    got = list(read_cards(p, "en"))
    assert [g.card.id for g in got[:2]] == [123, 1]
    assert got[2].card is None and got[2].id is None and "'abc'" in got[2].error and "Bad" in got[2].error
    assert got[3].card is None and got[3].id is None and "1.5" in got[3].error
    assert got[4].card is None and got[4].id == 77 and isinstance(got[4].id, int)


# -- cdb quirks ---------------------------------------------------------------------------------

def bare_cdb(path, datas, texts):
    """A cards.cdb WITHOUT primary keys or types on the id columns (as some tools write them)."""
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE datas (id, ot, alias, setcode, type, atk, def, level, race, attribute, category)")
    con.execute('CREATE TABLE texts (id, name, "desc")')
    con.executemany("INSERT INTO datas VALUES (?,3,0,0,?,0,0,?,0,0,0)", datas)
    con.executemany("INSERT INTO texts VALUES (?,?,?)", texts)
    con.commit()
    con.close()
    return path


def test_empty_or_non_sqlite_cdb_is_an_input_error(tmp_path):
    empty = tmp_path / "empty.cdb"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match=r"empty\.cdb: empty file \(0 bytes\)"):
        read_cards(empty)
    junk = tmp_path / "junk.cdb"
    junk.write_text('{"id": 1}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"junk\.cdb: not a SQLite database"):
        read_cards(junk)
    other = tmp_path / "cards.bin"
    other.write_text("hello", encoding="utf-8")
    with pytest.raises(InputError, match=r"cards\.bin: not a SQLite database"):
        read_cards(other, "en", "cdb")
    p = run_cli(["tag", str(empty)], b"")
    assert p.returncode != 0 and b"empty file" in p.stderr and b"cards 0" not in p.stderr


def test_cdb_texts_row_with_null_name_and_desc(tmp_path):
    db = make_cdb(tmp_path / "c.cdb", [(1, MONSTER | EFFECT, 4), (2, MONSTER | EFFECT, 4), (3, SPELL, 0)],
                  [(1, None, None), (3, "Named", None)])
    a, b, c = read_cards(db, "en")
    assert a.card is None and a.id == 1 and "no name and no desc" in a.error and "no texts row" not in a.error
    assert b.card is None and b.id == 2 and "no texts row" in b.error
    assert c.card.id == 3 and c.card.name == "Named" and c.card.text == ""


def test_cdb_duplicate_ids_give_one_item_each(tmp_path):
    db = bare_cdb(tmp_path / "dup.cdb",
                  datas=[(1, MONSTER | EFFECT, 4), (1, MONSTER | FUSION, 8), (2, SPELL, 0), (2, SPELL, 0)],
                  texts=[(1, "First", "Cannot be Special Summoned."), (1, "Second", "Other."),
                         (2, "S", "Draw."), (3, "T", "x"), (3, "T", "x")])
    got = list(read_cards(db, "en"))
    assert [g.card.id for g in got] == [1, 2, 3]  # not 2 x 2 rows for card 1
    one, two, three = got
    assert one.card.name == "First" and one.card.frame.kind == "main_monster"  # the first rows win
    assert any("2 texts rows" in w for w in one.warnings) and any("2 datas rows" in w for w in one.warnings)
    assert any("2 datas rows with this id (identical)" in w for w in two.warnings)
    assert any("2 texts rows with this id (identical)" in w for w in three.warnings)


def test_cdb_odd_ids(tmp_path):
    db = bare_cdb(tmp_path / "ids.cdb",
                  datas=[("123", MONSTER | EFFECT, 4), (7.0, SPELL, 0), ("abc", SPELL, 0), (9, SPELL, 0)],
                  texts=[("123", "Str", "a"), (7.0, "Float", "b"), ("abc", "Word", "c"), (None, "NoId", "d")])
    got = list(read_cards(db, "en"))
    cards = [g.card for g in got if g.card]
    assert [(c.id, c.name) for c in cards] == [(7, "Float"), (123, "Str")]
    errors = [g for g in got if g.card is None]
    assert all(g.id is None or isinstance(g.id, int) for g in got)
    assert {g.id for g in errors} == {9, None}
    msgs = " | ".join(g.error for g in errors)
    assert "'abc'" in msgs and "Word" in msgs and "NoId" in msgs


@pytest.mark.parametrize("typ", [-1, 0xFFFFFFFF, 0x6, 0x40, 0x80000000, 0])
def test_cdb_impossible_type_is_a_warning_and_an_unknown_frame(tmp_path, typ):
    db = bare_cdb(tmp_path / "t.cdb", datas=[(1, typ, 4), (2, MONSTER | EFFECT, 4)],
                  texts=[(1, "Odd", "Cannot be Special Summoned."), (2, "Fine", "Cannot be Special Summoned.")])
    odd, fine = read_cards(db, "en")
    assert odd.card.frame.kind is None  # never silently a Spell
    assert len(odd.warnings) == 1 and "frame unknown" in odd.warnings[0]
    assert fine.card.frame.kind == "main_monster" and fine.warnings == []
    from extractor.pipeline import analyze
    res = analyze(odd.card)
    assert "cannot-special-summon" in res.tags and res.tributes is None


def test_cdb_type_and_level_that_are_not_numbers(tmp_path):
    db = bare_cdb(tmp_path / "t.cdb", datas=[(1, "abc", 4), (2, MONSTER | EFFECT, "x"), (3, None, 4)],
                  texts=[(1, "A", "t"), (2, "B", "t"), (3, "C", "t")])
    a, b, c = read_cards(db, "en")
    assert a.card.frame.kind is None and "'abc' is not a number" in a.warnings[0]
    assert b.card.frame.kind == "main_monster" and "level 'x' is not a number" in b.warnings[0]
    assert c.card.frame.kind is None and "no type (NULL)" in c.warnings[0]


def test_cdb_text_with_invalid_utf8(tmp_path):
    db = tmp_path / "u.cdb"
    bare_cdb(db, datas=[(1, MONSTER | EFFECT, 4), (2, SPELL, 0)], texts=[(2, "Fine", "Draw.")])
    con = sqlite3.connect(db)
    con.execute('INSERT INTO texts VALUES (1, ?, CAST(? AS TEXT))', ("Bad", b"Cannot be Special Summoned.\xff"))
    con.commit()
    con.close()
    a, b = read_cards(db, "en")
    assert a.card.text == "Cannot be Special Summoned.\ufffd" and "invalid UTF-8" in a.warnings[0]
    assert b.card.text == "Draw."


def test_cdb_type_problem_and_frame():
    assert cdb_type_problem(MONSTER | EFFECT) is None and cdb_type_problem(0x8000000) is None  # a Skill card
    for bad in (-1, 0xFFFFFFFF, SPELL | 0x4, MONSTER | SPELL, FUSION, 0):
        assert cdb_type_problem(bad), hex(bad)
        assert Frame.from_cdb(bad, 4).kind is None
    assert Frame.from_cdb(SPELL, 0).kind == "spell"


def test_a_too_deeply_nested_line_is_one_error_and_the_rest_goes_on(tmp_path):
    p = tmp_path / "deep.jsonl"
    deep = '{"id": 5, "name": "Deep", "lang": "en", "text": "x", "extra": ' + "[" * 5000 + "]" * 5000 + "}"
    p.write_text(deep + "\n" + '{"id": 6, "name": "Fine", "lang": "en", "text": "Cannot be Special Summoned."}\n',
                 encoding="utf-8")
    a, b = read_cards(p)
    assert a.card is None and a.id == 5 and "line 1" in a.error and "nested too deeply" in a.error
    assert b.card.id == 6


@pytest.mark.parametrize("name", ["cards.jsonl", "yaml-yugi.jsonl", "ygoprodeck.json", "i18n-zh-TW.json"])
def test_the_bundled_samples_read_the_same_through_a_pipe(name):
    path = ROOT / "corpora" / "sample" / name
    if not path.exists():
        pytest.skip(f"corpora/sample/{name} is not present")
    from_file = summary(read_cards(path))
    r, t = through_pipe(path.read_bytes())
    try:
        assert summary(read_cards(f"/dev/fd/{r}")) == from_file and len(from_file) > 5
    finally:
        os.close(r)
        t.join(5)
