"""A command line a script can trust (issue 8 §1-2): outputs never clobber data, exit codes,
signals, full disks, line-safe JSON, option consistency, fast start-up."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
from click.testing import CliRunner

import extractor.cli as cli
import extractor.pipeline
import extractor.readers
import extractor.rules
import extractor.writers
from extractor.cli import main
from extractor.writers import OutputError, dumps_line, output_format

from conftest import ROOT

SAMPLE = ROOT / "corpora" / "sample" / "cards.jsonl"
SAMPLE_CDB = ROOT / "corpora" / "sample" / "cards.cdb"
SCENARIOS = ROOT / "corpora" / "scenarios"
CARD = {"id": 1, "name": "A", "lang": "en", "text": "Cannot be Special Summoned.", "type": "Fiend / Effect", "level": 4}


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".tmp", "-journal", "-wal", "-shm")))


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def run(args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


# ---- 1. the output never clobbers the input or a protected file; format from the extension ----

@pytest.mark.parametrize("how", ["same", "relative", "symlink", "hardlink"])
def test_output_that_is_the_input_is_refused(tmp_path, monkeypatch, how):
    src = write_jsonl(tmp_path / "cards.jsonl", [CARD])
    before = src.read_bytes()
    monkeypatch.chdir(tmp_path)
    out = {"same": str(src), "relative": "./sub/../cards.jsonl", "symlink": "link.jsonl", "hardlink": "hard.jsonl"}[how]
    (tmp_path / "sub").mkdir()
    if how == "symlink":
        os.symlink(src, tmp_path / "link.jsonl")
    elif how == "hardlink":
        os.link(src, tmp_path / "hard.jsonl")
    r = run(["tag", src, "-o", out])
    assert r.exit_code == 2, r.output
    assert "is the input file" in r.output and out in r.output
    assert src.read_bytes() == before and leftovers(tmp_path) == []


def test_write_protected_output_is_refused_not_replaced(tmp_path):
    out = tmp_path / "o.jsonl"
    out.write_text("keep me\n", encoding="utf-8")
    os.chmod(out, 0o444)
    r = run(["tag", SAMPLE, "-o", out])
    assert r.exit_code == 2 and "write-protected" in r.output and str(out) in r.output
    assert out.read_text(encoding="utf-8") == "keep me\n" and leftovers(tmp_path) == []


@pytest.mark.parametrize("name,fmt", [("o.csv", "csv"), ("o.CSV", "csv"), ("o.db", "sqlite"), ("o.sqlite", "sqlite"),
                                      ("o.jsonl", "jsonl"), ("o.json", "jsonl"), ("o.txt", "jsonl")])
def test_format_comes_from_the_extension(tmp_path, name, fmt):
    out = tmp_path / name
    r = run(["tag", SAMPLE, "-o", out])
    assert r.exit_code == 0, r.output
    data = out.read_bytes()
    if fmt == "csv":
        assert data.startswith(b"id,name,lang,tags")
    elif fmt == "sqlite":
        con = sqlite3.connect(out)
        assert con.execute("SELECT COUNT(*) FROM cards").fetchone()[0] == 43
        con.close()
    else:
        assert len([json.loads(l) for l in data.splitlines()]) == 43


@pytest.mark.parametrize("fmt,name", [("csv", "o.jsonl"), ("jsonl", "o.db"), ("sqlite", "o.csv")])
def test_format_that_disagrees_with_the_extension_is_an_error(tmp_path, fmt, name):
    r = run(["tag", SAMPLE, "--format", fmt, "-o", tmp_path / name])
    assert r.exit_code == 2
    assert f"--format {fmt}" in r.output and os.path.splitext(name)[1] in r.output
    assert list(tmp_path.iterdir()) == []


def test_output_format_rules():
    assert output_format(None, None) == "jsonl" and output_format("-", "csv") == "csv"
    assert output_format("x.unknown", "sqlite") == "sqlite" and output_format("dir.v2/x", None) == "jsonl"
    with pytest.raises(OutputError, match=r"--format csv disagrees .*\.sqlite means sqlite"):
        output_format("a.sqlite", "csv")


def test_output_through_a_symlink_replaces_the_target_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.jsonl"
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    os.symlink(real, link)
    r = run(["tag", SAMPLE, "-o", link])
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and len(real.read_text(encoding="utf-8").splitlines()) == 43


def test_output_to_a_pipe_is_written_not_replaced(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    t = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    t.start()
    r = run(["tag", SAMPLE, "-o", fifo])
    t.join(10)
    assert r.exit_code == 0, r.output
    assert fifo.is_fifo() and len(got[0].splitlines()) == 43


# ---- 2. exit codes ----

def test_tag_exits_1_when_every_card_failed_and_still_writes_the_error_lines(tmp_path):
    src = tmp_path / "bad.jsonl"
    src.write_text('{"id": 2, "name": "B", "lang": "en"}\nnot json\n', encoding="utf-8")
    out = tmp_path / "o.jsonl"
    r = run(["tag", src, "-o", out])
    assert r.exit_code == 1
    assert "cards 2, tagged 0, errors 2" in r.output and "every card failed" in r.output
    assert [("error" in json.loads(l)) for l in out.read_text(encoding="utf-8").splitlines()] == [True, True]


def test_tag_exits_0_when_some_cards_failed_or_there_were_none(tmp_path):
    src = tmp_path / "mixed.jsonl"
    src.write_text(json.dumps(CARD) + "\nnot json\n", encoding="utf-8")
    assert run(["tag", src, "-o", tmp_path / "o.jsonl"]).exit_code == 0
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    r = run(["tag", empty, "-o", tmp_path / "o2.jsonl"])
    assert r.exit_code == 0 and "cards 0" in r.output


def _one_line_interrupt(r, code=130):
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output and "Aborted" not in r.output
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted"), r.stderr


def _interrupt(*a, **k):
    raise KeyboardInterrupt


def test_ctrl_c_in_explain(monkeypatch):
    monkeypatch.setattr(extractor.pipeline, "analyze", _interrupt)
    _one_line_interrupt(run(["explain", "Cannot be Special Summoned."]))


def test_ctrl_c_in_explain_while_reading_the_file(monkeypatch):
    monkeypatch.setattr(extractor.readers, "read_cards", _interrupt)
    _one_line_interrupt(run(["explain", SAMPLE, "--id", "65192027"]))


def test_ctrl_c_in_judge(monkeypatch):
    monkeypatch.setattr(extractor.rules, "judge", _interrupt)
    _one_line_interrupt(run(["judge", SCENARIOS]))


def test_ctrl_c_in_schema(monkeypatch):
    monkeypatch.setattr(extractor.pipeline.CardResult, "model_json_schema", classmethod(_interrupt))
    _one_line_interrupt(run(["schema"]))


def test_ctrl_c_in_tag(monkeypatch, tmp_path):
    monkeypatch.setattr(extractor.pipeline, "analyze", _interrupt)
    r = run(["tag", SAMPLE, "-o", tmp_path / "o.jsonl"])
    _one_line_interrupt(r)
    assert "no output written" in r.stderr and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args,hint", [
    (["tag", "{missing}"], "INPUT"),
    (["explain", "--id", "1", "--input", "{missing}"], "--input"),
    (["explain", "{missing}", "--id", "1"], "FILE"),
    (["judge", SCENARIOS, "{missing}"], "PATH"),
])
def test_a_missing_input_file_is_named_with_exit_2(tmp_path, args, hint):
    missing = str(tmp_path / "nope.cdb")
    r = run([a.replace("{missing}", missing) if isinstance(a, str) else a for a in args])
    assert r.exit_code == 2, r.output
    assert "no such file" in r.output and missing in r.output and hint in r.output
    assert "Traceback" not in r.output


# ---- 3. signals and full disks ----

def _big_input(tmp_path, n=20000):
    text = ("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT and 1 DARK "
            "monster from your GY. Once per turn: You can target 1 monster on the field; banish it.")
    return write_jsonl(tmp_path / "big.jsonl", [{**CARD, "id": i, "text": text, "level": 8} for i in range(n)])


def _default_signals():
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


def _start_and_signal(src, out, sig, preexec=_default_signals):
    """Start `tag src -o out` and send ``sig`` once its temporary output holds some cards."""
    p = subprocess.Popen([sys.executable, "-m", "extractor.cli", "tag", str(src), "-o", str(out), "--no-progress"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # wait until the temporary output exists and holds some cards
        tmps = [f for f in out.parent.iterdir() if f.name.endswith(".tmp")]
        if tmps and tmps[0].stat().st_size > 20000:
            break
        time.sleep(0.02)
    else:
        p.kill()
        pytest.fail("the temporary output never appeared")
    p.send_signal(sig)
    return p


def test_an_ignored_sighup_stays_ignored_like_under_nohup(tmp_path):
    src = _big_input(tmp_path, 6000)
    outdir = tmp_path / "out"
    outdir.mkdir()
    out = outdir / "o.jsonl"

    def nohup():
        _default_signals()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    p = _start_and_signal(src, out, signal.SIGHUP, nohup)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 6000 and leftovers(outdir) == []


@pytest.mark.parametrize("sig,code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)])
@pytest.mark.parametrize("fmt", ["jsonl", "sqlite"])
def test_a_signal_during_tag_leaves_nothing_behind(tmp_path, sig, code, fmt):
    src = _big_input(tmp_path)
    outdir = tmp_path / "out"
    outdir.mkdir()
    out = outdir / f"o.{'db' if fmt == 'sqlite' else 'jsonl'}"
    p = _start_and_signal(src, out, sig)
    _, err = p.communicate(timeout=30)
    err = err.decode()
    assert p.returncode == code, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "no output written" in err
    assert list(outdir.iterdir()) == []


def test_full_disk_with_sqlite_is_one_clear_message(tmp_path, monkeypatch):
    """A real SQLITE_FULL: the output database may not grow past a few pages."""
    real_connect = sqlite3.connect

    def tiny(*a, **k):
        con = real_connect(*a, **k)
        con.execute("PRAGMA max_page_count = 4")
        return con

    monkeypatch.setattr(sqlite3, "connect", tiny)
    out = tmp_path / "o.db"
    r = run(["tag", SAMPLE, "-o", out])
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    assert f"cannot write the output {str(out)!r}: database or disk is full; nothing written" in r.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_full_disk_with_jsonl_and_csv_is_one_clear_message(tmp_path, monkeypatch, fmt):
    real_open = open
    written = {"n": 0}

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, b):
            written["n"] += 1
            if written["n"] > 0:  # (a file with a sidecar is written 1 MiB at a time: here once, at the end)
                raise OSError(28, "No space left on device")
            return self.f.write(b)

        def close(self):
            self.f.close()

    def opener(path, mode="r", *a, **k):
        f = real_open(path, mode, *a, **k)
        return Full(f) if "w" in mode and str(path).endswith(".tmp") else f

    monkeypatch.setattr(extractor.writers, "open", opener, raising=False)
    r = run(["tag", SAMPLE, "--format", fmt, "-o", tmp_path / f"o.{fmt}"])
    assert r.exit_code == 1, r.output
    assert "no space left on device; nothing written" in r.output and "Traceback" not in r.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_dev_full_is_one_clear_message_and_stays_a_device():
    r = run(["tag", SAMPLE, "-o", "/dev/full"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "cannot write the output '/dev/full': no space left on device" in r.output
    assert not os.path.isfile("/dev/full")


# ---- 4. judge goes on after a file the JSON parser cannot read ----

def test_judge_reports_a_deeply_nested_file_and_goes_on(tmp_path):
    good = json.loads((SCENARIOS / "yx-en-barbaros-three-tributes.json").read_text(encoding="utf-8"))
    (tmp_path / "a-first.json").write_text(json.dumps(good), encoding="utf-8")
    (tmp_path / "b-deep.json").write_text("[" * 200000 + "]" * 200000, encoding="utf-8")
    (tmp_path / "c-last.json").write_text(json.dumps({**good, "id": "c-last"}), encoding="utf-8")
    r = run(["judge", tmp_path])
    assert r.exit_code == 0 and "Traceback" not in r.output
    rows = [json.loads(l) for l in r.stdout.splitlines()]
    assert [x["id"] for x in rows] == ["yx-en-barbaros-three-tributes", "b-deep", "c-last"]
    assert "b-deep.json" in rows[1]["error"] and "nested too deeply" in rows[1]["error"]
    assert rows[0]["legal"] is True and rows[2]["legal"] is True
    r = run(["judge", "--check", tmp_path])
    assert r.exit_code == 1 and "errors 1" in r.stderr


def test_judge_of_a_folder_leaves_out_the_tools_own_sidecars(tmp_path):
    """A folder that holds ``tag`` output with its ``.meta.json`` sidecar next to scenarios: judge
    reads the scenarios only (a new user's ``judge`` of such a folder read the sidecar as a scenario
    and printed an error line for it); a sidecar named on its own is still read, as any file."""
    good = json.loads((SCENARIOS / "yx-en-barbaros-three-tributes.json").read_text(encoding="utf-8"))
    (tmp_path / "s.json").write_text(json.dumps(good), encoding="utf-8")
    src = ROOT / "corpora" / "sample" / "cards.jsonl"
    assert run(["tag", src, "-o", tmp_path / "out.jsonl", "--no-progress"]).exit_code == 0
    sidecar = tmp_path / "out.jsonl.meta.json"
    assert sidecar.is_file()
    r = run(["judge", "--check", tmp_path])
    assert r.exit_code == 0, r.output
    assert [json.loads(l)["id"] for l in r.stdout.splitlines()] == ["yx-en-barbaros-three-tributes"]
    r = run(["judge", sidecar])
    assert "error" in json.loads(r.stdout.splitlines()[0])


# ---- 5. one JSON object is one line for every line reader ----

def test_jsonl_never_holds_raw_line_separators(tmp_path):
    text = "Cannot be Special Summoned.\u2028Second line\u2029third\x85fourth"
    src = write_jsonl(tmp_path / "in.jsonl", [{**CARD, "text": text, "name": "A\u2028B"}, {**CARD, "id": 2}])
    out = tmp_path / "o.jsonl"
    assert run(["tag", src, "-o", out]).exit_code == 0
    data = out.read_bytes()
    for raw in ("\u2028", "\u2029", "\x85"):
        assert raw.encode() not in data
    lines = data.decode("utf-8").splitlines()
    assert len(lines) == 2
    row = json.loads(lines[0])
    assert row["name"] == "A\u2028B" and "cannot-special-summon" in row["tags"]


def test_dumps_line_escapes_only_what_line_readers_split_on():
    obj = {"t": "a\u2028b\u2029c\x85d “quoted” …"}
    data = dumps_line(obj)
    assert b"\\u2028" in data and b"\\u2029" in data and b"\\u0085" in data
    assert "“quoted” …".encode() in data  # other characters of the E2 80 block stay raw
    assert json.loads(data) == obj and len(data.decode().splitlines()) == 1
    assert json.loads(dumps_line(obj, indent=True)) == obj


def test_explain_json_is_line_safe():
    r = run(["explain", "--json", "Cannot be Special Summoned.\u2028x"])
    assert r.exit_code == 0 and "\u2028" not in r.stdout
    assert json.loads(r.stdout)["tags"] == ["cannot-special-summon"]


# ---- 6. an unknown --type word is an error ----

@pytest.mark.parametrize("bad,word", [("Dargon / Effect", "'Dargon'"), ("Fiend / Efect", "'Efect'"), ("Synchro Gizmo", "'Gizmo'")])
def test_explain_rejects_an_unknown_type_word(bad, word):
    r = run(["explain", "Cannot be Special Summoned.", "--type", bad])
    assert r.exit_code == 2 and word in r.output and "not a card type word" in r.output


@pytest.mark.parametrize("good", ["Winged Beast / Effect", "Beast-Warrior / Synchro / Tuner / Effect", "Quick-Play Spell Card",
                                  "Synchro Pendulum Effect Monster", "XYZ Monster", "divine-beast / effect"])
def test_explain_accepts_real_type_lines(good):
    r = run(["explain", "Cannot be Special Summoned.", "--type", good])
    assert r.exit_code == 0, r.output


def test_every_type_word_of_the_shared_data_is_known(shared):
    import orjson
    lines = set()
    with open(shared / "data" / "yaml-yugi" / "cards.jsonl", "rb") as f:
        for line in f:
            t = orjson.loads(line).get("monster_type_line")
            if t:
                lines.add(t)
    lines |= {x["type"] for x in json.loads((ROOT / "corpora" / "sample" / "ygoprodeck.json").read_text())["data"]}
    assert len(lines) > 50
    for t in lines:
        cli.check_type_line(t)


# ---- 7. the same options across commands ----

def test_explain_takes_the_file_positionally_like_tag():
    a = run(["explain", SAMPLE, "--id", "65192027", "--json"])
    b = run(["explain", "--input", SAMPLE, "--id", "65192027", "--json"])
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert "nomi" in json.loads(a.stdout)["tags"]


def test_explain_guesses_the_language_of_a_cdb_like_tag(tmp_path):
    r = run(["tag", SAMPLE_CDB, "-o", tmp_path / "o.jsonl"])
    row = json.loads((tmp_path / "o.jsonl").read_text(encoding="utf-8").splitlines()[0])
    e = run(["explain", SAMPLE_CDB, "--id", row["id"], "--input-format", "cdb", "--json"])
    assert e.exit_code == 0, e.output
    assert json.loads(e.stdout)["lang"] == row["lang"] and json.loads(e.stdout)["tags"] == row["tags"]


def test_explain_usage_errors():
    assert "not both" in run(["explain", "x", "--id", "1", "--input", SAMPLE]).output
    r = run(["explain", SAMPLE, "--id", "1", "--type", "Fiend / Effect"])
    assert r.exit_code == 2 and "--type and --level describe TEXT" in r.output
    r = run(["explain", "Cannot be Special Summoned.", "--input-format", "cdb"])
    assert r.exit_code == 2 and "need --id" in r.output


def test_json_flag_on_tag_and_judge(tmp_path):
    r = run(["tag", SAMPLE, "--json"])
    assert r.exit_code == 0 and len([json.loads(l) for l in r.stdout.splitlines()]) == 43
    r = run(["tag", SAMPLE, "--json", "--format", "csv"])
    assert r.exit_code == 2 and "--json means --format jsonl" in r.output
    r = run(["judge", "--json", SCENARIOS / "yx-en-barbaros-three-tributes.json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["legal"] is True


def test_format_lists_agree_with_readers_and_writers():
    assert cli.IN_FORMATS == extractor.readers.FORMATS
    assert cli.OUT_FORMATS == extractor.writers.FORMATS


# ---- 8. fast start: --version loads no heavy module ----

def test_version_imports_no_heavy_module():
    code = ("import sys\nfrom extractor.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit as e:\n    assert e.code == 0, e.code\n"
            "heavy = ('pydantic', 'rich', 'spacy', 'regex', 'yaml', 'extractor.pipeline', 'extractor.readers', "
            "'extractor.rules', 'extractor.validate_cli', 'extractor.audit_cli', 'sqlite3')\n"
            "print(sorted(m for m in heavy if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "version" in r.stdout and r.stdout.strip().splitlines()[-1] == "[]"


def test_help_lists_every_command_without_loading_them():
    r = run(["--help"])
    assert r.exit_code == 0
    for name in ("tag", "explain", "judge", "validate", "audit", "schema"):
        assert f"  {name}" in r.output


# ---- 9. the summary counts cards whose text is not in the language asked for ----

def test_summary_counts_language_mismatch(tmp_path, monkeypatch):
    real = extractor.pipeline.analyze

    def with_warning(card, catalog=None):
        res = real(card, catalog)
        if card.id in (1, 3):
            res.warnings.append("language mismatch: the text looks like zh-CN, read as en")
        elif card.id == 2:
            res.warnings.append("a language mismatch: not at the start")
        return res

    monkeypatch.setattr(extractor.pipeline, "analyze", with_warning)
    src = write_jsonl(tmp_path / "in.jsonl", [{**CARD, "id": i} for i in (1, 2, 3, 4)])
    r = run(["tag", src, "-o", tmp_path / "o.jsonl"])
    assert r.exit_code == 0
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith("cards 4, tagged 4, errors 0, language mismatch 2, partial 0, seconds ")


# ---- 10. standard input ----

def test_dash_and_dev_stdin_are_passed_to_the_reader(monkeypatch, tmp_path):
    seen = []
    real = extractor.readers.read_cards

    def spy(path, lang=None, fmt=None):
        seen.append(path)
        return real(SAMPLE, lang, fmt)

    monkeypatch.setattr(extractor.readers, "read_cards", spy)
    for arg in ("-", "/dev/stdin"):
        r = run(["tag", arg, "-o", tmp_path / "o.jsonl"])
        assert r.exit_code == 0, r.output
    # (tag hands the reader the input it opened: extractor.readers.open_input)
    assert [getattr(p, "label", p) for p in seen] == ["standard input", "/dev/stdin"]


def test_dash_output_is_standard_output_and_never_checked_against_the_input():
    r = run(["tag", SAMPLE, "-o", "-"])
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 43


@pytest.mark.parametrize("arg", ["-", "/dev/stdin"])
def test_tag_reads_standard_input_from_a_pipe(tmp_path, arg):
    out = tmp_path / "o.jsonl"
    r = subprocess.run([sys.executable, "-m", "extractor.cli", "tag", arg, "-o", str(out)], input=SAMPLE.read_bytes(),
                       capture_output=True, cwd=ROOT)  # a pipe
    assert r.returncode == 0, r.stderr
    assert b"cards 43," in r.stderr
    rows = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 43 and any("nomi" in x["tags"] for x in rows)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["tag", SAMPLE], ["tag", SAMPLE, "--format", "csv"], ["explain", "--json", "X"],
                                  ["explain", "Cannot be Special Summoned."], ["judge", SCENARIOS], ["schema"]])
def test_standard_output_on_a_full_disk_is_one_line_in_every_command(args):
    with open("/dev/full", "wb") as full:
        r = subprocess.run([sys.executable, "-m", "extractor.cli", *map(str, args)], stdout=full, stderr=subprocess.PIPE,
                           text=True, cwd=ROOT)
    assert r.returncode == 1, r.stderr
    assert r.stderr.count("\n") == 1 and "no space left on device" in r.stderr and "cannot write the output" in r.stderr


@pytest.mark.parametrize("sig,code,word", [(signal.SIGTERM, 143, "terminated by SIGTERM"), (signal.SIGINT, 130, "interrupted")])
def test_a_signal_whose_exception_a_finalizer_swallowed_still_stops_tag(tmp_path, monkeypatch, sig, code, word):
    """A signal handler's exception raised inside a finalizer is 'ignored' by Python: tag must
    still stop at the next card, clean up, and print no 'Exception ignored' traceback."""
    real = extractor.pipeline.analyze
    calls = {"n": 0}

    class Finalizer:
        def __del__(self):
            cli._on_signal(sig, None)  # what Python does when the signal arrives during this __del__

    def analyze(card, catalog=None):
        calls["n"] += 1
        if calls["n"] == 5:
            Finalizer()  # dropped at once: its __del__ runs here and its exception is swallowed
        return real(card, catalog)

    monkeypatch.setattr(extractor.pipeline, "analyze", analyze)
    r = run(["tag", SAMPLE, "-o", tmp_path / "o.db"])
    assert calls["n"] == 5
    assert r.exit_code == code, r.output
    assert r.stderr.strip() == f"{word}: no output written"
    assert list(tmp_path.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) is not cli._on_signal  # handlers restored after the command


def test_progress_bar_goes_to_the_terminal_on_standard_error_not_to_standard_output(tmp_path):
    import pty
    import threading
    master, slave = pty.openpty()
    out = tmp_path / "o.jsonl"
    chunks: list[bytes] = []

    def drain() -> None:
        # Read the terminal while the command runs: a full pty buffer would block its writes.
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        r = subprocess.run([sys.executable, "-m", "extractor.cli", "tag", str(_big_input(tmp_path, 3000)), "-o", str(out)],
                           stdout=subprocess.PIPE, stderr=slave, cwd=ROOT, timeout=120)
        os.close(slave)
        reader.join(timeout=10)
    finally:
        os.close(master)
    shown = b"".join(chunks)
    assert r.returncode == 0 and r.stdout == b""
    assert b"cards 3000, tagged 3000" in shown
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3000


def test_explain_of_a_file_without_id_asks_for_the_id():
    r = run(["explain", SAMPLE])
    assert r.exit_code == 2 and "give --id N" in r.output and str(SAMPLE) in r.output


# ---- a reader that goes away: `explain ... | head` ends like `tag ... | head` ----

@pytest.mark.parametrize("command", [
    ["explain", "Cannot be Normal Summoned/Set. Must be Special Summoned by banishing 3 DARK monsters from your GY."],
    ["tag", str(ROOT / "corpora" / "sample" / "cards.jsonl")],
])
def test_a_closed_pipe_ends_with_status_0_and_no_message(command):
    """The reader takes the first line and closes the pipe: the command ends with status 0 and
    prints nothing on standard error (rich's own broken-pipe hook would end ``explain`` with 1)."""
    p = subprocess.Popen([sys.executable, "-m", "extractor.cli", *command], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline()
    p.stdout.close()  # the reader goes away before the rest is written
    err = p.stderr.read()
    assert p.wait(timeout=60) == 0, err.decode()
    assert first
    assert err.decode().strip() in ("", ) or err.decode().startswith("cards "), err.decode()


def test_pipe_console_raises_a_broken_pipe_instead_of_exiting_1():
    from extractor.console import PipeConsole

    with pytest.raises(BrokenPipeError):
        PipeConsole().on_broken_pipe()
