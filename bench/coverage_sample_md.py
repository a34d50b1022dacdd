#!/usr/bin/env python3
"""A markdown list of seeded random ``coverage: partial`` cards, with an EMPTY verdict column, for a
fresh judge (the author never writes a verdict).

    .venv/bin/python bench/coverage_sample_md.py --lang ja --n 20 --seed 11 -o docs/coverage-ja-sample.md
    .venv/bin/python bench/coverage_sample_md.py --lang ja --n 20 --seed 12 --exclude docs/coverage-ja-sample.md -o NEW.md

Tags ../shared/data/yaml-yugi/cards.jsonl with the real command line (as ``bench/coverage.py``),
keeps the monsters read without error whose coverage is ``partial``, draws ``--n`` of them with
``random.Random(seed).sample`` and writes a table (passcode, English name, unread pieces with their
group, verdict) and the full texts below it.  ``--exclude FILE`` (repeatable) leaves out the
passcodes of an earlier sample (the second column of its table, :func:`sample_ids`), so a fresh
judge reads cards nobody has read before.
"""
from __future__ import annotations

import argparse
import json
import re
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, YAML_YUGI, require_shared  # noqa: E402
from coverage import monsters  # noqa: E402

#: a table row of a sample file: ``| # | passcode | ...``
_ROW = re.compile(r"^\|\s*\d+\s*\|\s*(\d+)\s*\|", re.M)


def sample_ids(path: Path) -> set[int]:
    """The passcodes of the table rows of a sample file written by this script (or a judged copy
    of one).  Raises ``SystemExit`` naming the file when it holds none (not a sample file)."""
    ids = {int(m.group(1)) for m in _ROW.finditer(Path(path).read_text(encoding="utf-8"))}
    if not ids:
        raise SystemExit(f"{path}: no sample table rows (| # | passcode | ...) found")
    return ids


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="ja")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--exclude", action="append", default=[], metavar="FILE",
                    help="an earlier sample file whose passcodes are left out (repeatable)")
    a = ap.parse_args()
    seen: set[int] = set()
    for f in a.exclude:
        seen |= sample_ids(Path(f))
    require_shared(YAML_YUGI)
    mons = monsters(YAML_YUGI)
    with tempfile.TemporaryDirectory(prefix="ygo-covsample-") as d:
        out = Path(d) / "out.jsonl"
        r = subprocess.run([sys.executable, "-m", "extractor.cli", "tag", str(YAML_YUGI), "--lang", a.lang,
                            "-o", str(out), "--no-progress"], cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"tag failed ({r.returncode}): {r.stderr[-500:]}", file=sys.stderr)
            return 1
        rows = [json.loads(ln) for ln in out.read_text(encoding="utf-8").splitlines() if ln.strip()]
    texts: dict[int, str] = {}
    names: dict[int, str] = {}
    with open(YAML_YUGI, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                if d.get("password") is not None:
                    texts[int(d["password"])] = (d.get("text") or {}).get(a.lang) or ""
                    names[int(d["password"])] = (d.get("name") or {}).get("en") or ""
    read = [o for o in rows if o.get("id") in mons and not o.get("error")]
    part = [o for o in read if o.get("coverage") == "partial"]
    left = [o for o in part if o["id"] not in seen]
    pick = random.Random(a.seed).sample(left, min(a.n, len(left)))
    excl = (f" {len(part) - len(left)} of them, the cards of {', '.join(a.exclude)}, left out (`--exclude`);"
            if a.exclude else "")
    lines = [f"# {a.lang} coverage: {len(pick)} partial cards for a fresh judge", "",
             f"Drawn at random (`random.Random({a.seed}).sample`) from the {len(part)} yaml-yugi monsters (of {len(read)} "
             f"read) whose `{a.lang}` text `tag --lang {a.lang}` reports as `coverage: partial`:{excl}",
             f"`.venv/bin/python bench/coverage_sample_md.py --lang {a.lang} --n {a.n} --seed {a.seed}"
             + "".join(f" --exclude {f}" for f in a.exclude) + f" -o {a.out}`.", "",
             "For each card: is each unread piece really summoning wording (wording about this card's own Summon)",
             "that the catalog did not read?  `yes`: the partial is right; `no`: the piece is no summoning wording",
             "(a false alarm); `part`: some pieces yes, some no.  The author did not judge these.", "",
             "| # | passcode | name (en) | unread pieces [group] | verdict |", "|---|---|---|---|---|"]
    for i, o in enumerate(pick, 1):
        t = texts[o["id"]]
        pieces = "<br>".join(f"[{g}] {t[s:e]}" for s, e, g in o["unread"]).replace("|", "\\|")
        lines.append(f"| {i} | {o['id']} | {names[o['id']]} | {pieces} |  |")
    lines += ["", "## Texts", ""]
    for i, o in enumerate(pick, 1):
        lines += [f"### {i}. {o['id']} {o['name']} ({names[o['id']]})", "", "```", texts[o["id"]], "```", ""]
    Path(a.out).write_text("\n".join(lines), encoding="utf-8")
    print(f"{a.lang}: {len(part)} partial of {len(read)} monsters; {len(part) - len(left)} excluded; "
          f"{len(pick)} drawn -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
