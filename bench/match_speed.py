"""Time the matcher alone: ``Catalog.run`` over the calls one ``tag`` run makes, replayed.

    .venv/bin/python bench/match_speed.py --lang zh-CN                      # this tree
    .venv/bin/python bench/match_speed.py --lang zh-CN --against /tmp/old   # and another tree, in turn

One ``tag`` run of yaml-yugi in ``--lang`` (in this process, this tree) records the arguments of
every ``Catalog.run`` call.  Then a fresh process per measurement loads a tree's catalog (its
``extractor`` package first on ``sys.path``; ``--against`` names another tree, e.g. a ``git archive``
of main), replays the calls ``--passes`` times and prints the CPU seconds of the fastest pass, and a
digest of every match (pattern, offsets, fields).  With ``--against``, the two trees run in turn
(``--pairs`` pairs: other, this, other, this ...): the medians, the median of the per-pair ratios,
and whether the digests agree.  Each tree keeps its compiled catalog in its own cache folder under
the temp folder (a warm-up process builds it first).  Not a test: it prints figures.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, YAML_YUGI, match_calls, require_shared  # noqa: E402

LANGS = ("en", "zh-CN", "zh-TW", "ja")


def record(lang: str, out: Path) -> int:
    """Run ``tag`` on yaml-yugi in ``lang`` here; write the arguments of each ``Catalog.run`` call
    (text, lang, start, end, scopes) to ``out`` (pickle).  Returns the number of calls."""
    calls = match_calls(lang)
    out.write_bytes(pickle.dumps(calls, protocol=5))
    return len(calls)


def worker(tree: str, calls_file: str, passes: int) -> None:
    """(In a fresh process.)  Replay the calls with ``tree``'s catalog; print 'SECONDS DIGEST'."""
    sys.path.insert(0, tree)
    import extractor.patterns as pt

    cat = pt.load_catalog()
    calls = pickle.loads(Path(calls_file).read_bytes())
    best = float("inf")
    for _ in range(passes):
        t = time.process_time()
        for c in calls:
            cat.run(*c)
        best = min(best, time.process_time() - t)
    h = hashlib.sha256()
    for c in calls:
        for m in cat.run(*c):
            h.update(repr((m.pattern.id, m.start, m.end, sorted(m.fields.items()))).encode())
    print(f"{best:.4f} {h.hexdigest()[:16]}")


def _measure(tree: Path, calls: Path, passes: int) -> tuple[float, str]:
    env = dict(os.environ, YGO_EXTRACTOR_CACHE_DIR=str(Path(tempfile.gettempdir()) / "ygo-match-cache" /
                                                        hashlib.sha256(str(tree).encode()).hexdigest()[:12]))
    r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(tree), str(calls), str(passes)],
                       capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    if r.returncode:
        sys.exit(f"replay with {tree} failed:\n{r.stderr[-2000:]}")
    sec, digest = r.stdout.split()
    return float(sec), digest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", choices=LANGS, default="zh-CN")
    ap.add_argument("--against", type=Path, help="another tree (e.g. a git archive of main) to run in turn")
    ap.add_argument("--pairs", type=int, default=5, help="measurements per tree (default 5)")
    ap.add_argument("--passes", type=int, default=3, help="replays per measurement; the fastest counts (default 3)")
    ap.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        worker(a.worker[0], a.worker[1], int(a.worker[2]))
        return 0
    require_shared(YAML_YUGI)
    with tempfile.TemporaryDirectory(prefix="ygo-match-") as d:
        calls = Path(d) / "calls.pickle"
        n = record(a.lang, calls)
        trees = [a.against.resolve(), ROOT] if a.against else [ROOT]
        for t in trees:  # warm-up: each tree builds its cached catalog
            _measure(t, calls, 0)
        rows = [[_measure(t, calls, a.passes) for t in trees] for _ in range(a.pairs)]
    print(f"\nCatalog.run over the {n:,} calls of one `tag` run of yaml-yugi --lang {a.lang} "
          f"(CPU s, fastest of {a.passes} passes per process):\n")
    if not a.against:
        print(f"this tree: median {statistics.median(r[0][0] for r in rows):.3f} s  "
              f"({', '.join(f'{r[0][0]:.3f}' for r in rows)}); matches digest {rows[0][0][1]}")
        return 0
    old = [r[0][0] for r in rows]
    new = [r[1][0] for r in rows]
    same = {r[0][1] for r in rows} == {r[1][1] for r in rows} and len({r[0][1] for r in rows}) == 1
    print(f"{a.against}: median {statistics.median(old):.3f} s ({', '.join(f'{x:.3f}' for x in old)})")
    print(f"this tree: median {statistics.median(new):.3f} s ({', '.join(f'{x:.3f}' for x in new)})")
    print(f"ratio per pair, median: {statistics.median(b / o for o, b in zip(old, new)):.3f} "
          f"(min {min(b / o for o, b in zip(old, new)):.3f}, max {max(b / o for o, b in zip(old, new)):.3f})")
    print(f"same matches (pattern, offsets, fields) in both trees: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
