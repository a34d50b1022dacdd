#!/usr/bin/env python3
"""Structure scores of ``tag`` against ../shared/eval/structure-dev.jsonl, per language.

    .venv/bin/python bench/structure_score.py                 # en, zh-CN, zh-TW, ja
    .venv/bin/python bench/structure_score.py --lang en       # one language
    .venv/bin/python bench/structure_score.py --save          # also bench/results/structure.md

Tags ../shared/data/yaml-yugi/cards.jsonl with the real command line (a subprocess:
``python -m extractor.cli tag FILE --lang L --compact -o TMP``) in ``en``, ``zh-CN``, ``zh-TW``
(OpenCC s2tw of the zh-CN names and texts: ``_common.s2tw_yaml_yugi``, as ``bench/accuracy.py``;
the names that named Fusion Materials resolve through must be the same cards' names in the same
wording, not yaml-yugi's separate Taiwanese names) and ``ja`` (yaml-yugi's Japanese texts and
names, the same ids; issue 11), drops the lines without an id
(``score_structure.py`` cannot read them), runs ``../shared/eval/score_structure.py GOLD PRED
--json`` for each and prints one markdown table: detection F1 per part (procedures, materials per
Summon kind, tribute_rules), every field accuracy and the overall P / R / F1.  The gold is only
read by the scorer; nothing from it goes into the product.  Needs ../shared; exits with a
message if it is absent.
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

from _common import SHARED, YAML_YUGI, finish, rel, require_shared, run_child, s2tw_yaml_yugi, tag_args  # noqa: E402

EVAL = SHARED / "eval"
GOLD = EVAL / "structure-dev.jsonl"
SCORE = EVAL / "score_structure.py"
LANGS = ("en", "zh-CN", "zh-TW", "ja")
DETECTION = ("procedures", "materials:fusion", "materials:synchro", "materials:xyz", "materials:link",
             "tribute_rules")


def _f(x) -> str:
    return "-" if x is None else f"{x:.3f}"


def drop_idless(src: Path, dst: Path) -> int:
    """Copy the JSONL ``src`` to ``dst`` without the lines whose ``id`` is null or absent;
    returns how many were dropped."""
    dropped = 0
    with open(src, encoding="utf-8") as f, open(dst, "w", encoding="utf-8") as g:
        for line in f:
            if not line.strip():
                continue
            if json.loads(line).get("id") is None:
                dropped += 1
                continue
            g.write(line)
    return dropped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", action="append", choices=LANGS, help="only this language (repeatable)")
    ap.add_argument("--save", action="store_true", help="also write bench/results/structure.md")
    ap.add_argument("--keep", metavar="DIR", help="keep the prediction files in DIR")
    a = ap.parse_args(argv)
    langs = [x for x in LANGS if not a.lang or x in a.lang]
    require_shared(YAML_YUGI, GOLD, SCORE)
    results = []
    cmds = []
    with tempfile.TemporaryDirectory(prefix="ygo-structure-") as d:
        outdir = Path(a.keep) if a.keep else Path(d)
        outdir.mkdir(parents=True, exist_ok=True)
        for lang in langs:
            src = YAML_YUGI
            if lang == "zh-TW":
                print("preparing zh-TW texts (OpenCC s2tw of zh-CN, cached) ...", file=sys.stderr)
                src = s2tw_yaml_yugi()
            raw = outdir / f"tag.{lang}.jsonl"
            pred = outdir / f"pred.{lang}.jsonl"
            print(f"  tag --lang {lang} ...", file=sys.stderr)
            r = run_child(tag_args(src, lang, raw, "--compact"), one_core=False)
            if r.returncode != 0:
                sys.exit(f"tag failed for {lang} (exit {r.returncode}):\n{r.stderr[-2000:]}")
            dropped = drop_idless(raw, pred)
            sc = subprocess.run([sys.executable, str(SCORE), str(GOLD), str(pred), "--json"],
                                capture_output=True, text=True)
            if sc.returncode != 0:
                sys.exit(f"score_structure.py failed for {lang} (exit {sc.returncode}):\n{sc.stderr[-2000:]}")
            results.append((lang, json.loads(sc.stdout), dropped))
            src_s = rel(src) if lang != "zh-TW" else "ZH_TW_S2TW.jsonl"
            cmds.append(f".venv/bin/python -m extractor.cli tag {src_s} --lang {lang} --compact -o tag.{lang}.jsonl")
            cmds.append(f"(drop the lines with \"id\": null) tag.{lang}.jsonl -> pred.{lang}.jsonl")
            cmds.append(f"python3 {rel(SCORE)} {rel(GOLD)} pred.{lang}.jsonl --json")

    o = ["# Structure scores of `tag` on yaml-yugi against ../shared/eval/structure-dev.jsonl (dev split)", ""]
    o.append(f"{time.strftime('%Y-%m-%d %H:%M')}; zh-TW = OpenCC s2tw of the zh-CN texts and names; lines without "
             "an id are dropped before scoring.")
    o.append("")
    head = "| | " + " | ".join(langs) + " |"
    o.append(head)
    o.append("|---|" + "---:|" * len(langs))
    o.append("| cards scored | " + " | ".join(f"{res['cards']:,}" for _, res, _ in results) + " |")
    for part in DETECTION:
        cells = []
        for _, res, _ in results:
            det = res["detection"].get(part)
            cells.append("-" if det is None else f"{_f(det['f1'])} ({det['tp']}/{det['fp']}/{det['fn']})")
        o.append(f"| detection F1 {part} (tp/fp/fn) | " + " | ".join(cells) + " |")
    fields = list(dict.fromkeys(k for _, res, _ in results for k in res["fields"]))
    for fld in fields:
        cells = []
        for _, res, _ in results:
            v = res["fields"].get(fld)
            cells.append("-" if v is None else f"{_f(v['accuracy'])} ({v['correct']}/{v['graded']})")
        o.append(f"| field {fld} | " + " | ".join(cells) + " |")
    o.append("| overall P / R | " + " | ".join(f"{_f(res['overall']['precision'])} / {_f(res['overall']['recall'])}"
                                             for _, res, _ in results) + " |")
    o.append("| **overall F1** | " + " | ".join(f"**{_f(res['overall']['f1'])}**" for _, res, _ in results) + " |")
    o.append("| id-less lines dropped | " + " | ".join(str(dr) for _, _, dr in results) + " |")
    o.append("")
    o.append("Commands (ZH_TW_S2TW.jsonl: yaml-yugi with text/pendulum_effect/name zh-TW = s2tw(zh-CN), "
             "made by `bench/_common.py:s2tw_yaml_yugi`):")
    o.append("")
    return finish(o, cmds, "structure.md", a.save)


if __name__ == "__main__":
    sys.exit(main())
