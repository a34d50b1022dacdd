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

