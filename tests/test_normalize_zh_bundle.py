"""The Chinese normalizer's tables kept across processes (``zh._bundle``, a speed device of the tenth
pass) are exactly the tables built from their files: every stdlib ``re`` pattern kept as its
compiled code (``_ReCode``) is ``==`` to ``re.compile`` of its source (flags, code and source
compared), the other fields are equal, and a changed OpenCC file is read again.  And the registers
read from the terms pass when the replaced full-width forms touch no matched word (``_untouched``)
are those of the long way."""
from __future__ import annotations

import json
import pickle
import re

import pytest
import regex

from extractor.normalize import frozen_re as F
from extractor.normalize import zh as Z


def _same_tables(a, b) -> None:
    """Two table tuples (_Tables, _Scan, ...) hold the same values; ``regex`` patterns (compared by
    identity) by source and flags."""
    assert type(a) is type(b)
    for name, x, y in zip(getattr(a, "_fields", range(len(a))), a, b):
        if isinstance(x, regex.Pattern):
            assert (x.pattern, x.flags) == (y.pattern, y.flags), name
        else:
            assert type(x) is type(y) and x == y, name


def _clear() -> None:
    for f in (Z._bundle, Z._opencc, Z._tables, Z._scan, Z._trad_bmp_re):
        f.cache_clear()


def test_kept_re_code_is_what_re_compiles():
    for src in ("[\uFF01-\uFF5E]", "(此(?:卡|怪兽)|不(?:可(?:以)?|得))", "[㑮㑯㑳\U00010000-\U0010FFFF]",
                "(?P<a>x)|y", "a|b", "\\d+"):
        p = re.compile(src)
        rc = F._freeze_re(p)
        assert isinstance(rc, F._ReCode), src
        back = F._thaw(pickle.loads(pickle.dumps(rc)))
        assert back == p and back.groupindex == p.groupindex and back.groups == p.groups, src
        assert back.findall("此卡不可以xy12㑯") == p.findall("此卡不可以xy12㑯")
    # a pattern given flags (split_alternation passes the pattern's own)
    p = re.compile("(a|b)", re.UNICODE)
    assert F._thaw(F._freeze_re(p)) == p


def test_bundle_is_the_build_and_survives_pickling():
    built = Z._build_bundle(Z._opencc_file())
    kept = F._thaw(pickle.loads(pickle.dumps(F._freeze(built), protocol=5)))
    for a, b in zip(kept, built):
        if isinstance(a, re.Pattern):
            assert a == b
        elif type(a) is tuple:
            assert a == b  # OpenCC's table, its characters, the astral flag
        elif a is not None:
            _same_tables(a, b)
    # every re pattern of the tables is kept as code, not as a source compiled again
    frozen = F._freeze(built)
    assert sum(isinstance(v, F._ReCode) for t in frozen[1:3] for v in t) >= 8
    assert not any(isinstance(v, re.Pattern) for t in frozen[1:3] for v in t)
    # what the module uses is the same as a fresh build
    b = Z._bundle()
    assert b[0][:2] == built[0][:2] and b[0][3] == built[0][2] and b[0][2] is Z._trad_bmp_re
    _same_tables(b[1], built[1])
    _same_tables(b[2], built[2])
    assert b[3] == built[3]


def test_a_changed_opencc_file_is_read_again(monkeypatch):
    calls = []
    real = Z._build_bundle

    def counting(path):
        calls.append(path)
        return real(path)

    monkeypatch.setattr(Z, "_build_bundle", counting)
    stamp = Z._opencc_stamp(Z._opencc_file())
    monkeypatch.setattr(Z, "_opencc_stamp", lambda path: (stamp[0], stamp[1] + 1, stamp[2]))
    _clear()
    try:
        # the kept file (if any) has the real stamp: the tables are built, not read
        assert Z.normalize_zh("此卡不可從手牌特殊召喚").text == "这张卡不能从手卡特殊召唤"
        assert calls
    finally:
        monkeypatch.undo()
        _clear()
    assert Z.normalize_zh("此卡不可從手牌特殊召喚").text == "这张卡不能从手卡特殊召唤"


def test_kept_scans_find_what_fresh_ones_find_on_shared_texts(shared):
    built = Z._build_bundle(Z._opencc_file())
    pairs = [(a, b) for ka, kb in zip(Z._bundle()[1:3], built[1:3]) for a, b in zip(ka, kb)
             if isinstance(b, re.Pattern)] + [(Z._bundle()[3], built[3])]
    texts = []
    with open(shared / "data/yaml-yugi/cards.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            for lang in ("zh-CN", "zh-TW"):
                t = (d.get("text") or {}).get(lang)
                if isinstance(t, str) and t:
                    texts.append(t)
    assert len(texts) > 10_000
    for t in texts:
        for a, b in pairs:
            assert a.findall(t) == b.findall(t), (a.pattern[:40], t)


def test_a_warm_process_reads_the_kept_tables_and_builds_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv("YGO_EXTRACTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("YGO_EXTRACTOR_NO_CACHE", raising=False)
    _clear()
    try:
        cold = Z.normalize_zh("①：此卡不可從手牌特殊召喚，１只。")
        (kept,) = (tmp_path / "cache").glob("zh-normalizer-*.pickle")
        _clear()

        def no_build(path):
            raise AssertionError("a warm process built the tables again")

        monkeypatch.setattr(Z, "_build_bundle", no_build)
        warm = Z.normalize_zh("①：此卡不可從手牌特殊召喚，１只。")
        assert (warm.text, warm.registers) == (cold.text, cold.registers) == ("①:这张卡不能从手卡特殊召唤,1只。", ["official"])
    finally:
        monkeypatch.undo()
        _clear()


# -- registers read from the terms pass when a replaced full-width form touches no matched word ------

def test_soft_characters_give_the_registers_of_the_long_way(monkeypatch):
    from test_normalize_zh_fast_path import _same

    sc = Z._scan()
    assert "１" in sc.soft_words and "移除1个" in sc.soft_words["１"]  # (１ -> 1, and 1 is in a term)
    texts = ["１只此卡不可", "移除１个超量素材", "移除1个", "ＸＹＺ召唤这张卡", "Ｘ此卡不可", "１２３４我方",
             "把１只怪兽送进墓地", "移除２个", "２体以上", "手牌１张", "卡组１"]
    for i, t in enumerate(texts):
        _same(t, i)
    calls = []
    real = Z._registers_of
    monkeypatch.setattr(Z, "_registers_of", lambda *a: calls.append(a) or real(*a))
    assert Z.normalize_zh("１只此卡不可，从我方手牌").registers == sorted(["official", "old"])
    assert not calls  # read from the terms pass: no second scan
    assert Z.normalize_zh("移除１个超量素材").registers == ["old"]
    assert calls  # 移除1个 holds the replacement: the text before is scanned


def test_opencc_stamp_sees_an_edit_that_keeps_size_and_modification_time(tmp_path):
    """The OpenCC file's stamp is the catalog key's stat stamp (size, both times, inode, device):
    rewriting the file with the same size and its old modification time still changes it (the
    change time moves), which a (size, modification time) stamp would miss."""
    import os
    import time

    from extractor.normalize import zh as Z
    from extractor.patterns.cache import stat_stamp

    f = tmp_path / "STCharacters.txt"
    f.write_text("丟\t丢\n", encoding="utf-8")
    before = Z._opencc_stamp(f)
    assert before == (str(f), *stat_stamp(os.stat(f)))
    st = os.stat(f)
    time.sleep(0.02)
    f.write_text("丢\t丟\n", encoding="utf-8")  # same size
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = Z._opencc_stamp(f)
    assert after[1] == before[1] and after[2] == before[2]  # size and modification time kept
    assert after != before
