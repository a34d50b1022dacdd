#!/usr/bin/env python3
"""Accuracy of ``tag`` against the evaluation labels, per language.

    ./dev accuracy                       # = .venv/bin/python bench/accuracy.py
    .venv/bin/python bench/accuracy.py --save      # also bench/results/accuracy.md

Tags ../shared/data/yaml-yugi/cards.jsonl with the real command line (a subprocess:
``python -m extractor.cli tag FILE --lang L --compact -o TMP``) in

- ``en``    scored against ``labels-dev.jsonl``;
- ``zh-CN`` scored against ``labels-dev.zh-CN.jsonl``;
- ``zh-TW`` = OpenCC s2tw conversions of the zh-CN texts (temp file, cached), scored against
  ``labels-dev.zh-CN.jsonl`` (Chinese in either script is scored against the zh-CN labels);
- ``ja``    scored against ``labels-dev.ja.jsonl``;

then runs ``../shared/eval/score.py --labels ... --pred TMP --json`` for each and prints one
markdown table (macro-F1, micro-F1 with P/R, micro-F1 on covered cards, coverage, error lines,
the worst tags) and the commands.  Labels are only read by the scorer; nothing from them goes into
the product.  Needs ../shared; exits with a message if it is absent.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import SHARED, YAML_YUGI, rel, require_shared, run_child, finish, s2tw_yaml_yugi, tag_args  # noqa: E402

EVAL = SHARED / "eval"
SCORE = EVAL / "score.py"
RUNS = [  # (lang, labels file)
    ("en", EVAL / "labels-dev.jsonl"),
    ("zh-CN", EVAL / "labels-dev.zh-CN.jsonl"),
    ("zh-TW", EVAL / "labels-dev.zh-CN.jsonl"),
    ("ja", EVAL / "labels-dev.ja.jsonl"),
]


def _f(x) -> str:
    return "-" if x is None else f"{x:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", action="append", choices=[r[0] for r in RUNS], help="only this language (repeatable)")
    ap.add_argument("--save", action="store_true", help="also write bench/results/accuracy.md")
    ap.add_argument("--keep", metavar="DIR", help="keep the prediction files in DIR")
    a = ap.parse_args(argv)
    runs = [r for r in RUNS if not a.lang or r[0] in a.lang]
    require_shared(YAML_YUGI, SCORE, *(lab for _, lab in runs))
    results = []
    cmds = []
    with tempfile.TemporaryDirectory(prefix="ygo-accuracy-") as d:
        outdir = Path(a.keep) if a.keep else Path(d)
        outdir.mkdir(parents=True, exist_ok=True)
        for lang, labels in runs:
            src = YAML_YUGI
            if lang == "zh-TW":
                print("preparing zh-TW texts (OpenCC s2tw of zh-CN, cached) ...", file=sys.stderr)
                src = s2tw_yaml_yugi()
            pred = outdir / f"pred.{lang}.jsonl"
            print(f"  tag --lang {lang} ...", file=sys.stderr)
            r = run_child(tag_args(src, lang, pred, "--compact"), one_core=False)
            if r.returncode != 0:
                sys.exit(f"tag failed for {lang} (exit {r.returncode}):\n{r.stderr[-2000:]}")
            sc = subprocess.run([sys.executable, str(SCORE), "--labels", str(labels), "--pred", str(pred), "--json"],
                                capture_output=True, text=True)
            if sc.returncode != 0:
                sys.exit(f"score.py failed for {lang} (exit {sc.returncode}):\n{sc.stderr[-2000:]}")
            res = json.loads(sc.stdout)
            results.append((lang, labels, res, r.wall))
            src_s = rel(src) if lang != "zh-TW" else "ZH_TW_S2TW.jsonl"
            cmds.append(f".venv/bin/python -m extractor.cli tag {src_s} --lang {lang} --compact -o pred.{lang}.jsonl")
            cmds.append(f"python3 {rel(SCORE)} --labels {rel(labels)} --pred pred.{lang}.jsonl --json")

    o = ["# Accuracy of `tag` on yaml-yugi against ../shared/eval labels (dev split)", ""]
    o.append(f"{time.strftime('%Y-%m-%d %H:%M')}; zh-TW = OpenCC s2tw of the zh-CN texts, scored against the zh-CN labels.")
    o.append("")
    o.append("| lang | labels | macro-F1 | micro-F1 (P / R) | micro-F1 covered | coverage | error lines | tag s |")
    o.append("|---|---|---:|---|---:|---:|---:|---:|")
    for lang, labels, res, secs in results:
        m = res["micro"]
        o.append(f"| {lang} | {labels.name} ({res['cards']:,}) | {_f(res['macro_f1'])} | {_f(m['f1'])} "
                 f"({_f(m['precision'])} / {_f(m['recall'])}) | {_f(res['micro_f1_covered_only'])} | "
                 f"{100 * (res['coverage'] or 0):.1f}% | {res['pred_file']['error_lines']:,} | {secs:.1f} |")
    o.append("")
    o.append("Worst tags (lowest F1 among the macro-averaged tags, support >= "
             f"{results[0][2]['macro_min_support'] if results else 10}):")
    o.append("")
    o.append("| lang | worst tags (F1; TP/FP/FN) |")
    o.append("|---|---|")
    for lang, _, res, _ in results:
        parts = []
        for w in res["worst_tags"]:
            t = res["tags"][w["tag"]]
            parts.append(f"{w['tag']} {_f(w['f1'])} ({t['tp']}/{t['fp']}/{t['fn']})")
        o.append(f"| {lang} | " + "; ".join(parts) + " |")
    o.append("")
    o.append("Commands (ZH_TW_S2TW.jsonl: yaml-yugi with text/pendulum_effect zh-TW = s2tw(zh-CN), "
             "made by `bench/_common.py:s2tw_yaml_yugi`):")
    o.append("")
    return finish(o, cmds, "accuracy.md", a.save)


if __name__ == "__main__":
    sys.exit(main())
