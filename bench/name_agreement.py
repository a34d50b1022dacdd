#!/usr/bin/env python3
"""Named Fusion Materials across translations: do the Chinese names resolve to the same cards as the English?

    .venv/bin/python bench/name_agreement.py          # tags yaml-yugi en and zh-CN, prints the figures
    .venv/bin/python bench/name_agreement.py --save   # also bench/results/name_agreement.md

A precision check of the name resolution (``extractor/names.py``: the input's names, then the alias
table of older names, then loosely) that needs no gold: the same Fusion Monster names the same
cards in every faithful translation, so on yaml-yugi every passcode its zh-CN material line resolves
to should be one its English line resolves to.  Tags ../shared/data/yaml-yugi/cards.jsonl with the
real command line in ``en`` and ``zh-CN`` and prints, per language, the Fusion lines that name cards
and those whose every name resolved; then, over the lines both languages have, how many resolve to
the same passcodes and each zh-CN passcode the English line lacks (a wrong resolution, or an English
name no database holds), with both lines.  Figures are printed, never asserted; a missing ../shared
exits with a message (status 2).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import YAML_YUGI, finish, rel, require_shared, run_child, tag_args  # noqa: E402


def named_lines(path: Path) -> dict[int, tuple[list[str], list[int]]]:
    """passcode -> (named_names, named_materials) of each Fusion line that names cards."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            for m in d.get("materials") or []:
                if d.get("id") and m.get("summon") == "fusion" and m.get("named_names"):
                    out[d["id"]] = (m["named_names"], m.get("named_materials") or [])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--save", action="store_true", help="also write bench/results/name_agreement.md")
    a = ap.parse_args(argv)
    require_shared(YAML_YUGI)
    lines: dict[str, dict] = {}
    cmds = []
    with tempfile.TemporaryDirectory(prefix="ygo-names-") as d:
        for lang in ("en", "zh-CN"):
            out = Path(d) / f"tag.{lang}.jsonl"
            r = run_child(tag_args(YAML_YUGI, lang, out, "--compact"), one_core=False)
            if r.returncode != 0:
                sys.exit(f"tag failed for {lang} (exit {r.returncode}):\n{r.stderr[-2000:]}")
            lines[lang] = named_lines(out)
            cmds.append(f".venv/bin/python -m extractor.cli tag {rel(YAML_YUGI)} --lang {lang} --compact -o tag.{lang}.jsonl")
    en, zh = lines["en"], lines["zh-CN"]
    o = ["# Named Fusion Materials: zh-CN against English on yaml-yugi", "",
         "| | en | zh-CN |", "|---|---:|---:|"]
    o.append(f"| Fusion lines naming cards | {len(en)} | {len(zh)} |")
    full = [sum(len(ids) == len(set(names)) for names, ids in x.values()) for x in (en, zh)]
    o.append(f"| every name resolved | {full[0]} | {full[1]} |")
    both = sorted(set(en) & set(zh))
    same = sum(sorted(en[i][1]) == sorted(zh[i][1]) for i in both)
    extra = [i for i in both if set(zh[i][1]) - set(en[i][1])]
    o += ["", f"Lines in both languages: {len(both)}; the same passcodes: {same}; a zh-CN passcode the English line "
          f"lacks: {len(extra)}.", ""]
    for i in extra:
        o.append(f"- {i}: zh-CN {zh[i][0]} -> {zh[i][1]}; en {en[i][0]} -> {en[i][1]}")
    o += ["", "Commands:", ""]
    return finish(o, cmds, "name_agreement.md", a.save)


if __name__ == "__main__":
    sys.exit(main())
