"""The start-up of ``tag``: what a warm run takes from the catalog's cache instead of building it
must be what the cold build gives (the YAML documents of the term and cue tables), and a warm
``tag`` run does not import PyYAML."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from extractor.normalize import common
from extractor.normalize.common import PATTERNS_DIR, load_yaml

REPO = Path(__file__).resolve().parent.parent

# every YAML document a run may read through load_yaml (the term tables, the cue and coverage files)
DOCS = sorted(f"{d}/{f.name}" for d in ("terms", "cues") for f in PATTERNS_DIR.joinpath(d).iterdir()
              if f.name.endswith(".yaml"))


def _path(rel):
    return PATTERNS_DIR.joinpath(*rel.split("/"))


def _parse(rel):
    import yaml

    with _path(rel).open(encoding="utf-8") as f:
        return yaml.load(f, Loader=yaml.SafeLoader)


@pytest.fixture
def cache(monkeypatch, tmp_path):
    if not isinstance(PATTERNS_DIR, Path):
        pytest.skip("the catalog is not on a file system: no cache")
    monkeypatch.setenv("YGO_EXTRACTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("YGO_EXTRACTOR_NO_CACHE", raising=False)
    return tmp_path / "cache"


def test_the_catalog_has_the_documents_the_run_reads():
    assert {"terms/zh.yaml", "terms/en.yaml", "terms/ja.yaml", "terms/readings-zh.yaml",
            "cues/zh.yaml", "cues/en.yaml", "cues/ja.yaml"} <= set(DOCS)


@pytest.mark.parametrize("rel", DOCS)
def test_a_warm_load_gives_the_document_of_a_cold_build(rel, cache):
    cold = load_yaml(_path(rel))  # parses the file, writes the cache file
    (kept,) = cache.glob("yaml-*.pickle")
    assert kept.name.startswith("yaml-" + rel.removesuffix(".yaml").replace("/", "-") + "-")
    warm = load_yaml(_path(rel))  # read back from the cache file
    assert warm == cold == _parse(rel) and warm is not cold
    assert cold  # every table holds something


def test_a_warm_load_does_not_parse_and_a_damaged_file_is_parsed_again(cache):
    rel = _path("terms/zh.yaml")
    want = load_yaml(rel)
    (kept,) = cache.glob("yaml-terms-zh-*.pickle")
    kept.write_bytes(b"not a pickle")
    assert load_yaml(rel) == want  # parsed again (and written again)
    import pickle

    with open(kept, "rb") as f:
        assert pickle.load(f) == {"doc": want}


def test_load_terms_and_the_cache_turned_off_give_the_same_tables(cache, monkeypatch):
    warm = {n: common.load_terms.__wrapped__(n) for n in ("zh", "en", "ja")}
    monkeypatch.setenv("YGO_EXTRACTOR_NO_CACHE", "1")
    assert warm == {n: common.load_terms.__wrapped__(n) for n in ("zh", "en", "ja")}
    with pytest.raises(FileNotFoundError):
        load_yaml(_path("terms/no-such-table.yaml"))


def test_invalid_yaml_raises_the_callers_error_and_a_file_outside_the_catalog_is_not_cached(tmp_path, cache):
    import yaml

    (tmp_path / "terms").mkdir()
    bad = tmp_path / "terms" / "bad.yaml"
    bad.write_text("a: [1, 2\n", encoding="utf-8")
    with pytest.raises(yaml.YAMLError):
        load_yaml(bad)
    with pytest.raises(ValueError, match=r"^patterns/bad.yaml: not valid YAML \("):
        load_yaml(bad, invalid=ValueError)
    with pytest.raises(ValueError, match=r"^somewhere: not valid YAML \("):
        load_yaml(bad, invalid=ValueError, where="somewhere")
    good = tmp_path / "terms" / "zh.yaml"  # a folder put in the catalog's place (as tests do)
    good.write_text("a: 1\n", encoding="utf-8")
    assert load_yaml(good) == {"a": 1}
    good.write_text("a: 2\n", encoding="utf-8")
    assert load_yaml(good) == {"a": 2} and not list(cache.glob("*.pickle"))


_RUN = """
import sys
from extractor import cli
sys.argv = ["ygo-extractor", "tag", sys.argv[1], "--lang", sys.argv[2], "-o", sys.argv[3], "--no-progress"]
try:
    cli.main()
except SystemExit as e:
    assert not e.code, e.code
print("yaml" in sys.modules)
"""


@pytest.mark.parametrize("lang", ["zh-CN", "en", "ja"])
def test_a_warm_tag_run_does_not_import_yaml(lang, cache, tmp_path):
    src = REPO.parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"
    if not src.is_file():
        pytest.skip("../shared is absent")
    # cards with conditions and readings: the first 300 lines of yaml-yugi
    inp = tmp_path / "cards.jsonl"
    with open(src, "rb") as f:
        inp.write_bytes(b"".join(line for _, line in zip(range(300), f)))
    env = dict(os.environ, YGO_EXTRACTOR_CACHE_DIR=str(cache))
    env.pop("YGO_EXTRACTOR_NO_CACHE", None)
    args = [sys.executable, "-c", _RUN, str(inp), lang, str(tmp_path / "out.jsonl")]
    cold = subprocess.run(args, env=env, capture_output=True, text=True, cwd=REPO)
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout.split("\n")[-2] == "True"  # the cold build parsed the files
    first = (tmp_path / "out.jsonl").read_bytes()
    warm = subprocess.run(args, env=env, capture_output=True, text=True, cwd=REPO)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.split("\n")[-2] == "False"
    assert (tmp_path / "out.jsonl").read_bytes() == first and first.count(b"\n") == 300


def _cache_key_reference(catalog_dir, package):
    """The cache key as first written (pathlib's rglob, is_file, relative_to): the fast listing
    must give the same key."""
    import hashlib

    import regex

    from extractor.patterns.cache import _PICKLE_PROTOCOL

    h = hashlib.sha256(f"{sys.version}|regex {regex.__version__}|pickle {_PICKLE_PROTOCOL}".encode())
    for base in (catalog_dir, package):
        for f in sorted(Path(base).rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc":
                h.update(f"\0{f.relative_to(base).as_posix()}\0".encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:32]


def test_the_cache_key_is_the_key_of_the_pathlib_listing():
    from extractor.patterns import cache as C

    if not isinstance(PATTERNS_DIR, Path):
        pytest.skip("the catalog is not on a file system: no cache")
    package = Path(C.__file__).resolve().parent.parent
    assert C._cache_key(PATTERNS_DIR) == _cache_key_reference(PATTERNS_DIR, package)


def test_the_cache_key_lists_the_files_pathlib_lists(tmp_path, monkeypatch):
    from extractor.patterns import cache as C

    tree = tmp_path / "tree"
    for rel, data in {"a.yaml": b"1", "a-b/c.yaml": b"2", "a/b.yaml": b"3", "a/__pycache__/x.pyc": b"4",
                      "a/x.pyc": b"5", "a/.pyc": b"6", "z/__pycache__/deep/y.txt": b"7", ".hidden": b"8",
                      "a/b/c/d/e.txt": b"9", "A.yaml": b"10"}.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_bytes(data)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f.yaml").write_bytes(b"not hashed: a linked folder is not entered")
    (tree / "linked").symlink_to(outside, target_is_directory=True)
    (tree / "link.yaml").symlink_to(tree / "a.yaml")
    (tree / "broken.yaml").symlink_to(tmp_path / "missing")
    files = [("/".join(parts), path) for parts, path in C._key_files(str(tree))]
    want = [f for f in sorted(tree.rglob("*")) if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc"]
    assert [rel for rel, _ in files] == [f.relative_to(tree).as_posix() for f in want]
    assert "a/.pyc" in dict(files) and "link.yaml" in dict(files) and "linked/f.yaml" not in dict(files)
    package = Path(C.__file__).resolve().parent.parent
    assert C._cache_key(tree) == _cache_key_reference(tree, package)


def _fresh_langcheck(name):
    import importlib.util

    from extractor import langcheck

    spec = importlib.util.spec_from_file_location(name, langcheck.__file__)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _lazy_names(mod):
    return sorted(n for n, v in vars(mod).items() if isinstance(v, mod._Lazy))


def test_the_language_classes_are_compiled_on_first_use_only():
    import re

    mod = _fresh_langcheck("extractor._langcheck_lazy")
    lazy = _lazy_names(mod)
    assert len(lazy) == 10 and "_KANA_HANGUL_OR_JAPANESE" in lazy
    assert mod.language_mismatch("Cannot be Normal Summoned/Set.", "en") is None
    assert _lazy_names(mod) == lazy  # an English text needs none of them
    assert mod.language_mismatch("此卡不能通常召唤。用「融合」的效果才能特殊召唤。", "zh-CN") is None
    assert _lazy_names(mod) == [n for n in lazy if n != "_KANA_HANGUL_OR_JAPANESE"]
    assert type(mod._KANA_HANGUL_OR_JAPANESE) is re.Pattern  # the compiled pattern took its place
    held = mod._Lazy("_HAN", r"[\u4e00-\u9fff]")  # a reference kept elsewhere still answers
    assert held.findall("通常召唤x") == ["通", "常", "召", "唤"] and type(mod._HAN) is re.Pattern


def _texts():
    src = REPO.parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"
    if not src.is_file():
        pytest.skip("../shared is absent")
    import orjson

    out = []
    with open(src, "rb") as f:
        for i, line in enumerate(f):
            if i % 3:
                continue
            d = orjson.loads(line)
            out += [t for t in (d.get("text") or {}).values() if isinstance(t, str) and t]
            out += [n for n in (d.get("name") or {}).values() if isinstance(n, str) and n]
    return out


def test_lazy_classes_give_the_answers_of_classes_compiled_up_front():
    texts = _texts()
    lazy = _fresh_langcheck("extractor._langcheck_lazy2")
    eager = _fresh_langcheck("extractor._langcheck_eager")
    for name in _lazy_names(eager):
        getattr(eager, name).pattern  # compiles each one now
    assert not _lazy_names(eager)
    for lang in ("en", "zh-CN", "zh-TW", "ja"):
        got = [lazy.language_mismatch(t, lang) for t in texts]
        assert got == [eager.language_mismatch(t, lang) for t in texts], lang
        assert any(got)  # some texts are in another language than `lang`
    assert [lazy.looks_like(t) for t in texts] == [eager.looks_like(t) for t in texts]
    assert {"en", "zh", "ja", "ko"} <= {lazy.looks_like(t) for t in texts}


# -- the cache key remembered by the files' stat stamp (extractor.patterns.cache._stamped_key) --

@pytest.fixture
def catalog_copy(tmp_path, cache, monkeypatch):
    import shutil

    from extractor.patterns import cache as C

    copy = tmp_path / "patterns"
    shutil.copytree(PATTERNS_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(C, "_STAMP_SETTLE_NS", -10**12)  # the copy's files were all written just now
    return C, copy


def test_the_remembered_key_is_the_hashed_key_and_a_warm_start_does_not_hash(catalog_copy, cache, monkeypatch):
    C, copy = catalog_copy
    want = C._cache_key(copy)
    assert C._stamped_key(copy) == want  # hashed, then remembered
    (memo,) = cache.glob("key-*.txt")
    assert memo.read_text(encoding="ascii") == want
    with monkeypatch.context() as m:
        m.setattr(C, "_cache_key", lambda d: pytest.fail("hashed although the stamp was remembered"))
        assert C._stamped_key(copy) == want
    assert C._stamped_key(PATTERNS_DIR) == C._cache_key(PATTERNS_DIR)  # the shipped catalog, cold
    assert C._stamped_key(PATTERNS_DIR) == C._cache_key(PATTERNS_DIR)  # and warm
    assert len(list(cache.glob("key-*.txt"))) == 2


def test_an_edit_that_keeps_size_and_mtime_is_hashed_again(catalog_copy, cache):
    C, copy = catalog_copy
    old = C._stamped_key(copy)
    some = sorted(copy.glob("*/*.yaml"))[0]
    st = some.stat()
    data = some.read_bytes()
    i = data.index(b"a")
    some.write_bytes(data[:i] + b"b" + data[i + 1:])  # same size
    os.utime(some, ns=(st.st_atime_ns, st.st_mtime_ns))  # same modification time (the change time moves)
    new = C._stamped_key(copy)
    assert new != old and new == C._cache_key(copy)
    assert len(list(cache.glob("key-*.txt"))) == 2


def test_a_damaged_memo_is_hashed_again_and_unsettled_files_are_not_remembered(catalog_copy, cache, monkeypatch):
    C, copy = catalog_copy
    want = C._stamped_key(copy)
    (memo,) = cache.glob("key-*.txt")
    for bad in ("not a key", want[:-1], want.upper(), ""):
        memo.write_text(bad, encoding="ascii")
        assert C._stamped_key(copy) == want
    memo.unlink()
    monkeypatch.setattr(C, "_STAMP_SETTLE_NS", 10**12)  # every file counts as changed just now
    assert C._stamped_key(copy) == want and not list(cache.glob("key-*.txt"))
    monkeypatch.setenv("YGO_EXTRACTOR_CACHE_DIR", str(cache / "a-file"))
    cache.mkdir(exist_ok=True)
    (cache / "a-file").write_text("x")  # the cache folder cannot be made: hashed, no error
    assert C._stamped_key(copy) == want


def test_old_key_memos_are_pruned(catalog_copy, cache):
    C, copy = catalog_copy
    cache.mkdir()
    for i in range(12):
        f = cache / f"key-old{i:02d}.txt"
        f.write_text("0" * 32, encoding="ascii")
        os.utime(f, (1_000_000 + i, 1_000_000 + i))
    C._stamped_key(copy)
    left = sorted(f.name for f in cache.glob("key-*.txt"))
    assert len(left) == C._CACHE_KEEP and "key-old11.txt" in left and "key-old00.txt" not in left


# -- the command line turns pydantic's plugin look-up off (extractor.cli.run) ------------------

_ENV_SEEN = """
import os, sys
from extractor import cli
def main():
    import extractor.pipeline  # the models are built here, under the variable run() set
    print(repr(os.environ.get("PYDANTIC_DISABLE_PLUGINS")))
cli.main = main
cli.run()
"""


@pytest.mark.parametrize("given, seen", [(None, "'__all__'"), ("", "''"), ("some-plugin", "'some-plugin'")])
def test_the_command_line_turns_pydantic_plugins_off_unless_the_user_chose(given, seen):
    env = dict(os.environ)
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    if given is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = given
    got = subprocess.run([sys.executable, "-c", _ENV_SEEN], env=env, capture_output=True, text=True, cwd=REPO)
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == seen


def test_importing_the_library_leaves_pydantic_plugins_alone():
    env = dict(os.environ)
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    code = ("import os, extractor.cli, extractor.pipeline; import pydantic.plugin._loader as L; "
            "print('PYDANTIC_DISABLE_PLUGINS' in os.environ, L._plugins is not None)")
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=REPO)
    assert got.returncode == 0, got.stderr
    assert got.stdout.split() == ["False", "True"]  # not set; the entry points were looked up


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_tag_output_is_the_same_with_pydantic_plugins_looked_up(lang, tmp_path):
    outs = []
    for given in (None, ""):  # the CLI's default (off) against pydantic's own handling
        env = dict(os.environ)
        env.pop("PYDANTIC_DISABLE_PLUGINS", None)
        if given is not None:
            env["PYDANTIC_DISABLE_PLUGINS"] = given
        out = tmp_path / f"out-{given is None}.jsonl"
        got = subprocess.run([sys.executable, "-m", "extractor.cli", "tag", str(REPO / "corpora" / "sample" / "cards.jsonl"),
                              "--lang", lang, "-o", str(out), "--no-progress"], env=env, capture_output=True, text=True, cwd=REPO)
        assert got.returncode == 0, got.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0].count(b"\n") > 10
