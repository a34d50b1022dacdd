"""fold_name translates the dots and dashes only when a name holds one (``_FOLD_RE``): the same
keys as the translation of every name (the old way), on real names of ../shared/data."""
from __future__ import annotations

import unicodedata
from pathlib import Path

import orjson
import pytest

from extractor import names as N
from extractor.names import fold_name

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def _fold_old(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(N._FOLD)
    return "".join(text.split()).strip(N._QUOTES).casefold()


def test_gate_finds_every_character_the_table_rewrites():
    assert {ord(c) for c in map(chr, range(0x10000)) if N._FOLD_RE.search(c)} == set(N._FOLD)


def test_written_examples():
    for s in ["新空间人・大地鼹鼠", "元素－英雄 新宇侠", "Raimei", "Rai‐Mei", "「ＡＢＣ」", "黑·魔·导", "ab ･ cd", "x—y"]:
        assert fold_name(s) == _fold_old(s)
    assert fold_name("新空间人・大地鼹鼠") == "新空间人·大地鼹鼠"


@pytest.mark.skipif(not (SHARED / "yaml-yugi" / "cards.jsonl").is_file(), reason="needs ../shared/data")
def test_same_keys_as_translating_every_name_on_real_names():
    names: set[str] = set()
    with open(SHARED / "yaml-yugi" / "cards.jsonl", "rb") as f:
        for line in f:
            d = orjson.loads(line)
            if isinstance(d.get("name"), dict):
                names.update(v for v in d["name"].values() if isinstance(v, str))
    raw = N._table()
    for group in ("en", "zh"):
        names.update(raw.get(group) or {})
    assert len(names) > 50_000
    folded = 0
    for s in names:
        old = _fold_old(s)
        assert fold_name(s) == old, s
        folded += old != "".join(unicodedata.normalize("NFKC", s).split()).strip(N._QUOTES).casefold()
    assert folded > 100  # the translating branch is taken on real names too
