#!/usr/bin/env python3
"""Build the alias table of card names, ``patterns/names/aliases.json.gz`` (read by
:mod:`extractor.names`), from the real card databases in ../shared/data.

    .venv/bin/python tools/build_name_aliases.py            # writes the file, prints its figures
    .venv/bin/python tools/build_name_aliases.py --check    # exits 1 when the file is not what a build gives

Sources (never the evaluation labels in ../shared/eval): the ygopro databases ``cdb/*.cdb``
(goat-en-US, goat-zh-CN, salvation-2015-en, prerelease-2026-zh-TW: ``texts.name``), the 2012 i18n
files ``i18n-2012/cards.{en,zh-CN,zh-TW}.json`` and yaml-yugi's ``name`` in en, zh-CN and zh-TW.

What goes in:

- ``passcodes``: alternate-artwork or pre-release passcode -> the card's passcode.  (1) a cdb row whose ``alias`` column
  names another row of the same name; (2) yaml-yugi cards sharing one Konami id (the same card
  printed with several artworks), of which exactly one is a main row of a cdb (else: exactly one is
  in an i18n file): the others map to it; (3) a passcode yaml-yugi does not hold (a pre-release id
  such as 101305004 or 13720107, an artwork the other rules miss) whose name, in its source, is a
  name of exactly one card yaml-yugi holds: that card.
- ``en`` / ``zh``: name -> main passcode, for every name a card has had in any source whose key
  (:func:`extractor.names.name_key`) differs from the key of its current yaml-yugi name (``en``:
  the English name; ``zh``: the zh-CN name -- zh-TW and Simplified names key alike).  A key that
  two cards share in any source, current names included, is ambiguous and left out (never
  guessed), and so is a name of a card yaml-yugi does not hold.  One name is kept per key, as
  written (the reader keys it again with its own normalizer).
- ``loose_ambiguous``: per group, one name of each loose key (:func:`extractor.names.loose_key`,
  without dots and dashes) that names of two cards share in any source ("Raimei" / "Rai-Mei",
  黑·魔·导 / 黑魔导): the loose fallback never resolves those, whatever the input holds.

The file is gzip-compressed JSON with sorted keys (the same sources give the same bytes).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extractor.names import ALIAS_FILE, loose_key, name_keys  # noqa: E402

SHARED = Path(os.environ.get("YGO_SHARED", ROOT.parent / "shared"))
OUT = ROOT / "patterns" / ALIAS_FILE[0] / ALIAS_FILE[1]
CDBS = {"goat-en-US": "en", "goat-zh-CN": "zh-CN", "salvation-2015-en": "en", "prerelease-2026-zh-TW": "zh-TW"}
I18N = ("en", "zh-CN", "zh-TW")
YY_LANGS = ("en", "zh-CN", "zh-TW")
GROUP = {"en": "en", "zh-CN": "zh", "zh-TW": "zh"}
CURRENT = {"en": "en", "zh": "zh-CN"}  # the yaml-yugi name a group's aliases differ from


def read_sources(data: Path) -> tuple[list[tuple[str, int, int, str, str]], dict[int, int | None]]:
    """Every name of every source as ``(source, passcode, alias, name, lang)`` (``alias``: the cdb
    ``alias`` column, 0 elsewhere) and yaml-yugi's passcode -> Konami id."""
    rows: list[tuple[str, int, int, str, str]] = []
    for stem, lang in CDBS.items():
        con = sqlite3.connect(f"file:{data / 'cdb' / (stem + '.cdb')}?mode=ro", uri=True)
        try:
            for pc, alias, name in con.execute("SELECT d.id, d.alias, t.name FROM datas d JOIN texts t USING (id)"):
                if pc and name:
                    rows.append((f"cdb/{stem}", pc, alias or 0, name, lang))
        finally:
            con.close()
    for lang in I18N:
        with open(data / "i18n-2012" / f"cards.{lang}.json", encoding="utf-8") as f:
            for c in json.load(f)["cards"]:
                if c.get("id") and c.get("name"):
                    rows.append((f"i18n-2012/{lang}", int(c["id"]), 0, c["name"], lang))
    konami: dict[int, int | None] = {}
    with open(data / "yaml-yugi" / "cards.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            pc = d.get("password")
            if not pc:
                continue
            konami[pc] = d.get("konami_id")
            for lang in YY_LANGS:
                name = (d.get("name") or {}).get(lang)
                if name:
                    rows.append((f"yaml-yugi/{lang}", pc, 0, name, lang))
    return rows, konami


def key_rows(rows: list[tuple[str, int, int, str, str]]) -> list[str]:
    """:func:`extractor.names.name_key` of each row's name (one normalizer pass a language)."""
    by_lang: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_lang[r[4]].append(i)
    keys = [""] * len(rows)
    for lang, idx in by_lang.items():
        for i, k in zip(idx, name_keys([rows[i][3] for i in idx], lang)):
            keys[i] = k
    return keys


def artworks(rows, keys, konami) -> dict[int, int]:
    """Alternate-artwork or pre-release passcode -> the card's passcode (see the module docstring)."""
    arts: dict[int, int] = {}
    by_src_pc = {(r[0], r[1]): k for r, k in zip(rows, keys)}
    cdb_main = set()
    for r, k in zip(rows, keys):
        src, pc, alias = r[0], r[1], r[2]
        if not src.startswith("cdb/"):
            continue
        if alias and alias != pc and by_src_pc.get((src, alias)) == k:
            arts[pc] = alias
        elif not alias:
            cdb_main.add(pc)
    i18n_ids = {r[1] for r in rows if r[0].startswith("i18n")}
    groups: dict[int, list[int]] = defaultdict(list)
    for pc, kid in konami.items():
        if kid:
            groups[kid].append(pc)
    for members in groups.values():
        if len(members) < 2:
            continue
        for known in ([m for m in members if m in cdb_main], [m for m in members if m in i18n_ids]):
            if len(known) == 1:
                arts.update({m: known[0] for m in members if m != known[0]})
                break
    held: dict[tuple[str, str], set[int]] = defaultdict(set)  # (group, key) -> the yaml-yugi cards of that name
    for r, k in zip(rows, keys):
        if r[1] in konami:
            held[(GROUP[r[4]], k)].add(arts.get(r[1], r[1]))
    for r, k in zip(rows, keys):
        pc = r[1]
        if pc not in konami and pc not in arts:
            cands = held.get((GROUP[r[4]], k), set())
            if len(cands) == 1:
                arts[pc] = next(iter(cands))
    return arts


def build(data: Path) -> tuple[dict, dict]:
    """The table (a JSON-ready dict) and its figures."""
    rows, konami = read_sources(data)
    keys = key_rows(rows)
    arts = artworks(rows, keys, konami)
    current: dict[tuple[str, int], str] = {}
    for r, k in zip(rows, keys):
        if r[0] == f"yaml-yugi/{CURRENT[GROUP[r[4]]]}":
            current[(GROUP[r[4]], r[1])] = k
    owners: dict[tuple[str, str], set[int]] = defaultdict(set)
    first: dict[tuple[str, str], str] = {}
    for r, k in zip(rows, keys):
        g, pc = GROUP[r[4]], arts.get(r[1], r[1])
        owners[(g, k)].add(pc)
        first.setdefault((g, k), r[3])
    loose: dict[tuple[str, str], set[int]] = defaultdict(set)
    loose_first: dict[tuple[str, str], str] = {}
    for (g, k), pcs in owners.items():
        loose[(g, loose_key(k))] |= pcs
        loose_first.setdefault((g, loose_key(k)), first[(g, k)])
    blocked: dict[str, list[str]] = {"en": [], "zh": []}
    for (g, lk), pcs in loose.items():
        if len(pcs) > 1:
            blocked[g].append(loose_first[(g, lk)])
    table: dict[str, dict[str, int]] = {"en": {}, "zh": {}}
    ambiguous = {"en": 0, "zh": 0}
    unknown = {"en": 0, "zh": 0}
    for (g, k), pcs in owners.items():
        if len(pcs) > 1:
            ambiguous[g] += 1
            continue
        pc = next(iter(pcs))
        if current.get((g, pc)) == k:
            continue
        if pc not in konami:  # a card the current pool does not hold (a pre-release id never mapped)
            unknown[g] += 1
            continue
        table[g][first[(g, k)]] = pc
    out = {
        "about": "Card names of other eras and translations -> passcode (extractor/names.py); "
                 "built by tools/build_name_aliases.py from ../shared/data: "
                 + ", ".join(sorted({r[0] for r in rows})),
        "en": dict(sorted(table["en"].items())),
        "zh": dict(sorted(table["zh"].items())),
        "passcodes": {str(a): m for a, m in sorted(arts.items())},
        "loose_ambiguous": {g: sorted(v) for g, v in blocked.items()},
    }
    figures = {"source names": len(rows), "en aliases": len(table["en"]), "zh aliases": len(table["zh"]),
               "passcodes mapped": len(arts), "ambiguous keys left out (en / zh)": f"{ambiguous['en']} / {ambiguous['zh']}",
               "loose keys two cards share (en / zh)": f"{len(blocked['en'])} / {len(blocked['zh'])}",
               "names of cards yaml-yugi lacks left out (en / zh)": f"{unknown['en']} / {unknown['zh']}"}
    return out, figures


def encode(table: dict) -> bytes:
    """The file's bytes: compact JSON, sorted keys, gzip with no timestamp (reproducible)."""
    raw = json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return gzip.compress(raw, compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=SHARED / "data", help="the card databases (default ../shared/data)")
    ap.add_argument("--check", action="store_true", help="only compare with the file in the repository")
    a = ap.parse_args(argv)
    if not a.data.is_dir():
        print(f"{a.data} is not present: the alias table is built from the shared card databases", file=sys.stderr)
        return 2
    table, figures = build(a.data)
    data = encode(table)
    raw_len = len(gzip.decompress(data))
    for k, v in figures.items():
        print(f"{k}: {v}")
    print(f"file: {OUT.relative_to(ROOT)}, {len(data):,} bytes gzip ({raw_len:,} bytes JSON)")
    if a.check:
        same = OUT.exists() and gzip.decompress(OUT.read_bytes()) == gzip.decompress(data)
        print("up to date" if same else "differs from a fresh build")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
