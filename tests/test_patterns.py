"""Every example of every pattern in patterns/ runs as a test (Duckling-style strict bar)."""
import pytest

from extractor.normalize import normalize
from extractor.patterns import load_catalog

CAT = load_catalog()
POS = [(p, ex) for p in CAT.patterns for ex in p.examples_match]
NEG = [(p, ex) for p in CAT.patterns for ex in p.examples_no_match]


def _matches(p, text):
    mt = normalize(text, p.lang)
    return [m for m in CAT.run(mt.text, p.lang) if m.pattern.id == p.id]


@pytest.mark.parametrize("p,ex", POS, ids=[f"{p.id}+{i}" for i, (p, _) in enumerate(POS)])
def test_pattern_matches_its_examples(p, ex):
    found = _matches(p, ex["text"])
    assert found, f"{p.id} ({p.file}) does not match: {ex['text']!r}"
    for field, want in (ex.get("expect") or {}).items():
        got = found[0].fields.get(field)
        if isinstance(got, tuple):
            got = list(got)
        assert got == want, f"{p.id}: {field} is {got!r}, expected {want!r} in {ex['text']!r}"


@pytest.mark.parametrize("p,text", NEG, ids=[f"{p.id}-{i}" for i, (p, _) in enumerate(NEG)])
def test_pattern_rejects_its_negative_examples(p, text):
    assert not _matches(p, text), f"{p.id} ({p.file}) must not match: {text!r}"


def test_catalog_has_every_language():
    assert {"en", "zh"} <= set(CAT.by_lang)
