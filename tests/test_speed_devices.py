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


# -- required literals: what every text a pattern matches must contain -----------------------

def test_required_literals_reads_runs_groups_alternations_and_lookarounds():
    from extractor.patterns import required_literals as req

    assert req("Cannot be Normal Summoned") == (("Cannot be Normal Summoned",),)
    assert req(r"ab?c") == (("a",), ("c",))                       # an optional part splits the run
    assert req(r"ab+c") == (("ab",), ("bc",))                     # b+ holds one b, and ends with one
    assert req(r"x(?:de|fg)y") == (("x",), ("de", "fg"), ("y",))
    assert req(r"(?:de|fg)?y") == (("y",),)
    assert req(r"(?=[^。]*特殊召唤)这张卡") == (("特殊召唤",), ("这张卡",))  # a lookahead's text is in the text
    assert req(r"(?<!不)能(?!以)") == (("能",),)                   # negative lookarounds require nothing
    assert req(r"(?P<n>「[^」]+」)的效果") == (("「",), ("」的效果",))   # a group's end joined to the run after it
    assert req(r"a|b[xy]") == (("a", "b"),) and req(r"a|[xy]") == ()  # one literal of each branch; a branch requiring nothing
    assert req(r"\(from\)\s+\p{Han}") == (("(from)",),)
    assert req(r"a{2,3}b") == (("ab",),) and req(r"a{0,3}b") == (("b",),)  # a{2,3} ends with an a


def test_required_literals_gives_up_on_what_it_does_not_read():
    from extractor.patterns import required_literals as req

    for rx in (r"(?i)cannot", r"(?>abc)", r"(a)\1", r"\u4e00abc", r"a{x}", r"[[:alpha:]]x", r"(?|a|b)"):
        assert req(rx) is None, rx


def test_every_pattern_example_meets_the_checks_of_its_pattern():
    # the checks are necessary conditions: every text a pattern matches passes them
    from extractor.normalize import normalize
    from extractor.patterns import _holds, load_catalog

    cat = load_catalog()
    checked = 0
    for p in cat.patterns:
        for ex in p.examples_match:
            text = normalize(ex["text"], p.lang).text
            if cat.checks[p.id] and p.regex.search(text):
                assert _holds(cat.checks[p.id], text, {}), (p.id, ex["text"])
                checked += 1
    assert checked > 100
    assert sum(1 for c in cat.checks.values() if c) > len(cat.patterns) // 2


def test_the_regex_guard_timer_is_stopped_after_each_run():
    # a CPU timer left running after Catalog.run fires later: at interpreter exit, when its handler
    # is gone, SIGVTALRM's default action ends the process (seen in the test suite)
    import signal

    if not hasattr(signal, "ITIMER_VIRTUAL"):
        pytest.skip("no CPU-time timer on this platform")
    cat = P.load_catalog()
    assert cat.run("Cannot be Normal Summoned/Set. Must be Special Summoned by its own effect.", "en")
    assert signal.getitimer(signal.ITIMER_VIRTUAL) == (0.0, 0.0)


# -- devices of the tag loop and the matcher: the collector thresholds, the '^' anchor -----------

def test_tag_loop_collector_thresholds_are_raised_then_restored():
    import gc

    from extractor.cli import _fewer_collections

    before = gc.get_threshold()
    with _fewer_collections(123_456):
        assert gc.get_threshold() == (max(123_456, before[0]), *before[1:])
    assert gc.get_threshold() == before
    with pytest.raises(KeyError):
        with _fewer_collections():
            raise KeyError("x")
    assert gc.get_threshold() == before


def test_start_anchor_runs_give_the_same_matches_as_a_scan():
    cat = P.load_catalog()
    ps = [p for p in cat.patterns if p.anchor is not None and p.anchor.pattern == "^" and p.lang == "zh"]
    assert ps  # material lines are anchored at the start of the text
    text = "「元素英雄 新宇侠」+「新空间侠·大地鼹鼠」\n这张卡用融合召唤才能从额外卡组特殊召唤。"
    got = [(m.pattern.id, m.start, m.end) for m in cat.run(text, "zh-CN", 0, len(text)) if m.pattern in ps]
    want = [(p.id, m.start(), m.end()) for p in ps for m in p.regex.finditer(text)]
    assert sorted(got) == sorted(want) and want  # the Fusion material line is found either way


# -- the keyed name alias table, kept beside the compiled catalog -------------------------------------

@pytest.fixture
def fresh_names(monkeypatch, tmp_path):
    from extractor import names as N

    monkeypatch.setenv("YGO_EXTRACTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("YGO_EXTRACTOR_NO_CACHE", raising=False)

    def clear():
        for f in (N._keyed, N._aliases, N._blocked):
            f.cache_clear()

    clear()
    yield N, tmp_path / "cache", clear
    clear()


def test_keyed_alias_table_is_kept_and_a_warm_run_keys_no_name(fresh_names, monkeypatch):
    N, cache, clear = fresh_names
    old = "元素英雄 水泡侠"  # an older zh-CN name of "Elemental HERO Bubbleman"
    assert N.resolve_name(old, "zh-CN", N.NameTable()) == 79979666
    (kept,) = cache.glob("names-*.pickle")
    assert kept.name == f"names-{P._cache_key(PATTERNS_DIR)}.pickle"
    built = N._keyed()
    clear()

    def no_keying(*a, **k):
        raise AssertionError("a warm run keyed the alias names again")

    monkeypatch.setattr(N, "name_keys", no_keying)
    assert N.resolve_name(old, "zh-CN", N.NameTable()) == 79979666
    assert N.main_passcode(36996508) == 46986414
    warm = N._keyed()
    assert warm is not built and warm == built
    assert dict(warm["zh"].loose) == dict(built["zh"].loose) and warm["blocked"] == built["blocked"]


def test_keyed_alias_table_without_the_cache_is_the_same(fresh_names, monkeypatch):
    N, cache, clear = fresh_names
    N._keyed()
    kept = N._keyed()
    clear()
    monkeypatch.setenv("YGO_EXTRACTOR_NO_CACHE", "1")
    assert N._keyed() == kept and N._keyed()["zh"].loose == kept["zh"].loose
    clear()
    (path,) = cache.glob("names-*.pickle")
    path.write_bytes(b"damaged")  # read back as nothing: built again, no error
    monkeypatch.delenv("YGO_EXTRACTOR_NO_CACHE")
    assert N._keyed() == kept


@pytest.mark.parametrize("edit", ["names/aliases.json.gz", "terms"])
def test_cache_key_changes_with_the_alias_file_and_the_term_tables(tmp_path, edit):
    import shutil

    copy = tmp_path / "patterns"
    shutil.copytree(PATTERNS_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    key = P._cache_key(copy)
    target = copy / edit if edit.endswith(".gz") else sorted((copy / edit).glob("*.yaml"))[0]
    target.write_bytes(target.read_bytes() + b"\n")
    assert P._cache_key(copy) != key
