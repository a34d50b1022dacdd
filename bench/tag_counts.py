#!/usr/bin/env python3
"""Tag counts of ``tag`` on the other real card databases of ../shared/data (no labels there:
this shows what the extractor finds in each era / register, and its errors).

    .venv/bin/python bench/tag_counts.py [--save] [--compact]

Runs the real command line (``python -m extractor.cli tag FILE --lang L -o TMP``, a subprocess)
on each file below, reads the JSONL it wrote and prints one markdown table: a row per tag, a
column per file, plus cards, cards with at least one tag, error lines and seconds.  With
``--save`` the table also goes to ``bench/results/tag_counts.md``.  Needs ../shared.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import SHARED, rel, require_shared, finish, run_child, tag_args  # noqa: E402

D = SHARED / "data"
FILES = [  # (column label, path, --lang)
    ("goat-en-US.cdb", D / "cdb" / "goat-en-US.cdb", "en"),
    ("goat-zh-CN.cdb", D / "cdb" / "goat-zh-CN.cdb", "zh-CN"),
    ("salvation-2015-en.cdb", D / "cdb" / "salvation-2015-en.cdb", "en"),
    ("prerelease-2026-zh-TW.cdb", D / "cdb" / "prerelease-2026-zh-TW.cdb", "zh-TW"),
    ("i18n-2012 zh-TW", D / "i18n-2012" / "cards.zh-TW.json", "zh-TW"),
]


def vocab() -> list[str]:
    """TAGS.md tags in the scorer's order (../shared/eval/score.py VOCAB) when available."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("score", SHARED / "eval" / "score.py")
    try:
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
        return list(mod.VOCAB)
    except (OSError, AttributeError):
        return []


def main(argv: list[str] | None = None) -> int:
    import orjson

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--save", action="store_true", help="also write bench/results/tag_counts.md")
    a = ap.parse_args(argv)
    require_shared(*(p for _, p, _ in FILES))
    cols = []
    with tempfile.TemporaryDirectory(prefix="ygo-tagcounts-") as d:
        for label, path, lang in FILES:
            out = Path(d) / "out.jsonl"
            print(f"  tag {label} --lang {lang} ...", file=sys.stderr)
            r = run_child(tag_args(path, lang, out, "--compact"), one_core=False)
            if r.returncode != 0:
                sys.exit(f"tag failed on {path} (exit {r.returncode}):\n{r.stderr[-2000:]}")
            counts: Counter[str] = Counter()
            n = tagged = errors = warned = 0
            err_kinds: Counter[str] = Counter()
            with open(out, "rb") as f:
                for line in f:
                    row = orjson.loads(line)
                    n += 1
                    if "error" in row:
                        errors += 1
                        e = row["error"] or ""
                        err_kinds["no text row" if "no texts row" in e else e.split(": ", 1)[-1][:40]] += 1
                        continue
                    counts.update(row.get("tags") or [])
                    tagged += bool(row.get("tags"))
                    warned += bool(row.get("warnings"))
            cols.append(dict(label=label, path=path, lang=lang, counts=counts, n=n, tagged=tagged, errors=errors,
                             warned=warned, err_kinds=err_kinds, seconds=r.wall))
    order = vocab()
    seen = {t for c in cols for t in c["counts"]}
    tags = [t for t in order if t in seen] + sorted(seen - set(order))
    o = ["# Tag counts of `tag` on the real card databases", ""]
    o.append(f"{time.strftime('%Y-%m-%d %H:%M')}; one `tag` run per file (subprocess), output JSONL counted.")
    o.append("")
    o.append("| tag | " + " | ".join(c["label"] for c in cols) + " |")
    o.append("|---|" + "---:|" * len(cols))
    for name, key in (("**cards**", "n"), ("**cards with a tag**", "tagged"), ("**errors**", "errors"),
                      ("**cards with warnings**", "warned")):
        o.append(f"| {name} | " + " | ".join(f"{c[key]:,}" for c in cols) + " |")
    for t in tags:
        o.append(f"| {t} | " + " | ".join(f"{c['counts'][t]:,}" if c["counts"][t] else "." for c in cols) + " |")
    o.append("| _seconds (wall)_ | " + " | ".join(f"{c['seconds']:.2f}" for c in cols) + " |")
    o.append("")
    for c in cols:
        if c["err_kinds"]:
            o.append(f"- {c['label']} errors: " + "; ".join(f"{k} x{v}" for k, v in c["err_kinds"].most_common(5)))
    o.append("")
    o.append("Commands:")
    o.append("")
    return finish(o, [f".venv/bin/python -m extractor.cli tag {rel(c['path'])} --lang {c['lang']} --compact -o OUT.jsonl"
                      for c in cols], "tag_counts.md", a.save)


if __name__ == "__main__":
    sys.exit(main())
