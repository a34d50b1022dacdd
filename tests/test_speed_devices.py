"""Speed devices that must never change a result: the on-disk cache of the compiled catalog."""
import os

import pytest

from extractor import patterns as P
from extractor.normalize.common import PATTERNS_DIR


def _plain_build():
    # load_catalog = lru_cache(_disk_cached(build)): the undecorated build
    return P.load_catalog.__wrapped__.__wrapped__


def _snapshot(cat):
    return [(p.id, p.regex.pattern, dict(p.regex.groupindex), p.anchor.pattern if p.anchor else None, p.requires,
             p.captures, p.yields, p.scope) for p in cat.patterns]


@pytest.fixture
def counted(monkeypatch, tmp_path):
    monkeypatch.setenv("YGO_EXTRACTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("YGO_EXTRACTOR_NO_CACHE", raising=False)
    calls = []
    build = _plain_build()

    def counting(root=None):
        calls.append(root)
        return build(root)

    return P._disk_cached(counting), calls, tmp_path / "cache"


def test_catalog_cache_is_written_once_and_gives_the_same_catalog(counted):
    load, calls, cache = counted
    first = load()
    assert calls == [None] and len(list(cache.glob("catalog-*.pickle"))) == 1
    second = load()
    assert calls == [None]  # read from the cache, not built again
    assert second is not first and _snapshot(second) == _snapshot(first)
    text = "Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT monster."
    got = [(m.pattern.id, m.start, m.end, m.fields) for m in second.run(text, "en")]
    assert got and got == [(m.pattern.id, m.start, m.end, m.fields) for m in first.run(text, "en")]


def test_damaged_cache_file_is_rebuilt_without_an_error(counted):
    load, calls, cache = counted
    load()
    (path,) = cache.glob("catalog-*.pickle")
    path.write_bytes(b"not a pickle")
    assert len(load()) == len(_plain_build()(None))
    assert calls == [None, None]
    load()
    assert calls == [None, None]  # the rebuilt file is good again


def test_cache_can_be_turned_off_and_survives_an_unwritable_folder(counted, monkeypatch, tmp_path):
    load, calls, cache = counted
    monkeypatch.setenv("YGO_EXTRACTOR_NO_CACHE", "1")
    load(), load()
    assert calls == [None, None] and not cache.exists()
    monkeypatch.delenv("YGO_EXTRACTOR_NO_CACHE")
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("YGO_EXTRACTOR_CACHE_DIR", str(blocker / "cache"))  # cannot be a folder
    assert len(load()) == len(_plain_build()(None))


def test_another_catalog_root_is_never_cached(counted):
    load, calls, cache = counted
    load(str(PATTERNS_DIR))
    assert calls == [str(PATTERNS_DIR)] and not cache.exists()


def test_cache_key_changes_with_any_catalog_file(tmp_path):
    import shutil

    copy = tmp_path / "patterns"
    shutil.copytree(PATTERNS_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    key = P._cache_key(copy)
    assert P._cache_key(copy) == key
    some = sorted(copy.glob("*/*.yaml"))[0]
    some.write_text(some.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert P._cache_key(copy) != key
    (copy / "zh" / "new.yaml").write_text("language: zh\npatterns: []\n", encoding="utf-8")
    assert len({key, P._cache_key(copy)}) == 2


def test_old_cache_files_are_pruned(counted):
    load, calls, cache = counted
    cache.mkdir()
    for i in range(12):
        f = cache / f"catalog-old{i:02d}.pickle"
        f.write_bytes(b"x")
        os.utime(f, (1_000_000 + i, 1_000_000 + i))
    load()
    left = sorted(f.name for f in cache.glob("catalog-*.pickle"))
    assert len(left) == P._CACHE_KEEP
    assert "catalog-old11.pickle" in left and "catalog-old00.pickle" not in left
