"""The planted-mismatch corpus (corpora/validate/, built by build_planted.py from 50 real yaml-yugi
en / zh-CN pairs that agree): every planted mismatch is found, nothing else is reported for the
altered cards, and the unaltered pairs report nothing."""
from __future__ import annotations

import json

import pytest

from extractor.validate import validate

from conftest import ROOT

DIR = ROOT / "corpora" / "validate"
EXPECTED = {d["id"]: d for d in map(json.loads, (DIR / "planted-expected.jsonl").read_text(encoding="utf-8").splitlines())}


@pytest.fixture(scope="module")
def report():
    return validate(DIR / "planted-en.jsonl", DIR / "planted-zh-CN.jsonl", source_lang="en", target_lang="zh-CN")


def test_corpus_shape():
    assert len(EXPECTED) == 50
    altered = [d for d in EXPECTED.values() if d["alteration"]]
    assert len(altered) >= 20 and len(EXPECTED) - len(altered) >= 20
    assert {d["alteration"] for d in altered} == {"drop-ns-target", "drop-ns-source", "gy-to-deck", "drop-first",
                                                 "tribute-count"}


def test_every_card_is_compared(report):
    assert report.cards_compared == 50
    assert not any(m.kind.startswith("card-") or m.kind in ("empty-text", "truncated-text")
                   for c in report.cards for m in c.mismatches)


@pytest.mark.parametrize("cid", sorted(i for i, d in EXPECTED.items() if d["alteration"]))
def test_planted_mismatch_is_found(report, cid):
    exp = EXPECTED[cid]
    card = next((c for c in report.cards if c.id == cid), None)
    assert card is not None, f"{cid} {exp['alteration']}: nothing reported"
    for e in exp["expected"]:
        hits = [m for m in card.mismatches if m.kind in e["kind"] and m.condition == e["condition"]
                and (m.kind != "slot-differs" or m.slot == e["slot"])]
        assert hits, f"{cid} {exp['alteration']}: expected {e}, got {[m.model_dump() for m in card.mismatches]}"
        for m in hits:  # the spans point at the original texts
            src = card.source_text
            tgt = card.target_text
            if m.source_span:
                assert src[m.source_span[0]:m.source_span[1]] == m.source_phrase
            if m.target_span:
                assert tgt[m.target_span[0]:m.target_span[1]] == m.target_phrase
    # and nothing else
    assert len(card.mismatches) == len(exp["expected"]), [m.model_dump() for m in card.mismatches]


def test_unaltered_pairs_report_nothing(report):
    unaltered = {i for i, d in EXPECTED.items() if not d["alteration"]}
    reported = {c.id: [m.model_dump() for m in c.mismatches] for c in report.cards if c.id in unaltered}
    assert reported == {}
    assert report.cards_agreeing == len(unaltered)
