#!/usr/bin/env python3
"""``audit`` on the real card databases of ../shared/data: precision and recall of
``special-summon-flag-missing`` (and ``-extra``) against a reference computed WITHOUT the tool,
planted corruptions, and the frame cues against the type bits.

    .venv/bin/python bench/audit_runs.py [--save] [--list N]

1. Reference.  A card really lacks the Special Summon bit when the script-derived labels of
   ../shared/eval/labels-dev.jsonl (the engine scripts, not card text, not this tool) say it is a
   Main Deck, non-Ritual monster (``kind`` ``main_monster``) that cannot be Normal Summoned and
   cannot be Normal Set (tags ``cannot-normal-summon`` + ``cannot-normal-set``) and its cdb
   ``datas.type`` lacks 0x2000000; it has the bit wrongly when the labels say it is not such a
   monster and the bit is set.  A row is looked up by its passcode, else by its artwork alias
   (``alias`` less than 20 away); rows whose labels list one of those tags as ``uncertain``, and
   rows not in the dev labels (held-out or unknown cards), are left out of P/R and counted apart.
   The real command line (``python -m extractor.cli audit FILE -o TMP``, a subprocess) gives the
   findings.  Every disagreement is listed (``--list N`` per kind and file).
2. Planted: a copy of a database (temp folder) with type bits changed by fixed rules that read
   only the type bits and the labels (seeded random choice): the bit cleared on labelled Special
   Summon Monsters, set on labelled plain Effect Monsters, the Toon / Gemini / Pendulum / Extra
   Deck bits cleared, and on artwork rows the text of the base row with " Cannot be Special
   Summoned." appended.  Found = the card has a finding of the expected check.
3. Frame cues (patterns/cues/audit-<lang>.yaml) against the type bits of every monster text of
   the cdbs and of yaml-yugi (its type line): how often a cue is present without its bit (each
   would be a ``frame-text-conflict``) and how many carded-with-the-bit texts the cue finds.

Needs ../shared.  ``--save`` also writes ``bench/results/audit_runs.md``.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import SHARED, finish, require_shared, run_child  # noqa: E402

D = SHARED / "data" / "cdb"
LABELS = SHARED / "eval" / "labels-dev.jsonl"
FILES = [  # (label, path); the language is guessed by audit as by tag
    ("salvation-2015-en.cdb", D / "salvation-2015-en.cdb"),
    ("goat-en-US.cdb", D / "goat-en-US.cdb"),
    ("goat-zh-CN.cdb", D / "goat-zh-CN.cdb"),
    ("prerelease-2026-zh-TW.cdb", D / "prerelease-2026-zh-TW.cdb"),
]
SS_BIT, TOON, GEMINI, PEND = 0x2000000, 0x400000, 0x800, 0x1000000
EXTRA = 0x40 | 0x2000 | 0x800000 | 0x4000000
SEVERITIES = ["high", "medium", "low"]
KEY_TAGS = {"cannot-normal-summon", "cannot-normal-set", "special-summon-monster"}
SEED = 12


def load_labels() -> dict[int, dict]:
    out = {}
    with open(LABELS, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            out[d["id"]] = d
    return out


def read_rows(path: Path) -> dict[int, tuple[int, int, str, str]]:
    """``{id: (type, alias, name, text)}`` of the cdb's datas rows (read-only)."""
    con = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    rows = {i: (t, a, n or "", d or "") for i, t, a, n, d in con.execute(
        'SELECT d.id, d.type, d.alias, t.name, t."desc" FROM datas d LEFT JOIN texts t ON t.id = d.id')}
    con.close()
    return rows


def label_of(cid: int, alias: int, labels: dict) -> dict | None:
    if cid in labels:
        return labels[cid]
    if alias and abs(cid - alias) < 20:
        return labels.get(alias)
    return None


def reference(rows: dict, labels: dict) -> tuple[set[int], set[int], set[int], Counter]:
    """(lacks the bit, has it wrongly, labelled monsters, counts of rows left out) -- no tool."""
    lacks, wrong, labelled = set(), set(), set()
    left = Counter()
    for cid, (t, alias, _, _) in rows.items():
        if not isinstance(t, int) or not t & 1:
            continue
        lab = label_of(cid, alias, labels)
        if lab is None:
            left["not in the dev labels"] += 1
            continue
        if KEY_TAGS & set(lab.get("uncertain") or ()):
            left["uncertain in the labels"] += 1
            continue
        labelled.add(cid)
        should = lab["kind"] == "main_monster" and {"cannot-normal-summon", "cannot-normal-set"} <= set(lab["tags"])
        if should and not t & SS_BIT:
            lacks.add(cid)
        if not should and t & SS_BIT:
            wrong.add(cid)
    return lacks, wrong, labelled, left


def run_audit(path: Path, out: Path, *extra: str):
    r = run_child(["-m", "extractor.cli", "audit", str(path), "-o", str(out), *extra], one_core=False)
    if r.returncode != 0:
        raise SystemExit(f"audit {path} failed:\n{r.stderr}")
    findings = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return r, findings


def pr(pred: set[int], ref: set[int], universe: set[int]) -> tuple[int, int, int, str, str]:
    p = pred & universe
    tp, fp, fn = len(p & ref), len(p - ref), len(ref - p)
    prec = f"{tp / (tp + fp):.3f}" if tp + fp else "n/a"
    rec = f"{tp / (tp + fn):.3f}" if tp + fn else "n/a"
    return tp, fp, fn, prec, rec


def plant(src: Path, dst: Path, labels: dict, rows: dict, rng: random.Random, k: int = 25) -> dict[str, set[int]]:
    """Copy ``src`` to ``dst`` and corrupt it by rules that read only type bits and labels.
    Returns ``{class: ids}`` of the planted rows."""
    shutil.copy(src, dst)
    planted: dict[str, set[int]] = {}
    mons = {cid: v for cid, v in rows.items() if isinstance(v[0], int) and v[0] & 1 and v[3].strip()}

    def pick(pred, n=k):
        ids = sorted(cid for cid, v in mons.items() if pred(cid, v))
        return set(rng.sample(ids, min(n, len(ids))))

    def lab(cid, v):
        return label_of(cid, v[1], labels)

    ssm = pick(lambda c, v: (l := lab(c, v)) is not None and "special-summon-monster" in l["tags"] and not KEY_TAGS & set(l["uncertain"]))
    plain = pick(lambda c, v: (l := lab(c, v)) is not None and l["kind"] == "main_monster" and not l["tags"]
                 and v[0] & 0x20 and not v[0] & SS_BIT and not l["uncertain"])
    toon = pick(lambda c, v: bool(v[0] & TOON))
    gemini = pick(lambda c, v: bool(v[0] & GEMINI))
    pend = pick(lambda c, v: bool(v[0] & PEND))
    extra = pick(lambda c, v: bool(v[0] & EXTRA) and not v[0] & 0x4000)
    new = {cid: v[0] for cid, v in mons.items()}  # the changes of one row compose
    for cid in ssm:
        new[cid] &= ~SS_BIT
    for cid in plain:
        new[cid] |= SS_BIT
    for ids, bit in ((toon, TOON), (gemini, GEMINI), (pend, PEND), (extra, EXTRA)):
        for cid in ids:
            new[cid] &= ~bit
    con = sqlite3.connect(dst)
    for cid, t in new.items():
        if t != rows[cid][0]:
            con.execute("UPDATE datas SET type = ? WHERE id = ?", (t, cid))
    arts = sorted(cid for cid, v in rows.items() if v[1] and abs(cid - v[1]) < 20 and v[1] in rows and v[3].strip()
                  and "Special Summoned" not in rows[v[1]][3] and "特殊召" not in rows[v[1]][3]
                  and isinstance(v[0], int) and v[0] & 1)
    alias = set(rng.sample(arts, min(k, len(arts))))
    for cid in alias:
        base = rows[rows[cid][1]][3]
        add = " Cannot be Special Summoned." if not any("\u4e00" <= ch <= "\u9fff" for ch in base) else "这张卡不能特殊召唤。"
        con.execute('UPDATE texts SET "desc" = ? WHERE id = ?', (base.rstrip() + add, cid))
    con.commit()
    con.close()
    planted = {"bit cleared on Special Summon Monsters -> special-summon-flag-missing": ssm,
               "bit set on plain Effect Monsters -> special-summon-flag-extra": plain,
               "Toon bit cleared -> frame-text-conflict": toon,
               "Gemini bit cleared -> frame-text-conflict": gemini,
               "Pendulum bit cleared -> frame-text-conflict": pend,
               "Extra Deck bits cleared -> frame-text-conflict": extra,
               "artwork row + \"Cannot be Special Summoned\" -> alias-conditions-differ": alias}
    return {k: v for k, v in planted.items() if v}


def cue_table(lines: list[str]) -> None:
    """Frame cues vs type bits on every monster text of the cdbs and yaml-yugi."""
    from extractor.audit import find_cue as _cue, material_line as _material_line
    from extractor.normalize import lang_family, normalize
    from extractor.readers import guess_lang

    groups = (("material-line", EXTRA, "Extra Deck bit"), ("pendulum-block", PEND, "Pendulum bit"),
              ("toon-reminder", TOON, "Toon bit"))
    sources = []
    for label, path in FILES:
        rows = read_rows(path)
        lang = guess_lang(v[3] for v in list(rows.values())[:50])
        sources.append((label, [(v[3], lang, v[0]) for v in rows.values() if isinstance(v[0], int) and v[0] & 1 and v[3]]))
    yy = SHARED / "data" / "yaml-yugi" / "cards.jsonl"
    for lang in ("en", "zh-CN"):
        items = []
        with open(yy, encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                text = (d.get("text") or {}).get(lang)
                if d.get("card_type") != "Monster" or not text:
                    continue
                tl = (d.get("monster_type_line") or "").lower()
                t = 1 | (EXTRA if any(w in tl for w in ("fusion", "synchro", "xyz", "link")) else 0) \
                    | (PEND if "pendulum" in tl else 0) | (TOON if "toon" in tl else 0)
                items.append((text, lang, t))
        sources.append((f"yaml-yugi {lang} (type line; Pendulum Effect kept apart)", items))
    lines += ["", "### Frame cues against the type bits (every monster text)", "",
              "| source | monster texts | cue | cue without the bit (a finding) | cue with the bit | bit without the cue |",
              "|---|---:|---|---:|---:|---:|"]
    for label, items in sources:
        counts = {g: Counter() for g, _, _ in groups}
        for text, lang, t in items:
            fam = lang_family(lang)
            mt = normalize(text, lang)
            for g, bit, _ in groups:
                hit = _material_line(mt, fam) if g == "material-line" else _cue(mt, fam, g)
                counts[g][(hit is not None, bool(t & bit))] += 1
        for g, _, what in groups:
            c = counts[g]
            lines.append(f"| {label} | {len(items):,} | {g} ({what}) | {c[(True, False)]} | {c[(True, True)]:,} | "
                         f"{c[(False, True)]:,} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--save", action="store_true", help="also write bench/results/audit_runs.md")
    ap.add_argument("--list", type=int, default=15, help="disagreements listed per kind and file (default 15)")
    ap.add_argument("--no-cues", action="store_true", help="skip the frame cue table (the slowest part)")
    a = ap.parse_args(argv)
    require_shared(LABELS, *(p for _, p in FILES))
    labels = load_labels()
    lines = ["### `special-summon-flag-missing` / `-extra` against the labels (reference without the tool)", "",
             "| database | monsters | labelled | lack the bit (ref) | flagged missing | TP / FP / FN | precision | recall "
             "| bit wrongly set (ref) | flagged extra (by severity h/m/l) | TP / FP / FN | precision | recall "
             "| flagged, unlabelled | whole run s (wall / CPU) |",
             "|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|---:|---:|---:|---|"]
    notes: list[str] = []
    planted_lines = ["", "### Planted corruptions (a temp copy; bits changed by rules over type bits and labels, "
                     f"seed {SEED})", "", "| database | class | planted | found (by severity h/m/l) |", "|---|---|---:|---:|"]
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory(prefix="ygo-audit-") as d:
        for label, path in FILES:
            print(f"  audit {label} ...", file=sys.stderr)
            rows = read_rows(path)
            lacks, wrong, labelled, left = reference(rows, labels)
            r, findings = run_audit(path, Path(d) / "f.jsonl")
            missing = {f["id"] for f in findings if f["check"] == "special-summon-flag-missing"}
            extra = {f["id"] for f in findings if f["check"] == "special-summon-flag-extra"}
            sev = Counter(f["severity"] for f in findings if f["check"] == "special-summon-flag-extra")
            m = pr(missing, lacks, labelled)
            e = pr(extra, wrong, labelled)
            mons = sum(1 for v in rows.values() if isinstance(v[0], int) and v[0] & 1)
            lines.append(f"| {label} | {mons:,} | {len(labelled):,} | {len(lacks)} | {len(missing)} | {m[0]} / {m[1]} / "
                         f"{m[2]} | {m[3]} | {m[4]} | {len(wrong)} | {len(extra)} ({sev['high']}/{sev['medium']}/"
                         f"{sev['low']}) | {e[0]} / {e[1]} / {e[2]} | {e[3]} | {e[4]} | "
                         f"{len((missing | extra) - labelled)} | {r.wall:.2f} / {r.cpu:.2f} |")
            if left:
                notes.append(f"- {label}: left out of P/R: " + ", ".join(f"{n} {k}" for k, n in left.items()))
            by_id = {f["id"]: f for f in findings}
            for kind, ids in (("flagged missing, labels disagree (FP)", (missing & labelled) - lacks),
                              ("lacks the bit per labels, not flagged (FN)", lacks - missing),
                              ("flagged extra, labels disagree (FP)", (extra & labelled) - wrong),
                              ("bit wrongly set per labels, not flagged (FN)", wrong - extra)):
                for cid in sorted(ids)[:a.list]:
                    lab = label_of(cid, rows[cid][1], labels)
                    f = by_id.get(cid)
                    notes.append(f"- {label} {kind}: {cid} {rows[cid][2]!r} type 0x{rows[cid][0]:x}; labels "
                                 f"{lab['kind']} {sorted(set(lab['tags']) & KEY_TAGS)}"
                                 + (f"; finding {f['severity']}: «{f['phrase']}»" if f and f.get("phrase") else "")
                                 + f"; text: {rows[cid][3][:160]!r}")
            # planted
            copy = Path(d) / f"planted-{label}"
            planted = plant(path, copy, labels, rows, rng)
            _, pf = run_audit(copy, Path(d) / "p.jsonl")
            for cls, ids in planted.items():
                check = cls.rsplit("-> ", 1)[1]
                hits = [f for f in pf if f["check"] == check and f["id"] in ids]
                found = {f["id"] for f in hits}
                sev = Counter(min((f["severity"] for f in hits if f["id"] == cid), key=SEVERITIES.index)
                              for cid in found)
                planted_lines.append(f"| {label} | {cls} | {len(ids)} | {len(found)} "
                                     f"({sev['high']}/{sev['medium']}/{sev['low']}) |")
                for cid in sorted(ids - found)[:a.list]:
                    notes.append(f"- planted, not found ({label}, {cls}): {cid} {rows[cid][2]!r}: "
                                 f"{rows[cid][3][:140]!r}")
    lines += planted_lines
    if not a.no_cues:
        print("  frame cues ...", file=sys.stderr)
        cue_table(lines)
    if notes:
        lines += ["", "Notes and disagreements:", ""] + notes
    cmds = [".venv/bin/python bench/audit_runs.py" + (" --save" if a.save else "")]
    return finish(lines, cmds, "audit_runs.md", a.save)


if __name__ == "__main__":
    sys.exit(main())
