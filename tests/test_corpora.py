"""Annotated corpora: every ``corpora/**/*.jsonl`` line with ``expect_tags`` runs through
:func:`extractor.pipeline.analyze_text` and must give exactly those tags.

Line format (one JSON object per line; any language):
``{"id", "name", "lang", "text", "type", "level", "expect_tags": [...], "source"}`` plus optional
``pendulum_effect`` (a separate Pendulum Effect) and ``expect_conditions`` (the exact multiset of
condition kinds; ``[]`` for texts that must yield no condition at all, e.g. "Neither player can
Special Summon").  ``type`` is a type line ("Dragon / Synchro / Effect") or "Spell"/"Trap".
Lines without ``expect_tags`` (raw samples) are skipped.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from extractor.frame import Frame
from extractor.pipeline import analyze_text

CORPORA = Path(__file__).resolve().parent.parent / "corpora"


def _rows():
    out = []
    for path in sorted(CORPORA.rglob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            row = json.loads(line)
            if "expect_tags" in row:
                out.append(pytest.param(row, id=f"{path.relative_to(CORPORA)}:{n}:{row.get('name', '')}"))
    return out


ROWS = _rows()


def test_corpora_are_not_empty():
    assert len(ROWS) >= 40


@pytest.mark.parametrize("row", ROWS)
def test_corpus_line(row):
    frame = Frame.from_type_line(row.get("type"), row.get("level"))
    conds, _profile, tags, _mt, _seg = analyze_text(row["text"], row["lang"], frame,
                                                    pendulum_effect=row.get("pendulum_effect"))
    assert sorted(tags) == sorted(row["expect_tags"]), (
        f"{row.get('name')}: got {sorted(tags)}, expected {sorted(row['expect_tags'])}; "
        f"conditions {[(c.kind, c.phrase) for c in conds]}")
    if "expect_conditions" in row:
        got = Counter(c.kind for c in conds)
        assert got == Counter(row["expect_conditions"]), f"{row.get('name')}: conditions {dict(got)}"
