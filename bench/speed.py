#!/usr/bin/env python3
"""Speed of the whole ``tag`` run on yaml-yugi, next to a plain ``regex`` scan of the same texts.

    ./dev bench                      # = .venv/bin/python bench/speed.py
    .venv/bin/python bench/speed.py --repeat 3 --save   # best of 3; also bench/results/speed.md

For each language (en, zh-CN, and zh-TW = OpenCC s2tw conversions of the zh-CN texts, written to a
temp file first and not timed) it runs, as SUBPROCESSES pinned to one CPU core:

1. pipeline: ``python -m extractor.cli tag ../shared/data/yaml-yugi/cards.jsonl --lang L -o TMP``
   -- the real command line (interpreter start, imports, catalog compile, read, normalize, match,
   profile, tags, JSONL written atomically to a temp file);
2. plain: ``python bench/speed.py --plain-worker ...`` -- reads the same file the same way
   (orjson per line, ``text[L]`` and ``pendulum_effect[L]``), scans each text with ONE compiled
   ``regex`` alternation of literal phrases and writes ``{"id", "hits"}`` JSONL to a temp file.

The plain scan's phrases come from the pattern catalog (``patterns/<lang>/*.yaml``): for every
``match`` example of every pattern, the text that pattern itself matches in the (normalized)
example, cut before the first quote (card names) and trimmed; phrases shorter than 4 characters
(English) or 3 (Chinese) are dropped.  For zh-TW the s2tw forms of the Chinese phrases are added.
(The catalog has no ``requires`` lists to use instead.)  The phrase list is built by this script
before timing and handed to the worker in a file.

Printed per run: cards (input lines, error lines included), wall and CPU seconds, cards/s,
seconds for 14,000 cards, peak RSS of the child (``os.wait4`` rusage); per language the ratio
pipeline cards/s / plain cards/s (target >= 0.3) and whether 14k cards take < 10 s.  Figures are
printed, never asserted.  Needs ../shared; exits with a message if it is absent.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

CARDS_TARGET = 14_000
LANGS = ("en", "zh-CN", "zh-TW")


# -- the plain scan (worker process: imports nothing of the project) ----------------------------

def plain_worker(src: str, lang: str, phrases_file: str, out: str) -> None:
    import orjson
    import regex

    phrases = json.loads(Path(phrases_file).read_text(encoding="utf-8"))
    rx = regex.compile("|".join(regex.escape(p) for p in sorted(phrases, key=len, reverse=True)))
    n = hits = 0
    with open(src, "rb") as f, open(out, "wb") as g:
        for line in f:
            if not line.strip():
                continue
            n += 1
            d = orjson.loads(line)
            found = []
            for field in ("text", "pendulum_effect"):
                t = (d.get(field) or {}).get(lang)
                if t:
                    found.extend([m.start(), m.end(), m.group()] for m in rx.finditer(t))
            hits += len(found)
            g.write(orjson.dumps({"id": d.get("password"), "hits": found}) + b"\n")
    print(f"cards {n}, hits {hits}", file=sys.stderr)


# -- phrases from the catalog -------------------------------------------------------------------

def catalog_phrases(lang: str) -> list[str]:
    """Literal phrases for the plain scan (see the module docstring)."""
    import regex

    from extractor.normalize import lang_family, normalize
    from extractor.patterns import load_catalog

    fam = lang_family(lang)
    cut = regex.compile(r'["「『“]')
    out: list[str] = []
    for p in load_catalog().by_lang.get(fam, []):
        for ex in p.examples_match:
            m = p.regex.search(normalize(ex["text"], fam).text)
            if not m:
                continue
            s = cut.split(m.group(0), 1)[0].strip(" ,.;:()、，。：；（）")
            if len(s) >= (4 if fam == "en" else 3) and s not in out:
                out.append(s)
    if lang.lower() == "zh-tw":
        from opencc import OpenCC
        conv = OpenCC("s2tw")
        out += [t for t in (conv.convert(s) for s in out) if t not in out]
    return out


# -- the benchmark ------------------------------------------------------------------------------

def _cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git() -> str:
    from _common import ROOT
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        return rev + (" (+ uncommitted changes)" if dirty else "")
    except OSError:
        return "?"


def _count_lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for line in f if line.strip())


def bench(repeat: int, langs: list[str]) -> str:
    from _common import YAML_YUGI, rel, require_shared, run_child, s2tw_yaml_yugi, tag_args

    require_shared(YAML_YUGI)
    rows = []
    summary = []
    commands = []
    with tempfile.TemporaryDirectory(prefix="ygo-bench-") as tmpd:
        tmp = Path(tmpd)
        for lang in langs:
            src = YAML_YUGI
            if lang == "zh-TW":
                print("preparing zh-TW texts (OpenCC s2tw of zh-CN, cached, not timed) ...", file=sys.stderr)
                src = s2tw_yaml_yugi()
            try:
                phrases = catalog_phrases(lang)
            except ValueError as e:  # PatternError: a pattern file does not load
                sys.exit(f"speed.py: the pattern catalog does not load ({e}); nothing was timed.")
            pf = tmp / f"phrases.{lang}.json"
            pf.write_text(json.dumps(phrases, ensure_ascii=False), encoding="utf-8")
            out_p, out_r = tmp / f"tag.{lang}.jsonl", tmp / f"plain.{lang}.jsonl"
            pipe_cmd = tag_args(src, lang, out_p)
            plain_cmd = [str(Path(__file__).resolve()), "--plain-worker", str(src), lang, str(pf), str(out_r)]
            commands += [" ".join([".venv/bin/python", "-m", "extractor.cli", "tag", rel(src), "--lang", lang,
                                   "-o", "OUT.jsonl", "--no-progress"])]
            best = {}
            for name, cmd, out in (("pipeline", pipe_cmd, out_p), ("plain regex", plain_cmd, out_r)):
                runs = []
                for _ in range(repeat):
                    print(f"  {lang:6} {name} ...", file=sys.stderr)
                    r = run_child(cmd)
                    if r.returncode != 0:
                        sys.exit(f"{name} run for {lang} failed (exit {r.returncode}):\n{r.stderr[-2000:]}")
                    runs.append(r)
                r = min(runs, key=lambda x: x.wall)
                n = _count_lines(out)
                cli_s = None
                if name == "pipeline":
                    last = [l for l in r.stderr.splitlines() if l.startswith("cards ")]
                    if last and "seconds" in last[-1]:
                        cli_s = float(last[-1].rsplit("seconds", 1)[1])
                best[name] = (r, n, cli_s)
                rows.append((lang, name, n, r.wall, r.cpu, n / r.wall, r.wall * CARDS_TARGET / n, r.maxrss_mib,
                             cli_s, len(phrases) if name != "pipeline" else None))
            (rp, n_p, _), (rr, n_r, _) = best["pipeline"], best["plain regex"]
            ratio = (n_p / rp.wall) / (n_r / rr.wall)
            ratio_cpu = (n_p / rp.cpu) / (n_r / rr.cpu)
            summary.append((lang, ratio, ratio_cpu, rp.wall * CARDS_TARGET / n_p, rp.cpu * CARDS_TARGET / n_p))

    o = ["# Speed: `tag` on yaml-yugi vs a plain regex scan", ""]
    o.append(f"{time.strftime('%Y-%m-%d %H:%M')}, commit {_git()}, Python {platform.python_version()}, {_cpu_model()}; "
             f"each run a subprocess pinned to one CPU core; best wall time of {repeat}.")
    o.append("")
    o.append("| lang | run | cards | wall s | CPU s | cards/s | s per 14k cards | peak RSS MiB | note |")
    o.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for lang, name, n, wall, cpu, cps, per14k, rss, cli_s, nph in rows:
        note = (f"tag's own timer (after start-up): {cli_s:.2f} s" if cli_s is not None
                else f"{nph} phrases in one alternation")
        o.append(f"| {lang} | {name} | {n:,} | {wall:.2f} | {cpu:.2f} | {cps:,.0f} | {per14k:.2f} | {rss:.0f} | {note} |")
    o.append("")
    o.append("| lang | pipeline/plain cards/s, wall (target >= 0.3) | same, CPU time | pipeline s per 14k cards, wall "
             "(target < 10) | same, CPU time |")
    o.append("|---|---:|---:|---:|---:|")
    for lang, ratio, ratio_cpu, per14k, per14k_cpu in summary:
        o.append(f"| {lang} | {ratio:.2f} {'ok' if ratio >= 0.3 else 'BELOW'} | {ratio_cpu:.2f} | "
                 f"{per14k:.2f} {'ok' if per14k < 10 else 'ABOVE'} | {per14k_cpu:.2f} |")
    o.append("")
    o.append("Wall time includes interpreter start-up and imports; CPU time (user+sys of the child) is the "
             "steadier figure when other work shares the machine.  Peak RSS = the child's own VmHWM.")
    o.append("")
    o.append("Commands (pipeline runs; the plain scan is `bench/speed.py --plain-worker FILE LANG PHRASES.json OUT`):")
    o.append("")
    o.append("```")
    o += commands
    o.append("```")
    return "\n".join(o) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1, help="runs per measurement; the fastest counts (default 1)")
    ap.add_argument("--lang", action="append", choices=LANGS, help="only this language (repeatable)")
    ap.add_argument("--save", action="store_true", help="also write bench/results/speed.md")
    ap.add_argument("--plain-worker", nargs=4, metavar=("FILE", "LANG", "PHRASES", "OUT"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.plain_worker:
        plain_worker(*a.plain_worker)
        return 0
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    text = bench(max(1, a.repeat), a.lang or list(LANGS))
    print(text)
    if a.save:
        from _common import save
        print(f"saved {save('speed.md', text)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
