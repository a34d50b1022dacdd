"""Writers (extractor/writers.py) and the CLI's interrupt path: output is atomic."""
import json
import os
import sqlite3
import stat

import pytest
from click.testing import CliRunner

import extractor.pipeline
from extractor.cli import main
from extractor.writers import OutputError, Writer, atomic_path

from conftest import ROOT

SAMPLE = ROOT / "corpora" / "sample" / "cards.jsonl"
ROW = {"id": 1, "name": "A", "lang": "en", "tags": ["nomi", "revive-limit"], "tributes": None,
       "conditions": [{"kind": "cannot-normal-summon", "span": [0, 5]}], "profile": {"x": 1}, "warnings": []}


class Boom(Exception):
    pass


def leftovers(folder):
    """Temp files of the atomic writer (and SQLite journals) left in ``folder``."""
    return [p.name for p in folder.iterdir() if p.name.endswith((".tmp", "-journal"))]


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "sqlite"])
def test_complete_output(tmp_path, fmt):
    out = tmp_path / f"o.{fmt}"
    with Writer(str(out), fmt) as w:
        w.write(ROW)
        w.write({**ROW, "id": 2, "tags": [], "error": "card 2: bad"})
    assert leftovers(tmp_path) == []
    if fmt == "jsonl":
        rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
        assert [r["id"] for r in rows] == [1, 2] and rows[0]["tags"] == ["nomi", "revive-limit"]
    elif fmt == "csv":
        lines = out.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("id,name,lang,tags") and len(lines) == 3
        assert "nomi revive-limit" in lines[1] and "card 2: bad" in lines[2]
    else:
        con = sqlite3.connect(out)
        assert con.execute("SELECT COUNT(*) FROM cards").fetchone()[0] == 2
        assert con.execute("SELECT tag FROM card_tags WHERE id=1 ORDER BY tag").fetchall() == [("nomi",), ("revive-limit",)]
        con.close()


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "sqlite"])
def test_failure_mid_way_leaves_no_file(tmp_path, fmt):
    out = tmp_path / f"o.{fmt}"
    with pytest.raises(Boom):
        with Writer(str(out), fmt) as w:
            for i in range(50):
                w.write({**ROW, "id": i})
            raise Boom()
    assert not out.exists()
    assert leftovers(tmp_path) == [] and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "sqlite"])
def test_failure_mid_way_keeps_the_earlier_file(tmp_path, fmt):
    out = tmp_path / f"o.{fmt}"
    with Writer(str(out), fmt) as w:
        w.write(ROW)
    before = out.read_bytes()
    with pytest.raises(KeyboardInterrupt):
        with Writer(str(out), fmt) as w:
            w.write({**ROW, "id": 99})
            raise KeyboardInterrupt
    assert out.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_failure_while_closing_leaves_no_temp_file(tmp_path, monkeypatch):
    """A disk-full error on the final flush/close: no output and no temp file."""
    out = tmp_path / "o.jsonl"
    w = Writer(str(out), "jsonl")
    with pytest.raises(OutputError, match="no space left on device; nothing written"):
        with w:
            w.write(ROW)
            real = w._fh

            class Full:
                def write(self, b):
                    return real.write(b)

                def close(self):
                    real.close()
                    raise OSError(28, "No space left on device")
            w._fh = Full()
    assert not out.exists() and leftovers(tmp_path) == []


def test_output_gets_normal_permissions(tmp_path):
    out = tmp_path / "o.jsonl"
    with Writer(str(out), "jsonl") as w:
        w.write(ROW)
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask
    os.chmod(out, 0o640)
    with atomic_path(out) as tmp:
        tmp.write_text("new", encoding="utf-8")
    assert out.read_text(encoding="utf-8") == "new" and stat.S_IMODE(out.stat().st_mode) == 0o640


def test_writer_argument_errors():
    with pytest.raises(ValueError, match="unknown output format"):
        Writer("x", "xml")
    with pytest.raises(ValueError, match="needs -o"):
        Writer(None, "sqlite")


def test_cli_ctrl_c_leaves_no_output(tmp_path, monkeypatch):
    out = tmp_path / "o.jsonl"
    real = extractor.pipeline.analyze
    calls = {"n": 0}

    def interrupted(card, catalog=None):
        calls["n"] += 1
        if calls["n"] == 10:
            raise KeyboardInterrupt
        return real(card, catalog)

    monkeypatch.setattr(extractor.pipeline, "analyze", interrupted)
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "-o", str(out)])
    assert calls["n"] == 10
    assert r.exit_code == 130, r.output
    assert "interrupted" in r.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_cli_ctrl_c_keeps_an_earlier_output(tmp_path, monkeypatch):
    out = tmp_path / "o.csv"
    assert CliRunner().invoke(main, ["tag", str(SAMPLE), "--format", "csv", "-o", str(out)]).exit_code == 0
    before = out.read_bytes()

    def interrupted(card, catalog=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(extractor.pipeline, "analyze", interrupted)
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "--format", "csv", "-o", str(out)])
    assert r.exit_code == 130
    assert out.read_bytes() == before and leftovers(tmp_path) == []


def test_cli_output_that_cannot_be_written_is_a_clear_error(tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "-o", str(folder)])
    assert r.exit_code == 2 and "cannot write the output" in r.output and "is a folder" in r.output
    assert "Traceback" not in r.output
    assert folder.is_dir() and leftovers(tmp_path) == []


def test_dumps_line_escapes_each_line_separator_alone_and_with_lookalikes():
    """dumps_line looks for U+2028 / U+2029 / U+0085 behind a two-step test: each alone, next to
    characters that share their first bytes (… “ ” · ©) and in none is handled exactly."""
    import orjson

    from extractor.writers import dumps_line

    for s in ("a\u2028b", "\u2029", "x\x85y", "…“”\u2028", "·©\x85", "…“” · ©", "①：这张卡", "plain"):
        got = dumps_line({"t": s})
        assert got == orjson.dumps({"t": s}).replace("\u2028".encode(), b"\\u2028").replace(
            "\u2029".encode(), b"\\u2029").replace("\x85".encode(), b"\\u0085")
        assert len(got.decode().splitlines()) == 1 and orjson.loads(got) == {"t": s}
