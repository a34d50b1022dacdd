#!/usr/bin/env python3
"""Cross-translation differences: the share of cards whose English and Chinese objects differ.

    .venv/bin/python bench/cross_translation.py [--runs goat,yy-zh-CN,yy-zh-TW] [--examples 10]
        [--jobs N] [--out FILE.jsonl]

The same passcode must carry the same objects in every faithful translation (issue 10, "Targets").
For each pairing of ``../shared/data`` -- goat cdb en / zh-CN, yaml-yugi en / zh-CN, yaml-yugi en /
zh-TW (the real zh-TW texts: yaml-yugi has them for 864 cards) -- it runs ``validate`` at severity
``low`` (every difference) and prints: cards compared, cards with any object difference, the same
at the default severity (``medium``), and per slot (a ``slot-differs`` by its slot name, a
condition on one side only as ``missing:<group>`` / ``extra:<group>``) the number of cards and
mismatches, with ``--examples`` examples per slot (passcode, the two values or phrases).
``--out`` writes every condition mismatch with both texts (JSONL) for reading by hand.  Cards on one
side only and card-level problems (empty or cut-off text) are not counted as object differences.
Figures are printed, never asserted; a missing ../shared exits with a message (status 2).
"""
from __future__ import annotations

import argparse
import collections
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extractor.validate import CARD_PROBLEM_KINDS, validate  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
RUNS = {
    "goat": ("goat cdb en / zh-CN", "cdb/goat-en-US.cdb", "cdb/goat-zh-CN.cdb", "en", "zh-CN"),
    "yy-zh-CN": ("yaml-yugi en / zh-CN", "yaml-yugi/cards.jsonl", None, "en", "zh-CN"),
    "yy-zh-TW": ("yaml-yugi en / zh-TW", "yaml-yugi/cards.jsonl", None, "en", "zh-TW"),
}


def slot_key(m) -> str:
    """How a condition mismatch is counted: its slot, or ``missing:`` / ``extra:`` and its group."""
    if m.kind == "slot-differs":
        return m.slot or "?"
    return ("missing:" if m.kind == "missing-in-target" else "extra:") + (m.condition or "?")


def _run(key: str) -> dict:
    label, src, tgt, sl, tl = RUNS[key]
    t0 = time.perf_counter()
    rep = validate(DATA / src, DATA / tgt if tgt else None, source_lang=sl, target_lang=tl,
                   include_missing=False, min_severity="low")
    out = {"key": key, "label": label, "compared": rep.cards_compared, "seconds": time.perf_counter() - t0,
           "cards": []}
    for c in rep.cards:
        ms = [m for m in c.mismatches if m.kind not in CARD_PROBLEM_KINDS]
        if not ms:
            continue
        out["cards"].append({
            "id": c.id, "name": c.name, "source_text": c.source_text, "target_text": c.target_text,
            "mismatches": [{"key": slot_key(m), "severity": m.severity, "source_value": m.source_value,
                            "target_value": m.target_value, "source_phrase": m.source_phrase,
                            "target_phrase": m.target_phrase} for m in ms]})
    return out


def _short(x, n=70) -> str:
    s = x if isinstance(x, str) else orjson.dumps(x).decode() if x is not None else "-"
    s = s.replace("\n", " ")
    return s if len(s) <= n else s[: n - 1] + "…"


def report(r: dict, examples: int) -> str:
    """The printed figures of one run (markdown)."""
    n = r["compared"]
    any_ = len(r["cards"])
    med = sum(1 for c in r["cards"] if any(m["severity"] in ("high", "medium") for m in c["mismatches"]))
    by_cards: dict[str, set] = collections.defaultdict(set)
    by_count: collections.Counter = collections.Counter()
    ex: dict[str, list] = collections.defaultdict(list)
    for c in r["cards"]:
        for m in c["mismatches"]:
            by_cards[m["key"]].add(c["id"])
            by_count[m["key"]] += 1
            if len(ex[m["key"]]) < examples and c["id"] not in [e[0] for e in ex[m["key"]]]:
                vals = (m["source_value"], m["target_value"]) if m["source_value"] is not None or \
                    m["target_value"] is not None else (m["source_phrase"], m["target_phrase"])
                ex[m["key"]].append((c["id"], m["severity"], *vals))
    pct = (lambda k: f"{100 * k / n:.1f}%") if n else (lambda k: "-")
    lines = [f"## {r['label']}", "",
             f"cards compared {n}; objects differ (any severity) {any_} ({pct(any_)}); "
             f"at medium or above {med} ({pct(med)}); {r['seconds']:.0f} s", "",
             "| slot | cards | share | mismatches |", "|---|---:|---:|---:|"]
    for k in sorted(by_cards, key=lambda k: -len(by_cards[k])):
        lines.append(f"| {k} | {len(by_cards[k])} | {pct(len(by_cards[k]))} | {by_count[k]} |")
    for k in sorted(by_cards, key=lambda k: -len(by_cards[k])):
        lines += ["", f"examples `{k}`:"]
        lines += [f"- {cid} ({sev}): {_short(a)} | {_short(b)}" for cid, sev, a, b in ex[k]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", default=",".join(RUNS), help="comma-separated: " + ", ".join(RUNS))
    ap.add_argument("--examples", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=3, help="runs in parallel (processes)")
    ap.add_argument("--out", type=Path, help="write every card with a difference (JSONL)")
    a = ap.parse_args(argv)
    keys = [k.strip() for k in a.runs.split(",") if k.strip()]
    bad = [k for k in keys if k not in RUNS]
    if bad:
        ap.error(f"unknown run(s) {bad}; known: {list(RUNS)}")
    if not DATA.is_dir():
        print(f"cross_translation.py: {DATA} is not present (needs ../shared/data); nothing was run.", file=sys.stderr)
        return 2
    with ProcessPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        results = list(ex.map(_run, keys))
    for r in results:
        print(report(r, a.examples))
    if a.out:
        with a.out.open("wb") as f:
            for r in results:
                for c in r["cards"]:
                    f.write(orjson.dumps({"run": r["key"], **c}, option=orjson.OPT_NON_STR_KEYS) + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
