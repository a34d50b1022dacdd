"""Long and hostile card text (issue 8, section 2): every stage stays near-linear, a 1 MB text is
read (and read right) through ``analyze``, ``tag`` and ``judge``, and a text that cannot be read in
time becomes that card's error line while the rest of the batch goes on.

Outcomes only, never timings: the per-card CPU budget (``pipeline.CARD_TIMEOUT``) is raised where a
test checks a result, and set below zero where it checks the error line, so no test depends on the speed
of the machine.  Speed is measured by ``bench/fuzz.py``.
"""
from __future__ import annotations

import json
import random
import sqlite3
from bisect import bisect_right
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

import orjson
import pytest
from click.testing import CliRunner

import extractor.pipeline as pipeline
from extractor.cli import main
from extractor.frame import Frame
from extractor.pipeline import Card, _suppress, _windows, analyze, analyze_text
from extractor.rules import judge

ROOT = Path(__file__).resolve().parent.parent
EFFECT = Frame.from_type_line("Fiend / Effect", 8)
MB = 1_000_000


def _rows(path: str) -> list[dict]:
    with open(ROOT / path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _lines(path: str) -> list[str]:
    """Every non-empty line of every card text of a corpus file of the repository."""
    return [ln for r in _rows(path) for ln in r["text"].split("\n") if ln.strip()]


@pytest.fixture
def unhurried(monkeypatch):
    """A budget no machine reaches: the test checks what is read, not how fast."""
    monkeypatch.setattr(pipeline, "CARD_TIMEOUT", 600.0)


# -- _suppress: the sweep keeps the pairwise definition ------------------------------------------

def _suppress_pairwise(conds):
    """The definition (the former quadratic code): drop a condition whose span lies strictly inside
    (or shares one end with and is shorter than) another of the same kind, unless the inner one is
    an own-effect method inside a named-card method."""
    def either_or(outer, inner):
        return getattr(outer, "method", None) == "named-card" and getattr(inner, "method", None) == "own-effect"
    return [c for c in conds
            if not any(o is not c and o.kind == c.kind and o.span[0] <= c.span[0] and c.span[1] <= o.span[1]
                       and o.span != c.span and not either_or(o, c) for o in conds)]


def test_suppress_gives_the_pairwise_result_on_random_conditions():
    rng = random.Random(8)
    dropped = either_or_kept = 0
    for _ in range(3000):
        conds = []
        for _ in range(rng.randint(0, 12)):
            s = rng.randint(0, 12)
            conds.append(SimpleNamespace(kind=rng.choice("ab"), span=(s, s + rng.randint(0, 6)),
                                         method=rng.choice([None, "named-card", "own-effect", "card-effect"])))
        want = _suppress_pairwise(conds)
        got = _suppress(conds)
        assert [id(c) for c in got] == [id(c) for c in want], conds
        dropped += len(conds) - len(want)
        either_or_kept += sum(1 for c in want if c.method == "own-effect" and any(
            o.kind == c.kind and o.method == "named-card" and o.span != c.span
            and o.span[0] <= c.span[0] and c.span[1] <= o.span[1] for o in conds))
    # the cases that decide something occurred: containment dropped conditions, and the either/or
    # rule kept an own-effect condition inside a named-card one
    assert dropped > 1000 and either_or_kept > 50


def test_suppress_keeps_both_halves_of_an_either_or():
    conds = analyze_text("此卡不可通常召唤，仅可通过“爆裂模式”的效果（及此卡的②效果）特殊召唤。", "zh-CN", EFFECT)[0]
    methods = sorted(getattr(c, "method", None) or "" for c in conds if c.kind == "must-be-special-summoned")
    assert methods == ["named-card", "own-effect"]


# -- windows ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "a" * 23,                                   # no separator: cut at the size
    "one line.\n" * 7,                          # line breaks
    "Cannot be Normal Summoned/Set. " * 5,      # sentences on one line
    "此卡不能通常召唤。" * 9,                     # Chinese sentences
    "x y " * 9,                                 # spaces only
    "",
])
def test_windows_cover_the_text_in_order_and_are_bounded(text):
    size = 16
    ws = _windows(text, 0, len(text), size)
    assert ws[0][0] == 0 and ws[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(ws, ws[1:]))
    assert all(0 <= e - s <= size for s, e in ws)
    for s, e in ws[:-1]:
        chunk = text[s:e]
        if "\n" in text[s:s + size]:
            assert chunk.endswith("\n")
        elif ". " in text[s:s + size]:
            assert chunk.endswith(". ")


def test_windows_of_a_region_stay_inside_it():
    text = "head\n" + "line of text\n" * 40 + "tail"
    ws = _windows(text, 5, len(text) - 4, 30)
    assert ws[0][0] == 5 and ws[-1][1] == len(text) - 4
    assert all(text[s:e].endswith("\n") for s, e in ws)


def test_a_text_no_longer_than_a_window_is_one_window():
    text = "Cannot be Normal Summoned/Set.\n" * 10
    assert _windows(text, 0, len(text), len(text)) == [(0, len(text))]


# -- a 1 MB text is read line by line as its lines are read alone -------------------------------

def _context_free(lines: list[str], lang: str) -> dict[str, list[tuple]]:
    """Each line's conditions (kind, start, end, pattern) read alone, for the lines that read the same
    between the lines before and after them (a line some pattern reads only at the very start of a
    text, with ``^``, is left out: that is the pattern's view of context, not the windows')."""
    alone = {t: [(c.kind, *c.span, c.pattern_id) for c in analyze_text(t, lang, EFFECT)[0]] for t in set(lines)}
    bound = set()  # lines read differently somewhere
    for prev, t, nxt in zip(lines[-1:] + lines, lines, lines[1:] + lines[:1]):
        three = analyze_text(prev + "\n" + t + "\n" + nxt, lang, EFFECT)[0]
        a, b = len(prev) + 1, len(prev) + 1 + len(t)
        mid = sorted((c.kind, c.span[0] - a, c.span[1] - a, c.pattern_id) for c in three if a <= c.span[0] < b)
        if mid != sorted(alone[t]):
            bound.add(t)
    return {t: conds for t, conds in alone.items() if t not in bound}


@lru_cache(maxsize=None)
def _mb_text(path: str, lang: str) -> tuple[str, list[tuple[int, str]], dict[str, list[tuple]]]:
    """About 1 MB (UTF-8) of the lines of a corpus of the repository, one after the other, again
    and again: the text, each line with its offset, and :func:`_context_free` of the lines."""
    lines = _lines(path)
    free = _context_free(lines, lang)
    assert len(free) >= 0.95 * len(set(lines))  # the checks cover nearly every line
    parts, off, size = [], 0, 0
    while size < MB:
        for t in lines:
            parts.append((off, t))
            off += len(t) + 1
            size += len(t.encode()) + 1
    return "\n".join(t for _, t in parts), parts, free


def _check_lines(got: list[tuple], parts: list[tuple[int, str]], free: dict[str, list[tuple]]) -> None:
    """``got`` (kind, start, end, pattern) of the long text: no condition straddles two lines, and
    on the lines that read the same in any context exactly the conditions each reads alone."""
    starts = [o for o, _ in parts]
    want, on_free = [], []
    for o, t in parts:
        want += [(k, s + o, e + o, p) for k, s, e, p in free.get(t, ())]
    for g in got:
        o, t = parts[bisect_right(starts, g[1]) - 1]
        assert g[2] <= o + len(t), f"{g} straddles two lines"
        if t in free:
            on_free.append(g)
    assert len(want) > 1000
    assert sorted(on_free) == sorted(want)


def test_tag_reads_1mb_texts_right_and_goes_on(tmp_path, unhurried):
    big = {"en": _mb_text("corpora/en/summoning-conditions.jsonl", "en"),
           "zh-CN": _mb_text("corpora/zh/cards.jsonl", "zh-CN")}
    src = tmp_path / "big.jsonl"
    rows = [{"id": 1, "name": "long en", "lang": "en", "text": big["en"][0], "type": "Fiend / Effect", "level": 8},
            {"id": 2, "name": "long zh", "lang": "zh-CN", "text": big["zh-CN"][0], "type": "Fiend / Effect", "level": 8},
            {"id": 3, "name": "short", "lang": "en", "text": "Cannot be Normal Summoned/Set.", "type": "Fiend / Effect",
             "level": 8}]
    assert all(len(r["text"].encode()) >= MB and len(r["text"]) > 60 * pipeline.WINDOW for r in rows[:2])
    src.write_bytes(b"\n".join(orjson.dumps(r) for r in rows) + b"\n")
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["tag", str(src), "-o", str(out), "--compact"])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [x["id"] for x in lines] == [1, 2, 3]
    assert all("error" not in x for x in lines)
    for row, line in zip(rows[:2], lines):
        text, parts, free = big[row["lang"]]
        _check_lines([(c["kind"], *c["span"], c["pattern_id"]) for c in line["conditions"]], parts, free)
        assert all(c["phrase"] == text[c["span"][0]:c["span"][1]] for c in line["conditions"])
    assert lines[2]["tags"] == ["cannot-normal-set", "cannot-normal-summon", "special-summon-monster"]
    assert "cards 3, tagged 3, errors 0" in r.output


def test_a_930kb_desc_in_a_cdb_is_read_and_the_rest_goes_on(tmp_path, unhurried):
    text, parts, free = _mb_text("corpora/en/summoning-conditions.jsonl", "en")
    text = text[:text.rfind("\n", 0, 930_000)]
    parts = [(o, t) for o, t in parts if o + len(t) <= len(text)]
    db = tmp_path / "big.cdb"
    con = sqlite3.connect(db)
    con.execute('CREATE TABLE datas (id INTEGER, ot INTEGER, alias INTEGER, setcode INTEGER, type INTEGER, atk INTEGER, '
                '"def" INTEGER, level INTEGER, race INTEGER, attribute INTEGER, category INTEGER)')
    con.execute('CREATE TABLE texts (id INTEGER, name TEXT, "desc" TEXT)')
    con.executemany("INSERT INTO datas VALUES (?, 3, 0, 0, 33, 0, 0, 8, 0, 0, 0)", [(1,), (2,)])  # Effect, Level 8
    con.executemany("INSERT INTO texts VALUES (?, ?, ?)", [(1, "Long", text), (2, "Short", "Cannot be Special Summoned.")])
    con.commit()
    con.close()
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["tag", str(db), "-o", str(out), "--compact"])
    assert r.exit_code == 0, r.output
    a, b = (json.loads(x) for x in out.read_text(encoding="utf-8").splitlines())
    assert a["id"] == 1 and "error" not in a and b["id"] == 2 and "cannot-special-summon" in b["tags"]
    _check_lines([(c["kind"], *c["span"], c["pattern_id"]) for c in a["conditions"]], parts, free)


def test_1mb_text_of_one_card_repeated_reads_each_copy(unhurried):
    text = ('Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT and '
            '1 DARK monster from your GY. You can only Special Summon "Chaos Sorcerer" once per turn this way.')
    one = analyze(Card(id=1, name="x", lang="en", text=text, frame=EFFECT))
    n = MB // (len(text) + 1) + 1
    many = analyze(Card(id=1, name="x", lang="en", text="\n".join([text] * n), frame=EFFECT))
    step = len(text) + 1
    assert many.error is None
    assert sorted((c.kind, *c.span) for c in many.conditions) == sorted(
        (c.kind, c.span[0] + k * step, c.span[1] + k * step) for k in range(n) for c in one.conditions)
    assert many.tags == one.tags and many.tributes == one.tributes


def test_text_not_read_in_time_is_that_cards_error_line(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "CARD_TIMEOUT", -1.0)  # the deadline has passed before the first window
    long = "Cannot be Normal Summoned/Set.\n" * (3 * pipeline.WINDOW // 31)
    res = analyze(Card(id=77, name="Slow Card", lang="en", text=long, frame=EFFECT))
    assert res.error and res.error.startswith("card 77 'Slow Card': text too long to read in time")
    assert res.tags == [] and res.conditions == []
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 77, "name": "Slow Card", "lang": "en", "text": long, "type": "Fiend / Effect"}) + "\n"
                   + json.dumps({"id": 78, "name": "Quick Card", "lang": "en", "text": "Cannot be Special Summoned.",
                                 "type": "Fiend / Effect", "level": 4}) + "\n", encoding="utf-8")
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["tag", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    a, b = (json.loads(x) for x in out.read_text(encoding="utf-8").splitlines())
    assert a["id"] == 77 and "Slow Card" in a["error"] and "in time" in a["error"]
    assert b["id"] == 78 and "error" not in b and "cannot-special-summon" in b["tags"]
    assert "errors 1" in r.output


def test_a_window_that_times_out_names_the_pattern_and_the_place(monkeypatch):
    class Runaway:
        calls = 0

        def run(self, text, lang, start=0, end=None, scopes=()):
            Runaway.calls += 1
            if Runaway.calls == 3:
                raise TimeoutError("pattern en.x (patterns/en/x.yaml) timed out")
            return []

    cat = Runaway()
    cat.by_lang = {"en": []}
    long = "Cannot be Normal Summoned/Set.\n" * (5 * pipeline.WINDOW // 31)
    with pytest.raises(TimeoutError, match=r"pattern en\.x .* timed out at characters [\d,]+-[\d,]+ of a text of"):
        analyze_text(long, "en", EFFECT, catalog=cat)
    Runaway.calls = 0
    res = analyze(Card(id=5, name="W", lang="en", text=long, frame=EFFECT), cat)
    assert res.error.startswith("card 5 'W': pattern en.x")


@pytest.mark.parametrize("exc,words", [(RuntimeError("boom"), "internal error (RuntimeError: boom)"),
                                       (RecursionError(), "too complex or too large"),
                                       (KeyError("k"), "internal error (KeyError")])
def test_any_failure_of_one_card_is_its_error_line(monkeypatch, exc, words):
    def broken(*a, **k):
        raise exc
    monkeypatch.setattr(pipeline, "build_profile", broken)
    res = analyze(Card(id=9, name="Broken", lang="en", text="Cannot be Special Summoned.", frame=EFFECT))
    assert res.id == 9 and res.error.startswith("card 9 'Broken': ") and words in res.error


def test_judge_with_a_1mb_text_gives_the_verdict_of_the_short_text(unhurried):
    base = json.loads((ROOT / "corpora/scenarios/yx-en-level4-normal-summon.json").read_text(encoding="utf-8"))
    base = {k: v for k, v in base.items() if k not in ("expect", "source", "note")}
    for text in ("Elf twins that alternate their attacks.", "Cannot be Normal Summoned/Set. Elf twins."):
        short = dict(base, card=dict(base["card"], frame="effect", text=text))
        long = dict(base, card=dict(base["card"], frame="effect", text="\n".join([text] * (MB // len(text)))))
        assert judge(long).as_dict() == judge(short).as_dict()
    assert judge(long).as_dict()["legal"] is False  # the second text forbids the Normal Summon
