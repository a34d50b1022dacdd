#!/usr/bin/env python3
"""CPU time of :func:`extractor.coverage.coverage_of` alone, over every card of one ``tag`` run.

    .venv/bin/python bench/coverage_speed.py --lang zh-CN
    PYTHONPATH=/tmp/old .venv/bin/python bench/coverage_speed.py --lang zh-CN   # another tree's extractor

Reads ../shared/data/yaml-yugi/cards.jsonl in language ``--lang`` with ``extractor.pipeline.analyze``
(the ``extractor`` package found first on ``sys.path``: this checkout, or the tree ``PYTHONPATH``
names), records the arguments of every ``coverage_of`` call the pipeline makes, then calls
``coverage_of`` again on all of them ``--repeat`` times and prints the CPU seconds of each round
(``time.process_time``) and their median, and a checksum of the results (the same in two trees
when both give the same coverage).  A whole ``tag`` run is measured from outside the process.
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

YAML_YUGI = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="zh-CN")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--input", type=Path, default=YAML_YUGI)
    a = ap.parse_args()
    if not a.input.is_file():
        print(f"{a.input}: not found (../shared is needed)", file=sys.stderr)
        return 2
    import extractor.pipeline as pl
    from extractor.readers import read_cards

    calls = []
    real = pl.coverage_of

    def record(*args):
        calls.append(args)
        return real(*args)

    pl.coverage_of = record
    try:
        for item in read_cards(a.input, a.lang):
            if item.card is not None:
                pl.analyze(item.card)
    finally:
        pl.coverage_of = real
    digest = hashlib.sha256(repr([real(*c) for c in calls]).encode()).hexdigest()[:16]
    rounds = []
    for _ in range(a.repeat):
        t0 = time.process_time()
        for c in calls:
            real(*c)
        rounds.append(time.process_time() - t0)
    print(f"extractor: {Path(pl.__file__).parent}")
    print(f"{a.lang}: {len(calls)} coverage_of calls; CPU s per round: " + ", ".join(f"{r:.3f}" for r in rounds)
          + f"; median {statistics.median(rounds):.3f}; results {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
