#!/usr/bin/env python3
"""Speed of the whole ``tag`` run on yaml-yugi, next to a plain ``regex`` scan of the same texts.

    ./dev bench                      # = .venv/bin/python bench/speed.py (3 repeats, medians)
    .venv/bin/python bench/speed.py --repeat 5 --save    # also bench/results/speed.md
    .venv/bin/python bench/speed.py --stages zh-CN       # where the time of one run goes
    .venv/bin/python bench/speed.py --patterns zh-CN     # what each pattern of the catalog costs
    .venv/bin/python bench/speed.py --jobs 2             # also: tag --jobs 2 against --jobs 1

For each language (en, zh-CN, ja, and zh-TW = OpenCC s2tw conversions of the zh-CN texts, written to a
temp file first and not timed) it runs, as SUBPROCESSES pinned to one CPU core, in turn
(pipeline, plain, pipeline, plain, ...; ``--repeat`` pairs):

1. pipeline: ``python -m extractor.cli tag ../shared/data/yaml-yugi/cards.jsonl --lang L -o TMP``
   -- the real command line (interpreter start, imports, catalog load, read, normalize, match,
   profile, tags, JSONL written atomically to a temp file);
2. plain: ``python bench/speed.py --plain-worker ...`` -- reads the same file the same way
   (orjson per line, ``text[L]`` and ``pendulum_effect[L]``), scans each text with ONE compiled
   ``regex`` alternation of literal phrases and writes ``{"id", "hits"}`` JSONL to a temp file.

The plain scan's phrases come from the pattern catalog (``patterns/<lang>/*.yaml``): for every
``match`` example of every pattern, the text that pattern itself matches in the (normalized)
example, cut before the first quote (card names) and trimmed; phrases shorter than 4 characters
(English) or 3 (Chinese) are dropped.  For zh-TW the s2tw forms of the Chinese phrases are added.
The phrase list is built by this script before timing and handed to the worker in a file.  (Building
it loads the catalog once, so the timed runs start with the compiled catalog in the user's cache
folder, as every run after the first does.)  Before timing it also writes the project's bytecode (``compileall``), as ``pip install``
does for an installed copy (see ``_common.compile_bytecode``).

Printed per run kind: cards (input lines, error lines included), the MEDIAN wall and CPU seconds of
the repeats (min-max after them), cards/s, seconds for 14,000 cards, peak RSS of the child (its own
VmHWM); per language the ratio pipeline cards/s / plain cards/s (targets: >= 0.5 in Chinese, >= 0.9
in English), by wall time and by CPU time, each the median of the ratios of the pairs.  Then the
CLI cold start: ``ygo-extractor --version`` and one ``explain`` (targets < 0.3 s and < 0.8 s wall),
and with ``--jobs N`` the wall time of ``tag --jobs N`` against ``--jobs 1`` (not pinned: that is
the point), reported apart from the ratio.  With ``--floor``, also ``tag`` with each card's analysis
replaced by the shared no-condition result (start-up, reading, the name table, the sidecar's
hashes, writing: the part no tuning of the analysis can take away) and its ratio to the plain scan,
the most the pipeline's ratio could reach.  Figures are printed, never asserted.  Needs ../shared;
exits with a message if it is absent.
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
LANGS = ("en", "zh-CN", "zh-TW", "ja")


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


def floor_worker(src: str, lang: str, out: str) -> None:
    """``tag`` with the analysis of each card replaced by the shared no-condition result: start-up,
    reading, the name table, the sidecar's hashes and writing, without normalizing, matching,
    objects or coverage.  What no tuning of the analysis can take away (``--floor``)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import extractor.pipeline as P

    def no_analysis(card, catalog=None, names=None):
        return P._new_result({"id": card.id, "name": card.name, "lang": card.lang, "tags": [],
                              "tributes": None, "profile": P.build_profile([], card.frame), "registers": None,
                              "coverage": "complete", "unread": [], "warnings": []})

    P.analyze = no_analysis  # before the command line imports it
    from extractor.cli import run

    sys.argv = ["ygo-extractor", "tag", src, "--lang", lang, "-o", out, "--no-progress"]
    run()


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


TARGETS = {"en": 0.9, "zh-CN": 0.5, "zh-TW": 0.5}
EXPLAIN_TEXT = ("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by having exactly 3 DARK "
                "monsters in your GY.")


def _median(xs: list[float]) -> float:
    import statistics
    return statistics.median(xs)


def _spread(xs: list[float]) -> str:
    return f"{min(xs):.2f}-{max(xs):.2f}" if len(xs) > 1 else ""


def _cold_start(repeat: int) -> list[tuple[str, list]]:
    """``ygo-extractor --version`` and one ``explain``: wall and CPU of each run (pinned)."""
    from _common import run_child

    out = []
    for name, args in (("ygo-extractor --version", ["-m", "extractor.cli", "--version"]),
                       ("ygo-extractor explain TEXT --type \"Dragon / Effect\" --level 7",
                        ["-m", "extractor.cli", "explain", EXPLAIN_TEXT, "--type", "Dragon / Effect", "--level", "7"])):
        runs = []
        for _ in range(max(repeat, 5)):
            r = run_child(args)
            if r.returncode != 0:
                sys.exit(f"{name} failed (exit {r.returncode}):\n{r.stderr[-2000:]}")
            runs.append(r)
        out.append((name, runs))
    return out


def _jobs(jobs: int, repeat: int, tmp: Path) -> list[tuple[str, int, list]]:
    """``tag --jobs N`` against ``--jobs 1`` on yaml-yugi zh-CN (not pinned; outputs compared)."""
    from _common import YAML_YUGI, run_child, tag_args

    rows = []
    outs = {}
    for n in (1, jobs):
        runs = []
        for _ in range(repeat):
            out = tmp / f"jobs{n}.jsonl"
            r = run_child(tag_args(YAML_YUGI, "zh-CN", out, "--jobs", str(n)), one_core=False)
            if r.returncode != 0:
                sys.exit(f"tag --jobs {n} failed (exit {r.returncode}):\n{r.stderr[-2000:]}")
            runs.append(r)
            outs[n] = out.read_bytes()
        rows.append(("zh-CN", n, runs))
    if outs[1] != outs[jobs]:
        sys.exit(f"tag --jobs {jobs} wrote another output than --jobs 1")
    return rows


def bench(repeat: int, langs: list[str], jobs: int = 0, cold: bool = True, floor: bool = False) -> str:
    from _common import YAML_YUGI, compile_bytecode, rel, require_shared, run_child, s2tw_yaml_yugi, tag_args

    require_shared(YAML_YUGI)
    compile_bytecode()  # as an installed copy has it (see _common.compile_bytecode)
    rows = []
    summary = []
    floors: list[tuple[str, float]] = []  # (lang, floor/plain cards/s): with --floor
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
            kinds = (("pipeline", tag_args(src, lang, out_p), out_p),
                     ("plain regex", [str(Path(__file__).resolve()), "--plain-worker", str(src), lang, str(pf), str(out_r)], out_r))
            if floor:  # tag without the analysis (floor_worker): what tuning the analysis cannot reach
                out_f = tmp / f"floor.{lang}.jsonl"
                kinds += (("floor (no analysis)", [str(Path(__file__).resolve()), "--floor-worker", str(src), lang, str(out_f)], out_f),)
            commands += [" ".join([".venv/bin/python", "-m", "extractor.cli", "tag", rel(src), "--lang", lang,
                                   "-o", "OUT.jsonl", "--no-progress"])]
            runs: dict[str, list] = {name: [] for name, _cmd, _out in kinds}
            for _ in range(repeat):  # in turn, so that a slower spell of the machine hits both
                for name, cmd, _out in kinds:
                    print(f"  {lang:6} {name} ...", file=sys.stderr)
                    r = run_child(cmd)
                    if r.returncode != 0:
                        sys.exit(f"{name} run for {lang} failed (exit {r.returncode}):\n{r.stderr[-2000:]}")
                    runs[name].append(r)
            n = {name: _count_lines(out) for name, _cmd, out in kinds}
            for name, _cmd, _out in kinds:
                rs = runs[name]
                wall, cpu = [r.wall for r in rs], [r.cpu for r in rs]
                cli_s = None
                if name == "pipeline":
                    secs = [float(l.rsplit("seconds", 1)[1]) for r in rs for l in r.stderr.splitlines()
                            if l.startswith("cards ") and "seconds" in l]
                    cli_s = _median(secs) if secs else None
                rows.append((lang, name, n[name], _median(wall), _spread(wall), _median(cpu), n[name] / _median(wall),
                             _median(wall) * CARDS_TARGET / n[name], max(r.maxrss_mib for r in rs), cli_s,
                             len(phrases) if name == "plain regex" else None))
            pairs = list(zip(runs["pipeline"], runs["plain regex"]))
            ratio = _median([(n["pipeline"] / a.wall) / (n["plain regex"] / b.wall) for a, b in pairs])
            ratio_cpu = _median([(n["pipeline"] / a.cpu) / (n["plain regex"] / b.cpu) for a, b in pairs])
            p_wall = _median([a.wall for a, _ in pairs])
            summary.append((lang, ratio, ratio_cpu, p_wall * CARDS_TARGET / n["pipeline"]))
            if floor:
                fl = "floor (no analysis)"
                floors.append((lang, _median([(n[fl] / a.wall) / (n["plain regex"] / b.wall)
                                              for a, b in zip(runs[fl], runs["plain regex"])])))
        cold_rows = _cold_start(repeat) if cold else []
        job_rows = _jobs(jobs, repeat, tmp) if jobs > 1 else []

    o = ["# Speed: `tag` on yaml-yugi vs a plain regex scan", ""]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    o.append(f"{time.strftime('%Y-%m-%d %H:%M')}, commit {_git()}, Python {platform.python_version()}, {_cpu_model()}, "
             f"{os.cpu_count()} cores, load average {load:.1f} at the end; each run a subprocess pinned to one CPU core; "
             f"median of {repeat} (pipeline and plain scan run in turn).")
    o.append("")
    o.append("| lang | run | cards | wall s (median) | wall min-max | CPU s (median) | cards/s (wall) | s per 14k cards | peak RSS MiB | note |")
    o.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for lang, name, n_, wall, spread, cpu, cps, per14k, rss, cli_s, nph in rows:
        note = (f"tag's own timer (after start-up): {cli_s:.2f} s" if cli_s is not None
                else f"{nph} phrases in one alternation" if nph is not None
                else "tag with each card's analysis replaced by the shared no-condition result")
        o.append(f"| {lang} | {name} | {n_:,} | {wall:.2f} | {spread} | {cpu:.2f} | {cps:,.0f} | {per14k:.2f} | {rss:.0f} | {note} |")
    o.append("")
    o.append("| lang | pipeline/plain cards/s, wall (median of pairs) | same, CPU time | target | pipeline s per 14k cards, wall (target < 10) |")
    o.append("|---|---:|---:|---:|---:|")
    for lang, ratio, ratio_cpu, per14k in summary:
        t = TARGETS.get(lang, 0.5)
        o.append(f"| {lang} | {ratio:.2f} {'ok' if ratio >= t else 'BELOW'} | {ratio_cpu:.2f} {'ok' if ratio_cpu >= t else 'BELOW'} | "
                 f">= {t} | {per14k:.2f} {'ok' if per14k < 10 else 'ABOVE'} |")
    if floors:
        o.append("")
        o.append("| lang | floor (no analysis)/plain cards/s, wall (median of pairs) | the most the pipeline could reach by tuning the analysis |")
        o.append("|---|---:|---|")
        for lang, r in floors:
            o.append(f"| {lang} | {r:.2f} | below {r:.2f} |")
    o.append("")
    o.append("Wall time includes interpreter start-up and imports; CPU time (user+sys of the child) is the "
             "steadier figure when other work shares the machine.  Peak RSS = the child's own VmHWM (largest of the runs).")
    if cold_rows:
        o += ["", "CLI cold start (a new process each run, pinned to one core; the compiled catalog comes from the cache):", "",
              "| command | wall s (median) | wall min-max | CPU s (median) | target (wall) | peak RSS MiB |",
              "|---|---:|---:|---:|---:|---:|"]
        for (name, rs), t in zip(cold_rows, (0.3, 0.8)):
            w = _median([r.wall for r in rs])
            o.append(f"| `{name}` | {w:.3f} {'ok' if w < t else 'ABOVE'} | {_spread([r.wall for r in rs])} | "
                     f"{_median([r.cpu for r in rs]):.3f} | < {t} | {max(r.maxrss_mib for r in rs):.0f} |")
    if job_rows:
        o += ["", "`tag --jobs N` (worker processes, not pinned; the same output as --jobs 1, checked), apart from the ratio:", "",
              "| lang | jobs | wall s (median) | wall min-max | CPU s of the parent (median) | gain (wall, against --jobs 1) |",
              "|---|---:|---:|---:|---:|---:|"]
        base = _median([r.wall for r in job_rows[0][2]])
        for lang, nj, rs in job_rows:
            w = _median([r.wall for r in rs])
            o.append(f"| {lang} | {nj} | {w:.2f} | {_spread([r.wall for r in rs])} | {_median([r.cpu for r in rs]):.2f} | {base / w:.2f}x |")
    o.append("")
    o.append("Commands (pipeline runs; the plain scan is `bench/speed.py --plain-worker FILE LANG PHRASES.json OUT`):")
    o.append("")
    o.append("```")
    o += commands
    o.append("```")
    return "\n".join(o) + "\n"


# -- where the time goes: one tag run in this process, CPU time per stage ------------------------

class _Stages:
    """Self CPU time (``time.process_time``) per stage: a wrapped function's time counts for its
    stage minus the time of wrapped functions it calls.  Each wrapped call costs ~1 us of its own
    (a few % of the run), counted in the stage that makes the call."""

    def __init__(self) -> None:
        from collections import defaultdict
        self.total: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.stack = ["other (command loop, click, writer set-up)"]
        self.mark = time.process_time()

    def _enter(self, name: str) -> None:
        now = time.process_time()
        self.total[self.stack[-1]] += now - self.mark
        self.mark = now
        self.stack.append(name)
        self.calls[name] += 1

    def _leave(self) -> None:
        now = time.process_time()
        self.total[self.stack.pop()] += now - self.mark
        self.mark = now

    def wrap(self, owner, attr: str, name: str, generator: bool = False) -> None:
        fn = getattr(owner, attr, None)
        if fn is None:
            return
        st = self

        def timed(*a, **k):
            st._enter(name)
            try:
                res = fn(*a, **k)
                it = iter(res) if generator else None
            finally:
                st._leave()
            if not generator:
                return res

            def each():
                while True:
                    st._enter(name)
                    try:
                        x = next(it)
                    except StopIteration:
                        return
                    finally:
                        st._leave()
                    yield x
            return each()

        setattr(owner, attr, timed)


def stages(lang: str) -> int:
    """Run ``tag`` on yaml-yugi in ``lang`` in this process with timers around each stage; print
    CPU seconds per stage."""
    from _common import YAML_YUGI, require_shared, s2tw_yaml_yugi

    require_shared(YAML_YUGI)
    src = s2tw_yaml_yugi() if lang == "zh-TW" else YAML_YUGI
    t0 = time.process_time()
    import extractor.cli as cli
    import extractor.pipeline as pl
    import extractor.patterns as pt
    import extractor.readers as rd
    import extractor.writers as wr
    t_imports = time.process_time() - t0
    st = _Stages()
    for owner in (cli, rd):
        st.wrap(owner, "read_cards", "read (JSON, Card objects)", generator=True)
    for owner in (pt, pl, cli):
        st.wrap(owner, "load_catalog", "catalog load (cache or compile)")
    st.wrap(pl, "normalize", "normalize (registers included)")
    st.wrap(pl, "segment", "segment")
    st.wrap(pt.Catalog, "run", "match (Catalog.run)")
    st.wrap(pl, "_conditions", "conditions (pydantic objects)")
    st.wrap(pl, "build_profile", "profile")
    st.wrap(pl, "tags_from_profile", "tags")
    st.wrap(pl, "analyze", "analyze, rest (CardResult, pendulum, ...)")
    st.wrap(pl.CardResult, "model_dump", "dump (model_dump)")
    st.wrap(wr.Writer, "write", "write (orjson, file)")
    with tempfile.TemporaryDirectory(prefix="ygo-stages-") as d:
        st.mark = time.process_time()
        cli.main(["tag", str(src), "--lang", lang, "-o", str(Path(d) / "out.jsonl"), "--no-progress"],
                 standalone_mode=False)
        st._enter("end")
    total = time.process_time()
    print(f"\nwhere the CPU time of `tag` on yaml-yugi --lang {lang} goes (one run in this process):\n")
    print("| stage | CPU s | share | calls |")
    print("|---|---:|---:|---:|")
    rows = [("interpreter start", t0, 0), ("imports", t_imports, 0)] + \
        [(k, v, st.calls[k]) for k, v in sorted(st.total.items(), key=lambda kv: -kv[1])]
    for k, v, c in rows:
        print(f"| {k} | {v:.3f} | {100 * v / total:.1f}% | {c or ''} |")
    print(f"| **process** | {total:.3f} | 100% | |")
    return 0


def pattern_costs(lang: str, top: int = 25) -> int:
    """Run ``tag`` on yaml-yugi in ``lang`` in this process, keep every region ``Catalog.run`` was
    asked to match, then replay the matching pattern by pattern: CPU seconds of each pattern over
    the regions its ``requires`` literals and required-literal checks let through (the same gates
    as ``Catalog.run``), and of each shared ``anchor`` scan.  Print the ``top`` costliest rows."""
    from _common import match_calls
    import extractor.patterns as pt

    calls = [(text[start:end], lang_, scopes) for text, lang_, start, end, scopes in match_calls(lang)]
    cat = pt.load_catalog()
    todo: dict[str, list[str]] = {}  # pattern id -> the regions it runs on
    anchors: dict[str, list[str]] = {}  # anchor -> the regions it is scanned on (once per region)
    by_id: dict[str, object] = {}
    t_total = time.process_time()
    for region, lang_, scopes in calls:
        cat.run(region, lang_, scopes=scopes)  # builds the plan
    t_total = time.process_time() - t_total
    for region, lang_, scopes in calls:
        seen: set[str] = set()
        for p in cat.gated(region, lang_, scopes):  # the same gates as Catalog.run
            by_id[p.id] = p
            todo.setdefault(p.id, []).append(region)
            if p.anchor is not None and (p.anchor.pattern, p.within) not in seen:
                seen.add((p.anchor.pattern, p.within))
                anchors.setdefault((p.anchor.pattern, p.within), []).append(region)
    rows: list[tuple[float, str, int, int]] = []
    for (a, within), regions in anchors.items():
        if a == "^":
            continue  # Catalog.run takes position 0 without a scan
        rx = next(p.anchor for p in by_id.values() if p.anchor is not None and p.anchor.pattern == a)
        t = time.process_time()
        for r in regions:  # (only inside the pieces of a `within` gate, as Catalog.run does)
            [m.start() for x, y in (pt.runner._pieces(r, *within) if within else ((0, len(r)),))
             for m in rx.finditer(r, x, y)]
        rows.append((time.process_time() - t, f"anchor `{a[:50]}`", len(regions), 0))
    for pid, regions in todo.items():
        p = by_id[pid]
        pos = [[m.start() for m in p.anchor.finditer(r)] for r in regions] if p.anchor is not None else None
        t = time.process_time()
        if p.within is not None and p.anchor is None:  # the pieces that hold a cue, as Catalog.run does
            n = sum(1 for r in regions for a, b in pt.runner._pieces(r, *p.within) for _ in p.regex.finditer(r, a, b))
        elif pos is None:
            n = sum(1 for r in regions for _ in p.regex.finditer(r))
        else:
            n = sum(len(pt._anchored(p.regex, r, ps_, False) or ()) for r, ps_ in zip(regions, pos))
        rows.append((time.process_time() - t, pid, len(regions), n))
    rows.sort(reverse=True)
    spent = sum(r[0] for r in rows)
    print(f"\nCPU time of each pattern over the regions of one `tag` run on yaml-yugi --lang {lang} "
          f"({len(calls):,} regions; Catalog.run over them all: {t_total:.3f} s):\n")
    print("| pattern (or shared anchor scan) | CPU s | share of the patterns | regions tried | matches |")
    print("|---|---:|---:|---:|---:|")
    for sec, name, k, n in rows[:top]:
        print(f"| {name} | {sec:.3f} | {100 * sec / spent:.1f}% | {k:,} | {n:,} |")
    print(f"| **all {len(rows)} rows** | {spent:.3f} | 100% | | |")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median counts (default 3)")
    ap.add_argument("--jobs", type=int, default=0, metavar="N", help="also time tag --jobs N against --jobs 1 (zh-CN)")
    ap.add_argument("--no-cold-start", action="store_true", help="leave out the CLI cold start")
    ap.add_argument("--stages", choices=LANGS, metavar="LANG", help="only profile one tag run in this process: "
                    "CPU seconds per stage (reading, normalizing, matching, ...), then exit")
    ap.add_argument("--patterns", choices=LANGS, metavar="LANG", help="only time each pattern of the catalog over "
                    "the regions one tag run matches in this language (CPU seconds), then exit")
    ap.add_argument("--lang", action="append", choices=LANGS, help="only this language (repeatable)")
    ap.add_argument("--save", action="store_true", help="also write bench/results/speed.md")
    ap.add_argument("--floor", action="store_true", help="also time `tag` with the analysis of each card replaced by "
                    "the shared no-condition result (start-up, reading, hashing, writing): the part of the run no "
                    "tuning of the analysis can take away")
    ap.add_argument("--floor-worker", nargs=3, metavar=("FILE", "LANG", "OUT"), help=argparse.SUPPRESS)
    ap.add_argument("--plain-worker", nargs=4, metavar=("FILE", "LANG", "PHRASES", "OUT"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.plain_worker:
        plain_worker(*a.plain_worker)
        return 0
    if a.floor_worker:
        floor_worker(*a.floor_worker)
        return 0
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    if a.stages:
        return stages(a.stages)
    if a.patterns:
        return pattern_costs(a.patterns)
    text = bench(max(1, a.repeat), a.lang or list(LANGS), a.jobs, not a.no_cold_start, a.floor)
    print(text)
    if a.save:
        from _common import save
        print(f"saved {save('speed.md', text)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
