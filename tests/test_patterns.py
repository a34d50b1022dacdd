"""Every example of every pattern in patterns/ runs as a test (Duckling-style strict bar)."""
import pytest

from extractor.normalize import normalize
from extractor.patterns import _REF, PatternError, SlotReader, load_catalog

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


# --- fragments (patterns/fragments/<lang>.yaml): every example runs as a test ----------------------
FRAGS = [f for fs in CAT.fragments.values() for f in fs.values()]
FPOS = [(f, t) for f in FRAGS for t in f.examples_match]
FNEG = [(f, t) for f in FRAGS for t in f.examples_no_match]


@pytest.mark.parametrize("f,text", FPOS, ids=[f"{f.lang}.{{{{{f.name}}}}}+{i}" for i, (f, _) in enumerate(FPOS)])
def test_fragment_matches_its_examples(f, text):
    assert f.check(normalize(text, f.lang).text), f"fragment {f.name} ({f.file}) does not match {text!r}"


@pytest.mark.parametrize("f,text", FNEG, ids=[f"{f.lang}.{{{{{f.name}}}}}-{i}" for i, (f, _) in enumerate(FNEG)])
def test_fragment_rejects_its_negative_examples(f, text):
    assert not f.check(normalize(text, f.lang).text), f"fragment {f.name} ({f.file}) must not match {text!r}"


def test_every_fragment_is_used():
    used = {m for p in CAT.patterns for m in _REF.findall(p.source + p.anchor_source)}
    used |= {m for fs in CAT.fragments.values() for f in fs.values() for m in _REF.findall(f.source)}
    used |= {t.partition(":")[2] for p in CAT.patterns for _, t in p.captures.values()} | set(SlotReader.FRAGMENTS)
    unused = [f"{f.lang}:{f.name}" for f in FRAGS if f.name not in used]
    assert not unused, f"fragments no pattern uses: {unused}"


def test_patterns_are_short_as_written():
    """Issue 9: no pattern longer than 400 characters as written."""
    long = [(p.id, len(p.source)) for p in CAT.patterns if len(p.source) > 400]
    assert not long, long


def _write(tmp_path, frags: str, pattern_regex: str):
    (tmp_path / "fragments").mkdir()
    (tmp_path / "fragments" / "en.yaml").write_text("language: en\nfragments:\n" + frags, encoding="utf-8")
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "x.yaml").write_text(
        "language: en\npatterns:\n  - id: en.x\n    regex: '" + pattern_regex + "'\n"
        "    yields: {kind: cannot-special-summon}\n    examples: {match: [a]}\n", encoding="utf-8")
    return str(tmp_path)


def test_fragments_expand_and_nest(tmp_path):
    root = _write(tmp_path, "  - {name: a, regex: 'x{{b}}', examples: {match: [xy]}}\n"
                            "  - {name: b, regex: 'y|z', examples: {match: [y]}}\n", "{{a}}!")
    p = load_catalog(root).patterns[0]
    assert p.regex.pattern == "(?:x(?:y|z))!" and p.source == "{{a}}!"
    assert p.regex.fullmatch("xz!") and not p.regex.fullmatch("xy")


def test_unknown_fragment_names_file_and_pattern(tmp_path):
    root = _write(tmp_path, "  - {name: a, regex: 'x', examples: {match: [x]}}\n", "{{nope}}")
    with pytest.raises(PatternError, match=r"patterns/en/x\.yaml: pattern en\.x: unknown fragment \{\{nope\}\}"):
        load_catalog(root)


def test_fragment_cycle_is_an_error(tmp_path):
    root = _write(tmp_path, "  - {name: a, regex: 'x{{b}}', examples: {match: [x]}}\n"
                            "  - {name: b, regex: 'y{{a}}', examples: {match: [y]}}\n", "{{a}}")
    with pytest.raises(PatternError, match=r"en\.x.*cycle: a -> b -> a"):
        load_catalog(root)


def test_fragment_from_a_vocab_list_with_unknown_word(tmp_path):
    root = _write(tmp_path, "  - {name: l, vocab: locations, words: [hand, Grave], examples: {match: [hand]}}\n", "{{l}}")
    with pytest.raises(PatternError, match=r"fragment l: words \['Grave'\] are not in vocab\.locations"):
        load_catalog(root)


def test_fragment_from_a_vocab_list(tmp_path):
    root = _write(tmp_path, "  - {name: l, vocab: locations, keys: [hand, extra], examples: {match: [hand]}}\n",
                  "from your {{l}}")
    p = load_catalog(root).patterns[0]
    assert p.regex.fullmatch("from your Extra Deck") and p.regex.fullmatch("from your hands")
    assert not p.regex.fullmatch("from your GY")


def test_no_40_character_piece_is_written_three_times():
    """Issue 9: no 40-character piece written three times or more across the catalog (patterns,
    anchors and fragments as written)."""
    from collections import Counter
    written = [p.source for p in CAT.patterns] + [p.anchor_source for p in CAT.patterns if p.anchor_source]
    written += [f.source for f in FRAGS]
    counts = Counter(s[i:i + 40] for s in written for i in range(len(s) - 39))
    assert not [w for w, c in counts.items() if c >= 3], [w for w, c in counts.items() if c >= 3][:5]


def test_pattern_ids_named_in_the_catalog_exist():
    """Notes and comments that name another pattern name one that exists (patterns get folded)."""
    import re
    from extractor.normalize.common import PATTERNS_DIR
    ids = {p.id for p in CAT.patterns}
    missing = []
    for d in PATTERNS_DIR.iterdir():
        if d.is_dir():
            for f in d.iterdir():
                if f.name.endswith(".yaml"):
                    text = f.read_text(encoding="utf-8")
                    missing += [(f.name, m) for m in re.findall(r"\b(?:en|zh)\.[a-z0-9]+(?:-[a-z0-9]+)+", text)
                                if m not in ids]
    assert not missing, missing
