"""Versioned output (issue 12 §3): tool version, pattern-catalog digest, input names and digests
and the date, in every output of ``tag``, ``validate`` and ``audit``."""
from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from datetime import datetime, timedelta, timezone
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.meta import build_meta, catalog_digest, read_meta, sidecar_path, write_sidecar

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "corpora" / "sample"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _direct_catalog_digest(root: Path) -> str:
    """The documented recipe, computed over the checkout's patterns/ folder with pathlib."""
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.yaml"), key=lambda p: p.relative_to(root).as_posix()):
        data = p.read_bytes()
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def _check_common(meta: dict, command: str, inputs: list[Path]) -> None:
    assert meta["tool"] == "ygo-extractor" and meta["command"] == command
    assert meta["version"] == version("ygo-extractor")
    assert meta["catalog_sha256"] == catalog_digest() == _direct_catalog_digest(ROOT / "patterns")
    assert meta["inputs"] == [{"name": p.name, "sha256": _sha(p), "bytes": p.stat().st_size} for p in inputs]
    created = datetime.strptime(meta["created"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    assert abs(datetime.now(timezone.utc) - created) < timedelta(minutes=5)


def test_catalog_digest_follows_the_files(tmp_path):
    cat = tmp_path / "patterns"
    shutil.copytree(ROOT / "patterns", cat, ignore=shutil.ignore_patterns("__pycache__"))
    d0 = catalog_digest(cat)
    assert d0 == catalog_digest() == _direct_catalog_digest(cat)
    (cat / "__init__.py").write_text("# not a catalog file\n")
    assert catalog_digest(cat) == d0  # only the .yaml files the wheel ships count
    f = cat / "en" / "special-summon.yaml"
    f.write_bytes(f.read_bytes() + b"\n")
    d1 = catalog_digest(cat)
    assert d1 != d0
    f.rename(cat / "en" / "special-summon-2.yaml")
    assert catalog_digest(cat) not in (d0, d1)  # a renamed file changes it too


@pytest.mark.parametrize("fmt,name", [("jsonl", "t.jsonl"), ("csv", "t.csv")])
def test_tag_jsonl_and_csv_get_a_sidecar(tmp_path, fmt, name):
    out = tmp_path / name
    src = SAMPLE / "cards.cdb"
    r = CliRunner().invoke(main, ["tag", str(src), "--format", fmt, "-o", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    side = tmp_path / (name + ".meta.json")
    assert sidecar_path(out) == side and side.is_file()
    meta = json.loads(side.read_text())
    _check_common(meta, "tag", [src])
    assert meta["output"] == {"name": name, "sha256": _sha(out), "bytes": out.stat().st_size}
    assert read_meta(out) == meta
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, name + ".meta.json"])  # no temp left


def test_tag_sqlite_gets_a_meta_table(tmp_path):
    out = tmp_path / "t.db"
    src = SAMPLE / "yaml-yugi.jsonl"
    r = CliRunner().invoke(main, ["tag", str(src), "--format", "sqlite", "-o", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    con = sqlite3.connect(out)
    rows = dict(con.execute("SELECT key, value FROM meta"))
    ncards = con.execute("SELECT count(*) FROM cards").fetchone()[0]
    con.close()
    assert ncards > 0
    assert set(rows) == {"tool", "version", "command", "catalog_sha256", "inputs", "created"}
    assert json.loads(rows["inputs"])[0]["sha256"] == _sha(src)
    _check_common(read_meta(out), "tag", [src])
    assert not sidecar_path(out).exists()


def test_standard_output_has_no_sidecar(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["tag", str(SAMPLE / "cards.jsonl"), "--no-progress"])
    assert r.exit_code == 0 and r.stdout.count("\n") > 5
    assert list(tmp_path.iterdir()) == []
    assert write_sidecar("-", {"tool": "x"}) is None and write_sidecar(None, {}) is None


def test_failed_tag_writes_no_sidecar(tmp_path):
    out = tmp_path / "missing-folder" / "t.jsonl"
    r = CliRunner().invoke(main, ["tag", str(SAMPLE / "cards.jsonl"), "-o", str(out), "--no-progress"])
    assert r.exit_code != 0
    assert not sidecar_path(out).exists() and list(tmp_path.iterdir()) == []


def test_validate_output_records_both_inputs(tmp_path):
    out = tmp_path / "problems.jsonl"
    src = SAMPLE / "yaml-yugi.jsonl"
    r = CliRunner().invoke(main, ["validate", str(src), "--source-lang", "en", "--target-lang", "zh-CN",
                                  "-o", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    meta = read_meta(out)
    _check_common(meta, "validate", [src])  # one multilingual file: one input
    assert meta["output"]["sha256"] == _sha(out)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    lines = (SAMPLE / "cards.jsonl").read_text(encoding="utf-8").splitlines()
    a.write_text("\n".join(x for x in lines if '"lang": "en"' in x or '"lang":"en"' in x) + "\n", encoding="utf-8")
    b.write_text("\n".join(x for x in lines if "zh-CN" in x) + "\n", encoding="utf-8")
    out2 = tmp_path / "two.jsonl"
    r = CliRunner().invoke(main, ["validate", str(a), str(b), "-o", str(out2), "--no-progress"])
    assert r.exit_code == 0, r.output
    _check_common(read_meta(out2), "validate", [a, b])


def test_audit_outputs_get_sidecars(tmp_path):
    out, html, sql = tmp_path / "audit.jsonl", tmp_path / "audit.html", tmp_path / "fix.sql"
    src = SAMPLE / "cards.cdb"
    r = CliRunner().invoke(main, ["audit", str(src), "-o", str(out), "--html", str(html), "--sql", str(sql)])
    assert r.exit_code == 0, r.output
    for f in (out, html, sql):
        meta = read_meta(f)
        _check_common(meta, "audit", [src])
        assert meta["output"] == {"name": f.name, "sha256": _sha(f), "bytes": f.stat().st_size}
    assert len(list(tmp_path.iterdir())) == 6


def test_validate_html_and_errors_get_sidecars(tmp_path):
    html, errs = tmp_path / "r.html", tmp_path / "errors.txt"
    src = SAMPLE / "yaml-yugi.jsonl"
    r = CliRunner().invoke(main, ["validate", str(src), "--source-lang", "en", "--target-lang", "zh-TW",
                                  "--html", str(html), "--errors", str(errs), "--no-progress"])
    assert r.exit_code == 0, r.output
    for f in (html, errs):
        meta = read_meta(f)
        _check_common(meta, "validate", [src])
        assert meta["output"]["sha256"] == _sha(f)


def test_build_meta_for_standard_input_and_a_fixed_date():
    m = build_meta("tag", ["-"], now=datetime(2026, 1, 2, 3, 4, 5, 678, tzinfo=timezone.utc))
    assert m["inputs"] == [{"name": "-", "sha256": None, "bytes": None}]
    assert m["created"] == "2026-01-02T03:04:05Z"
