"""Card names -> passcodes (extractor/names.py): the canonical folding of names, the loose
fallback, the shipped alias table of older names (built by tools/build_name_aliases.py from
../shared/data), and its use by tag, validate and the SQLite writer."""
from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from extractor import names as N
from extractor.cli import main
from extractor.frame import Frame
from extractor.normalize.common import PATTERNS_DIR
from extractor.pipeline import Card
from extractor.structure import input_names

from conftest import ROOT

FUSION = Frame.from_type_line("Warrior / Fusion / Effect", 6)
MAIN = Frame.from_type_line("Warrior / Normal", 3)


def _shipped() -> dict:
    with PATTERNS_DIR.joinpath(*N.ALIAS_FILE).open("rb") as f:
        return json.loads(gzip.decompress(f.read()))


# -- the folding -----------------------------------------------------------------------------

@pytest.mark.parametrize("a,b,lang", [
    ("元素英雄 新宇侠", "「元素英雄　新宇侠」", "zh-CN"),          # full-width space, 「」 quotes
    ("新空间人・火焰甲虫", "新空间人·火焰甲虫", "zh-CN"),            # ・ / ·
    ("新空间人‧火焰甲虫", "“新空间人•火焰甲虫”", "zh-CN"),          # ‧ / •, “” quotes
    ("VW－虎式弹射器", "VW-虎式弹射器", "zh-CN"),                  # － / -
    ("ＶＷ－虎式弹射器", "VW-虎式弹射器", "zh-CN"),                 # full-width letters
    ("新宇俠", "新宇侠", "zh-TW"),                                # Traditional / Simplified
    ("Elemental Hero Neos", '"Elemental HERO Neos"', "en"),       # case, quotes
    ("Blue–Eyes White Dragon", "Blue-Eyes White Dragon", "en"),   # en dash / hyphen
])
def test_names_written_differently_have_one_key(a, b, lang):
    assert N.name_key(a, lang) == N.name_key(b, lang)


def test_the_exact_key_keeps_dots_and_dashes_the_loose_key_drops_them():
    # 黑·魔·导 ("Dark Magic Attack") and 黑魔导 ("Dark Magician") are two cards
    assert N.name_key("黑·魔·导", "zh-CN") != N.name_key("黑魔导", "zh-CN")
    assert N.loose_key(N.name_key("黑·魔·导", "zh-CN")) == N.name_key("黑魔导", "zh-CN")
    assert N.loose_key(N.name_key("元素－英雄 新宇侠", "zh-CN")) == N.name_key("元素英雄 新宇侠", "zh-CN")


def test_name_keys_gives_name_key_of_each_name():
    names = ["元素－英雄 泡沫人", "新空間人・火焰甲蟲", "「黑魔导」", "Elemental HERO Neos"]
    for lang in ("zh-CN", "zh-TW", "en"):
        assert N.name_keys(names, lang) == [N.name_key(n, lang) for n in names]


# -- lookup order and ambiguity ---------------------------------------------------------------

def test_lookup_exact_before_loose_and_a_loose_key_two_cards_share_is_not_resolved():
    table = N.name_table([(N.name_key("黑·魔·导", "zh-CN"), 2314238), (N.name_key("黑魔导", "zh-CN"), 46986414),
                          (N.name_key("元素－英雄 泡沫人", "zh-CN"), 79979666)])
    assert N.resolve_name("黑魔导", "zh-CN", table) == 46986414
    assert N.resolve_name("黑・魔・导", "zh-CN", table) == 2314238
    assert N.resolve_name("黑-魔-导", "zh-CN", table) is None          # loosely both cards: never guessed
    assert N.resolve_name("元素英雄 泡沫人", "zh-CN", table) == 79979666  # loosely one card


def test_a_key_two_cards_share_is_ambiguous_unless_they_are_one_card():
    t = N.name_table([("a", 1), ("a", 2), ("b", 3)])
    assert t["a"] is None and t["b"] == 3 and N.lookup("a", "en", t) is None
    t = N.name_table([("a", 1), ("a", 2)], same=lambda ids: 7)
    assert t["a"] == 7


def test_the_input_wins_over_the_alias_table_and_no_input_resolves_nothing():
    zh = "元素英雄 水泡侠"  # an older zh-CN name of "Elemental HERO Bubbleman"
    assert N.resolve_name(zh, "zh-CN", N.NameTable()) == 79979666   # through the alias table
    assert N.resolve_name(zh, "zh-TW", N.NameTable()) == 79979666   # zh-TW keys meet zh-CN ones
    assert N.resolve_name(zh, "zh-CN", {N.name_key(zh, "zh-CN"): 5}) == 5
    assert N.resolve_name(zh, "zh-CN", None) is None               # standard input, explain TEXT
    assert N.resolve_name("No Such Card At All", "en", N.NameTable()) is None
    assert N.resolve_name(zh, "ja", N.NameTable()) is None          # no Japanese aliases


def test_the_alias_table_is_read_only_when_a_name_is_not_in_the_input():
    N._table.cache_clear()
    N._aliases.cache_clear()
    key = N.name_key("元素－英雄 泡沫人", "zh-CN")
    assert N.lookup(key, "zh-CN", N.name_table([(key, 79979666)])) == 79979666
    assert N._table.cache_info().currsize == 0 and N._aliases.cache_info().currsize == 0
    assert N.resolve_name("元素英雄 水泡侠", "zh-CN", N.name_table([(key, 79979666)])) == 79979666
    assert N._aliases.cache_info().currsize == 1


def test_input_names_gives_one_card_printed_twice_its_main_passcode():
    cards = [Card(id=36996508, name="Dark Magician", lang="en", text="x", frame=MAIN),
             Card(id=46986414, name="Dark Magician", lang="en", text="x", frame=MAIN),
             Card(id=1, name="Same Name", lang="en", text="x", frame=MAIN),
             Card(id=2, name="Same Name", lang="en", text="x", frame=MAIN)]
    t = input_names(cards)
    assert t[N.name_key("Dark Magician", "en")] == 46986414 == N.main_passcode(36996508)
    assert t[N.name_key("Same Name", "en")] == 1  # two cards of one name: the first (one material by name)


# -- the shipped table --------------------------------------------------------------------------

def test_shipped_table_holds_only_names_that_differ_from_the_key_of_their_current_name(shared):
    """Every alias resolves to a card of the current pool (yaml-yugi) whose current name keys
    differently (a name equal to the current one is not kept: the input holds it)."""
    current: dict[int, dict[str, str]] = {}
    with open(shared / "data" / "yaml-yugi" / "cards.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d.get("password"):
                current[d["password"]] = d["name"]
    table = _shipped()
    assert table["en"] and table["zh"]
    for group, lang, field in (("en", "en", "en"), ("zh", "zh-CN", "zh-CN")):
        names = list(table[group])
        for name, key in zip(names, N.name_keys(names, lang)):
            pc = table[group][name]
            assert pc in current, name
            now = current[pc].get(field)
            assert now is None or N.name_key(now, lang) != key, (name, now)


def test_old_names_of_a_real_database_resolve_to_their_card(shared):
    """Names of the 2005 goat zh-CN database that yaml-yugi writes otherwise resolve, through the
    alias table alone, to the passcode the goat database gives them (or stay unresolved when two
    cards share the name: never another card)."""
    con = sqlite3.connect(f"file:{shared / 'data' / 'cdb' / 'goat-zh-CN.cdb'}?mode=ro", uri=True)
    rows = con.execute("SELECT d.id, d.alias, t.name FROM datas d JOIN texts t USING (id)").fetchall()
    con.close()
    empty = N.NameTable()
    resolved = wrong = 0
    for pc, alias, name in rows:
        got = N.resolve_name(name, "zh-CN", empty)
        if got is None:
            continue
        resolved += 1
        wrong += got not in (pc, alias, N.main_passcode(pc))
    assert wrong == 0 and resolved > 500


def test_the_shipped_table_is_what_the_build_script_gives(shared):
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "build_name_aliases.py"), "--check",
                        "--data", str(shared / "data")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "up to date" in r.stdout and "zh aliases:" in r.stdout


# -- tag, validate, SQLite -----------------------------------------------------------------------

def _zh_input(tmp_path):
    src = tmp_path / "cards.jsonl"
    rows = [
        # the input's own (current) names ...
        {"id": 21844576, "name": "元素－英雄 羽毛人", "lang": "zh-CN", "text": "x", "type": "Warrior / Normal", "level": 3},
        # ... the Fusion quotes one by an older translation the input does not hold, one loosely
        {"id": 14225239, "name": "元素英雄 水泡翼侠", "lang": "zh-CN", "type": "Warrior / Fusion / Effect", "level": 6,
         "text": "「元素英雄 水泡侠」＋「元素英雄 羽毛人」\n这张卡不用融合召唤不能特殊召唤。"},
        {"id": 2, "name": "融合怪兽", "lang": "zh-CN", "type": "Warrior / Fusion / Effect", "level": 6,
         "text": "「没有这张卡」＋「元素英雄 羽毛人」\n这张卡不用融合召唤不能特殊召唤。"},
    ]
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return src


def test_tag_resolves_older_names_through_the_alias_table(tmp_path):
    src = _zh_input(tmp_path)
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["tag", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = {d["id"]: d for d in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert lines[14225239]["materials"][0]["named_materials"] == [21844576, 79979666]
    m = lines[2]["materials"][0]
    assert m["named_materials"] == [21844576] and "没有这张卡" in m["named_names"]  # unknown: kept as a name
    # standard input: no input to resolve against, nothing resolved
    r = CliRunner().invoke(main, ["tag", "-"], input=src.read_text(encoding="utf-8"))
    std = {d["id"]: d for d in map(json.loads, r.output.strip().splitlines()[:3]) if "id" in d}
    assert std[14225239]["materials"][0]["named_materials"] == []


def test_sqlite_material_names_hold_the_passcodes_found_through_the_alias_table(tmp_path):
    src = _zh_input(tmp_path)
    db = tmp_path / "o.db"
    r = CliRunner().invoke(main, ["tag", str(src), "-o", str(db)])
    assert r.exit_code == 0, r.output
    con = sqlite3.connect(db)
    rows = con.execute("SELECT c.id, n.passcode, n.name FROM material_names n JOIN materials m USING (material_id) "
                       "JOIN cards c USING (card_rowid) ORDER BY c.id, n.rowid").fetchall()
    con.close()
    assert (14225239, 79979666, "元素英雄 水泡侠") in rows and (14225239, 21844576, "元素英雄 羽毛人") in rows
    assert (2, None, "没有这张卡") in rows
    assert not [x for x in rows if x[2] is None]  # every passcode is tied to its name


def test_validate_compares_an_older_name_by_passcode():
    """A translation quoting a material by an older name names the same card: no difference; a
    translation naming another card is still reported."""
    from extractor.validate import validate

    def side(lang, text, names):
        return [Card(id=1, name=names[0], lang=lang, text=text, frame=FUSION)] + [
            Card(id=pc, name=n, lang=lang, text="x", frame=MAIN) for pc, n in names[1:]]
    en = side("en", '"Elemental HERO Bubbleman" + "Elemental HERO Avian"\nMust be Fusion Summoned.',
              ["Fusion", (79979666, "Elemental HERO Bubbleman"), (21844576, "Elemental HERO Avian")])
    zh_names = ["融合", (79979666, "元素－英雄 泡沫人"), (21844576, "元素－英雄 羽毛人")]

    def run(zh_text):
        rep = validate(en, side("zh-CN", zh_text, zh_names))
        return sorted((m.condition, m.slot) for c in rep.cards if c.id == 1 for m in c.mismatches)
    assert run("「元素英雄 水泡侠」＋「元素－英雄 羽毛人」\n这张卡不用融合召唤不能特殊召唤。") == []
    assert run("「元素英雄 水泡侠」＋「元素英雄 水泡侠」\n这张卡不用融合召唤不能特殊召唤。") == [("materials", "materials.named")]


def test_a_loose_key_two_cards_share_anywhere_is_not_resolved_even_when_the_input_holds_one():
    """"Raimei" and "Rai-Mei" are two cards: an input holding only "Raimei" does not resolve "Rai-Mei"
    to it (the alias table's loose_ambiguous part), while its exact name still resolves."""
    table = input_names([Card(id=56260110, name="Raimei", lang="en", text="x", frame=MAIN)])
    assert N.resolve_name("Raimei", "en", table) == 56260110
    assert N.resolve_name("Rai-Mei", "en", table) is None
    assert N.resolve_name("雷·鸣", "zh-CN", N.NameTable()) is None  # 雷鸣 / 雷-鸣 likewise
