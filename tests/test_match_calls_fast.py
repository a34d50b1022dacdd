"""A speed device of the matcher's calls into ``regex``: ``Catalog.run`` passes
``concurrent=False`` positionally (no GIL release per call).  It must give what the plain calls
give: the same matches, the same groups, the same fields."""
import time

import pytest
import regex

from extractor.normalize import normalize
from extractor.normalize.common import lang_family
from extractor.patterns import ALL_SCOPES, load_catalog
from extractor.patterns.captures import WHOLE_MATCH, _capture_plan, _read_fields

from conftest import yaml_yugi_texts


def _by_name(p, m, voc):
    """The fields of match ``m`` read the plain way: each captured group by its written name."""
    names, caps = _capture_plan(p)
    written: list = []
    for _fld, (group, _typ) in p.captures.items():
        for g in (group if isinstance(group, tuple) else (group,)):
            g = 0 if g == WHOLE_MATCH else g
            if g not in written:
                written.append(g)
    assert len(written) == len(names)
    return _read_fields(p, tuple(m.group(g) for g in written), caps, voc)


def _plain(cat, text, lang, scopes=ALL_SCOPES):
    """Every pattern of the language run with a default ``finditer`` (behind its written
    ``requires`` only), each match with the fields read by group name."""
    fam = lang_family(lang)
    voc = cat.vocabs.get(fam)
    return sorted((p.id, m.start(), m.end(), repr(sorted(_by_name(p, m, voc).items())) if p.captures else "")
                  for p in cat.by_lang[fam] if p.scope in scopes
                  and (not p.requires or any(r in text for r in p.requires)) for m in p.regex.finditer(text))


def _got(cat, text, lang, scopes=ALL_SCOPES):
    return sorted((m.pattern.id, m.start, m.end, repr(sorted(m.fields.items())) if m.pattern.captures else "")
                  for m in cat.run(text, lang, scopes=scopes))


def test_positional_concurrent_false_gives_the_default_calls_matches():
    rx = regex.compile(r"(?<=召唤)(\d+)|特殊")
    text = "特殊召唤12,召唤3特殊召唤" * 5  # (over 64 characters: where regex releases the GIL)
    want = [(m.span(), m.groups()) for m in rx.finditer(text)]
    assert [(m.span(), m.groups()) for m in rx.finditer(text, None, None, False, False)] == want
    assert [(m.span(), m.groups()) for m in rx.finditer(text, 3, 40, False, False)] == \
        [(m.span(), m.groups()) for m in rx.finditer(text, 3, 40)]
    for a in range(len(text)):
        got, plain = rx.match(text, a, None, False), rx.match(text, a)
        assert (got and (got.span(), got.groups())) == (plain and (plain.span(), plain.groups()))


def test_the_guard_still_stops_a_runaway_search_without_the_gil_released():
    from extractor.patterns.guard import _arm, _disarm

    rx = regex.compile(r"(a|aa)+(?=b)\1")  # (a backreference: regex's repeat guards do not help)
    t = time.process_time()
    assert _arm()
    try:
        with pytest.raises(TimeoutError):
            rx.search("a" * 60, None, None, False)
    finally:
        _disarm()
    assert time.process_time() - t < 10


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_run_gives_the_plain_matches_and_fields_on_every_example(lang):
    cat = load_catalog()
    fam = lang_family(lang)
    texts = [normalize(e["text"], lang).text for p in cat.by_lang[fam] for e in p.examples_match]
    with_fields = 0
    for text in texts:
        want = _plain(cat, text, lang)
        assert _got(cat, text, lang) == want, text
        with_fields += sum(1 for x in want if x[3])
    assert with_fields > 20


def test_run_gives_the_plain_matches_and_fields_on_the_corpus(shared):
    cat = load_catalog()
    texts = {lang: yaml_yugi_texts(shared, lang, 3) for lang in ("en", "zh-CN", "ja")}
    for lang, ts in texts.items():
        assert len(ts) > 3000
        matched = 0
        for text in ts:
            want = _plain(cat, text, lang)
            assert _got(cat, text, lang) == want, (lang, text)
            matched += len(want)
        assert matched > 1000
