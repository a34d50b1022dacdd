"""``ygo-extractor audit``: every check on a small cards.cdb built here, the SQL patch applied to a
copy and audited again, bad input, the HTML report, the frame cue examples, and the real
salvation database (skipped without ../shared)."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from extractor.audit import CHECKS, audit, load_audit_cues, render_html, sql_patch
from extractor.cli import main
from extractor.normalize import normalize

HOSTILE_NAME = "Hostile <script>alert(1)</script>\nDROP TABLE datas; --"
HOSTILE_TEXT = "Cannot be Normal Summoned/Set. <img src=x onerror=\"window.__xss = 2; alert(2)\"> Must be Special Summoned (from your hand) by Tributing 1 monster."

# (id, alias, type, level, name, text); None for the texts part = no texts row
CARDS_EN = [
    (1001, 0, 0x21, 8, "Missing Flag",
     "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 2 monsters from your GY."),
    (1002, 0, 0x2000021, 8, "Correct Flag",
     "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 2 monsters from your GY."),
    (1003, 0, 0x2000021, 4, "Stray Flag", "Once per turn: You can draw 1 card."),
    (1004, 0, 0x2000021, 4, "Flag With Method Only",
     "This card can only be Special Summoned by the effect of \"Dark Flare Knight\". Gains 500 ATK."),
    (1005, 0, 0x2000081, 8, "Ritual With Flag", "You can Ritual Summon this card with \"Black Luster Ritual\"."),
    (1006, 0, 0x21, 4, "Empty Effect", "  \n "),
    (1007, 0, 0x2, 0, "Empty Spell", ""),
    (1008, 0, 0x21, 4, "Gemini Without Bit",
     "This card is treated as a Normal Monster while face-up on the field or in the GY. While this card is face-up "
     "on the field, you can Normal Summon it to have it become an Effect Monster with this effect.\n"
     "● Gains 500 ATK."),
    (1009, 0, 0x21, 4, "Toon Without Bit",
     "Cannot attack the turn it is Summoned. While you control \"Toon World\" and your opponent controls no Toon "
     "monsters, this card can attack your opponent directly."),
    (1010, 0, 0x21, 4, "Pendulum Without Bit",
     "[ Pendulum Effect ]\nOnce per turn: You can draw 1 card.\n----------------------------------------\n"
     "[ Monster Effect ]\nGains 300 ATK."),
    (1011, 0, 0x21, 7, "Materials Without Bit", "\"Sea Koala\" + \"Tree Otter\"\nThis card gains 500 ATK."),
    (1012, 0, 0x21, 8, HOSTILE_NAME, HOSTILE_TEXT),
    (1013, 0, 0x21, 4, "Plain Monster", "Once per turn: You can gain 500 LP."),
    (1014, 0, 0x1000021, 4, "Real Pendulum",
     "[ Pendulum Effect ]\nOnce per turn: You can draw 1 card.\n----------------------------------------\n"
     "[ Monster Effect ]\nGains 300 ATK."),
    (1015, 0, 0x2041, 8, "Real Synchro", "1 Tuner + 1 or more non-Tuner monsters\nGains 300 ATK."),
    # wording about not being Summoned that the catalog does not read: the bit may be right
    (1016, 0, 0x2000021, 4, "Unread Wording", "Monsters like this one cannot be Normal Summoned. Gains 100 ATK."),
    # a Guardian-style condition on the Normal Summon, with the bit: a reader decides
    (1017, 0, 0x2000021, 4, "Guardian With Flag", "Cannot be Normal Summoned unless you control \"Butterfly Dagger - Elma\"."),
    # an alternate artwork whose text lost "Cannot be Normal Summoned/Set" (an errata kept in one row)
    (2000, 0, 0x2000021, 8, "Errata Dragon",
     "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by Tributing 1 monster."),
    (2001, 2000, 0x2000021, 8, "Errata Dragon",
     "Must be Special Summoned (from your hand) by Tributing 1 monster."),
    # an artwork with the same conditions in other words: no finding
    (2100, 0, 0x21, 4, "Same Words", "Cannot be Special Summoned. Gains 100 ATK."),
    (2101, 2100, 0x21, 4, "Same Words", "This card cannot be Special Summoned. This card gains 100 ATK."),
    # alias far from the id: "always treated as" another card, not an artwork: never compared
    (3100, 3000, 0x21, 4, "Named Like", "Cannot be Special Summoned."),
    (3000, 0, 0x11, 4, "Named", "A plain beast."),
]
TEXT_ONLY = [(4000, "Text Without Datas", "Once per turn: You can draw 1 card.")]
DATAS_ONLY = [(5000, 0, 0x21, 4)]


def make_cdb(path: Path, cards=CARDS_EN, text_only=TEXT_ONLY, datas_only=DATAS_ONLY) -> Path:
    con = sqlite3.connect(path)
    con.executescript(
        "CREATE TABLE datas(id integer primary key, ot integer, alias integer, setcode integer, type integer, "
        "atk integer, def integer, level integer, race integer, attribute integer, category integer);"
        "CREATE TABLE texts(id integer primary key, name text, desc text, " +
        ", ".join(f"str{i} text" for i in range(1, 17)) + ");")
    for cid, alias, typ, level, name, text in cards:
        con.execute("INSERT INTO datas VALUES (?,3,?,0,?,1000,1000,?,1,1,0)", (cid, alias, typ, level))
        con.execute("INSERT INTO texts (id, name, desc) VALUES (?,?,?)", (cid, name, text))
    for cid, name, text in text_only:
        con.execute("INSERT INTO texts (id, name, desc) VALUES (?,?,?)", (cid, name, text))
    for cid, alias, typ, level in datas_only:
        con.execute("INSERT INTO datas VALUES (?,3,?,0,?,1000,1000,?,1,1,0)", (cid, alias, typ, level))
    con.commit()
    con.close()
    return path


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture()
def cdb(tmp_path) -> Path:
    return make_cdb(tmp_path / "cards.cdb")


def by_card(report) -> dict:
    out: dict = {}
    for f in report.findings():
        out.setdefault(f.id, []).append(f)
    return out


def test_each_check_finds_its_cards_and_nothing_else(cdb):
    rep = audit(cdb)
    got = {(f.id, f.check, f.severity) for f in rep.findings()}
    expected = {
        (1001, "special-summon-flag-missing", "high"),
        (1012, "special-summon-flag-missing", "high"),
        (1003, "special-summon-flag-extra", "high"),
        (1004, "special-summon-flag-extra", "medium"),
        (1005, "special-summon-flag-extra", "low"),
        (1016, "special-summon-flag-extra", "low"),
        (1017, "special-summon-flag-extra", "medium"),
        (1006, "empty-text", "high"),
        (1007, "empty-text", "medium"),
        (1008, "frame-text-conflict", "high"),
        (1009, "frame-text-conflict", "high"),
        (1010, "frame-text-conflict", "high"),
        (1011, "frame-text-conflict", "high"),
        (2001, "alias-conditions-differ", "high"),
        (2001, "special-summon-flag-extra", "medium"),
        (4000, "no-datas-row", "low"),
        (5000, "unreadable", "high"),
    }
    assert got == expected
    assert rep.cards == len(CARDS_EN) + len(TEXT_ONLY) + len(DATAS_ONLY)
    # consistent cards, the artwork in other words and the far alias have nothing
    assert not {1002, 1013, 1014, 1015, 2000, 2100, 2101, 3000, 3100} & {f.id for f in rep.findings()}


def test_spans_point_at_the_phrase_in_the_original_text(cdb):
    rep = audit(cdb)
    texts = {c[0]: c[5] for c in CARDS_EN}
    f = by_card(rep)
    assert f[1001][0].phrase == "Cannot be Normal Summoned/Set"
    assert f[1009][0].phrase.endswith("this card can attack your opponent directly")
    assert f[1010][0].phrase == "[ Pendulum Effect ]"
    assert f[1011][0].phrase == "\"Sea Koala\" + \"Tree Otter\""
    assert f[1008][0].phrase.startswith("This card is treated as a Normal Monster")
    assert f[1016][0].phrase == "cannot be Normal Summoned" and "does not read" in f[1016][0].detail
    alias = next(x for x in f[2001] if x.check == "alias-conditions-differ")
    assert alias.other_id == 2000 and alias.other_phrase == "Cannot be Normal Summoned/Set"
    assert "cannot-normal-summon" in alias.detail and "2000" in alias.detail
    for x in rep.findings():
        if x.span is not None:
            assert texts[x.id][x.span[0]:x.span[1]] == x.phrase


def test_output_objects_have_exactly_the_seven_keys(cdb, tmp_path):
    out = tmp_path / "findings.jsonl"
    r = CliRunner().invoke(main, ["audit", str(cdb), "-o", str(out)])
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows and all(list(o) == ["id", "name", "check", "severity", "detail", "span", "phrase"] for o in rows)
    assert {o["check"] for o in rows} <= set(CHECKS)
    assert len(rows) == 17
    assert "special-summon-flag-missing" in r.output and "findings 17" in r.output


def test_the_sql_patch_fixes_the_type_bit_findings_on_a_copy(cdb, tmp_path):
    before = digest(cdb)
    patch = tmp_path / "patch.sql"
    r = CliRunner().invoke(main, ["audit", str(cdb), "--sql", str(patch)])
    assert r.exit_code == 0, r.output
    assert digest(cdb) == before  # the database itself is never written
    sql = patch.read_text(encoding="utf-8")
    updates = re.findall(r"^UPDATE datas SET type = (\d+) WHERE id = (\d+) AND type = (\d+);$", sql, re.M)
    fixed = {int(i): (int(new), int(old)) for new, i, old in updates}
    assert fixed == {1001: (0x2000021, 0x21), 1012: (0x2000021, 0x21), 1003: (0x21, 0x2000021),
                     1008: (0x821, 0x21), 1009: (0x400021, 0x21)}
    # every other line is a comment, BEGIN or COMMIT: the hostile name cannot break out of its comment
    for line in sql.splitlines():
        assert line == "" or line.startswith(("--", "UPDATE datas SET type = ", "BEGIN;", "COMMIT;")), line
    assert "DROP TABLE" not in "".join(l for l in sql.splitlines() if not l.startswith("--"))
    copy = tmp_path / "copy.cdb"
    shutil.copy(cdb, copy)
    con = sqlite3.connect(copy)
    con.executescript(sql)
    con.close()
    again = audit(copy)
    left = {(f.id, f.check) for f in again.findings()
            if f.check in ("special-summon-flag-missing", "special-summon-flag-extra", "frame-text-conflict")}
    # the applied fixes are gone; what needs a reader stays (commented out in the patch)
    assert not {i for i, _ in left} & set(fixed)
    assert left == {(1004, "special-summon-flag-extra"), (1005, "special-summon-flag-extra"),
                    (1016, "special-summon-flag-extra"), (1017, "special-summon-flag-extra"),
                    (1010, "frame-text-conflict"),
                    (1011, "frame-text-conflict"), (2001, "special-summon-flag-extra")}
    for cid in (1004, 1005, 1010, 1016, 1017, 2001):
        assert re.search(rf"^-- UPDATE datas SET type = \d+ WHERE id = {cid} AND type = \d+;$", sql, re.M)
    # the material line: which Extra Deck bit is not in the text, so a comment only
    assert re.search(r"^-- 1011 'Materials Without Bit': frame-text-conflict \(high\), not applied: which Extra Deck", sql, re.M)
    assert not re.search(r"WHERE id = 1011 ", sql)
    # a second application changes nothing (the type = OLD guard)
    con = sqlite3.connect(copy)
    con.executescript(sql)
    assert con.total_changes == 0
    con.close()


def test_the_patch_guard_leaves_a_changed_row_alone(cdb, tmp_path):
    sql = sql_patch(audit(cdb))
    copy = tmp_path / "copy.cdb"
    shutil.copy(cdb, copy)
    con = sqlite3.connect(copy)
    con.execute("UPDATE datas SET type = 0x1021 WHERE id = 1001")  # someone changed it meanwhile
    con.commit()
    con.executescript(sql)
    assert con.execute("SELECT type FROM datas WHERE id = 1001").fetchone()[0] == 0x1021
    con.close()


def test_html_report_marks_the_phrases_and_escapes_card_text(cdb, tmp_path):
    html = tmp_path / "r.html"
    r = CliRunner().invoke(main, ["audit", str(cdb), "--html", str(html)])
    assert r.exit_code == 0, r.output
    page = html.read_text(encoding="utf-8")
    assert '<mark class="special-summon-flag-missing" title="special-summon-flag-missing (high)">' \
           'Cannot be Normal Summoned/Set</mark>' in page
    assert '<mark class="frame-text-conflict"' in page and "[ Pendulum Effect ]</mark>" in page
    assert "<script>alert(1)" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x" in page
    # the alias row shows the base row's text with its phrase marked
    assert "base row 2000 Errata Dragon" in page
    # only the page's own script, allowed by its hash
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1
    import base64
    csp = re.search(r"script-src '(sha256-[^']+)'", page).group(1)
    assert csp == "sha256-" + base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert page.count('<tr class="card"') == len({f.id for f in audit(cdb).findings()})


def test_min_severity_and_check_filters(cdb, tmp_path):
    rep = audit(cdb)
    assert {f.severity for f in rep.findings("medium")} == {"high", "medium"}
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["audit", str(cdb), "-o", str(out), "--check", "frame-text-conflict",
                                  "--min-severity", "high"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(l) for l in out.read_text().splitlines()]
    assert sorted(o["id"] for o in rows) == [1008, 1009, 1010, 1011]
    r = CliRunner().invoke(main, ["audit", str(cdb), "--check", "no-such-check"])
    assert r.exit_code != 0 and "no-such-check" in r.output
    assert len(render_html(rep, min_severity="high").split('<tr class="card"')) - 1 == \
        len({f.id for f in rep.findings("high")})


def test_fail_on_gives_an_exit_status(cdb, tmp_path):
    assert CliRunner().invoke(main, ["audit", str(cdb), "--fail-on", "high"]).exit_code == 1
    clean = make_cdb(tmp_path / "clean.cdb", cards=[c for c in CARDS_EN if c[0] in (1002, 1013)], text_only=[],
                     datas_only=[])
    r = CliRunner().invoke(main, ["audit", str(clean), "--fail-on", "low"])
    assert r.exit_code == 0, r.output
    assert "findings 0" in r.output


def test_missing_file_is_named(tmp_path):
    missing = tmp_path / "nope.cdb"
    r = CliRunner().invoke(main, ["audit", str(missing)])
    assert r.exit_code != 0
    assert str(missing) in r.output and "no such file" in r.output


def test_a_file_that_is_not_a_cdb_is_named(tmp_path):
    p = tmp_path / "cards.jsonl"
    p.write_text('{"id": 1, "name": "x", "text": "y", "lang": "en"}\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["audit", str(p)])
    assert r.exit_code != 0 and str(p) in r.output and "cards.cdb" in r.output
    bad = tmp_path / "broken.cdb"
    bad.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    r = CliRunner().invoke(main, ["audit", str(bad)])
    assert r.exit_code != 0 and str(bad) in r.output and "Traceback" not in r.output


def test_output_never_replaces_the_input(cdb):
    before = digest(cdb)
    for opt in ("-o", "--html", "--sql"):
        r = CliRunner().invoke(main, ["audit", str(cdb), opt, str(cdb)])
        assert r.exit_code != 0 and "input" in r.output
    assert digest(cdb) == before


def test_a_bad_row_is_named_and_the_rest_goes_on(tmp_path):
    p = make_cdb(tmp_path / "bad.cdb")
    con = sqlite3.connect(p)
    con.execute("UPDATE datas SET type = 'abc' WHERE id = 1013")
    con.commit()
    con.close()
    rep = audit(p)
    bad = [f for f in rep.findings() if f.id == 1013]
    assert len(bad) == 1 and bad[0].check == "unreadable" and "1013" in bad[0].detail and "'abc'" in bad[0].detail
    assert any(f.id == 1001 and f.check == "special-summon-flag-missing" for f in rep.findings())
    unread = next(f for f in rep.findings() if f.id == 5000)
    assert "5000" in unread.detail and "texts row" in unread.detail


def test_chinese_database(tmp_path):
    cards = [
        (7001, 0, 0x21, 8, "缺旗", "此卡不能通常召喚。把自己場上2隻怪獸解放的場合可以特殊召喚。"),
        (7002, 0, 0x21, 4, "卡通", "①：這張卡在召喚的回合不能攻擊。②：自己場上有「卡通世界」存在，對方場上沒有卡通怪獸存在的場合，這張卡可以直接攻擊。"),
        (7003, 0, 0x21, 4, "超量", "等級4怪獸×2\n①：1回合1次，把這張卡1個超量素材取除才能發動。"),
        (7004, 0, 0x1000021, 4, "灵摆", "←4 【靈擺】 4→\n①：自己不能靈擺召喚。\n【怪獸效果】\n①：這張卡的攻擊力上升500。"),
        (7005, 0, 0x2000021, 4, "正确", "這張卡不能通常召喚。從自己墓地把2隻怪獸除外的場合可以特殊召喚。"),
    ]
    p = make_cdb(tmp_path / "zh.cdb", cards=cards, text_only=[], datas_only=[])
    rep = audit(p)
    assert rep.lang == "zh-TW"
    got = {(f.id, f.check) for f in rep.findings()}
    assert got == {(7001, "special-summon-flag-missing"), (7002, "frame-text-conflict"), (7003, "frame-text-conflict")}
    f = {x.id: x for x in rep.findings()}
    assert f[7001].phrase == "此卡不能通常召喚"
    assert f[7003].phrase == "等級4怪獸×2"


FRAME_CUES = [c for fam in ("en", "zh") for c in load_audit_cues(fam)]
POS = [(c, t) for c in FRAME_CUES for t in c.examples_match]
NEG = [(c, t) for c in FRAME_CUES for t in c.examples_no_match]


@pytest.mark.parametrize("cue,text", POS, ids=[f"{c.lang}.{c.group}+{i}" for i, (c, _) in enumerate(POS)])
def test_audit_cue_matches_its_examples(cue, text):
    assert cue.regex.search(normalize(text, cue.lang).text), f"{cue.lang} {cue.group} does not match {text!r}"


@pytest.mark.parametrize("cue,text", NEG, ids=[f"{c.lang}.{c.group}-{i}" for i, (c, _) in enumerate(NEG)])
def test_audit_cue_rejects_its_negative_examples(cue, text):
    assert not cue.regex.search(normalize(text, cue.lang).text), f"{cue.lang} {cue.group} must not match {text!r}"


def test_audit_cues_cover_every_group_in_both_languages():
    groups = {"material-line", "pendulum-block", "toon-reminder", "monster-block", "special-summon-only"}
    for fam in ("en", "zh"):
        assert {c.group for c in load_audit_cues(fam)} == groups


def test_salvation_database_patched_copy_has_no_flag_findings(shared, tmp_path):
    src = shared / "data" / "cdb" / "salvation-2015-en.cdb"
    rep = audit(src)
    missing = [f for f in rep.findings() if f.check == "special-summon-flag-missing"]
    # the issue counts 190 monsters that lack the bit; each finding carries its phrase
    assert len(missing) >= 190
    assert all(f.phrase and re.search(r"[Cc]annot be Normal Summoned", f.phrase) for f in missing)
    assert not [f for f in rep.findings() if f.check == "special-summon-flag-extra"]
    copy = tmp_path / "copy.cdb"
    shutil.copy(src, copy)
    con = sqlite3.connect(copy)
    con.executescript(sql_patch(rep))
    con.close()
    again = audit(copy)
    assert not [f for f in again.findings() if f.check.startswith("special-summon-flag")]


# --- the HTML report in headless Chromium (the browser fixture of the validate report's test) ---

try:
    from test_validate_html import _errors, _visible_ids, browser  # noqa: F401  (browser: a fixture)
except ImportError:  # pragma: no cover - the validate browser test moved: skip rather than fail
    browser = None


@pytest.mark.skipif(browser is None, reason="the browser fixture of tests/test_validate_html.py is not importable")
def test_audit_report_in_headless_chromium(browser, cdb, tmp_path):
    html = tmp_path / "audit.html"
    r = CliRunner().invoke(main, ["audit", str(cdb), "--html", str(html)])
    assert r.exit_code == 0, r.output
    cdp = browser
    cdp.send("Page.navigate", url=html.resolve().as_uri())
    cdp.wait_event("Page.loadEventFired")
    cdp.pump(0.5)
    assert _errors(cdp) == []  # no console error, no exception, no dialog (the hostile text stays text)
    assert cdp.js("typeof window.__xss") == "undefined"
    with_findings = sorted({f.id for f in audit(cdb).findings()})
    assert sorted(_visible_ids(cdp)) == with_findings
    cdp.js("document.getElementById('none').click()")
    assert _visible_ids(cdp) == []
    cdp.js("document.querySelector('input.check-filter[value=\"frame-text-conflict\"]').click()")
    assert sorted(_visible_ids(cdp)) == [1008, 1009, 1010, 1011]
    assert cdp.js("document.getElementById('shown').textContent") == "4"
    # the hostile name and text are shown as text
    assert "<script>alert(1)</script>" in cdp.js("document.getElementById('card-1012').innerText")


def test_sql_with_a_check_filter_fixes_only_that_check(cdb, tmp_path):
    patch = tmp_path / "only-missing.sql"
    r = CliRunner().invoke(main, ["audit", str(cdb), "--sql", str(patch), "--check", "special-summon-flag-missing"])
    assert r.exit_code == 0, r.output
    ids = sorted(int(i) for i in re.findall(r"^UPDATE datas SET type = \d+ WHERE id = (\d+) ", patch.read_text(), re.M))
    assert ids == [1001, 1012]
    assert "frame-text-conflict" not in patch.read_text()


def test_a_missing_output_folder_is_an_error_and_nothing_is_written(cdb, tmp_path):
    r = CliRunner().invoke(main, ["audit", str(cdb), "-o", str(tmp_path / "no" / "such" / "dir" / "f.jsonl")])
    assert r.exit_code != 0 and "cannot write the output" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "no").exists()
