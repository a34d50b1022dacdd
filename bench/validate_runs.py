#!/usr/bin/env python3
"""Real runs of ``validate`` on the shared card databases; prints markdown tables.

    .venv/bin/python bench/validate_runs.py                 # the four runs, markdown on stdout
    .venv/bin/python bench/validate_runs.py --sample 30 --seed 4 --sample-out /tmp/s.jsonl --sample-md /tmp/s.md
    .venv/bin/python bench/validate_runs.py --runs held-out   # pairs never used to write patterns
    .venv/bin/python bench/validate_runs.py --runs i18n --half odd --sample 30
    .venv/bin/python bench/validate_runs.py --runs fresh,fresh2,fresh3,held-out,i18n --exclude-ids ids.json --sample 30
    .venv/bin/python bench/validate_runs.py --runs fresh,fresh2,fresh3,fresh4,held-out,i18n --exclude-ids ids.json --sample 30

Runs (``../shared/data``):

1. ``cdb/goat-en-US.cdb`` vs ``cdb/goat-zh-CN.cdb`` (en -> zh-CN, 2005-era pool, community
   translation);
2. ``yaml-yugi/cards.jsonl`` en -> zh-CN;
3. ``yaml-yugi/cards.jsonl`` en -> zh-TW (the real zh-TW texts: 864 cards);
4. ``yaml-yugi/cards.jsonl`` zh-CN -> zh-TW.

Held-out runs (``--runs held-out``): pairs no pattern or rule was written from, for a fresh
measurement of precision:

5. ``cdb/salvation-2015-en.cdb`` (2015 English wording) vs ``yaml-yugi/cards.jsonl`` zh-CN;
6. ``yaml-yugi/cards.jsonl`` en vs ``cdb/prerelease-2026-zh-TW.cdb``.

``--runs fresh``: cross pairings no rule was written from (2012 English vs yaml-yugi zh-CN;
2015 and goat English and yaml-yugi English vs the 2012 Chinese texts; 2012 zh-CN vs zh-TW).
``--runs fresh2``: the remaining cross pairings (English of each era vs the 2012 and goat zh-CN,
yaml-yugi and goat zh-CN vs the 2012 zh-TW), for a second check after the first was used.
``--runs fresh3``: two Chinese translations of the same cards (goat / 2012 / yaml-yugi zh-CN,
yaml-yugi zh-CN vs the 2026 zh-TW): registers and eras, a third check.
``--runs fresh4``: pairings never used before (session 4, round 3, when the unseen cards of the
others ran short): every other era and translation against the yaml-yugi zh-TW texts, goat English
against yaml-yugi zh-CN, the English of 2005, 2012 and 2015 against today's (errata), and Japanese
(2012 English vs 2012 Japanese, older English and Chinese vs yaml-yugi Japanese, 2012 vs today's
Japanese).  The 2026 zh-TW prints share no card with the older sets (not paired).  ``--exclude-ids FILE`` (a JSON list of passcodes) leaves cards out, e.g. those already judged.
``--runs fresh5``: pairings never used before (session 5, round 4): the Japanese of 2012 and of
yaml-yugi against every Chinese set (2012 zh-CN / zh-TW, yaml-yugi zh-TW, the 2026 zh-TW prints),
the 2012 Japanese against today's English and Chinese, the 2005 and 2015 English and the goat
zh-CN against the 2012 Japanese.

``--runs i18n``: ``i18n-2012/cards.en.json`` vs ``cards.zh-CN.json`` and vs ``cards.zh-TW.json``
(2012 texts with no card type; the zh-TW one a fan translation).  ``--half even|odd`` keeps only
the cards whose passcode is even / odd (a development half and a held-out half).

Cards present on one side only are counted apart (not compared).  Per run: cards compared,
agreeing, with a condition mismatch, mismatches (and cards) by kind, by condition group and by
severity, card-level problems, seconds.  ``--sample N`` draws N condition mismatches uniformly
at random (seeded) from the condition mismatches of all runs together, and writes them with both
texts to ``--sample-out`` (JSONL) and, with ``--sample-md``, as a markdown skeleton for judging
by hand.  Figures are printed, never asserted.  Needs
../shared; exits with a message if it is absent.
"""
from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extractor.validate import CARD_PROBLEM_KINDS, MISMATCH_KINDS, validate  # noqa: E402

DATA = ROOT.parent / "shared" / "data"


def checkout_read() -> str:
    """Which code and pattern catalog the run reads: ``"<checkout> at <commit>"`` (``+uncommitted``
    when ``extractor/`` or ``patterns/`` differ from it).  Exits with a message naming both places
    when the modules or the catalog do not come from THIS checkout.

    Why (round 5, docs/validate.md): ``extractor`` is a namespace package and the catalog
    (``extractor.catalog`` = ``patterns/``) is found through the editable install of the
    interpreter that runs the script.  Run with another checkout's ``.venv/bin/python``, the script
    read this checkout's modules but THAT checkout's patterns (and modules this one lacks from
    there): pattern fixes then did not show in the counts while the tests (run by this checkout's
    interpreter) passed on them."""
    import subprocess

    import extractor.validate as ev
    from extractor.normalize.common import PATTERNS_DIR

    cat = Path(str(PATTERNS_DIR)).resolve()
    mod = Path(ev.__file__).resolve()
    own = ROOT.resolve()
    if cat != own / "patterns" or own not in mod.parents:
        sys.exit(f"{Path(sys.argv[0]).name}: this checkout is {own}, but the run would read the pattern catalog "
                 f"{cat} and the modules of {mod.parent.parent}; run it with this checkout's interpreter "
                 f"({own / '.venv' / 'bin' / 'python'}, made by ./dev)")
    try:
        head = subprocess.run(["git", "-C", str(own), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(own), "status", "--porcelain", "--", "extractor", "patterns"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"{own} (no git)"
    return f"{own} at {head}" + (" +uncommitted" if dirty else "")
RUNS = [
    ("goat cdb en -> zh-CN", "cdb/goat-en-US.cdb", "cdb/goat-zh-CN.cdb", "en", "zh-CN"),
    ("yaml-yugi en -> zh-CN", "yaml-yugi/cards.jsonl", None, "en", "zh-CN"),
    ("yaml-yugi en -> zh-TW", "yaml-yugi/cards.jsonl", None, "en", "zh-TW"),
    ("yaml-yugi zh-CN -> zh-TW", "yaml-yugi/cards.jsonl", None, "zh-CN", "zh-TW"),
]
HELD_OUT = [
    ("salvation-2015 en -> yaml-yugi zh-CN", "cdb/salvation-2015-en.cdb", "yaml-yugi/cards.jsonl", "en", "zh-CN"),
    ("yaml-yugi en -> prerelease-2026 zh-TW", "yaml-yugi/cards.jsonl", "cdb/prerelease-2026-zh-TW.cdb", "en", "zh-TW"),
]
I18N = [
    ("i18n-2012 en -> zh-CN", "i18n-2012/cards.en.json", "i18n-2012/cards.zh-CN.json", "en", "zh-CN"),
    ("i18n-2012 en -> zh-TW", "i18n-2012/cards.en.json", "i18n-2012/cards.zh-TW.json", "en", "zh-TW"),
]
FRESH = [
    ("i18n-2012 en -> yaml-yugi zh-CN", "i18n-2012/cards.en.json", "yaml-yugi/cards.jsonl", "en", "zh-CN"),
    ("salvation-2015 en -> i18n-2012 zh-TW", "cdb/salvation-2015-en.cdb", "i18n-2012/cards.zh-TW.json", "en", "zh-TW"),
    ("salvation-2015 en -> i18n-2012 zh-CN", "cdb/salvation-2015-en.cdb", "i18n-2012/cards.zh-CN.json", "en", "zh-CN"),
    ("yaml-yugi en -> i18n-2012 zh-TW", "yaml-yugi/cards.jsonl", "i18n-2012/cards.zh-TW.json", "en", "zh-TW"),
    ("goat cdb en -> i18n-2012 zh-TW", "cdb/goat-en-US.cdb", "i18n-2012/cards.zh-TW.json", "en", "zh-TW"),
    ("i18n-2012 zh-CN -> zh-TW", "i18n-2012/cards.zh-CN.json", "i18n-2012/cards.zh-TW.json", "zh-CN", "zh-TW"),
]
FRESH2 = [
    ("yaml-yugi en -> i18n-2012 zh-CN", "yaml-yugi/cards.jsonl", "i18n-2012/cards.zh-CN.json", "en", "zh-CN"),
    ("goat cdb en -> i18n-2012 zh-CN", "cdb/goat-en-US.cdb", "i18n-2012/cards.zh-CN.json", "en", "zh-CN"),
    ("i18n-2012 en -> goat cdb zh-CN", "i18n-2012/cards.en.json", "cdb/goat-zh-CN.cdb", "en", "zh-CN"),
    ("salvation-2015 en -> goat cdb zh-CN", "cdb/salvation-2015-en.cdb", "cdb/goat-zh-CN.cdb", "en", "zh-CN"),
    ("yaml-yugi zh-CN -> i18n-2012 zh-TW", "yaml-yugi/cards.jsonl", "i18n-2012/cards.zh-TW.json", "zh-CN", "zh-TW"),
    ("goat cdb zh-CN -> i18n-2012 zh-TW", "cdb/goat-zh-CN.cdb", "i18n-2012/cards.zh-TW.json", "zh-CN", "zh-TW"),
]
FRESH3 = [  # two Chinese translations of the same card (registers, eras): nothing to report but meaning
    ("goat cdb zh-CN -> yaml-yugi zh-CN", "cdb/goat-zh-CN.cdb", "yaml-yugi/cards.jsonl", "zh-CN", "zh-CN"),
    ("i18n-2012 zh-CN -> yaml-yugi zh-CN", "i18n-2012/cards.zh-CN.json", "yaml-yugi/cards.jsonl", "zh-CN", "zh-CN"),
    ("i18n-2012 zh-CN -> goat cdb zh-CN", "i18n-2012/cards.zh-CN.json", "cdb/goat-zh-CN.cdb", "zh-CN", "zh-CN"),
    ("yaml-yugi zh-CN -> prerelease-2026 zh-TW", "yaml-yugi/cards.jsonl", "cdb/prerelease-2026-zh-TW.cdb", "zh-CN", "zh-TW"),
]
FRESH4 = [  # pairings never used before (session 4, round 3, when the unseen cards of the others ran short)
    # the zh-TW texts of yaml-yugi against every other era and translation
    ("goat cdb en -> yaml-yugi zh-TW", "cdb/goat-en-US.cdb", "yaml-yugi/cards.jsonl", "en", "zh-TW"),
    ("salvation-2015 en -> yaml-yugi zh-TW", "cdb/salvation-2015-en.cdb", "yaml-yugi/cards.jsonl", "en", "zh-TW"),
    ("i18n-2012 en -> yaml-yugi zh-TW", "i18n-2012/cards.en.json", "yaml-yugi/cards.jsonl", "en", "zh-TW"),
    ("i18n-2012 zh-TW -> yaml-yugi zh-TW", "i18n-2012/cards.zh-TW.json", "yaml-yugi/cards.jsonl", "zh-TW", "zh-TW"),
    ("goat cdb zh-CN -> yaml-yugi zh-TW", "cdb/goat-zh-CN.cdb", "yaml-yugi/cards.jsonl", "zh-CN", "zh-TW"),
    ("i18n-2012 zh-CN -> yaml-yugi zh-TW", "i18n-2012/cards.zh-CN.json", "yaml-yugi/cards.jsonl", "zh-CN", "zh-TW"),
    ("goat cdb en -> yaml-yugi zh-CN", "cdb/goat-en-US.cdb", "yaml-yugi/cards.jsonl", "en", "zh-CN"),
    # English of three eras against today's (errata: real differences expected)
    ("goat cdb en -> yaml-yugi en", "cdb/goat-en-US.cdb", "yaml-yugi/cards.jsonl", "en", "en"),
    ("salvation-2015 en -> yaml-yugi en", "cdb/salvation-2015-en.cdb", "yaml-yugi/cards.jsonl", "en", "en"),
    ("i18n-2012 en -> yaml-yugi en", "i18n-2012/cards.en.json", "yaml-yugi/cards.jsonl", "en", "en"),
    ("goat cdb en -> salvation-2015 en", "cdb/goat-en-US.cdb", "cdb/salvation-2015-en.cdb", "en", "en"),
    # Japanese (yaml-yugi en vs ja was a development pairing: not here)
    ("i18n-2012 en -> ja", "i18n-2012/cards.en.json", "i18n-2012/cards.ja.json", "en", "ja"),
    ("salvation-2015 en -> yaml-yugi ja", "cdb/salvation-2015-en.cdb", "yaml-yugi/cards.jsonl", "en", "ja"),
    ("goat cdb en -> yaml-yugi ja", "cdb/goat-en-US.cdb", "yaml-yugi/cards.jsonl", "en", "ja"),
    ("i18n-2012 ja -> yaml-yugi ja", "i18n-2012/cards.ja.json", "yaml-yugi/cards.jsonl", "ja", "ja"),
    ("goat cdb zh-CN -> yaml-yugi ja", "cdb/goat-zh-CN.cdb", "yaml-yugi/cards.jsonl", "zh-CN", "ja"),
]
FRESH5 = [  # pairings never used before (session 5, round 4 of the fresh judges): Japanese against the other sets
    ("i18n-2012 ja -> zh-CN", "i18n-2012/cards.ja.json", "i18n-2012/cards.zh-CN.json", "ja", "zh-CN"),
    ("i18n-2012 ja -> zh-TW", "i18n-2012/cards.ja.json", "i18n-2012/cards.zh-TW.json", "ja", "zh-TW"),
    ("yaml-yugi ja -> zh-TW", "yaml-yugi/cards.jsonl", None, "ja", "zh-TW"),
    ("yaml-yugi ja -> prerelease-2026 zh-TW", "yaml-yugi/cards.jsonl", "cdb/prerelease-2026-zh-TW.cdb", "ja", "zh-TW"),
    ("i18n-2012 ja -> yaml-yugi en", "i18n-2012/cards.ja.json", "yaml-yugi/cards.jsonl", "ja", "en"),
    ("i18n-2012 ja -> yaml-yugi zh-CN", "i18n-2012/cards.ja.json", "yaml-yugi/cards.jsonl", "ja", "zh-CN"),
    ("salvation-2015 en -> i18n-2012 ja", "cdb/salvation-2015-en.cdb", "i18n-2012/cards.ja.json", "en", "ja"),
    ("goat cdb en -> i18n-2012 ja", "cdb/goat-en-US.cdb", "i18n-2012/cards.ja.json", "en", "ja"),
    ("goat cdb zh-CN -> i18n-2012 ja", "cdb/goat-zh-CN.cdb", "i18n-2012/cards.ja.json", "zh-CN", "ja"),
]
RUN_SETS = {"required": RUNS, "held-out": HELD_OUT, "i18n": I18N, "fresh": FRESH, "fresh2": FRESH2, "fresh3": FRESH3,
            "fresh4": FRESH4, "fresh5": FRESH5}


def _flat(s: str) -> str:
    return s.replace("\r", "").replace("\n", " / ").replace("|", "\\|")


def _half(rep, parity: int):
    """The report restricted to cards whose passcode has this parity.  Mismatch counts come from
    the cards kept; "cards compared" and "agreeing" stay those of the whole run (not split)."""
    rep = rep.model_copy()
    rep.cards = [c for c in rep.cards if c.id is not None and int(c.id) % 2 == parity]
    return rep


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=0, help="draw N condition mismatches for judging")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--sample-out", default="validate-sample.jsonl")
    ap.add_argument("--sample-md", help="also write the sample as a markdown skeleton for judging")
    ap.add_argument("--runs", default="required",
                    help="which pairs: one of " + ", ".join(sorted(RUN_SETS)) + " or several, comma-separated, pooled "
                         "(a sample is drawn from all of them together); default: the four required")
    ap.add_argument("--half", choices=["even", "odd"], help="only cards with an even / odd passcode")
    ap.add_argument("--exclude-ids", help="a JSON list of passcodes to leave out (e.g. cards already judged)")
    ap.add_argument("--min-severity", choices=["high", "medium", "low"], default="medium",
                    help="as the CLI's (default medium)")
    args = ap.parse_args()
    sets = [r.strip() for r in args.runs.split(",") if r.strip()]
    if not sets or any(r not in RUN_SETS for r in sets):
        ap.error(f"--runs {args.runs!r}: each must be one of {sorted(RUN_SETS)}")
    if not DATA.is_dir():
        sys.exit(f"{DATA} is not present: nothing to run")
    read = checkout_read()
    results = []
    for label, s, t, sl, tl in [run for r in sets for run in RUN_SETS[r]]:
        t0 = time.perf_counter()
        rep = validate(DATA / s, DATA / t if t else None, source_lang=sl, target_lang=tl,
                       include_missing=sets == ["required"], min_severity=args.min_severity)
        if args.half:
            keep = 0 if args.half == "even" else 1
            rep = _half(rep, keep)
            label += f" ({args.half} passcodes)"
        if args.exclude_ids:
            skip = set(orjson.loads(Path(args.exclude_ids).read_bytes()))
            rep = rep.model_copy()
            rep.cards = [c for c in rep.cards if c.id not in skip]
        results.append((label, rep, time.perf_counter() - t0))

    print(f"Code and pattern catalog: {read}; runs {args.runs}, --min-severity {args.min_severity}.\n")
    print("| run | cards compared | agreeing | with a condition mismatch | missing-in-target | extra-in-target "
          "| slot-differs | high / medium / low | truncated | empty | one side only | s |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    for label, rep, dt in results:
        mc, cc = rep.mismatch_counts(), rep.card_counts()
        sev = collections.Counter(m.severity for c in rep.cards for m in c.mismatches if m.kind in MISMATCH_KINDS)
        one_side = cc["card-missing-in-source"] + cc["card-missing-in-target"]
        print(f"| {label} | {rep.cards_compared} | {rep.cards_agreeing} | {rep.cards_mismatching} | "
              f"{mc['missing-in-target']} ({cc['missing-in-target']}) | {mc['extra-in-target']} ({cc['extra-in-target']}) | "
              f"{mc['slot-differs']} ({cc['slot-differs']}) | {sev['high']} / {sev['medium']} / {sev['low']} | "
              f"{cc['truncated-text']} | {cc['empty-text']} | {one_side} | {dt:.1f} |")
    print("\nmismatches (cards) per kind; severity counts condition mismatches only.\n")
    print("| run | mismatch | condition group | slot | count |")
    print("|---|---|---|---|---:|")
    for label, rep, _ in results:
        c = collections.Counter((m.kind, m.condition or "", m.slot or "") for x in rep.cards for m in x.mismatches
                                if m.kind in MISMATCH_KINDS)
        for (k, g, s), n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"| {label} | {k} | {g} | {s} | {n} |")
    if args.sample:
        pool = []
        for label, rep, _ in results:
            for card in rep.cards:
                for m in card.mismatches:
                    if m.kind in MISMATCH_KINDS:
                        pool.append((label, card, m))
        rnd = random.Random(args.seed)
        pick = rnd.sample(pool, min(args.sample, len(pool)))
        with open(args.sample_out, "wb") as f:
            for n, (label, card, m) in enumerate(pick, 1):
                f.write(orjson.dumps({"n": n, "run": label, "id": card.id, "name": card.name,
                                      "mismatch": m.model_dump(mode="json"), "source_text": card.source_text,
                                      "target_text": card.target_text, "source_pendulum": card.source_pendulum,
                                      "target_pendulum": card.target_pendulum}) + b"\n")
        print(f"\nsample of {len(pick)} of {len(pool)} condition mismatches (seed {args.seed}) -> {args.sample_out}")
        if args.sample_md:
            with open(args.sample_md, "w", encoding="utf-8") as f:
                f.write(f"# Sample of {len(pick)} of {len(pool)} condition mismatches (runs {args.runs}, seed {args.seed}"
                        f"{', excluding ' + args.exclude_ids if args.exclude_ids else ''})\n\n"
                        "How to judge: docs/validate-judged/JUDGING.md. Verdict: **real** / **tool error**, one-line reason.\n\n"
                        "| n | id, card | run | mismatch (kind, condition, slot: values) | sev | verdict |\n"
                        "|---|---|---|---|---|---|\n")
                for n, (label, card, m) in enumerate(pick, 1):
                    what = f"{m.kind} {m.condition}" + (f" {m.slot}: {m.source_value} vs {m.target_value}" if m.slot else "")
                    f.write(f"| {n} | {card.id} {_flat(card.name or '')} | {label} | {_flat(what)} | {m.severity} |  |\n")
                f.write("\n")
                for n, (label, card, m) in enumerate(pick, 1):
                    f.write(f"### {n}. {card.id} {card.name} ({label})\n\n")
                    f.write(f"`{m.kind}` `{m.condition}`" + (f" slot `{m.slot}`: {m.source_value} vs {m.target_value}" if m.slot else "")
                            + f", severity {m.severity}\n\n")
                    for side, span, text, pend, fld in (("source", m.source_span, card.source_text, card.source_pendulum, m.source_in),
                                                        ("target", m.target_span, card.target_text, card.target_pendulum, m.target_in)):
                        t = (pend if fld == "pendulum_effect" else text) or ""
                        if span:
                            a, b = span
                            f.write(f"- {side}: …{_flat(t[max(0, a - 60):a])}**{_flat(t[a:b])}**{_flat(t[b:b + 80])}…\n")
                        else:
                            f.write(f"- {side} (nothing found): {_flat(t[:400])}{'…' if len(t) > 400 else ''}\n")
                    for side, text, pend in (("source", card.source_text, card.source_pendulum),
                                             ("target", card.target_text, card.target_pendulum)):
                        f.write(f"- full {side} text: {_flat(text or '')}\n")
                        if pend:
                            f.write(f"- full {side} Pendulum Effect: {_flat(pend)}\n")
                    f.write("- verdict: \n\n")
            print(f"markdown skeleton -> {args.sample_md}")
    _ = CARD_PROBLEM_KINDS


if __name__ == "__main__":
    main()
