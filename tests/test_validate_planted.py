"""The planted-difference corpus of ``validate`` (corpora/validate/, built by build_planted.py WITHOUT
running the tool: real yaml-yugi and goat en / zh-CN pairs chosen by keyword, one keyword-level edit
on one side of each altered pair).

What is asserted (figures: corpora/validate/RESULTS.md, ``measure_planted.py --save``):
- the builder imports nothing from ``extractor`` and rebuilds the files on disk byte for byte;
- unaltered pairs: at most ``UNALTERED_CEILING`` report anything at the default severity (today none
  does, at any severity);
- condition classes (seeds 000 / 002): per class, at least the number found at the default severity
  when this corpus was built (a regression floor, not a target: the target is every one);
- structure classes (issue 10, ``structure: true``): found k of n is printed, not asserted, until
  issue 10 lands.
"""
from __future__ import annotations

import ast
import importlib.util
import json
import sys
from collections import Counter

import pytest

from conftest import ROOT

DIR = ROOT / "corpora" / "validate"
EXPECTED = {d["id"]: d for d in map(json.loads, (DIR / "planted-expected.jsonl").read_text(encoding="utf-8").splitlines())}

# found at the default severity (medium) when the corpus was built (patterns and extractor/ of main
# at 30e9289); raise a floor when the tool gets better, never lower it without saying why
CONDITION_FLOOR = {
    "drop-cannot-normal-summon": 7,      # of 8: 102380 (English edit) only `low` (uncertain absence)
    "drop-not-from-gy": 6,               # of 6
    "location-hand-to-gy": 6,            # of 6
    "nomi-to-semi-nomi": 6,              # of 6
    "scope-card-to-player": 3,           # of 6: the 3 Chinese edits only `low` (uncertain absence)
    "semi-nomi-to-nomi": 6,              # of 6
    "summon-kind-fusion-to-synchro": 6,  # of 6
    "tribute-count-3-to-2": 4,           # of 4
}
# unaltered pairs with any report at the default severity (0 today); a report that appears is a
# finding to read: a real difference (then list it here and raise the ceiling) or a tool error
UNALTERED_CEILING = 0


def _load(name: str):
    """A script of corpora/validate/ as a module (registered: its dataclasses need it)."""
    key = f"corpora_validate_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, DIR / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[key] = mod
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


@pytest.fixture(scope="module")
def measure():
    return _load("measure_planted")


@pytest.fixture(scope="module")
def figures(measure):
    return measure.measure("medium")


def test_builder_does_not_run_the_tool():
    tree = ast.parse((DIR / "build_planted.py").read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "extractor" not in imported
    assert "extractor" not in (DIR / "build_planted.py").read_text(encoding="utf-8").replace(
        "imports nothing from ``extractor``", "")


def test_corpus_is_what_the_builder_makes(shared):
    files = _load("build_planted").build(shared)
    for name, data in files.items():
        assert (DIR / name).read_bytes() == data, f"{name} is stale: run corpora/validate/build_planted.py"


def test_corpus_shape():
    altered = [d for d in EXPECTED.values() if d["alteration"]]
    assert 45 <= len(EXPECTED) - len(altered) <= 55  # ~50 unaltered pairs
    per_class = Counter(d["alteration"] for d in altered)
    assert set(CONDITION_FLOOR) == {d["alteration"] for d in altered if not d["structure"]}
    assert {d["alteration"] for d in altered if d["structure"]} >= {
        "cost-banish-to-shuffle", "cost-discard-to-pay-lp", "cost-count", "cost-location-gy-to-hand",
        "requirement-you-to-opponent", "drop-once-per-turn", "material-count"}
    assert min(per_class.values()) >= 4
    # both sides are edited (sides alternate within a class) ...
    assert {d["side"] for d in altered} == {"source", "target"}
    assert sum(d["side"] == "target" for d in altered) >= len(altered) // 3
    # ... and both sources are used
    assert {d["source"] for d in EXPECTED.values()} == {"yaml-yugi", "goat-cdb"}


def test_each_edit_is_in_the_corpus_text():
    texts = {}
    for lang in ("en", "zh-CN"):
        for line in (DIR / f"planted-{lang}.jsonl").read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            texts[(d["id"], lang)] = d["text"]
    for cid, d in EXPECTED.items():
        assert (cid, "en") in texts and (cid, "zh-CN") in texts
        if d["alteration"]:
            e = d["edit"]
            assert e["before"] != e["after"]
            t = texts[(cid, d["lang"])]
            assert t[e["at"]:e["at"] + len(e["after"])] == e["after"], cid
            assert d["expected"] and all(x["condition"] and x["kind"] for x in d["expected"])
        else:
            assert d["expected"] == [] and d["edit"] is None


def test_every_pair_is_compared(figures):
    assert figures.compared == len(EXPECTED)


def test_unaltered_pairs_report_at_most_the_known_findings(figures):
    reported = figures.unaltered_reported
    print(f"\nunaltered silent: {figures.unaltered - len(reported)} / {figures.unaltered}; reported: {reported}")
    assert len(reported) <= UNALTERED_CEILING, reported


def test_condition_classes_floor(figures):
    found = {n: c.found for n, c in figures.classes.items() if not c.structure}
    planted = {n: c.planted for n, c in figures.classes.items() if not c.structure}
    print("\n" + "\n".join(f"{n}: found {found[n]} of {planted[n]}" for n in sorted(found)))
    print(f"condition classes: found {sum(found.values())} of {sum(planted.values())}")
    for n, floor in CONDITION_FLOOR.items():
        assert found[n] >= floor, (n, figures.classes[n].missed)
    assert sum(found.values()) >= sum(CONDITION_FLOOR.values())


def test_found_reports_point_at_the_original_texts(measure):
    """A found mismatch's spans cut its phrases out of the ORIGINAL (here: planted) texts."""
    from extractor.validate import validate
    rep = validate(DIR / "planted-en.jsonl", DIR / "planted-zh-CN.jsonl", source_lang="en", target_lang="zh-CN")
    checked = 0
    for card in rep.cards:
        exp = EXPECTED[card.id]
        for m in card.mismatches:
            if not any(measure.matches(m, e) for e in exp["expected"]):
                continue
            if m.source_span and m.source_in == "text":
                assert card.source_text[m.source_span[0]:m.source_span[1]] == m.source_phrase
                checked += 1
            if m.target_span and m.target_in == "text":
                assert card.target_text[m.target_span[0]:m.target_span[1]] == m.target_phrase
                checked += 1
    assert checked >= 20


def test_structure_classes_are_reported(figures):
    """Issue 10: found k of n per structure class, printed, not asserted until issue 10 lands."""
    rows = {n: c for n, c in figures.classes.items() if c.structure}
    for n, c in sorted(rows.items()):
        print(f"\n{n} (structure): found {c.found} of {c.planted} (any report on the card: {c.found_loose})", end="")
    assert sum(c.planted for c in rows.values()) == sum(1 for d in EXPECTED.values() if d["structure"])
