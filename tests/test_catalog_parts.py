"""The pickled catalog is split by language family and unpickled part by part
(``Catalog.__getstate__``, a speed device): a lazily read catalog must give what the catalog it was
pickled from gives -- its attributes in the same order, its matches on the patterns' examples and,
with ../shared, on the yaml-yugi texts -- while a run of one language reads one part only.  And the
writers' line-break test with ``bytes.find`` must answer what the plain ``in`` test answers."""
from __future__ import annotations

import itertools
import pickle
from pathlib import Path

import pytest

from extractor import writers
from extractor.normalize import lang_family, normalize
from extractor.patterns import Catalog, load_catalog
from extractor.readers import read_cards

ROOT = Path(__file__).resolve().parent.parent
YAML_YUGI = ROOT.parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"
LANGS = ("en", "zh-CN", "zh-TW", "ja")


def _copy(cat: Catalog) -> Catalog:
    """``cat`` pickled and read again (split, nothing unpickled yet)."""
    return pickle.loads(pickle.dumps(cat, protocol=5))


def _found(cat: Catalog, text: str, lang: str) -> list[tuple]:
    return [(m.pattern.id, m.start, m.end, repr(m.fields)) for m in cat.run(text, lang)]


def _example_texts(cat: Catalog, fam: str) -> list[str]:
    out = []
    for p in cat.by_lang[fam]:
        for ex in p.examples_match:
            out.append(ex["text"] if isinstance(ex, dict) else ex)
        out.extend(p.examples_no_match)
    return out


def _same_catalog(a: Catalog, b: Catalog) -> None:
    assert [p.id for p in a.patterns] == [p.id for p in b.patterns]
    assert {k: [p.id for p in v] for k, v in a.by_lang.items()} == {k: [p.id for p in v] for k, v in b.by_lang.items()}
    assert list(a.by_lang) == list(b.by_lang) and list(a.vocabs) == list(b.vocabs)
    assert a.checks == b.checks and list(a.checks) == list(b.checks)
    assert list(a.fragments) == list(b.fragments)
    assert {k: list(v) for k, v in a.fragments.items()} == {k: list(v) for k, v in b.fragments.items()}
    assert list(a._fam_plans) == list(b._fam_plans)
    assert len(a) == len(b)


def test_a_run_of_one_language_reads_its_part_only_and_answers_as_the_whole_catalog():
    cat = load_catalog()
    lazy = _copy(cat)
    assert lazy.__dict__.get("_parts") is not None  # split
    assert len(lazy) == len(cat) and bool(lazy)
    assert all(lazy.has_patterns(f) == (f in cat.by_lang) for f in ("en", "zh", "ja", "xx"))
    texts = _example_texts(cat, "zh")
    assert texts
    for t in texts:
        assert _found(lazy, normalize(t, "zh-CN").text, "zh-CN") == _found(cat, normalize(t, "zh-CN").text, "zh-CN")
    assert lazy.fragments_of("zh").keys() == cat.fragments["zh"].keys()
    assert lazy.__dict__.get("_parts") is not None and set(lazy._loaded) == {"zh"}  # the others unread
    with pytest.raises(KeyError):
        lazy.fragments_of("xx")


@pytest.mark.parametrize("lang", LANGS)
def test_a_split_catalog_gives_the_attributes_and_matches_of_the_catalog_it_was_pickled_from(lang):
    cat = load_catalog()
    lazy = _copy(cat)
    fam = lang_family(lang)
    for t in _example_texts(cat, fam):
        n = normalize(t, lang).text
        assert _found(lazy, n, lang) == _found(cat, n, lang)
    _same_catalog(lazy, cat)  # reads every part
    assert lazy.__dict__.get("_parts") is None
    again = _copy(lazy)  # pickled again after the full read, and before it
    _same_catalog(again, cat)
    _same_catalog(_copy(_copy(cat)), cat)


def test_a_catalog_that_cannot_be_split_is_pickled_whole():
    cat = load_catalog()
    zh, en = cat.by_lang["zh"], cat.by_lang["en"]
    mixed = Catalog([zh[0], en[0], zh[1]], {k: cat.vocabs[k] for k in ("zh", "en")})  # not grouped by family
    copy = _copy(mixed)
    assert "_parts" not in copy.__dict__
    assert [p.id for p in copy.patterns] == [zh[0].id, en[0].id, zh[1].id]
    plain = Catalog(zh[:3], {"zh": cat.vocabs["zh"]})  # no fragments: split, no fragments after
    copy = _copy(plain)
    assert copy.__dict__.get("_parts") is not None and len(copy) == 3
    with pytest.raises(AttributeError):
        copy.fragments
    assert [p.id for p in copy.patterns] == [p.id for p in zh[:3]]
    with pytest.raises(AttributeError):
        copy.no_such_attribute


@pytest.mark.parametrize("lang", ("zh-CN", "en"))
def test_a_split_catalog_matches_as_the_catalog_on_yaml_yugi(lang, shared):
    if not YAML_YUGI.is_file():
        pytest.skip("needs ../shared/data")
    cat = load_catalog()
    lazy = _copy(cat)
    for it in itertools.islice(read_cards(YAML_YUGI, lang), 0, None, 5):
        if it.card is not None and it.card.text:
            n = normalize(it.card.text, lang).text
            assert _found(lazy, n, lang) == _found(cat, n, lang)
    assert set(lazy._loaded) == {lang_family(lang)}


# -- the writers' line-break test ------------------------------------------------------------------

def _needs_escape_plain(data: bytes) -> bool:
    return not data.isascii() and ((b"\xe2" in data and b"\xe2\x80" in data) or b"\xc2" in data)


def _needs_escape_fast(data: bytes) -> bool:
    return not data.isascii() and ((data.find(b"\xe2") >= 0 and data.find(b"\xe2\x80") >= 0)
                                   or data.find(b"\xc2") >= 0)


@pytest.mark.parametrize("text", ["", "plain", "召唤", "a\u2028b", "a\u2029", "\x85", "é", "\u20ac", "\u2e80", "—"])
def test_the_find_test_answers_as_the_in_test(text):
    data = writers.dumps_line({"t": text})
    assert _needs_escape_fast(data) == _needs_escape_plain(data)
    assert b"\xe2\x80\xa8" not in data and b"\xe2\x80\xa9" not in data and b"\xc2\x85" not in data


def test_the_find_test_answers_as_the_in_test_on_yaml_yugi(shared):
    if not YAML_YUGI.is_file():
        pytest.skip("needs ../shared/data")
    import orjson

    for lang in ("zh-CN", "en", "ja"):
        for it in read_cards(YAML_YUGI, lang):
            if it.card is not None:
                data = orjson.dumps({"text": it.card.text, "name": it.card.name})
                assert _needs_escape_fast(data) == _needs_escape_plain(data)
