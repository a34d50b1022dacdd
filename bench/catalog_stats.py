#!/usr/bin/env python3
"""Figures of the pattern catalog: its size, its longest pattern, the pieces it repeats, and the
reach of each pattern (distinct cards it reads across the shared databases).

    .venv/bin/python bench/catalog_stats.py               # everything (tags every database: ~30 s)
    .venv/bin/python bench/catalog_stats.py --no-reach    # only the written catalog (no data needed)
    .venv/bin/python bench/catalog_stats.py --save        # also bench/results/catalog_stats.md

- **written**: the regexes as they are written in ``patterns/<lang>/*.yaml`` (``{{name}}``
  fragment references unexpanded), their ``anchor`` lines and the fragments of
  ``patterns/fragments/<lang>.yaml``; **expanded**: a pattern's regex as it is compiled.
- **repeated pieces**: every 40-character piece (a window of the written strings) that is written
  three times or more across the catalog, with its count; runs of overlapping windows are printed
  as one stretch of text.
- **reach**: the distinct cards (by passcode; by database and name when there is none) for which
  a pattern produced a condition in the output of ``tag``, over yaml-yugi en / zh-CN / zh-TW, the
  four cdb files, yaml-yugi ja and the 2012 i18n zh-TW and ja files (the columns count the cards read in each database;
  the total counts a passcode once).  A pattern reading two cards or fewer reads single
  cards' wordings rather than a phrasing.

Nothing here is timed; nothing from ``../shared/eval`` is read.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import RESULTS, SHARED, YAML_YUGI, require_shared  # noqa: E402

from extractor.patterns import Catalog, load_catalog  # noqa: E402

PIECE = 40  # characters
DATABASES = [  # (label, path, --lang)
    ("yaml-yugi en", YAML_YUGI, "en"),
    ("yaml-yugi zh-CN", YAML_YUGI, "zh-CN"),
    ("yaml-yugi zh-TW", YAML_YUGI, "zh-TW"),
    ("goat-en-US.cdb", SHARED / "data" / "cdb" / "goat-en-US.cdb", None),
    ("goat-zh-CN.cdb", SHARED / "data" / "cdb" / "goat-zh-CN.cdb", None),
    ("salvation-2015-en.cdb", SHARED / "data" / "cdb" / "salvation-2015-en.cdb", None),
    ("prerelease-2026-zh-TW.cdb", SHARED / "data" / "cdb" / "prerelease-2026-zh-TW.cdb", None),
    ("i18n-2012 zh-TW", SHARED / "data" / "i18n-2012" / "cards.zh-TW.json", "zh-TW"),
    ("yaml-yugi ja", YAML_YUGI, "ja"),
    ("i18n-2012 ja", SHARED / "data" / "i18n-2012" / "cards.ja.json", "ja"),
]


def written_strings(cat: Catalog) -> list[tuple[str, str]]:
    """``(where, text)`` of every written regex: patterns, anchors, fragments."""
    out = []
    for p in cat.patterns:
        out.append((p.id, p.source))
        if p.anchor_source:
            out.append((f"{p.id} (anchor)", p.anchor_source))
    for fam, frags in sorted(getattr(cat, "fragments", {}).items()):
        for f in frags.values():
            out.append((f"{fam}:{{{{{f.name}}}}}", f.source))
    return out


def repeated_pieces(strings: list[tuple[str, str]], n: int = PIECE, at_least: int = 3) -> list[tuple[str, int, list[str]]]:
    """Stretches of written text made of ``n``-character windows that occur ``at_least`` times
    across ``strings``: ``(stretch, count of its most frequent window, where)``, most frequent first."""
    counts: Counter[str] = Counter()
    for _, s in strings:
        for i in range(len(s) - n + 1):
            counts[s[i:i + n]] += 1
    runs: dict[str, tuple[int, set[str]]] = {}
    for where, s in strings:
        i = 0
        while i <= len(s) - n:
            if counts[s[i:i + n]] >= at_least:
                j = i
                while j + 1 <= len(s) - n and counts[s[j + 1:j + 1 + n]] >= at_least:
                    j += 1
                stretch = s[i:j + n]
                c = max(counts[s[k:k + n]] for k in range(i, j + 1))
                old = runs.get(stretch, (c, set()))
                runs[stretch] = (max(c, old[0]), old[1] | {where})
                i = j + 1
            else:
                i += 1
    return sorted(((s, c, sorted(w)) for s, (c, w) in runs.items()), key=lambda t: (-t[1], -len(t[0])))


def repeated_windows(strings: list[tuple[str, str]], n: int = PIECE, at_least: int = 3) -> int:
    """How many distinct ``n``-character windows are written ``at_least`` times."""
    counts: Counter[str] = Counter(s[i:i + n] for _, s in strings for i in range(len(s) - n + 1))
    return sum(1 for c in counts.values() if c >= at_least)


def reach(cat: Catalog) -> tuple[dict[str, set], dict[str, Counter]]:
    """pattern id -> distinct card keys it read (all databases); pattern id -> cards it read in
    each database (a card in several databases counts in each, once in the total)."""
    from extractor.pipeline import analyze
    from extractor.readers import read_cards

    cards: dict[str, set] = defaultdict(set)
    per_db: dict[str, Counter] = defaultdict(Counter)
    for label, path, lang in DATABASES:
        for item in read_cards(path, lang):
            if item.card is None:
                continue
            res = analyze(item.card, cat)
            key = item.card.id if item.card.id is not None else (label, item.card.name)
            for pid in {c.pattern_id for c in res.conditions}:
                per_db[pid][label] += 1
                cards[pid].add(key)
    return cards, per_db


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-reach", action="store_true", help="skip the reach table (no data needed)")
    ap.add_argument("--save", action="store_true", help="also write bench/results/catalog_stats.md")
    ap.add_argument("--pieces", type=int, default=15, help="repeated stretches to print (default 15)")
    a = ap.parse_args(argv)
    cat = load_catalog()
    lines: list[str] = []
    say = lines.append

    strings = written_strings(cat)
    pats = cat.patterns
    frags = [f for fs in getattr(cat, "fragments", {}).values() for f in fs.values()]
    say("## Catalog\n")
    say("| lang | patterns | written chars (regex) | fragments | fragment chars | longest written | longest expanded | over 400 written |")
    say("|---|---:|---:|---:|---:|---|---|---:|")
    for fam in sorted(cat.by_lang):
        ps = cat.by_lang[fam]
        fs = list(getattr(cat, "fragments", {}).get(fam, {}).values())
        lw = max(ps, key=lambda p: len(p.source))
        le = max(ps, key=lambda p: len(p.regex.pattern))
        say(f"| {fam} | {len(ps)} | {sum(len(p.source) for p in ps):,} | {len(fs)} | {sum(len(f.source) for f in fs):,} | "
            f"{lw.id} ({len(lw.source):,}) | {le.id} ({len(le.regex.pattern):,}) | {sum(len(p.source) > 400 for p in ps)} |")
    lw = max(pats, key=lambda p: len(p.source))
    le = max(pats, key=lambda p: len(p.regex.pattern))
    say(f"| all | {len(pats)} | {sum(len(p.source) for p in pats):,} | {len(frags)} | {sum(len(f.source) for f in frags):,} | "
        f"{lw.id} ({len(lw.source):,}) | {le.id} ({len(le.regex.pattern):,}) | {sum(len(p.source) > 400 for p in pats)} |")
    say("")
    nwin = repeated_windows(strings)
    runs = repeated_pieces(strings)
    say(f"## Repeated pieces\n\n{PIECE}-character pieces written 3 times or more (patterns, anchors, fragments): "
        f"{nwin} distinct pieces in {len(runs)} stretches.\n")
    if runs:
        say("| times | stretch | where |")
        say("|---:|---|---|")
        for s, c, where in runs[:a.pieces]:
            shown = s if len(s) <= 160 else s[:157] + "..."
            say(f"| {c} | `{shown.replace('|', chr(92) + '|')}` | {', '.join(where[:4])}{' ...' if len(where) > 4 else ''} |")
        say("")

    if not a.no_reach:
        require_shared(*(p for _, p, _ in DATABASES))
        cards, per_db = reach(cat)
        labels = [lab for lab, _, _ in DATABASES]
        say("## Reach (distinct cards read, all shared databases)\n")
        buckets = Counter()
        for p in pats:
            n = len(cards.get(p.id, ()))
            buckets["0" if n == 0 else "1-2" if n <= 2 else "3-9" if n <= 9 else "10-99" if n <= 99 else "100+"] += 1
        say("| reach | patterns |")
        say("|---|---:|")
        for b in ("0", "1-2", "3-9", "10-99", "100+"):
            say(f"| {b} | {buckets[b]} |")
        say("")
        short = {"yaml-yugi en": "yy en", "yaml-yugi zh-CN": "yy zh-CN", "yaml-yugi zh-TW": "yy zh-TW",
                 "goat-en-US.cdb": "goat en", "goat-zh-CN.cdb": "goat zh", "salvation-2015-en.cdb": "salv",
                 "prerelease-2026-zh-TW.cdb": "pre zh-TW", "i18n-2012 zh-TW": "i18n zh-TW",
                 "yaml-yugi ja": "yy ja", "i18n-2012 ja": "i18n ja"}
        say("| pattern | reach | " + " | ".join(short[lab] for lab in labels) + " | note cites a seed |")
        say("|---|---:|" + "---:|" * len(labels) + "---|")
        for p in sorted(pats, key=lambda p: (len(cards.get(p.id, ())), p.id)):
            n = len(cards.get(p.id, ()))
            seed = "yes" if n <= 2 and "seed" in (p.note or "").lower() else ""
            say(f"| {p.id} | {n} | " + " | ".join(str(per_db[p.id][lab] or ".") for lab in labels) + f" | {seed} |")
        say("")
        few = [p.id for p in pats if len(cards.get(p.id, ())) <= 2]
        say(f"Patterns reading two cards or fewer: {len(few)}" + (f" ({', '.join(few)})" if few else ""))
    text = "\n".join(lines)
    print(text)
    if a.save:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "catalog_stats.md").write_text(
            "# Catalog figures\n\nProduced by `bench/catalog_stats.py --save`.\n\n" + text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
