"""Speed of ``ygo-extractor query`` over all of yaml-yugi once tagged (issue 12 §2 target: under
a second).

    .venv/bin/python bench/query_speed.py [--runs 5] [--lang en] [--save]

Tags ``../shared/data/yaml-yugi/cards.jsonl`` once (JSONL and SQLite, in a temp folder; not
timed), then runs each query of QUERIES as a whole process (``ygo-extractor query FILE EXPR
--count``: start-up, imports, reading, parsing and matching all included) ``--runs`` times and
prints, per query and input kind, the median and max wall seconds, the median CPU seconds (user +
system of the child) and the count.  ``--save`` writes the table to bench/results/query_speed.md.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import RESULTS, ROOT, YAML_YUGI, rel, require_shared  # noqa: E402

EXE = ROOT / ".venv" / "bin" / "ygo-extractor"
QUERIES = [
    "is:nomi or from:gy",
    "tag:revive-limit -summon:fusion tributes>=2",
    "kind:builtin-special-summon (from:gy or from:banished) -is:semi-nomi",
    "cost:banish or dragon",
]


def _run(args: list[str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({p.returncode}): {p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--save", action="store_true")
    a = ap.parse_args()
    require_shared(YAML_YUGI)
    exe = str(EXE) if EXE.exists() else "ygo-extractor"
    with tempfile.TemporaryDirectory() as d:
        jsonl, db = Path(d) / "yaml-yugi.jsonl", Path(d) / "yaml-yugi.db"
        for out, fmt in ((jsonl, "jsonl"), (db, "sqlite")):
            subprocess.run([exe, "tag", str(YAML_YUGI), "--lang", a.lang, "--format", fmt, "-o", str(out),
                            "--no-progress"], check=True, capture_output=True)
        ncards = sum(1 for _ in open(jsonl, "rb"))
        rows = []
        for q in QUERIES:
            for kind, path in (("jsonl", jsonl), ("sqlite", db)):
                _run([exe, "query", str(path), q, "--count"])  # warm-up (file cache), not counted
                runs = [_run([exe, "query", str(path), q, "--count"]) for _ in range(a.runs)]
                walls = [r[0] for r in runs]
                rows.append((q, kind, statistics.median(walls), max(walls), statistics.median(r[1] for r in runs),
                             runs[0][2]))
    lines = [f"query over yaml-yugi ({ncards} cards, --lang {a.lang}) once tagged; whole process, "
             f"{a.runs} runs each (`{rel(exe)} query FILE 'EXPR' --count`), {os.cpu_count()} CPUs",
             "", "| query | input | wall median s | wall max s | CPU median s | count |", "|---|---|---|---|---|---|"]
    lines += [f"| `{q}` | {k} | {w:.3f} | {mx:.3f} | {c:.3f} | {n} |" for q, k, w, mx, c, n in rows]
    text = "\n".join(lines)
    print(text)
    if a.save:
        (RESULTS / "query_speed.md").write_text(text + "\n", encoding="utf-8")
        print(f"saved {rel(RESULTS / 'query_speed.md')}")


if __name__ == "__main__":
    main()
