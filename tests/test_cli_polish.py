"""What a new user's trial of the README found (issue 8 §2), each case through the command line in
temporary folders: outputs never replace an input or a write-protected file, two outputs never
share a file, zh-Hant / zh-Hans find yaml-yugi's zh-TW / zh-CN texts, explain guesses the
language of TEXT, --min-severity filters every reported item, clear usage errors (exit 2)."""
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import extractor.writers
from extractor.cli import main
from extractor.writers import OutputError, check_outputs

from conftest import ROOT

SAMPLE_YY = ROOT / "corpora" / "sample" / "yaml-yugi.jsonl"
SAMPLE_CDB = ROOT / "corpora" / "sample" / "cards.cdb"
SCENARIOS = ROOT / "corpora" / "scenarios"
SHARED_RULES = ROOT.parent / "shared" / "rules"

ZH_CN = "此卡不能通常召唤。必须用自身的效果特殊召唤。"
ZH_TW = "這張卡不能通常召喚。必須用自身的效果特殊召喚。"


def invoke(args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def snapshot(path: Path) -> bytes:
    return path.read_bytes()


@pytest.fixture
def yy(tmp_path):
    p = tmp_path / "yy.jsonl"
    shutil.copy(SAMPLE_YY, p)
    return p


@pytest.fixture
def pair(tmp_path):
    """Two JSONL files: card 7 differs in a location (medium), card 8's target text has no final
    punctuation (truncated-text, low, and its condition is missing: low as well), card 9 is on the source side only
    (card-missing-in-target, low)."""
    src, tgt = tmp_path / "s.jsonl", tmp_path / "t.jsonl"
    rec = {"lang": "en", "type": "Fiend / Effect", "level": 8}
    src.write_text("".join(json.dumps({**rec, **d}) + "\n" for d in (
        {"id": 7, "name": "Seven", "text": "Cannot be Normal Summoned/Set. Cannot be Special Summoned from the GY."},
        {"id": 8, "name": "Eight", "text": "Cannot be Special Summoned."},
        {"id": 9, "name": "Nine", "text": "Cannot be Special Summoned."})))
    tgt.write_text("".join(json.dumps({**rec, **d}) + "\n" for d in (
        {"id": 7, "name": "Seven", "text": "Cannot be Normal Summoned/Set. Cannot be Special Summoned from the Deck."},
        {"id": 8, "name": "Eight", "text": "Cannot be Special Summoned"})))
    return src, tgt


# ---- 1. validate never overwrites its own input ----

@pytest.mark.parametrize("opt", ["-o", "--html", "--errors"])
def test_validate_refuses_to_write_its_single_input(yy, opt):
    before = snapshot(yy)
    r = invoke(["validate", yy, "--source-lang", "en", "--target-lang", "zh-CN", opt, yy, "--no-progress"])
    assert r.exit_code == 2, r.output
    assert str(yy) in r.output and "is the input file" in r.output and opt in r.output
    assert snapshot(yy) == before


def test_validate_refuses_to_write_the_target_cdb(tmp_path):
    c, c2 = tmp_path / "c.cdb", tmp_path / "c2.cdb"
    shutil.copy(SAMPLE_CDB, c)
    shutil.copy(SAMPLE_CDB, c2)
    before = snapshot(c2)
    r = invoke(["validate", c, c2, "-o", c2, "--no-progress"])
    assert r.exit_code == 2 and "c2.cdb" in r.output and "is the input file" in r.output
    assert snapshot(c2) == before


def test_validate_refuses_the_input_by_relative_path_symlink_and_hard_link(yy, tmp_path, monkeypatch):
    before = snapshot(yy)
    (tmp_path / "sub").mkdir()
    os.symlink(yy, tmp_path / "link.jsonl")
    os.link(yy, tmp_path / "hard.jsonl")
    monkeypatch.chdir(tmp_path / "sub")
    for out in ("../yy.jsonl", str(tmp_path / "link.jsonl"), str(tmp_path / "hard.jsonl")):
        r = invoke(["validate", yy, "--source-lang", "en", "--target-lang", "zh-CN", "-o", out, "--no-progress"])
        assert r.exit_code == 2 and "is the input file" in r.output, (out, r.output)
    assert snapshot(yy) == before and os.path.islink(tmp_path / "link.jsonl")


def test_audit_refuses_to_write_its_input_database(tmp_path):
    c = tmp_path / "c.cdb"
    shutil.copy(SAMPLE_CDB, c)
    before = snapshot(c)
    for opt in ("-o", "--html", "--sql"):
        r = invoke(["audit", c, opt, c])
        assert r.exit_code == 2 and "is the input file" in r.output and opt in r.output, r.output
    assert snapshot(c) == before


# ---- 2. write-protected outputs are refused (also as root) ----

def _read_only(path: Path, text: str = "keep me\n") -> Path:
    path.write_text(text)
    os.chmod(path, 0o444)
    return path


@pytest.mark.parametrize("opt", ["-o", "--html", "--errors"])
def test_validate_refuses_a_write_protected_output(yy, tmp_path, opt):
    ro = _read_only(tmp_path / "ro.txt")
    r = invoke(["validate", yy, "--source-lang", "en", "--target-lang", "zh-CN", opt, ro, "--no-progress"])
    assert r.exit_code == 2 and "write-protected" in r.output and "ro.txt" in r.output, r.output
    assert ro.read_text() == "keep me\n"


@pytest.mark.parametrize("opt", ["-o", "--html", "--sql"])
def test_audit_refuses_a_write_protected_output(tmp_path, opt):
    ro = _read_only(tmp_path / "ro.txt")
    r = invoke(["audit", SAMPLE_CDB, opt, ro])
    assert r.exit_code == 2 and "write-protected" in r.output and "ro.txt" in r.output, r.output
    assert ro.read_text() == "keep me\n"


def test_write_protection_holds_even_when_the_process_may_write_anything(yy, tmp_path, monkeypatch):
    """root passes os.access(W_OK) for a 0444 file: the missing write bits still refuse it."""
    monkeypatch.setattr(extractor.writers.os, "access", lambda *a, **kw: True)
    ro = _read_only(tmp_path / "ro.txt")
    r = invoke(["validate", yy, "--source-lang", "en", "--target-lang", "zh-CN", "-o", ro, "--no-progress"])
    assert r.exit_code == 2 and "write-protected" in r.output
    r = invoke(["audit", SAMPLE_CDB, "--sql", ro])
    assert r.exit_code == 2 and "write-protected" in r.output
    assert ro.read_text() == "keep me\n"


# ---- 3. two outputs of one command never share a file ----

def test_validate_refuses_two_outputs_in_one_file(yy, tmp_path):
    same = tmp_path / "same.out"
    base = ["validate", yy, "--source-lang", "en", "--target-lang", "zh-CN", "--no-progress"]
    r = invoke(base + ["-o", same, "--html", same])
    assert r.exit_code == 2 and "-o" in r.output and "--html" in r.output and "same file" in r.output, r.output
    assert not same.exists()
    os.symlink(same, tmp_path / "alias.out")
    r = invoke(base + ["-o", same, "--errors", tmp_path / "alias.out"])
    assert r.exit_code == 2 and "same file" in r.output
    # different files are fine
    r = invoke(base + ["-o", tmp_path / "a.jsonl", "--html", tmp_path / "a.html", "--errors", tmp_path / "e.txt"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "a.html").read_text().lstrip().lower().startswith("<!doctype html")


@pytest.mark.parametrize("a,b", [("-o", "--html"), ("-o", "--sql"), ("--html", "--sql")])
def test_audit_refuses_two_outputs_in_one_file(tmp_path, a, b):
    same = tmp_path / "same.out"
    r = invoke(["audit", SAMPLE_CDB, a, same, b, same])
    assert r.exit_code == 2 and a in r.output and b in r.output and "same file" in r.output, r.output
    assert not same.exists()


def test_check_outputs_names_the_option_and_skips_standard_output(tmp_path):
    check_outputs({"-o": "-", "--html": None, "--errors": "-"})  # standard output twice is not a file
    with pytest.raises(OutputError) as e:
        check_outputs({"-o": str(tmp_path / "x"), "--html": str(tmp_path / "sub" / ".." / "x")})
    assert e.value.option == "--html" and "same file" in str(e.value)


# ---- 4. zh-Hant / zh-Hans find yaml-yugi's zh-TW / zh-CN texts ----

def test_yaml_yugi_key_maps_script_codes_to_region_keys():
    from extractor.readers import yaml_yugi_key
    assert [yaml_yugi_key(c) for c in ("zh-Hant", "zh-hant", "zh-HK", "zh-Hans", "zh-cn", "zh-TW", "en", "ko")] == \
        ["zh-TW", "zh-TW", "zh-TW", "zh-CN", "zh-CN", "zh-TW", "en", "ko"]


@pytest.mark.parametrize("lang,key", [("zh-Hant", "zh-TW"), ("zh-Hans", "zh-CN")])
def test_tag_reads_yaml_yugi_with_script_codes(yy, lang, key):
    from extractor.readers import read_cards
    r = invoke(["tag", yy, "--lang", lang, "--compact"])
    lines = {x["id"]: x for x in map(json.loads, r.stdout.splitlines())}
    texts = {d["password"]: d["text"].get(key) for d in map(json.loads, SAMPLE_YY.read_text().splitlines())}
    assert r.exit_code == 0 and len(lines) == 17, r.output
    with_text = {cid for cid, t in texts.items() if t}
    assert len(with_text) >= 6  # the sample: zh-TW for 6 cards, zh-CN for all 17
    assert {cid for cid, x in lines.items() if "error" not in x} == with_text
    for cid in set(lines) - with_text:  # the sample's own gaps are named with the key that was looked up
        assert lines[cid]["error"].endswith(f"no {key} ({lang}) text")
    got = {it.card.id: it.card.text for it in read_cards(yy, lang) if it.card is not None}
    assert got == {cid: texts[cid] for cid in with_text}
    assert "cannot-normal-summon" in lines[65192027]["tags"]  # Dark Armed Dragon, read in Chinese


@pytest.mark.parametrize("lang,compared", [("zh-Hant", 6), ("zh-Hans", 17)])
def test_validate_reads_yaml_yugi_with_script_codes(yy, tmp_path, lang, compared):
    out = tmp_path / "o.jsonl"
    r = invoke(["validate", yy, "--source-lang", "en", "--target-lang", lang, "-o", out, "--min-severity", "low",
                "--no-progress"])
    assert r.exit_code == 0, r.output
    row = next(line for line in r.output.splitlines() if "cards compared" in line)
    assert row.split("│")[2].strip() == str(compared)  # today's bug: 0 compared, every card "missing"


def test_validate_refuses_two_spellings_of_one_language_in_one_file(yy):
    r = invoke(["validate", yy, "--source-lang", "zh-CN", "--target-lang", "zh-Hans", "--no-progress"])
    assert r.exit_code == 2 and "name the same texts (zh-CN)" in r.output


# ---- 5. explain guesses the language of TEXT ----

def test_explain_guesses_simplified_chinese_and_says_so():
    r = invoke(["explain", ZH_CN])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("read as zh-CN (guessed from the text")
    assert "cannot-normal-summon" in r.output and "language mismatch" not in r.output


def test_explain_guesses_traditional_chinese_and_english():
    r = invoke(["explain", ZH_TW, "--json"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["lang"] == "zh-TW" and "cannot-normal-summon" in json.loads(r.stdout)["tags"]
    assert r.stderr == ""  # JSON output: its "lang" says how the text was read
    r = invoke(["explain", "Cannot be Normal Summoned/Set."])
    assert r.output.splitlines()[0].startswith("read as en (") and "cannot-normal-summon" in r.output


def test_explain_with_a_disagreeing_lang_warns_at_the_top():
    r = invoke(["explain", ZH_CN, "--lang", "en"])
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[0] == "warning: language mismatch: the text looks like zh, read as en"
    assert lines.index(ZH_CN) > 0 and sum("language mismatch" in x for x in lines) == 1
    assert "read as en (" not in r.output  # the language was given, not guessed


# ---- 6. --min-severity filters every reported item; --fail-on agrees ----

def _ids_and_kinds(out: Path):
    return {json.loads(x)["id"]: sorted(m["kind"] for m in json.loads(x)["mismatches"])
            for x in out.read_text().splitlines()}


def test_min_severity_filters_card_problems_too(pair, tmp_path):
    src, tgt = pair
    out = tmp_path / "o.jsonl"
    base = ["validate", src, tgt, "-o", out, "--no-progress"]
    assert invoke(base + ["--min-severity", "low"]).exit_code == 0
    # card 8: the cut-off target text (low) and the condition it lost, low because the text is cut off
    assert _ids_and_kinds(out) == {7: ["slot-differs"], 8: ["missing-in-target", "truncated-text"],
                                   9: ["card-missing-in-target"]}
    r = invoke(base + ["--min-severity", "medium"])
    assert r.exit_code == 0 and _ids_and_kinds(out) == {7: ["slot-differs"]}
    # card 8 was compared and has nothing left at medium: it counts as agreeing
    assert any("agreeing" in x and x.split("│")[2].strip() == "1" for x in r.output.splitlines()), r.output
    r = invoke(base + ["--min-severity", "high", "--html", tmp_path / "r.html"])
    assert r.exit_code == 0 and out.read_text() == ""
    assert "Cannot be Special Summoned from the Deck" not in (tmp_path / "r.html").read_text()


def test_fail_on_counts_what_min_severity_reports(pair):
    src, tgt = pair
    base = ["validate", src, tgt, "--no-progress"]
    r = invoke(base + ["--min-severity", "low", "--fail-on", "low"])
    assert r.exit_code == 1 and "4 mismatches of severity low or worse" in r.output
    r = invoke(base + ["--min-severity", "medium", "--fail-on", "medium"])
    assert r.exit_code == 1 and "1 mismatch of severity medium or worse" in r.output
    assert invoke(base + ["--min-severity", "high", "--fail-on", "high"]).exit_code == 0
    assert invoke(base + ["--min-severity", "high", "--fail-on", "low"]).exit_code == 2


# ---- 7. tag: usage errors exit 2 as README says ----

@pytest.mark.parametrize("extra", [[], ["-o", "-"]])
def test_tag_sqlite_without_an_output_file_is_a_usage_error(extra):
    r = invoke(["tag", ROOT / "corpora" / "sample" / "cards.jsonl", "--format", "sqlite", *extra])
    assert r.exit_code == 2 and "--format sqlite needs -o FILE" in r.output


def test_tag_refused_outputs_exit_2_as_readme_says(tmp_path):
    sample = ROOT / "corpora" / "sample" / "cards.jsonl"
    ro = _read_only(tmp_path / "ro.jsonl")
    r = invoke(["tag", sample, "-o", ro])
    assert r.exit_code == 2 and "write-protected" in r.output and ro.read_text() == "keep me\n"
    r = invoke(["tag", sample, "-o", tmp_path / "nope" / "out.jsonl"])
    assert r.exit_code == 2 and "does not exist" in r.output
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "2 usage\n  error: a missing input file (named), a refused output (the input itself, a write-protected file,\n  a missing folder" in readme


# ---- 8. judge searches folders at any depth; no scenario is an error ----

def test_judge_check_searches_folders_recursively(tmp_path):
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    names = sorted(p.name for p in SCENARIOS.glob("*.json"))[:3]
    for n in names[:2]:
        shutil.copy(SCENARIOS / n, deep / n)
    shutil.copy(SCENARIOS / names[2], tmp_path / names[2])
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "junk.json").write_text("not json")
    r = invoke(["judge", "--check", tmp_path])
    assert r.exit_code == 0, r.output
    assert "scenarios 3, passed 3, failed 0, errors 0" in r.stderr
    assert len(r.stdout.splitlines()) == 3


@pytest.mark.skipif(not (SHARED_RULES / "examples").is_dir(), reason="../shared/rules not present")
def test_judge_check_finds_the_public_examples_from_the_rules_folder():
    r = invoke(["judge", "--check", "-q", SHARED_RULES])
    assert "scenarios 24," in r.stderr, r.stderr


def test_judge_on_a_folder_without_scenarios_fails_clearly(tmp_path):
    (tmp_path / "notes.txt").write_text("no scenarios here")
    for args in (["judge", "--check", tmp_path], ["judge", tmp_path]):
        r = invoke(args)
        assert r.exit_code == 1 and f"no scenario file (*.json) in {tmp_path}" in r.stderr, r.output


# ---- 9. explain: impossible Level, empty text ----

@pytest.mark.parametrize("level", ["99", "14", "-1"])
def test_explain_rejects_an_impossible_level(level):
    r = invoke(["explain", "Cannot be Special Summoned.", "--level", level])
    assert r.exit_code == 2 and "--level" in r.output and f"{level} is not a Level" in r.output


def test_explain_accepts_levels_in_range():
    for level in ("0", "13"):
        assert invoke(["explain", "Cannot be Special Summoned.", "--level", level, "--lang", "en"]).exit_code == 0


@pytest.mark.parametrize("text", ["", "   \n"])
def test_explain_rejects_an_empty_text(text):
    r = invoke(["explain", text])
    assert r.exit_code == 2 and "the text is empty" in r.output


# ---- 10. README: an unknown frame's Tributes ----

def test_unknown_frame_tributes_as_readme_says(tmp_path):
    """README: an unknown frame gives tributes null unless the text states the count (3)."""
    inp = tmp_path / "i18n.json"
    inp.write_text(json.dumps({"cards": [
        {"id": 10000000, "name": "Obelisk", "lore": "Requires 3 Tributes to Normal Summon (cannot be Normal Set)."},
        {"id": 2, "name": "Plain", "lore": "A plain text about a dragon."}]}))
    r = invoke(["tag", inp, "--compact"])
    lines = {json.loads(x)["id"]: json.loads(x) for x in r.stdout.splitlines()}
    assert lines[10000000]["tributes"] == 3 and lines[2]["tributes"] is None
    assert all(any(w.startswith("card type unknown") for w in x["warnings"]) for x in lines.values())
    # the warning says the Tribute count is unknown only where it is (a new-user trial saw Obelisk's
    # "the Tribute count is unknown" beside its tributes: 3)
    assert not any("Tribute count is unknown" in w for w in lines[10000000]["warnings"])
    assert any("Tribute count is unknown" in w for w in lines[2]["warnings"])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Requires 3 Tributes to Normal\n  Summon\" gives `tributes: 3`" in readme
