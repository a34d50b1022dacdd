#!/usr/bin/env python3
"""Share of monsters whose summoning wording ``tag`` did not read whole (``coverage: partial``).

    .venv/bin/python bench/coverage.py                      # en, zh-CN and ja
    .venv/bin/python bench/coverage.py --lang en --sample 10 --seed 7

Tags ../shared/data/yaml-yugi/cards.jsonl with the real command line (``python -m extractor.cli
tag FILE --lang L -o TMP --no-progress``), keeps the monster cards (yaml-yugi ``card_type``), and
prints per language: monsters, partial ones and their share, the unread pieces per group, the
most frequent unread phrases, and ``--sample`` partial cards drawn at random (``--seed``) with
their unread words, to be READ: is each one really summoning wording that was not read (the
precision of "partial")?  Needs ../shared; exits with a message if it is absent.
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, YAML_YUGI, require_shared  # noqa: E402


def monsters(path: Path) -> set[int]:
    """Passcodes of the yaml-yugi monster cards."""
    out = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                if d.get("card_type") == "Monster" and d.get("password") is not None:
                    out.add(int(d["password"]))
    return out


def run(lang: str, mons: set[int], sample: int, seed: int) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="ygo-coverage-") as d:
        out = Path(d) / "out.jsonl"
        r = subprocess.run([sys.executable, "-m", "extractor.cli", "tag", str(YAML_YUGI), "--lang", lang,
                            "-o", str(out), "--no-progress"], cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            return [f"{lang}: tag failed ({r.returncode}): {r.stderr[-500:]}"]
        rows = [json.loads(ln) for ln in out.read_text(encoding="utf-8").splitlines() if ln.strip()]
    summary = [ln for ln in r.stderr.splitlines() if ln.startswith("cards ")]
    rows = [o for o in rows if o.get("id") in mons and not o.get("error")]
    part = [o for o in rows if o.get("coverage") == "partial"]
    groups = collections.Counter(u[2] for o in part for u in o["unread"])
    texts: dict[int, str] = {}
    with open(YAML_YUGI, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                if d.get("password") is not None:
                    texts[int(d["password"])] = (d.get("text") or {}).get(lang) or ""
    phrases = collections.Counter(texts[o["id"]][s:e][:70] for o in part for s, e, _g in o["unread"])
    lines = [f"## {lang}", f"tag summary: {summary[-1] if summary else '?'}",
             f"monsters read: {len(rows)}, partial: {len(part)} ({len(part) / max(len(rows), 1):.1%})",
             "unread pieces per group: " + ", ".join(f"{g} {n}" for g, n in groups.most_common()),
             "most frequent unread phrases:"]
    lines += [f"  {n:4d}  {p!r}" for p, n in phrases.most_common(15)]
    if sample:
        lines.append(f"{sample} partial cards drawn at random (seed {seed}):")
        for o in random.Random(seed).sample(part, min(sample, len(part))):
            t = texts[o["id"]]
            lines.append(f"  {o['id']} {o['name']}: " + " | ".join(f"[{g}] {t[s:e]!r}" for s, e, g in o["unread"]))
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", action="append", help="en, zh-CN, zh-TW, ja (repeatable; default en, zh-CN and ja)")
    ap.add_argument("--sample", type=int, default=10, help="partial cards to print per language (default 10)")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    require_shared(YAML_YUGI)
    mons = monsters(YAML_YUGI)
    for lang in a.lang or ["en", "zh-CN", "ja"]:
        print("\n".join(run(lang, mons, a.sample, a.seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
